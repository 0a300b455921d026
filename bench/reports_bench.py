"""Benchmark of the reports, the allocation grid and the dashboard on a large organization.

Seeds (once per database) an organization of 150 teachers and 30,000 sessions in one year with
``bench.seed_large.seed_large_org``, then times each endpoint through the full HTTP stack (Django
test client signed in as the organization's admin: auth, queries, serialisation) and prints the
median and the worst of several runs in milliseconds (wall clock), the median CPU time of this
process (on SQLite that includes the database work; on PostgreSQL only the Python side), the query
count and the answer size. Target: under 300 ms. ``os.getloadavg()`` is printed: on a shared machine
wall-clock figures grow with the load, CPU figures much less.

    .venv/bin/python bench/reports_bench.py                  # SQLite file var/bench_reporting.sqlite3
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_reporting_bench .venv/bin/python bench/reports_bench.py

Options: ``--runs N`` (default 7), ``--reseed`` (drop the bench organization and seed again),
``--year`` (default: the current year).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BENCH_NAME = "Reports Bench Institute"
TARGET_MS = 300


def main() -> int:
    parser = argparse.ArgumentParser(description="Reports benchmark")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--reseed", action="store_true")
    parser.add_argument("--year", type=int, default=date.today().year)
    args = parser.parse_args()

    os.environ.setdefault("DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'bench_reporting.sqlite3'}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.seed_large import delete_org, seed_large_org
    from project.accounts.models import Organization, User
    from project.staff.models import Teacher
    from project.timetabling.models import TimetableSession

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    org = Organization.objects.filter(name=BENCH_NAME).first()
    if org is not None and args.reseed:
        delete_org(org)
        org = None
    if org is None:
        t0 = time.perf_counter()
        org = seed_large_org(name=BENCH_NAME, teachers=150, sessions=30000, year=args.year)
        print(f"seeded in {time.perf_counter() - t0:.1f} s")
        with connection.cursor() as cursor:  # planner statistics, as autovacuum / a nightly job keeps them
            cursor.execute("ANALYZE")
    admin = User.objects.get(organization=org, role="admin")
    sessions = TimetableSession.objects.unscoped().filter(organization=org).count()
    teachers = Teacher.objects.unscoped().filter(organization=org).count()
    vendor = connection.vendor
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"database {vendor}; organization {org.name}: {teachers} teachers, {sessions} sessions, year {args.year}")

    client = Client(HTTP_HOST="localhost")
    client.force_login(admin)
    teacher_id = Teacher.objects.unscoped().filter(organization=org, is_active=True).order_by("employee_id").first().pk
    monday = date(args.year, 3, 2) - timedelta(days=date(args.year, 3, 2).weekday())
    y = args.year
    calls = [
        ("reports/block-groups-without-timetables", "/api/reports/block-groups-without-timetables"),
        ("reports/scheduling-summary", f"/api/reports/scheduling-summary?year={y}"),
        ("reports/load-planning", f"/api/reports/load-planning?year={y}"),
        ("reports/load-planning/export csv", f"/api/reports/load-planning/export?format=csv&year={y}"),
        ("reports/load-planning/export xlsx", f"/api/reports/load-planning/export?format=xlsx&year={y}"),
        ("teachers/workload-summary", f"/api/teachers/workload-summary?year={y}"),
        ("teachers/{id}/delivery-summary", f"/api/teachers/{teacher_id}/delivery-summary?year={y}"),
        ("teachers/allocation-gantt (term 1)", f"/api/teachers/allocation-gantt?year={y}&term=1"),
        ("teachers/allocation-gantt (year)", f"/api/teachers/allocation-gantt?year={y}"),
        ("dashboard/stats", "/api/dashboard/stats"),
        (
            "dashboard/teacher-allocations (week)",
            f"/api/dashboard/teacher-allocations?start={monday}&end={monday + timedelta(days=6)}",
        ),
        (
            "dashboard/teacher-allocations (month)",
            f"/api/dashboard/teacher-allocations?start={date(y, 3, 1)}&end={date(y, 3, 31)}",
        ),
        ("dashboard/teacher-workload", "/api/dashboard/teacher-workload"),
        ("dashboard/upcoming-sessions", "/api/dashboard/upcoming-sessions"),
    ]
    print(f"{'endpoint':42} {'median ms':>10} {'max ms':>8} {'cpu ms':>8} {'queries':>8} {'bytes':>9}")
    worst = 0.0
    for label, path in calls:
        response = client.get(path)  # warm-up
        assert response.status_code == 200, (path, response.status_code, response.content[:300])
        times, cpu = [], []
        for _ in range(args.runs):
            with CaptureQueriesContext(connection) as queries:
                t0, c0 = time.perf_counter(), time.process_time()
                response = client.get(path)
                times.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
        median = statistics.median(times)
        worst = max(worst, median)
        flag = "" if median < TARGET_MS else "  OVER TARGET"
        print(
            f"{label:42} {median:10.1f} {max(times):8.1f} {statistics.median(cpu):8.1f} {len(queries):8d} {len(response.content):9d}{flag}"
        )
    print(f"slowest median {worst:.1f} ms (target {TARGET_MS} ms) on {vendor}")
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
