"""Rooms as records (ADR 0019): ``/api/rooms`` CRUD (admins write, everyone reads), a session's
room matched to a room by code with case and spacing ignored (so "CBD-3.12" and "cbd 3.12" clash), rooms
made from the room texts already in use, tenancy and the documented error shapes."""

from __future__ import annotations

from datetime import date, time

from project.catalogue.models import Room
from project.planning.models import BlockGroup
from project.timetabling.models import TimetableSession
from tests import factories as f


def _room(api, **body):
    r = api.post("/api/rooms", {"code": "CBD-3.12", "name": "Lab 3.12", "capacity": 24, "type": "computer_lab", **body})
    assert r.status_code == 201, r.json()
    return r.json()


def test_room_create_read_update_delete(api, member_api, org, captured_events, django_capture_on_commit_callbacks):
    campus = f.make_campus(org, name="City", abbreviation="CBD")
    with django_capture_on_commit_callbacks(execute=True):
        room = _room(api, campusId=str(campus.pk), features=[" Cisco rack ", "cisco RACK", "", "Projector"])
    assert room["code"] == "CBD-3.12" and room["campus"] == {"id": str(campus.pk), "name": "City", "abbreviation": "CBD"}
    assert room["features"] == ["Cisco rack", "Projector"] and room["sessionCount"] == 0
    assert [(m["event"]["entity"], m["event"]["action"]) for _g, m in captured_events] == [("room", "created")]
    # Everyone reads; only administrators write.
    assert [r["code"] for r in member_api.get("/api/rooms").json()] == ["CBD-3.12"]
    assert member_api.post("/api/rooms", {"code": "X1"}).status_code == 403
    got = api.get(f"/api/rooms/{room['id']}")
    assert got.status_code == 200 and got.headers["ETag"]
    body = {"code": "CBD-3.14", "name": "Lab 3.14", "capacity": 30, "type": "computer_lab", "campusId": str(campus.pk)}
    stale = api.put(f"/api/rooms/{room['id']}", body, headers={"If-Match": "2000-01-01T00:00:00Z"})
    assert stale.status_code == 412 and Room.objects.get(pk=room["id"]).code == "CBD-3.12"
    updated = api.put(f"/api/rooms/{room['id']}", body, headers={"If-Match": got.headers["ETag"]})
    assert updated.status_code == 200 and updated.json()["code"] == "CBD-3.14"
    assert [r["code"] for r in api.get("/api/rooms", {"type": "computer_lab", "campusId": str(campus.pk)}).json()] == ["CBD-3.14"]
    assert api.get("/api/rooms", {"type": "kitchen"}).json() == []
    assert api.delete(f"/api/rooms/{room['id']}").status_code == 204
    assert api.get(f"/api/rooms/{room['id']}").status_code == 404


def test_room_validation_and_duplicates(api, other_api, other_org):
    _room(api)
    # The same code spelled another way is the same room.
    for code in ("cbd 3.12", "CBD_3.12", " Cbd-3.12 "):
        r = api.post("/api/rooms", {"code": code})
        assert r.status_code == 409 and r.json()["type"] == "duplicate_code", code
    assert other_api.post("/api/rooms", {"code": "CBD-3.12"}).status_code == 201  # another organization
    for body, message in [
        ({"code": ""}, "Code is required"),
        ({"code": "X" * 51}, "Code must be at most 50 characters"),
        ({"code": "X2", "capacity": 0}, "Capacity must be at least 1"),
        ({"code": "X2", "type": "ballroom"}, None),
        ({"code": "X2", "features": "wifi"}, "Features must be a list of texts"),
    ]:
        r = api.post("/api/rooms", body)
        assert r.status_code == 400, body
        if message:
            assert message in [e["message"] for e in r.json()["errors"]], r.json()
    online = _room(api, code="ONLINE-1", type="online", capacity=40)
    assert online["capacity"] is None  # an online room has no capacity
    theirs = f.make_campus(other_org)
    assert api.post("/api/rooms", {"code": "X3", "campusId": str(theirs.pk)}).status_code == 404


