"""One conflict engine for timetable sessions (decisions.md §4).

Used by session create/update and bulk allocation (refuse new hard conflicts, return soft ones as
warnings), by the list of ``GET /api/timetables`` (conflict types per row) and by
``GET /api/timetables/conflicts``. The auto-allocation work reuses the pure parts.

Pure building blocks (no database):

- :func:`overlaps` ``(a_start, a_end, b_start, b_end) -> bool``: half-open intervals, touching ends do
  not overlap (09:00-12:00 and 12:00-15:00 are fine).
- :func:`is_evening` ``(start, end) -> bool``: starts at or after 17:00 or ends after 17:00.
- :func:`co_delivered` ``(group_a, group_b, link_of) -> bool``: two different block groups of one linked
  group (they share teacher and room without conflict).
- :class:`Slot`: the facts of one session the engine needs (wall-clock ``datetime.time`` and
  ``datetime.date``, hours as float).
- :class:`ConflictData`: linked groups, holidays by date, teacher facts, qualifications.
- :func:`detect` ``(slots, data, focus=None) -> list[Conflict]``: every conflict among ``slots``;
  with ``focus`` (a set of session ids) only the conflicts that involve one of them. One sweep per
  (date, teacher), (date, group) and (date, room) bucket, so it is O(n log n) for n slots.
- :func:`detect_types` ``(slots, data, focus) -> {focus id: set of types}``: the same rules for list
  rows, without a Conflict object per clashing pair.

Database helpers (a fixed number of queries each):

- :func:`linked_groups` ``(org) -> {block_group_id: linked_group_id}`` (1 query).
- :func:`load_data` ``(org, start, end, teacher_ids) -> ConflictData`` (5 queries, leave included).
- :func:`load_slots` ``(org, start, end, q=None, exclude_ids=()) -> list[Slot]`` (1 query).
- :func:`check_changes` ``(org, proposed, originals) -> (new_hard, soft)``: what a write would add.
- :func:`types_by_session` ``(org, slots) -> {session_id: [type, ...]}``: for list rows.
- :func:`load_neighbourhood` ``(org, slots, exclude_ids=()) -> list[Slot]``: the stored sessions that
  can share a conflict with ``slots`` (same group or room on their dates, same teacher in their weeks),
  1 index-backed query; never the whole organization.
- :func:`scan` ``(org, start, end, block_group_id=None, teacher_id=None) -> list[Conflict]``.

Cancelled sessions never conflict. Rooms are compared trimmed and case-insensitively; an empty room
never conflicts. A conflict of two sessions of one block group is ``group_double_booked`` only (the
same group's clash is not also reported as a teacher or room clash).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, time, timedelta
from operator import attrgetter

from django.db.models import Q
from django.db.models.functions import Lower

from project.timetabling.calendar import HolidaySpan, holiday_by_date, holiday_spans, week_start

TEACHER_DOUBLE_BOOKED = "teacher_double_booked"
GROUP_DOUBLE_BOOKED = "group_double_booked"
ROOM_DOUBLE_BOOKED = "room_double_booked"
HOLIDAY = "holiday"
TEACHER_OVER_CAPACITY = "teacher_over_capacity"
TEACHER_UNQUALIFIED = "teacher_unqualified"
TEACHER_UNAVAILABLE = "teacher_unavailable"
TEACHER_INACTIVE = "teacher_inactive"
TEACHER_CONTRACT_EXPIRED = "teacher_contract_expired"
TEACHER_ON_LEAVE = "teacher_on_leave"  # issue 17, ADR 0014
ROOM_OVER_CAPACITY = "room_over_capacity"  # issue 19, ADR 0019
ROOM_OTHER_CAMPUS = "room_other_campus"  # issue 19, ADR 0019

HARD = "hard"
SOFT = "soft"
SEVERITY = {
    TEACHER_DOUBLE_BOOKED: HARD,
    GROUP_DOUBLE_BOOKED: HARD,
    ROOM_DOUBLE_BOOKED: HARD,
    HOLIDAY: HARD,
    TEACHER_ON_LEAVE: HARD,
    TEACHER_OVER_CAPACITY: SOFT,
    TEACHER_UNQUALIFIED: SOFT,
    TEACHER_UNAVAILABLE: SOFT,
    TEACHER_INACTIVE: SOFT,
    TEACHER_CONTRACT_EXPIRED: SOFT,
    ROOM_OVER_CAPACITY: SOFT,
    ROOM_OTHER_CAMPUS: SOFT,
}
CANCELLED = "cancelled"
EVENING_FROM = time(17, 0)


# --------------------------------------------------------------------------------------------- pure


def overlaps(a_start, a_end, b_start, b_end) -> bool:
    """True when [a_start, a_end) and [b_start, b_end) share time (any comparable values: time, datetime)."""
    return a_start < b_end and b_start < a_end


def is_evening(start: time, end: time) -> bool:
    """Evening session (decisions.md §4): starts at or after 17:00 or ends after 17:00."""
    return start >= EVENING_FROM or end > EVENING_FROM


def co_delivered(group_a, group_b, link_of: dict) -> bool:
    """Two different block groups in the same linked group (co-delivered: no teacher or room clash)."""
    if group_a == group_b:
        return False
    la = link_of.get(group_a)
    return la is not None and la == link_of.get(group_b)


def norm_room(room: str | None) -> str:
    return (room or "").strip().casefold()


def add_months(day: date, months: int) -> date:
    """``day`` plus whole months, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb)."""
    month0 = day.month - 1 + months
    year, month = day.year + month0 // 12, month0 % 12 + 1
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month, min(day.day, d))
        except ValueError:
            continue
    raise ValueError(day)  # pragma: no cover


@dataclass(slots=True)
class Slot:
    """What the engine knows of one session. ``hours`` is actualHours as a float."""

    id: object
    block_group_id: object
    unit_id: object
    teacher_id: object | None
    room: str
    date: date
    start: time
    end: time
    hours: float
    status: str
    group_code: str = ""
    unit_code: str = ""

    @classmethod
    def of(cls, s) -> Slot:
        """From a TimetableSession (its block_group/unit must be loaded or the codes are left blank)."""
        cache = getattr(s, "_state", None)
        fields = cache.fields_cache if cache is not None else {}
        bg, unit = fields.get("block_group"), fields.get("unit")
        return cls(
            id=s.id,
            block_group_id=s.block_group_id,
            unit_id=s.unit_id,
            teacher_id=s.teacher_id,
            room=s.room or "",
            date=s.actual_date,
            start=s.start_time,
            end=s.end_time,
            hours=float(s.actual_hours or 0),
            status=s.status,
            group_code=bg.code if bg is not None else "",
            unit_code=unit.code if unit is not None else "",
        )


@dataclass(slots=True)
class TeacherFacts:
    id: object
    name: str
    max_weekly_hours: int
    availability: str
    is_active: bool
    employment_type: str
    expiry_date: date | None


@dataclass(slots=True)
class LeaveSpan:
    """A teacher's leave: whole days ``start_date``..``end_date`` (inclusive), or with times those hours
    of each of those days."""

    start_date: date
    end_date: date
    start_time: time | None
    end_time: time | None
    reason: str = ""

    def covers(self, day: date, start: time, end: time) -> bool:
        """True when a session on ``day`` from ``start`` to ``end`` falls in this leave."""
        if not self.start_date <= day <= self.end_date:
            return False
        return self.start_time is None or overlaps(self.start_time, self.end_time, start, end)


@dataclass(slots=True)
class RoomFacts:
    """A recorded room (issue 19), found by its code as sessions spell it (``norm_room``)."""

    code: str
    type: str
    capacity: int | None
    campus_id: object | None
    campus_name: str


@dataclass
class ConflictData:
    """Everything besides the sessions: linked groups, holidays by date, teachers, qualifications, leave,
    rooms and the block groups' cohort sizes and campuses."""

    link_of: dict = field(default_factory=dict)
    holidays: dict[date, HolidaySpan] = field(default_factory=dict)
    teachers: dict = field(default_factory=dict)  # teacher id -> TeacherFacts
    qualified: set = field(default_factory=set)  # {(teacher_id, unit_id)}
    leave: dict = field(default_factory=dict)  # teacher id -> [LeaveSpan]
    rooms: dict = field(default_factory=dict)  # norm_room(code) -> RoomFacts
    groups: dict = field(default_factory=dict)  # block group id -> (cohort size, campus id, campus name)

    @property
    def online_rooms(self) -> frozenset:
        """Rooms that never clash: online rooms hold any number of classes at once."""
        return frozenset(k for k, r in self.rooms.items() if r.type == "online")

    def leave_of(self, teacher_id, slot: Slot) -> LeaveSpan | None:
        """The leave of ``teacher_id`` that ``slot``'s time falls in, if any."""
        for span in self.leave.get(teacher_id, ()):
            if span.covers(slot.date, slot.start, slot.end):
                return span
        return None


