"""Reads behind the Dashboard (docs/behaviour/screens.md §3; docs/behaviour/reports.md §7).

Definitions:

- **Hours** are sums of session ``actualHours`` of sessions that are not cancelled (docs/behaviour/hours.md §2).
- **Today / this week** use the user's timezone, ``user.settings.preferences.timezone`` or
  Australia/Melbourne (docs/behaviour/terms-and-holidays.md §5); weeks run Monday to Sunday.
- **Upcoming**: the next 7 days = today and the 6 days after it, in the user's timezone.
- Plan **efficiency** = sum of the plan units' actual hours (face to face + facilitated e-learning +
  work-integrated learning + in-class assessment) / the plan's totalNominalHours x 100, 0 when that is
  0 (docs/behaviour/hours.md §2, §4): the figure each study plan card shows.

Every figure is a database aggregate; each function runs a fixed number of queries.
"""

from __future__ import annotations

from datetime import date, time, timedelta
from typing import TYPE_CHECKING, cast

from django.db.models import Count, DecimalField, Exists, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.utils import timezone

from project.catalogue.models import Course
from project.planning.models import ACTUAL_HOUR_FIELDS, BlockGroup, StudyPlan
from project.reporting.selectors.common import delivered, hours, initials, teacher_name
from project.staff.models import Teacher
from project.timetabling.calendar import week_start
from project.timetabling.models import TimetableSession
from project.timetabling.selectors import SESSION_NAME_FIELDS

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

DEFAULT_EFFICIENCY = 87  # docs/behaviour/screens.md §3; docs/behaviour/hours.md §6: shown when there is no figure
MAX_RANGE_DAYS = 366


def _hhmm(value: time) -> str:
    return value.strftime("%H:%M")


def dashboard_stats(*, org: Organization, today: date) -> dict[str, object]:
    """``GET /api/dashboard/stats`` (docs/behaviour/reports.md §7 "Dashboard stats").

    activeCourses (courses with isActive), activeTeachers (teachers with isActive), blockGroups (block
    groups with status active), weeklyHours (hours of non-cancelled sessions dated in the Monday-Sunday
    week holding ``today``), efficiency (the mean efficiency of the active study plans, one decimal;
    87 when there is no active plan). thirtyDaysAgo: of the counted courses, teachers and block groups,
    those created more than 30 days ago (records deactivated or deleted since are not known). Five queries.
    """
    monday = week_start(today)
    actual_sum = sum((F(f"plan_units__{f}") for f in ACTUAL_HOUR_FIELDS[1:]), F(f"plan_units__{ACTUAL_HOUR_FIELDS[0]}"))
    plans = (
        StudyPlan.objects.for_org(org)
        .filter(is_active=True)
        .annotate(actual=Sum(actual_sum))
        .values_list("actual", "total_nominal_hours")
    )
    rates = [float(actual or 0) / nominal * 100 if nominal else 0.0 for actual, nominal in plans]
    weekly = delivered(org).filter(actual_date__range=(monday, monday + timedelta(days=6))).aggregate(h=Sum("actual_hours"))["h"]
    # Each count now and of those records, how many existed 30 days ago (created before): the cards'
    # change against 30 days ago (ADR 0018). One query per count, as before.
    cut = timezone.now() - timedelta(days=30)

    def counted(qs: QuerySet[Course] | QuerySet[Teacher] | QuerySet[BlockGroup]) -> tuple[int, int]:
        got = qs.aggregate(now=Count("id"), before=Count("id", filter=Q(created_at__lt=cut)))
        return got["now"], got["before"]

    courses, courses_before = counted(Course.objects.for_org(org).filter(is_active=True))
    teachers, teachers_before = counted(Teacher.objects.for_org(org).filter(is_active=True))
    groups, groups_before = counted(BlockGroup.objects.for_org(org).filter(status=BlockGroup.Status.ACTIVE))
    return {
        "activeCourses": courses,
        "activeTeachers": teachers,
        "blockGroups": groups,
        "weeklyHours": hours(weekly),
        "efficiency": round(sum(rates) / len(rates), 1) if rates else DEFAULT_EFFICIENCY,
        "thirtyDaysAgo": {"activeCourses": courses_before, "activeTeachers": teachers_before, "blockGroups": groups_before},
    }


def _sessions_between(org: Organization, start: date, end: date) -> QuerySet[TimetableSession]:
    """Sessions of ``org`` of any status dated ``start``..``end`` (inclusive), by date and start time."""
    return (
        TimetableSession.objects.for_org(org).filter(actual_date__range=(start, end)).order_by("actual_date", "start_time", "id")
    )


