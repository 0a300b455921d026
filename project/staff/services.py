"""Writes of teachers and their unit qualifications (docs/behaviour/teachers.md §1, §2; docs/behaviour/api.md §3, docs/behaviour/errors.md §1; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md).

Each service runs in one transaction, checks tenancy with ``get_in_org`` (404 for another
organization's id), and writes in one ``org_change`` unit (entities ``teacher`` and ``teacher_unit``).

Errors: ``DuplicateCode`` 409 on employeeId or email already used in the organization (path
``employeeId`` / ``email``) and on a unit the teacher already holds (path ``unitId``); ``StaleWrite`` 412
when ``If-Match`` no longer matches ``updatedAt``; ``NotFound`` 404.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction

from project.catalogue.models import Unit
from project.core.changes import org_change
from project.core.concurrency import assert_fresh
from project.core.errors import DuplicateCode, NotFound
from project.core.tenancy import Ctx, get_in_org, get_locked
from project.core.writes import save_or_raise
from project.staff.availability.services import availability_follow_word
from project.staff.models import TEACHER_FIELDS, Teacher, TeacherUnit

DUPLICATE_EMPLOYEE_ID = "A teacher with this employee ID already exists in your organization."
DUPLICATE_EMAIL = "A teacher with this email already exists in your organization."
DUPLICATE_UNIT = "This unit is already assigned to this teacher."


def _check_unique(ctx: Ctx, *, employee_id: str, email: str, exclude_pk: UUID | None = None) -> None:
    """DuplicateCode when another teacher of the organization has this employee ID or email
    (email compared case-insensitively)."""
    others = Teacher.objects.for_org(ctx.org)
    if exclude_pk is not None:
        others = others.exclude(pk=exclude_pk)
    if others.filter(employee_id=employee_id).exists():
        raise DuplicateCode(DUPLICATE_EMPLOYEE_ID, field="employeeId")
    if others.filter(email__iexact=email).exists():
        raise DuplicateCode(DUPLICATE_EMAIL, field="email")


def _save(teacher: Teacher) -> None:
    """Save inside a savepoint; a unique-constraint race becomes the same 409 as the pre-check."""
    try:
        with transaction.atomic():
            teacher.save()
    except IntegrityError as exc:
        text = str(exc).lower()
        if "email" in text:
            raise DuplicateCode(DUPLICATE_EMAIL, field="email") from None
        raise DuplicateCode(DUPLICATE_EMPLOYEE_ID, field="employeeId") from None


def teacher_create(*, ctx: Ctx, data: dict[str, Any]) -> Teacher:
    """Create a teacher of ``ctx.org`` from validated fields (snake_case keys of ``TeacherIn``).

    Emits ``teacher created``. Raises DuplicateCode (409) on employeeId or email.
    """
    values = {k: data[k] for k in TEACHER_FIELDS if k in data}
    with transaction.atomic():
        _check_unique(ctx, employee_id=values["employee_id"], email=values["email"])
        teacher = Teacher(organization=ctx.org, **values)
        with org_change(ctx, "teacher", "created", ids=[teacher.pk]):
            _save(teacher)
            availability_follow_word(ctx, teacher)
    return teacher


def teacher_update(*, ctx: Ctx, teacher_id: UUID | str, data: dict[str, Any], if_match: str | None) -> Teacher:
    """Apply the fields present in ``data`` (only those sent) to a teacher of ``ctx.org``.

    ``if_match``: the If-Match header; a stale value raises StaleWrite (412) and nothing changes.
    Emits ``teacher updated``. Raises NotFound (404), DuplicateCode (409).
    """
    with transaction.atomic():
        teacher = get_locked(Teacher, ctx, teacher_id, "Teacher")
        assert_fresh(teacher, if_match)
        word = teacher.availability
        for key in TEACHER_FIELDS:
            if key in data:
                setattr(teacher, key, data[key])
        _check_unique(ctx, employee_id=teacher.employee_id, email=teacher.email, exclude_pk=teacher.pk)
        with org_change(ctx, "teacher", "updated", ids=[teacher.pk]):
            _save(teacher)
            if teacher.availability != word:
                availability_follow_word(ctx, teacher)  # an unpainted pattern follows the word (ADR 0027)
    return teacher


def teacher_delete(*, ctx: Ctx, teacher_id: UUID | str) -> None:
    """Delete a teacher of ``ctx.org``. Their qualifications go with them; their timetable sessions stay,
    unassigned (the session's teacher is SET_NULL). Emits ``teacher deleted``. Raises NotFound (404)."""
    with transaction.atomic():
        teacher = get_locked(Teacher, ctx, teacher_id, "Teacher")
        pk = teacher.pk
        with org_change(ctx, "teacher", "deleted", ids=[pk]):
            teacher.delete()


def teacher_unit_add(
    *, ctx: Ctx, teacher_id: UUID | str | None, unit_id: UUID | str | None, proficiency_level: str | None = None
) -> TeacherUnit:
    """Qualify a teacher of ``ctx.org`` for a unit of ``ctx.org``; proficiency defaults to "competent".

    A unit is held once per teacher: DuplicateCode (409, path unitId). NotFound (404) for a teacher or
    unit of another organization. Emits ``teacher_unit created``.
    """
    with transaction.atomic():
        teacher = get_locked(Teacher, ctx, teacher_id, "Teacher")
        unit = get_in_org(Unit, ctx.org, unit_id, label="Unit")
        if TeacherUnit.objects.for_org(ctx.org).filter(teacher=teacher, unit=unit).exists():
            raise DuplicateCode(DUPLICATE_UNIT, field="unitId")
        row = TeacherUnit(organization=ctx.org, teacher=teacher, unit=unit, proficiency_level=proficiency_level or "competent")
        with org_change(ctx, "teacher_unit", "created", ids=[row.pk]):
            save_or_raise(row, DuplicateCode(DUPLICATE_UNIT, field="unitId"))
    return row


def teacher_unit_remove(*, ctx: Ctx, teacher_id: UUID | str, unit_id: UUID | str) -> None:
    """Remove a unit from a teacher of ``ctx.org``. NotFound (404) for another organization's teacher or a
    unit the teacher does not hold. Emits ``teacher_unit deleted`` with the qualification's id."""
    with transaction.atomic():
        teacher = get_in_org(Teacher, ctx.org, teacher_id, label="Teacher")
        row = TeacherUnit.objects.for_org(ctx.org).select_for_update().filter(teacher=teacher, unit_id=unit_id).first()
        if row is None:
            raise NotFound("Teacher unit not found")
        pk = row.pk
        with org_change(ctx, "teacher_unit", "deleted", ids=[pk]):
            row.delete()
