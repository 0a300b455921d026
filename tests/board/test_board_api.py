"""The planner board's reads (ADR 0026): the range of one scope, the conflict index of a dragged session
(it agrees with the server's answer on drop), the teachers a session can be given; fixed query counts,
tenancy and bad input."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from project.planning.models import LinkedBlockGroup, LinkedBlockGroupMember
from project.staff.models import TeacherLeave
from project.timetabling.models import TimetableSession
from tests import factories as f

pytestmark = pytest.mark.django_db

MON = date(2026, 3, 2)
RANGE = {"from": "2026-03-02", "to": "2026-03-15"}


@pytest.fixture
def world(org):
    unit = f.make_unit(org, code="ICTCYS407", name="Gather cyber security data")
    other_unit = f.make_unit(org, code="ICTPRG302")
    campus = f.make_campus(org, name="Preston")
    group = f.make_block_group(org, code="CYB-1", campus=campus)
    other = f.make_block_group(org, code="PRG-1")
    sam, kim = f.make_teacher(org, first_name="Sam", last_name="Lee"), f.make_teacher(org, first_name="Kim", last_name="Ng")
    f.qualify(sam, unit)
    f.qualify(kim, unit)
    mine = f.make_session(org, block_group=group, unit=unit, actual_date=MON, teacher=sam, room="B1.01")
    unassigned = f.make_session(org, block_group=group, unit=unit, actual_date=MON + timedelta(days=2))
    # Kim teaches PRG-1 on Tuesday 09:00-12:00 in B2; PRG-1 has B1.01 on Thursday 13:00-16:00.
    kim_tue = f.make_session(org, block_group=other, unit=other_unit, actual_date=MON + timedelta(days=1), teacher=kim, room="B2")
    room_thu = f.make_session(
        org, block_group=other, unit=other_unit, actual_date=MON + timedelta(days=3), start=time(13), end=time(16), room="b1.01"
    )
    f.make_holiday(org, name="Labour Day", start_date=MON + timedelta(days=7))
    TeacherLeave.objects.create(
        organization=org, teacher=sam, start_date=MON + timedelta(days=4), end_date=MON + timedelta(days=4)
    )
    return {
        "unit": unit,
        "group": group,
        "other": other,
        "campus": campus,
        "sam": sam,
        "kim": kim,
        "mine": mine,
        "unassigned": unassigned,
        "kim_tue": kim_tue,
        "room_thu": room_thu,
    }


def test_board_of_a_block_group_lists_its_sessions_and_shading(api, world):
    r = api.get("/api/board", {"blockGroupId": str(world["group"].id), **RANGE})
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["title"] == f"CYB-1 {world['group'].name}"
    assert [s["id"] for s in body["sessions"]] == [str(world["mine"].id), str(world["unassigned"].id)]
    first = body["sessions"][0]
    assert first["unit"]["code"] == "ICTCYS407" and first["blockGroup"]["code"] == "CYB-1"
    assert first["teacher"] == {"id": str(world["sam"].id), "name": "Sam Lee"}
    assert first["room"] == "B1.01" and first["startTime"] == "09:00" and first["endTime"] == "12:00"
    assert first["status"] == "scheduled" and first["updatedAt"]
    assert body["sessions"][1]["teacher"] is None
    kinds = {(s["kind"], s["start"]) for s in body["shading"]}
    assert ("public_holiday", "2026-03-09") in kinds
    assert ("leave", "2026-03-06") in kinds  # the leave of Sam, a teacher of the board's sessions


@pytest.mark.parametrize(
    ("scope", "expect"),
    [("teacherId", ["mine"]), ("campusId", ["mine", "unassigned"])],
)
def test_board_of_a_teacher_and_a_campus(api, world, scope, expect):
    key = {"teacherId": "sam", "campusId": "campus"}[scope]
    r = api.get("/api/board", {scope: str(world[key].id), **RANGE})
    assert r.status_code == 200, r.content
    assert [s["id"] for s in r.json()["sessions"]] == [str(world[k].id) for k in expect]


def test_board_range_is_inclusive_and_bounded(api, world):
    one_day = api.get("/api/board", {"blockGroupId": str(world["group"].id), "from": "2026-03-02", "to": "2026-03-02"})
    assert [s["id"] for s in one_day.json()["sessions"]] == [str(world["mine"].id)]


def test_foreign_ids_are_404_and_bad_input_400(api, other_api, other_org, world):
    for scope, key, label in (
        ("blockGroupId", "group", "Block group"),
        ("teacherId", "sam", "Teacher"),
        ("campusId", "campus", "Campus"),
    ):
        r = other_api.get("/api/board", {scope: str(world[key].id), **RANGE})
        assert r.status_code == 404 and r.json()["message"] == f"{label} not found"
    r = other_api.get("/api/board/conflict-index", {"sessionId": str(world["mine"].id), **RANGE})
    assert r.status_code == 404 and r.json()["message"] == "Timetable session not found"
    assert other_api.get("/api/board/teachers", {"sessionId": str(world["mine"].id)}).status_code == 404
    r = api.get("/api/board/conflict-index", {"sessionId": str(world["mine"].id), "teacherId": str(world["sam"].id), **RANGE})
    assert r.status_code == 200
    foreign_teacher = f.make_teacher(other_org)
    r = api.get("/api/board/conflict-index", {"sessionId": str(world["mine"].id), "teacherId": str(foreign_teacher.id), **RANGE})
    assert r.status_code == 404 and r.json()["message"] == "Teacher not found"
    group = str(world["group"].id)
    bad = [
        ({"blockGroupId": group}, "Start date (from) is required"),
        ({"blockGroupId": group, "from": "2026-03-02"}, "End date (to) is required"),
        ({**RANGE}, "Give exactly one of blockGroupId, teacherId, roomId or campusId"),
        ({"blockGroupId": group, "teacherId": str(world["sam"].id), **RANGE}, "Give exactly one"),
        ({"blockGroupId": "nope", **RANGE}, "Block group not found"),
        ({"blockGroupId": group, "from": "2026-03-10", "to": "2026-03-01"}, "End date must be on or after start date"),
        ({"blockGroupId": group, "from": "2026-01-01", "to": "2026-12-31"}, "at most 190 days"),
        ({"blockGroupId": group, "from": "1900-01-01", "to": "1900-01-02"}, "between 2000 and 2100"),
    ]
    for params, message in bad:
        r = api.get("/api/board", params)
        assert r.status_code == 400, (params, r.content)
        body = r.json()
        assert body["type"] == "validation_error"
        assert message in " ".join(e["message"] for e in body["errors"]), (params, body)
    assert api.get("/api/board/conflict-index", RANGE).status_code == 400
    assert (
        api.get("/api/board/conflict-index", {"sessionId": str(world["mine"].id), "teacherId": "x", **RANGE}).status_code == 400
    )
    assert api.get("/api/board/teachers").status_code == 400


def _blocked_at(index: dict, day: date, start: str, end: str) -> list[str]:
    out = []
    for b in index["blocked"]:
        if b["date"] != day.isoformat():
            continue
        if b["startTime"] is None or (b["startTime"] < end and start < b["endTime"]):
            out.append(b["type"])
    return out


def _move(api, session: TimetableSession, day: date, start: str, end: str, **extra):
    current = api.get(f"/api/timetables/{session.id}")
    body = {
        "blockGroupId": str(session.block_group_id),
        "unitId": str(session.unit_id),
        "teacherId": str(session.teacher_id) if session.teacher_id else None,
        "room": session.room,
        "actualDate": day.isoformat(),
        "startTime": start + ":00",
        "endTime": end + ":00",
        "status": session.status,
        **extra,
    }
    return api.put(f"/api/timetables/{session.id}", body, headers={"If-Match": current["ETag"]})


def test_conflict_index_agrees_with_the_server_on_drop(api, world):
    """For each candidate slot: blocked in the index exactly when the existing update refuses it (409)."""
    s = world["mine"]
    index = api.get("/api/board/conflict-index", {"sessionId": str(s.id), **RANGE}).json()
    assert index["qualified"] is True
    candidates = [
        (MON + timedelta(days=1), "09:00", "12:00", []),  # Tuesday: free for Sam, group and room
        (MON + timedelta(days=2), "10:00", "11:00", ["group_double_booked"]),  # the group's other session
        (MON + timedelta(days=3), "14:00", "15:00", ["room_double_booked"]),  # B1.01 (spelt "b1.01") booked
        (MON + timedelta(days=3), "09:00", "12:00", []),  # Thursday morning: room free
        (MON + timedelta(days=4), "09:00", "12:00", ["teacher_on_leave"]),
        (MON + timedelta(days=7), "09:00", "12:00", ["holiday"]),
    ]
    for day, start, end, expected in candidates:
        assert _blocked_at(index, day, start, end) == expected, (day, start)
    reasons = {b["type"]: b["reason"] for b in index["blocked"]}
    assert reasons["holiday"] == "Public holiday: Labour Day"
    assert reasons["room_double_booked"].startswith("Room B1.01 is booked for PRG-1 ICTPRG302 13:00")
    for day, start, end, expected in reversed(candidates):  # the free Tuesday last: it moves the session
        s.refresh_from_db()
        r = _move(api, s, day, start, end)
        assert (r.status_code == 409) == bool(expected), (day, start, r.content)
        if expected:
            assert {c["type"] for c in r.json()["conflicts"]} == set(expected)


def test_conflict_index_for_a_candidate_teacher(api, world):
    """Dropping the unassigned Wednesday session onto Kim: Kim's Tuesday is blocked, and the drop onto
    Sam on a free slot is saved by the existing update."""
    s = world["unassigned"]
    index = api.get("/api/board/conflict-index", {"sessionId": str(s.id), "teacherId": str(world["kim"].id), **RANGE}).json()
    assert index["teacherId"] == str(world["kim"].id)
    assert _blocked_at(index, MON + timedelta(days=1), "09:00", "12:00") == ["teacher_double_booked"]
    none = api.get("/api/board/conflict-index", {"sessionId": str(s.id), "teacherId": "unassigned", **RANGE}).json()
    assert none["teacherId"] is None and _blocked_at(none, MON + timedelta(days=1), "09:00", "12:00") == []
    r = _move(api, s, MON + timedelta(days=1), "09:00", "12:00", teacherId=str(world["kim"].id))
    assert r.status_code == 409 and r.json()["conflicts"][0]["type"] == "teacher_double_booked"
    unqualified = f.make_teacher(world["group"].organization, first_name="Una")
    index = api.get("/api/board/conflict-index", {"sessionId": str(s.id), "teacherId": str(unqualified.id), **RANGE}).json()
    assert index["qualified"] is False


def test_conflict_index_blocks_time_outside_a_painted_availability(api, org, world):
    """Sam, painted to Monday and Wednesday 08:00-17:00 (ADR 0027): the index blocks Tuesday and the
    evenings as ``teacher_outside_availability`` (the times GET /api/teachers/unavailable gives the board to
    shade), and agrees with the server's answer on drop."""
    from project.staff.models import TeacherAvailability

    TeacherAvailability.objects.create(
        organization=org,
        teacher=world["sam"],
        custom=True,
        windows=[{"weekday": 0, "start": "08:00", "end": "17:00"}, {"weekday": 2, "start": "08:00", "end": "17:00"}],
    )
    s = world["mine"]
    index = api.get("/api/board/conflict-index", {"sessionId": str(s.id), **RANGE}).json()
    away = [b for b in index["blocked"] if b["type"] == "teacher_outside_availability"]
    shaded = api.get("/api/teachers/unavailable", {"start": RANGE["from"], "end": RANGE["to"], "teacherId": str(world["sam"].id)})
    assert shaded.status_code == 200, shaded.content
    assert [(b["date"], b["startTime"], b["endTime"]) for b in away] == [
        (u["date"], u["start"], u["end"]) for u in sorted(shaded.json(), key=lambda u: (u["date"], u["start"]))
    ]
    assert {"date": MON.isoformat(), "startTime": "17:00", "endTime": "22:00"}.items() <= away[1].items()
    assert away[0]["reason"] == "Unavailable: outside the teacher's availability"
    candidates = [
        (MON + timedelta(days=1), "09:00", "12:00", ["teacher_outside_availability"]),  # Tuesday
        (MON, "17:30", "19:00", ["teacher_outside_availability"]),  # Monday evening
        (MON, "13:00", "16:00", []),  # Monday afternoon: inside the window
    ]
    for day, start, end, expected in candidates:
        assert _blocked_at(index, day, start, end) == expected, (day, start)
    for day, start, end, expected in candidates:
        s.refresh_from_db()
        r = _move(api, s, day, start, end)
        assert (r.status_code == 409) == bool(expected), (day, start, r.content)
        if expected:
            assert {c["type"] for c in r.json()["conflicts"]} == set(expected)
    # Unassigned, or dropped onto Kim (unpainted): nothing blocked for availability.
    for extra in ({"teacherId": "unassigned"}, {"teacherId": str(world["kim"].id)}):
        other = api.get("/api/board/conflict-index", {"sessionId": str(s.id), **RANGE, **extra}).json()
        assert not [b for b in other["blocked"] if b["type"] == "teacher_outside_availability"]


