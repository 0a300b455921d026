"""Fixtures of the timetabling tests: a schedulable block group with a two-unit plan."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from tests import factories as f


@pytest.fixture
def plan_group(org):
    """Active group starting Monday 2026-02-02 on Monday and Wednesday, plan: unit A 9 facilitated hours
    (6 face to face + 3 in-class assessment; its 10 work-integrated hours are not timetabled), unit B 6."""
    unit_a = f.make_unit(org, code="BSBWHS311", name="Assist with workplace safety", nominal_hours=20)
    unit_b = f.make_unit(org, code="BSBTEC201", name="Use business software", nominal_hours=6)
    plan = f.make_study_plan(org)
    f.add_plan_unit(
        plan,
        unit_a,
        face_to_face_hours=Decimal("6"),
        in_class_assessment_hours=Decimal("3"),
        work_integrated_learning_hours=Decimal("10"),
    )
    f.add_plan_unit(plan, unit_b, face_to_face_hours=Decimal("6"))
    group = f.make_block_group(org, code="BG-A", start_date=date(2026, 2, 2), preferred_days="Monday, Wednesday")
    f.assign_plan(group, plan)
    return {"group": group, "plan": plan, "a": unit_a, "b": unit_b}


TEMPLATES = [
    {"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3},
    {"startTime": "13:00:00", "endTime": "16:00:00", "duration": 3},
]


def session_body(group, unit, **kw) -> dict:
    body = {
        "blockGroupId": str(group.id),
        "unitId": str(unit.id),
        "teacherId": "unassigned",
        "dayOfWeek": 1,
        "weekNumber": 1,
        "startTime": "09:00:00",
        "endTime": "12:00:00",
        "room": "",
        "actualHours": 3,
        "status": "scheduled",
        "notes": "",
    }
    body.update(kw)
    return body
