"""Benchmark: what the write unit costs one small write (docs/adr/0028).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench_write_unit .venv/bin/python bench/write_unit_bench.py [--runs 300]

Seeds its own organization (the database must exist; it is migrated), then updates one course through
its service (``course_update``: the row locked, the seq raised, the activity recorded, the row written
and captured, the event queued for after commit) ``--runs`` times, each write its own transaction with
its on-commit send, and a session's room through the request a coordinator makes (``PUT
/api/timetables/{id}`` with Django's test client, signed in; its event reads the session's details before
and after). Prints p50 / p99 in milliseconds and the database queries of one write (the access log goes to
stderr-less stdout too: ``| grep -v '^{'`` keeps the figures). It only calls
services that exist before and after the write unit, so the same file measures both (run it in a
checkout of the earlier commit for the comparison). Cleans up after itself.
"""

from __future__ import annotations

import statistics
import sys
from datetime import date, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import runs_argument, setup_django, timed  # noqa: E402

RUNS = runs_argument("Time single writes through the write unit.", 300)
setup_django("bench-write-unit.sqlite3")

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from project.accounts.models import Organization, User  # noqa: E402
from project.catalogue.models import Course, Unit  # noqa: E402
from project.catalogue.schemas import CourseIn  # noqa: E402
from project.catalogue.services import course_update  # noqa: E402
from project.core.tenancy import Ctx  # noqa: E402
from project.planning.models import BlockGroup  # noqa: E402
from project.timetabling.models import TimetableSession  # noqa: E402

DOMAIN = "write-unit-bench.example"


def clean() -> None:
    for org in Organization.objects.filter(domain=DOMAIN):
        TimetableSession.objects.for_org(org).delete()
        BlockGroup.objects.for_org(org).delete()
        User.objects.filter(organization=org).delete()
        org.delete()


def stats(label: str, times: list[float], queries: int) -> None:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{label:<40} p50 {statistics.median(times):6.2f} ms   p99 {p99:6.2f} ms   {queries} queries per write")


def run() -> None:
    org = Organization.objects.create(name="Write unit bench", domain=DOMAIN)
    user = User.objects.create_user(
        f"bench@{DOMAIN}", password=None, organization=org, role="admin", first_name="B", last_name="U"
    )
    ctx = Ctx(org=org, user=user, origin="bench")
    course = Course.objects.for_org(org).create(organization=org, code="WUB", name="Bench course")
    unit = Unit.objects.for_org(org).create(organization=org, code="WUB01", name="Bench unit", nominal_hours=40)
    group = BlockGroup.objects.for_org(org).create(
        organization=org,
        code="WUB-G",
        name="Bench group",
        course=course,
        cohort_size=20,
        start_date=date(2026, 3, 2),
        end_date=date(2026, 12, 1),
    )
    session = TimetableSession.objects.for_org(org).create(
        organization=org,
        block_group=group,
        unit=unit,
        actual_date=date(2026, 3, 2),
        day_of_week=1,
        actual_hours=3,
        start_time=time(9),
        end_time=time(12),
    )

    def course_write(n: int) -> None:
        course_update(ctx=ctx, course_id=course.id, data=CourseIn(code="WUB", name=f"Bench course {n}"), if_match=None)

    client = Client(HTTP_HOST="localhost", enforce_csrf_checks=False)
    client.force_login(user)
    body = client.get(f"/api/timetables/{session.id}").json()

    def session_write(n: int) -> None:
        r = client.put(f"/api/timetables/{session.id}", {**body, "room": f"R{n % 7}"}, content_type="application/json")
        assert r.status_code == 200, r.content

    for label, write in (("course update (service)", course_write), ("session room (PUT /api/timetables/{id})", session_write)):
        write(-1)  # warm
        count = [0]

        def counted(execute, sql, params, many, context, count=count):
            count[0] += 1
            return execute(sql, params, many, context)

        with connection.execute_wrapper(counted):  # the request's own signals reset Django's query log
            write(-2)
        times = [timed(lambda n=n, write=write: write(n)) for n in range(RUNS)]
        stats(label, times, count[0])


def main() -> None:
    clean()
    try:
        run()
    finally:
        clean()


if __name__ == "__main__":
    main()
