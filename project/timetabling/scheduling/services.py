"""Schedule generation and clearing for a block group (POST/DELETE /api/block-groups/{id}/schedule, docs/behaviour/generation.md §9)."""

from __future__ import annotations

import json
import uuid
from datetime import time
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db.models import Max, Sum

from project.catalogue.models import Room
from project.catalogue.services import room_resolve
from project.core.changes import org_change
from project.core.errors import BadRequest, ValidationFailed
from project.core.tenancy import Ctx, get_in_org
from project.planning.days import parse_preferred_days
from project.planning.models import BlockGroup, BlockGroupStudyPlan, LinkedBlockGroupMember, StudyPlanUnit
from project.timetabling import conflicts as cf
from project.timetabling.calendar import TermCalendar
from project.timetabling.models import TimetableSession
from project.timetabling.scheduling import plan as sch
from project.timetabling.scheduling.schemas import NO_TEMPLATE, ScheduleIn

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

NOT_SCHEDULABLE = "Cannot schedule {status} block groups. Only Planned and Active block groups can be scheduled."
NO_PLAN = "Please assign a study plan before scheduling."
NO_DAYS = "Please set the block group's preferred days (for example 'Monday, Wednesday') before scheduling."
SCHEDULABLE = {BlockGroup.Status.PLANNED, BlockGroup.Status.ACTIVE}

# --------------------------------------------------------------------------------------- schedule


def _unit_needs(org: Organization, group: BlockGroup) -> list[sch.UnitNeed]:
    """Remaining facilitated hours per unit: plans in assignment order, units in sequenceOrder (docs/behaviour/generation.md §2)."""
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


def block_group_schedule(*, ctx: Ctx, block_group_id: uuid.UUID | str, data: ScheduleIn) -> dict:
    """Generate a block group's sessions (POST /api/block-groups/{id}/schedule, docs/behaviour/generation.md).

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
    # The generation's options are the block group's (ADR 0015); omitted ones are its stored ones.
    if data.session_templates is not None:
        stored_templates = [
            {"startTime": t.start_time.isoformat(), "endTime": t.end_time.isoformat(), "duration": str(t.duration)}
            for t in data.session_templates
        ]
    elif group.session_templates:
        stored_templates = json.loads(group.session_templates)
    else:
        raise ValidationFailed.field("sessionTemplates", NO_TEMPLATE)
    templates = [
        sch.Template(time.fromisoformat(t["startTime"]), time.fromisoformat(t["endTime"]), Decimal(t["duration"]))
        for t in stored_templates
    ]
    new_week = group.start_next_unit_in_new_week if data.start_next_unit_in_new_week is None else data.start_next_unit_in_new_week
    start = data.start_date or group.start_date
    room, room_record_id = room_resolve(org, None, data.room)
    with org_change(ctx, "timetable_session", "scheduled", ids=[group.id]) as change:
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
        if room and not online:  # an online room holds any number of classes at once (ADR 0019)
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
        # The request's room type, else the group's preferred one (ADR 0019), when no room is named.
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
                new_week_per_unit=new_week,
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
        created = TimetableSession.objects.for_org(org).bulk_create(
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
        change.schedule_touched(
            (s.actual_date, s.start_time, s.end_time, s.teacher_id, s.room_record_id, s.room) for s in created
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
        group.start_next_unit_in_new_week = new_week
        group.session_templates = json.dumps(stored_templates)
        saved = ["start_next_unit_in_new_week", "session_templates", "updated_at"]
        if data.room_type:
            group.preferred_room_type = data.room_type
            saved.append("preferred_room_type")
        if last is not None:
            group.end_date = cf.add_months(last, 1)
            saved.append("end_date")
        group.save(update_fields=saved)
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


def block_group_schedule_clear(*, ctx: Ctx, block_group_id: uuid.UUID | str) -> int:
    """Delete the group's sessions that are not completed (DELETE /api/block-groups/{id}/schedule).

    Only planned or active groups (else BadRequest with the documented message). Returns the count.
    One ``schedule_cleared`` event with ids=[block group id].
    """
    group = get_in_org(BlockGroup, ctx.org, block_group_id, "Block group")
    if group.status not in SCHEDULABLE:
        raise BadRequest(NOT_SCHEDULABLE.format(status=group.status))
    with org_change(ctx, "timetable_session", "schedule_cleared", ids=[group.id]) as change:
        clearing = (
            TimetableSession.objects.for_org(ctx.org).filter(block_group=group).exclude(status=TimetableSession.Status.COMPLETED)
        )
        change.schedule_touched(
            clearing.values_list("actual_date", "start_time", "end_time", "teacher_id", "room_record_id", "room")
            .order_by()
            .distinct()
        )
        count, _ = clearing.delete()
    return count
