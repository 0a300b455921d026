"""Writes of teacher leave (ADR 0014).

Each service runs in one transaction, reaches the teacher and the leave only through the organization
(404 "Teacher not found" / "Leave not found" otherwise) and emits one ``teacher_leave`` change event
before it writes (so the history captures the row). Saving leave never refuses: sessions it hits show
the hard ``teacher_on_leave`` conflict until they are re-allocated or re-planned, as a holiday added
after scheduling does.
"""

from __future__ import annotations

from datetime import time
from typing import Any
from uuid import UUID

from django.db import transaction

from project.core.changes import org_change
from project.core.concurrency import assert_fresh
from project.core.errors import ValidationFailed
from project.core.tenancy import Ctx, get_in_org
from project.staff.models import Teacher, TeacherLeave

FIELDS = ("start_date", "end_date", "start_time", "end_time", "reason")


def leave_check_times(start_time: time | None, end_time: time | None) -> None:
    """Part-day leave has both times, the end after the start; whole-day leave has neither. Raises
    ValidationFailed (400) at ``startTime``/``endTime``. Also the rule of a proposed leave in
    ``project.timetabling.replan.services``."""
    from project.staff.leave.schemas import MSG_END_TIME, MSG_START_TIME, MSG_TIME_ORDER

    if start_time is not None and end_time is None:
        raise ValidationFailed.field("endTime", MSG_END_TIME)
    if end_time is not None and start_time is None:
        raise ValidationFailed.field("startTime", MSG_START_TIME)
    if start_time is not None and end_time is not None and end_time <= start_time:
        raise ValidationFailed.field("endTime", MSG_TIME_ORDER)


def _checked(data: dict[str, Any]) -> dict[str, Any]:
    leave_check_times(data.get("start_time"), data.get("end_time"))
    return {k: data[k] for k in FIELDS if k in data}


def leave_create(*, ctx: Ctx, teacher_id: UUID, data: dict[str, Any]) -> TeacherLeave:
    """Add a leave period to a teacher of ``ctx.org`` from validated ``LeaveIn`` fields (snake_case).
    Raises NotFound (404 "Teacher not found"), ValidationFailed (400, the times). Emits
    ``teacher_leave created``."""
    values = _checked(data)
    with transaction.atomic():
        teacher = get_in_org(Teacher.objects.for_org(ctx.org), ctx.org, teacher_id, label="Teacher")
        leave = TeacherLeave(organization=ctx.org, teacher=teacher, **values)
        with org_change(ctx, "teacher_leave", "created", ids=[leave.pk]):
            leave.save(force_insert=True)
    return leave


def _locked(ctx: Ctx, teacher_id: UUID, leave_id: UUID) -> TeacherLeave:
    get_in_org(Teacher.objects.for_org(ctx.org), ctx.org, teacher_id, label="Teacher")
    qs = TeacherLeave.objects.for_org(ctx.org).filter(teacher_id=teacher_id).select_for_update()
    return get_in_org(qs, ctx.org, leave_id, label="Leave")


def leave_update(*, ctx: Ctx, teacher_id: UUID, leave_id: UUID, data: dict[str, Any], if_match: str | None) -> TeacherLeave:
    """Replace a leave period's fields (the whole form). A stale ``if_match`` raises StaleWrite (412) and
    nothing changes. Raises NotFound (404), ValidationFailed (400). Emits ``teacher_leave updated``."""
    values = _checked(data)
    with transaction.atomic():
        leave = _locked(ctx, teacher_id, leave_id)
        assert_fresh(leave, if_match)
        for key, value in values.items():
            setattr(leave, key, value)
        with org_change(ctx, "teacher_leave", "updated", ids=[leave.pk]):
            leave.save()
    return leave


def leave_delete(*, ctx: Ctx, teacher_id: UUID, leave_id: UUID, if_match: str | None = None) -> None:
    """Delete a leave period (its sessions' ``teacher_on_leave`` conflicts go with it). A stale
    ``if_match`` raises StaleWrite (412). Raises NotFound (404). Emits ``teacher_leave deleted``."""
    with transaction.atomic():
        leave = _locked(ctx, teacher_id, leave_id)
        assert_fresh(leave, if_match)
        with org_change(ctx, "teacher_leave", "deleted", ids=[leave.pk]):
            leave.delete()