def test_a_session_room_is_matched_by_code_ignoring_case_and_spacing(api, org):
    room = _room(api)
    group = f.make_block_group(org)
    other = f.make_block_group(org)
    unit = f.make_unit(org)
    body = {
        "blockGroupId": str(group.pk),
        "unitId": str(unit.pk),
        "actualDate": "2026-03-02",
        "startTime": "09:00:00",
        "endTime": "12:00:00",
        "room": "cbd 3.12",
    }
    first = api.post("/api/timetables", body)
    assert first.status_code == 201, first.json()
    assert first.json()["room"] == "CBD-3.12" and first.json()["roomId"] == room["id"]
    # "CBD_3.12" at the same time is the same room: a room clash, refused (it was two rooms by spelling).
    clash = api.post("/api/timetables", {**body, "blockGroupId": str(other.pk), "room": "CBD_3.12"})
    assert clash.status_code == 409 and "room_double_booked" in [c["type"] for c in clash.json()["conflicts"]]
    # roomId picks the room; free text for a room not recorded stays as typed.
    by_id = api.post(
        "/api/timetables",
        {**body, "blockGroupId": str(other.pk), "startTime": "13:00:00", "endTime": "15:00:00", "room": "", "roomId": room["id"]},
    )
    assert by_id.status_code == 201 and by_id.json()["room"] == "CBD-3.12"
    free = api.post("/api/timetables", {**body, "startTime": "13:00:00", "endTime": "15:00:00", "room": "Gym hall"})
    assert free.json()["room"] == "Gym hall" and free.json()["roomId"] is None
    listed = {s["id"]: s["roomId"] for s in api.get("/api/timetables", {"blockGroupId": str(group.pk)}).json()}
    assert listed == {first.json()["id"]: room["id"], free.json()["id"]: None}
    assert api.post("/api/timetables", {**body, "roomId": "00000000-0000-4000-8000-000000000000"}).status_code in (400, 404)


def test_a_new_room_links_the_sessions_that_name_it_and_a_renamed_room_renames_them(api, org):
    group = f.make_block_group(org)
    unit = f.make_unit(org)
    a = f.make_session(org, block_group=group, unit=unit, room="lab-7", actual_date=date(2026, 3, 2))
    b = f.make_session(org, block_group=group, unit=unit, room="LAB 7", actual_date=date(2026, 3, 3))
    c = f.make_session(org, block_group=group, unit=unit, room="LAB 8", actual_date=date(2026, 3, 4))
    room = _room(api, code="LAB-7")
    rows = {s.pk: (s.room, s.room_record_id) for s in TimetableSession.objects.unscoped().filter(block_group=group)}
    assert rows[a.pk] == rows[b.pk] == ("LAB-7", room_pk := Room.objects.get(pk=room["id"]).pk)
    assert rows[c.pk] == ("LAB 8", None)
    etag = api.get(f"/api/rooms/{room['id']}").headers["ETag"]
    assert api.put(f"/api/rooms/{room['id']}", {"code": "LAB-7A"}, headers={"If-Match": etag}).status_code == 200
    assert set(TimetableSession.objects.unscoped().filter(room_record_id=room_pk).values_list("room", flat=True)) == {"LAB-7A"}
    # A room in use is not deleted (its sessions would lose it): 409, make it inactive instead.
    r = api.delete(f"/api/rooms/{room['id']}")
    assert r.status_code == 409 and "inactive" in r.json()["message"]


