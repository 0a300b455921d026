"""Teacher leave (ADR 0014): ``/api/teachers/{id}/leave`` and the ``teacher_on_leave`` conflict.

CRUD with the form's messages, If-Match and tenancy; one change event per write; a session of the
teacher in the leave (whole days, or overlapping the hours of part-day leave) carries the hard
``teacher_on_leave`` conflict in the timetable list and ``/conflicts``; allocating a teacher on leave is
refused (409) one session or in bulk; auto-allocation and recommendations keep to it.
"""

from __future__ import annotations

from datetime import date, time

import pytest

from project.staff.models import TeacherLeave
from project.timetabling.models import TimetableSession
from tests import factories as f
from tests.checks import org_events

MON = date(2026, 3, 2)
FORM = {"startDate": "2026-03-02", "endDate": "2026-03-04", "reason": "Conference"}


@pytest.fixture
def world(org):
    unit = f.make_unit(org, code="ICTICT214", name="Operate application software")
    group = f.make_block_group(org, code="G1", name="Group one", start_date=date(2026, 2, 2))
    kim = f.make_teacher(org, first_name="Kim", last_name="Nguyen")
    sam = f.make_teacher(org, first_name="Sam", last_name="Lee")
    for t in (kim, sam):
        f.qualify(t, unit)
    return {"unit": unit, "group": group, "kim": kim, "sam": sam}


def _url(teacher, leave=None) -> str:
    return f"/api/teachers/{teacher.pk}/leave" + (f"/{leave}" if leave else "")


