"""Reads behind the Reports screen and the teacher allocation grid (delivery.md §2 Reports, §3 Report
responses and Allocation grid response, §9; decisions.md §2 and §5).

Definitions used by every figure here:

- **Hours** are sums of the sessions' ``actualHours`` (decimal hours) of sessions that are not
  ``cancelled`` (decisions.md §2). Session counts also leave cancelled sessions out: a cancelled
  session is a holiday marker, not a class.
- **Year**: sessions whose ``actualDate`` falls in that calendar year. Years outside 2000-2100 are a 400.
- **Semester**: January to June is semester 1, July to December semester 2 (``semester_of``).
- **Term** of a date: :class:`project.timetabling.calendar.TermCalendar` (1 + the organization's term
  breaks of that year ending before the date, at most 4; quarters when the year has no term break).
  The session's stored ``term`` column is not used: the calendar is the one source of truth.
- **Weeks** run Monday to Sunday (``week_start``).
- **Evening**: a session that starts at or after 17:00 or ends after 17:00 (delivery.md §9); every
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

import calendar as pycal
import json
from datetime import date, time, timedelta
from decimal import Decimal

from django.db.models import (
    Case,
    CharField,
    Count,
    FloatField,
    IntegerField,
    Max,
    Min,
    Q,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast

from project.catalogue.models import Unit
from project.core.tenancy import get_in_org
from project.planning.models import BlockGroup
from project.staff.models import Teacher
from project.timetabling.calendar import TermCalendar, week_start
from project.timetabling.models import TimetableSession

CANCELLED = TimetableSession.Status.CANCELLED
EVENING_FROM = time(17, 0)
OVER_CAPACITY_ABOVE = 95.0  # percent (delivery.md §9)
UNDER_UTILISED_BELOW = 70.0  # percent (delivery.md §9)
TOP_TEACHERS = 5
TOP_UNITS = 8
NO_COURSE_KEY = "none"
NO_COURSE_NAME = "No course"

EVENING_Q = Q(start_time__gte=EVENING_FROM) | Q(end_time__gt=EVENING_FROM)


# ---------------------------------------------------------------- helpers


def hours(value) -> float:
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
    return f"{first or ''} {last or ''}".strip()


def initials(first: str | None, last: str | None) -> str:
    return ((first or "")[:1] + (last or "")[:1]).upper()


def year_bounds(year: int) -> tuple[date, date]:
    return date(year, 1, 1), date(year, 12, 31)


def delivered(org):
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


# ---------------------------------------------------------------- block groups without timetables


def block_groups_without_timetables(*, org) -> list[dict]:
    """Block groups of ``org`` that have no timetable session at all (of any status), by code.

    Row: id, code, name, status, startDate, endDate (null when unset), deliveryMode, studyPattern
    (the group's ``studyMode``). One query (``NOT EXISTS`` over each group's sessions, by the group index).
    """
    rows = (
        BlockGroup.objects.for_org(org)
        .exclude(sessions__isnull=False)  # NOT EXISTS over the group's own sessions (group index)
        .order_by("code")
        .values("id", "code", "name", "status", "start_date", "end_date", "delivery_mode", "study_mode")
    )
    return [
        {
            "id": r["id"],
            "code": r["code"],
            "name": r["name"],
            "status": r["status"],
            "startDate": r["start_date"],
            "endDate": r["end_date"],
            "deliveryMode": r["delivery_mode"],
            "studyPattern": r["study_mode"],
        }
        for r in rows
    ]


# ---------------------------------------------------------------- scheduling summary


def scheduling_summary(*, org, year: int, today: date) -> dict:
    """Scheduling Summary tab for ``year`` (delivery.md §3 "Scheduling summary").

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
    totals = {"total": total_sessions, "hours": total_hours, "upcoming": upcoming, "past": total_sessions - upcoming}

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


# ---------------------------------------------------------------- load planning


