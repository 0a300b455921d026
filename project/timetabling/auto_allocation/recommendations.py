"""Ranked teacher recommendations for one session."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from uuid import UUID

from django.db.models import Q

from project.core.tenancy import Ctx, get_in_org
from project.timetabling import conflicts as cf
from project.timetabling.auto_allocation.loading import (
    _available,
    _in_contract,
)
from project.timetabling.calendar import week_start
from project.timetabling.models import TimetableSession

# ---------------------------------------------------------------------------------- recommendations


def recommend(ctx: Ctx, session_id: UUID | str) -> dict:
    """Every teacher of the organization ranked for one session (about 6 queries).

    Answer: ``{"sessionId", "recommendations": [{"teacherId", "teacherName", "rank", "eligible",
    "rules": [{"rule", "met", "message"}], "weekHours", "maxWeeklyHours", "utilisationAfter",
    "continuity"}]}``. Rules: qualified, active, contract, not_on_leave, available, no_clash, capacity
    (all hard for allocation); ``continuity`` says the teacher already teaches this unit to this block group.
    Ranking: teachers meeting every rule first, then by rules met, continuity, and the lowest
    utilisation the session would bring.
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
    for s in week:
        if s.id == session.id or s.status == cf.CANCELLED:
            continue
        hours[s.teacher_id] += s.hours
        if s.date == target.date:
            same_day[s.teacher_id].append(s)
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
            {
                "rule": "available",
                "met": _available(t, target),
                "message": f"Available for {'evening' if evening else 'day'} sessions"
                if _available(t, target)
                else f"Available for {t.availability} sessions only",
            },
            {
                "rule": "no_clash",
                "met": clash is None,
                "message": "Free at this time"
                if clash is None
                else f"Already teaching {clash.group_code} {clash.start.strftime('%H:%M')}-{clash.end.strftime('%H:%M')}",
            },
            {
                "rule": "capacity",
                "met": after <= t.max_weekly_hours + 1e-9,
                "message": f"{after:g} of {t.max_weekly_hours} hours this week",
            },
        ]
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
                "_met": met,
            }
        )
    rows.sort(key=lambda r: (not r["eligible"], -r["_met"], not r["continuity"], r["utilisationAfter"], r["teacherName"]))
    for i, r in enumerate(rows, 1):
        r["rank"] = i
        del r["_met"]
    return {"sessionId": str(session.id), "recommendations": rows}
