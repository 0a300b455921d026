"""``GET /api/replan/impact`` (ADR 0014): the sessions a holiday, term break, campus closure or leave hits.

Closures hit every session that is not cancelled on a closed day (of one campus when given); leave hits
the teacher's sessions in it (for part-day leave, those overlapping its hours). Answered by block group
and by teacher with hours, for saved and proposed changes; errors in the documented shape; another
organization's ids are 404; the number of queries does not grow with the sessions hit.
"""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import factories as f

MON = date(2026, 3, 9)


@pytest.fixture
def world(org):
    unit = f.make_unit(org, code="BSBOPS304", name="Deliver and monitor a service")
    cbd = f.make_campus(org, name="City", abbreviation="CBD")
    north = f.make_campus(org, name="Northern", abbreviation="NTH")
    g1 = f.make_block_group(org, code="G1", campus=cbd)
    g2 = f.make_block_group(org, code="G2", campus=north)
    kim = f.make_teacher(org, first_name="Kim", last_name="Nguyen")
    sessions = {
        "g1_mon_am": f.make_session(org, block_group=g1, unit=unit, teacher=kim, actual_date=MON, start=time(9), end=time(12)),
        "g1_mon_pm": f.make_session(org, block_group=g1, unit=unit, actual_date=MON, start=time(13), end=time(15)),
        "g2_mon": f.make_session(org, block_group=g2, unit=unit, teacher=kim, actual_date=MON, start=time(17), end=time(20)),
        "g2_tue": f.make_session(org, block_group=g2, unit=unit, teacher=kim, actual_date=MON + timedelta(days=1)),
        "g1_cancelled": f.make_session(
            org, block_group=g1, unit=unit, actual_date=MON, start=time(15), end=time(17), status="cancelled"
        ),
    }
    return {"unit": unit, "cbd": cbd, "north": north, "g1": g1, "g2": g2, "kim": kim, **sessions}


def _ids(*sessions) -> set[str]:
    return {str(s.pk) for s in sessions}


def test_a_proposed_closure_day(api, world):
    r = api.get("/api/replan/impact", {"start": "2026-03-09", "end": "2026-03-09"})
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["kind"] == "closure" and body["start"] == body["end"] == "2026-03-09"
    assert body["sessionCount"] == 3 and body["hours"] == 8.0 and body["blockGroupCount"] == 2 and body["teacherCount"] == 1
    assert {s["id"] for s in body["sessions"]} == _ids(world["g1_mon_am"], world["g1_mon_pm"], world["g2_mon"])
    assert [(g["code"], g["sessionCount"], g["hours"]) for g in body["byBlockGroup"]] == [("G1", 2, 5.0), ("G2", 1, 3.0)]
    assert [(t["name"], t["sessionCount"], t["hours"]) for t in body["byTeacher"]] == [
        ("Kim Nguyen", 2, 6.0),
        ("Unassigned", 1, 2.0),
    ]
    assert body["byTeacher"][1]["teacherId"] is None


def test_a_campus_closure_hits_its_groups_only(api, world):
    body = api.get("/api/replan/impact", {"start": "2026-03-09", "end": "2026-03-10", "campusId": str(world["north"].pk)}).json()
    assert body["description"] == "Closure of Northern"
    assert {s["id"] for s in body["sessions"]} == _ids(world["g2_mon"], world["g2_tue"])


def test_a_saved_holiday_and_a_recurring_one(api, world, org):
    added = api.post("/api/holidays", {"name": "Labour Day", "startDate": "2026-03-09", "endDate": "2026-03-09"}).json()
    body = api.get("/api/replan/impact", {"holidayId": added["id"]}).json()
    assert body["description"] == "Holiday Labour Day" and body["sessionCount"] == 3
    # A recurring term break first set in 2020 still falls on 10 March 2026.
    f.make_holiday(org, name="Old break", type="term_break", start_date=date(2020, 3, 10), is_recurring=True, year=2020)
    from project.timetabling.models import Holiday

    old = Holiday.objects.for_org(org).get(name="Old break")
    body = api.get("/api/replan/impact", {"holidayId": str(old.pk)}).json()
    assert body["description"] == "Term break Old break"
    assert {s["id"] for s in body["sessions"]} == _ids(world["g2_tue"])


