"""``seed_large_org(density=...)``: "few" seeds a timetable with a few per cent of conflicted rows, as a
provider's is; "random" (the default, which other benchmarks' figures rest on) stays mostly conflicted. The
conflicts are the rows' ``conflicts`` of ``GET /api/timetables`` (``session_list`` of every session)."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.seed_large import seed_large_org
from project.timetabling.models import TimetableSession
from project.timetabling.selectors import session_list

pytestmark = pytest.mark.django_db

SMALL = {"teachers": 30, "sessions": 2000, "block_groups": 20, "units": 30, "year": 2026}
HARD_CLASHES = ("group_double_booked", "teacher_double_booked", "room_double_booked", "holiday")


def _rows(density: str) -> list[dict[str, object]]:
    org = seed_large_org(name=f"Density {density}", density=density, **SMALL)
    assert TimetableSession.objects.for_org(org).count() == SMALL["sessions"]
    rows = session_list(org=org)
    assert len(rows) == SMALL["sessions"]
    return rows


def test_few_seeds_a_timetable_with_few_conflicts(db):
    rows = _rows("few")
    conflicted = [r for r in rows if r["conflicts"]]
    types = Counter(t for r in rows for t in r["conflicts"])
    assert len(conflicted) < 0.05 * len(rows), types
    for kind in HARD_CLASHES:
        assert types[kind] == 0, types
    # Still a few unassigned and cancelled sessions, as with "random".
    assert 0 < sum(r["teacherId"] is None for r in rows) < 0.1 * len(rows)
    assert 0 < sum(r["status"] == "cancelled" for r in rows) < 0.1 * len(rows)


def test_random_stays_mostly_conflicted(db):
    rows = _rows("random")
    assert sum(1 for r in rows if r["conflicts"]) > 0.5 * len(rows)


def test_an_unknown_density_is_refused(db):
    with pytest.raises(ValueError, match="density"):
        seed_large_org(name="Nope", density="dense", **SMALL)
