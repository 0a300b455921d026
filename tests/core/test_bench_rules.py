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
