"""Display links: admin management, a token reads only its scope, refused elsewhere, revocation."""

from datetime import time

import pytest
from django.utils import timezone

from project.catalogue.models import Campus
from project.displays.models import DisplayLink
from project.displays.selectors import organization_today
from tests import factories as f


@pytest.fixture
def board_setup(org):
    main = Campus.objects.for_org(org).get(abbreviation="MAIN")
    north = f.make_campus(org, name="North Campus", abbreviation="NTH")
    today, _ = organization_today(org)
    unit = f.make_unit(org, code="ICTICT451")
    teacher = f.make_teacher(org, first_name="Priya", last_name="Natarajan")
    bg_main = f.make_block_group(org, code="MAIN-1", campus=main)
    bg_north = f.make_block_group(org, code="NTH-1", campus=north)
    s_main = f.make_session(org, block_group=bg_main, unit=unit, actual_date=today, teacher=teacher, room="A1.01")
    s_north = f.make_session(org, block_group=bg_north, unit=unit, actual_date=today, start=time(13), end=time(16))
    return main, north, s_main, s_north


def test_admin_creates_lists_updates_and_revokes_links(
    api, org, board_setup, captured_events, django_capture_on_commit_callbacks
):
    main, *_ = board_setup
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post("/api/display-links", {"name": "Staff room TV", "campusId": str(main.id), "groupBy": "room"})
    assert r.status_code == 201, r.content
    link = r.json()
    assert link["campus"]["name"] == "Main Campus"
    assert link["url"] == f"/display/{link['token']}"
    assert len(link["token"]) >= 40 and link["isActive"] is True
    assert [m["event"]["entity"] for _, m in captured_events if m["type"] == "change.event"] == ["display_link"]
    r = api.put(f"/api/display-links/{link['id']}", {"name": "Corridor", "campusId": None, "groupBy": "block_group"})
    assert r.status_code == 200 and r.json()["campus"] is None and r.json()["groupBy"] == "block_group"
    assert [x["name"] for x in api.get("/api/display-links").json()] == ["Corridor"]
    with django_capture_on_commit_callbacks(execute=True):
        r = api.delete(f"/api/display-links/{link['id']}")
    assert r.status_code == 200 and r.json()["isActive"] is False
    # The revocation also closed the link's open boards (a session.revoke to its group).
    assert any(g == f"display.{link['id']}" and m["type"] == "session.revoke" for g, m in captured_events)


def test_validation_and_roles(api, member_api, other_api, org, board_setup):
    r = api.post("/api/display-links", {"name": "  "})
    assert r.status_code == 400
    assert r.json()["errors"] == [{"path": ["name"], "message": "Name is required"}]
    assert member_api.get("/api/display-links").status_code == 403
    assert member_api.post("/api/display-links", {"name": "x"}).status_code == 403
    link = api.post("/api/display-links", {"name": "TV"}).json()
    assert other_api.delete(f"/api/display-links/{link['id']}").status_code == 404
    assert other_api.get("/api/display-links").json() == []
    foreign_campus = Campus.objects.exclude(organization=org).first()
    r = api.post("/api/display-links", {"name": "TV", "campusId": str(foreign_campus.id)})
    assert r.status_code == 404


def test_token_reads_only_its_scope(api, anon_api, org, other_org, board_setup):
    main, north, s_main, s_north = board_setup
    # Another organization's session today must never show.
    other_bg = f.make_block_group(other_org, code="OTHER-1")
    f.make_session(other_org, block_group=other_bg, unit=f.make_unit(other_org), actual_date=organization_today(org)[0])
    campus_link = api.post("/api/display-links", {"name": "Main TV", "campusId": str(main.id)}).json()
    org_link = api.post("/api/display-links", {"name": "All", "groupBy": "block_group"}).json()

    board = anon_api.get(f"/api/display/{campus_link['token']}")
    assert board.status_code == 200
    body = board.json()
    assert [s["id"] for s in body["sessions"]] == [str(s_main.id)]
    assert body["sessions"][0]["teacherName"] == "Priya Natarajan"
    assert body["sessions"][0]["room"] == "A1.01"
    assert body["organizationName"] == org.name and body["groupBy"] == "room"
    assert body["date"] == organization_today(org)[0].isoformat()

    whole = anon_api.get(f"/api/display/{org_link['token']}").json()
    assert sorted(s["id"] for s in whole["sessions"]) == sorted([str(s_main.id), str(s_north.id)])
    assert whole["sessions"][1]["teacherName"] is None