def test_the_migration_makes_rooms_of_the_room_texts_in_use(org, other_org):
    """timetabling 0005: one room per distinct text (case and spacing ignored) per organization, spelled as
    most sessions spell it, on the campus most of them are taught at; sessions linked and respelled."""
    from importlib import import_module

    from django.apps import apps

    city = f.make_campus(org, name="City", abbreviation="CTY")
    unit = f.make_unit(org)
    group = f.make_block_group(org, campus=city)
    for day, text in enumerate(["B2.14", "b2.14", "B2.14", "Workshop A", ""], start=2):
        f.make_session(org, block_group=group, unit=unit, room=text, actual_date=date(2026, 3, day), start=time(9))
    theirs = f.make_session(other_org, block_group=f.make_block_group(other_org), unit=f.make_unit(other_org), room="b2.14")
    import_module("project.timetabling.migrations.0005_link_rooms").link_rooms(apps, None)
    rooms = {r.code: r for r in Room.objects.unscoped().filter(organization=org)}
    assert set(rooms) == {"B2.14", "Workshop A"} and rooms["B2.14"].campus_id == city.pk
    texts = TimetableSession.objects.unscoped().filter(block_group=group).exclude(room="")
    assert {(s.room, s.room_record_id) for s in texts} == {("B2.14", rooms["B2.14"].pk), ("Workshop A", rooms["Workshop A"].pk)}
    theirs.refresh_from_db()
    assert theirs.room_record.organization_id == other_org.pk and theirs.room == "b2.14"


def test_another_organizations_room_is_404(api, other_api):
    room = _room(other_api)
    assert api.get(f"/api/rooms/{room['id']}").status_code == 404
    assert api.put(f"/api/rooms/{room['id']}", {"code": "X"}).status_code == 404
    assert api.delete(f"/api/rooms/{room['id']}").status_code == 404
    assert api.get("/api/rooms").json() == []


def test_room_conflicts_capacity_campus_and_online(api, org):
    """A room smaller than the cohort and a room of another campus are soft conflicts (warnings, listed on
    the row); an online room never clashes (ADR 0019)."""
    city, west = f.make_campus(org, name="City", abbreviation="CTY"), f.make_campus(org, name="West", abbreviation="WST")
    lab = _room(api, code="LAB-1", capacity=20, campusId=str(city.pk))
    _room(api, code="Online", type="online", capacity=None)
    big = f.make_block_group(org, code="BIG", cohort_size=30, campus=west)
    small = f.make_block_group(org, code="SMALL", cohort_size=12, campus=city)
    unit = f.make_unit(org)
    body = {"unitId": str(unit.pk), "actualDate": "2026-03-02", "startTime": "09:00:00", "endTime": "12:00:00"}
    r = api.post("/api/timetables", {**body, "blockGroupId": str(big.pk), "room": "lab 1"})
    assert r.status_code == 201, r.json()
    warnings = {w["type"]: w["message"] for w in r.json()["warnings"]}
    assert warnings == {
        "room_over_capacity": "Room LAB-1 seats 20; block group BIG has 30 students",
        "room_other_campus": "Room LAB-1 is at City; block group BIG is taught at West",
    }
    [row] = api.get("/api/timetables", {"blockGroupId": str(big.pk)}).json()
    assert set(row["conflicts"]) == {"room_over_capacity", "room_other_campus"}
    fits = api.post(
        "/api/timetables",
        {**body, "blockGroupId": str(small.pk), "room": "LAB-1", "startTime": "13:00:00", "endTime": "15:00:00"},
    )
    assert fits.status_code == 201 and fits.json()["warnings"] == [] and fits.json()["roomId"] == lab["id"]
    # Two groups online at the same time: no room clash.
    for group in (big, small):
        online = api.post(
            "/api/timetables", {**body, "blockGroupId": str(group.pk), "room": "online", "actualDate": "2026-03-03"}
        )
        assert online.status_code == 201, online.json()
        assert online.json()["warnings"] == [] and online.json()["room"] == "Online"
    listed = api.get("/api/timetables/conflicts", {"start": "2026-03-01", "end": "2026-03-31"}).json()
    assert sorted(c["type"] for c in listed) == ["room_other_campus", "room_over_capacity"]