def load_planning(*, org, year: int) -> dict:
    """Load Planning tab for ``year`` (delivery.md §3 "Load planning").

    ``termData[term]["courses"][courseId]`` with courseName, courseCode, ``blockGroups[blockGroupId]``
    and totals; ``termData[term]["grandTotals"]``. Terms per ``TermCalendar`` (term breaks of the
    organization, quarters otherwise); only terms, courses and groups that have non-cancelled sessions
    in the year appear. Block groups without a course sit under the key ``"none"`` ("No course").

    Per block group and term:
    - nominalHours: the nominal hours of the distinct units the group has sessions for in that term
      (a unit delivered across two terms counts in both terms);
    - actualHours: hours of the group's sessions in that term;
    - studentCount: the group's cohortSize.
    Course totals and grand totals add these up. Keys are strings (JSON objects); courses and groups
    are ordered by code, "none" last. Four queries: term breaks, one pass over the year's sessions
    grouped by (term, block group, unit) ids, then units and block groups for names and hours.
    """
    ranges = term_ranges(TermCalendar.for_org(org), year)
    start, end = year_bounds(year)
    rows = (
        delivered(org)
        .filter(actual_date__range=(start, end))
        .annotate(term_no=term_expression(ranges))
        .values("term_no", "block_group_id", "unit_id")
        .annotate(hours=Sum("actual_hours"))
        .order_by()
    )
    per_group: dict[tuple[int, object], list[Decimal]] = {}
    nominal_of: dict | None = None
    for r in rows:
        if nominal_of is None:
            nominal_of = dict(Unit.objects.for_org(org).values_list("id", "nominal_hours"))
        acc = per_group.setdefault((r["term_no"], r["block_group_id"]), [Decimal(0), Decimal(0)])
        acc[0] += Decimal(nominal_of[r["unit_id"]] or 0)
        acc[1] += r["hours"] or Decimal(0)

    groups = {
        g["id"]: g
        for g in BlockGroup.objects.for_org(org).values(
            "id", "code", "name", "cohort_size", "course_id", "course__code", "course__name"
        )
    }

    term_data: dict[str, dict] = {}
    ordered = sorted(
        per_group.items(),
        key=lambda item: (
            item[0][0],
            groups[item[0][1]]["course_id"] is None,
            groups[item[0][1]]["course__code"] or "",
            groups[item[0][1]]["code"],
        ),
    )
    for (term, group_id), (nominal, actual) in ordered:
        g = groups[group_id]
        term_entry = term_data.setdefault(
            str(term),
            {"courses": {}, "grandTotals": {"nominalHours": 0.0, "actualHours": 0.0, "studentCount": 0}},
        )
        course_key = str(g["course_id"]) if g["course_id"] else NO_COURSE_KEY
        course = term_entry["courses"].setdefault(
            course_key,
            {
                "courseName": g["course__name"] if g["course_id"] else NO_COURSE_NAME,
                "courseCode": g["course__code"] if g["course_id"] else "",
                "blockGroups": {},
                "totals": {"nominalHours": 0.0, "actualHours": 0.0, "studentCount": 0},
            },
        )
        course["blockGroups"][str(group_id)] = {
            "blockGroupName": g["name"],
            "blockGroupCode": g["code"],
            "nominalHours": hours(nominal),
            "actualHours": hours(actual),
            "studentCount": g["cohort_size"],
        }
        for totals in (course["totals"], term_entry["grandTotals"]):
            totals["nominalHours"] = hours(Decimal(str(totals["nominalHours"])) + nominal)
            totals["actualHours"] = hours(Decimal(str(totals["actualHours"])) + actual)
            totals["studentCount"] += g["cohort_size"]
    return {"year": year, "termData": term_data}


# ---------------------------------------------------------------- teacher workload and delivery


