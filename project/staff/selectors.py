"""Reads of teachers and their unit qualifications (docs/behaviour/teachers.md).

Every read starts from the organization: another organization's id reads as 404 "Teacher not found".
Lists run a fixed number of queries whatever the row count (one query: the unit count is an annotation,
the embedded unit and the availability pattern joins).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count, QuerySet
from django.db.models.functions import Lower

from project.core.tenancy import get_in_org
from project.staff.availability.selectors import PROFILE_FIELDS, pattern_json
from project.staff.models import TEACHER_FIELDS, Teacher, TeacherUnit

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from project.accounts.models import Organization


def _teachers(org: Organization) -> QuerySet:
    return Teacher.objects.for_org(org).select_related("availability_profile").annotate(unit_count=Count("teacher_units"))


def teacher_list(*, org: Organization, show_inactive: bool = False) -> QuerySet:
    """The organization's teachers, active only unless ``show_inactive``; sorted by first then last name
    (case-insensitive). Each row carries ``unit_count``. One query."""
    qs = _teachers(org)
    if not show_inactive:
        qs = qs.filter(is_active=True)
    return qs.order_by(Lower("first_name"), Lower("last_name"), "employee_id", "id")


_TEACHER_FIELDS = ("id", *TEACHER_FIELDS, "created_at", "updated_at")


def teacher_list_rows(*, org: Organization, show_inactive: bool = False) -> list[dict]:
    """:func:`teacher_list` as JSON-ready camelCase dicts of exactly the ``TeacherOut`` shape (one query).

    Read with ``.values_list`` and written by ``project.core.responses.json_response``: no model
    instances and no per-field schema validation (ADR 0013). ``tests/core/test_fast_lists.py`` pins the
    answer equal to ``TeacherOut`` over the model rows.
    """
    rows = teacher_list(org=org, show_inactive=show_inactive).values_list(*_TEACHER_FIELDS, "unit_count", *PROFILE_FIELDS)
    return [
        {
            "id": r[0],
            "employeeId": r[1],
            "firstName": r[2],
            "lastName": r[3],
            "email": r[4],
            "phone": r[5],
            "jobTitle": r[6],
            "employmentType": r[7],
            "expiryDate": r[8],
            "availability": r[9],
            "maxWeeklyHours": r[10],
            "isActive": r[11],
            "qualifications": r[12],
            "createdAt": r[13],
            "updatedAt": r[14],
            "unitCount": r[15] or 0,
            "availabilityPattern": pattern_json(r[9], r[16:]),
        }
        for r in rows
    ]


def teacher_get(*, org: Organization, teacher_id: UUID | str) -> Teacher:
    """One teacher of ``org`` with ``unit_count``; NotFound "Teacher not found" otherwise."""
    return get_in_org(_teachers(org), org, teacher_id, label="Teacher")


def teacher_unit_list(*, org: Organization, teacher_id: UUID | str) -> list[TeacherUnit]:
    """The units ``teacher_id`` is qualified for, with the unit joined, ordered by unit code.

    NotFound "Teacher not found" when the teacher is not in ``org``. Two queries.
    """
    teacher = get_in_org(Teacher, org, teacher_id, label="Teacher")
    return list(TeacherUnit.objects.for_org(org).filter(teacher=teacher).select_related("unit").order_by("unit__code", "id"))
