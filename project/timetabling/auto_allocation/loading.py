"""Loading an auto-allocation problem from the database: the sessions of a scope, teacher facts, eligibility, and the version that makes an apply refuse stale proposals."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from datetime import date, timedelta
from typing import TYPE_CHECKING

from django.db.models import Count, Max, Min

from project.core.tenancy import Ctx, get_in_org
from project.staff.models import Teacher, TeacherAvailability, TeacherUnit
from project.timetabling import conflicts as cf
from project.timetabling.auto_allocation.model import (
    Problem,
    Scope,
)
from project.timetabling.calendar import week_start
from project.timetabling.models import TimetableSession

if TYPE_CHECKING:  # pragma: no cover
    from project.core.models import TenantQuerySet

# ------------------------------------------------------------------------------------------ loading


def _target_queryset(ctx: Ctx, scope: Scope) -> TenantQuerySet[TimetableSession]:
    qs = TimetableSession.objects.for_org(ctx.org).filter(teacher__isnull=True).exclude(status=TimetableSession.Status.CANCELLED)
    if scope.session_ids:
        qs = qs.filter(id__in=scope.session_ids)
    if scope.block_group_id is not None:
        from project.planning.models import BlockGroup

        # A foreign or unknown block group is a 404 like every other id (ADR 0005), not an empty scope.
        get_in_org(BlockGroup, ctx.org, scope.block_group_id, "Block group")
        qs = qs.filter(block_group_id=scope.block_group_id)
    if scope.start and scope.end:
        qs = qs.filter(actual_date__gte=scope.start, actual_date__lte=scope.end)
    return qs


def _version(ctx: Ctx, lo: date, hi: date, target_ids: list) -> str:
    """Digest of what a proposal depends on (4 queries)."""
    sessions = (
        TimetableSession.objects.for_org(ctx.org)
        .filter(actual_date__gte=lo, actual_date__lte=hi)
        .aggregate(n=Count("id"), last=Max("updated_at"), assigned=Count("teacher_id"))
    )
    teachers = Teacher.objects.for_org(ctx.org).aggregate(n=Count("id"), last=Max("updated_at"))
    quals = TeacherUnit.objects.for_org(ctx.org).aggregate(n=Count("id"), last=Max("updated_at"))
    # A painted pattern, limits or campuses changed since the proposal make it stale too (ADR 0027).
    patterns = TeacherAvailability.objects.for_org(ctx.org).aggregate(n=Count("id"), last=Max("updated_at"))
    text = "|".join(
        [
            lo.isoformat(),
            hi.isoformat(),
            ",".join(sorted(str(i) for i in target_ids)),
            str(sessions),
            str(teachers),
            str(quals),
            str(patterns),
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def load_problem(ctx: Ctx, scope: Scope) -> Problem:
    """Targets, the other sessions of their weeks, teachers and qualifications (about 6 queries).

    The scope's ids were resolved in ``ctx.org`` at the edge (``OrgRefs``/``OrgRef`` of the request body,
    ADR 0001: another organization's id is a 404 before this runs); the targets are read with
    ``for_org`` whatever the caller."""
    scope.validate()
    target_ids = list(_target_queryset(ctx, scope).values_list("id", flat=True)[:20000])
    return _problem_of(ctx, target_ids)


def reallocation_problem(ctx: Ctx, session_ids: list, extra_leave: dict | None = None) -> Problem:
    """The problem of giving other teachers to sessions that have one (re-planning around a teacher's
    leave, ADR 0014): the sessions become targets without their teacher; the rest is as in
    :func:`load_problem` (the teacher on leave is not eligible where the leave covers a session).
    ``extra_leave`` ``{teacher id: [LeaveSpan]}``: leave not saved yet (a proposed change)."""
    return _problem_of(ctx, list(session_ids), clear_teachers=True, extra_leave=extra_leave)


def _problem_of(ctx: Ctx, target_ids: list, clear_teachers: bool = False, extra_leave: dict | None = None) -> Problem:
    if not target_ids:
        return Problem([], [], cf.ConflictData(), date.today(), date.today())
    dates = (
        TimetableSession.objects.for_org(ctx.org)
        .filter(id__in=target_ids)
        .aggregate(lo=Min("actual_date"), hi=Max("actual_date"))
    )
    lo, hi = week_start(dates["lo"]), week_start(dates["hi"]) + timedelta(days=6)
    slots = cf.load_slots(ctx.org, lo, hi)
    ids = set(target_ids)
    targets = [s for s in slots if s.id in ids]
    if clear_teachers:
        for s in targets:
            s.teacher_id = None
    others = [s for s in slots if s.id not in ids]
    data = cf.load_data(ctx.org, lo, hi, None)
    for teacher_id, spans in (extra_leave or {}).items():
        data.leave.setdefault(teacher_id, []).extend(spans)
    problem = Problem(targets=targets, others=others, data=data, lo=lo, hi=hi)
    _existing_keys(ctx, problem)
    _eligibility(problem)
    return problem


def _existing_keys(ctx: Ctx, problem: Problem) -> None:
    """Which teachers already teach each (block group, unit) of the targets, at any date (1 query)."""
    groups = {s.block_group_id for s in problem.targets}
    units = {s.unit_id for s in problem.targets}
    rows = (
        TimetableSession.objects.for_org(ctx.org)
        .filter(block_group_id__in=groups, unit_id__in=units, teacher__isnull=False)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .values_list("block_group_id", "unit_id", "teacher_id")
        .distinct()
    )
    problem.existing_keys = set(rows)


def _available(t: cf.TeacherFacts, s: cf.Slot) -> bool:
    """The teacher may teach at the slot's time: inside a painted pattern (ADR 0027), else the word's
    rule (a day-only teacher no evening session, an evening-only one no day session)."""
    if t.avail is not None and t.avail.custom:
        return t.avail.available(s.date, s.start, s.end)
    evening = cf.is_evening(s.start, s.end)
    return not ((t.availability == "day" and evening) or (t.availability == "evening" and not evening))


def _at_campus(t: cf.TeacherFacts, s: cf.Slot, data: cf.ConflictData) -> bool:
    """The teacher teaches at the slot's block group's campus (every campus when none are listed)."""
    if t.avail is None or not t.avail.campus_ids:
        return True
    group = data.groups.get(s.block_group_id)
    return group is None or t.avail.teaches_at(group[1])


def _preference(t: cf.TeacherFacts, s: cf.Slot, data: cf.ConflictData) -> tuple[int, str]:
    """``(weight, reason)`` of the teacher's preferences for the slot (ADR 0027; 0 and "" for none)."""
    if t.avail is None:
        return 0, ""
    group = data.groups.get(s.block_group_id)
    return t.avail.preference(s.date, s.start, s.end, group[1] if group is not None else None)