def teacher_workload_summary(*, org, year: int) -> dict:
    """Teacher Workload Summary tab for ``year`` (delivery.md §3 "Teacher workload summary").

    Teachers (active or not) with at least one non-cancelled session in the year, by total hours
    descending (ties by name). Per teacher: teacherId, teacherName, teacherEmployeeId, isActive,
    totalHours, semester1Total (Jan-Jun), semester2Total (Jul-Dec), units[] ordered by total hours
    descending then code, each with unitCode, unitName, nominalHours, semester1Hours, semester2Hours,
    totalActualHours, blockGroups (sorted names of the groups the teacher taught it to),
    firstDeliveryDate, lastDeliveryDate.

    Top level: totalTeachers (teachers listed), totalUnitsDelivered (distinct units delivered by any
    teacher), semester1TotalHours, semester2TotalHours, totalActualHours.

    Four queries: one pass over the year's sessions grouped by (teacher, unit, block group) ids with
    the semester sums and first/last dates, then the organization's teachers, units and block groups
    for names. The grouped rows (bounded by the teaching allocations, not by sessions) are added up here.
    """
    start, end = year_bounds(year)
    mid = date(year, 7, 1)
    rows = (
        delivered(org)
        .filter(actual_date__range=(start, end), teacher__isnull=False)
        .values("teacher_id", "unit_id", "block_group_id")
        .annotate(
            s1=Sum("actual_hours", filter=Q(actual_date__lt=mid)),
            s2=Sum("actual_hours", filter=Q(actual_date__gte=mid)),
            first=Min("actual_date"),
            last=Max("actual_date"),
        )
        .order_by()
    )
    per_pair: dict[tuple, dict] = {}
    for r in rows:
        p = per_pair.setdefault(
            (r["teacher_id"], r["unit_id"]),
            {"s1": Decimal(0), "s2": Decimal(0), "first": r["first"], "last": r["last"], "groups": set()},
        )
        p["s1"] += r["s1"] or Decimal(0)
        p["s2"] += r["s2"] or Decimal(0)
        p["first"] = min(p["first"], r["first"])
        p["last"] = max(p["last"], r["last"])
        p["groups"].add(r["block_group_id"])
    if not per_pair:
        teacher_rows, unit_rows, group_names = {}, {}, {}
    else:
        teacher_rows = {
            t["id"]: t for t in Teacher.objects.for_org(org).values("id", "first_name", "last_name", "employee_id", "is_active")
        }
        unit_rows = {u["id"]: u for u in Unit.objects.for_org(org).values("id", "code", "name", "nominal_hours")}
        group_names = dict(BlockGroup.objects.for_org(org).values_list("id", "name"))

    teachers: dict[object, dict] = {}
    sums = {"s1": Decimal(0), "s2": Decimal(0)}
    units_delivered = set()
    for (teacher_id, unit_id), p in per_pair.items():
        tr, ur = teacher_rows[teacher_id], unit_rows[unit_id]
        total = p["s1"] + p["s2"]
        t = teachers.setdefault(
            teacher_id,
            {
                "teacherId": teacher_id,
                "teacherName": teacher_name(tr["first_name"], tr["last_name"]),
                "teacherEmployeeId": tr["employee_id"],
                "isActive": tr["is_active"],
                "_s1": Decimal(0),
                "_s2": Decimal(0),
                "units": [],
            },
        )
        t["_s1"] += p["s1"]
        t["_s2"] += p["s2"]
        sums["s1"] += p["s1"]
        sums["s2"] += p["s2"]
        units_delivered.add(unit_id)
        t["units"].append(
            {
                "unitCode": ur["code"],
                "unitName": ur["name"],
                "nominalHours": ur["nominal_hours"],
                "semester1Hours": hours(p["s1"]),
                "semester2Hours": hours(p["s2"]),
                "totalActualHours": hours(total),
                "blockGroups": sorted(group_names[g] for g in p["groups"]),
                "firstDeliveryDate": p["first"],
                "lastDeliveryDate": p["last"],
                "_total": total,
            }
        )
    out = []
    for t in teachers.values():
        t["units"].sort(key=lambda u: (-u["_total"], u["unitCode"]))
        for u in t["units"]:
            del u["_total"]
        s1, s2 = t.pop("_s1"), t.pop("_s2")
        t["totalHours"] = hours(s1 + s2)
        t["semester1Total"] = hours(s1)
        t["semester2Total"] = hours(s2)
        t["_total"] = s1 + s2
        out.append(t)
    out.sort(key=lambda t: (-t["_total"], t["teacherName"], str(t["teacherId"])))
    for t in out:
        del t["_total"]
    return {
        "year": year,
        "totalTeachers": len(out),
        "totalUnitsDelivered": len(units_delivered),
        "semester1TotalHours": hours(sums["s1"]),
        "semester2TotalHours": hours(sums["s2"]),
        "totalActualHours": hours(sums["s1"] + sums["s2"]),
        "teachers": out,
    }