def test_co_delivered_groups_share_teacher_and_room(api, org, world):
    link = LinkedBlockGroup.objects.create(organization=org, name="Linked")
    for g in (world["group"], world["other"]):
        LinkedBlockGroupMember.objects.create(organization=org, linked_group=link, block_group=g)
    index = api.get("/api/board/conflict-index", {"sessionId": str(world["mine"].id), **RANGE}).json()
    assert _blocked_at(index, MON + timedelta(days=3), "14:00", "15:00") == []


def test_cancelled_sessions_never_block(api, world):
    world["room_thu"].status = TimetableSession.Status.CANCELLED
    world["room_thu"].save()
    index = api.get("/api/board/conflict-index", {"sessionId": str(world["mine"].id), **RANGE}).json()
    assert _blocked_at(index, MON + timedelta(days=3), "14:00", "15:00") == []


def test_teachers_qualified_with_their_week_load_and_clash(api, world):
    r = api.get("/api/board/teachers", {"sessionId": str(world["kim_tue"].id)})
    assert r.status_code == 200 and r.json() == []  # nobody holds ICTPRG302
    # The unassigned session moved to Tuesday 09:00: Kim teaches then.
    s = world["unassigned"]
    s.actual_date = MON + timedelta(days=1)
    s.save()
    rows = {t["name"]: t for t in api.get("/api/board/teachers", {"sessionId": str(s.id)}).json()}
    assert set(rows) == {"Sam Lee", "Kim Ng"}
    assert rows["Kim Ng"]["weekHours"] == 3.0 and rows["Kim Ng"]["clash"].startswith("Teaches PRG-1 ICTPRG302 09:00")
    assert rows["Sam Lee"]["weekHours"] == 3.0 and rows["Sam Lee"]["clash"] is None


