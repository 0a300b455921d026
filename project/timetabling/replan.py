"""Re-planning around late changes (issue 17): what a change hits.

A *change* is a closure (days nobody teaches: a holiday or term break, saved or proposed, optionally of
one campus: a campus closure day) or a teacher's leave (saved or proposed, whole days or part days).
:func:`change_of` resolves the request into a :class:`Change`; :func:`impact` answers which sessions it
hits, by block group and by teacher, with hours (``GET /api/replan/impact``).

A session is hit when it is not cancelled and
- closure: its date is one of the closed days (of the campus of its block group, when a campus is given);
- leave: its teacher is the teacher on leave, its date in the leave, and for part-day leave its hours
  overlap the leave's (``conflicts.LeaveSpan.covers``).

Reads only: 3-4 queries whatever the number of sessions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, time

from django.db.models import Max, Min, Q

from project.core.errors import ValidationFailed
from project.core.tenancy import get_in_org
from project.timetabling import conflicts as cf
from project.timetabling.calendar import holiday_spans
from project.timetabling.models import Holiday, TimetableSession

CLOSURE = "closure"
LEAVE = "leave"
MAX_RANGE_DAYS = 400


@dataclass
class Change:
    """What is changing: closed ``spans`` (inclusive date pairs) or one teacher's leave."""

    kind: str
    description: str
    spans: list[tuple[date, date]] = field(default_factory=list)
    campus_id: object | None = None
    teacher_id: object | None = None
    leave: cf.LeaveSpan | None = None

    @property
    def start(self) -> date:
        return min(s for s, _ in self.spans)

    @property
    def end(self) -> date:
        return max(e for _, e in self.spans)


def _range(start: date | None, end: date | None) -> tuple[date, date]:
    if start is None:
        raise ValidationFailed.field("start", "Start date is required")
    if end is None:
        raise ValidationFailed.field("end", "End date is required")
    if end < start:
        raise ValidationFailed.field("end", "End date must be on or after start date")
    if (end - start).days > MAX_RANGE_DAYS:
        raise ValidationFailed.field("end", f"The range can be at most {MAX_RANGE_DAYS} days")
    return start, end


def change_of(
    org, *, holiday_id=None, leave_id=None, teacher_id=None, campus_id=None, start: date | None = None,
    end: date | None = None, start_time: time | None = None, end_time: time | None = None,
) -> Change:
    """The change a request names, in this order: a saved holiday (``holiday_id``), saved leave
    (``leave_id``), proposed leave (``teacher_id`` with ``start``/``end`` and optional times), or a
    proposed closure (``start``/``end``, optional ``campus_id``). Raises NotFound for ids of another
    organization and ValidationFailed (400) for a missing or bad range."""
    from project.catalogue.models import Campus
    from project.staff.models import Teacher, TeacherLeave

    if holiday_id is not None:
        holiday = get_in_org(Holiday.objects.for_org(org), org, holiday_id, label="Holiday")
        if holiday.is_recurring:  # every year it falls in while the organization has sessions
            bounds = TimetableSession.objects.for_org(org).aggregate(lo=Min("actual_date"), hi=Max("actual_date"))
            lo, hi = bounds["lo"] or holiday.start_date, bounds["hi"] or holiday.end_date
            spans = [(s.start, s.end) for s in holiday_spans([holiday], lo, hi)] or [(holiday.start_date, holiday.end_date)]
        else:
            spans = [(holiday.start_date, holiday.end_date)]
        kind_label = "Term break" if holiday.type == Holiday.Type.TERM_BREAK else "Holiday"
        return Change(CLOSURE, f"{kind_label} {holiday.name}", spans=spans)
    if leave_id is not None:
        leave = get_in_org(TeacherLeave.objects.for_org(org).select_related("teacher"), org, leave_id, label="Leave")
        span = cf.LeaveSpan(leave.start_date, leave.end_date, leave.start_time, leave.end_time, leave.reason)
        return Change(LEAVE, f"{leave.teacher.full_name}'s leave", spans=[(leave.start_date, leave.end_date)],
                      teacher_id=leave.teacher_id, leave=span)
    start, end = _range(start, end)
    if teacher_id is not None:
        teacher = get_in_org(Teacher.objects.for_org(org), org, teacher_id, label="Teacher")
        if (start_time is None) != (end_time is None):
            raise ValidationFailed.field("endTime" if end_time is None else "startTime",
                                         "Give both times for part-day leave, or neither")
        if start_time is not None and end_time <= start_time:
            raise ValidationFailed.field("endTime", "End time must be after start time")
        span = cf.LeaveSpan(start, end, start_time, end_time, "")
        return Change(LEAVE, f"{teacher.full_name}'s leave", spans=[(start, end)], teacher_id=teacher.pk, leave=span)
    campus = get_in_org(Campus.objects.for_org(org), org, campus_id, label="Campus") if campus_id is not None else None
    description = f"Closure of {campus.name}" if campus is not None else "Closure"
    return Change(CLOSURE, description, spans=[(start, end)], campus_id=campus.pk if campus is not None else None)


