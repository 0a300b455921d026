"""The Scheduling Summary report (docs/behaviour/reports.md). Definitions: :mod:`project.reporting.selectors.common`."""

from __future__ import annotations

import calendar as pycal
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db.models import (
    Count,
    Q,
    Sum,
)

from project.catalogue.models import Unit
from project.planning.models import BlockGroup
from project.reporting.selectors.common import (
    TOP_TEACHERS,
    TOP_UNITS,
    bucket_expression,
    delivered,
    hours,
    teacher_name,
    year_bounds,
)
from project.staff.models import Teacher

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

# ---------------------------------------------------------------- scheduling summary


def scheduling_summary(*, org: Organization, year: int, today: date) -> dict:
    """Scheduling Summary tab for ``year`` (docs/behaviour/reports.md "Scheduling summary").

    - totalSessions / totalScheduledHours: non-cancelled sessions of the year and their hours;
      upcomingSessions (date >= ``today``, the user's today) + pastSessions (date < today) = totalSessions.
    - activeBlockGroups: groups with status active; totalBlockGroups: all groups of the organization.
    - teachersWithSchedules: active teachers with at least one session in the year; totalTeachers:
      active teachers (so the utilisation card never exceeds 100 %).
    - unitsInSchedule: distinct units with a session in the year; totalUnits: all units.
    - monthlyBreakdown: one row per month that has sessions, in order: month 'YYYY-MM', monthName,
      sessions, teachers (distinct), hours, blockGroups (distinct).
    - topTeachers: 5 by hours (ties: more sessions, then name), active or not: teacherId,
      teacherName, units (distinct), hours, sessions.
    - topUnits: 8 by hours (ties: more sessions, then code): unitId, unitCode, unitName, hours, sessions.

    Five queries, two of them over the year's sessions: one grouped by month, one grouped by
    (teacher, unit) pair, by ids only (no join per session). The totals, the per-teacher and per-unit
    figures are added up from the pair rows (at most teachers x units of them, however many sessions)
    and ranked here; names come from the organization's teacher and unit lists.
    """
    start, end = year_bounds(year)
    sessions = delivered(org).filter(actual_date__range=(start, end))

    groups = BlockGroup.objects.for_org(org).aggregate(
        total=Count("id"), active=Count("id", filter=Q(status=BlockGroup.Status.ACTIVE))
    )
    teachers = {t["id"]: t for t in Teacher.objects.for_org(org).values("id", "first_name", "last_name", "is_active")}
    units = {u["id"]: u for u in Unit.objects.for_org(org).values("id", "code", "name")}

    month_starts = [date(year, m, 1) for m in range(1, 13)]
    monthly = (
        sessions.annotate(month=bucket_expression("actual_date", month_starts))
        .values("month")
        .annotate(
            sessions=Count("id"),
            teachers=Count("teacher", distinct=True),
            hours=Sum("actual_hours"),
            groups=Count("block_group", distinct=True),
        )
        .order_by("month")
    )
    # One pass for the totals, the teachers and the units: a row per (teacher, unit) pair taught.
    pairs = (
        sessions.values("teacher_id", "unit_id")
        .annotate(hours=Sum("actual_hours"), sessions=Count("id"), upcoming=Count("id", filter=Q(actual_date__gte=today)))
        .order_by()
    )
    total_sessions = upcoming = 0
    total_hours = Decimal(0)
    by_teacher: dict = {}
    by_unit: dict = {}
    for r in pairs:
        h = r["hours"] or Decimal(0)
        total_sessions += r["sessions"]
        upcoming += r["upcoming"]
        total_hours += h
        u = by_unit.setdefault(r["unit_id"], {"unit_id": r["unit_id"], "hours": Decimal(0), "sessions": 0})
        u["hours"] += h
        u["sessions"] += r["sessions"]
        if r["teacher_id"] is not None:
            t = by_teacher.setdefault(
                r["teacher_id"], {"teacher_id": r["teacher_id"], "hours": Decimal(0), "sessions": 0, "units": 0}
            )
            t["hours"] += h
            t["sessions"] += r["sessions"]
            t["units"] += 1
    top_teachers = list(by_teacher.values())
    for r in top_teachers:
        t = teachers[r["teacher_id"]]
        r["name"] = teacher_name(t["first_name"], t["last_name"])
    top_teachers.sort(key=lambda r: (-r["hours"], -r["sessions"], r["name"], str(r["teacher_id"])))
    top_units = sorted(by_unit.values(), key=lambda r: (-r["hours"], -r["sessions"], units[r["unit_id"]]["code"]))
    totals: dict[str, int | Decimal] = {
        "total": total_sessions,
        "hours": total_hours,
        "upcoming": upcoming,
        "past": total_sessions - upcoming,
    }

    return {
        "year": year,
        "totalSessions": totals["total"],
        "totalScheduledHours": hours(totals["hours"]),
        "upcomingSessions": totals["upcoming"],
        "pastSessions": totals["past"],
        "activeBlockGroups": groups["active"],
        "totalBlockGroups": groups["total"],
        "teachersWithSchedules": sum(1 for tid in by_teacher if teachers[tid]["is_active"]),
        "totalTeachers": sum(1 for t in teachers.values() if t["is_active"]),
        "unitsInSchedule": len(by_unit),
        "totalUnits": len(units),
        "monthlyBreakdown": [
            {
                "month": f"{year:04d}-{r['month'] + 1:02d}",
                "monthName": pycal.month_name[r["month"] + 1],
                "sessions": r["sessions"],
                "teachers": r["teachers"],
                "hours": hours(r["hours"]),
                "blockGroups": r["groups"],
            }
            for r in monthly
        ],
        "topTeachers": [
            {
                "teacherId": r["teacher_id"],
                "teacherName": r["name"],
                "units": r["units"],
                "hours": hours(r["hours"]),
                "sessions": r["sessions"],
            }
            for r in top_teachers[:TOP_TEACHERS]
        ],
        "topUnits": [
            {
                "unitId": r["unit_id"],
                "unitCode": units[r["unit_id"]]["code"],
                "unitName": units[r["unit_id"]]["name"],
                "hours": hours(r["hours"]),
                "sessions": r["sessions"],
            }
            for r in top_units[:TOP_UNITS]
        ],
    }