def teacher_delivery_summary(*, org, teacher_id, year: int) -> list[dict]:
    """Unit Delivery Summary of one teacher for ``year`` (delivery.md §3 "Teacher delivery summary row").

    One row per (unit, block group) the teacher delivered non-cancelled sessions of in the year,
    ordered by first delivery date then unit code: unitCode, unitName, blockGroupCode, blockGroupName,
    nominalHours (the unit's), actualDeliveryHours, firstDeliveryDate, lastDeliveryDate.
    Raises NotFound "Teacher not found" for an unknown id or another organization's. Two queries.
    """
    teacher = get_in_org(Teacher, org, teacher_id, label="Teacher")
    start, end = year_bounds(year)
    rows = (
        delivered(org)
        .filter(teacher=teacher, actual_date__range=(start, end))
        .values(
            "unit_id",
            "unit__code",
            "unit__name",
            "unit__nominal_hours",
            "block_group_id",
            "block_group__code",
            "block_group__name",
        )
        .annotate(hours=Sum("actual_hours"), first=Min("actual_date"), last=Max("actual_date"))
        .order_by("first", "unit__code", "block_group__code")
    )
    return [
        {
            "unitCode": r["unit__code"],
            "unitName": r["unit__name"],
            "blockGroupCode": r["block_group__code"],
            "blockGroupName": r["block_group__name"],
            "nominalHours": r["unit__nominal_hours"],
            "actualDeliveryHours": hours(r["hours"]),
            "firstDeliveryDate": r["first"],
            "lastDeliveryDate": r["last"],
        }
        for r in rows
    ]


# ---------------------------------------------------------------- allocation grid


def bucket_expression(field: str, starts: list[date]) -> Case | Value:
    """SQL mapping ``field`` (a date) to the index of its bucket: bucket i holds starts[i] <= d < starts[i+1].

    A balanced tree of ``CASE WHEN d < x`` (log2(n) comparisons a row), plain SQL on every backend
    (no per-row date function: SQLite's ``django_date_trunc`` is a Python callback). The caller filters
    out dates before ``starts[0]`` and after the last bucket.
    """

    def node(lo: int, hi: int):
        if hi - lo == 1:
            return Value(lo)
        mid = (lo + hi) // 2
        return Case(
            When(**{f"{field}__lt": starts[mid]}, then=node(lo, mid)),
            default=node(mid, hi),
            output_field=IntegerField(),
        )

    return node(0, len(starts))


def grid_range(*, org, year: int, term: int | None) -> tuple[date, date] | None:
    """The dates a grid covers: the whole ``year``, or the days of ``term`` in it (None if it has none)."""
    if term is None:
        return year_bounds(year)
    return term_ranges(TermCalendar.for_org(org), year).get(term)


def _uuid_text(value: str) -> str:
    """A UUID as text with hyphens (SQLite stores 32 hex digits, PostgreSQL answers the usual form)."""
    if len(value) == 32:
        return f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}"
    return value


def grid_teachers_and_weeks(*, org, year: int, term: int | None) -> tuple[list[dict], list[dict], list[date]]:
    """The grid's teachers (all, by name: key, first_name, last_name, max_weekly_hours, is_active), the
    active ones, and the Mondays of its weeks (see :func:`allocation_grid_json`). One query, plus the term
    breaks when a term is asked."""
    span = grid_range(org=org, year=year, term=term)
    teachers = list(
        Teacher.objects.for_org(org)
        .annotate(key=Cast("id", CharField()))
        .order_by("first_name", "last_name", "id")
        .values("key", "first_name", "last_name", "max_weekly_hours", "is_active")
    )
    starts: list[date] = []
    if span is not None:
        monday = week_start(span[0])
        while monday <= span[1]:
            starts.append(monday)
            monday += timedelta(days=7)
    return teachers, [t for t in teachers if t["is_active"]], starts


