"""The benchmarks' simulated screens follow the SPA's live rules (``bench/live_rules.py``): the timings are
the SPA's constants, read from its source, and the decisions answer the cases the SPA's unit tests pin
(``spa/src/lib/liveTargets.test.ts``). A change of the SPA the benchmarks do not follow fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench import live_rules

LIVE_TARGETS = Path(__file__).resolve().parents[2] / "spa" / "src" / "lib" / "liveTargets.ts"


def spa_constant(name: str) -> int:
    found = re.search(rf"export const {name} = (\d+);", LIVE_TARGETS.read_text())
    assert found, f"{name} is no longer a number constant of liveTargets.ts"
    return int(found.group(1))


@pytest.mark.parametrize(
    ("spa", "bench_seconds"),
    [
        ("COALESCE_MS", live_rules.COALESCE_S),
        ("SPREAD_MS", live_rules.SPREAD_S),
        ("DISPLAY_SPREAD_MS", live_rules.DISPLAY_SPREAD_S),
    ],
)
def test_the_benchmarks_use_the_spas_timings(spa, bench_seconds):
    assert spa_constant(spa) == round(bench_seconds * 1000)


def test_the_benchmarks_patch_as_many_block_groups_as_the_spa():
    assert spa_constant("GROUP_PATCH_LIMIT") == live_rules.GROUP_PATCH_LIMIT


def test_the_hour_fields_are_the_spas():
    source = LIVE_TARGETS.read_text()
    found = re.search(r"const HOUR_FIELDS = \[([^\]]*)\] as const;", source)
    assert found
    assert tuple(re.findall(r'"(\w+)"', found.group(1))) == live_rules.HOUR_FIELDS


FULL = {
    "id": "s",
    "blockGroupId": "g1",
    "teacherId": "t1",
    "date": "2026-03-05",
    "unitId": "u",
    "hours": 3.0,
    "status": "scheduled",
    "room": "A1",
    "roomId": None,
}


def event(sessions, before):
    return {"entity": "timetable_session", "action": "updated", "ids": ["s"], "sessions": sessions, "before": before}


def test_hours_touched_answers_as_the_spa():
    assert not live_rules.hours_touched(event([{**FULL, "room": "B2", "roomId": "r"}], [FULL]))
    assert not live_rules.hours_touched(event([FULL], [FULL]))
    for change in ({"hours": 2.5}, {"status": "cancelled"}, {"teacherId": "t2"}, {"blockGroupId": "g2"}, {"unitId": "u2"}):
        assert live_rules.hours_touched(event([{**FULL, **change}], [FULL])), change
    assert live_rules.hours_touched(event([FULL], []))  # created
    assert live_rules.hours_touched(event([], [FULL]))  # removed
    without = {k: v for k, v in FULL.items() if k != "hours"}
    assert live_rules.hours_touched(event([without], [without]))  # not sent: cannot say


def test_count_changed_groups_and_touched_dates_answer_as_the_spa():
    assert live_rules.count_changed_groups(event([FULL], [FULL])) == []
    assert live_rules.count_changed_groups(event([{**FULL, "blockGroupId": "g2"}], [FULL])) == ["g2", "g1"]
    assert live_rules.count_changed_groups(event([FULL], [])) == ["g1"]
    assert live_rules.touched_dates(event([{**FULL, "date": "2026-03-06"}], [FULL])) == ["2026-03-06", "2026-03-05"]
    assert live_rules.touched_dates({**event([FULL], [FULL]), "before": None}) is None
    assert live_rules.touched_dates({"entity": "course", "ids": ["c"]}) is None


def schedule_event(dates, action="scheduled", **lists):
    times = [{"start": "09:00:00", "end": "15:00:00"}]
    schedule = {"dates": dates, "times": times, "teacherIds": [], "roomIds": [], "rooms": [], **lists}
    return {"entity": "timetable_session", "action": action, "ids": ["g1"], "schedule": schedule}


def test_a_schedule_event_is_read_as_the_spa_reads_it():
    """The cases of liveTargets.test.ts, "a schedule generated or cleared says what it touched (ADR 0033)"."""
    event = schedule_event(["2026-03-02", "2026-03-04"])
    assert live_rules.schedule_of(event)["groupId"] == "g1"
    assert live_rules.touched_dates(event) == ["2026-03-02", "2026-03-04"]
    assert live_rules.hours_touched(event)
    assert live_rules.schedule_of({**event, "schedule": None}) is None
    assert live_rules.touched_dates({**event, "schedule": None}) is None
    assert live_rules.schedule_of({**event, "action": "updated"}) is None


def test_schedule_concerns_list_answers_as_the_spa():
    """liveTargets.test.ts: "the group's own lists refetch; another group's list only for a room it shares
    at a time, or a teacher's week"."""

    def row(i, group, day, **extra):
        base = {"id": i, "blockGroupId": group, "actualDate": day, "startTime": "09:00:00", "endTime": "12:00:00"}
        return {**base, "teacherId": None, "room": "", "roomId": None, "conflicts": [], **extra}

    def concerns(filters, rows, event):
        return live_rules.schedule_concerns_list(filters, rows, live_rules.schedule_of(event))

    other = [row("b", "g2", "2026-03-10", room="Lab 1", roomId="r1"), row("c", "g2", "2026-03-17", teacherId="t1")]
    g2 = {"blockGroupId": "g2"}
    assert concerns({"blockGroupId": "g1"}, [row("a", "g1", "2026-03-02")], schedule_event(["2026-05-04"]))
    assert not concerns(g2, other, schedule_event(["2026-03-09", "2026-03-11"], rooms=["Lab 1"]))
    assert concerns(g2, other, schedule_event(["2026-03-10"], rooms=[" lab 1 "]))
    assert concerns(g2, other, schedule_event(["2026-03-10"], roomIds=["r1"]))
    after = [{"start": "12:00:00", "end": "15:00:00"}]
    assert not concerns(g2, other, schedule_event(["2026-03-10"], roomIds=["r1"], times=after))
    overlapping = [{"start": "11:00:00", "end": "15:00:00"}]
    assert concerns(g2, other, schedule_event(["2026-03-10"], roomIds=["r1"], times=overlapping))

    def cleared(dates):
        return schedule_event(dates, "schedule_cleared", teacherIds=["t1"])

    assert concerns(g2, other, schedule_event(["2026-03-16"], teacherIds=["t1"]))  # created: weekly hours may go over
    assert not concerns(g2, other, cleared(["2026-03-16"]))  # no conflict to lose

    def flagged(*conflicts):
        return [other[0], {**other[1], "conflicts": list(conflicts)}]

    assert not concerns(g2, flagged("teacher_unqualified"), cleared(["2026-03-16"]))
    assert concerns(g2, flagged("teacher_over_weekly_hours"), cleared(["2026-03-16"]))
    assert not concerns(g2, flagged("teacher_over_weekly_hours"), cleared(["2026-03-24"]))
    assert not concerns(g2, flagged("teacher_double_booked"), cleared(["2026-03-16"]))
    assert concerns(g2, flagged("teacher_double_booked"), cleared(["2026-03-17"]))
    rooms_only = schedule_event(["2026-03-10"], "schedule_cleared", roomIds=["r1"])
    assert not concerns(g2, flagged("teacher_double_booked"), rooms_only)
    assert concerns({"teacherId": "t1"}, other, cleared(["2026-05-04"]))
    assert concerns({}, other, cleared(["2026-05-04"]))
    assert concerns(g2, None, cleared(["2026-05-04"]))  # not loaded: concerned


