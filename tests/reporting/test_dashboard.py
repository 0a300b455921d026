"""Dashboard: stats, planner allocations, this week's workload and the next 7 days."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from project.reporting.params import today_for
from project.timetabling.calendar import week_start
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def this_week(world, admin_user):
    """Sessions around the current week (Melbourne: the admin has no timezone setting)."""
    today = today_for(admin_user)
    monday = week_start(today)
    org, g1, u1, t1 = world.org, world.g1, world.u1, world.t1
    return {
        "today": today,
        "monday": monday,
        "mon": f.make_session(org, block_group=g1, unit=u1, teacher=t1, actual_date=monday, start=time(9), end=time(12)),
        "sun": f.make_session(
            org, block_group=g1, unit=u1, teacher=t1, actual_date=monday + timedelta(days=6), start=time(17), end=time(19)
        ),
        "cancelled": f.make_session(
            org, block_group=g1, unit=u1, teacher=t1, actual_date=monday + timedelta(days=1), status="cancelled"
        ),
        "last_sunday": f.make_session(
            org, block_group=g1, unit=u1, teacher=t1, actual_date=monday - timedelta(days=1), start=time(9), end=time(13)
        ),
        "next_monday": f.make_session(
            org, block_group=g1, unit=u1, teacher=t1, actual_date=monday + timedelta(days=7), start=time(9), end=time(13)
        ),
    }


def test_stats(api, world, this_week):
    f.make_course(world.org, is_active=False)
    p1 = f.make_study_plan(world.org, total_nominal_hours=100)
    f.add_plan_unit(p1, world.u1, face_to_face_hours=Decimal("50"), in_class_assessment_hours=Decimal("40"))  # 90 %
    p2 = f.make_study_plan(world.org, total_nominal_hours=50)
    f.add_plan_unit(p2, world.u3, face_to_face_hours=Decimal("30"), work_integrated_learning_hours=Decimal("10"))  # 80 %
    p3 = f.make_study_plan(world.org, total_nominal_hours=10, is_active=False)
    f.add_plan_unit(p3, world.u4, face_to_face_hours=Decimal("1"))  # inactive: ignored
    # One active course and one teacher existed 40 days ago; everything else is new (ADR 0018).
    from django.utils import timezone

    from project.catalogue.models import Course
    from project.staff.models import Teacher

    old = timezone.now() - timedelta(days=40)
    Course.objects.unscoped().filter(
        pk=Course.objects.unscoped().filter(organization=world.org, is_active=True).order_by("code").first().pk
    ).update(created_at=old)
    Teacher.objects.unscoped().filter(pk=world.t1.pk).update(created_at=old)
    res = api.get("/api/dashboard/stats")
    assert res.status_code == 200
    assert res.json() == {
        "activeCourses": 2,
        "activeTeachers": 3,
        "blockGroups": 3,  # G4 is planned
        "weeklyHours": 5.0,  # Monday 3 h + Sunday 2 h; cancelled, last and next week left out
        "efficiency": 85.0,
        "thirtyDaysAgo": {"activeCourses": 1, "activeTeachers": 1, "blockGroups": 0},
    }


def test_stats_default_efficiency_and_empty(api):
    assert api.get("/api/dashboard/stats").json() == {
        "activeCourses": 0,
        "activeTeachers": 0,
        "blockGroups": 0,
        "weeklyHours": 0.0,
        "efficiency": 87,
        "thirtyDaysAgo": {"activeCourses": 0, "activeTeachers": 0, "blockGroups": 0},
    }


def test_teacher_workload_this_week(api, world, this_week):
    body = api.get("/api/dashboard/teacher-workload").json()
    assert body[0] == {
        "id": str(world.t1.id),
        "name": "Alice Anders",
        "initials": "AA",
        "hours": 5.0,
        "maxHours": 20,
        "percentage": 25,
    }
    assert [e["name"] for e in body] == ["Alice Anders", "Bob Brown", "Dan Dunn"]  # active teachers
    assert body[1]["hours"] == 0.0 and body[1]["percentage"] == 0


def test_teacher_workload_empty(api):
    assert api.get("/api/dashboard/teacher-workload").json() == []


def test_upcoming_sessions_next_seven_days(api, world, this_week):
    today = this_week["today"]
    org, g2, u2 = world.org, world.g2, world.u2
    yesterday = f.make_session(org, block_group=g2, unit=u2, actual_date=today - timedelta(days=1))
    first = f.make_session(org, block_group=g2, unit=u2, actual_date=today, start=time(8, 30), end=time(11, 15), room="B2.01")
    last = f.make_session(
        org, block_group=g2, unit=u2, teacher=world.t2, actual_date=today + timedelta(days=6), start=time(18), end=time(21)
    )
    later = f.make_session(org, block_group=g2, unit=u2, actual_date=today + timedelta(days=7))
    body = api.get("/api/dashboard/upcoming-sessions").json()
    ids = [s["id"] for s in body]
    assert str(first.id) in ids and str(last.id) in ids
    assert str(yesterday.id) not in ids and str(later.id) not in ids
    assert all(today.isoformat() <= s["actualDate"] <= (today + timedelta(days=6)).isoformat() for s in body)
    assert [s["actualDate"] for s in body] == sorted(s["actualDate"] for s in body)
    row = next(s for s in body if s["id"] == str(first.id))
    assert row == {
        "id": str(first.id),
        "dayOfWeek": today.isoweekday() % 7,
        "actualDate": today.isoformat(),
        "startTime": "08:30",
        "endTime": "11:15",
        "unit": {"code": "ICTICT002", "name": "Unit Two"},
        "blockGroup": {"code": "G2", "name": "Group Two"},
        "teacher": None,
        "room": "B2.01",
        "status": "scheduled",
    }
    row = next(s for s in body if s["id"] == str(last.id))
    assert row["teacher"] == "Bob Brown" and row["room"] is None and row["startTime"] == "18:00"


def test_upcoming_day_of_week_sunday_is_zero(api, world):
    today = today_for(None)
    sunday = today + timedelta(days=(6 - today.weekday()))  # within the next 7 days
    s = f.make_session(world.org, block_group=world.g1, unit=world.u1, actual_date=sunday)
    row = next(r for r in api.get("/api/dashboard/upcoming-sessions").json() if r["id"] == str(s.id))
    assert row["dayOfWeek"] == 0


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_upcoming_uses_the_users_timezone(world, admin_user, zone):
    from tests.conftest import ApiClient

    admin_user.settings = {"theme": "system", "preferences": {"timezone": zone}}
    admin_user.save()
    local_today = datetime.now(ZoneInfo(zone)).date()
    inside = f.make_session(world.org, block_group=world.g1, unit=world.u1, actual_date=local_today)
    before = f.make_session(world.org, block_group=world.g1, unit=world.u1, actual_date=local_today - timedelta(days=1))
    end = f.make_session(world.org, block_group=world.g1, unit=world.u1, actual_date=local_today + timedelta(days=6))
    after = f.make_session(world.org, block_group=world.g1, unit=world.u1, actual_date=local_today + timedelta(days=7))
    ids = {r["id"] for r in ApiClient(admin_user).get("/api/dashboard/upcoming-sessions").json()}
    assert {str(inside.id), str(end.id)} <= ids
    assert str(before.id) not in ids and str(after.id) not in ids


def test_invalid_timezone_falls_back_to_melbourne(admin_user):
    admin_user.settings = {"preferences": {"timezone": "Mars/Olympus_Mons"}}
    assert today_for(admin_user) == datetime.now(ZoneInfo("Australia/Melbourne")).date()
    admin_user.settings = {"preferences": "nonsense"}
    assert today_for(admin_user) == datetime.now(ZoneInfo("Australia/Melbourne")).date()


def test_upcoming_empty(api):
    assert api.get("/api/dashboard/upcoming-sessions").json() == []


def test_teacher_allocations(api, world):
    cancelled_t4 = f.make_session(
        world.org,
        block_group=world.g2,
        unit=world.u2,
        teacher=world.t4,
        actual_date=date(2026, 3, 5),
        status="cancelled",
        start=time(9),
        end=time(12),
    )
    res = api.get("/api/dashboard/teacher-allocations", {"start": "2026-03-02", "end": "2026-03-08"})
    assert res.status_code == 200
    body = res.json()
    assert [a["id"] for a in body["allocations"]] == [
        str(world.s["s1"].id),
        str(world.s["s3"].id),
        str(world.s["s2"].id),
        str(cancelled_t4.id),
    ]
    assert body["allocations"][0] == {
        "id": str(world.s["s1"].id),
        "date": "2026-03-02",
        "time": "09:00 - 12:00",
        "teacherName": "Alice Anders",
        "unitCode": "ICTICT001",
        "unitName": "Unit One",
        "blockGroupCode": "G1",
        "room": "",
        "status": "scheduled",
    }
    assert body["allocations"][3]["status"] == "cancelled"
    # Dan's only session is cancelled: still unallocated. Cara is inactive: not listed.
    assert body["unallocatedTeachers"] == [{"id": str(world.t4.id), "name": "Dan Dunn", "initials": "DD", "maxWeeklyHours": 21}]


def test_teacher_allocations_empty_range(api, world):
    body = api.get("/api/dashboard/teacher-allocations", {"start": "2027-01-04", "end": "2027-01-10"}).json()
    assert body["allocations"] == []
    assert [t["name"] for t in body["unallocatedTeachers"]] == ["Alice Anders", "Bob Brown", "Dan Dunn"]


@pytest.mark.parametrize(
    "params, path",
    [
        ({}, "start"),
        ({"start": "2026-03-02"}, "end"),
        ({"start": "2026-3-2", "end": "2026-03-08"}, "start"),
        ({"start": "2026-02-30", "end": "2026-03-08"}, "start"),
        ({"start": "2026-03-02", "end": "2026-03-08T00:00"}, "end"),
        ({"start": "1999-12-31", "end": "2000-01-02"}, "start"),
        ({"start": "2026-03-08", "end": "2026-03-02"}, "end"),
        ({"start": "2026-01-01", "end": "2027-01-02"}, "end"),
    ],
)
def test_teacher_allocations_bad_dates_are_400(api, params, path):
    res = api.get("/api/dashboard/teacher-allocations", params)
    assert res.status_code == 400
    body = res.json()
    assert body["type"] == "validation_error" and body["errors"][0]["path"] == [path]
