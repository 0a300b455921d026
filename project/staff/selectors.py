"""Reads of teachers and their unit qualifications (delivery.md §7 Teachers).

Every read starts from the organization: another organization's id reads as 404 "Teacher not found".
Lists run a fixed number of queries whatever the row count (one query: the unit count is an annotation,
the embedded unit a join).
"""

from __future__ import annotations

from django.db.models import Count, QuerySet
from django.db.models.functions import Lower

from project.core.tenancy import get_in_org
from project.staff.models import Teacher, TeacherUnit


def _teachers(org) -> QuerySet:
    return Teacher.objects.for_org(org).annotate(unit_count=Count("teacher_units"))


def teacher_list(*, org, show_inactive: bool = False) -> QuerySet:
    """The organization's teachers, active only unless ``show_inactive``; sorted by first then last name
    (case-insensitive). Each row carries ``unit_count``. One query."""
    qs = _teachers(org)
    if not show_inactive:
        qs = qs.filter(is_active=True)
    return qs.order_by(Lower("first_name"), Lower("last_name"), "employee_id", "id")


def teacher_get(*, org, teacher_id) -> Teacher:
    """One teacher of ``org`` with ``unit_count``; NotFound "Teacher not found" otherwise."""
    return get_in_org(_teachers(org), org, teacher_id, label="Teacher")


def teacher_unit_list(*, org, teacher_id) -> list[TeacherUnit]:
    """The units ``teacher_id`` is qualified for, with the unit joined, ordered by unit code.

    NotFound "Teacher not found" when the teacher is not in ``org``. Two queries.
    """
    teacher = get_in_org(Teacher, org, teacher_id, label="Teacher")
    return list(
        TeacherUnit.objects.for_org(org)
        .filter(teacher=teacher)
        .select_related("unit")
        .order_by("unit__code", "id")
    )