def test_a_rooms_timetable(api, org, other_api):
    """GET /api/timetables?roomId= lists a recorded room's sessions (room timetables)."""
    room = _room(api, code="LAB-9")
    group, unit = f.make_block_group(org), f.make_unit(org)
    mine = [f.make_session(org, block_group=group, unit=unit, room="LAB-9", actual_date=date(2026, 3, d)) for d in (2, 3)]
    f.make_session(org, block_group=group, unit=unit, room="LAB-10", actual_date=date(2026, 3, 4))
    TimetableSession.objects.unscoped().filter(pk__in=[s.pk for s in mine]).update(room_record_id=room["id"])
    rows = api.get("/api/timetables", {"roomId": room["id"]}).json()
    assert [r["id"] for r in rows] == [str(s.pk) for s in mine] and {r["roomId"] for r in rows} == {room["id"]}
    r = other_api.get("/api/timetables", {"roomId": room["id"]})  # another organization's room (ADR 0001)
    assert (r.status_code, r.json()) == (404, {"message": "Room not found"})
    assert api.get("/api/timetables", {"roomId": "nope"}).status_code == 400


def test_a_rooms_calendar_feed(api, org, anon_api):
    """A room's sessions as an iCalendar feed (ADR 0019), by the signed-in export and a subscription URL."""
    room = _room(api, code="LAB-5")
    group, unit = f.make_block_group(org, code="ICAL-G"), f.make_unit(org, code="ICALU")
    f.make_session(org, block_group=group, unit=unit, room="lab 5", actual_date=date(2026, 3, 2))
    TimetableSession.objects.unscoped().filter(block_group=group).update(room_record_id=room["id"], room="LAB-5")
    f.make_session(org, block_group=group, unit=unit, room="Elsewhere", actual_date=date(2026, 3, 3))
    ics = api.get("/api/timetables/ical", {"roomId": room["id"]})
    assert ics.status_code == 200 and ics.content.decode().count("BEGIN:VEVENT") == 1
    feed = api.post("/api/calendar-feeds", {"roomId": room["id"]})
    assert feed.status_code == 201 and feed.json()["roomId"] == room["id"] and feed.json()["name"] == "Room LAB-5"
    public = anon_api.get(f"/api/calendar-feeds/{feed.json()['token']}.ics")
    assert public.status_code == 200 and "X-WR-CALNAME:Room LAB-5 timetable" in public.content.decode()
    assert public.content.decode().count("BEGIN:VEVENT") == 1
    assert api.post("/api/calendar-feeds", {"roomId": room["id"], "teacherId": str(f.make_teacher(org).pk)}).status_code == 400


def test_room_availability_for_the_pickers(api, org, member_api):
    """Which rooms are free at a time (ADR 0019): a booked room names what books it; the session being
    edited does not block its own room; online rooms are always free; bad times are 400."""
    lab, room2 = _room(api, code="LAB-A"), _room(api, code="LAB-B")
    _room(api, code="Online", type="online", capacity=None)
    group, unit = f.make_block_group(org, code="AV-G"), f.make_unit(org, code="AVU")
    s = f.make_session(org, block_group=group, unit=unit, room="LAB-A", actual_date=date(2026, 3, 2), start=time(9), end=time(12))
    TimetableSession.objects.unscoped().filter(pk=s.pk).update(room_record_id=lab["id"])
    q = {"date": "2026-03-02", "startTime": "11:00:00", "endTime": "13:00:00"}
    got = {r["code"]: r for r in member_api.get("/api/rooms/availability", q).json()}
    assert got["LAB-A"]["free"] is False and got["LAB-A"]["bookedBy"] == "AV-G AVU 09:00-12:00"
    assert got["LAB-B"]["free"] is True and got["Online"]["free"] is True
    assert {r["code"]: r["free"] for r in api.get("/api/rooms/availability", {**q, "startTime": "12:00:00"}).json()}[
        "LAB-A"
    ] is True
    mine = {r["code"]: r["free"] for r in api.get("/api/rooms/availability", {**q, "excludeSessionId": str(s.pk)}).json()}
    assert mine["LAB-A"] is True
    assert api.get("/api/rooms/availability", {**q, "endTime": "10:00:00"}).status_code == 400
    assert api.get("/api/rooms/availability", {"date": "soon"}).status_code == 400
    assert room2["code"] == "LAB-B"


