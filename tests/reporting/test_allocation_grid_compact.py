"""The compact allocation grid (ADR 0010) agrees with the documented grid cell by cell, and a
cell's sessions come from the week call in the documented session shape."""

from __future__ import annotations

import pytest

from tests.reporting.test_allocation_grid import grid_world  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query", [{"year": 2026}, {"year": 2026, "term": 1}, {"year": 2025}])
def test_compact_grid_equals_the_documented_grid(api, grid_world, query):  # noqa: F811
    full = api.get("/api/teachers/allocation-gantt", query).json()
    r = api.get("/api/teachers/allocation-grid", query)
    assert r.status_code == 200
    compact = r.json()
    for key in ("year", "term", "summary", "weeks"):
        assert compact[key] == full[key]
    assert [t["teacherId"] for t in compact["teachers"]] == [t["teacherId"] for t in full["teachers"]]
    for c, f in zip(compact["teachers"], full["teachers"], strict=True):
        for key in ("teacherName", "maxWeeklyHours", "isActive", "yearlyStats"):
            assert c[key] == f[key]
        assert c["totalHours"] == [w["totalHours"] for w in f["weeklyStats"]]
        assert c["eveningHours"] == [w["eveningHours"] for w in f["weeklyStats"]]
        assert c["utilizationPercentage"] == [w["utilizationPercentage"] for w in f["weeklyStats"]]
        assert c["sessions"] == [len(w["sessions"]) for w in f["weeklyStats"]]
        for i, w in enumerate(f["weeklyStats"]):
            evening = [s for s in w["sessions"] if s["startTime"] >= "17:00:00" or s["endTime"] > "17:00:00"]
            assert c["eveningSessions"][i] == len(evening)
            if w["sessions"]:  # the week call answers the cell's sessions as the documented grid lists them
                week = api.get(f"/api/teachers/{c['teacherId']}/allocation-week", {"weekStart": w["weekStart"]}).json()
                assert week == w["sessions"]


def test_compact_grid_access_and_tenancy(api, member_api, other_api, grid_world):  # noqa: F811
    assert member_api.get("/api/teachers/allocation-grid", {"year": 2026}).status_code == 403
    assert api.get("/api/teachers/allocation-grid", {"year": "20x6"}).status_code == 400
    t = grid_world.t1
    assert other_api.get(f"/api/teachers/{t.id}/allocation-week", {"weekStart": "2026-03-16"}).status_code == 404
    assert api.get(f"/api/teachers/{t.id}/allocation-week", {"weekStart": "nope"}).status_code == 400