def test_token_is_refused_on_every_other_call(api, anon_api, board_setup):
    link = api.post("/api/display-links", {"name": "TV"}).json()
    token = link["token"]
    for path in ("/api/timetables", "/api/teachers", "/api/block-groups", "/api/display-links", "/api/auth/user"):
        r = anon_api.get(path, {"displayToken": token}, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 401, path
        anon_api.client.cookies["sessionid"] = token
        assert anon_api.get(path).status_code == 401, path
        del anon_api.client.cookies["sessionid"]


def test_revoked_and_unknown_tokens(api, anon_api, board_setup):
    link = api.post("/api/display-links", {"name": "TV"}).json()
    api.delete(f"/api/display-links/{link['id']}")
    r = anon_api.get(f"/api/display/{link['token']}")
    assert r.status_code == 410
    assert r.json() == {"message": "This display link has been revoked", "type": "revoked"}
    assert anon_api.get("/api/display/not-a-real-token").status_code == 404
    assert DisplayLink.objects.unscoped().get(pk=link["id"]).revoked_at <= timezone.now()


def test_a_board_by_room_names_the_room_record(api, anon_api, org, board_setup):
    """A board grouped by room shows each recorded room's name and seats."""
    main, _north, s_main, _s_north = board_setup
    r = api.post("/api/rooms", {"code": "A1.01", "name": "Lecture room", "capacity": 40, "campusId": str(main.id)})
    assert r.status_code == 201, r.json()
    link = api.post("/api/display-links", {"name": "Rooms TV", "campusId": str(main.id)}).json()
    [session] = anon_api.get(f"/api/display/{link['token']}").json()["sessions"]
    assert (session["room"], session["roomName"], session["roomCapacity"]) == ("A1.01", "Lecture room", 40)


def test_the_board_is_written_in_the_shape_of_its_schema(api, anon_api, org, board_setup):
    """The board is written straight to JSON (one kept build per change, spliced into each display's head):
    every field of ``BoardOut`` is there with its type, and nothing else, for a campus board and a whole
    organization's board of another day, before and after a change."""
    from project.displays.api import BoardOut

    main, _north, s_main, _s_north = board_setup
    campus_link = api.post("/api/display-links", {"name": "Main TV", "campusId": str(main.id)}).json()
    org_link = api.post("/api/display-links", {"name": "All", "groupBy": "block_group"}).json()
    today = organization_today(org)[0]
    for path in (f"/api/display/{campus_link['token']}", f"/api/display/{org_link['token']}?date={today.isoformat()}"):
        for _ in range(2):  # built, then kept
            response = anon_api.get(path)
            assert response["Content-Type"] == "application/json"
            body = response.json()
            assert BoardOut.model_validate(body).model_dump(mode="json", by_alias=True) == body
    assert body["campus"] is None and body["groupBy"] == "block_group" and len(body["sessions"]) == 2
    board = anon_api.get(f"/api/display/{campus_link['token']}").json()
    assert board["campus"] == {"id": str(main.id), "name": main.name} and board["name"] == "Main TV"
    # A change of the organization: the next read builds the sessions again.
    assert api.delete(f"/api/timetables/{s_main.id}").status_code in (200, 204)
    assert anon_api.get(f"/api/display/{campus_link['token']}").json()["sessions"] == []
