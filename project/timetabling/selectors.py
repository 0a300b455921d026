"""Reads of timetable sessions (docs/behaviour/timetables.md, docs/behaviour/conflicts.md §1).

Every function takes the organization first and reads only its rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, time, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from django.db.models import QuerySet
from django.utils import timezone

from project.core.tenancy import get_in_org
from project.staff.models import Teacher
from project.timetabling import conflicts as cf
from project.timetabling.models import TimetableSession

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from project.accounts.models import Organization, User
    from project.core.models import TenantQuerySet

DEFAULT_TZ = "Australia/Melbourne"


def user_today(user: User | None = None, org: Organization | None = None) -> date:
    """Today in the user's timezone setting, else the organization's, else Australia/Melbourne (docs/behaviour/terms-and-holidays.md §6)."""
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


def session_queryset(org: Organization) -> TenantQuerySet:
    return TimetableSession.objects.for_org(org).select_related("unit", "block_group", "teacher")


# The names a session row shows with it (values_list lookups, in this order): unit code and name, block
# group code and name, teacher first and last name.
SESSION_NAME_FIELDS = (
    "unit__code",
    "unit__name",
    "block_group__code",
    "block_group__name",
    "teacher__first_name",
    "teacher__last_name",
)

_ROW_FIELDS = (
    "id",
    "block_group_id",
    "unit_id",
    "teacher_id",
    "day_of_week",
    "start_time",
    "end_time",
    "room",
    "week_number",
    "actual_date",
    "term",
    "actual_hours",
    "status",
    "notes",
    "created_at",
    "updated_at",
    *SESSION_NAME_FIELDS,
    "room_record_id",
)


def _of_owner(
    qs: TenantQuerySet,
    block_group_id: UUID | str | None,
    teacher_id: UUID | str | None,
    room_id: UUID | str | None,
) -> TenantQuerySet:
    """``qs`` kept to the sessions of a block group, a teacher and a recorded room, each when given."""
    if block_group_id is not None:
        qs = qs.filter(block_group_id=block_group_id)
    if teacher_id is not None:
        qs = qs.filter(teacher_id=teacher_id)
    if room_id is not None:
        qs = qs.filter(room_record_id=room_id)
    return qs


def session_list(
    *,
    org: Organization,
    block_group_id: UUID | str | None = None,
    teacher_id: UUID | str | None = None,
    hide_past: bool = False,
    today: date | None = None,
    ids: Iterable[UUID | str] | None = None,
    room_id: UUID | str | None = None,
) -> list[dict[str, object]]:
    """Sessions of ``org`` by date and start time, filtered, as session JSON rows with their conflict
    types (camelCase, the shape of ``SessionOut``). ``hide_past`` keeps actualDate >= today; ``ids``
    (a list of session ids) keeps just those rows (other organizations' ids are simply absent).

    Read as plain values (no model instances) in one query, plus the fixed queries of the conflict
    engine: 5,000 rows stay well under a second.
    """
    qs = _of_owner(TimetableSession.objects.for_org(org), block_group_id, teacher_id, room_id)
    if hide_past:
        qs = qs.filter(actual_date__gte=today or date.today())
    if ids is not None:
        qs = qs.filter(id__in=ids)
    rows = _fetch_rows(qs.order_by("actual_date", "start_time", "block_group__code"))
    slots = [cf.Slot(r[0], r[1], r[2], r[3], r[7] or "", r[9], r[5], r[6], float(r[11] or 0), r[12], r[18], r[16]) for r in rows]
    # A group's list holds all its sessions of each listed date (hidePast drops whole dates only).
    complete = block_group_id if block_group_id is not None and teacher_id is None and ids is None else None
    types = cf.types_by_session(org, slots, complete_group=complete)
    return [_row_json(r, types.get(r[0])) for r in rows]


_TEXT_IDS = ("id", "block_group_id", "unit_id", "teacher_id", "room_record_id")


def _fetch_rows(qs: QuerySet[TimetableSession]) -> list[tuple[Any, ...]]:  # a row of any column types
    """``qs.values_list(*_ROW_FIELDS)`` rows, read fast on PostgreSQL (ADR 0013; a 5,000-session list).

    There the ids come as their text (``str(uuid)``, what the JSON says anyway; psycopg builds a UUID in
    Python for each) and timestamps through psycopg's C loader rather than Django's Python subclass of
    it (same aware UTC datetimes, same ``isoformat``). SQLite: Django's own ``values_list``."""
    from django.db import connections
    from django.db.models import TextField
    from django.db.models.functions import Cast

    connection = connections[qs.db]
    if connection.vendor != "postgresql":
        return list(qs.values_list(*_ROW_FIELDS))
    from psycopg.types.datetime import TimestamptzLoader

    casts = {f"_t_{name}": Cast(name, TextField()) for name in _TEXT_IDS}
    fields = [f"_t_{name}" if name in _TEXT_IDS else name for name in _ROW_FIELDS]
    sql, params = qs.annotate(**casts).values_list(*fields).query.sql_with_params()
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's own cursor: its adapters are a copy of the connection's
        raw.adapters.register_loader("timestamptz", TimestamptzLoader)  # psycopg swaps in its C loader
        cursor.execute(sql, params)
        return cursor.fetchall()


def _row_json(r: tuple[Any, ...], conflict_types: list[str] | None) -> dict[str, object]:
    first, last = r[20], r[21]
    return {
        "id": r[0],
        "blockGroupId": r[1],
        "unitId": r[2],
        "teacherId": r[3],
        "dayOfWeek": r[4],
        "startTime": _hms(r[5]),
        "endTime": _hms(r[6]),
        "room": r[7],
        "roomId": r[22],
        "weekNumber": r[8],
        "actualDate": r[9],
        "term": r[10],
        "actualHours": float(r[11]),
        "status": r[12],
        "notes": r[13],
        "createdAt": r[14],
        "updatedAt": r[15],
        "unit": {"id": r[2], "code": r[16], "name": r[17]},
        "blockGroup": {"id": r[1], "code": r[18], "name": r[19]},
        "teacher": None
        if r[3] is None
        else {
            "id": r[3],
            "firstName": first,
            "lastName": last,
            "name": Teacher.name_of(first, last),
        },
        "conflicts": conflict_types or [],
    }


def session_get(*, org: Organization, session_id: UUID | str) -> TimetableSession:
    """One session of ``org`` (404 "Timetable session not found")."""
    return get_in_org(session_queryset(org), org, session_id, "Timetable session")


def _hms(t: time) -> str:
    return t.strftime("%H:%M:%S")


def session_rows(*, org: Organization, sessions: list[TimetableSession]) -> list[dict[str, object]]:
    """Session JSON rows (camelCase, ``SessionOut``) of given sessions with their conflict types."""
    ids = [s.id for s in sessions]
    rows = {r[0]: r for r in TimetableSession.objects.for_org(org).filter(id__in=ids).values_list(*_ROW_FIELDS)}
    slots = [
        cf.Slot(r[0], r[1], r[2], r[3], r[7] or "", r[9], r[5], r[6], float(r[11] or 0), r[12], r[18], r[16])
        for r in rows.values()
    ]
    types = cf.types_by_session(org, slots)
    return [_row_json(rows[i], types.get(i)) for i in ids if i in rows]


def conflict_list(
    *,
    org: Organization,
    start: date | None,
    end: date | None,
    block_group_id: UUID | str | None = None,
    teacher_id: UUID | str | None = None,
    today: date | None = None,
) -> list[dict[str, object]]:
    """``[{type, severity, sessionIds, message, date}]`` for sessions dated in [start, end].

    start defaults to today (Australia/Melbourne unless the user says otherwise), end to start + 365 days.
    """
    start = start or today or date.today()
    end = end or (start + timedelta(days=365))
    if end < start:
        start, end = end, start
    return [c.to_dict() for c in cf.scan(org, start, end, block_group_id=block_group_id, teacher_id=teacher_id)]


def session_list_for_calendar(
    *,
    org: Organization,
    teacher_id: UUID | str | None = None,
    block_group_id: UUID | str | None = None,
    room_id: UUID | str | None = None,
) -> list[TimetableSession]:
    """Every session of a teacher, a block group or a recorded room for an iCalendar feed, by date."""
    qs = _of_owner(session_queryset(org), block_group_id, teacher_id, room_id)
    return list(qs.order_by("actual_date", "start_time"))