def test_leave_saved_and_proposed_part_day(api, world):
    kim = world["kim"]
    leave = api.post(f"/api/teachers/{kim.pk}/leave", {"startDate": "2026-03-09", "endDate": "2026-03-10"}).json()
    body = api.get("/api/replan/impact", {"leaveId": leave["id"]}).json()
    assert body["kind"] == "leave" and body["description"] == "Kim Nguyen's leave"
    assert {s["id"] for s in body["sessions"]} == _ids(world["g1_mon_am"], world["g2_mon"], world["g2_tue"])
    assert [t["name"] for t in body["byTeacher"]] == ["Kim Nguyen"]
    # Proposed: Monday 11:00-18:00 overlaps the morning and the evening session, not Tuesday.
    body = api.get(
        "/api/replan/impact",
        {"teacherId": str(kim.pk), "start": "2026-03-09", "end": "2026-03-09", "startTime": "11:00", "endTime": "18:00"},
    ).json()
    assert {s["id"] for s in body["sessions"]} == _ids(world["g1_mon_am"], world["g2_mon"])


@pytest.mark.parametrize(
    "params, path, message",
    [
        ({}, "start", "Start date is required"),
        ({"start": "2026-03-09"}, "end", "End date is required"),
        ({"start": "2026-03-09", "end": "2026-03-08"}, "end", "End date must be on or after start date"),
        ({"start": "2026-01-01", "end": "2027-03-01"}, "end", "The range can be at most 400 days"),
        ({"start": "1999-03-09", "end": "2026-03-08"}, "start", "Start date must be between 2000 and 2100"),
    ],
)
def test_bad_ranges_are_400(api, world, params, path, message):
    r = api.get("/api/replan/impact", params)
    assert r.status_code == 400
    assert {"path": [path], "message": message} in r.json()["errors"]


def test_part_day_times_are_checked(api, world):
    base = {"teacherId": str(world["kim"].pk), "start": "2026-03-09", "end": "2026-03-09"}
    assert api.get("/api/replan/impact", {**base, "startTime": "11:00"}).status_code == 400
    r = api.get("/api/replan/impact", {**base, "startTime": "11:00", "endTime": "10:00"})
    assert r.json()["errors"] == [{"path": ["endTime"], "message": "End time must be after start time"}]


def test_another_organizations_ids_are_404(api, other_api, world, other_org):
    theirs = f.make_holiday(other_org)
    assert api.get("/api/replan/impact", {"holidayId": str(theirs.pk)}).json()["message"] == "Holiday not found"
    assert (
        other_api.get(
            "/api/replan/impact", {"teacherId": str(world["kim"].pk), "start": "2026-03-09", "end": "2026-03-09"}
        ).json()["message"]
        == "Teacher not found"
    )
    assert (
        other_api.get(
            "/api/replan/impact", {"start": "2026-03-09", "end": "2026-03-09", "campusId": str(world["cbd"].pk)}
        ).status_code
        == 404
    )
    mine = other_api.get("/api/replan/impact", {"start": "2026-03-09", "end": "2026-03-09"}).json()
    assert mine["sessionCount"] == 0 and mine["byBlockGroup"] == []


def test_queries_do_not_grow_with_the_sessions_hit(api, world, org):
    params = {"start": "2026-03-01", "end": "2026-03-31"}
    with CaptureQueriesContext(connection) as few:
        api.get("/api/replan/impact", params)
    for i in range(30):
        f.make_session(
            org,
            block_group=world["g1"],
            unit=world["unit"],
            actual_date=MON + timedelta(days=i % 20),
            start=time(6 + i % 10),
            end=time(7 + i % 10),
        )
    with CaptureQueriesContext(connection) as many:
        body = api.get("/api/replan/impact", params).json()
    assert body["sessionCount"] == 34
    assert len(many) == len(few)
