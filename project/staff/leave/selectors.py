"""Reads of teacher leave (ADR 0014). Every function takes the organization first."""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

from django.db.models import QuerySet

from project.core.tenancy import get_in_org
from project.staff.models import Teacher, TeacherLeave

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization


def leave_list(*, org: Organization, teacher_id: UUID | str) -> QuerySet[TeacherLeave]:
    """A teacher's leave by start date and time (1 query after the teacher's). NotFound (404 "Teacher not
    found") for a teacher of another organization."""
    get_in_org(Teacher.objects.for_org(org), org, teacher_id, label="Teacher")
    return TeacherLeave.objects.for_org(org).filter(teacher_id=teacher_id).order_by("start_date", "start_time", "created_at")


def leave_get(*, org: Organization, teacher_id: UUID | str, leave_id: UUID | str) -> TeacherLeave:
    """One leave period of a teacher of ``org``; NotFound "Teacher not found" / "Leave not found"."""
    get_in_org(Teacher.objects.for_org(org), org, teacher_id, label="Teacher")
    return get_in_org(TeacherLeave.objects.for_org(org).filter(teacher_id=teacher_id), org, leave_id, label="Leave")
