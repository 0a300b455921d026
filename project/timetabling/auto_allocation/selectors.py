"""Ranked teacher recommendations for one session."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from uuid import UUID

from django.db.models import Q

from project.core.tenancy import Ctx, get_in_org
from project.timetabling import conflicts as cf
from project.timetabling.auto_allocation.loading import (
    _at_campus,
    _available,
    _in_contract,
    _preference,
)
from project.timetabling.calendar import week_start
from project.timetabling.models import TimetableSession

# ---------------------------------------------------------------------------------- recommendations


def auto_allocation_recommend(ctx: Ctx, session_id: UUID | str) -> dict:
    """Every teacher of the organization ranked for one session (about 6 queries).

    Answer: ``{"sessionId", "recommendations": [{"teacherId", "teacherName", "rank", "eligible",
    "rules": [{"rule", "met", "message"}], "weekHours", "maxWeeklyHours", "utilisationAfter",
    "continuity", "preferenceWeight", "preferenceReason"}]}``. Rules: qualified, active, contract,
    not_on_leave, available (the painted pattern, else the word), campus, limits (hours a day, days a
    week), no_clash, capacity (all hard for allocation); ``continuity`` says the teacher already teaches
    this unit to this block group; ``preferenceWeight`` is the teacher's preference for the session's time
    and campus on UniTime's scale (negative is wanted) and ``preferenceReason`` says it ("avoids Friday
    afternoons", ADR 0027). Ranking: teachers meeting every rule first, then by rules met, continuity,
    preference, and the lowest utilisation the session would bring.
    """
    session = get_in_org(
        TimetableSession.objects.for_org(ctx.org).select_related("unit", "block_group"), ctx.org, session_id, "Timetable session"
    )
    monday = week_start(session.actual_date)
    sunday = monday + timedelta(days=6)
    data = cf.load_data(ctx.org, monday, sunday, None)
    week = cf.load_slots(ctx.org, monday, sunday, Q(teacher__isnull=False))
    continuing = set(
        TimetableSession.objects.for_org(ctx.org)
        .filter(block_group_id=session.block_group_id, unit_id=session.unit_id, teacher__isnull=False)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .values_list("teacher_id", flat=True)
        .distinct()
    )
    target = cf.Slot.of(session)
    hours: dict = defaultdict(float)
    same_day: dict = defaultdict(list)
    day_hours: dict = defaultdict(float)
    days_of: dict = defaultdict(set)
    for s in week:
        if s.id == session.id or s.status == cf.CANCELLED:
            continue
        hours[s.teacher_id] += s.hours
        days_of[s.teacher_id].add(s.date)
        if s.date == target.date:
            same_day[s.teacher_id].append(s)
            day_hours[s.teacher_id] += s.hours
    evening = cf.is_evening(target.start, target.end)
    rows = []
    for t in data.teachers.values():
        clash = next(
            (
                o
                for o in same_day.get(t.id, [])
                if cf.overlaps(o.start, o.end, target.start, target.end)
                and not cf.co_delivered(o.block_group_id, target.block_group_id, data.link_of)
            ),
            None,
        )
        after = hours.get(t.id, 0.0) + target.hours
        rules = [
            {
                "rule": "qualified",
                "met": (t.id, target.unit_id) in data.qualified,
                "message": f"Qualified for {session.unit.code}"
                if (t.id, target.unit_id) in data.qualified
                else f"Holds no qualification for {session.unit.code}",
            },
            {"rule": "active", "met": t.is_active, "message": "Active" if t.is_active else "Inactive"},
            {
                "rule": "contract",
                "met": _in_contract(t, target.date),
                "message": "Within contract"
                if _in_contract(t, target.date)
                else f"Contract ended on {t.expiry_date.isoformat() if t.expiry_date else ''}",
            },
            {
                "rule": "not_on_leave",
                "met": (leave := data.leave_of(t.id, target)) is None,
                "message": "Not on leave"
                if leave is None
                else (
                    f"On leave {leave.start_date.isoformat()} to {leave.end_date.isoformat()}"
                    + (f" ({leave.reason})" if leave.reason else "")
                ),
            },
            _available_rule(t, target, evening),
            {
                "rule": "campus",
                "met": _at_campus(t, target, data),
                "message": "Teaches at this campus" if _at_campus(t, target, data) else "Does not teach at this campus",
            },
            _limits_rule(t, target, day_hours.get(t.id, 0.0), days_of.get(t.id, set())),
            {
                "rule": "no_clash",
                "met": clash is None,
                "message": "Free at this time"
                if clash is None
                else f"Already teaching {clash.group_code} {clash.start.strftime('%H:%M')}-{clash.end.strftime('%H:%M')}",
            },
            {
                "rule": "capacity",
                "met": after <= _week_cap(t) + 1e-9,
                "message": f"{after:g} of {_week_cap(t):g} hours this week",
            },
        ]
        weight, why = _preference(t, target, data)
        met = sum(1 for r in rules if r["met"])
        util = round(100.0 * after / t.max_weekly_hours, 1) if t.max_weekly_hours else 0.0
        rows.append(
            {
                "teacherId": str(t.id),
                "teacherName": t.name,
                "eligible": met == len(rules),
                "rules": rules,
                "weekHours": round(hours.get(t.id, 0.0), 2),
                "maxWeeklyHours": t.max_weekly_hours,
                "utilisationAfter": util,
                "continuity": t.id in continuing,
                "preferenceWeight": weight,
                "preferenceReason": why,
                "_met": met,
            }
        )
    rows.sort(
        key=lambda r: (
            not r["eligible"],
            -r["_met"],
            not r["continuity"],
            r["preferenceWeight"],
            r["utilisationAfter"],
            r["teacherName"],
        )
    )
    for i, r in enumerate(rows, 1):
        r["rank"] = i
        del r["_met"]
    return {"sessionId": str(session.id), "recommendations": rows}


def _week_cap(t: cf.TeacherFacts) -> float:
    """``maxWeeklyHours``, or the availability's lower weekly maximum (ADR 0027)."""
    per_week = t.avail.max_hours_per_week if t.avail is not None else None
    return float(t.max_weekly_hours) if per_week is None else min(float(t.max_weekly_hours), per_week)


