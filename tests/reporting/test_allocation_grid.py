"""Teacher allocation grid: weeks, weekly day/evening hours, utilisation, capacity, summary, access."""

from __future__ import annotations

from datetime import date, time

import pytest

from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def grid_world(world):
    """The world plus: T2 (max 10) at 10.5 h in the week of 9 March (over), T1 (max 20) at exactly
    19 h = 95 % in the week of 16 March (not over)."""
    org, g1, u1 = world.org, world.g1, world.u1
    extra = {
        "b1": f.make_session(
            org, block_group=g1, unit=u1, teacher=world.t2, actual_date=date(2026, 3, 9), start=time(9), end=time(12, 30)
        ),
        "b2": f.make_session(
            org, block_group=g1, unit=u1, teacher=world.t2, actual_date=date(2026, 3, 10), start=time(13), end=time(16, 30)
        ),
        "b3": f.make_session(
            org, block_group=g1, unit=u1, teacher=world.t2, actual_date=date(2026, 3, 11), start=time(16), end=time(19, 30)
        ),
        "a1": f.make_session(
            org, block_group=g1, unit=u1, teacher=world.t1, actual_date=date(2026, 3, 16), start=time(8), end=time(16)
        ),
        "a2": f.make_session(
            org, block_group=g1, unit=u1, teacher=world.t1, actual_date=date(2026, 3, 17), start=time(8), end=time(16)
        ),
        "a3": f.make_session(
            org, block_group=g1, unit=u1, teacher=world.t1, actual_date=date(2026, 3, 18), start=time(9), end=time(12)
        ),
    }
    world.s.update(extra)
    return world


def test_term_grid_weeks_hours_and_capacity(api, grid_world):
    w = grid_world
    res = api.get("/api/teachers/allocation-gantt", {"year": 2026, "term": 1})
    assert res.status_code == 200
    body = res.json()
    # Term 1 = Jan-Mar (no term breaks): whole weeks from Monday 29 Dec 2025 to Sunday 5 Apr 2026.
    assert len(body["weeks"]) == 14
    assert body["weeks"][0] == {"weekNumber": 1, "weekStart": "2025-12-29", "weekEnd": "2026-01-04"}
    assert body["weeks"][-1] == {"weekNumber": 14, "weekStart": "2026-03-30", "weekEnd": "2026-04-05"}
    assert [t["teacherName"] for t in body["teachers"]] == ["Alice Anders", "Bob Brown", "Dan Dunn"]  # active only
    alice, bob, dan = body["teachers"]
    assert alice["teacherId"] == str(w.t1.id) and alice["maxWeeklyHours"] == 20 and alice["isActive"] is True

    def week(row, n):
        return row["weeklyStats"][n - 1]

    # Week 1 holds s7 (30 Dec 2025): the grid counts whole weeks.
    assert week(alice, 1)["totalHours"] == 2.0 and week(alice, 1)["utilizationPercentage"] == 10.0
    # Week 10 (2 March): s1 + s2 = 6 h of 20 = 30 %; s6 (cancelled, 9 March) is never counted.
    assert week(alice, 10)["totalHours"] == 6.0
    assert week(alice, 10)["utilizationPercentage"] == 30.0
    assert [s["id"] for s in week(alice, 10)["sessions"]] == [str(w.s["s1"].id), str(w.s["s2"].id)]
    assert all(s["id"] != str(w.s["s6"].id) for wk in alice["weeklyStats"] for s in wk["sessions"])
    # Week 12: 19 h of 20 = 95 %: not over capacity (over means above 95 %).
    assert week(alice, 12)["totalHours"] == 19.0
    assert week(alice, 12)["utilizationPercentage"] == 95.0
    assert week(alice, 12)["isOverCapacity"] is False
    # Bob, week 10: s3 17:00-20:00 is evening.
    assert (week(bob, 10)["daytimeHours"], week(bob, 10)["eveningHours"]) == (0.0, 3.0)
    assert week(bob, 10)["sessions"] == [
        {
            "id": str(w.s["s3"].id),
            "date": "2026-03-03",
            "startTime": "17:00:00",
            "endTime": "20:00:00",
            "unitCode": "ICTICT002",
            "blockGroupCode": "G1",
            "actualHours": 3,
            "room": "",
            "status": "scheduled",
        }
    ]
    # Week 11: 3.5 + 3.5 (ends 16:30, day) + 3.5 (16:00-19:30 ends after 17:00, evening) = 10.5 h of 10.
    b11 = week(bob, 11)
    assert (b11["totalHours"], b11["daytimeHours"], b11["eveningHours"]) == (10.5, 7.0, 3.5)
    assert b11["utilizationPercentage"] == 105.0 and b11["isOverCapacity"] is True
    assert [s["date"] for s in b11["sessions"]] == ["2026-03-09", "2026-03-10", "2026-03-11"]
    assert all(wk["totalHours"] == 0 and wk["sessions"] == [] for wk in dan["weeklyStats"])
    # Yearly: Alice 2+6+19 = 27 h / (20 x 14) = 9.6 %; Bob 3+10.5 = 13.5 / (10 x 14) = 9.6 %; Dan 0.
    assert alice["yearlyStats"]["utilizationPercentage"] == 9.6
    assert bob["yearlyStats"]["utilizationPercentage"] == 9.6
    assert dan["yearlyStats"]["utilizationPercentage"] == 0.0
    assert body["summary"] == {
        "totalTeachers": 4,
        "activeTeachers": 3,
        "overCapacityTeachers": 1,
        "underUtilizedTeachers": 3,
        "averageUtilization": 6.4,
    }


