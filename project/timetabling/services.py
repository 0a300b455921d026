"""Writes of timetable sessions: create, update, delete, bulk allocation, schedule generation and
clearing, Excel import, calendar feeds (delivery.md §7, decisions.md §3, §4, §6, §7).

Each write is one ``transaction.atomic()`` and calls ``emit_change`` exactly once, first thing inside
the transaction: its row lock on the organization serialises the organization's writers, so the
conflict check that follows sees every committed session and two coordinators cannot both book the
same teacher. A refused write (409, 412, 400) rolls back, event included.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import replace
from datetime import date, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone

from project.catalogue.models import Room, Unit, room_key
from project.catalogue.services import resolve_room
from project.core.concurrency import assert_fresh
from project.core.errors import BadRequest, NotFound, SchedulingConflict, ValidationFailed
from project.core.schemas import date_range_message, ensure_date_in_range
from project.core.tenancy import Ctx, get_in_org
from project.planning.days import parse_preferred_days
from project.planning.models import BlockGroup, BlockGroupStudyPlan, LinkedBlockGroupMember, StudyPlanUnit
from project.staff.models import Teacher
from project.timetabling import conflicts as cf
from project.timetabling import scheduling as sch
from project.timetabling.calendar import TermCalendar, week_start
from project.timetabling.models import CalendarFeed, TimetableSession
from project.timetabling.schemas import ScheduleIn, SessionIn
from realtime.events import emit_change

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

ENTITY = "timetable_session"
NOT_SCHEDULABLE = "Cannot schedule {status} block groups. Only Planned and Active block groups can be scheduled."
NO_PLAN = "Please assign a study plan before scheduling."
NO_DAYS = "Please set the block group's preferred days (for example 'Monday, Wednesday') before scheduling."
SCHEDULABLE = {BlockGroup.Status.PLANNED, BlockGroup.Status.ACTIVE}
TWO = Decimal("0.01")


def refuse_conflicts(conflicts: list[cf.Conflict]) -> None:
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
    s.room, s.room_record_id = resolve_room(org, data.room_id, data.room)
    s.status = data.status
    s.notes = data.notes or ""
    s.term = TermCalendar.for_org(org).term_of(day)


def session_create(*, ctx: Ctx, data: SessionIn) -> tuple[TimetableSession, list[cf.Conflict]]:
    """Create a session (POST /api/timetables). Returns (session, soft conflicts as warnings).

    Raises NotFound for another organization's group, unit or teacher, ValidationFailed, and
    SchedulingConflict (409) when it would add a hard conflict (nothing written).
    """
    s = TimetableSession(id=uuid.uuid4(), organization=ctx.org)
    _apply(ctx, s, data, None)
    with transaction.atomic():
        emit_change(ctx, entity=ENTITY, action="created", ids=[s.id])
        new_hard, warnings = cf.check_changes(ctx.org, [_slot(s, s.block_group.code, s.unit.code)], [])
        refuse_conflicts(new_hard)
        s.save(force_insert=True)
    return s, warnings


def session_update(
    *, ctx: Ctx, session_id: uuid.UUID | str, data: SessionIn, if_match: str | None
) -> tuple[TimetableSession, list[cf.Conflict]]:
    """Update a session (PUT /api/timetables/{id}); 412 on a stale If-Match, 409 on a new hard conflict."""
    get_in_org(TimetableSession, ctx.org, session_id, "Timetable session")
    with transaction.atomic():
        s = get_in_org(TimetableSession.objects.for_org(ctx.org).select_for_update(), ctx.org, session_id, "Timetable session")
        assert_fresh(s, if_match)
        before = _slot(s)
        emit_change(ctx, entity=ENTITY, action="updated", ids=[s.id])
        _apply(ctx, s, data, s)
        new_hard, warnings = cf.check_changes(ctx.org, [_slot(s, s.block_group.code, s.unit.code)], [before])
        refuse_conflicts(new_hard)
        s.save()
    return s, warnings


def session_delete(*, ctx: Ctx, session_id: uuid.UUID | str) -> None:
    """Delete a session (DELETE /api/timetables/{id}); 404 when not in the organization."""
    s = get_in_org(TimetableSession, ctx.org, session_id, "Timetable session")
    with transaction.atomic():
        emit_change(ctx, entity=ENTITY, action="deleted", ids=[s.id])
        TimetableSession.objects.for_org(ctx.org).filter(pk=s.pk).delete()


def bulk_allocate(*, ctx: Ctx, session_ids: list | None, teacher_id: uuid.UUID | str) -> tuple[list[str], list[cf.Conflict]]:
    """Give ``teacher_id`` every session of ``session_ids``, all or nothing (PUT /api/timetables/bulk-allocate).

    Raises ValidationFailed "Please select sessions and a teacher" when either is missing, NotFound when
    a session or the teacher is not the organization's, SchedulingConflict (409, nothing written) when
    any session would get a hard conflict. One ``allocated`` event with all ids.
    """
    if not session_ids or teacher_id is None:
        raise ValidationFailed.field("sessionIds" if not session_ids else "teacherId", "Please select sessions and a teacher")
    try:
        ids = list(dict.fromkeys(uuid.UUID(str(i)) for i in session_ids))
    except (ValueError, TypeError, AttributeError):
        raise NotFound("Timetable session not found") from None
    teacher = get_in_org(Teacher, ctx.org, teacher_id, "Teacher")
    with transaction.atomic():
        emit_change(ctx, entity=ENTITY, action="allocated", ids=ids)
        rows = list(
            TimetableSession.objects.for_org(ctx.org).filter(id__in=ids).select_for_update().select_related("block_group", "unit")
        )
        if len(rows) != len(ids):
            raise NotFound("Timetable session not found")
        originals = [_slot(s, s.block_group.code, s.unit.code) for s in rows]
        proposed = [replace(o, teacher_id=teacher.id) for o in originals]
        new_hard, warnings = cf.check_changes(ctx.org, proposed, originals)
        refuse_conflicts(new_hard)
        TimetableSession.objects.for_org(ctx.org).filter(id__in=ids).update(teacher=teacher, updated_at=timezone.now())
    return [str(i) for i in ids], warnings


def bulk_set_room(*, ctx: Ctx, session_ids: list | None, room_id: uuid.UUID | str) -> tuple[list[str], Room, list[cf.Conflict]]:
    """Put every session of ``session_ids`` in the room ``room_id``, all or nothing (PUT
    /api/timetables/bulk-room, issue 19): each gets ``room`` = the room's code and ``roomId``.

    Raises ValidationFailed "Please select sessions and a room" when either is missing, NotFound when a
    session or the room is not the organization's, SchedulingConflict (409, nothing written) when any
    session would double-book the room (with another session or with another listed one). Soft conflicts
    (capacity below the cohort, another campus) come back as warnings. One ``updated`` event with all ids.
    """
    if not session_ids or room_id is None:
        raise ValidationFailed.field("sessionIds" if not session_ids else "roomId", "Please select sessions and a room")
    try:
        ids = list(dict.fromkeys(uuid.UUID(str(i)) for i in session_ids))
    except (ValueError, TypeError, AttributeError):
        raise NotFound("Timetable session not found") from None
    room = get_in_org(Room.objects.for_org(ctx.org), ctx.org, room_id, "Room")
    with transaction.atomic():
        emit_change(ctx, entity=ENTITY, action="updated", ids=ids, summary=f"Room {room.code} for {len(ids)} session(s)")
        rows = list(
            TimetableSession.objects.for_org(ctx.org).filter(id__in=ids).select_for_update().select_related("block_group", "unit")
        )
        if len(rows) != len(ids):
            raise NotFound("Timetable session not found")
        originals = [_slot(s, s.block_group.code, s.unit.code) for s in rows]
        proposed = [replace(o, room=room.code) for o in originals]
        new_hard, warnings = cf.check_changes(ctx.org, proposed, originals)
        refuse_conflicts(new_hard)
        TimetableSession.objects.for_org(ctx.org).filter(id__in=ids).update(
            room=room.code, room_record=room, updated_at=timezone.now()
        )
    return [str(i) for i in ids], room, warnings


# --------------------------------------------------------------------------------------- schedule


def _unit_needs(org: Organization, group: BlockGroup) -> list[sch.UnitNeed]:
    """Remaining facilitated hours per unit: plans in assignment order, units in sequenceOrder (§3.1)."""
    plan_ids = list(
        BlockGroupStudyPlan.objects.for_org(org)
        .filter(block_group=group)
        .order_by("created_at", "id")
        .values_list("study_plan_id", flat=True)
    )
    if not plan_ids:
        raise BadRequest(NO_PLAN)
    plan_units: dict = {}
    for pu in StudyPlanUnit.objects.for_org(org).filter(study_plan_id__in=plan_ids).order_by("sequence_order", "created_at"):
        plan_units.setdefault(pu.study_plan_id, []).append(pu)
    done = {
        row["unit_id"]: row["hours"] or Decimal("0")
        for row in TimetableSession.objects.for_org(org)
        .filter(block_group=group)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .values("unit_id")
        .annotate(hours=Sum("actual_hours"))
    }
    needs = []
    for plan_id in plan_ids:
        for pu in plan_units.get(plan_id, []):
            want = pu.facilitated_hours
            used = min(want, done.get(pu.unit_id, Decimal("0")))
            done[pu.unit_id] = done.get(pu.unit_id, Decimal("0")) - used
            if want - used > 0:
                needs.append(sch.UnitNeed(pu.unit_id, want - used))
    return needs


def schedule_block_group(*, ctx: Ctx, block_group_id: uuid.UUID | str, data: ScheduleIn) -> dict:
    """Generate a block group's sessions (POST /api/block-groups/{id}/schedule, decisions.md §3).

    Answer (snake_case here): sessions_created (teaching sessions, not holiday markers), hours_scheduled,
    start_date, end_date (the group's new endDate: last teaching day + 1 month), last_teaching_date,
    units_scheduled (units that got sessions), holidays_skipped [{date, name}], warnings [str].
    Raises NotFound, BadRequest (status, no plan, no preferred day, more than 3 years). One transaction:
    bulk insert + endDate + one ``scheduled`` event with ids=[block group id].
    """
    org = ctx.org
    group = get_in_org(BlockGroup, org, block_group_id, "Block group")
    if group.status not in SCHEDULABLE:
        raise BadRequest(NOT_SCHEDULABLE.format(status=group.status))
    days = set(parse_preferred_days(group.preferred_days))
    templates = [sch.Template(t.start_time, t.end_time, Decimal(t.duration)) for t in data.session_templates]
    start = data.start_date or group.start_date
    room, room_record_id = resolve_room(org, None, data.room)
    with transaction.atomic():
        emit_change(ctx, entity=ENTITY, action="scheduled", ids=[group.id])
        group = BlockGroup.objects.for_org(org).select_for_update().get(pk=group.pk)
        needs = _unit_needs(org, group)
        if not days:
            raise BadRequest(NO_DAYS)
        limit = cf.add_months(start, 12 * sch.MAX_YEARS)
        holidays = cf.load_holidays(org, start, limit)
        group_busy: dict = {}
        for d, s, e, status in (
            TimetableSession.objects.for_org(org)
            .filter(block_group=group, actual_date__gte=start, actual_date__lte=limit)
            .values_list("actual_date", "start_time", "end_time", "status")
            .order_by()
        ):
            group_busy.setdefault(d, []).append((s, e, status == TimetableSession.Status.CANCELLED))
        room_busy: dict = {}
        online = (
            room_record_id is not None and Room.objects.for_org(org).filter(pk=room_record_id, type=Room.Type.ONLINE).exists()
        )
        if room and not online:  # an online room holds any number of classes at once (issue 19)
            link = (
                LinkedBlockGroupMember.objects.for_org(org)
                .filter(block_group=group)
                .values_list("linked_group_id", flat=True)
                .first()
            )
            friends = {group.id}
            if link is not None:
                friends |= set(
                    LinkedBlockGroupMember.objects.for_org(org)
                    .filter(linked_group_id=link)
                    .values_list("block_group_id", flat=True)
                )
            for d, s, e in (
                TimetableSession.objects.for_org(org)
                .filter(room__iexact=room, actual_date__gte=start, actual_date__lte=limit)
                .exclude(status=TimetableSession.Status.CANCELLED)
                .exclude(block_group_id__in=friends)
                .values_list("actual_date", "start_time", "end_time")
                .order_by()
            ):
                room_busy.setdefault(d, []).append((s, e))
        # The request's room type, else the group's preferred one (issue 19), when no room is named.
        choosing = room_type_choice = (not room and (data.room_type or group.preferred_room_type)) or None
        if choosing:
            from project.timetabling import room_choice

            candidates = room_choice.candidate_rooms(org, group, room_type_choice)
        terms = TermCalendar.for_org(org)
        try:
            plan = sch.plan_schedule(
                units=needs,
                days=days,
                templates=templates,
                start=start,
                holidays=holidays,
                group_busy=group_busy,
                room_busy=room_busy,
                term_of=terms.term_of,
                new_week_per_unit=data.start_next_unit_in_new_week,
                notes=data.notes or "",
            )
        except sch.ScheduleTooLong as exc:
            raise BadRequest(str(exc)) from None
        rooms_of: dict = {}
        unroomed = 0
        if choosing:
            teaching_plan = [i for i, p in enumerate(plan.sessions) if not p.cancelled]
            friends = set(
                LinkedBlockGroupMember.objects.for_org(org)
                .filter(
                    linked_group_id__in=LinkedBlockGroupMember.objects.for_org(org)
                    .filter(block_group=group)
                    .values("linked_group_id")
                )
                .values_list("block_group_id", flat=True)
            ) | {group.id}
            busy = room_choice.room_bookings(org, candidates, start, limit, exclude_groups=friends)
            chosen = room_choice.choose_rooms(
                [
                    (plan.sessions[i].unit_id, plan.sessions[i].date, plan.sessions[i].start, plan.sessions[i].end)
                    for i in teaching_plan
                ],
                candidates,
                busy,
            )
            rooms_of = {i: r for i, r in zip(teaching_plan, chosen, strict=True) if r is not None}
            unroomed = sum(1 for r in chosen if r is None)
        TimetableSession.objects.for_org(org).bulk_create(
            [
                TimetableSession(
                    organization=org,
                    block_group=group,
                    unit_id=p.unit_id,
                    teacher=None,
                    day_of_week=p.day_of_week,
                    start_time=p.start,
                    end_time=p.end,
                    room=rooms_of[i].code if i in rooms_of else room,
                    room_record_id=rooms_of[i].id if i in rooms_of else room_record_id,
                    week_number=p.week_number,
                    actual_date=p.date,
                    term=p.term,
                    actual_hours=p.hours,
                    status=TimetableSession.Status.CANCELLED if p.cancelled else TimetableSession.Status.SCHEDULED,
                    notes=p.notes,
                )
                for i, p in enumerate(plan.sessions)
            ],
            batch_size=500,
        )
        teaching = plan.teaching
        existing_last = max((d for d, items in group_busy.items() if any(not c for _s, _e, c in items)), default=None)
        if existing_last is None:
            existing_last = (
                TimetableSession.objects.for_org(org)
                .filter(block_group=group)
                .exclude(status=TimetableSession.Status.CANCELLED)
                .aggregate(m=Max("actual_date"))["m"]
            )
        last = max([d for d in [existing_last, max((p.date for p in teaching), default=None)] if d is not None], default=None)
        if last is not None:
            group.end_date = cf.add_months(last, 1)
            group.save(update_fields=["end_date", "updated_at"])
    warnings = []
    if not needs:
        warnings.append("All units of the assigned study plans are already fully timetabled; nothing was added.")
    elif sum(1 for items in group_busy.values() for _s, _e, c in items if not c):
        warnings.append("The block group already had sessions; only the remaining hours were scheduled.")
    if plan.slots_skipped:
        where = f"the block group or room {room}" if room else "the block group"
        warnings.append(f"{plan.slots_skipped} slot(s) were skipped because {where} was already booked.")
    if choosing and not candidates:
        warnings.append(
            f"No active {room_type_choice.replace('_', ' ')} room of the group's campus seats {group.cohort_size}: "
            "the sessions have no room."
        )
    elif choosing and unroomed:
        warnings.append(
            f"{unroomed} session(s) have no room: every {room_type_choice.replace('_', ' ')} room was booked at their time."
        )
    return {
        "sessions_created": len(teaching),
        "hours_scheduled": float(sum((p.hours for p in teaching), Decimal("0"))),
        "start_date": start,
        "end_date": group.end_date,
        "last_teaching_date": last,
        "units_scheduled": len({p.unit_id for p in teaching}),
        "holidays_skipped": plan.holidays_skipped,
        "warnings": warnings,
    }


def clear_schedule(*, ctx: Ctx, block_group_id: uuid.UUID | str) -> int:
    """Delete the group's sessions that are not completed (DELETE /api/block-groups/{id}/schedule).

    Only planned or active groups (else BadRequest with the documented message). Returns the count.
    One ``schedule_cleared`` event with ids=[block group id].
    """
    group = get_in_org(BlockGroup, ctx.org, block_group_id, "Block group")
    if group.status not in SCHEDULABLE:
        raise BadRequest(NOT_SCHEDULABLE.format(status=group.status))
    with transaction.atomic():
        emit_change(ctx, entity=ENTITY, action="schedule_cleared", ids=[group.id])
        count, _ = (
            TimetableSession.objects.for_org(ctx.org)
            .filter(block_group=group)
            .exclude(status=TimetableSession.Status.COMPLETED)
            .delete()
        )
    return count


# ----------------------------------------------------------------------------------------- import


def import_sessions(*, ctx: Ctx, upload) -> dict:
    """Import sessions from an .xlsx/.xls upload (POST /api/timetables/import), all or nothing.

    Every row is validated first (importer.read_rows raises ValidationFailed with row-level errors);
    missing block groups and units are created by code. Returns stats {sessions_created,
    block_groups_created: [codes], units_created: [codes]}. One ``imported`` event with the session ids.
    """
    from project.timetabling import importer

    rows = importer.read_upload(upload)
    org = ctx.org
    parsed = importer.validate_rows(org, rows)
    with transaction.atomic():
        groups = {g.code.casefold(): g for g in BlockGroup.objects.for_org(org).filter(code__in={r.group_code for r in parsed})}
        units = {u.code.casefold(): u for u in Unit.objects.for_org(org).filter(code__in={r.unit_code for r in parsed})}
        # Codes are matched case-insensitively; fall back to a wider read for differently-cased codes.
        if len(groups) < len({r.group_code.casefold() for r in parsed}):
            groups = {g.code.casefold(): g for g in BlockGroup.objects.for_org(org)}
        if len(units) < len({r.unit_code.casefold() for r in parsed}):
            units = {u.code.casefold(): u for u in Unit.objects.for_org(org)}
        new_groups, new_units = [], []
        for r in parsed:
            key = r.group_code.casefold()
            if key not in groups:
                mine = [x for x in parsed if x.group_code.casefold() == key]
                g = BlockGroup(
                    organization=org,
                    code=r.group_code,
                    name=next((x.group_name for x in mine if x.group_name), r.group_code),
                    cohort_size=1,
                    start_date=min(x.date for x in mine),
                    preferred_days=", ".join(
                        sorted({x.date.strftime("%A") for x in mine}, key=lambda n: importer.DAY_NAMES.index(n))
                    ),
                )
                groups[key] = g
                new_groups.append(g)
            ukey = r.unit_code.casefold()
            if ukey not in units:
                mine = [x for x in parsed if x.unit_code.casefold() == ukey]
                total = sum((x.hours for x in mine), Decimal("0"))
                u = Unit(
                    organization=org,
                    code=r.unit_code,
                    name=next((x.unit_name for x in mine if x.unit_name), r.unit_code),
                    nominal_hours=max(1, int(total.to_integral_value(rounding="ROUND_CEILING"))),
                )
                units[ukey] = u
                new_units.append(u)
        terms = TermCalendar.for_org(org)
        rooms = {key: (code, pk) for key, code, pk in Room.objects.for_org(org).values_list("key", "code", "pk")}
        sessions = []
        for r in parsed:
            g = groups[r.group_code.casefold()]
            week = r.week_number or max(1, sch.week_number(r.date, g.start_date))
            room_text, room_record_id = rooms.get(room_key(r.room), (r.room, None)) if r.room else ("", None)
            sessions.append(
                TimetableSession(
                    id=uuid.uuid4(),
                    organization=org,
                    block_group=g,
                    unit=units[r.unit_code.casefold()],
                    teacher_id=r.teacher_id,
                    day_of_week=r.date.isoweekday(),
                    start_time=r.start,
                    end_time=r.end,
                    room=room_text,
                    room_record_id=room_record_id,
                    week_number=week,
                    actual_date=r.date,
                    term=terms.term_of(r.date),
                    actual_hours=r.hours,
                    status=r.status,
                    notes=r.notes,
                )
            )
        emit_change(ctx, entity=ENTITY, action="imported", ids=[s.id for s in sessions])
        BlockGroup.objects.for_org(org).bulk_create(new_groups)
        Unit.objects.for_org(org).bulk_create(new_units)
        TimetableSession.objects.for_org(org).bulk_create(sessions, batch_size=500)
    return {
        "sessions_created": len(sessions),
        "block_groups_created": [g.code for g in new_groups],
        "units_created": [u.code for u in new_units],
    }


# ---------------------------------------------------------------------------------- calendar feeds


def feed_create(
    *,
    ctx: Ctx,
    teacher_id: uuid.UUID | str | None = None,
    block_group_id: uuid.UUID | str | None = None,
    room_id: uuid.UUID | str | None = None,
) -> CalendarFeed:
    """A secret subscription URL for a teacher's, a block group's or a room's sessions (issue 19), owned
    by the acting user.

    Raises ValidationFailed unless exactly one target is given, NotFound for another organization's id.
    Feeds are private to their owner, so no change event is sent (no entity of decisions.md §7 shows them).
    """
    if sum(x is not None for x in (teacher_id, block_group_id, room_id)) != 1:
        raise ValidationFailed.field("teacherId", "Choose either a teacher or a block group")
    teacher = get_in_org(Teacher, ctx.org, teacher_id, "Teacher") if teacher_id is not None else None
    group = get_in_org(BlockGroup, ctx.org, block_group_id, "Block group") if block_group_id is not None else None
    room = get_in_org(Room, ctx.org, room_id, "Room") if room_id is not None else None
    return CalendarFeed.objects.create(
        organization=ctx.org, user=ctx.user, teacher=teacher, block_group=group, room=room, token=secrets.token_urlsafe(32)
    )


def feed_revoke(*, ctx: Ctx, feed_id: uuid.UUID | str) -> None:
    """Revoke one of the user's feeds (admins: any of the organization's); the URL then answers 404."""
    qs = CalendarFeed.objects.for_org(ctx.org).filter(revoked_at__isnull=True)
    if not ctx.is_admin:
        qs = qs.filter(user=ctx.user)
    feed = get_in_org(qs, ctx.org, feed_id, "Calendar feed")
    CalendarFeed.objects.for_org(ctx.org).filter(pk=feed.pk).update(revoked_at=timezone.now(), updated_at=timezone.now())


def feed_touch(feed: CalendarFeed) -> None:
    """Record when a calendar client last fetched the feed."""
    CalendarFeed.objects.for_org(feed.organization_id).filter(pk=feed.pk).update(last_accessed_at=timezone.now())