@dataclass
class Conflict:
    type: str
    severity: str
    session_ids: list
    message: str
    date: date | None = None

    @property
    def key(self) -> tuple:
        return (self.type, frozenset(str(i) for i in self.session_ids))

    def to_dict(self) -> dict:
        """``{type, severity, sessionIds, message, date}`` as in the 409 and /conflicts answers."""
        return {
            "type": self.type,
            "severity": self.severity,
            "sessionIds": [str(i) for i in self.session_ids],
            "message": self.message,
            "date": self.date.isoformat() if self.date else None,
        }


def _hm(t: time) -> str:
    return f"{t.hour:02d}:{t.minute:02d}"


def _teacher_name(data: ConflictData, teacher_id) -> str:
    t = data.teachers.get(teacher_id)
    return t.name if t is not None else "The teacher"


def _pair_clashes(active: list[Slot], link_of: dict, focus: set | None, online: frozenset = frozenset()):
    """``(type, earlier, later, date)`` for every overlapping pair of one block group, teacher or room on
    one date (decisions.md §4); with ``focus`` only pairs with a focus slot. One sweep per bucket in
    start order, so O(n log n) plus the pairs found."""
    groups: dict = {}
    teachers: dict = {}
    rooms: dict = {}
    hot: set | None = None if focus is None else set()  # bucket keys holding a focus slot
    for s in active:
        infocus = hot is not None and s.id in focus
        key = ("g", s.date, s.block_group_id)
        bucket = groups.get(key)
        if bucket is None:
            groups[key] = [s]
        else:
            bucket.append(s)
        if infocus:
            hot.add(key)
        if s.teacher_id is not None:
            key = ("t", s.date, s.teacher_id)
            bucket = teachers.get(key)
            if bucket is None:
                teachers[key] = [s]
            else:
                bucket.append(s)
            if infocus:
                hot.add(key)
        room = norm_room(s.room)
        if room and room not in online:
            key = ("r", s.date, room)
            bucket = rooms.get(key)
            if bucket is None:
                rooms[key] = [s]
            else:
                bucket.append(s)
            if infocus:
                hot.add(key)
    by_time = attrgetter("start", "end")
    for kind, buckets in ((GROUP_DOUBLE_BOOKED, groups), (TEACHER_DOUBLE_BOOKED, teachers), (ROOM_DOUBLE_BOOKED, rooms)):
        same_group_only = kind == GROUP_DOUBLE_BOOKED
        for key, items in buckets.items():
            if len(items) < 2 or (hot is not None and key not in hot):
                continue
            day = key[1]
            items.sort(key=by_time)
            open_: list[Slot] = []
            for s in items:
                if open_:
                    start = s.start
                    open_ = [o for o in open_ if o.end > start]
                    for o in open_:
                        if not (o.start < s.end and start < o.end):
                            continue
                        if focus is not None and o.id not in focus and s.id not in focus:
                            continue
                        if not same_group_only and (
                            o.block_group_id == s.block_group_id or co_delivered(o.block_group_id, s.block_group_id, link_of)
                        ):
                            continue  # the group's own clash is group_double_booked only; linked groups co-deliver
                        yield kind, o, s, day
                open_.append(s)


