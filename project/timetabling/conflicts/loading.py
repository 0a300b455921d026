"""What the conflict rules read from the database: linked groups, holidays, rooms, teacher facts and leave (:func:`load_data`), sessions as :class:`Slot` rows (:func:`load_slots`, :func:`load_neighbours`). A fixed number of queries each."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import date, time, timedelta
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.db.models import Q, QuerySet
from django.db.models.functions import Lower

from project.timetabling.calendar import HolidaySpan, holiday_by_date, holiday_spans, week_start
from project.timetabling.conflicts.rules import (
    ConflictData,
    LeaveSpan,
    RoomFacts,
    Slot,
    TeacherFacts,
    norm_room,
)

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.timetabling.models import TimetableSession

# ----------------------------------------------------------------------------------------- database


def linked_groups(org: Organization) -> dict[UUID, UUID]:
    """``{block_group_id: linked_group_id}`` for the organization's linked groups (1 query)."""
    from project.planning.models import LinkedBlockGroupMember

    return dict(LinkedBlockGroupMember.objects.for_org(org).values_list("block_group_id", "linked_group_id"))


def load_holidays(org: Organization, start: date, end: date) -> dict[date, HolidaySpan]:
    """Active holidays (recurring ones repeated) by date within [start, end] (1 query)."""
    from project.timetabling.models import Holiday

    rows = (
        Holiday.objects.for_org(org)
        .filter(is_active=True)
        .filter(Q(is_recurring=True) | Q(start_date__lte=end, end_date__gte=start))
        .only("name", "type", "start_date", "end_date", "is_recurring")
    )
    return {d: s for d, s in holiday_by_date(holiday_spans(rows, start, end)).items() if start <= d <= end}


def load_rooms(org: Organization, data: ConflictData) -> None:
    """The organization's active rooms into ``data.rooms`` and, when one has a capacity or a campus, the
    block groups' cohort sizes and campuses into ``data.groups`` (ADR 0019). 1-2 queries."""
    from project.catalogue.models import Room

    for code, kind, capacity, campus_id, campus_name in (
        Room.objects.for_org(org).filter(is_active=True).values_list("code", "type", "capacity", "campus_id", "campus__name")
    ):
        data.rooms[norm_room(code)] = RoomFacts(code, kind, capacity, campus_id, campus_name or "")
    if any(r.type != "online" and (r.capacity is not None or r.campus_id is not None) for r in data.rooms.values()):
        load_groups(org, data)


def load_groups(org: Organization, data: ConflictData) -> None:
    """The block groups' ``(cohort size, campus id, campus name)`` into ``data.groups`` (1 query)."""
    from project.planning.models import BlockGroup

    data.groups = {
        gid: (cohort or 0, campus_id, campus_name or "")
        for gid, cohort, campus_id, campus_name in BlockGroup.objects.for_org(org).values_list(
            "id", "cohort_size", "campus_id", "campus__name"
        )
    }