def test_schedule_generation_chooses_rooms_by_type(api, org):
    """A schedule request with a room type and no room gives each session a free room of that type on the
    group's campus that seats the cohort, one room per unit where it can (ADR 0019)."""
    from decimal import Decimal

    city, west = f.make_campus(org, name="City", abbreviation="CTY"), f.make_campus(org, name="West", abbreviation="WST")
    for code, capacity, campus in (("LAB-S", 16, city), ("LAB-M", 24, city), ("LAB-L", 30, city), ("LAB-X", 30, west)):
        _room(api, code=code, capacity=capacity, campusId=str(campus.pk))
    a = f.make_unit(org, code="RC-A", nominal_hours=9)
    b = f.make_unit(org, code="RC-B", nominal_hours=6)
    plan = f.make_study_plan(org, name="Rooms plan")
    f.add_plan_unit(plan, a, face_to_face_hours=Decimal("9"))
    f.add_plan_unit(plan, b, face_to_face_hours=Decimal("6"))
    group = f.make_block_group(
        org, code="RC-G", cohort_size=20, campus=city, start_date=date(2026, 2, 2), preferred_days="Monday, Wednesday"
    )
    f.assign_plan(group, plan)
    # Another group holds LAB-M on the first Monday morning.
    other = f.make_block_group(org, code="RC-O")
    busy = f.make_session(org, block_group=other, unit=a, room="LAB-M", actual_date=date(2026, 2, 2))
    TimetableSession.objects.unscoped().filter(pk=busy.pk).update(room_record=Room.objects.get(code="LAB-M"))
    r = api.post(
        f"/api/block-groups/{group.pk}/schedule",
        {
            "sessionTemplates": [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}],
            "roomType": "computer_lab",
            "startNextUnitInNewWeek": False,
        },
    )
    assert r.status_code == 200, r.json()
    rows = TimetableSession.objects.unscoped().filter(block_group=group).exclude(status="cancelled").order_by("actual_date")
    by_unit = {}
    for s in rows:
        by_unit.setdefault(s.unit_id, set()).add(s.room)
        assert s.room_record_id is not None and s.room == s.room_record.code
    # LAB-M was taken on the first day: unit A keeps LAB-L; unit B gets the smallest free lab that seats 20.
    assert by_unit == {a.pk: {"LAB-L"}, b.pk: {"LAB-M"}}
    assert not {c["type"] for c in api.get("/api/timetables/conflicts", {"start": "2026-02-01", "end": "2026-03-31"}).json()} & {
        "room_double_booked",
        "room_over_capacity",
        "room_other_campus",
    }
    # No lab seats 40: the sessions are scheduled without a room and the answer says so.
    big = f.make_block_group(
        org, code="RC-BIG", cohort_size=40, campus=city, start_date=date(2026, 2, 2), preferred_days="Tuesday"
    )
    f.assign_plan(big, plan)
    r = api.post(
        f"/api/block-groups/{big.pk}/schedule",
        {"sessionTemplates": [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}], "roomType": "computer_lab"},
    )
    assert r.status_code == 200 and any("seats 40" in w for w in r.json()["warnings"])


