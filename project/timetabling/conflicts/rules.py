"""The rules of the conflict engine, pure (no database): conflict types and severities, the facts a rule reads (:class:`Slot`, :class:`ConflictData`), and :func:`detect` / :func:`detect_types`. See :mod:`project.timetabling.conflicts`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from operator import attrgetter
from typing import TYPE_CHECKING, TypeAlias, TypeVar, cast

from project.staff.availability.patterns import Availability
from project.timetabling.calendar import HolidaySpan, week_start

if TYPE_CHECKING:  # pragma: no cover
    from project.timetabling.models import TimetableSession

_T = TypeVar("_T", time, datetime)

TEACHER_DOUBLE_BOOKED = "teacher_double_booked"
GROUP_DOUBLE_BOOKED = "group_double_booked"
ROOM_DOUBLE_BOOKED = "room_double_booked"
HOLIDAY = "holiday"
TEACHER_OVER_CAPACITY = "teacher_over_capacity"
TEACHER_UNQUALIFIED = "teacher_unqualified"
TEACHER_UNAVAILABLE = "teacher_unavailable"
TEACHER_INACTIVE = "teacher_inactive"
TEACHER_CONTRACT_EXPIRED = "teacher_contract_expired"
TEACHER_ON_LEAVE = "teacher_on_leave"  # ADR 0014
ROOM_OVER_CAPACITY = "room_over_capacity"  # ADR 0019
ROOM_OTHER_CAMPUS = "room_other_campus"  # ADR 0019
# A painted availability pattern, its limits and campuses (ADR 0027).
TEACHER_OUTSIDE_AVAILABILITY = "teacher_outside_availability"
TEACHER_OVER_DAILY_HOURS = "teacher_over_daily_hours"
TEACHER_OVER_WEEKLY_HOURS = "teacher_over_weekly_hours"
TEACHER_OVER_DAYS = "teacher_over_days"
TEACHER_OTHER_CAMPUS = "teacher_other_campus"

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
    TEACHER_OUTSIDE_AVAILABILITY: HARD,
    TEACHER_OVER_DAILY_HOURS: HARD,
    TEACHER_OVER_WEEKLY_HOURS: HARD,
    TEACHER_OVER_DAYS: HARD,
    TEACHER_OTHER_CAMPUS: HARD,
}
# The per-teacher limits of ADR 0027, checked over a day or a week of the teacher's sessions.
LIMIT_TYPES = (TEACHER_OVER_DAILY_HOURS, TEACHER_OVER_WEEKLY_HOURS, TEACHER_OVER_DAYS)
CANCELLED = "cancelled"
EVENING_FROM = time(17, 0)


# --------------------------------------------------------------------------------------------- pure


def overlaps(a_start: _T, a_end: _T, b_start: _T, b_end: _T) -> bool:
    """True when [a_start, a_end) and [b_start, b_end) share time (any comparable values: time, datetime)."""
    return a_start < b_end and b_start < a_end


def is_evening(start: time, end: time) -> bool:
    """Evening session (docs/behaviour/conflicts.md §3): starts at or after 17:00 or ends after 17:00."""
    return start >= EVENING_FROM or end > EVENING_FROM


def co_delivered(group_a: object, group_b: object, link_of: Mapping[object, object]) -> bool:
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

    def with_ids(self, id: object, block_group_id: object, unit_id: object, teacher_id: object | None) -> Slot:
        """This slot under other ids (the engine's text ids, or another teacher); time, room, hours,
        status and codes kept. Built directly: the check loops call it for every slot of a list."""
        return Slot(
            id,
            block_group_id,
            unit_id,
            teacher_id,
            self.room,
            self.date,
            self.start,
            self.end,
            self.hours,
            self.status,
            self.group_code,
            self.unit_code,
        )

    @classmethod
    def of(cls, s: TimetableSession) -> Slot:
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
    # The availability pattern, limits and campuses (ADR 0027); None: the word alone.
    avail: Availability | None = None


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
        # Part-day leave has both times (leave_check_times), whole-day leave neither.
        return self.start_time is None or overlaps(self.start_time, cast(time, self.end_time), start, end)


@dataclass(slots=True)
class RoomFacts:
    """A recorded room (ADR 0019), found by its code as sessions spell it (``norm_room``)."""

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
    def online_rooms(self) -> frozenset[str]:
        """Rooms that never clash: online rooms hold any number of classes at once."""
        return frozenset(k for k, r in self.rooms.items() if r.type == "online")

    def leave_of(self, teacher_id: object, slot: Slot) -> LeaveSpan | None:
        """The leave of ``teacher_id`` that ``slot``'s time falls in, if any."""
        for span in self.leave.get(teacher_id, ()):
            if span.covers(slot.date, slot.start, slot.end):
                return span
        return None


# What a per-session rule found besides the slot: the holiday, the leave, or the room and the block group's
# (cohort size, campus id, campus name); None for the teacher rules.
RoomDetail: TypeAlias = "tuple[RoomFacts, tuple[int, object, str]]"
RuleDetail: TypeAlias = "HolidaySpan | LeaveSpan | RoomDetail | None"


@dataclass
class Conflict:
    type: str
    severity: str
    session_ids: list
    message: str
    date: date | None = None

    @property
    def key(self) -> tuple[str, frozenset[str]]:
        return (self.type, frozenset(str(i) for i in self.session_ids))

    def to_dict(self) -> dict[str, object]:
        """``{type, severity, sessionIds, message, date}`` as in the 409 and /conflicts answers."""
        return {
            "type": self.type,
            "severity": self.severity,
            "sessionIds": [str(i) for i in self.session_ids],
            "message": self.message,
            "date": self.date.isoformat() if self.date else None,
        }


_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _hm(t: time) -> str:
    return f"{t.hour:02d}:{t.minute:02d}"


def _teacher_name(data: ConflictData, teacher_id: object) -> str:
    t = data.teachers.get(teacher_id)
    return t.name if t is not None else "The teacher"


def _pair_clashes(
    active: list[Slot], link_of: Mapping[object, object], focus: set[object] | None, online: frozenset[str] = frozenset()
) -> Iterator[tuple[str, Slot, Slot, date]]:
    """``(type, earlier, later, date)`` for every overlapping pair of one block group, teacher or room on
    one date (docs/behaviour/conflicts.md §1); with ``focus`` only pairs with a focus slot. One sweep per bucket in
    start order, so O(n log n) plus the pairs found."""
    groups: defaultdict[tuple[str, date, object], list[Slot]] = defaultdict(list)
    teachers: defaultdict[tuple[str, date, object], list[Slot]] = defaultdict(list)
    rooms: defaultdict[tuple[str, date, object], list[Slot]] = defaultdict(list)
    hot: set[tuple[str, date, object]] | None = None if focus is None else set()  # bucket keys holding a focus slot
    for s in active:
        infocus = hot is not None and s.id in focus
        key = ("g", s.date, s.block_group_id)
        groups[key].append(s)
        if infocus:
            hot.add(key)
        if s.teacher_id is not None:
            key = ("t", s.date, s.teacher_id)
            teachers[key].append(s)
            if infocus:
                hot.add(key)
        room = norm_room(s.room)
        if room and room not in online:
            key = ("r", s.date, room)
            rooms[key].append(s)
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


def _session_rules(
    active: list[Slot], data: ConflictData, focus: set[object] | None
) -> Iterator[tuple[str, Slot, TeacherFacts | None, RuleDetail]]:
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
            if group is not None and room is not None and room.type != "online":
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
        avail = t.avail
        if avail is not None:
            if avail.campus_ids:
                group = groups.get(s.block_group_id)
                if group is not None and not avail.teaches_at(group[1]):
                    yield TEACHER_OTHER_CAMPUS, s, t, None
            if avail.custom and not avail.available(s.date, s.start, s.end):
                yield TEACHER_OUTSIDE_AVAILABILITY, s, t, None
        if (avail is None or not avail.custom) and t.availability != "both":
            evening = is_evening(s.start, s.end)
            if (t.availability == "day" and evening) or (t.availability == "evening" and not evening):
                yield TEACHER_UNAVAILABLE, s, t, None
        if not t.is_active:
            yield TEACHER_INACTIVE, s, t, None
        if t.employment_type == "fixed_term" and t.expiry_date is not None and s.date > t.expiry_date:
            yield TEACHER_CONTRACT_EXPIRED, s, t, None


def _over_capacity(
    active: list[Slot], data: ConflictData, focus: set[object] | None
) -> Iterator[tuple[TeacherFacts, date, list[Slot], float]]:
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


def _limits(
    active: list[Slot], data: ConflictData, focus: set[object] | None
) -> Iterator[tuple[str, TeacherFacts, date, list[Slot], float]]:
    """``(type, teacher facts, date or monday, slots by date and start, figure)`` for each teacher day
    over ``maxHoursPerDay`` (figure: hours), week over ``maxHoursPerWeek`` (hours) or over
    ``maxDaysPerWeek`` (figure: days taught) with a focus slot (ADR 0027). Co-delivered sessions of linked
    groups count once."""
    teachers = data.teachers
    limited = {tid for tid, t in teachers.items() if t.avail is not None and _has_limits(t.avail)}
    if not limited:
        return
    weeks: dict[tuple, list[Slot]] = defaultdict(list)
    for s in active:
        if s.teacher_id in limited:
            weeks[(s.teacher_id, week_start(s.date))].append(s)
    link_of = data.link_of
    for (teacher_id, monday), items in weeks.items():
        if focus is not None and focus.isdisjoint([s.id for s in items]):
            continue
        t = teachers[teacher_id]
        avail = cast(Availability, t.avail)
        items.sort(key=lambda s: (s.date, s.start))
        seen: set = set()
        by_day: dict[date, list[Slot]] = defaultdict(list)
        hours_of: dict[date, float] = defaultdict(float)
        for s in items:
            by_day[s.date].append(s)
            link = link_of.get(s.block_group_id)
            key = (s.date, s.start, s.end, link) if link is not None else (s.id,)
            if key in seen:
                continue
            seen.add(key)
            hours_of[s.date] += s.hours
        if avail.max_hours_per_day is not None:
            for day, day_items in by_day.items():
                if hours_of[day] > avail.max_hours_per_day + 1e-9 and (
                    focus is None or not focus.isdisjoint(x.id for x in day_items)
                ):
                    yield TEACHER_OVER_DAILY_HOURS, t, day, day_items, hours_of[day]
        total = sum(hours_of.values())
        if avail.max_hours_per_week is not None and total > avail.max_hours_per_week + 1e-9:
            yield TEACHER_OVER_WEEKLY_HOURS, t, monday, items, total
        if avail.max_days_per_week is not None and len(by_day) > avail.max_days_per_week:
            yield TEACHER_OVER_DAYS, t, monday, items, float(len(by_day))


def _has_limits(a: Availability) -> bool:
    return a.max_hours_per_day is not None or a.max_hours_per_week is not None or a.max_days_per_week is not None


def _limit_message(kind: str, t: TeacherFacts, day: date, figure: float) -> str:
    avail = cast(Availability, t.avail)
    if kind == TEACHER_OVER_DAILY_HOURS:
        return f"{t.name} has {figure:g} hours on {day.isoformat()} (maximum {avail.max_hours_per_day:g} a day)"
    if kind == TEACHER_OVER_WEEKLY_HOURS:
        return f"{t.name} has {figure:g} hours in the week of {day.isoformat()} (maximum {avail.max_hours_per_week:g} a week)"
    return f"{t.name} teaches on {figure:g} days in the week of {day.isoformat()} (maximum {avail.max_days_per_week} days)"


def _pair_message(kind: str, o: Slot, s: Slot, day: date, data: ConflictData) -> str:
    times = f"({_hm(o.start)}-{_hm(o.end)} and {_hm(s.start)}-{_hm(s.end)})"
    if kind == GROUP_DOUBLE_BOOKED:
        return f"Block group {s.group_code or s.block_group_id} has overlapping sessions on {day.isoformat()} {times}"
    if kind == TEACHER_DOUBLE_BOOKED:
        return f"{_teacher_name(data, s.teacher_id)} is booked in two overlapping sessions on {day.isoformat()} {times}"
    return f"Room {s.room.strip()} is booked twice on {day.isoformat()} {times}"


def _session_message(kind: str, s: Slot, t: TeacherFacts | None, span: RuleDetail) -> str:
    if kind == HOLIDAY:
        return f"Session on {s.date.isoformat()} falls on {cast(HolidaySpan, span).name}"
    if kind == ROOM_OVER_CAPACITY:
        room, (cohort, _campus, _name) = cast(RoomDetail, span)
        return f"Room {room.code} seats {room.capacity}; block group {s.group_code or s.block_group_id} has {cohort} students"
    if kind == ROOM_OTHER_CAMPUS:
        room, (_cohort, _campus, name) = cast(RoomDetail, span)
        return f"Room {room.code} is at {room.campus_name}; block group {s.group_code or s.block_group_id} is taught at {name}"
    if kind == TEACHER_ON_LEAVE:
        name = t.name if t is not None else "The teacher"
        leave = cast(LeaveSpan, span)  # part-day leave has both times (leave_check_times)
        hours = f" {_hm(leave.start_time)}-{_hm(cast(time, leave.end_time))}" if leave.start_time is not None else ""
        reason = f" ({leave.reason})" if leave.reason else ""
        return f"{name} is on leave on {s.date.isoformat()}{hours}{reason}"
    if kind == TEACHER_UNQUALIFIED:
        return f"{t.name} holds no qualification for unit {s.unit_code}".rstrip()
    if kind == TEACHER_UNAVAILABLE:
        evening = is_evening(s.start, s.end)
        return (
            f"{t.name} is available for {t.availability} sessions only "
            f"({_hm(s.start)}-{_hm(s.end)} is {'an evening' if evening else 'a day'} session)"
        )
    if kind == TEACHER_OUTSIDE_AVAILABILITY:
        return f"{t.name} is not available on {_DAYS[s.date.weekday()]} {s.date.isoformat()} {_hm(s.start)}-{_hm(s.end)}"
    if kind == TEACHER_OTHER_CAMPUS:
        return f"{t.name} does not teach at the campus of block group {s.group_code or s.block_group_id}"
    if kind == TEACHER_INACTIVE:
        return f"{t.name} is inactive"
    return f"{t.name}'s contract expires on {t.expiry_date.isoformat()}"


def detect(slots: Iterable[Slot], data: ConflictData, focus: set | None = None, *, messages: bool = True) -> list[Conflict]:
    """All conflicts among ``slots`` (docs/behaviour/conflicts.md §1); with ``focus`` only those touching a focus id.

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
    for kind, t, day, items, figure in _limits(active, data, focus):
        out.append(Conflict(kind, HARD, [s.id for s in items], _limit_message(kind, t, day, figure) if messages else "", day))
    out.sort(key=lambda c: (c.date or date.min, c.type))
    return out


def detect_types(slots: Iterable[Slot], data: ConflictData, focus: set[object]) -> dict[object, set[str]]:
    """``{focus id: set of conflict types}`` of the conflicts :func:`detect` finds (the same rules and
    answers), without building a Conflict per pair: a list row needs only its types, and a crowded
    block group of 5,000 sessions has tens of thousands of clashing pairs."""
    active = [s for s in slots if s.status != CANCELLED]
    types: dict[object, set[str]] = {sid: set() for sid in focus}
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
    for kind, _t, _day, items, _figure in _limits(active, data, focus):
        for s in items:
            if s.id in types:
                types[s.id].add(kind)
    return types


def hard(conflicts: Iterable[Conflict]) -> list[Conflict]:
    return [c for c in conflicts if c.severity == HARD]


def soft(conflicts: Iterable[Conflict]) -> list[Conflict]:
    return [c for c in conflicts if c.severity == SOFT]
