"""Writes of timetable sessions (docs/behaviour/timetables.md §2): create, update (If-Match), delete, bulk allocate, bulk set room; each refuses new hard conflicts (409) and answers soft ones as warnings.

Each write is one write unit (``project.core.changes.org_change``, docs/adr/0028) whose body holds the
conflict check and the write: its row lock on the organization serialises the organization's writers, so the
conflict check that follows sees every committed session and two coordinators cannot both book the
same teacher. A refused write (409, 412, 400) rolls back, event included.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from project.catalogue.models import Room, Unit
from project.catalogue.services import room_resolve
from project.core.changes import Action, Entity, org_change
from project.core.concurrency import assert_fresh
from project.core.errors import NotFound, SchedulingConflict, ValidationFailed
from project.core.schemas import date_range_message, ensure_date_in_range
from project.core.tenancy import Ctx, get_in_org, get_locked
from project.history.services import actor_label, sessions_phrase
from project.planning.models import BlockGroup
from project.staff.models import Teacher
from project.timetabling import conflicts as cf
from project.timetabling.calendar import TermCalendar, week_start
from project.timetabling.models import TimetableSession
from project.timetabling.scheduling import plan as sch
from project.timetabling.schemas import SessionIn

ENTITY: Entity = "timetable_session"
TWO = Decimal("0.01")


def _refuse_conflicts(conflicts: list[cf.Conflict]) -> None:
    """Raise SchedulingConflict (409 ``conflict`` with every conflict) when ``conflicts`` is not empty."""
    if not conflicts:
        return
    message = conflicts[0].message if len(conflicts) == 1 else f"This change would create {len(conflicts)} scheduling conflicts"
    raise SchedulingConflict(message, [c.to_dict() for c in conflicts])


def _span_hours(start: time, end: time) -> Decimal:
    minutes = (end.hour * 60 + end.minute + end.second / 60) - (start.hour * 60 + start.minute + start.second / 60)
    return (Decimal(str(minutes)) / 60).quantize(TWO, rounding=ROUND_HALF_UP)


def _check_hours(hours: Decimal) -> Decimal:
    if hours < Decimal("0.5"):
        raise ValidationFailed.field("actualHours", "Hours must be at least 0.5")
    if hours > Decimal("12"):
        raise ValidationFailed.field("actualHours", "Hours cannot exceed 12 per session")
    return hours.quantize(TWO, rounding=ROUND_HALF_UP)


def _week_date(anchor: date, days: int) -> date:
    """``anchor`` plus ``days`` for a date placed by weekNumber: 400 at ``weekNumber`` when the result is
    outside years 2000-2100 (a huge week number would otherwise overflow Python's dates)."""
    label = "The session's date"
    try:
        day = anchor + timedelta(days=days)
    except OverflowError:
        raise ValidationFailed.field("weekNumber", date_range_message(label)) from None
    return ensure_date_in_range(day, "weekNumber", label)


def _placement(group: BlockGroup, data: SessionIn, existing: TimetableSession | None) -> tuple[date, int, int]:
    """(actual_date, day_of_week, week_number) of a session being created or edited.

    A date derived from weekNumber must fall in years 2000-2100 (400 at ``weekNumber``)."""
    if data.actual_date is not None:
        day = data.actual_date
        week = sch.week_number(day, group.start_date)
        if week < 1:
            raise ValidationFailed.field("actualDate", "The date cannot be before the block group's first week")
        return day, day.isoweekday(), week
    if existing is None:
        if data.week_number is None:
            raise ValidationFailed.field("weekNumber", "Week number is required")
        if data.day_of_week is None:
            raise ValidationFailed.field("dayOfWeek", "Day of week is required")
        offset = 7 * (data.week_number - 1) + (data.day_of_week - 1)
        return _week_date(week_start(group.start_date), offset), data.day_of_week, data.week_number
    week = data.week_number if data.week_number is not None else existing.week_number
    dow = data.day_of_week if data.day_of_week is not None else existing.day_of_week
    if existing.block_group_id != group.id:
        return _week_date(week_start(group.start_date), 7 * (week - 1) + (dow - 1)), dow, week
    # Same group: move the stored date by the change of week and day (keeps sessions generated from
    # another start date where they are when the form sends them back unchanged).
    shifted = _week_date(existing.actual_date, 7 * (week - existing.week_number) + (dow - existing.day_of_week))
    return shifted, dow, week


def _slot(s: TimetableSession, group_code: str = "", unit_code: str = "") -> cf.Slot:
    return cf.Slot(
        s.id,
        s.block_group_id,
        s.unit_id,
        s.teacher_id,
        s.room or "",
        s.actual_date,
        s.start_time,
        s.end_time,
        float(s.actual_hours or 0),
        s.status,
        group_code,
        unit_code,
    )


def _apply(ctx: Ctx, s: TimetableSession, data: SessionIn, existing: TimetableSession | None) -> None:
    org = ctx.org
    group = get_in_org(BlockGroup, org, data.block_group_id, "Block group")
    unit = get_in_org(Unit, org, data.unit_id, "Unit")
    teacher = get_in_org(Teacher, org, data.teacher_id, "Teacher") if data.teacher_id is not None else None
    day, dow, week = _placement(group, data, existing)
    hours = data.actual_hours if data.actual_hours is not None else _span_hours(data.start_time, data.end_time)
    s.block_group, s.unit, s.teacher = group, unit, teacher
    s.actual_date, s.day_of_week, s.week_number = day, dow, week
    s.start_time, s.end_time = data.start_time, data.end_time
    s.actual_hours = _check_hours(Decimal(hours))
    s.room, s.room_record_id = room_resolve(org, data.room_id, data.room)
    s.status = data.status
    s.notes = data.notes or ""
    s.term = TermCalendar.for_org(org).term_of(day)


def _update_summary(ctx: Ctx, s: TimetableSession, before: cf.Slot, old_teacher: object) -> str:
    """ "Jordan Lee updated a session of UNIT in GROUP, Mon 30 Nov: teacher, room" (what changed, in words)."""
    after = _slot(s)
    changed = [
        name
        for name, differs in (
            ("teacher", old_teacher != s.teacher_id),
            ("room", before.room != after.room),
            ("date", before.date != after.date),
            ("times", (before.start, before.end) != (after.start, after.end)),
            ("hours", before.hours != after.hours),
            ("status", before.status != after.status),
            ("unit", before.unit_id != after.unit_id),
            ("block group", before.block_group_id != after.block_group_id),
        )
        if differs
    ]
    what = f": {', '.join(changed)}" if changed else ""
    if changed == ["teacher"]:
        who = f"{s.teacher.first_name} {s.teacher.last_name}" if s.teacher else None
        return f"{actor_label(ctx)} {'allocated ' + who + ' to' if who else 'unallocated'} {sessions_phrase([s])}"
    return f"{actor_label(ctx)} updated {sessions_phrase([s])}{what}"


def session_create(*, ctx: Ctx, data: SessionIn) -> tuple[TimetableSession, list[cf.Conflict]]:
    """Create a session (POST /api/timetables). Returns (session, soft conflicts as warnings).

    Raises NotFound for another organization's group, unit or teacher, ValidationFailed, and
    SchedulingConflict (409) when it would add a hard conflict (nothing written).
    """
    s = TimetableSession(id=uuid.uuid4(), organization=ctx.org)
    _apply(ctx, s, data, None)
    with org_change(ctx, ENTITY, "created", ids=[s.id], summary=f"{actor_label(ctx)} added {sessions_phrase([s])}"):
        new_hard, warnings = cf.check_changes(ctx.org, [_slot(s, s.block_group.code, s.unit.code)], [])
        _refuse_conflicts(new_hard)
        s.save(force_insert=True)
    return s, warnings


def session_update(
    *, ctx: Ctx, session_id: uuid.UUID | str, data: SessionIn, if_match: str | None
) -> tuple[TimetableSession, list[cf.Conflict]]:
    """Update a session (PUT /api/timetables/{id}); 412 on a stale If-Match, 409 on a new hard conflict."""
    get_in_org(TimetableSession, ctx.org, session_id, "Timetable session")
    with transaction.atomic():
        s = get_locked(TimetableSession, ctx, session_id, "Timetable session")
        assert_fresh(s, if_match)
        before = _slot(s)
        old_teacher = before.teacher_id
        _apply(ctx, s, data, s)  # reads only: the write (save) comes after the activity is recorded
        with org_change(ctx, ENTITY, "updated", ids=[s.id], summary=_update_summary(ctx, s, before, old_teacher)):
            new_hard, warnings = cf.check_changes(ctx.org, [_slot(s, s.block_group.code, s.unit.code)], [before])
            _refuse_conflicts(new_hard)
            s.save()
    return s, warnings


def session_delete(*, ctx: Ctx, session_id: uuid.UUID | str) -> None:
    """Delete a session (DELETE /api/timetables/{id}); 404 when not in the organization."""
    s = get_in_org(
        TimetableSession.objects.for_org(ctx.org).select_related("block_group", "unit"), ctx.org, session_id, "Timetable session"
    )
    with org_change(ctx, ENTITY, "deleted", ids=[s.id], summary=f"{actor_label(ctx)} deleted {sessions_phrase([s])}"):
        TimetableSession.objects.for_org(ctx.org).filter(pk=s.pk).delete()


def _bulk_ids(session_ids: list | None, target: object, target_field: str, message: str) -> list[uuid.UUID]:
    """The distinct session ids of a bulk action, in order. ValidationFailed ``message`` when the
    sessions or the target are missing; NotFound for an id that is not a UUID."""
    if not session_ids or target is None:
        raise ValidationFailed.field("sessionIds" if not session_ids else target_field, message)
    try:
        return list(dict.fromkeys(uuid.UUID(str(i)) for i in session_ids))
    except (ValueError, TypeError, AttributeError):
        raise NotFound("Timetable session not found") from None


def _bulk_write(
    ctx: Ctx, ids: list[uuid.UUID], *, action: Action, summary: str, slot_change: dict[str, Any], values: dict[str, Any]
) -> list[cf.Conflict]:
    """Write ``values`` to every session of ``ids``, all or nothing: one event (its activity "<actor>
    <summary> <the sessions>", e.g. "Jordan Lee allocated Eleni Georgiou to 2 sessions of GRP, Mon 30 Nov"), the rows locked, the
    conflicts of their slots changed by ``slot_change`` checked (SchedulingConflict on a new hard one,
    nothing written; NotFound when a session is not the organization's). Returns the soft conflicts."""
    with transaction.atomic():
        rows = list(
            TimetableSession.objects.for_org(ctx.org).filter(id__in=ids).select_for_update().select_related("block_group", "unit")
        )
        # The unit records before its body (the rows it then writes are captured), named after the rows it touches.
        with org_change(ctx, ENTITY, action, ids=ids, summary=f"{actor_label(ctx)} {summary} {sessions_phrase(rows)}"):
            if len(rows) != len(ids):
                raise NotFound("Timetable session not found")
            originals = [_slot(s, s.block_group.code, s.unit.code) for s in rows]
            new_hard, warnings = cf.check_changes(ctx.org, [replace(o, **slot_change) for o in originals], originals)
            _refuse_conflicts(new_hard)
            TimetableSession.objects.for_org(ctx.org).filter(id__in=ids).update(**values, updated_at=timezone.now())
    return warnings


def session_bulk_allocate(
    *, ctx: Ctx, session_ids: list | None, teacher_id: uuid.UUID | str
) -> tuple[list[str], list[cf.Conflict]]:
    """Give ``teacher_id`` every session of ``session_ids``, all or nothing (PUT /api/timetables/bulk-allocate).

    Raises ValidationFailed "Please select sessions and a teacher" when either is missing, NotFound when
    a session or the teacher is not the organization's, SchedulingConflict (409, nothing written) when
    any session would get a hard conflict. One ``allocated`` event with all ids.
    """
    ids = _bulk_ids(session_ids, teacher_id, "teacherId", "Please select sessions and a teacher")
    teacher = get_in_org(Teacher, ctx.org, teacher_id, "Teacher")
    warnings = _bulk_write(
        ctx,
        ids,
        action="allocated",
        summary=f"allocated {teacher.first_name} {teacher.last_name} to",
        slot_change={"teacher_id": teacher.id},
        values={"teacher": teacher},
    )
    return [str(i) for i in ids], warnings


def session_bulk_set_room(
    *, ctx: Ctx, session_ids: list | None, room_id: uuid.UUID | str
) -> tuple[list[str], Room, list[cf.Conflict]]:
    """Put every session of ``session_ids`` in the room ``room_id``, all or nothing (PUT
    /api/timetables/bulk-room, ADR 0019): each gets ``room`` = the room's code and ``roomId``.

    Raises ValidationFailed "Please select sessions and a room" when either is missing, NotFound when a
    session or the room is not the organization's, SchedulingConflict (409, nothing written) when any
    session would double-book the room (with another session or with another listed one). Soft conflicts
    (capacity below the cohort, another campus) come back as warnings. One ``updated`` event with all ids.
    """
    ids = _bulk_ids(session_ids, room_id, "roomId", "Please select sessions and a room")
    room = get_in_org(Room.objects.for_org(ctx.org), ctx.org, room_id, "Room")
    warnings = _bulk_write(
        ctx,
        ids,
        action="updated",
        summary=f"put room {room.code} on",
        slot_change={"room": room.code},
        values={"room": room.code, "room_record": room},
    )
    return [str(i) for i in ids], room, warnings
