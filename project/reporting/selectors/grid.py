"""The documented teacher allocation grid (docs/behaviour/allocation.md §4, §5). Definitions: :mod:`project.reporting.selectors.common`."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import TYPE_CHECKING

from django.db.models import (
    CharField,
    FloatField,
    Sum,
)
from django.db.models.functions import Cast

from project.catalogue.models import Unit
from project.planning.models import BlockGroup
from project.reporting.selectors.common import (
    EVENING_Q,
    OVER_CAPACITY_ABOVE,
    UNDER_UTILISED_BELOW,
    bucket_expression,
    delivered,
    percent,
    teacher_name,
    term_ranges,
    year_bounds,
)
from project.staff.models import Teacher
from project.timetabling.calendar import TermCalendar, week_start

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

# ---------------------------------------------------------------- allocation grid


def grid_range(*, org: Organization, year: int, term: int | None) -> tuple[date, date] | None:
    """The dates a grid covers: the whole ``year``, or the days of ``term`` in it (None if it has none)."""
    if term is None:
        return year_bounds(year)
    return term_ranges(TermCalendar.for_org(org), year).get(term)


def _uuid_text(value: str) -> str:
    """A UUID as text with hyphens (SQLite stores 32 hex digits, PostgreSQL answers the usual form)."""
    if len(value) == 32:
        return f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}"
    return value


def grid_teachers_and_weeks(*, org: Organization, year: int, term: int | None) -> tuple[list[dict], list[dict], list[date]]:
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


def allocation_grid_json(*, org: Organization, year: int, term: int | None) -> str:
    """Teacher allocation grid as a JSON text (docs/behaviour/allocation.md §4, §5; admin only).

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
            keyed = sessions_by.get((key, idx))
            listed = [text for _, text in sorted(keyed)] if keyed else []
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


def allocation_grid(*, org: Organization, year: int, term: int | None) -> dict:
    """:func:`allocation_grid_json` parsed: the same answer as Python objects (tests, exports)."""
    return json.loads(allocation_grid_json(org=org, year=year, term=term))