def _session_rules(active: list[Slot], data: ConflictData, focus: set | None):
    """``(type, slot, teacher facts, holiday or leave span or (room, group facts))`` for each per-session
    rule a focus slot breaks: a holiday, its room too small for the cohort or of another campus than the
    block group's, its teacher on leave, and its teacher unqualified, unavailable at that time, inactive or
    past the contract."""
    holidays, teachers, qualified, leave = data.holidays, data.teachers, data.qualified, data.leave
    rooms, groups = data.rooms, data.groups
    for s in active:
        if focus is not None and s.id not in focus:
            continue
        if holidays:
            span = holidays.get(s.date)
            if span is not None:
                yield HOLIDAY, s, None, span
        if rooms and s.room:
            room = rooms.get(norm_room(s.room))
            group = groups.get(s.block_group_id) if room is not None else None
            if group is not None and room.type != "online":
                cohort, campus_id, _campus_name = group
                if room.capacity is not None and cohort > room.capacity:
                    yield ROOM_OVER_CAPACITY, s, None, (room, group)
                if room.campus_id is not None and campus_id is not None and room.campus_id != campus_id:
                    yield ROOM_OTHER_CAMPUS, s, None, (room, group)
        tid = s.teacher_id
        if tid is None:
            continue
        if leave and tid in leave:
            span = data.leave_of(tid, s)
            if span is not None:
                yield TEACHER_ON_LEAVE, s, teachers.get(tid), span
        t = teachers.get(tid)
        if t is None:
            continue
        if (tid, s.unit_id) not in qualified:
            yield TEACHER_UNQUALIFIED, s, t, None
        if t.availability != "both":
            evening = is_evening(s.start, s.end)
            if (t.availability == "day" and evening) or (t.availability == "evening" and not evening):
                yield TEACHER_UNAVAILABLE, s, t, None
        if not t.is_active:
            yield TEACHER_INACTIVE, s, t, None
        if t.employment_type == "fixed_term" and t.expiry_date is not None and s.date > t.expiry_date:
            yield TEACHER_CONTRACT_EXPIRED, s, t, None