def test_create_list_update_delete(api, world, org, captured_events, django_capture_on_commit_callbacks):
    kim = world["kim"]
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post(_url(kim), FORM)
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["teacherId"] == str(kim.pk) and body["startDate"] == "2026-03-02" and body["endDate"] == "2026-03-04"
    assert body["startTime"] is None and body["endTime"] is None and body["reason"] == "Conference"
    assert created["ETag"]
    part = api.post(
        _url(kim), {"startDate": "2026-02-20", "endDate": "2026-02-20", "startTime": "13:00", "endTime": "15:30"}
    ).json()
    assert part["startTime"] == "13:00:00" and part["endTime"] == "15:30:00" and part["reason"] == ""
    assert [x["id"] for x in api.get(_url(kim)).json()] == [part["id"], body["id"]]  # by start date

    etag = api.get(_url(kim, body["id"]))["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        updated = api.put(_url(kim, body["id"]), {**FORM, "endDate": "2026-03-06"}, headers={"If-Match": etag})
    assert updated.status_code == 200 and updated.json()["endDate"] == "2026-03-06"
    assert api.put(_url(kim, body["id"]), FORM, headers={"If-Match": etag}).status_code == 412
    assert TeacherLeave.objects.for_org(org).get(pk=body["id"]).end_date == date(2026, 3, 6)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(_url(kim, body["id"])).status_code == 204
    assert [x["id"] for x in api.get(_url(kim)).json()] == [part["id"]]
    events = [(e["entity"], e["action"], e["ids"]) for e in org_events(captured_events, org)]
    assert events == [
        ("teacher_leave", "created", [body["id"]]),
        ("teacher_leave", "updated", [body["id"]]),
        ("teacher_leave", "deleted", [body["id"]]),
    ]


@pytest.mark.parametrize(
    "change, path, message",
    [
        ({"startDate": None}, "startDate", "Start date is required"),
        ({"endDate": ""}, "endDate", "End date is required"),
        ({"endDate": "2026-03-01"}, "endDate", "End date must be on or after start date"),
        ({"startTime": "09:00"}, "endTime", "End time is required with a start time"),
        ({"endTime": "09:00"}, "startTime", "Start time is required with an end time"),
        ({"startTime": "12:00", "endTime": "09:00"}, "endTime", "End time must be after start time"),
        ({"reason": "x" * 256}, "reason", "Reason must be at most 255 characters"),
        ({"startDate": "1999-12-31"}, "startDate", "Start date must be between 2000 and 2100"),
    ],
)
def test_validation_is_400_at_the_field_and_writes_nothing(api, world, org, change, path, message):
    r = api.post(_url(world["kim"]), {**FORM, **change})
    assert r.status_code == 400, r.json()
    assert {"path": [path], "message": message} in r.json()["errors"]
    assert not TeacherLeave.objects.for_org(org).exists()


def test_another_organizations_teacher_or_leave_is_404(api, other_api, world, other_org):
    theirs = f.make_teacher(other_org, first_name="Other", last_name="Teacher")
    assert api.get(_url(theirs)).status_code == 404
    assert api.post(_url(theirs), FORM).json()["message"] == "Teacher not found"
    mine = api.post(_url(world["kim"]), FORM).json()
    assert other_api.get(_url(world["kim"], mine["id"])).status_code == 404
    assert other_api.delete(_url(world["kim"], mine["id"])).status_code == 404
    # Another teacher's URL does not reach this leave either.
    assert api.get(_url(world["sam"], mine["id"])).json()["message"] == "Leave not found"


def test_sessions_in_the_leave_carry_the_hard_conflict(api, world, org):
    kim, group, unit = world["kim"], world["group"], world["unit"]
    morning = f.make_session(org, block_group=group, unit=unit, teacher=kim, actual_date=MON, start=time(9), end=time(12))
    afternoon = f.make_session(org, block_group=group, unit=unit, teacher=kim, actual_date=MON, start=time(13), end=time(16))
    later = f.make_session(org, block_group=group, unit=unit, teacher=kim, actual_date=date(2026, 3, 9))
    group2 = f.make_block_group(org, code="G2", name="Group two", start_date=date(2026, 2, 2))
    other = f.make_session(
        org, block_group=group2, unit=unit, teacher=world["sam"], actual_date=MON, start=time(13), end=time(16)
    )
    # Part-day leave on Monday afternoon (13:00-15:00) for a medical appointment.
    assert (
        api.post(
            _url(kim),
            {"startDate": "2026-03-02", "endDate": "2026-03-02", "startTime": "13:00", "endTime": "15:00", "reason": "Medical"},
        ).status_code
        == 201
    )
    rows = {r["id"]: r["conflicts"] for r in api.get("/api/timetables").json()}
    assert rows[str(afternoon.pk)] == ["teacher_on_leave"]
    assert rows[str(morning.pk)] == [] and rows[str(later.pk)] == [] and rows[str(other.pk)] == []
    listed = api.get("/api/timetables/conflicts", {"start": "2026-03-01", "end": "2026-03-31"}).json()
    assert listed == [
        {
            "type": "teacher_on_leave",
            "severity": "hard",
            "sessionIds": [str(afternoon.pk)],
            "message": "Kim Nguyen is on leave on 2026-03-02 13:00-15:00 (Medical)",
            "date": "2026-03-02",
        }
    ]
    # Whole-day leave for the week: both Monday sessions.
    api.post(_url(kim), FORM)
    rows = {r["id"]: r["conflicts"] for r in api.get("/api/timetables", {"teacherId": str(kim.pk)}).json()}
    assert rows[str(morning.pk)] == ["teacher_on_leave"] and rows[str(afternoon.pk)] == ["teacher_on_leave"]
    assert rows[str(later.pk)] == []
    # A cancelled session never conflicts.
    TimetableSession.objects.for_org(org).filter(pk=morning.pk).update(status="cancelled")
    assert api.get("/api/timetables", {"ids": str(morning.pk)}).json()[0]["conflicts"] == []


def test_allocating_a_teacher_on_leave_is_refused(api, world, org):
    kim, group, unit = world["kim"], world["group"], world["unit"]
    s1 = f.make_session(org, block_group=group, unit=unit, actual_date=MON)
    s2 = f.make_session(org, block_group=group, unit=unit, actual_date=date(2026, 3, 9))
    api.post(_url(kim), FORM)
    r = api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(s1.pk), str(s2.pk)], "teacherId": str(kim.pk)})
    assert r.status_code == 409
    assert [c["type"] for c in r.json()["conflicts"]] == ["teacher_on_leave"]
    assert not TimetableSession.objects.for_org(org).filter(teacher=kim).exists()
    assert api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(s2.pk)], "teacherId": str(kim.pk)}).status_code == 200
    # Recommendations: Kim breaks not_on_leave for the Monday session; Sam is first.
    recs = api.get(f"/api/timetables/{s1.pk}/recommendations").json()["recommendations"]
    assert recs[0]["teacherName"] == "Sam Lee" and recs[0]["eligible"]
    kim_row = next(r for r in recs if r["teacherName"] == "Kim Nguyen")
    rule = next(r for r in kim_row["rules"] if r["rule"] == "not_on_leave")
    assert not kim_row["eligible"] and rule == {
        "rule": "not_on_leave",
        "met": False,
        "message": "On leave 2026-03-02 to 2026-03-04 (Conference)",
    }


def test_auto_allocation_keeps_to_leave(api, world, org):
    kim, sam, group, unit = world["kim"], world["sam"], world["group"], world["unit"]
    sessions = [
        f.make_session(org, block_group=group, unit=unit, actual_date=d) for d in (MON, date(2026, 3, 3), date(2026, 3, 9))
    ]
    api.post(_url(kim), FORM)
    api.post(_url(sam), {**FORM, "endDate": "2026-03-02"})
    proposal = api.post("/api/timetables/auto-allocate", {"blockGroupId": str(group.pk)}).json()
    got = {a["sessionId"]: a["teacherId"] for a in proposal["assignments"]}
    assert got[str(sessions[1].pk)] == str(sam.pk)  # Kim is away all three days, Sam only Monday
    assert str(sessions[0].pk) not in got
    reason = next(u["reason"] for u in proposal["unassignable"] if u["sessionId"] == str(sessions[0].pk))
    assert reason == "Every teacher qualified for ICTICT214 is on leave on 2026-03-02"