def test_the_conflict_types_a_schedule_can_change_are_the_spas():
    source = LIVE_TARGETS.read_text()
    for name, types in (
        ("TEACHER_DAY_CONFLICTS", live_rules.TEACHER_DAY_CONFLICTS),
        ("TEACHER_WEEK_CONFLICTS", live_rules.TEACHER_WEEK_CONFLICTS),
        ("ROOM_TIME_CONFLICTS", live_rules.ROOM_TIME_CONFLICTS),
    ):
        found = re.search(rf"const {name} = \[([^\]]*)\];", source)
        assert found, name
        assert tuple(re.findall(r'"(\w+)"', found.group(1))) == types


def test_dashboard_spans_are_the_spas():
    """liveTargets.test.ts, "each panel's span": Wednesday 4 March 2026."""
    from datetime import date

    assert live_rules.dashboard_span("stats", date(2026, 3, 4)) == ("2026-03-01", "2026-03-09")
    assert live_rules.dashboard_span("teacher-workload", date(2026, 3, 4)) == ("2026-03-01", "2026-03-09")
    assert live_rules.dashboard_span("upcoming-sessions", date(2026, 3, 4)) == ("2026-03-03", "2026-03-11")
    with pytest.raises(ValueError, match="no span"):
        live_rules.dashboard_span("something-new", date(2026, 3, 4))
