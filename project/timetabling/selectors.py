"""Reads of timetable sessions (delivery.md §7 Timetables, decisions.md §4).

Every function takes the organization first and reads only its rows.
"""

from __future__ import annotations

from datetime import date, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from project.core.tenancy import get_in_org
from project.timetabling import conflicts as cf
from project.timetabling.models import TimetableSession

DEFAULT_TZ = "Australia/Melbourne"


def user_today(user=None, org=None) -> date:
    """Today in the user's timezone setting, else the organization's, else Australia/Melbourne (§5)."""
    name = None
    settings = getattr(user, "settings", None)
    if isinstance(settings, dict):
        name = settings.get("timezone")
    name = name or getattr(org, "timezone", None) or DEFAULT_TZ
    try:
        tz = ZoneInfo(name)
    except Exception:
        tz = ZoneInfo(DEFAULT_TZ)
    return timezone.now().astimezone(tz).date()


def session_queryset(org):
    return TimetableSession.objects.for_org(org).select_related("unit", "block_group", "teacher")


def session_list(*, org, block_group_id=None, teacher_id=None, hide_past: bool = False, today: date | None = None) -> list[TimetableSession]:
    """Sessions of ``org`` by date and start time, filtered; ``hide_past`` keeps actualDate >= today."""
    qs = session_queryset(org)
    if block_group_id is not None:
        qs = qs.filter(block_group_id=block_group_id)
    if teacher_id is not None:
        qs = qs.filter(teacher_id=teacher_id)
    if hide_past:
        qs = qs.filter(actual_date__gte=today or date.today())
    return list(qs.order_by("actual_date", "start_time", "block_group__code"))


def session_get(*, org, session_id) -> TimetableSession:
    """One session of ``org`` (404 "Timetable session not found")."""
    return get_in_org(session_queryset(org), org, session_id, "Timetable session")


def _hms(t) -> str:
    return t.strftime("%H:%M:%S")


def session_dict(s: TimetableSession, conflict_types: list[str] | None = None) -> dict:
    """The session JSON (snake_case keys; the router answers camelCase)."""
    teacher = s.teacher
    return {
        "id": s.id,
        "block_group_id": s.block_group_id,
        "unit_id": s.unit_id,
        "teacher_id": s.teacher_id,
        "day_of_week": s.day_of_week,
        "start_time": _hms(s.start_time),
        "end_time": _hms(s.end_time),
        "room": s.room,
        "week_number": s.week_number,
        "actual_date": s.actual_date,
        "term": s.term,
        "actual_hours": float(s.actual_hours),
        "status": s.status,
        "notes": s.notes,
        "created_at": s.created_at,
        "updated_at": s.updated_at,
        "unit": {"id": s.unit.id, "code": s.unit.code, "name": s.unit.name},
        "block_group": {"id": s.block_group.id, "code": s.block_group.code, "name": s.block_group.name},
        "teacher": None if teacher is None else {
            "id": teacher.id, "first_name": teacher.first_name, "last_name": teacher.last_name, "name": teacher.full_name,
        },
        "conflicts": conflict_types or [],
    }


def session_rows(*, org, sessions: list[TimetableSession]) -> list[dict]:
    """Session JSON rows with their conflict types, computed at read time (6 queries whatever the count)."""
    types = cf.types_by_session(org, [cf.Slot.of(s) for s in sessions])
    return [session_dict(s, types.get(s.id)) for s in sessions]


def conflict_list(*, org, start: date | None, end: date | None, block_group_id=None, teacher_id=None, today=None) -> list[dict]:
    """``[{type, severity, sessionIds, message, date}]`` for sessions dated in [start, end].

    start defaults to today (Australia/Melbourne unless the user says otherwise), end to start + 365 days.
    """
    start = start or today or date.today()
    end = end or (start + timedelta(days=365))
    if end < start:
        start, end = end, start
    return [c.to_dict() for c in cf.scan(org, start, end, block_group_id=block_group_id, teacher_id=teacher_id)]


def sessions_for_calendar(*, org, teacher_id=None, block_group_id=None) -> list[TimetableSession]:
    """Every session of a teacher or a block group for an iCalendar feed, by date."""
    qs = session_queryset(org)
    if teacher_id is not None:
        qs = qs.filter(teacher_id=teacher_id)
    if block_group_id is not None:
        qs = qs.filter(block_group_id=block_group_id)
    return list(qs.order_by("actual_date", "start_time"))

