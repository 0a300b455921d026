"""Every report, the grid and the dashboard run a fixed number of queries whatever the row count."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.seed_large import seed_large_org
from project.accounts.models import User
from project.reporting.params import today_for
from project.staff.models import Teacher
from project.timetabling.models import TimetableSession
from tests.conftest import ApiClient

pytestmark = pytest.mark.django_db

YEAR = 2026


def _paths(teacher_id) -> list[str]:
    today = today_for(None)
    return [
        "/api/reports/block-groups-without-timetables",
        f"/api/reports/scheduling-summary?year={YEAR}",
        f"/api/reports/load-planning?year={YEAR}",
        f"/api/reports/load-planning/export?format=csv&year={YEAR}",
        f"/api/reports/load-planning/export?format=xlsx&year={YEAR}",
        f"/api/teachers/workload-summary?year={YEAR}",
        f"/api/teachers/{teacher_id}/delivery-summary?year={YEAR}",
        f"/api/teachers/allocation-gantt?year={YEAR}",
        f"/api/teachers/allocation-gantt?year={YEAR}&term=2",
        "/api/dashboard/stats",
        f"/api/dashboard/teacher-allocations?start={today}&end={today + timedelta(days=30)}",
        "/api/dashboard/teacher-workload",
        "/api/dashboard/upcoming-sessions",
    ]


def _counts(org) -> dict[str, tuple[int, int]]:
    admin = User.objects.get(organization=org, role="admin")
    client = ApiClient(admin)
    teacher = Teacher.objects.for_org(org).filter(is_active=True).order_by("employee_id").first()
    out = {}
    for path in _paths(teacher.pk):
        client.get(path)  # warm-up: the backend's one-off feature probes (JSON support) are not ours
        with CaptureQueriesContext(connection) as ctx:
            res = client.get(path)
        assert res.status_code == 200, (path, res.content[:200])
        out[path.split("?")[0].replace(str(teacher.pk), "{id}") + ("?term" if "term=" in path else "")] = (
            len(ctx),
            len(res.content),
        )
    return out


def test_query_counts_do_not_grow_with_rows():
    small = seed_large_org(name="Small", teachers=3, sessions=20, year=YEAR, units=12, block_groups=4)
    large = seed_large_org(name="Large", teachers=40, sessions=1000, year=YEAR, units=48, block_groups=30)
    assert TimetableSession.objects.for_org(large).count() == 1000
    few, many = _counts(small), _counts(large)
    for path in few:
        assert few[path][0] == many[path][0], path
        assert many[path][0] <= 12, path  # auth (session, user) + at most 8 of our own
    # The large organization's answers really are bigger (the queries did return its rows).
    assert many["/api/teachers/allocation-gantt"][1] > few["/api/teachers/allocation-gantt"][1]


def test_report_queries_on_1000_sessions(django_assert_max_num_queries):
    org = seed_large_org(name="Thousand", teachers=20, sessions=1000, year=YEAR)
    client = ApiClient(User.objects.get(organization=org, role="admin"))
    limits = {
        "/api/reports/block-groups-without-timetables": 1,
        f"/api/reports/scheduling-summary?year={YEAR}": 5,
        f"/api/reports/load-planning?year={YEAR}": 4,
        f"/api/teachers/workload-summary?year={YEAR}": 4,
        f"/api/teachers/allocation-gantt?year={YEAR}&term=1": 6,
        "/api/dashboard/stats": 5,
        "/api/dashboard/teacher-workload": 1,
        "/api/dashboard/upcoming-sessions": 1,
        f"/api/dashboard/teacher-allocations?start={YEAR}-03-01&end={YEAR}-03-31": 2,
    }
    with CaptureQueriesContext(connection) as base:
        client.get("/api/auth/user")
    auth = len(base)  # the session and user lookups every signed-in request makes
    for path, own in limits.items():
        client.get(path)  # warm-up, as above
        with django_assert_max_num_queries(auth + own):
            assert client.get(path).status_code == 200
