"""The SPA's rules for what a change event refetches, as the benchmarks' simulated screens follow them.

The screens of ``bench/watchers_bench.py`` and ``bench/locust/monday.py`` react to change events the way
``spa/src/lib/liveTargets.ts`` and ``spa/src/features/display/DisplayBoardPage.tsx`` do; the decisions and
timings they share are here, once. ``tests/core/test_bench_rules.py`` checks the timings against the
SPA's constants and the decisions against the same cases as the SPA's unit tests, so a change of the
SPA that the benchmarks do not follow fails a test instead of skewing a figure.
"""

from __future__ import annotations

COALESCE_S = 1.0  # liveTargets.ts COALESCE_MS: an aggregate refetches at most once per second
SPREAD_S = 0.5  # liveTargets.ts SPREAD_MS: an aggregate's first refetch waits a random 0..0.5 s
DISPLAY_SPREAD_S = 0.4  # liveTargets.ts DISPLAY_SPREAD_MS: a wall display's, a random 0..0.4 s

HOUR_FIELDS = ("date", "teacherId", "blockGroupId", "unitId", "hours", "status")


def touched_dates(event: dict) -> list[str] | None:
    """``touchedDates``: every date a session event touches, before and after, or None (cannot say)."""
    if (
        event.get("entity") != "timetable_session"
        or not isinstance(event.get("sessions"), list)
        or not isinstance(event.get("before"), list)
    ):
        return None
    dates = [d.get("date") for d in event["sessions"] + event["before"]]
    return dates if all(isinstance(d, str) for d in dates) else None


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
    date, teacher, block group, unit, hours or status that differs; a field not sent counts as changed)."""
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
