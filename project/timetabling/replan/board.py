"""What a closure's moves read and book: the sessions of the window, holidays, teachers' leave, the block
groups hit with their unit order and last teaching day (:class:`Board`), who is busy when
(:class:`Bookings`), and the moves decided (:class:`Plan`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TYPE_CHECKING

from django.db.models import Max, Min

from project.timetabling import conflicts as cf
from project.timetabling.calendar import week_start
from project.timetabling.models import TimetableSession

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.timetabling.replan.change import Change

SEARCH_MONTHS = 3  # how far past a block group's end date a moved session may go (the end then extends)


@dataclass
class Plan:
    """Where sessions go: ``dates`` (session id -> new date) and the hit sessions left where they are
    (``unresolved``: session id -> reason); ``made_up``: the hit sessions of ``dates`` a shift placed as
    make-up classes."""

    dates: dict = field(default_factory=dict)
    unresolved: dict = field(default_factory=dict)
    made_up: set = field(default_factory=set)  # hit sessions a shift could not place, made up instead


class Board:
    """What a closure's moves read (4-5 queries): the sessions of the window, holidays, teachers' leave,
    the block groups hit, each group's unit first dates and last teaching day."""

    def __init__(self, org: Organization, change: Change, hits: list[dict], window: tuple[date, date]) -> None:
        from project.planning.days import parse_preferred_days
        from project.planning.models import BlockGroup

        self.change, self.hits = change, hits
        self.hit_ids = {s["id"] for s in hits}
        group_ids = {s["blockGroupId"] for s in hits}
        self.groups = {g.pk: g for g in BlockGroup.objects.for_org(org).filter(pk__in=group_ids)}
        self.days = {gid: set(parse_preferred_days(g.preferred_days)) for gid, g in self.groups.items()}
        lo, hi = window
        self.horizon = hi  # nothing moves past what was read
        self.slots = cf.load_slots(org, lo, hi)
        self.slot_of = {s.id: s for s in self.slots}
        self.data = cf.load_data(org, lo, hi, None)
        self.closed: set = set()
        for a, b in change.spans:
            day = a
            while day <= b:
                self.closed.add(day)
                day += timedelta(days=1)
        # The group's whole timetable (not only the window) orders its units and gives its last day.
        self.units_first: dict = {}  # (group, unit) -> first date
        self.last_day: dict = {}  # group -> last teaching day
        for gid, unit_id, first, last in (
            TimetableSession.objects.for_org(org)
            .filter(block_group_id__in=group_ids)
            .exclude(status=TimetableSession.Status.CANCELLED)
            .values("block_group_id", "unit_id")
            .annotate(first=Min("actual_date"), last=Max("actual_date"))
            .values_list("block_group_id", "unit_id", "first", "last")
        ):
            self.units_first[(gid, unit_id)] = first
            self.last_day[gid] = max(self.last_day.get(gid, last), last)
        self.teacher_names = {tid: t.name for tid, t in self.data.teachers.items()}
        self._bookings: Bookings | None = None
        # Groups generated with "start the next unit in a new week" (ADR 0015): a week holds one unit.
        self.new_week = {gid for gid, g in self.groups.items() if g.start_next_unit_in_new_week}
        self.week_units: dict = defaultdict(set)  # (group, week start) -> units taught that week
        for s in self.slots:
            if s.block_group_id in self.new_week and s.status != cf.CANCELLED and s.id not in self.hit_ids:
                self.week_units[(s.block_group_id, week_start(s.date))].add(s.unit_id)

    def week_allows(self, slot: cf.Slot, day: date) -> bool:
        """False when the group keeps one unit a week and ``day``'s week holds another unit's sessions."""
        if slot.block_group_id not in self.new_week:
            return True
        return self.week_units.get((slot.block_group_id, week_start(day)), set()) <= {slot.unit_id}

    def bookings(self) -> Bookings:
        """A fresh copy of the bookings of every session but the hit ones (built once per board)."""
        if self._bookings is None:
            self._bookings = Bookings(self.slots, self.hit_ids, self.data.online_rooms)
        return self._bookings.copy()

    def preferred(self, slot: cf.Slot) -> set:
        return self.days.get(slot.block_group_id) or {slot.date.isoweekday()}

    def end_limit(self, slot: cf.Slot) -> date:
        """The latest date a session of the group may move to: the end date (or its own date when the group
        has none) plus ``SEARCH_MONTHS``, within the dates read."""
        return min(self.horizon, cf.add_months(self.groups[slot.block_group_id].end_date or slot.date, SEARCH_MONTHS))

    def next_unit(self, slot: cf.Slot) -> date | None:
        """The first date of the earliest unit of the group that starts after ``slot``'s date."""
        later = [d for (g, u), d in self.units_first.items() if g == slot.block_group_id and u != slot.unit_id and d > slot.date]
        return min(later) if later else None

    def limit(self, slot: cf.Slot) -> date:
        """The last date the shift may give ``slot``: the day before its group's next unit starts (before
        that unit's week when the group keeps one unit a week), else :meth:`end_limit`."""
        following = self.next_unit(slot)
        if following and slot.block_group_id in self.new_week:
            following = week_start(following)
        return following - timedelta(days=1) if following else self.end_limit(slot)

    def mixed_weeks(self, group_id: object, dates: dict) -> int:
        """Weeks in which ``group_id`` teaches more than one unit once the sessions of ``dates`` (id -> date)
        have moved (0 for groups that do not keep one unit a week)."""
        if group_id not in self.new_week:
            return 0
        units: dict = defaultdict(set)
        for s in self.slots:
            if s.block_group_id == group_id and s.status != cf.CANCELLED:
                units[week_start(dates.get(s.id, s.date))].add(s.unit_id)
        return sum(1 for u in units.values() if len(u) > 1)

    def open_day(self, day: date, slot: cf.Slot, days: set | None = None) -> bool:
        """A preferred day of the group (or one of ``days``), not closed nor a holiday, the teacher not on
        leave at its time."""
        if day.isoweekday() not in (days or self.preferred(slot)) or day in self.closed or day in self.data.holidays:
            return False
        if slot.teacher_id is not None and any(
            span.covers(day, slot.start, slot.end) for span in self.data.leave.get(slot.teacher_id, ())
        ):
            return False
        return True

    def closed_name(self, day: date) -> str:
        return self.data.holidays[day].name if day in self.data.holidays else self.change.description

    def no_slot(self, slot: cf.Slot) -> str:
        following = self.next_unit(slot)
        if following:
            return f"No free slot on the group's preferred days before the next unit starts on {following.isoformat()}"
        return f"No free slot on the group's preferred days until {self.limit(slot).isoformat()}"