def _over_capacity(active: list[Slot], data: ConflictData, focus: set | None):
    """``(teacher facts, monday, slots of the week by date and start, hours)`` for each teacher week over
    the teacher's maximum weekly hours with a focus slot; co-delivered sessions of linked groups count once."""
    weeks: dict[tuple, list[Slot]] = defaultdict(list)
    monday_of: dict[date, date] = {}
    teachers = data.teachers
    for s in active:
        tid = s.teacher_id
        if tid is None or tid not in teachers:
            continue
        monday = monday_of.get(s.date)
        if monday is None:
            monday = monday_of[s.date] = week_start(s.date)
        weeks[(tid, monday)].append(s)
    link_of = data.link_of
    for (teacher_id, monday), items in weeks.items():
        t = teachers[teacher_id]
        if focus is not None and focus.isdisjoint([s.id for s in items]):
            continue
        seen: set = set()
        total = 0.0
        for s in items:
            link = link_of.get(s.block_group_id)
            key = (s.date, s.start, s.end, link) if link is not None else (s.id,)
            if key in seen:
                continue
            seen.add(key)
            total += s.hours
        if total > t.max_weekly_hours + 1e-9:
            items.sort(key=lambda s: (s.date, s.start))
            yield t, monday, items, total


def _pair_message(kind: str, o: Slot, s: Slot, day: date, data: ConflictData) -> str:
    times = f"({_hm(o.start)}-{_hm(o.end)} and {_hm(s.start)}-{_hm(s.end)})"
    if kind == GROUP_DOUBLE_BOOKED:
        return f"Block group {s.group_code or s.block_group_id} has overlapping sessions on {day.isoformat()} {times}"
    if kind == TEACHER_DOUBLE_BOOKED:
        return f"{_teacher_name(data, s.teacher_id)} is booked in two overlapping sessions on {day.isoformat()} {times}"
    return f"Room {s.room.strip()} is booked twice on {day.isoformat()} {times}"


def _session_message(kind: str, s: Slot, t: TeacherFacts | None, span) -> str:
    if kind == HOLIDAY:
        return f"Session on {s.date.isoformat()} falls on {span.name}"
    if kind == ROOM_OVER_CAPACITY:
        room, (cohort, _campus, _name) = span
        return f"Room {room.code} seats {room.capacity}; block group {s.group_code or s.block_group_id} has {cohort} students"
    if kind == ROOM_OTHER_CAMPUS:
        room, (_cohort, _campus, name) = span
        return f"Room {room.code} is at {room.campus_name}; block group {s.group_code or s.block_group_id} is taught at {name}"
    if kind == TEACHER_ON_LEAVE:
        name = t.name if t is not None else "The teacher"
        hours = f" {_hm(span.start_time)}-{_hm(span.end_time)}" if span.start_time is not None else ""
        reason = f" ({span.reason})" if span.reason else ""
        return f"{name} is on leave on {s.date.isoformat()}{hours}{reason}"
    if kind == TEACHER_UNQUALIFIED:
        return f"{t.name} holds no qualification for unit {s.unit_code}".rstrip()
    if kind == TEACHER_UNAVAILABLE:
        evening = is_evening(s.start, s.end)
        return (
            f"{t.name} is available for {t.availability} sessions only "
            f"({_hm(s.start)}-{_hm(s.end)} is {'an evening' if evening else 'a day'} session)"
        )
    if kind == TEACHER_INACTIVE:
        return f"{t.name} is inactive"
    return f"{t.name}'s contract expires on {t.expiry_date.isoformat()}"


def detect(slots: Iterable[Slot], data: ConflictData, focus: set | None = None, *, messages: bool = True) -> list[Conflict]:
    """All conflicts among ``slots`` (decisions.md §4); with ``focus`` only those touching a focus id.

    Pure: no database access. Slots sharing an id must be deduplicated by the caller. ``messages=False``
    leaves every message empty. Sorted by date, then type.
    """
    active = [s for s in slots if s.status != CANCELLED]
    out: list[Conflict] = []
    for kind, o, s, day in _pair_clashes(active, data.link_of, focus, data.online_rooms):
        out.append(Conflict(kind, HARD, [o.id, s.id], _pair_message(kind, o, s, day, data) if messages else "", day))
    for kind, s, t, span in _session_rules(active, data, focus):
        out.append(Conflict(kind, SEVERITY[kind], [s.id], _session_message(kind, s, t, span) if messages else "", s.date))
    for t, monday, items, total in _over_capacity(active, data, focus):
        out.append(
            Conflict(
                TEACHER_OVER_CAPACITY,
                SOFT,
                [s.id for s in items],
                (f"{t.name} has {total:g} hours in the week of {monday.isoformat()} (maximum {t.max_weekly_hours})")
                if messages
                else "",
                monday,
            )
        )
    out.sort(key=lambda c: (c.date or date.min, c.type))
    return out


