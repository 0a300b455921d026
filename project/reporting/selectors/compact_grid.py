"""The compact teacher allocation grid (docs/adr/0010).

``GET /api/teachers/allocation-gantt`` (docs/behaviour/allocation.md §5) lists every session of every teacher-week: for a
year of a large provider that is 8 MB of JSON built in Python (about 0.4 s). The SPA's grid needs per
teacher and week only hours, utilisation and how many daytime and evening sessions there are; it loads a
cell's sessions when the user opens it. So:

- :func:`allocation_grid_compact` (``GET /api/teachers/allocation-grid``): the same summary and weeks as
  the documented grid, and per active teacher arrays indexed like ``weeks``: ``totalHours``,
  ``eveningHours``, ``utilizationPercentage``, ``sessions`` and ``eveningSessions`` (counts). Two
  queries (teachers; one grouped query of sums and counts per teacher and week), plus the term breaks
  when a term is asked.
- :func:`week_sessions` (``GET /api/teachers/{id}/allocation-week?weekStart=``): one teacher-week's
  sessions in the documented grid's session shape.

The documented grid is unchanged; both answers agree with it (tests/reporting/test_allocation_grid_compact.py).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING
from uuid import UUID

from django.db import connection
from django.db.models import Case, CharField, Count, FloatField, IntegerField, Sum, Value
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast

from project.core.tenancy import get_in_org
from project.reporting.selectors.common import (
    EVENING_Q,
    OVER_CAPACITY_ABOVE,
    UNDER_UTILISED_BELOW,
    bucket_expression,
    delivered,
    percent,
    teacher_name,
)
from project.reporting.selectors.grid import _uuid_text, grid_teachers_and_weeks
from project.staff.models import Teacher
from project.timetabling.calendar import week_start

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization


def _week_index(first_monday: date) -> RawSQL | Case | Value:
    """The week of ``actual_date`` counted from ``first_monday`` (0, 1, ...): date arithmetic in the
    database, one subtraction per row instead of a CASE over every week."""
    if connection.vendor == "postgresql":
        return RawSQL("((actual_date - %s::date) / 7)", [first_monday], output_field=IntegerField())
    if connection.vendor == "sqlite":
        return RawSQL(
            "(CAST(julianday(actual_date) - julianday(%s) AS INTEGER) / 7)",
            [first_monday.isoformat()],
            output_field=IntegerField(),
        )
    return bucket_expression("actual_date", [first_monday + timedelta(days=7 * i) for i in range(60)])


def allocation_grid_compact(*, org: Organization, year: int, term: int | None) -> dict:
    """``{year, term, summary, weeks, teachers: [{teacherId, teacherName, maxWeeklyHours, isActive,
    yearlyStats: {utilizationPercentage, totalHours}, totalHours: [..], eveningHours: [..],
    utilizationPercentage: [..], sessions: [..], eveningSessions: [..]}]}``; arrays follow ``weeks``.
    Hours are decimal hours; utilisation in percent with one decimal; weeks are Monday-Sunday."""
    teachers, active, starts = grid_teachers_and_weeks(org=org, year=year, term=term)
    cells: dict[tuple[str, int], tuple[float, float, int, int]] = {}
    if starts and active:
        grid_end = starts[-1] + timedelta(days=6)
        in_grid = delivered(org).filter(actual_date__range=(starts[0], grid_end), teacher__isnull=False)
        for tid, idx, total, evening, n, n_evening in (
            in_grid.annotate(tid=Cast("teacher_id", CharField()), wk=_week_index(starts[0]))
            .values("tid", "wk")
            .annotate(
                total=Cast(Sum("actual_hours"), FloatField()),
                evening=Cast(Sum("actual_hours", filter=EVENING_Q), FloatField()),
                n=Count("id"),
                n_evening=Count("id", filter=EVENING_Q),
            )
            .order_by()
            .values_list("tid", "wk", "total", "evening", "n", "n_evening")
        ):
            cells[(tid, idx)] = (total or 0.0, evening or 0.0, n, n_evening)
    rows = []
    over = under = 0
    util_sum = 0.0
    empty = (0.0, 0.0, 0, 0)
    for t in active:
        cap = t["max_weekly_hours"] or 0
        weekly = [cells.get((t["key"], i), empty) for i in range(len(starts))]
        totals = [round(c[0], 2) for c in weekly]
        utils = [round(c[0] / cap * 100, 1) if cap else 0.0 for c in weekly]
        teacher_total = sum(c[0] for c in weekly)
        yearly = percent(teacher_total, cap * len(starts))
        over += any(u > OVER_CAPACITY_ABOVE for u in utils)
        under += yearly < UNDER_UTILISED_BELOW
        util_sum += yearly
        rows.append(
            {
                "teacherId": _uuid_text(t["key"]),
                "teacherName": teacher_name(t["first_name"], t["last_name"]),
                "maxWeeklyHours": cap,
                "isActive": True,
                "yearlyStats": {"utilizationPercentage": yearly, "totalHours": round(teacher_total, 2)},
                "totalHours": totals,
                "eveningHours": [round(c[1], 2) for c in weekly],
                "utilizationPercentage": utils,
                "sessions": [c[2] for c in weekly],
                "eveningSessions": [c[3] for c in weekly],
            }
        )
    return {
        "year": year,
        "term": term,
        "summary": {
            "totalTeachers": len(teachers),
            "activeTeachers": len(active),
            "overCapacityTeachers": over,
            "underUtilizedTeachers": under,
            "averageUtilization": round(util_sum / len(active), 1) if active else 0.0,
        },
        "weeks": [
            {"weekNumber": i + 1, "weekStart": m.isoformat(), "weekEnd": (m + timedelta(days=6)).isoformat()}
            for i, m in enumerate(starts)
        ],
        "teachers": rows,
    }


def week_sessions(*, org: Organization, teacher_id: UUID | str, week: date) -> list[dict]:
    """The teacher's non-cancelled sessions of the Monday-Sunday week holding ``week``, by date and start
    time, in the documented grid's session shape (id, date, startTime, endTime, unitCode,
    blockGroupCode, actualHours, room, status). NotFound "Teacher not found" for another organization's id."""
    teacher = get_in_org(Teacher, org, teacher_id, "Teacher")
    monday = week_start(week)
    rows = (
        delivered(org)
        .filter(teacher=teacher, actual_date__range=(monday, monday + timedelta(days=6)))
        .order_by("actual_date", "start_time", "id")
        .values_list(
            "id", "actual_date", "start_time", "end_time", "unit__code", "block_group__code", "actual_hours", "room", "status"
        )
    )
    return [
        {
            "id": str(i),
            "date": d.isoformat(),
            "startTime": st.strftime("%H:%M:%S"),
            "endTime": et.strftime("%H:%M:%S"),
            "unitCode": unit,
            "blockGroupCode": group,
            "actualHours": float(h),
            "room": room,
            "status": status,
        }
        for i, d, st, et, unit, group, h, room, status in rows
    ]