def test_a_block_groups_preferred_room_type_is_used_when_a_request_names_no_room(api, org):
    """A block group's preferred room type (set through the API) chooses its rooms when the
    schedule request names neither a room nor a type."""
    from decimal import Decimal

    city = f.make_campus(org, name="City", abbreviation="CTY")
    _room(api, code="WS-1", type="workshop", capacity=12, campusId=str(city.pk))
    unit = f.make_unit(org, code="PREF-U", nominal_hours=6)
    plan = f.make_study_plan(org, name="Pref plan")
    f.add_plan_unit(plan, unit, face_to_face_hours=Decimal("6"))
    course = f.make_course(org)
    r = api.post(
        "/api/block-groups",
        {
            "code": "PREF-G",
            "name": "Workshop group",
            "courseId": str(course.pk),
            "campusId": str(city.pk),
            "cohortSize": 10,
            "startDate": "2026-02-02",
            "preferredDays": "Friday",
            "preferredRoomType": "workshop",
        },
    )
    assert r.status_code == 201, r.json()
    assert r.json()["preferredRoomType"] == "workshop"
    assert api.get("/api/block-groups").json()[0]["preferredRoomType"] == "workshop"
    group_id = r.json()["id"]
    f.assign_plan(BlockGroup.objects.get(pk=group_id), plan)
    done = api.post(
        f"/api/block-groups/{group_id}/schedule",
        {"sessionTemplates": [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}]},
    )
    assert done.status_code == 200, done.json()
    rooms = set(
        TimetableSession.objects.unscoped()
        .filter(block_group_id=group_id)
        .exclude(status="cancelled")
        .values_list("room", flat=True)
    )
    assert rooms == {"WS-1"}
    assert (
        api.post(
            "/api/block-groups",
            {"code": "PREF-H", "name": "x", "cohortSize": 1, "startDate": "2026-02-02", "preferredRoomType": "ballroom"},
        ).status_code
        == 400
    )


