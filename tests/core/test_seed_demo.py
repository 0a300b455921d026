"""``manage.py seed_demo`` (docs/behaviour/operations.md §2): the demo organization from real data, idempotent."""

from __future__ import annotations

import io
import json
import time
from collections import Counter
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client, RequestFactory

from project.accounts.models import Organization, User
from project.catalogue.models import Campus, Course, Unit
from project.operations.demo import seed
from project.planning.models import BlockGroup, StudyPlan, StudyPlanUnit
from project.staff.models import Teacher, TeacherUnit
from project.timetabling.calendar import holiday_by_date, holiday_spans
from project.timetabling.models import Holiday, TimetableSession
from tests.factories import DELIVERY_MODELS

pytestmark = pytest.mark.django_db


def run() -> str:
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def snapshot(org) -> dict:
    data = {m.__name__: m.objects.for_org(org).count() for m in DELIVERY_MODELS}
    data["users"] = sorted(User.objects.filter(organization=org).values_list("email", "role", "password"))
    data["sessions"] = sorted(
        TimetableSession.objects.for_org(org).values_list(
            "id",
            "block_group__code",
            "unit__code",
            "actual_date",
            "start_time",
            "end_time",
            "teacher__employee_id",
            "status",
            "updated_at",
        )
    )
    data["rows"] = {m.__name__: sorted(m.objects.for_org(org).values_list("id", "updated_at")) for m in DELIVERY_MODELS}
    data["groups"] = sorted(BlockGroup.objects.for_org(org).values_list("code", "status", "end_date"))
    return data


@pytest.fixture
def seeded(db):
    started = time.perf_counter()
    out = run()
    elapsed = time.perf_counter() - started
    org = Organization.objects.get(domain=seed.ORG_DOMAIN)
    return org, out, elapsed


def test_seed_twice_leaves_identical_data(seeded):
    org, first_out, elapsed = seeded
    assert elapsed < 10, f"seed took {elapsed:.1f} s"
    before = snapshot(org)
    second_out = run()
    assert snapshot(org) == before
    assert Organization.objects.filter(domain=seed.ORG_DOMAIN).count() == 1
    assert "0 created, 0 updated" in second_out and " created, 0 updated" in first_out
    assert all(
        line.endswith("0 created, 0 updated") for line in second_out.splitlines() if line.startswith("  ") and "created" in line
    )


def test_seed_prints_how_to_sign_in_and_admin_can_log_in(seeded):
    org, out, _ = seeded
    assert "admin@demo.blockplan.edu.au" in out and "Blockplan-Demo-2026!" in out
    assert org.name == "Blockplan Demo TAFE"
    request = RequestFactory().post("/api/auth/login")
    for email in ("admin@demo.blockplan.edu.au", "coordinator@demo.blockplan.edu.au", "coordinator2@demo.blockplan.edu.au"):
        assert Client().login(request=request, email=email, password="Blockplan-Demo-2026!"), email
    admin = User.objects.get(email="admin@demo.blockplan.edu.au")
    assert (admin.role, admin.must_change_password, admin.is_totp_enabled, admin.organization_id) == (
        "admin",
        False,
        False,
        org.pk,
    )
    roles = dict(User.objects.filter(organization=org).values_list("email", "role"))
    assert roles["coordinator@demo.blockplan.edu.au"] == roles["coordinator2@demo.blockplan.edu.au"] == "user"


def test_rerun_restores_a_changed_demo_password(seeded):
    user = User.objects.get(email="coordinator@demo.blockplan.edu.au")
    user.set_password("Changed-Password-99!")
    user.save()
    run()
    user.refresh_from_db()
    assert user.check_password("Blockplan-Demo-2026!")


def test_courses_and_units_come_from_the_real_data(seeded):
    org, _, _ = seeded
    levels = dict(Course.objects.for_org(org).values_list("code", "level"))
    assert levels == {
        "22603VIC": "certificate_iv",
        "ICT30120": "certificate_iii",
        "ICT40120": "certificate_iv",
        "ICT50220": "diploma",
    }
    data = json.loads((seed.DATA / "qualifications.json").read_text())
    published = {u["code"]: u["nominalHours"] for q in data for u in q["units"] if u["nominalHours"] is not None}
    missing = {u["code"] for q in data for u in q["units"]} - set(published)
    units = dict(Unit.objects.for_org(org).values_list("code", "nominal_hours"))
    assert set(units) == set(published)  # units without published hours are left out, never invented
    assert not missing & set(units)
    assert units["VU23220"] == 100 and units["BSBWHS309"] == 30 and units["ICTNWK546"] == 80
    assert Unit.objects.for_org(org).get(code="VU23220").prerequisites == "VU23213, VU23215"
    assert Campus.objects.for_org(org).count() == 3


def test_one_study_plan_per_course_with_hours_matching_nominal_but_two(seeded):
    org, _, _ = seeded
    plans = StudyPlan.objects.for_org(org)
    assert plans.count() == 4
    mismatches = []
    for pu in StudyPlanUnit.objects.for_org(org).select_related("unit", "study_plan"):
        planned = pu.actual_hours + pu.self_directed_hours
        if abs(planned - pu.unit.nominal_hours) > Decimal("0.01"):
            mismatches.append(pu.unit.code)
        for name in ("face_to_face_hours", "facilitated_e_learning_hours", "in_class_assessment_hours"):
            assert getattr(pu, name) * 4 == int(getattr(pu, name) * 4)  # 0.25-hour steps
    assert sorted(mismatches) == ["ICTPRG302", "VU23220"]
    for plan in plans:
        total = sum(pu.unit.nominal_hours for pu in plan.plan_units.select_related("unit"))
        assert plan.total_nominal_hours == total > 0


