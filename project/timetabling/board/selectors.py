"""Reads of the planner board (ADR 0026): the sessions of one block group, teacher, room or campus in a
date range with what the board shades, the conflict index of one session over a range, and the teachers
a session can be given.

Moves and assignments are not written here: the board sends the existing session update
(``PUT /api/timetables/{id}`` with If-Match), so 409/412, history and undo behave as everywhere else.
The conflict index follows the hard rules of the conflict engine (docs/behaviour/conflicts.md §4; :mod:`.conflicts`):
the same block group, teacher or (case-insensitive) room booked at the same time (co-delivered linked
groups share teacher and room), a holiday or term break, the teacher's leave, and the time outside the
teacher's painted availability (``teacher_outside_availability``, ADR 0027). Cancelled sessions never
conflict. Every function runs a fixed number of queries whatever the row count.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, time, timedelta
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.db.models import Q, Sum

from project.core.errors import ValidationFailed
from project.core.tenancy import get_in_org
from project.staff.models import Teacher
from project.timetabling import conflicts as cf
from project.timetabling.calendar import week_start
from project.timetabling.models import TimetableSession

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

MAX_RANGE_DAYS = 190  # a term view (up to ~26 weeks) plus margins
CANCELLED = TimetableSession.Status.CANCELLED
HOLIDAY_KIND = {"public_holiday": "Public holiday", "term_break": "Term break"}


def _hm(t: time | None) -> str | None:
    return None if t is None else t.strftime("%H:%M")


def board_check_range(start: date, end: date) -> None:
    """400 at ``to`` when ``end`` is before ``start`` or the range is longer than ``MAX_RANGE_DAYS``."""
    if end < start:
        raise ValidationFailed([{"path": ["to"], "message": "End date must be on or after start date"}])
    if (end - start).days > MAX_RANGE_DAYS:
        raise ValidationFailed([{"path": ["to"], "message": f"The board shows at most {MAX_RANGE_DAYS} days"}])


def _scope_filter(org: Organization, scope: str, scope_id: UUID) -> tuple[Q, str]:
    """The sessions of the scope and its title; 404 "<Thing> not found" for an id of another organization."""
    from project.catalogue.models import Campus, Room
    from project.planning.models import BlockGroup
    from project.staff.models import Teacher

    if scope == "blockGroup":
        group = get_in_org(BlockGroup, org, scope_id, "Block group")
        return Q(block_group_id=group.pk), f"{group.code} {group.name}"
    if scope == "teacher":
        teacher = get_in_org(Teacher, org, scope_id, "Teacher")
        return Q(teacher_id=teacher.pk), f"{teacher.first_name} {teacher.last_name}".strip()
    if scope == "room":
        room = get_in_org(Room, org, scope_id, "Room")
        return Q(room_record_id=room.pk), f"Room {room.code}"
    campus = get_in_org(Campus, org, scope_id, "Campus")
    return Q(block_group__campus_id=campus.pk), campus.name


def board_range(org: Organization, *, scope: str, scope_id: UUID, start: date, end: date) -> dict[str, Any]:
    """The board of one scope (``blockGroup``, ``teacher``, ``room`` or ``campus``) for [start, end]
    (inclusive dates, wall-clock times of the organization).

    Returns ``{"title": the scope's name, "sessions": [{id, actualDate, startTime "HH:MM", endTime, unit {id, code, name},
    blockGroup {id, code, name}, teacher {id, name} | null, room, roomId, status, actualHours, updatedAt}],
    "shading": [{kind "public_holiday" | "term_break" | "leave", name, start, end (dates), startTime,
    endTime ("HH:MM" or null: whole days), teacherId (leave)}]}``. Leave shaded is that of the board's
    teacher, or of the teachers of its sessions. 404 for a scope id of another organization; 400 for a bad
    range. 4 queries.
    """
    from project.staff.models import TeacherLeave

    board_check_range(start, end)
    q, title = _scope_filter(org, scope, scope_id)
    rows = list(
        TimetableSession.objects.for_org(org)
        .filter(q, actual_date__gte=start, actual_date__lte=end)
        .order_by("actual_date", "start_time", "block_group__code")
        .values_list(
            "id",
            "actual_date",
            "start_time",
            "end_time",
            "unit_id",
            "unit__code",
            "unit__name",
            "block_group_id",
            "block_group__code",
            "block_group__name",
            "teacher_id",
            "teacher__first_name",
            "teacher__last_name",
            "room",
            "room_record_id",
            "status",
            "actual_hours",
            "updated_at",
        )
    )
    sessions = [
        {
            "id": r[0],
            "actualDate": r[1],
            "startTime": _hm(r[2]),
            "endTime": _hm(r[3]),
            "unit": {"id": r[4], "code": r[5], "name": r[6]},
            "blockGroup": {"id": r[7], "code": r[8], "name": r[9]},
            "teacher": None if r[10] is None else {"id": r[10], "name": f"{r[11]} {r[12]}".strip()},
            "room": r[13],
            "roomId": r[14],
            "status": r[15],
            "actualHours": float(r[16] or 0),
            "updatedAt": r[17],
        }
        for r in rows
    ]
    shading: list[dict[str, Any]] = []
    holidays = cf.load_holidays(org, start, end)
    seen: set[tuple[str, date]] = set()
    for span in holidays.values():
        if (span.name, span.start) in seen:
            continue
        seen.add((span.name, span.start))
        shading.append(
            {
                "kind": span.type,
                "name": span.name,
                "start": max(span.start, start),
                "end": min(span.end, end),
                "startTime": None,
                "endTime": None,
                "teacherId": None,
            }
        )
    teacher_ids = {scope_id} if scope == "teacher" else {r[10] for r in rows if r[10] is not None}
    if teacher_ids:
        for tid, first, last, lo, hi, t0, t1, reason in (
            TeacherLeave.objects.for_org(org)
            .filter(teacher_id__in=teacher_ids, start_date__lte=end, end_date__gte=start)
            .order_by("start_date")
            .values_list(
                "teacher_id",
                "teacher__first_name",
                "teacher__last_name",
                "start_date",
                "end_date",
                "start_time",
                "end_time",
                "reason",
            )
        ):
            name = Teacher.name_of(first, last)
            shading.append(
                {
                    "kind": "leave",
                    "name": f"{name} on leave" + (f" ({reason})" if reason else ""),
                    "start": max(lo, start),
                    "end": min(hi, end),
                    "startTime": _hm(t0),
                    "endTime": _hm(t1),
                    "teacherId": tid,
                }
            )
    shading.sort(key=lambda s: (s["start"], s["kind"]))
    return {"title": title, "sessions": sessions, "shading": shading}


def _session(org: Organization, session_id: UUID) -> TimetableSession:
    return get_in_org(
        TimetableSession.objects.for_org(org).select_related("unit", "block_group"), org, session_id, "Timetable session"
    )


def board_conflict_index(
    org: Organization, *, session_id: UUID, start: date, end: date, teacher_id: UUID | None = None, unassigned: bool = False
) -> dict[str, Any]:
    """Where in [start, end] the session ``session_id`` would have a hard conflict (docs/behaviour/conflicts.md §4),
    for the board to shade while the session is dragged.

    ``teacher_id``: the teacher it would have (a drop onto a teacher), else its own; ``unassigned``: no
    teacher. Returns ``{"sessionId", "teacherId", "qualified": bool (the teacher holds the unit; true
    without a teacher), "blocked": [{date, startTime, endTime ("HH:MM", null for the whole day), type
    (a hard conflict type), reason (words)}]}``: a drop whose date and times overlap a blocked entry is
    refused by the server (the server's answer on drop stays final). A cancelled session is never
    blocked. With a teacher whose availability is painted (ADR 0027), each time of a day in 07:00-22:00
    outside their windows (or in a prohibited preference) is blocked as ``teacher_outside_availability``
    (from :func:`project.staff.availability.selectors.availability_unavailable_times`, the times the board shades). 404
    for ids of another organization; 400 for a bad range. 7 queries.
    """
    from project.staff.availability.selectors import availability_unavailable_times
    from project.staff.models import Teacher, TeacherLeave, TeacherUnit

    board_check_range(start, end)
    s = _session(org, session_id)
    if unassigned:
        tid: UUID | None = None
    elif teacher_id is not None:
        tid = get_in_org(Teacher, org, teacher_id, "Teacher").pk
    else:
        tid = s.teacher_id
    out: dict[str, Any] = {"sessionId": s.pk, "teacherId": tid, "qualified": True, "blocked": []}
    if s.status == CANCELLED:
        return out
    if tid is not None:
        out["qualified"] = TeacherUnit.objects.for_org(org).filter(teacher_id=tid, unit_id=s.unit_id).exists()
    link_of: dict[object, object] = {k: v for k, v in cf.linked_groups(org).items()}
    room = cf.norm_room(s.room)
    who = Q(block_group_id=s.block_group_id)
    if tid is not None:
        who |= Q(teacher_id=tid)
    if room:
        who |= Q(room__iexact=s.room.strip())
    blocked: list[dict[str, Any]] = []
    for oid, day, t0, t1, gid, other_tid, other_room, gcode, ucode in (
        TimetableSession.objects.for_org(org)
        .filter(who, actual_date__gte=start, actual_date__lte=end)
        .exclude(status=CANCELLED)
        .exclude(pk=s.pk)
        .values_list(
            "id",
            "actual_date",
            "start_time",
            "end_time",
            "block_group_id",
            "teacher_id",
            "room",
            "block_group__code",
            "unit__code",
        )
    ):
        what = f"{gcode} {ucode} {_hm(t0)}–{_hm(t1)}"
        if gid == s.block_group_id:
            kind, reason = cf.GROUP_DOUBLE_BOOKED, f"{s.block_group.code} already has {what}"
        elif cf.co_delivered(gid, s.block_group_id, link_of):
            continue
        elif tid is not None and other_tid == tid:
            kind, reason = cf.TEACHER_DOUBLE_BOOKED, f"The teacher already teaches {what}"
        elif room and cf.norm_room(other_room) == room:
            kind, reason = cf.ROOM_DOUBLE_BOOKED, f"Room {s.room} is booked for {what}"
        else:  # pragma: no cover - the filter only reads these three
            continue
        blocked.append({"date": day, "startTime": _hm(t0), "endTime": _hm(t1), "type": kind, "reason": reason, "sessionId": oid})
    seen: set[date] = set()
    for day, span in sorted(cf.load_holidays(org, start, end).items()):
        if day not in seen:
            seen.add(day)
            label = HOLIDAY_KIND.get(span.type, "Holiday")
            blocked.append(
                {
                    "date": day,
                    "startTime": None,
                    "endTime": None,
                    "type": cf.HOLIDAY,
                    "reason": f"{label}: {span.name}",
                    "sessionId": None,
                }
            )
    if tid is not None:
        for lo, hi, t0, t1, first, last in (
            TeacherLeave.objects.for_org(org)
            .filter(teacher_id=tid, start_date__lte=end, end_date__gte=start)
            .values_list("start_date", "end_date", "start_time", "end_time", "teacher__first_name", "teacher__last_name")
        ):
            day = max(lo, start)
            while day <= min(hi, end):
                blocked.append(
                    {
                        "date": day,
                        "startTime": _hm(t0),
                        "endTime": _hm(t1),
                        "type": cf.TEACHER_ON_LEAVE,
                        "reason": f"{first} {last} is on leave".replace("  ", " "),
                        "sessionId": None,
                    }
                )
                day += timedelta(days=1)
        away = availability_unavailable_times(org=org, start=start, end=end, teacher_ids=[tid]).get(tid, [])
        for gap in away:
            blocked.append(
                {
                    "date": gap["date"],
                    "startTime": gap["start"],
                    "endTime": gap["end"],
                    "type": cf.TEACHER_OUTSIDE_AVAILABILITY,
                    "reason": "Unavailable: outside the teacher's availability",
                    "sessionId": None,
                }
            )
    blocked.sort(key=lambda b: (b["date"], b["startTime"] or ""))
    out["blocked"] = blocked
    return out


def board_teachers(org: Organization, *, session_id: UUID) -> list[dict[str, Any]]:
    """The active teachers qualified for the session's unit, for a drop onto a teacher.

    ``[{id, name, weekHours (float, their non-cancelled hours in the session's Monday-to-Sunday week),
    maxWeeklyHours, clash (null or the reason in words: another session at the session's time, or
    leave)}]``, by name. 404 for a session of another organization. 4 queries.
    """
    from project.staff.models import Teacher, TeacherLeave

    s = _session(org, session_id)
    teachers = list(
        Teacher.objects.for_org(org)
        .filter(is_active=True, teacher_units__unit_id=s.unit_id)
        .distinct()
        .order_by("last_name", "first_name")
        .values_list("id", "first_name", "last_name", "max_weekly_hours")
    )
    ids = [t[0] for t in teachers]
    monday = week_start(s.actual_date)
    hours: dict[Any, float] = defaultdict(float)
    clash: dict[Any, str] = {}
    if ids:
        for tid, total in (
            TimetableSession.objects.for_org(org)
            .filter(teacher_id__in=ids, actual_date__gte=monday, actual_date__lte=monday + timedelta(days=6))
            .exclude(status=CANCELLED)
            .exclude(pk=s.pk)
            .values("teacher_id")
            .annotate(total=Sum("actual_hours"))
            .values_list("teacher_id", "total")
        ):
            hours[tid] = float(total or 0)
        for tid, gcode, ucode, t0, t1 in (
            TimetableSession.objects.for_org(org)
            .filter(teacher_id__in=ids, actual_date=s.actual_date, start_time__lt=s.end_time, end_time__gt=s.start_time)
            .exclude(status=CANCELLED)
            .exclude(pk=s.pk)
            .exclude(block_group_id=s.block_group_id)
            .values_list("teacher_id", "block_group__code", "unit__code", "start_time", "end_time")
        ):
            clash.setdefault(tid, f"Teaches {gcode} {ucode} {_hm(t0)}–{_hm(t1)}")
        for tid, t0, t1 in (
            TeacherLeave.objects.for_org(org)
            .filter(teacher_id__in=ids, start_date__lte=s.actual_date, end_date__gte=s.actual_date)
            .values_list("teacher_id", "start_time", "end_time")
        ):
            if t0 is None or cf.overlaps(t0, t1, s.start_time, s.end_time):
                clash.setdefault(tid, "On leave")
    return [
        {
            "id": t[0],
            "name": f"{t[1]} {t[2]}".strip(),
            "weekHours": hours.get(t[0], 0.0),
            "maxWeeklyHours": t[3],
            "clash": clash.get(t[0]),
        }
        for t in teachers
    ]
