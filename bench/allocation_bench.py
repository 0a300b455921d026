"""Benchmark: auto-allocation of 2,000 unassigned sessions over 60 teachers, and one recommendation.

    .venv/bin/python bench/allocation_bench.py            # SQLite file var/bench-allocation.sqlite3
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench .venv/bin/python bench/allocation_bench.py
    .venv/bin/python bench/allocation_bench.py availability   # the case of ADR 0027, below

Targets: a feasible proposal within 10 s; a recommendation under 300 ms. Prints figures.

``availability``: the same 2,000 sessions over 150 teachers, each with a painted availability pattern
(three to five weekdays), limits (hours a day, hours a week, days a week), preferences (an avoided
afternoon, a preferred morning, a preferred campus) and for a third of them one campus only, the groups
split over two campuses (ADR 0027). Same targets; prints continuity and balance beside the preference
score (the sum of the allocated sessions' preference weights, lower is better).
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
from project.catalogue.models import Campus, Unit  # noqa: E402
from project.core.tenancy import Ctx  # noqa: E402
from project.planning.models import BlockGroup  # noqa: E402
from project.staff.models import Teacher, TeacherAvailability, TeacherUnit  # noqa: E402
from project.timetabling import auto_allocation as aa  # noqa: E402
from project.timetabling.models import TimetableSession  # noqa: E402

SESSIONS, TEACHERS, UNITS, GROUPS = 2000, 60, 40, 40
AVAILABILITY_TEACHERS = 150


def seed(teachers_count: int = TEACHERS, with_availability: bool = False) -> Organization:
    rnd = random.Random(7)
    cleanup()
    org = Organization.objects.create(name="Allocation bench", domain="bench-allocation.example")
    campuses = Campus.objects.bulk_create(
        [Campus(organization=org, abbreviation=a, name=n) for a, n in (("FS", "Footscray"), ("SS", "Sunshine"))]
    )
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
            for i in range(teachers_count)
        ]
    )
    if with_availability:
        _paint(org, teachers, campuses, rnd)
    TeacherUnit.objects.bulk_create(
        [TeacherUnit(organization=org, teacher=t, unit=u) for t in teachers for u in rnd.sample(units, 8)],
        ignore_conflicts=True,
    )
    groups = BlockGroup.objects.bulk_create(
        [
            BlockGroup(
                organization=org,
                code=f"BG{i:03d}",
                name=f"Group {i}",
                cohort_size=20,
                start_date=date(2027, 2, 1),
                campus=campuses[i % 2] if with_availability else None,
            )
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


def _paint(org: Organization, teachers: list[Teacher], campuses: list[Campus], rnd: random.Random) -> None:
    """A painted availability for every teacher (ADR 0027): the word's hours on three to five weekdays,
    limits, an avoided afternoon, a preferred morning, a preferred campus, a third at one campus only."""
    spans = {"day": [("08:00", "17:00")], "evening": [("17:00", "22:00")], "both": [("08:00", "22:00")]}
    rows = []
    for t in teachers:
        days = sorted(rnd.sample(range(5), rnd.choice([3, 4, 5])))
        windows = [{"weekday": d, "start": a, "end": b} for d in days for a, b in spans[t.availability]]
        avoided, preferred = rnd.randrange(5), rnd.randrange(5)
        preferences = [
            {"weekday": avoided, "start": "12:00", "end": "17:00", "level": rnd.choice(["discouraged", "strongly_discouraged"])},
            {"weekday": preferred, "start": "08:00", "end": "12:00", "level": rnd.choice(["preferred", "strongly_preferred"])},
        ]
        rows.append(
            TeacherAvailability(
                organization=org,
                teacher=t,
                custom=True,
                windows=windows,
                preferences=preferences,
                max_hours_per_day=Decimal(rnd.choice([6, 7, 9])),
                max_hours_per_week=Decimal(t.max_weekly_hours) if rnd.random() < 0.5 else None,
                max_days_per_week=rnd.choice([None, 3, 4]),
                campus_ids=[str(rnd.choice(campuses).pk)] if rnd.random() < 1 / 3 else [],
                preferred_campus=rnd.choice(campuses),
                preferred_campus_level="preferred",
            )
        )
    TeacherAvailability.objects.bulk_create(rows)


def main() -> None:
    with_availability = sys.argv[1:2] == ["availability"]
    teachers = AVAILABILITY_TEACHERS if with_availability else TEACHERS
    org = seed(teachers, with_availability)
    ctx = Ctx(org=org)
    started = time.perf_counter()
    result = aa.auto_allocation_propose(ctx, aa.Scope(start=date(2027, 1, 1), end=date(2027, 12, 31)))
    total = (time.perf_counter() - started) * 1000
    kind = " with availability, limits, campuses and preferences" if with_availability else ""
    print(f"auto-allocate proposal: {result['sessionsInScope']} sessions, {teachers} teachers{kind}")
    print(
        f"  status {result['status']}, solver {result['solveMs']:.0f} ms, total {total:.0f} ms (target: feasible within 10,000 ms)"
    )
    print(f"  assigned {len(result['assignments'])}, unassignable {len(result['unassignable'])}")
    print(f"  before {result['before']}")
    print(f"  after  {result['after']}")
    after = result["after"]
    print(
        f"  continuity {after['continuityPercent']}%, highest utilisation {after['highestUtilisation']}%, "
        f"mean utilisation {after['meanUtilisation']}%, preference score {after.get('preferenceScore', 0)} (lower is better)"
    )
    sample = list(TimetableSession.objects.for_org(org).values_list("id", flat=True)[:50])
    timings = []
    for sid in sample:
        t0 = time.perf_counter()
        aa.auto_allocation_recommend(ctx, sid)
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
        Teacher.objects.for_org(org).delete()
        Campus.objects.for_org(org).delete()
        org.delete()


if __name__ == "__main__":
    main()