def detect_types(slots: Iterable[Slot], data: ConflictData, focus: set) -> dict:
    """``{focus id: set of conflict types}`` of the conflicts :func:`detect` finds (the same rules and
    answers), without building a Conflict per pair: a list row needs only its types, and a crowded
    block group of 5,000 sessions has tens of thousands of clashing pairs."""
    active = [s for s in slots if s.status != CANCELLED]
    types: dict = {sid: set() for sid in focus}
    for kind, o, s, _day in _pair_clashes(active, data.link_of, focus, data.online_rooms):
        if o.id in types:
            types[o.id].add(kind)
        if s.id in types:
            types[s.id].add(kind)
    for kind, s, _t, _span in _session_rules(active, data, focus):
        types[s.id].add(kind)
    for _t, _monday, items, _total in _over_capacity(active, data, focus):
        for s in items:
            if s.id in types:
                types[s.id].add(TEACHER_OVER_CAPACITY)
    return types


def hard(conflicts: Iterable[Conflict]) -> list[Conflict]:
    return [c for c in conflicts if c.severity == HARD]


def soft(conflicts: Iterable[Conflict]) -> list[Conflict]:
    return [c for c in conflicts if c.severity == SOFT]


# ----------------------------------------------------------------------------------------- database


def linked_groups(org) -> dict:
    """``{block_group_id: linked_group_id}`` for the organization's linked groups (1 query)."""
    from project.planning.models import LinkedBlockGroupMember

    return dict(LinkedBlockGroupMember.objects.for_org(org).values_list("block_group_id", "linked_group_id"))


def load_holidays(org, start: date, end: date) -> dict[date, HolidaySpan]:
    """Active holidays (recurring ones repeated) by date within [start, end] (1 query)."""
    from project.timetabling.models import Holiday

    rows = (
        Holiday.objects.for_org(org)
        .filter(is_active=True)
        .filter(Q(is_recurring=True) | Q(start_date__lte=end, end_date__gte=start))
        .only("name", "type", "start_date", "end_date", "is_recurring")
    )
    return {d: s for d, s in holiday_by_date(holiday_spans(rows, start, end)).items() if start <= d <= end}


def load_rooms(org, data: ConflictData) -> None:
    """The organization's active rooms into ``data.rooms`` and, when one has a capacity or a campus, the
    block groups' cohort sizes and campuses into ``data.groups`` (issue 19). 1-2 queries."""
    from project.catalogue.models import Room
    from project.planning.models import BlockGroup

    for code, kind, capacity, campus_id, campus_name in (
        Room.objects.for_org(org).filter(is_active=True).values_list("code", "type", "capacity", "campus_id", "campus__name")
    ):
        data.rooms[norm_room(code)] = RoomFacts(code, kind, capacity, campus_id, campus_name or "")
    if any(r.type != "online" and (r.capacity is not None or r.campus_id is not None) for r in data.rooms.values()):
        data.groups = {
            gid: (cohort or 0, campus_id, campus_name or "")
            for gid, cohort, campus_id, campus_name in BlockGroup.objects.for_org(org).values_list(
                "id", "cohort_size", "campus_id", "campus__name"
            )
        }


def load_data(org, start: date, end: date, teacher_ids: Iterable | None = None) -> ConflictData:
    """Linked groups, holidays of [start, end], rooms and block group facts (:func:`load_rooms`), facts,
    qualifications and leave overlapping [start, end] of ``teacher_ids`` (all when None). 6-7 queries
    (3-4 when ``teacher_ids`` is empty)."""
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
        "id", "first_name", "last_name", "max_weekly_hours", "availability", "is_active", "employment_type", "expiry_date"
    ):
        data.teachers[row[0]] = TeacherFacts(
            id=row[0],
            name=f"{row[1]} {row[2]}".strip(),
            max_weekly_hours=row[3],
            availability=row[4],
            is_active=row[5],
            employment_type=row[6],
            expiry_date=row[7],
        )
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


def _converter(kind: str):
    """A memoised converter of one raw database value (SQLite gives text; PostgreSQL native types)."""
    import uuid as _uuid

    memo: dict = {}

    def parse(value):
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

    def run(value):
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