def test_year_grid_has_53_weeks_and_excludes_inactive_teachers(api, grid_world):
    body = api.get("/api/teachers/allocation-gantt", {"year": 2026}).json()
    assert body["term"] is None
    assert len(body["weeks"]) == 53
    assert body["weeks"][-1]["weekEnd"] == "2027-01-03"
    alice = body["teachers"][0]
    assert sum(wk["totalHours"] for wk in alice["weeklyStats"]) == 2 + 6 + 19 + 4  # + s4 in August
    names = [t["teacherName"] for t in body["teachers"]]
    assert "Cara Cole" not in names  # inactive: s9 is not shown


def test_under_utilised_and_over_capacity_counts(api, org):
    busy = f.make_teacher(org, first_name="Busy", max_weekly_hours=10)
    f.make_teacher(org, first_name="Idle", max_weekly_hours=10)
    g, u = f.make_block_group(org), f.make_unit(org)
    # Term 2 of 2027 (quarters): 1 April (Thursday) to 30 June -> weeks from Monday 29 March: 14 weeks.
    day = date(2027, 3, 29)
    for n in range(14):
        monday = date.fromordinal(day.toordinal() + 7 * n)
        f.make_session(org, block_group=g, unit=u, teacher=busy, actual_date=monday, start=time(8), end=time(16))  # 8 h = 80 %
    body = api.get("/api/teachers/allocation-gantt", {"year": 2027, "term": 2}).json()
    assert len(body["weeks"]) == 14
    by_name = {t["teacherName"].split()[0]: t for t in body["teachers"]}
    assert by_name["Busy"]["yearlyStats"]["utilizationPercentage"] == 80.0
    assert body["summary"]["underUtilizedTeachers"] == 1  # Idle only (Busy is at 80 %)
    assert body["summary"]["overCapacityTeachers"] == 0
    assert body["summary"]["averageUtilization"] == 40.0


def test_term_from_term_breaks_and_term_without_days(api, world):
    f.make_holiday(world.org, name="Break", type="term_break", start_date=date(2026, 2, 20), end_date=date(2026, 3, 3))
    body = api.get("/api/teachers/allocation-gantt", {"year": 2026, "term": 2}).json()
    # Term 2 = 4 March to 31 December: first week starts Monday 2 March.
    assert body["weeks"][0]["weekStart"] == "2026-03-02"
    assert body["weeks"][-1]["weekEnd"] == "2027-01-03"
    body3 = api.get("/api/teachers/allocation-gantt", {"year": 2026, "term": 3}).json()
    assert body3["weeks"] == []
    assert all(t["weeklyStats"] == [] and t["yearlyStats"]["utilizationPercentage"] == 0 for t in body3["teachers"])


def test_grid_is_admin_only(member_api, api, world):
    res = member_api.get("/api/teachers/allocation-gantt", {"year": 2026})
    assert res.status_code == 403
    assert res.json() == {"message": "Forbidden"}
    assert api.get("/api/teachers/allocation-gantt", {"year": 2026}).status_code == 200


@pytest.mark.parametrize("term", ["0", "5", "x", "1.5"])
def test_bad_term_is_400(api, term):
    res = api.get("/api/teachers/allocation-gantt", {"year": 2026, "term": term})
    assert res.status_code == 400
    assert res.json()["errors"] == [{"path": ["term"], "message": "Term must be 1, 2, 3 or 4"}]


def test_all_terms_spelled_out(api, world):
    a = api.get("/api/teachers/allocation-gantt", {"year": 2026, "term": "all"}).json()
    b = api.get("/api/teachers/allocation-gantt", {"year": 2026, "term": ""}).json()
    assert len(a["weeks"]) == len(b["weeks"]) == 53


def test_other_org_sees_none_of_it(other_api, world):
    body = other_api.get("/api/teachers/allocation-gantt", {"year": 2026}).json()
    assert body["teachers"] == [] and body["summary"]["totalTeachers"] == 0
    assert body["summary"]["averageUtilization"] == 0.0