def teacher_allocations(*, org: Organization, start: date, end: date) -> dict[str, object]:
    """``GET /api/dashboard/teacher-allocations`` (docs/behaviour/reports.md §7 "Teacher allocation response").

    allocations: sessions dated ``start``..``end`` (inclusive) that have a teacher, any status, by date
    and start time: id, date, time ('HH:MM - HH:MM'), teacherName, unitCode, unitName, blockGroupCode,
    room, status. unallocatedTeachers: active teachers, by name, with no non-cancelled session in the
    range: id, name, initials, maxWeeklyHours. Two queries.
    """
    rows = (
        _sessions_between(org, start, end)
        .filter(teacher__isnull=False)
        .values_list(
            "id",
            "actual_date",
            "start_time",
            "end_time",
            "teacher__first_name",
            "teacher__last_name",
            "unit__code",
            "unit__name",
            "block_group__code",
            "room",
            "status",
        )
    )
    busy = delivered(org).filter(teacher=OuterRef("pk"), actual_date__range=(start, end))
    free = (
        Teacher.objects.for_org(org)
        .filter(is_active=True)
        .filter(~Exists(busy))
        .order_by("first_name", "last_name", "id")
        .values_list("id", "first_name", "last_name", "max_weekly_hours")
    )
    return {
        "allocations": [
            {
                "id": sid,
                "date": day,
                "time": f"{_hhmm(st)} - {_hhmm(et)}",
                "teacherName": teacher_name(first, last),
                "unitCode": unit_code,
                "unitName": unit_name,
                "blockGroupCode": group_code,
                "room": room,
                "status": status,
            }
            for sid, day, st, et, first, last, unit_code, unit_name, group_code, room, status in rows
        ],
        "unallocatedTeachers": [
            {"id": tid, "name": teacher_name(first, last), "initials": initials(first, last), "maxWeeklyHours": cap}
            for tid, first, last, cap in free
        ],
    }


def teacher_workload(*, org: Organization, today: date) -> list[dict[str, object]]:
    """``GET /api/dashboard/teacher-workload`` (docs/behaviour/reports.md §7 "Teacher workload entry").

    Every active teacher with this week's hours (Monday-Sunday week holding ``today``): id, name,
    initials, hours, maxHours (maxWeeklyHours), percentage (hours / maxHours x 100, whole number).
    Ordered by percentage descending, then name. One query.
    """
    monday = week_start(today)
    # A correlated sum per teacher: it reads only that teacher's sessions of the week (the
    # (teacher, actual_date) index), not every session the teacher ever had.
    week_sum = (
        delivered(org)
        .filter(teacher=OuterRef("pk"), actual_date__range=(monday, monday + timedelta(days=6)))
        .order_by()
        .values("teacher")
        .annotate(total=Sum("actual_hours"))
        .values("total")
    )
    rows = (
        Teacher.objects.for_org(org)
        .filter(is_active=True)
        .annotate(week_hours=Subquery(week_sum, output_field=DecimalField(max_digits=12, decimal_places=2)))
        .order_by("first_name", "last_name", "id")
        .values_list("id", "first_name", "last_name", "max_weekly_hours", "week_hours")
    )
    out: list[dict[str, object]] = []
    for tid, first, last, cap, week_hours in rows:
        h = hours(week_hours)
        out.append(
            {
                "id": tid,
                "name": teacher_name(first, last),
                "initials": initials(first, last),
                "hours": h,
                "maxHours": cap,
                "percentage": round(h / cap * 100) if cap else 0,
            }
        )
    out.sort(key=lambda e: -cast(int, e["percentage"]))  # stable: name order kept among equals
    return out


def upcoming_sessions(*, org: Organization, today: date) -> list[dict[str, object]]:
    """``GET /api/dashboard/upcoming-sessions`` (docs/behaviour/reports.md §7 "Upcoming session").

    Sessions of any status dated ``today`` to ``today + 6`` days (the next 7 days in the user's
    timezone), by date and start time: id, dayOfWeek (0 Sunday .. 6 Saturday), actualDate,
    startTime / endTime ('HH:MM'), unit {code, name}, blockGroup {code, name}, teacher (full name, or
    null when unassigned), room (null when empty), status. One query.
    """
    rows = _sessions_between(org, today, today + timedelta(days=6)).values_list(
        "id", "actual_date", "start_time", "end_time", *SESSION_NAME_FIELDS, "room", "status"
    )
    return [
        {
            "id": sid,
            "dayOfWeek": day.isoweekday() % 7,
            "actualDate": day,
            "startTime": _hhmm(st),
            "endTime": _hhmm(et),
            "unit": {"code": unit_code, "name": unit_name},
            "blockGroup": {"code": group_code, "name": group_name},
            "teacher": teacher_name(first, last) if first is not None else None,
            "room": room or None,
            "status": status,
        }
        for sid, day, st, et, unit_code, unit_name, group_code, group_name, first, last, room, status in rows
    ]
