"""Fixtures of the timetabling tests: a schedulable block group with a two-unit plan; session bodies and
filled import templates."""

from __future__ import annotations

import io
from datetime import date, time
from decimal import Decimal

import openpyxl
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


def filled_template(api, *rows: list) -> bytes:
    """The session import template the API serves (row 2, its example, kept: the import skips it) with
    ``rows`` appended in the columns of ``project.timetabling.importer.HEADERS``, as .xlsx bytes."""
    wb = openpyxl.load_workbook(io.BytesIO(api.get("/api/timetables/template").content))
    ws = wb["Sessions"]
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def new_cohort_row(*, unit_name: str, teacher: str | None = None, notes: str | None = None) -> list:
    """A template row that creates block group BG-NEW ("New cohort") and unit NEWUNIT01: Monday
    2026-03-02, 9:00 to 12:00 in room R1, scheduled."""
    return [
        "BG-NEW",
        "New cohort",
        "NEWUNIT01",
        unit_name,
        date(2026, 3, 2),
        "Monday",
        time(9),
        time(12),
        None,
        None,
        "R1",
        teacher,
        "scheduled",
        notes,
    ]