def test_bulk_set_room_with_availability_for_the_selection(
    api, org, other_api, captured_events, django_capture_on_commit_callbacks
):
    """The bulk "Set Room" action. The picker lists each room as free or busy at the times of
    every selected session (the selected ones never block each other); the write is all or nothing,
    refused with 409 when the room is booked at any of their times, and sets both ``room`` and ``roomId``."""
    city = f.make_campus(org, name="City", abbreviation="CTY")
    lab = _room(api, code="LAB-A", capacity=30, campusId=str(city.pk))
    small = _room(api, code="LAB-S", capacity=10, campusId=str(city.pk))
    zoom = _room(api, code="ZOOM", type="online")
    group = f.make_block_group(org, code="BR-G", cohort_size=20, campus=city)
    other = f.make_block_group(org, code="BR-O")
    unit = f.make_unit(org, code="BR-U")
    mine = [f.make_session(org, block_group=group, unit=unit, room="", actual_date=date(2026, 3, d)) for d in (2, 3, 4)]
    # Another group holds LAB-A on 3 March in the morning, and ZOOM at the same time (online never clashes).
    theirs = f.make_session(org, block_group=other, unit=unit, room="LAB-A", actual_date=date(2026, 3, 3))
    online = f.make_session(org, block_group=other, unit=unit, room="ZOOM", actual_date=date(2026, 3, 3))
    for session, code in ((theirs, "LAB-A"), (online, "ZOOM")):
        TimetableSession.objects.unscoped().filter(pk=session.pk).update(room_record=Room.objects.get(code=code))
    ids = [str(s.pk) for s in mine]

    picker = api.post("/api/rooms/availability", {"sessionIds": ids})
    assert picker.status_code == 200, picker.json()
    by_code = {r["code"]: r for r in picker.json()}
    assert by_code["LAB-A"]["free"] is False and by_code["LAB-A"]["busyFor"] == 1
    assert by_code["LAB-A"]["bookedBy"].startswith("BR-O BR-U 03/03")
    assert by_code["LAB-S"] == {"roomId": small["id"], "code": "LAB-S", "free": True, "bookedBy": None, "busyFor": 0}
    assert by_code["ZOOM"]["free"] is True
    for bad in ({"sessionIds": []}, {"sessionIds": ["nope"]}, {}):
        assert api.post("/api/rooms/availability", bad).status_code == 400, bad

    # Booked on one of the dates: 409 with the clash, nothing written.
    refused = api.put("/api/timetables/bulk-room", {"sessionIds": ids, "roomId": lab["id"]})
    assert refused.status_code == 409 and "room_double_booked" in [c["type"] for c in refused.json()["conflicts"]]
    assert set(TimetableSession.objects.filter(pk__in=ids).values_list("room", flat=True)) == {""}
    # A room too small for the cohort is allowed with a warning; both room and roomId are set; one event.
    with django_capture_on_commit_callbacks(execute=True):
        done = api.put("/api/timetables/bulk-room", {"sessionIds": ids, "roomId": small["id"]})
    assert done.status_code == 200, done.json()
    body = done.json()
    assert body["updated"] == 3 and body["room"] == "LAB-S" and body["roomId"] == small["id"]
    assert "room_over_capacity" in {w["type"] for w in body["warnings"]}
    assert set(TimetableSession.objects.filter(pk__in=ids).values_list("room", "room_record_id")) == {
        ("LAB-S", Room.objects.get(code="LAB-S").pk)
    }
    events = [m["event"] for _g, m in captured_events if m["event"]["entity"] == "timetable_session"]
    assert [(e["action"], sorted(e["ids"])) for e in events] == [("updated", sorted(ids))]
    assert {s["room"] for s in events[0]["sessions"]} == {"LAB-S"}
    # Every documented read still answers `room` as text.
    listed = api.get("/api/timetables", {"blockGroupId": str(group.pk)}).json()
    assert {(s["room"], s["roomId"]) for s in listed} == {("LAB-S", small["id"])}
    # Online rooms never clash.
    assert api.put("/api/timetables/bulk-room", {"sessionIds": ids, "roomId": zoom["id"]}).status_code == 200
    # Missing parts, unknown ids, another organization's room.
    assert (
        api.put("/api/timetables/bulk-room", {"sessionIds": [], "roomId": lab["id"]}).json()["errors"][0]["message"]
        == "Please select sessions and a room"
    )
    assert api.put("/api/timetables/bulk-room", {"sessionIds": ids}).status_code == 400
    assert api.put("/api/timetables/bulk-room", {"sessionIds": ids, "roomId": "x"}).status_code == 400
    foreign = other_api.post("/api/rooms", {"code": "THEIRS"}).json()
    assert api.put("/api/timetables/bulk-room", {"sessionIds": ids, "roomId": foreign["id"]}).status_code == 404
    assert (
        api.put(
            "/api/timetables/bulk-room", {"sessionIds": [*ids, "00000000-0000-0000-0000-000000000000"], "roomId": lab["id"]}
        ).status_code
        == 404
    )
    assert set(TimetableSession.objects.filter(pk__in=ids).values_list("room", flat=True)) == {"ZOOM"}


def test_bulk_room_sessions_that_overlap_each_other_are_refused(api, org):
    """Two selected sessions at the same time cannot share one room: 409, nothing written."""
    lab = _room(api, code="LAB-B")
    unit = f.make_unit(org, code="BR-U2")
    a = f.make_session(org, block_group=f.make_block_group(org, code="BR-1"), unit=unit, room="", actual_date=date(2026, 3, 2))
    b = f.make_session(org, block_group=f.make_block_group(org, code="BR-2"), unit=unit, room="", actual_date=date(2026, 3, 2))
    r = api.put("/api/timetables/bulk-room", {"sessionIds": [str(a.pk), str(b.pk)], "roomId": lab["id"]})
    assert r.status_code == 409 and "room_double_booked" in [c["type"] for c in r.json()["conflicts"]]
    assert set(TimetableSession.objects.filter(pk__in=[a.pk, b.pk]).values_list("room", flat=True)) == {""}
