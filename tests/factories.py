"""Plain factory functions for tests. Each takes the organization first and keyword overrides."""

from __future__ import annotations

import itertools
from datetime import date, time
from decimal import Decimal

from project.accounts.models import Organization, User
from project.catalogue.models import Campus, Course, Unit
from project.planning.models import BlockGroup, BlockGroupStudyPlan, StudyPlan, StudyPlanUnit
from project.staff.models import Teacher, TeacherUnit
from project.timetabling.models import Holiday, TimetableSession

PASSWORD = "Sup3r$ecretPass!"
_n = itertools.count(1)

# The models of an organization's delivery data, parents first (what the demo seed fills and an undo restores).
DELIVERY_MODELS = (
    Campus,
    Course,
    Unit,
    StudyPlan,
    StudyPlanUnit,
    BlockGroup,
    BlockGroupStudyPlan,
    Teacher,
    TeacherUnit,
    Holiday,
    TimetableSession,
)


def make_org(**kw) -> Organization:
    n = next(_n)
    org = Organization.objects.create(name=kw.pop("name", f"Org {n}"), domain=kw.pop("domain", f"org{n}.edu.au"), **kw)
    Campus.objects.create(organization=org, name="Main Campus", abbreviation="MAIN")
    return org


def make_user(org, *, role="user", password=PASSWORD, **kw) -> User:
    n = next(_n)
    kw.setdefault("email", f"user{n}@{org.domain}")
    kw.setdefault("first_name", "Test")
    kw.setdefault("last_name", f"User{n}")
    kw.setdefault("must_change_password", False)
    return User.objects.create_user(password=password, organization=org, role=role, **kw)


def _create(model, org, overrides: dict, **defaults):
    """A ``model`` row of ``org``: ``defaults`` under the caller's keyword ``overrides``."""
    return model.objects.create(organization=org, **{**defaults, **overrides})


def make_course(org, **kw) -> Course:
    n = next(_n)
    return _create(Course, org, kw, code=f"ICT{30000 + n}", name=f"Course {n}")


def make_unit(org, **kw) -> Unit:
    n = next(_n)
    return _create(Unit, org, kw, code=f"ICTUNIT{n:03d}", name=f"Unit {n}", nominal_hours=40)


def make_campus(org, **kw) -> Campus:
    n = next(_n)
    return _create(Campus, org, kw, abbreviation=f"C{n}", name=f"Campus {n}")


def make_study_plan(org, **kw) -> StudyPlan:
    n = next(_n)
    return _create(StudyPlan, org, kw, name=f"Plan {n}", total_nominal_hours=100)


def add_plan_unit(plan, unit, **kw) -> StudyPlanUnit:
    kw.setdefault("sequence_order", plan.plan_units.count() + 1)
    kw.setdefault("face_to_face_hours", Decimal(unit.nominal_hours))
    return StudyPlanUnit.objects.create(organization_id=plan.organization_id, study_plan=plan, unit=unit, **kw)


def make_block_group(org, **kw) -> BlockGroup:
    n = next(_n)
    return _create(
        BlockGroup,
        org,
        kw,
        code=f"BG{n:04d}",
        name=f"Block group {n}",
        cohort_size=20,
        start_date=date(2026, 2, 2),
        preferred_days="Monday, Wednesday",
    )


def assign_plan(block_group, plan) -> BlockGroupStudyPlan:
    return BlockGroupStudyPlan.objects.create(
        organization_id=block_group.organization_id, block_group=block_group, study_plan=plan
    )


def make_teacher(org, **kw) -> Teacher:
    n = next(_n)
    return _create(
        Teacher, org, kw, employee_id=f"E{n:05d}", first_name=f"Teacher{n}", last_name="Smith", email=f"teacher{n}@{org.domain}"
    )


def qualify(teacher, unit, **kw) -> TeacherUnit:
    return TeacherUnit.objects.create(organization_id=teacher.organization_id, teacher=teacher, unit=unit, **kw)


def make_session(org, *, block_group, unit, actual_date=date(2026, 3, 2), start=time(9), end=time(12), **kw) -> TimetableSession:
    kw.setdefault("day_of_week", actual_date.isoweekday())
    kw.setdefault("actual_hours", Decimal((end.hour * 60 + end.minute - start.hour * 60 - start.minute) / 60))
    return TimetableSession.objects.create(
        organization=org, block_group=block_group, unit=unit, actual_date=actual_date, start_time=start, end_time=end, **kw
    )


def make_holiday(org, **kw) -> Holiday:
    kw.setdefault("name", "Labour Day")
    kw.setdefault("start_date", date(2026, 3, 9))
    kw.setdefault("end_date", kw["start_date"])
    kw.setdefault("year", kw["start_date"].year)
    return Holiday.objects.create(organization=org, **kw)
