"""Schedule generation planner (docs/behaviour/generation.md): pure, no database access.

:func:`plan_schedule` walks the calendar from the start date over the group's preferred days and fills
the session templates with the units' remaining facilitated hours. The service
(``services.block_group_schedule``) loads what it needs in a fixed number of queries, calls it, and
bulk-inserts the result in one transaction.

Times are the organization's wall-clock times; hours are ``Decimal``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from project.timetabling.calendar import HolidaySpan, week_start
from project.timetabling.conflicts import add_months, overlaps

MAX_YEARS = 3
TOO_LONG_MESSAGE = (
    "The schedule cannot finish within 3 years of the start date. Add session templates or preferred days, "
    "or reduce the hours to schedule."
)


class ScheduleTooLong(Exception):
    """The units do not fit within 3 years of the start date (docs/behaviour/generation.md §8)."""


@dataclass(frozen=True)
class Template:
    start: time
    end: time
    duration: Decimal  # hours


@dataclass(frozen=True)
class UnitNeed:
    unit_id: object
    hours: Decimal  # facilitated hours still to timetable


@dataclass
class PlannedSession:
    unit_id: object
    date: date
    start: time
    end: time
    hours: Decimal
    cancelled: bool
    notes: str
    week_number: int
    term: int

    @property
    def day_of_week(self) -> int:
        return self.date.isoweekday()


@dataclass
class Plan:
    sessions: list[PlannedSession] = field(default_factory=list)
    holidays_skipped: list[dict] = field(default_factory=list)  # [{"date", "name"}]
    slots_skipped: int = 0  # teaching slots skipped because the group or the room was booked

    @property
    def teaching(self) -> list[PlannedSession]:
        return [s for s in self.sessions if not s.cancelled]


def _add_hours(t: time, hours: Decimal) -> time:
    minutes = int((hours * 60).to_integral_value())
    moment = datetime.combine(date(2000, 1, 1), t) + timedelta(minutes=minutes)
    if moment.date() != date(2000, 1, 1):
        return time(23, 59, 59)
    return moment.time()


def week_number(day: date, anchor: date) -> int:
    """1 for the Monday-to-Sunday week holding ``anchor``, 2 for the next, ... (0 or less before it)."""
    return (week_start(day) - week_start(anchor)).days // 7 + 1


def plan_schedule(
    *,
    units: list[UnitNeed],
    days: set[int],
    templates: list[Template],
    start: date,
    holidays: dict[date, HolidaySpan],
    group_busy: dict[date, list[tuple[time, time, bool]]],
    room_busy: dict[date, list[tuple[time, time]]],
    term_of: Callable[[date], int],
    new_week_per_unit: bool = False,
    notes: str = "",
) -> Plan:
    """Sessions for ``units`` in order (docs/behaviour/generation.md steps 2-6, 8).

    days: ISO weekdays (1 Monday .. 7 Sunday). group_busy: the group's stored sessions by date as
    (start, end, cancelled); a teaching slot is skipped when it overlaps one that is not cancelled, a
    holiday marker when it overlaps any (so generating again never duplicates markers). room_busy: the
    room's stored, not-cancelled sessions of groups not linked to this one. Raises
    :class:`ScheduleTooLong` when the units do not fit within 3 years of ``start``.
    """
    plan = Plan()
    todo = [UnitNeed(u.unit_id, Decimal(u.hours)) for u in units if u.hours > 0]
    if not todo or not days or not templates:
        return plan
    limit = add_months(start, 12 * MAX_YEARS)
    i = 0
    left = todo[0].hours
    not_before = start
    day = start
    new_by_day: dict[date, list[tuple[time, time]]] = {}

    def group_clash(d: date, s: time, e: time, *, any_status: bool) -> bool:
        for bs, be, cancelled in group_busy.get(d, ()):
            if (any_status or not cancelled) and overlaps(bs, be, s, e):
                return True
        return any(overlaps(bs, be, s, e) for bs, be in new_by_day.get(d, ()))

    def place(d: date, s: time, e: time, *, hours: Decimal, cancelled: bool, text: str) -> None:
        """Plan a session of the current unit (``todo[i]``) on ``d`` from ``s`` to ``e`` and hold that time
        for the next clash checks; a holiday marker is a cancelled session of 0 hours."""
        plan.sessions.append(PlannedSession(todo[i].unit_id, d, s, e, hours, cancelled, text, week_number(d, start), term_of(d)))
        new_by_day.setdefault(d, []).append((s, e))

    while i < len(todo):
        if day > limit:
            raise ScheduleTooLong(TOO_LONG_MESSAGE)
        if day < not_before or day.isoweekday() not in days:
            day += timedelta(days=1)
            continue
        span = holidays.get(day)
        if span is not None:
            plan.holidays_skipped.append({"date": day.isoformat(), "name": span.name})
            for tpl in templates:
                if group_clash(day, tpl.start, tpl.end, any_status=True):
                    continue
                place(day, tpl.start, tpl.end, hours=Decimal("0"), cancelled=True, text=span.name)
            day += timedelta(days=1)
            continue
        for tpl in templates:
            hours = min(tpl.duration, left)
            end = tpl.end if hours == tpl.duration else min(_add_hours(tpl.start, hours), tpl.end)
            if group_clash(day, tpl.start, end, any_status=False) or any(
                overlaps(bs, be, tpl.start, end) for bs, be in room_busy.get(day, ())
            ):
                plan.slots_skipped += 1
                continue
            place(day, tpl.start, end, hours=hours, cancelled=False, text=notes)
            left -= hours
            if left <= 0:
                i += 1
                if i >= len(todo):
                    break
                left = todo[i].hours
                if new_week_per_unit:
                    not_before = week_start(day) + timedelta(days=7)
                    break
        day += timedelta(days=1)
    return plan