def test_teachers(seeded):
    org, _, _ = seeded
    teachers = list(Teacher.objects.for_org(org))
    assert len(teachers) == 24
    assert len({t.email for t in teachers}) == 24
    assert all(15 <= t.max_weekly_hours <= 30 for t in teachers)
    assert set(Counter(t.employment_type for t in teachers)) == {"ongoing", "fixed_term", "sessional"}
    assert set(Counter(t.availability for t in teachers)) == {"day", "evening", "both"}
    assert all(t.expiry_date is not None for t in teachers if t.employment_type == "fixed_term")
    counts = Counter(TeacherUnit.objects.for_org(org).values_list("teacher_id", flat=True))
    assert all(6 <= counts[t.pk] <= 15 for t in teachers), sorted(counts.values())


def test_holidays_are_the_victorian_ones(seeded):
    org, _, _ = seeded
    rows = set(Holiday.objects.for_org(org).values_list("name", "type", "start_date", "end_date"))
    assert ("Melbourne Cup Day", "public_holiday", date(2026, 11, 3), date(2026, 11, 3)) in rows
    assert ("Friday before the AFL Grand Final", "public_holiday", date(2027, 9, 24), date(2027, 9, 24)) in rows
    assert ("Winter (Term 2-3) school holidays 2026", "term_break", date(2026, 6, 27), date(2026, 7, 12)) in rows
    assert {r[2].year for r in rows} >= {2025, 2026, 2027}


def test_block_groups_and_timetables(seeded):
    org, _, _ = seeded
    groups = {g.code: g for g in BlockGroup.objects.for_org(org)}
    assert {g.status for g in groups.values()} == {"planned", "active", "consolidated", "completed"}
    assert {g.study_mode for g in groups.values()} == {"full_time", "part_time"}
    assert {g.delivery_mode for g in groups.values()} == {"on_campus", "remote"}
    assert all(g.plan_links.exists() for g in groups.values())
    with_sessions = set(TimetableSession.objects.for_org(org).values_list("block_group__code", flat=True))
    planned_without = [c for c, g in groups.items() if g.status == "planned" and c not in with_sessions]
    assert planned_without
    assert len([c for c in with_sessions if groups[c].status == "active"]) >= 2

    sessions = list(TimetableSession.objects.for_org(org).select_related("teacher", "block_group"))
    # The dashboard's next seven days (today is late 2026) and early 2027 have classes.
    week = [s for s in sessions if date(2026, 11, 23) <= s.actual_date <= date(2026, 11, 30) and s.status == "scheduled"]
    assert week
    assert any(s.actual_date.year == 2027 for s in sessions)
    # Holidays are cancelled sessions, and no class falls on one.
    spans = holiday_by_date(holiday_spans(Holiday.objects.for_org(org), date(2025, 1, 1), date(2027, 12, 31)))
    for s in sessions:
        assert (s.status == "cancelled") == (s.actual_date in spans), s.actual_date
        if s.status == "cancelled":
            assert s.actual_hours == 0 and s.notes
    # Allocated teachers are qualified, active and never double-booked.
    qualified = set(TeacherUnit.objects.for_org(org).values_list("teacher_id", "unit_id"))
    allocated = [s for s in sessions if s.teacher_id]
    assert len(allocated) > 100 and len(allocated) < len([s for s in sessions if s.status != "cancelled"])
    by_day: dict = {}
    for s in allocated:
        assert (s.teacher_id, s.unit_id) in qualified
        assert s.teacher.is_active
        for other in by_day.get((s.teacher_id, s.actual_date), []):
            assert not (s.start_time < other.end_time and other.start_time < s.end_time)
        by_day.setdefault((s.teacher_id, s.actual_date), []).append(s)
    # End dates: last teaching day plus one month.
    for code in with_sessions:
        last = max(s.actual_date for s in sessions if s.block_group.code == code and s.status != "cancelled")
        assert groups[code].end_date - last in {timedelta(days=d) for d in range(28, 32)}


def test_the_demo_has_rooms_and_its_sessions_name_them(db):
    """The demo campuses' rooms, every demo session with a room linked to its record."""
    from project.catalogue.models import Room
    from project.operations.demo import seed
    from project.timetabling.models import TimetableSession

    org, _stats = seed.seed_demo()
    rooms = {r.code: r for r in Room.objects.for_org(org)}
    assert {"CBD-3.12", "FTS-G.07", "DAN-1.04", "Online"} <= set(rooms)
    assert rooms["CBD-3.12"].capacity == 24 and rooms["CBD-3.12"].campus.abbreviation == "CBD"
    assert rooms["Online"].type == "online" and rooms["Online"].capacity is None
    with_room = TimetableSession.objects.for_org(org).exclude(room="")
    assert with_room.exists() and not with_room.filter(room_record=None).exists()
    seed.seed_demo()  # idempotent
    assert Room.objects.for_org(org).count() == len(rooms)
