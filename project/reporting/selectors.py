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
to SQLite and PostgreSQL and free of per-row Python callbacks); Python only reshapes the
already-aggregated rows. Each selector runs a fixed number of queries whatever the number of sessions.
"""

from __future__ import annotations

import calendar as pycal
import json
import re
import uuid
from datetime import date, time, timedelta
from decimal import Decimal

from django.db.models import (
    Case, CharField, Count, Exists, IntegerField, Max, Min, OuterRef, Q, Sum, TextField, Value, When,
)
from django.db.models.functions import Cast, JSONObject

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
    (the group's ``studyMode``). One query (``NOT EXISTS`` subquery).
    """
    has_session = TimetableSession.objects.for_org(org).filter(block_group=OuterRef("pk"))
    rows = (
        BlockGroup.objects.for_org(org)
        .filter(~Exists(has_session))
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
    - topTeachers: 5 by hours (ties: more sessions, then name): teacherName, units (distinct), hours, sessions.
    - topUnits: 8 by hours (ties: more sessions, then code): unitCode, unitName, hours, sessions.

    Seven queries.
    """
    start, end = year_bounds(year)
    sessions = delivered(org).filter(actual_date__range=(start, end))

    totals = sessions.aggregate(
        total=Count("id"),
        hours=Sum("actual_hours"),
        upcoming=Count("id", filter=Q(actual_date__gte=today)),
        past=Count("id", filter=Q(actual_date__lt=today)),
        teachers=Count("teacher", distinct=True, filter=Q(teacher__is_active=True)),
        units=Count("unit", distinct=True),
    )
    groups = BlockGroup.objects.for_org(org).aggregate(
        total=Count("id"), active=Count("id", filter=Q(status=BlockGroup.Status.ACTIVE))
    )
    total_teachers = Teacher.objects.for_org(org).filter(is_active=True).count()
    total_units = Unit.objects.for_org(org).count()

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
    top_teachers = (
        sessions.filter(teacher__isnull=False)
        .values("teacher_id", "teacher__first_name", "teacher__last_name")
        .annotate(hours=Sum("actual_hours"), sessions=Count("id"), units=Count("unit", distinct=True))
        .order_by("-hours", "-sessions", "teacher__first_name", "teacher__last_name", "teacher_id")[:TOP_TEACHERS]
    )
    top_units = (
        sessions.values("unit_id", "unit__code", "unit__name")
        .annotate(hours=Sum("actual_hours"), sessions=Count("id"))
        .order_by("-hours", "-sessions", "unit__code")[:TOP_UNITS]
    )

    return {
        "year": year,
        "totalSessions": totals["total"],
        "totalScheduledHours": hours(totals["hours"]),
        "upcomingSessions": totals["upcoming"],
        "pastSessions": totals["past"],
        "activeBlockGroups": groups["active"],
        "totalBlockGroups": groups["total"],
        "teachersWithSchedules": totals["teachers"],
        "totalTeachers": total_teachers,
        "unitsInSchedule": totals["units"],
        "totalUnits": total_units,
        "monthlyBreakdown": [
            {
                "month": "%04d-%02d" % (year, r["month"] + 1),
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
                "teacherName": teacher_name(r["teacher__first_name"], r["teacher__last_name"]),
                "units": r["units"],
                "hours": hours(r["hours"]),
                "sessions": r["sessions"],
            }
            for r in top_teachers
        ],
        "topUnits": [
            {
                "unitId": r["unit_id"],
                "unitCode": r["unit__code"],
                "unitName": r["unit__name"],
                "hours": hours(r["hours"]),
                "sessions": r["sessions"],
            }
            for r in top_units
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
    are ordered by code, "none" last. Three queries (term breaks, aggregated sessions, block groups).
    """
    ranges = term_ranges(TermCalendar.for_org(org), year)
    start, end = year_bounds(year)
    rows = (
        delivered(org)
        .filter(actual_date__range=(start, end))
        .annotate(term_no=term_expression(ranges))
        .values("term_no", "block_group_id", "unit_id", "unit__nominal_hours")
        .annotate(hours=Sum("actual_hours"))
        .order_by()
    )
    per_group: dict[tuple[int, object], list[Decimal]] = {}
    for r in rows:
        acc = per_group.setdefault((r["term_no"], r["block_group_id"]), [Decimal(0), Decimal(0)])
        acc[0] += Decimal(r["unit__nominal_hours"] or 0)
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
    teacher), semester1TotalHours, semester2TotalHours, totalActualHours. Two queries.
    """
    start, end = year_bounds(year)
    mid = date(year, 7, 1)
    sessions = delivered(org).filter(actual_date__range=(start, end), teacher__isnull=False)
    rows = (
        sessions.values(
            "teacher_id",
            "teacher__first_name",
            "teacher__last_name",
            "teacher__employee_id",
            "teacher__is_active",
            "unit_id",
            "unit__code",
            "unit__name",
            "unit__nominal_hours",
        )
        .annotate(
            s1=Sum("actual_hours", filter=Q(actual_date__lt=mid)),
            s2=Sum("actual_hours", filter=Q(actual_date__gte=mid)),
            total=Sum("actual_hours"),
            first=Min("actual_date"),
            last=Max("actual_date"),
        )
        .order_by()
    )
    group_rows = sessions.values_list("teacher_id", "unit_id", "block_group__name").distinct().order_by()
    group_names: dict[tuple, set[str]] = {}
    for teacher_id, unit_id, name in group_rows:
        group_names.setdefault((teacher_id, unit_id), set()).add(name)

    teachers: dict[object, dict] = {}
    sums = {"s1": Decimal(0), "s2": Decimal(0), "total": Decimal(0)}
    units_delivered = set()
    for r in rows:
        s1, s2, total = (r["s1"] or Decimal(0)), (r["s2"] or Decimal(0)), (r["total"] or Decimal(0))
        t = teachers.setdefault(
            r["teacher_id"],
            {
                "teacherId": r["teacher_id"],
                "teacherName": teacher_name(r["teacher__first_name"], r["teacher__last_name"]),
                "teacherEmployeeId": r["teacher__employee_id"],
                "isActive": r["teacher__is_active"],
                "_s1": Decimal(0),
                "_s2": Decimal(0),
                "_total": Decimal(0),
                "units": [],
            },
        )
        t["_s1"] += s1
        t["_s2"] += s2
        t["_total"] += total
        sums["s1"] += s1
        sums["s2"] += s2
        sums["total"] += total
        units_delivered.add(r["unit_id"])
        t["units"].append(
            {
                "unitCode": r["unit__code"],
                "unitName": r["unit__name"],
                "nominalHours": r["unit__nominal_hours"],
                "semester1Hours": hours(s1),
                "semester2Hours": hours(s2),
                "totalActualHours": hours(total),
                "blockGroups": sorted(group_names.get((r["teacher_id"], r["unit_id"]), ())),
                "firstDeliveryDate": r["first"],
                "lastDeliveryDate": r["last"],
                "_total": total,
            }
        )
    out = []
    for t in teachers.values():
        t["units"].sort(key=lambda u: (-u["_total"], u["unitCode"]))
        for u in t["units"]:
            del u["_total"]
        t["totalHours"] = hours(t["_total"])
        t["semester1Total"] = hours(t.pop("_s1"))
        t["semester2Total"] = hours(t.pop("_s2"))
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
        "totalActualHours": hours(sums["total"]),
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
            "unit_id", "unit__code", "unit__name", "unit__nominal_hours",
            "block_group_id", "block_group__code", "block_group__name",
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
    ``FILTER``); the session lists from one query whose rows the database renders as JSON objects, so
    a year of 30,000 sessions is answered without building a Python object per session. Four queries
    at most (term breaks when a term is asked, teachers, weekly sums, sessions).
    """
    span = grid_range(org=org, year=year, term=term)
    teachers = list(
        Teacher.objects.for_org(org)
        .annotate(key=Cast("id", CharField()))
        .order_by("first_name", "last_name", "id")
        .values("key", "first_name", "last_name", "max_weekly_hours", "is_active")
    )
    active = [t for t in teachers if t["is_active"]]
    starts: list[date] = []
    if span is not None:
        monday = week_start(span[0])
        while monday <= span[1]:
            starts.append(monday)
            monday += timedelta(days=7)

    weekly: dict[tuple[str, int], tuple[Decimal, Decimal]] = {}
    sessions_by: dict[tuple[str, int], list[str]] = {}
    if starts and active:
        grid_start, grid_end = starts[0], starts[-1] + timedelta(days=6)
        in_grid = delivered(org).filter(
            actual_date__range=(grid_start, grid_end), teacher__isnull=False, teacher__is_active=True
        )
        for tid, idx, total, evening in (
            in_grid.annotate(tid=Cast("teacher_id", CharField()), wk=bucket_expression("actual_date", starts))
            .values("tid", "wk")
            .annotate(total=Sum("actual_hours"), evening=Sum("actual_hours", filter=EVENING_Q))
            .order_by()
            .values_list("tid", "wk", "total", "evening")
        ):
            weekly[(tid, idx)] = (total or Decimal(0), evening or Decimal(0))

        week_of = {}
        day = grid_start
        while day <= grid_end:
            week_of[day.isoformat()] = (day - grid_start).days // 7
            day += timedelta(days=1)
        session_json = Cast(
            JSONObject(
                date="actual_date",
                startTime="start_time",
                endTime="end_time",
                unitCode="unit__code",
                blockGroupCode="block_group__code",
                actualHours="actual_hours",
                room="room",
                status="status",
            ),
            TextField(),
        )
        rows = (
            in_grid.annotate(
                tid=Cast("teacher_id", CharField()),
                day=Cast("actual_date", CharField()),
                sid=Cast("id", CharField()),
                js=session_json,
            )
            .order_by("actual_date", "start_time", "id")
            .values_list("tid", "day", "sid", "js")
        )
        for tid, day_text, sid, js in rows:
            sessions_by.setdefault((tid, week_of[day_text[:10]]), []).append(
                '{"id":"' + _uuid_text(sid) + '",' + js.lstrip()[1:]
            )

    token = uuid.uuid4().hex
    placeholders: dict[str, str] = {}
    rows_out = []
    over = under = 0
    util_sum = 0.0
    for t in active:
        cap = t["max_weekly_hours"] or 0
        stats = []
        teacher_total = Decimal(0)
        any_over = False
        for idx, monday in enumerate(starts):
            total, evening = weekly.get((t["key"], idx), (Decimal(0), Decimal(0)))
            teacher_total += total
            util = percent(float(total), cap)
            is_over = util > OVER_CAPACITY_ABOVE
            any_over = any_over or is_over
            marker = f"{token}:{len(placeholders)}"
            placeholders[marker] = "[" + ",".join(sessions_by.get((t["key"], idx), ())) + "]"
            stats.append(
                {
                    "weekNumber": idx + 1,
                    "weekStart": monday.isoformat(),
                    "totalHours": hours(total),
                    "daytimeHours": hours(total - evening),
                    "eveningHours": hours(evening),
                    "utilizationPercentage": util,
                    "isOverCapacity": is_over,
                    "sessions": marker,
                }
            )
        yearly = percent(float(teacher_total), cap * len(starts))
        over += any_over
        under += yearly < UNDER_UTILISED_BELOW
        util_sum += yearly
        rows_out.append(
            {
                "teacherId": _uuid_text(t["key"]),
                "teacherName": teacher_name(t["first_name"], t["last_name"]),
                "maxWeeklyHours": cap,
                "isActive": True,
                "yearlyStats": {"utilizationPercentage": yearly, "totalHours": hours(teacher_total)},
                "weeklyStats": stats,
            }
        )
    data = {
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
            {
                "weekNumber": i + 1,
                "weekStart": monday.isoformat(),
                "weekEnd": (monday + timedelta(days=6)).isoformat(),
            }
            for i, monday in enumerate(starts)
        ],
        "teachers": rows_out,
    }
    text = json.dumps(data, separators=(",", ":"))
    if not placeholders:
        return text
    pattern = re.compile('"(' + re.escape(token) + r':\d+)"')
    return pattern.sub(lambda m: placeholders[m.group(1)], text)


def allocation_grid(*, org, year: int, term: int | None) -> dict:
    """:func:`allocation_grid_json` parsed: the same answer as Python objects (tests, exports)."""
    return json.loads(allocation_grid_json(org=org, year=year, term=term))
