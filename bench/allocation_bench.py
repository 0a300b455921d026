"""Benchmark: auto-allocation of 2,000 unassigned sessions over 60 teachers, and one recommendation.

    .venv/bin/python bench/allocation_bench.py            # SQLite file var/bench-allocation.sqlite3
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench .venv/bin/python bench/allocation_bench.py

Targets (issue 10): a feasible proposal within 10 s; a recommendation under 300 ms. Prints figures.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from datetime import date, timedelta
from datetime import time as dtime
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import setup_django  # noqa: E402

setup_django("bench-allocation.sqlite3")

from project.accounts.models import Organization  # noqa: E402
from project.catalogue.models import Unit  # noqa: E402
from project.core.tenancy import Ctx  # noqa: E402
from project.planning.models import BlockGroup  # noqa: E402
from project.staff.models import Teacher, TeacherUnit  # noqa: E402
from project.timetabling import auto_allocation as aa  # noqa: E402
from project.timetabling.models import TimetableSession  # noqa: E402

SESSIONS, TEACHERS, UNITS, GROUPS = 2000, 60, 40, 40


def seed() -> Organization:
    rnd = random.Random(7)
    cleanup()
    org = Organization.objects.create(name="Allocation bench", domain="bench-allocation.example")
    units = Unit.objects.bulk_create(
        [Unit(organization=org, code=f"BENCH{i:03d}", name=f"Unit {i}", nominal_hours=60) for i in range(UNITS)]
    )
    teachers = Teacher.objects.bulk_create(
        [
            Teacher(
                organization=org,
                employee_id=f"B{i:04d}",
                first_name=f"T{i}",
                last_name="Bench",
                email=f"t{i}@bench.example",
                availability=rnd.choice(["day", "day", "both", "evening"]),
                max_weekly_hours=rnd.choice([15, 21, 25, 30]),
            )
            for i in range(TEACHERS)
        ]
    )
    TeacherUnit.objects.bulk_create(
        [TeacherUnit(organization=org, teacher=t, unit=u) for t in teachers for u in rnd.sample(units, 8)],
        ignore_conflicts=True,
    )
    groups = BlockGroup.objects.bulk_create(
        [
            BlockGroup(organization=org, code=f"BG{i:03d}", name=f"Group {i}", cohort_size=20, start_date=date(2027, 2, 1))
            for i in range(GROUPS)
        ]
    )
    start = date(2027, 2, 1)
    rows = []
    per_group = SESSIONS // GROUPS
    for gi, g in enumerate(groups):
        group_units = rnd.sample(units, 5)
        for k in range(per_group):
            week, slot = divmod(k, 4)
            day = start + timedelta(weeks=week % 12, days=[0, 0, 2, 2][slot] + gi % 2)
            begin = dtime(9) if slot % 2 == 0 else dtime(13)
            if gi % 7 == 0:
                begin = dtime(18) if slot % 2 == 0 else dtime(13)
            end = dtime(begin.hour + 3)
            rows.append(
                TimetableSession(
                    organization=org,
                    block_group=g,
                    unit=group_units[k * 5 // per_group],
                    actual_date=day,
                    day_of_week=day.isoweekday(),
                    start_time=begin,
                    end_time=end,
                    actual_hours=Decimal(3),
                    week_number=week + 1,
                    room="",
                )
            )
    TimetableSession.objects.bulk_create(rows)
    return org


def main() -> None:
    org = seed()
    ctx = Ctx(org=org)
    started = time.perf_counter()
    result = aa.propose(ctx, aa.Scope(start=date(2027, 1, 1), end=date(2027, 12, 31)))
    total = (time.perf_counter() - started) * 1000
    print(f"auto-allocate proposal: {result['sessionsInScope']} sessions, {TEACHERS} teachers")
    print(
        f"  status {result['status']}, solver {result['solveMs']:.0f} ms, total {total:.0f} ms (target: feasible within 10,000 ms)"
    )
    print(f"  assigned {len(result['assignments'])}, unassignable {len(result['unassignable'])}")
    print(f"  before {result['before']}")
    print(f"  after  {result['after']}")
    sample = list(TimetableSession.objects.for_org(org).values_list("id", flat=True)[:50])
    timings = []
    for sid in sample:
        t0 = time.perf_counter()
        aa.recommend(ctx, sid)
        timings.append((time.perf_counter() - t0) * 1000)
    timings.sort()
    print(
        f"recommendations for one session: median {statistics.median(timings):.1f} ms, "
        f"p95 {timings[int(len(timings) * 0.95) - 1]:.1f} ms, max {timings[-1]:.1f} ms (target < 300 ms)"
    )
    cleanup()


def cleanup() -> None:
    for org in Organization.objects.filter(domain="bench-allocation.example"):
        TimetableSession.objects.for_org(org).delete()
        BlockGroup.objects.for_org(org).delete()
        org.delete()


if __name__ == "__main__":
    main()
