"""The SPA's rules for what a change event refetches, as the benchmarks' simulated screens follow them.

The screens of ``bench/watchers_bench.py`` and ``bench/locust/monday.py`` react to change events the way
``spa/src/lib/liveTargets.ts`` and ``spa/src/features/display/DisplayBoardPage.tsx`` do; the decisions and
timings they share are here, once. ``tests/core/test_bench_rules.py`` checks the timings against the
SPA's constants and the decisions against the same cases as the SPA's unit tests, so a change of the
SPA that the benchmarks do not follow fails a test instead of skewing a figure.
"""

from __future__ import annotations

from datetime import date, timedelta

COALESCE_S = 1.0  # liveTargets.ts COALESCE_MS: an aggregate refetches at most once per second
SPREAD_S = 0.5  # liveTargets.ts SPREAD_MS: an aggregate's first refetch waits a random 0..0.5 s
DISPLAY_SPREAD_S = 0.4  # liveTargets.ts DISPLAY_SPREAD_MS: a wall display's, a random 0..0.4 s

HOUR_FIELDS = ("date", "teacherId", "blockGroupId", "unitId", "hours", "status")


def schedule_of(event: dict) -> dict | None:
    """``scheduleOf``: a schedule generated or cleared (ADR 0033) as ``{groupId, cleared, dates, times,
    teacherIds, roomIds, rooms}``, or None for any other event or one without ``schedule``."""
    schedule = event.get("schedule")
    if (
        event.get("entity") != "timetable_session"
        or event.get("action") not in ("scheduled", "schedule_cleared")
        or len(event.get("ids") or []) != 1
        or not isinstance(schedule, dict)
    ):
        return None
    fields = ("dates", "teacherIds", "roomIds", "rooms")
    if not all(isinstance(schedule.get(f), list) and all(isinstance(v, str) for v in schedule[f]) for f in fields):
        return None
    times = schedule.get("times")
    if not isinstance(times, list) or not all(
        isinstance(t, dict) and isinstance(t.get("start"), str) and isinstance(t.get("end"), str) for t in times
    ):
        return None
    return {
        **{f: schedule[f] for f in fields},
        "times": times,
        "groupId": event["ids"][0],
        "cleared": event["action"] == "schedule_cleared",
    }


def touched_dates(event: dict) -> list[str] | None:
    """``touchedDates``: every date a session event touches, before and after (a schedule generated or
    cleared: its ``schedule.dates``), or None (cannot say)."""
    if event.get("entity") != "timetable_session":
        return None
    if not isinstance(event.get("sessions"), list) or not isinstance(event.get("before"), list):
        schedule = schedule_of(event)
        return schedule["dates"] if schedule is not None else None
    dates = [d.get("date") for d in event["sessions"] + event["before"]]
    return dates if all(isinstance(d, str) for d in dates) else None


def _monday(iso: str) -> date:
    day = date.fromisoformat(iso)
    return day - timedelta(days=day.weekday())


TEACHER_DAY_CONFLICTS = ("teacher_double_booked", "teacher_over_daily_hours")  # liveTargets.ts, the same names
TEACHER_WEEK_CONFLICTS = ("teacher_over_weekly_hours", "teacher_over_capacity", "teacher_over_days")
ROOM_TIME_CONFLICTS = ("room_double_booked",)


def schedule_concerns_list(filters: dict, rows: list[dict] | None, schedule: dict) -> bool:
    """``scheduleConcernsList``: whether a schedule generated or cleared may change the timetable list of
    ``filters`` (``blockGroupId`` / ``teacherId`` / ``roomId``) showing ``rows`` (``SessionOut`` objects;
    None: not loaded): another list only for a row of the group, a room clash it may gain or lose (same room,
    date, overlapping time) or a teacher's conflict of the day or week; after a clear, only a conflict the
    row has now."""
    if rows is None or not any(filters.get(k) for k in ("blockGroupId", "teacherId", "roomId")):
        return True
    if filters.get("blockGroupId") == schedule["groupId"]:
        return True
    if filters.get("teacherId") in schedule["teacherIds"] or filters.get("roomId") in schedule["roomIds"]:
        return True
    dates = set(schedule["dates"])
    weeks = {_monday(d) for d in schedule["dates"]}
    rooms = {r.strip().casefold() for r in schedule["rooms"]}

    def same_room(r: dict) -> bool:
        return bool(r.get("roomId") and r["roomId"] in schedule["roomIds"]) or bool(
            r.get("room") and r["room"].strip().casefold() in rooms
        )

    def same_time(r: dict) -> bool:
        return any(r["startTime"] < t["end"] and t["start"] < r["endTime"] for t in schedule["times"])

    def has(r: dict, types: tuple[str, ...]) -> bool:
        return not schedule["cleared"] or any(c in types for c in r.get("conflicts") or [])

    def may_change(r: dict) -> bool:
        if r["blockGroupId"] == schedule["groupId"]:
            return True
        if has(r, ROOM_TIME_CONFLICTS) and r["actualDate"] in dates and same_room(r) and same_time(r):
            return True
        if r.get("teacherId") not in schedule["teacherIds"]:
            return False
        return (has(r, TEACHER_DAY_CONFLICTS) and r["actualDate"] in dates) or (
            has(r, TEACHER_WEEK_CONFLICTS) and _monday(r["actualDate"]) in weeks
        )

    return any(may_change(r) for r in rows)


def dashboard_span(part: str, today: date) -> tuple[str, str]:
    """``dashboardSpan``: the dates a dashboard panel shows (``stats`` and ``teacher-workload``: this
    Monday-Sunday week; ``upcoming-sessions``: today and the 6 days after), widened by a day each side."""
    if part in ("stats", "teacher-workload"):
        monday = today - timedelta(days=today.weekday())
        return (monday - timedelta(days=1)).isoformat(), (monday + timedelta(days=7)).isoformat()
    if part == "upcoming-sessions":
        return (today - timedelta(days=1)).isoformat(), (today + timedelta(days=7)).isoformat()
    raise ValueError(f"no span for the dashboard panel {part!r}")


def count_changed_groups(event: dict) -> list[str]:
    """``countChangedGroups``: groups of created rows and both groups of moved ones (needs ``before``)."""
    before = {d["id"]: d for d in event["before"]}
    groups: list[str] = []
    for d in event["sessions"]:
        old = before.get(d["id"])
        changed = (
            [d["blockGroupId"]]
            if old is None
            else [d["blockGroupId"], old["blockGroupId"]]
            if old["blockGroupId"] != d["blockGroupId"]
            else []
        )
        groups += [g for g in changed if g not in groups]
    return groups


def hours_touched(event: dict) -> bool:
    """``hoursTouched``: whether the change may change a sum of hours (a created or removed row, or a
    date, teacher, block group, unit, hours or status that differs; a field not sent counts as changed; a
    schedule generated or cleared: always)."""
    if schedule_of(event) is not None:
        return True
    before = {d["id"]: d for d in event["before"]}
    after = {d["id"] for d in event["sessions"]}
    if any(i not in after for i in before):
        return True
    for d in event["sessions"]:
        old = before.get(d["id"])
        if old is None or any(f not in d or f not in old or d[f] != old[f] for f in HOUR_FIELDS):
            return True
    return False


GROUP_PATCH_LIMIT = 5  # liveTargets.ts GROUP_PATCH_LIMIT: more changed groups refetch the block group lists whole