def hit_sessions(org, change: Change) -> list[dict]:
    """The sessions ``change`` hits (see the module), by date and start time: ``[{id, blockGroupId,
    blockGroupCode, blockGroupName, teacherId, teacherName, actualDate, startTime, endTime, actualHours}]``
    (1 query)."""
    q = Q()
    for lo, hi in change.spans:
        q |= Q(actual_date__gte=lo, actual_date__lte=hi)
    qs = TimetableSession.objects.for_org(org).filter(q).exclude(status=TimetableSession.Status.CANCELLED)
    if change.kind == LEAVE:
        qs = qs.filter(teacher_id=change.teacher_id)
    elif change.campus_id is not None:
        qs = qs.filter(block_group__campus_id=change.campus_id)
    rows = qs.order_by("actual_date", "start_time", "block_group__code").values_list(
        "id", "block_group_id", "block_group__code", "block_group__name", "teacher_id", "teacher__first_name",
        "teacher__last_name", "actual_date", "start_time", "end_time", "actual_hours",
    )
    out = []
    for sid, gid, code, name, tid, first, last, day, begin, finish, hours in rows:
        if change.leave is not None and not change.leave.covers(day, begin, finish):
            continue
        out.append({
            "id": sid, "blockGroupId": gid, "blockGroupCode": code, "blockGroupName": name, "teacherId": tid,
            "teacherName": f"{first} {last}".strip() if tid is not None else "Unassigned", "actualDate": day,
            "startTime": begin, "endTime": finish, "actualHours": float(hours or 0),
        })
    return out


def impact(org, change: Change) -> dict:
    """``{kind, description, start, end, sessionCount, hours, blockGroupCount, teacherCount,
    byBlockGroup: [{blockGroupId, code, name, sessionCount, hours, sessionIds}], byTeacher: [{teacherId
    (null: unassigned), name, sessionCount, hours}], sessions: [...hit_sessions]}``; hours are
    ``actualHours`` summed; groups by code, teachers by name."""
    sessions = hit_sessions(org, change)
    groups: dict = {}
    teachers: dict = {}
    for s in sessions:
        g = groups.setdefault(s["blockGroupId"], {
            "blockGroupId": s["blockGroupId"], "code": s["blockGroupCode"], "name": s["blockGroupName"],
            "sessionCount": 0, "hours": 0.0, "sessionIds": [],
        })
        g["sessionCount"] += 1
        g["hours"] += s["actualHours"]
        g["sessionIds"].append(s["id"])
        t = teachers.setdefault(s["teacherId"], {
            "teacherId": s["teacherId"], "name": s["teacherName"], "sessionCount": 0, "hours": 0.0,
        })
        t["sessionCount"] += 1
        t["hours"] += s["actualHours"]
    return {
        "kind": change.kind,
        "description": change.description,
        "start": change.start,
        "end": change.end,
        "sessionCount": len(sessions),
        "hours": round(sum(s["actualHours"] for s in sessions), 2),
        "blockGroupCount": len(groups),
        "teacherCount": sum(1 for k in teachers if k is not None),
        "byBlockGroup": sorted(({**g, "hours": round(g["hours"], 2)} for g in groups.values()), key=lambda g: g["code"]),
        "byTeacher": sorted(
            ({**t, "hours": round(t["hours"], 2)} for t in teachers.values()),
            key=lambda t: (t["teacherId"] is None, t["name"]),
        ),
        "sessions": sessions,
    }