def allocation_grid_json(*, org, year: int, term: int | None) -> str:
    """Teacher allocation grid as a JSON text (delivery.md §3 "Allocation grid response", §9; admin only).

    - weeks: the Monday-Sunday weeks touching the term's days (``term`` 1-4) or the year's days
      (``term`` None): weekNumber (1, 2, ... in the grid), weekStart (Monday), weekEnd (Sunday).
      Whole weeks are counted: a week that starts in December of the previous year holds all its days.
      A term without days in that year (fewer term breaks than terms) gives no weeks.
    - teachers: one row per active teacher, by name: teacherId, teacherName, maxWeeklyHours, isActive,
      yearlyStats {utilizationPercentage = hours in the grid / (maxWeeklyHours x number of weeks) x 100,
      totalHours}, and weeklyStats (one per week, in order): weekNumber, weekStart, totalHours,
      daytimeHours, eveningHours, utilizationPercentage (= totalHours / maxWeeklyHours x 100, one
      decimal), isOverCapacity (above 95 %) and sessions (the week's non-cancelled sessions by date and
      start time: id, date, startTime, endTime (HH:MM:SS), unitCode, blockGroupCode, actualHours,
      room, status).
    - summary: totalTeachers (all teachers of the organization), activeTeachers,
      overCapacityTeachers (active teachers with at least one week above 95 %), underUtilizedTeachers
      (active teachers whose yearlyStats utilisation is below 70 %), averageUtilization (mean of the
      active teachers' yearlyStats utilisation, one decimal; 0 without active teachers).

    Hours per week come from one grouped query (teacher x week bucket, ``SUM`` with an evening
    ``FILTER``); the session lists from one query of plain text columns written straight into the
    JSON answer (unit and group codes from the organization's lists), so a year of 30,000 sessions
    is answered without building and serialising a Python object per session. Six queries at most (term breaks when a
    term is asked, teachers, weekly sums, units, block groups, sessions).
    """
    teachers, active, starts = grid_teachers_and_weeks(org=org, year=year, term=term)

    weekly: dict[tuple[str, int], tuple[float, float]] = {}
    sessions_by: dict[tuple[str, int], list[tuple[str, str]]] = {}
    if starts and active:
        grid_start, grid_end = starts[0], starts[-1] + timedelta(days=6)
        # Inactive teachers' rows are fetched and left unused: cheaper than joining the teacher table.
        in_grid = delivered(org).filter(actual_date__range=(grid_start, grid_end), teacher__isnull=False)
        for tid, idx, total, evening in (
            in_grid.annotate(tid=Cast("teacher_id", CharField()), wk=bucket_expression("actual_date", starts))
            .values("tid", "wk")
            .annotate(
                total=Cast(Sum("actual_hours"), FloatField()),
                evening=Cast(Sum("actual_hours", filter=EVENING_Q), FloatField()),
            )
            .order_by()
            .values_list("tid", "wk", "total", "evening")
        ):
            weekly[(tid, idx)] = (total or 0.0, evening or 0.0)

        week_of = {}
        day = grid_start
        while day <= grid_end:
            week_of[day.isoformat()] = (day - grid_start).days // 7
            day += timedelta(days=1)
        # Codes as JSON strings by id (as text): joining units and groups per session costs more.
        unit_code = {
            k: json.dumps(c) for k, c in Unit.objects.for_org(org).annotate(k=Cast("id", CharField())).values_list("k", "code")
        }
        group_code = {
            k: json.dumps(c)
            for k, c in BlockGroup.objects.for_org(org).annotate(k=Cast("id", CharField())).values_list("k", "code")
        }
        # Every column as text (no per-value conversion); the JSON is written here, with the codes,
        # rooms and statuses escaped once per distinct value.
        text = CharField()
        rows = (
            in_grid.annotate(
                tid=Cast("teacher_id", text),
                day=Cast("actual_date", text),  # ISO 8601 on SQLite and with PostgreSQL's default DateStyle (ISO)
                sid=Cast("id", text),
                uid=Cast("unit_id", text),
                gid=Cast("block_group_id", text),
                st=Cast("start_time", text),
                et=Cast("end_time", text),
                h=Cast("actual_hours", text),  # a JSON number as it is: "3" (SQLite) or "3.00" (PostgreSQL)
            )
            # Unordered: sorting 30,000 wide rows costs the database more than sorting each small
            # teacher-week list here (by date, start time, id: the fixed-width text sorts the same).
            .order_by()
            .values_list("tid", "day", "sid", "uid", "gid", "st", "et", "h", "room", "status")
        )
        quoted: dict[str, str] = {}
        for tid, day_text, sid, uid, gid, st, et, h, room, status in rows:
            if len(sid) == 32:  # SQLite keeps UUIDs as 32 hex digits: answer the usual hyphenated form
                sid = f"{sid[:8]}-{sid[8:12]}-{sid[12:16]}-{sid[16:20]}-{sid[20:]}"
            room_json = quoted.get(room)
            if room_json is None:
                room_json = quoted[room] = json.dumps(room)
            status_json = quoted.get(status)
            if status_json is None:
                status_json = quoted[status] = json.dumps(status)
            key = (tid, week_of[day_text])
            bucket = sessions_by.get(key)
            if bucket is None:
                bucket = sessions_by[key] = []
            bucket.append(
                (
                    day_text + st + sid,
                    f'{{"id":"{sid}","date":"{day_text}","startTime":"{st[:8]}","endTime":"{et[:8]}",'
                    f'"unitCode":{unit_code[uid]},"blockGroupCode":{group_code[gid]},"actualHours":{h},'
                    f'"room":{room_json},"status":{status_json}}}',
                )
            )

    # The answer is written as JSON text directly: 150 teachers x 53 weeks of small objects around
    # the session objects written above.
    week_heads = [(f'{{"weekNumber":{i + 1},"weekStart":"{m.isoformat()}",') for i, m in enumerate(starts)]
    teacher_parts = []
    over = under = 0
    util_sum = 0.0
    for t in active:
        key = t["key"]
        cap = t["max_weekly_hours"] or 0
        teacher_total = 0.0
        any_over = False
        cells = []
        for idx, head in enumerate(week_heads):
            total, evening = weekly.get((key, idx), (0.0, 0.0))
            teacher_total += total
            util = round(total / cap * 100, 1) if cap else 0.0
            is_over = util > OVER_CAPACITY_ABOVE
            any_over = any_over or is_over
            listed = sessions_by.get((key, idx))
            if listed:
                listed.sort()
                listed = [text for _, text in listed]
            cells.append(
                f'{head}"totalHours":{round(total, 2)},"daytimeHours":{round(total - evening, 2)},'
                f'"eveningHours":{round(evening, 2)},"utilizationPercentage":{util},'
                f'"isOverCapacity":{"true" if is_over else "false"},'
                f'"sessions":[{",".join(listed) if listed else ""}]}}'
            )
        yearly = percent(teacher_total, cap * len(starts))
        over += any_over
        under += yearly < UNDER_UTILISED_BELOW
        util_sum += yearly
        head = json.dumps(
            {
                "teacherId": _uuid_text(key),
                "teacherName": teacher_name(t["first_name"], t["last_name"]),
                "maxWeeklyHours": cap,
                "isActive": True,
                "yearlyStats": {"utilizationPercentage": yearly, "totalHours": round(teacher_total, 2)},
            },
            separators=(",", ":"),
        )
        teacher_parts.append(head[:-1] + ',"weeklyStats":[' + ",".join(cells) + "]}")
    summary = {
        "totalTeachers": len(teachers),
        "activeTeachers": len(active),
        "overCapacityTeachers": over,
        "underUtilizedTeachers": under,
        "averageUtilization": round(util_sum / len(active), 1) if active else 0.0,
    }
    weeks = [
        {"weekNumber": i + 1, "weekStart": m.isoformat(), "weekEnd": (m + timedelta(days=6)).isoformat()}
        for i, m in enumerate(starts)
    ]
    head = json.dumps({"year": year, "term": term, "summary": summary, "weeks": weeks}, separators=(",", ":"))
    return head[:-1] + ',"teachers":[' + ",".join(teacher_parts) + "]}"


def allocation_grid(*, org, year: int, term: int | None) -> dict:
    """:func:`allocation_grid_json` parsed: the same answer as Python objects (tests, exports)."""
    return json.loads(allocation_grid_json(org=org, year=year, term=term))
