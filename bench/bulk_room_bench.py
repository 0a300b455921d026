"""Benchmark: Set Room for a block group's sessions on the large organization (ADR 0019).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_reads_large .venv/bin/python bench/bulk_room_bench.py

On ``bench/reads_bench.py``'s organization (35,000 sessions sharing 41 rooms), the ~400 sessions of its
mid-size block group are the selection. Prints p50 of ``--runs`` (default 7) service calls (no HTTP) and
their query counts for: the Set Room picker (``room_availability_for_sessions``), putting them all in a
new free room (``session_bulk_set_room``), the refusal when the room is the group's busiest neighbour's (409), and
``session_bulk_allocate`` of the same sessions to a new teacher, the existing bulk write it is built like. Each
write is rolled back. Target: each under 1 s for 400 sessions.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import Rollback, admin_ctx, runs_argument  # noqa: E402
from bench.reads_bench import pick_reads, setup  # noqa: E402


def main() -> None:
    runs = runs_argument(__doc__.splitlines()[0], 7)
    _url, org = setup(False)

    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from project.catalogue import selectors as rooms
    from project.catalogue.models import Room
    from project.core.errors import SchedulingConflict
    from project.staff.models import Teacher
    from project.timetabling import services
    from project.timetabling.models import TimetableSession

    group_id = next(params[1] for _label, (_path, params) in list(pick_reads(org).items())[:1])
    ids = list(
        TimetableSession.objects.for_org(org)
        .filter(block_group_id=group_id)
        .exclude(status="cancelled")
        .values_list("id", flat=True)
    )
    ctx = admin_ctx(org)
    # A room another group uses at the date and time of one of these sessions: Set Room to it is refused.
    busy = None
    for s in TimetableSession.objects.for_org(org).filter(pk__in=ids).order_by("actual_date")[:60]:
        busy = (
            TimetableSession.objects.for_org(org)
            .filter(actual_date=s.actual_date, start_time__lt=s.end_time, end_time__gt=s.start_time, room_record__isnull=False)
            .exclude(block_group_id=group_id)
            .exclude(room_record__type="online")
            .values_list("room_record_id", flat=True)
            .first()
        )
        if busy is not None:
            break
    if busy is None:
        sys.exit("no room of another group is booked at these sessions' times: reseed (reads_bench.py --reseed)")

    def timed(fn) -> tuple[float, int]:
        with CaptureQueriesContext(connection) as queries:
            t0 = time.perf_counter()
            try:
                with transaction.atomic():
                    fn()
                    raise Rollback
            except (Rollback, SchedulingConflict):
                pass
            ms = (time.perf_counter() - t0) * 1000
        return ms, len(queries)

    def new_room():
        room = Room.objects.create(organization=org, code="BENCH-FREE", key="benchfree", type="computer_lab", capacity=40)
        services.session_bulk_set_room(ctx=ctx, session_ids=ids, room_id=room.pk)

    def refused():
        services.session_bulk_set_room(ctx=ctx, session_ids=ids, room_id=busy)

    def allocate():
        teacher = Teacher.objects.create(
            organization=org,
            employee_id="BENCH-T",
            first_name="Bench",
            last_name="Teacher",
            email="bench.teacher@example.edu.au",
            max_weekly_hours=60,
        )
        services.session_bulk_allocate(ctx=ctx, session_ids=ids, teacher_id=teacher.pk)

    cases = [
        ("Set Room picker (availability)", lambda: rooms.room_availability_for_sessions(org=org, session_ids=ids)),
        ("Set Room into a free room", new_room),
        ("Set Room refused (409)", refused),
        ("bulk allocate (reference)", allocate),
    ]
    print(f"{len(ids)} sessions of one block group, organization of {TimetableSession.objects.for_org(org).count()} sessions")
    for label, fn in cases:
        fn_timed = [timed(fn) for _ in range(runs)]
        print(f"{label:<32} p50 {statistics.median(t for t, _ in fn_timed):7.1f} ms  queries {fn_timed[-1][1]}")


if __name__ == "__main__":
    main()