def test_fixed_query_counts_on_1000_sessions(api, org, world, django_assert_max_num_queries):
    rows = []
    for n in range(1000):
        day = MON + timedelta(days=n % 60)
        rows.append(
            TimetableSession(
                organization=org,
                block_group=world["group"],
                unit=world["unit"],
                teacher=world["kim"] if n % 2 else world["sam"],
                actual_date=day,
                day_of_week=day.isoweekday(),
                start_time=time(8 + n % 9),
                end_time=time(9 + n % 9),
                room="B1.01" if n % 3 else "",
            )
        )
    TimetableSession.objects.unscoped().bulk_create(rows)
    wide = {"from": "2026-03-01", "to": "2026-05-31"}
    with django_assert_max_num_queries(9):  # the session's auth and org (3-4) plus the board's 3
        r = api.get("/api/board", {"blockGroupId": str(world["group"].id), **wide})
    assert r.status_code == 200 and len(r.json()["sessions"]) > 1000
    with django_assert_max_num_queries(12):
        r = api.get("/api/board/conflict-index", {"sessionId": str(world["mine"].id), **wide})
    assert r.status_code == 200 and len(r.json()["blocked"]) > 1000
    with django_assert_max_num_queries(11):
        r = api.get("/api/board/teachers", {"sessionId": str(world["mine"].id)})
    assert r.status_code == 200 and len(r.json()) == 2