def _within_limits(problem: Problem, t: cf.TeacherFacts, s: cf.Slot) -> bool:
    """The slot alone fits the teacher's daily hours and days left with their other sessions."""
    day_cap, days_cap = problem.day_cap(t.id), problem.days_cap(t.id)
    if day_cap is not None and problem.existing_day_hours.get((t.id, s.date), 0.0) + s.hours > day_cap + 1e-9:
        return False
    if days_cap is not None:
        days = problem.existing_days.get((t.id, week_start(s.date)), set())
        if s.date not in days and len(days) + 1 > days_cap:
            return False
    return True


def can_teach(t: cf.TeacherFacts, s: cf.Slot, data: cf.ConflictData) -> bool:
    """The teacher's availability allows the slot: its time (the painted pattern, else the form's word)
    and its block group's campus (ADR 0027). For re-planning's leave cover and any other caller choosing
    teachers; ``data`` as :func:`project.timetabling.conflicts.load_data` reads it."""
    return _available(t, s) and _at_campus(t, s, data)


def _in_contract(t: cf.TeacherFacts, day: date) -> bool:
    return not (t.employment_type == "fixed_term" and t.expiry_date is not None and day > t.expiry_date)


def _eligibility(problem: Problem) -> None:
    """Per target: the teachers who meet every per-session hard rule, or the reason nobody does."""
    data = problem.data
    busy: dict = defaultdict(list)  # (teacher, date) -> existing slots
    for s in problem.others:
        if s.teacher_id is None or s.status == cf.CANCELLED:
            continue
        busy[(s.teacher_id, s.date)].append(s)
        key = (s.teacher_id, week_start(s.date))
        problem.existing_week_hours[key] = problem.existing_week_hours.get(key, 0.0) + s.hours
        day = (s.teacher_id, s.date)
        problem.existing_day_hours[day] = problem.existing_day_hours.get(day, 0.0) + s.hours
        problem.existing_days.setdefault(key, set()).add(s.date)
    by_unit: dict = defaultdict(list)
    for teacher_id, unit_id in data.qualified:
        by_unit[unit_id].append(teacher_id)
    for s in problem.targets:
        qualified = [data.teachers[t] for t in by_unit.get(s.unit_id, []) if t in data.teachers]
        stage = [t for t in qualified if t.is_active and _in_contract(t, s.date)]
        present = [t for t in stage if data.leave_of(t.id, s) is None]
        available = [t for t in present if _available(t, s) and _at_campus(t, s, data)]
        free = [
            t
            for t in available
            if not any(
                cf.overlaps(o.start, o.end, s.start, s.end)
                and not cf.co_delivered(o.block_group_id, s.block_group_id, data.link_of)
                for o in busy.get((t.id, s.date), [])
            )
        ]
        roomy = [
            t
            for t in free
            if problem.existing_week_hours.get((t.id, week_start(s.date)), 0.0) + s.hours <= problem.week_cap(t.id) + 1e-9
            and _within_limits(problem, t, s)
        ]
        problem.eligible[s.id] = sorted((t.id for t in roomy), key=str)
        for t in roomy:
            weight, why = _preference(t, s, data)
            if weight:
                problem.preference[(s.id, t.id)] = (weight, why)
        if not qualified:
            problem.reasons[s.id] = f"No teacher holds a qualification for unit {s.unit_code}"
        elif not stage:
            problem.reasons[s.id] = f"Every teacher qualified for {s.unit_code} is inactive or past their contract end"
        elif not present:
            problem.reasons[s.id] = f"Every teacher qualified for {s.unit_code} is on leave on {s.date.isoformat()}"
        elif not available:
            kind = "evening" if cf.is_evening(s.start, s.end) else "day"
            problem.reasons[s.id] = (
                f"No teacher qualified for {s.unit_code} is available for {kind} sessions at this time and campus"
            )
        elif not free:
            problem.reasons[s.id] = f"Every teacher qualified for {s.unit_code} is already teaching at this time"
        elif not roomy:
            problem.reasons[s.id] = (
                f"Every teacher qualified for {s.unit_code} would exceed their maximum weekly hours, daily hours or days"
            )