def load_data(org: Organization, start: date, end: date, teacher_ids: Iterable[object] | None = None) -> ConflictData:
    """Linked groups, holidays of [start, end], rooms and block group facts (:func:`load_rooms`), facts,
        qualifications and leave overlapping [start, end] of ``teacher_ids`` (all when None). 6-7 queries
        (3-4 when ``teacher_ids`` is empty); one more when a teacher teaches at some campuses only and the
    block groups were not read for the rooms (ADR 0027)."""
    from project.staff.availability.selectors import PROFILE_FIELDS, facts_of
    from project.staff.models import Teacher, TeacherLeave, TeacherUnit

    data = ConflictData(link_of=linked_groups(org), holidays=load_holidays(org, start, end))
    load_rooms(org, data)
    ids = None if teacher_ids is None else {i for i in teacher_ids if i is not None}
    if ids is not None and not ids:
        return data
    tq = Teacher.objects.for_org(org)
    uq = TeacherUnit.objects.for_org(org)
    lq = TeacherLeave.objects.for_org(org).filter(start_date__lte=end, end_date__gte=start)
    if ids is not None:
        tq, uq, lq = tq.filter(id__in=ids), uq.filter(teacher_id__in=ids), lq.filter(teacher_id__in=ids)
    for row in tq.values_list(
        "id",
        "first_name",
        "last_name",
        "max_weekly_hours",
        "availability",
        "is_active",
        "employment_type",
        "expiry_date",
        *PROFILE_FIELDS,
    ):
        data.teachers[row[0]] = TeacherFacts(
            id=row[0],
            name=f"{row[1]} {row[2]}".strip(),
            max_weekly_hours=row[3],
            availability=row[4],
            is_active=row[5],
            employment_type=row[6],
            expiry_date=row[7],
            avail=facts_of(row[4], row[8:]),
        )
    if not data.groups and any(t.avail is not None and t.avail.campus_ids for t in data.teachers.values()):
        load_groups(org, data)  # the campus rule of ADR 0027 reads the block groups' campuses
    data.qualified = set(uq.values_list("teacher_id", "unit_id"))
    for teacher_id, *span in lq.order_by("start_date").values_list(
        "teacher_id", "start_date", "end_date", "start_time", "end_time", "reason"
    ):
        data.leave.setdefault(teacher_id, []).append(LeaveSpan(*span))
    return data


_SLOT_FIELDS = (
    "id",
    "block_group_id",
    "unit_id",
    "teacher_id",
    "room",
    "actual_date",
    "start_time",
    "end_time",
    "actual_hours",
    "status",
    "block_group__code",
    "unit__code",
)


def _converter(kind: str) -> Callable[[Any], Any]:
    """A memoised converter of one raw database value (SQLite gives text; PostgreSQL native types).

    Any: a raw cell of any column type in, that column's Python value (UUID, date, time, float, text) out."""
    import uuid as _uuid

    memo: dict[Any, Any] = {}

    def parse(value: Any) -> Any:
        if kind == "hours":
            return float(value) if value is not None else 0.0
        if value is None or not isinstance(value, (str, int, float)) or isinstance(value, bool):
            return value
        if kind == "uuid":
            return _uuid.UUID(value) if isinstance(value, str) else value
        if kind == "date":
            return date.fromisoformat(value) if isinstance(value, str) else value
        if kind == "time":
            return time.fromisoformat(value) if isinstance(value, str) else value
        return value

    def run(value: Any) -> Any:
        try:
            return memo[value]
        except KeyError:
            out = memo[value] = parse(value)
            return out
        except TypeError:  # unhashable
            return parse(value)

    if kind == "id":  # unique per row: no memo
        return lambda v: _uuid.UUID(v) if isinstance(v, str) else v
    return run


_SLOT_KINDS = ("id", "uuid", "uuid", "uuid", "text", "date", "time", "time", "hours", "text", "text", "text")


def native_slot(r: Sequence[Any]) -> Slot:
    """A :class:`Slot` of a row in ``_SLOT_FIELDS`` order as psycopg returns it (UUID, date, time, Decimal)."""
    return Slot(
        r[0],
        r[1],
        r[2],
        r[3],
        r[4] or "",
        r[5],
        r[6],
        r[7],
        float(r[8]) if r[8] is not None else 0.0,
        r[9],
        r[10] or "",
        r[11] or "",
    )


def converted_slot(sid: object, r: Sequence[Any], conv: Sequence[Callable[[Any], Any]]) -> Slot:
    """A :class:`Slot` of a row in ``_SLOT_FIELDS`` order read as text (SQLite), its id already converted
    to ``sid``; ``conv`` holds the memoised converters of ``_SLOT_KINDS`` (the first nine are used)."""
    _id, c_g, c_u, c_t, _r, c_d, c_s, c_e, c_h = conv[:9]
    return Slot(
        sid,
        c_g(r[1]),
        c_u(r[2]),
        c_t(r[3]),
        r[4] or "",
        c_d(r[5]),
        c_s(r[6]),
        c_e(r[7]),
        c_h(r[8]) if r[8] is not None else 0.0,
        r[9],
        r[10] or "",
        r[11] or "",
    )