def _fetch_slots(qs) -> list[Slot]:
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
    c_id, c_g, c_u, c_t, _r, c_d, c_s, c_e, c_h = conv[:9]
    out = []
    native = connections[vqs.db].vendor == "postgresql"  # psycopg returns UUID, date, time: no conversion
    with connections[vqs.db].cursor() as cursor:
        cursor.execute(sql, params)
        if native:
            return [
                Slot(
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
                for r in cursor.fetchall()
            ]
        for r in cursor.fetchall():
            out.append(
                Slot(
                    c_id(r[0]),
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
            )
    return out


def load_slots(org, start: date, end: date, q: Q | None = None, exclude_ids: Iterable = ()) -> list[Slot]:
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


def _neighbours_q(slots: list[Slot]) -> tuple[Q | None, dict]:
    """A filter for sessions that could clash with ``slots``: same teacher, group or (case-insensitive) room."""
    teachers = {s.teacher_id for s in slots if s.teacher_id is not None}
    groups = {s.block_group_id for s in slots}
    rooms = {norm_room(s.room) for s in slots if norm_room(s.room)}
    q = Q(block_group_id__in=groups)
    if teachers:
        q |= Q(teacher_id__in=teachers)
    annotate = {}
    if rooms:
        q |= Q(_room_l__in=rooms)
        annotate = {"_room_l": Lower("room")}
    return q, annotate


def load_neighbours(org, slots: list[Slot], exclude_ids: Iterable = ()) -> list[Slot]:
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


# ------------------------------------------------------------------------------------ neighbourhood

# Above this many (resource, date) pairs the neighbourhood is most of the organization's sessions of the
# range anyway: one date-range read of every session is cheaper than the pair joins.
NEIGHBOURHOOD_MAX_PAIRS = 20000


def _date_runs(days: Iterable[date], gap: int = 1) -> list[tuple[date, date]]:
    """Sorted ``days`` merged into inclusive runs ``[(lo, hi)]``; days at most ``gap`` apart join a run."""
    runs: list[list[date]] = []
    for d in sorted(set(days)):
        if runs and (d - runs[-1][1]).days <= gap:
            runs[-1][1] = d
        else:
            runs.append([d, d])
    return [(lo, hi) for lo, hi in runs]


def neighbourhood_keys(slots: Iterable[Slot]) -> dict:
    """What can share a conflict with ``slots`` (decisions.md §4), as index-ready date runs per key.

    ``{"group": [(block_group_id, lo, hi)], "room": [(room_casefolded, lo, hi)], "teacher":
    [(teacher_id, lo, hi)]}``, inclusive dates. A clash needs the same block group, teacher or room on
    the same date (runs of consecutive dates); weekly capacity needs the teacher's whole Monday-to-Sunday
    weeks (runs of consecutive weeks). Co-delivery (linked groups) and holidays are read separately.
    Cancelled slots count too (an edit may uncancel).
    """
    groups: dict = defaultdict(set)
    rooms: dict = defaultdict(set)
    weeks: dict = defaultdict(set)
    for s in slots:
        groups[s.block_group_id].add(s.date)
        room = norm_room(s.room)
        if room:
            rooms[room].add(s.date)
        if s.teacher_id is not None:
            weeks[s.teacher_id].add(week_start(s.date))
    return {
        "group": [(k, lo, hi) for k, days in groups.items() for lo, hi in _date_runs(days)],
        "room": [(k, lo, hi) for k, days in rooms.items() for lo, hi in _date_runs(days)],
        "teacher": [(k, lo, hi + timedelta(days=6)) for k, mondays in weeks.items() for lo, hi in _date_runs(mondays, gap=7)],
    }


def _text_of(convert):
    """``convert`` then the canonical text of the UUID it gives (None stays None), memoised."""
    memo: dict = {}

    def run(value):
        try:
            return memo[value]
        except KeyError:
            parsed = convert(value)
            out = memo[value] = None if parsed is None else str(parsed)
            return out

    return run


def _neighbourhood_sql(vendor: str, org_id, keys: dict, codes: bool = True, text_ids: bool = False) -> tuple[str, list]:
    """One UNION read of the sessions matching ``keys``: each part walks its list of (key, lo, hi)
    runs and range-scans the session index of that key for each (``session_group_date``,
    ``session_room_lower_date``, ``session_teacher_date``). PostgreSQL passes each list as three arrays
    (``unnest`` with a LATERAL index scan per run); SQLite as one JSON text (``json_each``, nested loop)."""
    import json as _json

    from project.catalogue.models import Unit
    from project.planning.models import BlockGroup
    from project.timetabling.models import TimetableSession

    t, g, u = TimetableSession._meta.db_table, BlockGroup._meta.db_table, Unit._meta.db_table
    ids = (
        "s.id::text, s.block_group_id::text, s.unit_id::text, s.teacher_id::text"
        if text_ids and vendor == "postgresql"
        else "s.id, s.block_group_id, s.unit_id, s.teacher_id"
    )
    cols = f"{ids}, s.room, s.actual_date, s.start_time, s.end_time, s.actual_hours, s.status, " + (
        "bg.code, un.code" if codes else "'', ''"
    )
    joins = f" JOIN {g} bg ON bg.id = s.block_group_id JOIN {u} un ON un.id = s.unit_id" if codes else ""
    column = {"group": "s.block_group_id", "room": "LOWER(s.room)", "teacher": "s.teacher_id"}
    parts, params = [], []
    for kind, runs in keys.items():
        if not runs:
            continue
        if vendor == "postgresql":
            cast = "text" if kind == "room" else "uuid"
            parts.append(
                f"SELECT {cols} FROM unnest(%s::{cast}[], %s::date[], %s::date[]) AS p(k, lo, hi) "  # noqa: S608 — fixed columns and casts; values are parameters
                f"CROSS JOIN LATERAL (SELECT * FROM {t} s WHERE s.organization_id = %s AND {column[kind]} = p.k "
                f"AND s.actual_date BETWEEN p.lo AND p.hi OFFSET 0) s" + joins  # OFFSET 0: one index scan per run
            )
            params += [[r[0] for r in runs], [r[1] for r in runs], [r[2] for r in runs], org_id]
        else:
            parts.append(
                f"SELECT {cols} FROM json_each(%s) AS p JOIN {t} s ON s.organization_id = %s "  # noqa: S608 — fixed columns and table; values are parameters
                f"AND {column[kind]} = json_extract(p.value, '$[0]') "
                "AND s.actual_date BETWEEN json_extract(p.value, '$[1]') AND json_extract(p.value, '$[2]')" + joins
            )
            params += [
                _json.dumps([[k if kind == "room" else _hex(k), lo.isoformat(), hi.isoformat()] for k, lo, hi in runs]),
                org_id.hex,
            ]
    # UNION ALL: a session found by several parts comes once per part; the callers keep the first (cheaper
    # in Python than PostgreSQL hashing every row to deduplicate).
    return " UNION ALL ".join(parts), params


def _hex(key) -> str:
    """A UUID (or its text) as SQLite stores it: 32 hex digits."""
    return key.hex if hasattr(key, "hex") else key.replace("-", "")


def load_neighbourhood(
    org,
    slots: list[Slot],
    exclude_ids: Iterable = (),
    *,
    codes: bool = True,
    complete_group=None,
    text_ids: bool = False,
) -> list[Slot]:
    """Stored sessions that can share a conflict with ``slots`` (1 query, index-backed).

    Same block group or (case-insensitive) room on one of their dates, same teacher in one of their
    weeks (see :func:`neighbourhood_keys`); never the rest of the organization. Deduplicated by id,
    ``exclude_ids`` left out. A very large neighbourhood (more than ``NEIGHBOURHOOD_MAX_PAIRS`` runs)
    is read as the date range of the slots' weeks instead and pruned to the same pairs in Python.
    ``codes=False`` leaves the block group and unit codes blank (only messages use them).
    ``complete_group``: see :func:`types_by_session` (its group-date runs are skipped).
    ``text_ids``: every id of the answer (session, block group, unit, teacher) is its canonical text
    (``str(uuid)``), and ``slots``/``exclude_ids``/``complete_group`` are given as text too.
    """
    from django.db import connection

    if not slots:
        return []
    keys = neighbourhood_keys(slots)
    if complete_group is not None:  # the caller holds every session of this group on these dates
        keys["group"] = [r for r in keys["group"] if r[0] != complete_group]
    if not any(keys.values()):
        return []
    exclude = set(exclude_ids)
    if sum(len(v) for v in keys.values()) > NEIGHBOURHOOD_MAX_PAIRS:
        # Most of the range is neighbourhood: read the range once, keep the slots sharing a key in Python.
        groups = {(s.block_group_id, s.date) for s in slots}
        rooms = {(norm_room(s.room), s.date) for s in slots if norm_room(s.room)}
        weeks = {(s.teacher_id, week_start(s.date)) for s in slots if s.teacher_id is not None}
        teachers = {t for t, _ in weeks}
        out_ = []
        for s in load_neighbours(org, slots, exclude_ids=exclude):
            if (
                (s.block_group_id, s.date) in groups
                or (s.room and (norm_room(s.room), s.date) in rooms)
                or (s.teacher_id in teachers and (s.teacher_id, week_start(s.date)) in weeks)
            ):
                out_.append(s)
        return out_
    sql, params = _neighbourhood_sql(connection.vendor, org.pk, keys, codes, text_ids)
    if connection.vendor == "postgresql":  # native values: no conversion
        out: dict = {}
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            for r in cursor.fetchall():
                if r[0] in out or r[0] in exclude:
                    continue
                out[r[0]] = Slot(
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
        return list(out.values())
    conv = [_converter(k) for k in _SLOT_KINDS]
    c_id, c_g, c_u, c_t, _r, c_d, c_s, c_e, c_h = conv[:9]
    if text_ids:
        c_id, c_g, c_u, c_t = (_text_of(c) for c in (c_id, c_g, c_u, c_t))
    out: dict = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for r in cursor.fetchall():
            sid = c_id(r[0])
            if sid in out or sid in exclude:
                continue
            out[sid] = Slot(
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
    return list(out.values())


def check_changes(org, proposed: list[Slot], originals: list[Slot] = ()) -> tuple[list[Conflict], list[Conflict]]:
    """What writing ``proposed`` (new or changed sessions) would add (decisions.md §4).

    originals: the stored versions of changed sessions (empty for creates). Returns
    ``(new_hard, soft)``: hard conflicts involving a proposed session that did not exist before the
    change (a clash that was already there does not block an unrelated edit), and every soft conflict
    involving a proposed session (the write's ``warnings``). 6 queries whatever the size.
    """
    if not proposed:
        return [], []
    ids = {s.id for s in proposed}
    everything = list(proposed) + list(originals)
    others = load_neighbourhood(org, everything, exclude_ids=ids)
    lo, hi = _week_range(s.date for s in everything)
    teacher_ids = {s.teacher_id for s in everything if s.teacher_id is not None}
    data = load_data(org, lo, hi, teacher_ids)
    after = detect(others + list(proposed), data, focus=ids)
    before_keys = {c.key for c in hard(detect(others + list(originals), data, focus=ids))} if originals else set()
    new_hard = [c for c in hard(after) if c.key not in before_keys]
    return new_hard, soft(after)


def types_by_session(org, slots: list[Slot], *, complete_group=None) -> dict:
    """``{session_id: sorted list of conflict types}`` for ``slots`` (the rows of a list), 5 queries.

    Reads only the slots' neighbourhood (:func:`load_neighbourhood`: their block groups and rooms on
    their dates, their teachers in their weeks), so a 400-row list costs its own neighbours, not the
    organization. The answer equals a scan of every stored session restricted to ``slots``.
    ``complete_group``: a block group id whose every session on the slots' dates is among ``slots``
    (the list of ``?blockGroupId=``); its sessions are not read again.
    """
    if not slots:
        return {}
    # The engine runs on ids as text: a str caches its hash, a UUID computes it in Python at every
    # dict or set lookup (hundreds of thousands of them for a 5,000-session list, a third of the sweep).
    original = {}
    text_slots = []
    memo: dict = {None: None}

    def text(value):
        try:
            return memo[value]
        except KeyError:
            out = memo[value] = str(value)
            return out

    for s in slots:
        sid = str(s.id)
        original[sid] = s.id
        text_slots.append(
            Slot(
                sid,
                text(s.block_group_id),
                text(s.unit_id),
                text(s.teacher_id),
                s.room,
                s.date,
                s.start,
                s.end,
                s.hours,
                s.status,
                s.group_code,
                s.unit_code,
            )
        )
    others = load_neighbourhood(
        org,
        text_slots,
        codes=False,
        complete_group=None if complete_group is None else str(complete_group),
        text_ids=True,
    )
    merged = {s.id: s for s in others}
    merged.update({s.id: s for s in text_slots})
    lo, hi = _week_range(s.date for s in text_slots)
    teacher_ids = {s.teacher_id for s in slots if s.teacher_id is not None}
    data = _with_text_keys(load_data(org, lo, hi, teacher_ids))
    found = detect_types(merged.values(), data, focus=set(original))
    return {original[k]: sorted(v) for k, v in found.items()}


def _with_text_keys(data: ConflictData) -> ConflictData:
    """``data`` keyed by the text of its ids (for slots whose ids are text, see :func:`types_by_session`)."""
    return ConflictData(
        link_of={str(k): v for k, v in data.link_of.items()},
        holidays=data.holidays,
        teachers={str(k): v for k, v in data.teachers.items()},
        qualified={(str(t), str(u)) for t, u in data.qualified},
        leave={str(k): v for k, v in data.leave.items()},
        rooms=data.rooms,
        groups={str(k): v for k, v in data.groups.items()},
    )


def scan(org, start: date, end: date, *, block_group_id=None, teacher_id=None) -> list[Conflict]:
    """Every conflict touching a session dated within [start, end] (of the group / teacher when given).

    Without a filter, loads the organization's sessions of the surrounding weeks in one query and sweeps
    them (5 queries in all); with one, the group's or teacher's sessions and their neighbourhood
    (:func:`load_neighbourhood`, 6 queries). Conflicts are sorted by date then type.
    """
    lo, hi = week_start(start), week_start(end) + timedelta(days=6)
    if block_group_id is not None or teacher_id is not None:
        # One group's or teacher's conflicts: its sessions of the range and their neighbourhood only.
        q = Q(block_group_id=block_group_id) if block_group_id is not None else Q()
        if teacher_id is not None:
            q &= Q(teacher_id=teacher_id)
        mine = load_slots(org, start, end, q)
        if not mine:
            return []
        focus = {s.id for s in mine}
        merged = {s.id: s for s in load_neighbourhood(org, mine)}
        merged.update((s.id, s) for s in mine)
        teacher_ids = {s.teacher_id for s in mine if s.teacher_id is not None}
        data = load_data(org, lo, hi, teacher_ids)
        return detect(merged.values(), data, focus=focus)
    slots = load_slots(org, lo, hi)
    focus = {
        s.id
        for s in slots
        if start <= s.date <= end
        and (block_group_id is None or s.block_group_id == block_group_id)
        and (teacher_id is None or s.teacher_id == teacher_id)
    }
    if not focus:
        return []
    data = load_data(org, lo, hi, None)
    # Every loaded session in focus (the usual whole-range scan): skip the per-session focus checks.
    return detect(slots, data, focus=None if len(focus) == len(slots) else focus)