def _available_rule(t: cf.TeacherFacts, target: cf.Slot, evening: bool) -> dict:
    """The ``available`` rule: the painted pattern (ADR 0027), else the form's word."""
    met = _available(t, target)
    if t.avail is not None and t.avail.custom:
        when = f"{target.date.strftime('%A')} {target.start.strftime('%H:%M')}-{target.end.strftime('%H:%M')}"
        return {"rule": "available", "met": met, "message": f"Available {when}" if met else f"Not available {when}"}
    return {
        "rule": "available",
        "met": met,
        "message": f"Available for {'evening' if evening else 'day'} sessions"
        if met
        else f"Available for {t.availability} sessions only",
    }


def _limits_rule(t: cf.TeacherFacts, target: cf.Slot, day_hours: float, days: set) -> dict:
    """The ``limits`` rule: the day's hours and the week's days stay within the availability's maxima."""
    avail = t.avail
    per_day = avail.max_hours_per_day if avail is not None else None
    per_week_days = avail.max_days_per_week if avail is not None else None
    after = day_hours + target.hours
    if per_day is not None and after > per_day + 1e-9:
        return {"rule": "limits", "met": False, "message": f"{after:g} hours that day (maximum {per_day:g})"}
    count = len(days | {target.date})
    if per_week_days is not None and count > per_week_days:
        return {"rule": "limits", "met": False, "message": f"{count} teaching days that week (maximum {per_week_days})"}
    return {"rule": "limits", "met": True, "message": "Within daily hours and days"}