def _fetch_slots(qs: QuerySet[TimetableSession, Any]) -> list[Slot]:
    """Run ``qs.values_list(*_SLOT_FIELDS)`` on a raw cursor and convert with memoised converters.

    Django's per-value converters cost seconds for 30,000 rows on SQLite; times, dates, hours and the
    ids of groups, units and teachers repeat, so memoising makes loading ~10x faster.
    """
    from django.db import connections
    from django.db.models import CharField
    from django.db.models.functions import Cast

    fields = list(_SLOT_FIELDS)
    if connections[qs.db].vendor == "sqlite":
        # Text columns skip sqlite3's per-value declared-type converters; ours are memoised.
        qs = qs.annotate(
            _d=Cast("actual_date", CharField()),
            _s=Cast("start_time", CharField()),
            _e=Cast("end_time", CharField()),
            _h=Cast("actual_hours", CharField()),
        )
        fields[5:9] = ["_d", "_s", "_e", "_h"]
    vqs = qs.values_list(*fields).order_by()
    sql, params = vqs.query.sql_with_params()
    conv = [_converter(k) for k in _SLOT_KINDS]
    c_id = conv[0]
    native = connections[vqs.db].vendor == "postgresql"  # psycopg returns UUID, date, time: no conversion
    with connections[vqs.db].cursor() as cursor:
        cursor.execute(sql, params)
        if native:
            return [native_slot(r) for r in cursor.fetchall()]
        return [converted_slot(c_id(r[0]), r, conv) for r in cursor.fetchall()]


def load_slots(org: Organization, start: date, end: date, q: Q | None = None, exclude_ids: Iterable[object] = ()) -> list[Slot]:
    """Sessions of ``org`` dated within [start, end] (optionally filtered by ``q``) as Slots (1 query)."""
    from project.timetabling.models import TimetableSession

    qs = TimetableSession.objects.for_org(org).filter(actual_date__gte=start, actual_date__lte=end)
    if q is not None:
        qs = qs.filter(q)
    exclude_ids = list(exclude_ids)
    if exclude_ids:
        qs = qs.exclude(id__in=exclude_ids)
    return _fetch_slots(qs)


def _week_range(dates: Iterable[date]) -> tuple[date, date]:
    dates = list(dates)
    lo = week_start(min(dates))
    hi = week_start(max(dates)) + timedelta(days=6)
    return lo, hi


def _neighbours_q(slots: list[Slot]) -> tuple[Q | None, dict[str, Lower]]:
    """A filter for sessions that could clash with ``slots``: same teacher, group or (case-insensitive) room."""
    teachers = {s.teacher_id for s in slots if s.teacher_id is not None}
    groups = {s.block_group_id for s in slots}
    rooms = {norm_room(s.room) for s in slots if norm_room(s.room)}
    q = Q(block_group_id__in=groups)
    if teachers:
        q |= Q(teacher_id__in=teachers)
    annotate: dict[str, Lower] = {}
    if rooms:
        q |= Q(_room_l__in=rooms)
        annotate = {"_room_l": Lower("room")}
    return q, annotate


def load_neighbours(org: Organization, slots: list[Slot], exclude_ids: Iterable[object] = ()) -> list[Slot]:
    """Stored sessions in the weeks of ``slots`` sharing a teacher, group or room with one of them (1 query)."""
    from project.timetabling.models import TimetableSession

    if not slots:
        return []
    lo, hi = _week_range(s.date for s in slots)
    q, annotate = _neighbours_q(slots)
    qs = TimetableSession.objects.for_org(org).filter(actual_date__gte=lo, actual_date__lte=hi)
    if annotate:
        qs = qs.annotate(**annotate)
    qs = qs.filter(q)
    exclude_ids = list(exclude_ids)
    if exclude_ids:
        qs = qs.exclude(id__in=exclude_ids)
    return _fetch_slots(qs)
