"""Benchmark: the history on the large organization (ADR 0012): writes with and without it, undo, reads.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench_large .venv/bin/python bench/history_large_bench.py

Seeds ``bench/seed_large.py``'s organization (30,000 sessions, 150 teachers, 80 block groups; the
database must exist, it is migrated) and, signed in as its admin through Django's test client, times:

- ``PUT /api/timetables/bulk-allocate`` of one session per teaching day (about 250 sessions, no two at
  once, so that the teacher never clashes), to a teacher with no sessions, reset between runs;
- ``POST /api/block-groups/{id}/schedule`` of a new 400-session block group (its conflict checks read
  the 30,000), cleared between runs;
- each with the history recorded and without it (the activity recorder replaced by a no-op);
- where the code has it (ADR 0012): ``POST /api/activity/{id}/undo`` of that bulk allocation, and
  ``GET /api/activity`` (newest page, the block group's History).

It only uses what the code before undo (ADR 0012) had too, so it runs on that commit as well for the
figures before the change. Prints p50 of ``RUNS`` (default 7). Deletes the organization afterwards.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import HistoryOff, setup_django, timed  # noqa: E402

setup_django()

from django.test import Client  # noqa: E402

from bench.seed_large import delete_org, seed_large_org  # noqa: E402
from project.accounts.models import User  # noqa: E402
from project.catalogue.models import Unit  # noqa: E402
from project.planning.models import BlockGroup, BlockGroupStudyPlan, StudyPlan, StudyPlanUnit  # noqa: E402
from project.staff.models import Teacher  # noqa: E402
from project.timetabling.models import TimetableSession  # noqa: E402

RUNS = int(os.environ.get("RUNS", "7"))
SCHEDULE = {"sessionTemplates": [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}]}


def alternate(label: str, write, reset) -> None:
    on, off = [], []
    for run in range(RUNS):
        for mode in ("on", "off") if run % 2 == 0 else ("off", "on"):
            if mode == "off":
                with HistoryOff():
                    off.append(timed(write))
                    reset()
            else:
                on.append(timed(write))
                with HistoryOff():
                    reset()
    p_on, p_off = statistics.median(on), statistics.median(off)
    print(f"{label}: with history p50 {p_on:.0f} ms, without {p_off:.0f} ms ({100 * (p_on - p_off) / p_off:+.1f}%)")


def main() -> None:
    t0 = time.perf_counter()
    org = seed_large_org(name="History large bench", teachers=150, sessions=30000, year=2027)
    print(
        f"seeded the large organization in {time.perf_counter() - t0:.0f} s: "
        f"{TimetableSession.objects.for_org(org).count():,} sessions, {Teacher.objects.for_org(org).count()} teachers"
    )
    try:
        run(org)
    finally:
        delete_org(org)


def run(org) -> None:
    admin = User.objects.filter(organization=org, role="admin").first()
    client = Client(HTTP_HOST="localhost")
    client.force_login(admin)
    teacher = Teacher.objects.for_org(org).create(
        organization=org,
        employee_id="HLB-1",
        first_name="Hana",
        last_name="Bench",
        email="hana.bench@bench.example",
        availability="both",
        max_weekly_hours=40,
    )

    # 1. Bulk allocation: one session per day, none at the same time as another.
    picked, days = [], set()
    for sid, day in (
        TimetableSession.objects.for_org(org)
        .filter(status="scheduled")
        .order_by("actual_date", "start_time")
        .values_list("id", "actual_date")
    ):
        if day not in days:
            days.add(day)
            picked.append(str(sid))
    body = {"sessionIds": picked, "teacherId": str(teacher.id)}

    def allocate():
        r = client.put("/api/timetables/bulk-allocate", body, content_type="application/json")
        assert r.status_code == 200, r.content[:300]

    def unallocate():
        TimetableSession.objects.for_org(org).filter(teacher=teacher).update(teacher=None)

    alternate(f"PUT /api/timetables/bulk-allocate ({len(picked)} sessions)", allocate, unallocate)

    # 2. Schedule generation of a new 400-session group.
    units = list(Unit.objects.for_org(org).order_by("code")[:10])
    plan = StudyPlan.objects.for_org(org).create(organization=org, name="History large bench plan")
    for n, unit in enumerate(units, start=1):
        StudyPlanUnit.objects.for_org(org).create(
            organization=org, study_plan=plan, unit=unit, sequence_order=n, face_to_face_hours=Decimal(120)
        )
    group = BlockGroup.objects.for_org(org).create(
        organization=org,
        code="HLB-400",
        name="History large bench",
        cohort_size=20,
        start_date=date(2027, 1, 4),
        preferred_days="Monday, Tuesday, Wednesday, Thursday, Friday",
        status="active",
    )
    BlockGroupStudyPlan.objects.for_org(org).create(organization=org, block_group=group, study_plan=plan)

    def generate():
        r = client.post(f"/api/block-groups/{group.id}/schedule", SCHEDULE, content_type="application/json")
        assert r.status_code == 200 and r.json()["sessionsCreated"] == 400, r.content[:300]

    def clear():
        r = client.delete(f"/api/block-groups/{group.id}/schedule")
        assert r.status_code == 200, r.content[:300]

    alternate("POST /api/block-groups/{id}/schedule (400 sessions)", generate, clear)

    # 3. Undo and reads, where this code has them.
    r = client.put("/api/timetables/bulk-allocate", body, content_type="application/json")
    activity_id = r.get("X-Activity-Id")
    if not activity_id:
        print("(this code has no undo)")
        return
    started = time.perf_counter()
    r = client.post(f"/api/activity/{activity_id}/undo")
    t = (time.perf_counter() - started) * 1000
    assert r.status_code == 201 and not TimetableSession.objects.for_org(org).filter(teacher=teacher).exists(), r.content[:300]
    print(f"POST /api/activity/{{id}}/undo of that bulk allocation: {t:.0f} ms")
    for label, query in (
        ("newest page", {}),
        ("a block group's History", {"id": str(group.id), "pageSize": 20}),
        ("a teacher's History", {"id": str(teacher.id), "pageSize": 20}),
    ):
        times = []
        for _ in range(9):
            times.append(timed(lambda query=query: client.get("/api/activity", query)))
        print(f"GET /api/activity {label}: p50 {statistics.median(times):.1f} ms")


if __name__ == "__main__":
    main()
