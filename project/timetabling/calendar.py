"""Calendar rules shared by scheduling, conflicts and reports (docs/behaviour/terms-and-holidays.md).

- Weeks start on Monday.
- Term of a date: 1 + the number of the organization's term breaks of that calendar year that end
  before the date, at most 4; a year with no term breaks uses quarters. A break belongs to the year it
  starts in, so the summer break from December into January separates two years and is nobody's
  "end of term 1" (February is term 1 again).
- Semester: January to June is 1, July to December is 2.
- A recurring holiday repeats every year on the same month and day.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization


def week_start(day: date) -> date:
    """The Monday of ``day``'s week."""
    return day - timedelta(days=day.weekday())


def semester_of(day: date) -> int:
    return 1 if day.month <= 6 else 2


def quarter_of(day: date) -> int:
    return (day.month - 1) // 3 + 1


class TermCalendar:
    """Terms of an organization from its term breaks: ``TermCalendar(breaks).term_of(day)``.

    breaks: iterable of (start_date, end_date) of the organization's active term breaks.
    """

    def __init__(self, breaks: Iterable[tuple[date, date]]) -> None:
        self._ends_by_year: dict[int, list[date]] = {}
        for start, end in breaks:
            self._ends_by_year.setdefault(start.year, []).append(end)
        for ends in self._ends_by_year.values():
            ends.sort()

    def term_of(self, day: date) -> int:
        ends = self._ends_by_year.get(day.year)
        if not ends:
            return quarter_of(day)
        return min(4, 1 + bisect_left(ends, day))

    def has_breaks(self, year: int) -> bool:
        return bool(self._ends_by_year.get(year))

    @classmethod
    def for_org(cls, org: Organization) -> TermCalendar:
        from project.timetabling.models import Holiday

        rows = (
            Holiday.objects.for_org(org)
            .filter(type=Holiday.Type.TERM_BREAK, is_active=True)
            .values_list("start_date", "end_date")
        )
        return cls(rows)


@dataclass(frozen=True)
class HolidaySpan:
    name: str
    start: date
    end: date
    type: str


def _shift_year(day: date, year: int) -> date:
    try:
        return day.replace(year=year)
    except ValueError:  # 29 February in a common year
        return day.replace(year=year, day=28)


def holiday_spans(holidays: Iterable, start: date, end: date) -> list[HolidaySpan]:
    """Holiday spans that touch [start, end], recurring ones repeated for every year in range.

    holidays: rows with name, type, start_date, end_date, is_recurring (inactive rows filtered by caller).
    """
    spans: list[HolidaySpan] = []
    for h in holidays:
        if h.is_recurring:
            length = (h.end_date - h.start_date).days
            for year in range(start.year - 1, end.year + 1):
                s = _shift_year(h.start_date, year)
                e = s + timedelta(days=length)
                if s <= end and e >= start:
                    spans.append(HolidaySpan(h.name, s, e, h.type))
        elif h.start_date <= end and h.end_date >= start:
            spans.append(HolidaySpan(h.name, h.start_date, h.end_date, h.type))
    spans.sort(key=lambda s: (s.start, s.name))
    return spans


def holiday_by_date(spans: Iterable[HolidaySpan]) -> dict[date, HolidaySpan]:
    """Each date covered by a span -> the first span covering it."""
    out: dict[date, HolidaySpan] = {}
    for span in spans:
        day = span.start
        while day <= span.end:
            out.setdefault(day, span)
            day += timedelta(days=1)
    return out
