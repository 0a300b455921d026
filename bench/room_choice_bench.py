"""Benchmark: schedule generation choosing rooms by type (ADR 0019).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_reads_large .venv/bin/python bench/room_choice_bench.py

On the large organization of ``bench/reads_bench.py`` (35,000 sessions, 80 block groups, its rooms made
by the migration from the sessions' room texts), a new block group of one 1,200-hour unit is scheduled
Monday to Friday 09:00-12:00, about 400 sessions, with ``roomType: computer_lab``. Eight computer labs of
its campus are added for the run; the busiest existing room is made one of them, so choices meet real
bookings. Each run is rolled back. Prints p50 of ``--runs`` (default 5) of the service call (no HTTP),
how many sessions got a room and how many labs were used; then checks the chosen rooms against every
stored session for a room clash. Target: under 500 ms.
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

from bench.common import Rollback, admin_ctx, runs_argument  # noqa: E402
from bench.reads_bench import setup  # noqa: E402


def main() -> None:
    runs = runs_argument(__doc__.splitlines()[0], 5)
    _url, org = setup(False)

    from django.db import transaction
    from django.db.models import Count

    from project.catalogue.models import Campus, Room, Unit
    from project.planning.models import BlockGroup, BlockGroupStudyPlan, StudyPlan, StudyPlanUnit
    from project.timetabling import conflicts as cf
    from project.timetabling.models import TimetableSession
    from project.timetabling.scheduling import services
    from project.timetabling.scheduling.schemas import ScheduleIn

    ctx = admin_ctx(org)
    timings, figures = [], None
    for _ in range(runs):
        try:
            with transaction.atomic():
                campus = Campus.objects.for_org(org).first() or Campus.objects.create(
                    organization=org, name="Bench", abbreviation="BN"
                )
                busiest = Room.objects.for_org(org).annotate(n=Count("sessions")).order_by("-n").first()
                if busiest is not None:
                    Room.objects.for_org(org).filter(pk=busiest.pk).update(
                        type="computer_lab", capacity=30, campus=campus, is_active=True
                    )
                for i in range(8):
                    Room.objects.create(
                        organization=org,
                        code=f"BENCH-LAB-{i}",
                        key=f"benchlab{i}",
                        type="computer_lab",
                        capacity=24 + i,
                        campus=campus,
                    )
                unit = Unit.objects.create(organization=org, code="BENCHROOMU", name="Bench room unit", nominal_hours=1200)
                plan = StudyPlan.objects.create(organization=org, name="Bench room plan", total_nominal_hours=1200)
                StudyPlanUnit.objects.create(
                    organization=org, study_plan=plan, unit=unit, sequence_order=1, face_to_face_hours=Decimal("1200")
                )
                group = BlockGroup.objects.create(
                    organization=org,
                    code="BENCH-ROOMS",
                    name="Bench rooms",
                    cohort_size=22,
                    campus=campus,
                    start_date=date(2026, 2, 2),
                    preferred_days="Monday, Tuesday, Wednesday, Thursday, Friday",
                )
                BlockGroupStudyPlan.objects.create(organization=org, block_group=group, study_plan=plan)
                data = ScheduleIn(
                    session_templates=[{"start_time": "09:00:00", "end_time": "12:00:00", "duration": 3}],
                    room_type="computer_lab",
                )
                t0 = time.perf_counter()
                result = services.block_group_schedule(ctx=ctx, block_group_id=group.pk, data=data)
                timings.append((time.perf_counter() - t0) * 1000)
                made = TimetableSession.objects.for_org(org).filter(block_group=group).exclude(status="cancelled")
                roomed = made.exclude(room_record=None)
                slots = cf.load_slots(org, date(2026, 1, 1), date(2028, 12, 31), q=None)
                mine = {s.id for s in made.only("id")}
                clashes = [
                    c
                    for c in cf.detect(slots, cf.load_data(org, date(2026, 1, 1), date(2028, 12, 31), []), focus=mine)
                    if c.type == cf.ROOM_DOUBLE_BOOKED
                ]
                figures = (
                    result["sessions_created"],
                    roomed.count(),
                    roomed.values("room_record").distinct().count(),
                    len(clashes),
                    result["warnings"],
                )
                raise Rollback
        except Rollback:
            pass
    created, roomed, labs, clashes, warnings = figures
    print(
        f"generation with room choice: {created} sessions, {roomed} given a computer lab, {labs} labs used, "
        f"{clashes} room clashes"
    )
    if warnings:
        print(f"  warnings: {warnings}")
    print(f"  p50 {statistics.median(timings):.0f} ms (target < 500), min {min(timings):.0f} ms, {runs} runs")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