class Bookings:
    """Who is busy when: (kind, key, date) -> [(start, end)] for the group ("g"), teacher ("t") and room
    ("r") of the sessions booked."""

    def __init__(self, slots: Iterable[cf.Slot], exclude: set[object], online: frozenset[str] = frozenset()) -> None:
        self.busy: dict = defaultdict(list)
        self.online = online  # online rooms never clash (ADR 0019)
        for s in slots:
            if s.status != cf.CANCELLED and s.id not in exclude:
                self.book(s, s.date)

    def keys(self, slot: cf.Slot) -> list[tuple[str, object]]:
        room = cf.norm_room(slot.room)
        if room in self.online:
            room = ""
        return [k for k in (("g", slot.block_group_id), ("t", slot.teacher_id), ("r", room)) if k[1]]

    def book(self, slot: cf.Slot, day: date, add: bool = True) -> None:
        for kind, key in self.keys(slot):
            if add:
                self.busy[(kind, key, day)].append((slot.start, slot.end))
            else:
                self.busy[(kind, key, day)].remove((slot.start, slot.end))

    def copy(self) -> Bookings:
        """An independent copy (cheaper than booking every session again)."""
        out = Bookings((), set(), self.online)
        out.busy = defaultdict(list, {k: list(v) for k, v in self.busy.items()})
        return out

    def free(self, slot: cf.Slot, day: date) -> bool:
        return not any(cf.overlaps(a, b, slot.start, slot.end) for k in self.keys(slot) for a, b in self.busy.get((*k, day), ()))
