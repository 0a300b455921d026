"""Definitions and helpers shared by the reports; reads behind the Reports screen and the teacher allocation grid (docs/behaviour/reports.md;
docs/behaviour/allocation.md §4, §5; docs/behaviour/hours.md §2; docs/behaviour/terms-and-holidays.md).

Definitions used by every figure here:

- **Hours** are sums of the sessions' ``actualHours`` (decimal hours) of sessions that are not
  ``cancelled`` (docs/behaviour/hours.md §2). Session counts also leave cancelled sessions out: a cancelled
  session is a holiday marker, not a class.
- **Year**: sessions whose ``actualDate`` falls in that calendar year. Years outside 2000-2100 are a 400.
- **Semester**: January to June is semester 1, July to December semester 2 (``semester_of``).
- **Term** of a date: :class:`project.timetabling.calendar.TermCalendar` (1 + the organization's term
  breaks of that year ending before the date, at most 4; quarters when the year has no term break).
  The session's stored ``term`` column is not used: the calendar is the one source of truth.
- **Weeks** run Monday to Sunday (``week_start``).
- **Evening**: a session that starts at or after 17:00 or ends after 17:00 (docs/behaviour/conflicts.md §3); every
  other session is daytime.
- Dates are ``YYYY-MM-DD``; times are the organization's wall-clock ``HH:MM:SS``.

Every figure is computed by the database (``values()`` + ``annotate(Sum/Count/Min/Max)``,
``Case``/``When`` mapping dates to terms, months and weeks with plain date comparisons, portable
to SQLite and PostgreSQL and free of per-row Python callbacks); Python only adds up and ranks the
already-grouped rows (one per teacher, unit, pair or week, never one per session). The allocation
grid's session lists are the only per-session rows read, to be listed, not counted. Each selector
runs a fixed number of queries whatever the number of sessions.
"""

from __future__ import annotations

from datetime import date, time, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db.models import (
    Case,
    IntegerField,
    Q,
    Value,
    When,
)

from project.staff.models import Teacher
from project.timetabling.calendar import TermCalendar
from project.timetabling.models import TimetableSession

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.core.models import TenantQuerySet

CANCELLED = TimetableSession.Status.CANCELLED
EVENING_FROM = time(17, 0)
OVER_CAPACITY_ABOVE = 95.0  # percent (docs/behaviour/allocation.md §4)
UNDER_UTILISED_BELOW = 70.0  # percent (docs/behaviour/allocation.md §4)
TOP_TEACHERS = 5
TOP_UNITS = 8
NO_COURSE_KEY = "none"
NO_COURSE_NAME = "No course"

EVENING_Q = Q(start_time__gte=EVENING_FROM) | Q(end_time__gt=EVENING_FROM)


# ---------------------------------------------------------------- helpers


def hours(value: Decimal | float | None) -> float:
    """A Decimal/None sum of hours as a JSON number with at most 2 decimals."""
    if value is None:
        return 0.0
    return float(Decimal(value).quantize(Decimal("0.01")))


def percent(part: float, whole: float) -> float:
    """``part / whole * 100`` with one decimal; 0 when ``whole`` is 0."""
    if not whole:
        return 0.0
    return round(part / whole * 100, 1)


def teacher_name(first: str | None, last: str | None) -> str:
    return Teacher.name_of(first, last)


def initials(first: str | None, last: str | None) -> str:
    return ((first or "")[:1] + (last or "")[:1]).upper()


def year_bounds(year: int) -> tuple[date, date]:
    return date(year, 1, 1), date(year, 12, 31)


def delivered(org: Organization) -> TenantQuerySet[TimetableSession]:
    """Sessions of ``org`` that count for hours: every status except cancelled."""
    return TimetableSession.objects.for_org(org).exclude(status=CANCELLED)


def term_ranges(calendar: TermCalendar, year: int) -> dict[int, tuple[date, date]]:
    """Term number -> (first day, last day) of that term in ``year``, per ``calendar.term_of``.

    A term that has no day in the year (fewer breaks than terms) is absent. Terms are contiguous
    because ``term_of`` never decreases through a year.
    """
    out: dict[int, tuple[date, date]] = {}
    day, last = year_bounds(year)
    while day <= last:
        term = calendar.term_of(day)
        first = out.get(term, (day, day))[0]
        out[term] = (first, day)
        day += timedelta(days=1)
    return out


def term_expression(ranges: dict[int, tuple[date, date]]) -> Case:
    """SQL ``CASE`` mapping ``actual_date`` to its term number (portable: plain date comparisons)."""
    whens = [When(actual_date__range=span, then=Value(term)) for term, span in sorted(ranges.items())]
    return Case(*whens, default=Value(0), output_field=IntegerField())


def bucket_expression(field: str, starts: list[date]) -> Case | Value:
    """SQL mapping ``field`` (a date) to the index of its bucket: bucket i holds starts[i] <= d < starts[i+1].

    A balanced tree of ``CASE WHEN d < x`` (log2(n) comparisons a row), plain SQL on every backend
    (no per-row date function: SQLite's ``django_date_trunc`` is a Python callback). The caller filters
    out dates before ``starts[0]`` and after the last bucket.
    """

    def node(lo: int, hi: int) -> Case | Value:
        if hi - lo == 1:
            return Value(lo)
        mid = (lo + hi) // 2
        return Case(
            When(**{f"{field}__lt": starts[mid]}, then=node(lo, mid)),
            default=node(mid, hi),
            output_field=IntegerField(),
        )

    return node(0, len(starts))
