"""A change costs what changed (ADR 0008): change events of sessions say which rows they wrote (block group,
teacher, room, date), and ``GET /api/timetables?ids=`` answers exactly those rows in the list's shape."""

from __future__ import annotations

from datetime import date

import pytest

from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def rows(org):
    group = f.make_block_group(org, code="LIVE-1")
    other = f.make_block_group(org, code="LIVE-2")
    unit = f.make_unit(org)
    teacher = f.make_teacher(org)
    sessions = [f.make_session(org, block_group=group, unit=unit, actual_date=date(2026, 3, d)) for d in (2, 3, 4)]
    sessions.append(f.make_session(org, block_group=other, unit=unit, actual_date=date(2026, 3, 5), room="B12"))
    return {"group": group, "other": other, "unit": unit, "teacher": teacher, "sessions": sessions}


def test_ids_answers_exactly_those_rows_in_the_list_shape(api, rows):
    full = {r["id"]: r for r in api.get("/api/timetables").json()}
    wanted = [str(rows["sessions"][0].id), str(rows["sessions"][3].id)]
    r = api.get("/api/timetables", {"ids": ",".join(wanted)})
    assert r.status_code == 200
    got = r.json()
    assert sorted(x["id"] for x in got) == sorted(wanted)
    for row in got:
        assert row == full[row["id"]]  # same shape and values as the list, conflicts included


def test_ids_are_scoped_to_the_organization_and_checked(api, other_api, rows):
    ids = ",".join(str(s.id) for s in rows["sessions"])
    assert other_api.get("/api/timetables", {"ids": ids}).json() == []  # foreign ids are simply absent
    bad = api.get("/api/timetables", {"ids": "not-a-uuid"})
    assert bad.status_code == 400 and bad.json()["type"] == "validation_error"
    assert bad.json()["errors"][0]["path"] == ["ids"]
    too_many = ",".join(f"00000000-0000-0000-0000-{n:012d}" for n in range(1001))
    r = api.get("/api/timetables", {"ids": too_many})
    assert r.status_code == 400 and "At most 1000 ids" in r.json()["errors"][0]["message"]
    assert api.get("/api/timetables", {"ids": ""}).status_code == 200


def test_session_events_say_which_rows_they_wrote(api, rows, captured_events, django_capture_on_commit_callbacks):
    target = rows["sessions"][3]
    with django_capture_on_commit_callbacks(execute=True):
        r = api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(target.id)], "teacherId": str(rows["teacher"].id)})
    assert r.status_code == 200, r.content
    events = [m["event"] for _g, m in captured_events if m["type"] == "change.event"]
    assert len(events) == 1
    assert events[0]["sessions"] == [
        {
            "id": str(target.id),
            "blockGroupId": str(rows["other"].id),
            "teacherId": str(rows["teacher"].id),
            "room": "B12",
            "roomId": None,
            "date": "2026-03-05",
            "unitId": str(rows["unit"].id),
            "hours": float(target.actual_hours),
            "status": "scheduled",
        }  # B12 is not a recorded room
    ]


def test_a_cleared_schedule_says_what_it_deleted_but_not_row_by_row(
    api, org, rows, captured_events, django_capture_on_commit_callbacks
):
    """Its ids are the block group's: screens refetch that group's lists, not look for session ids; its
    ``schedule`` (ADR 0033) names the dates, times, teachers and rooms of the rows deleted, each once, sorted, so
    that a screen showing none of them stays as it is. A completed session is kept and not named."""
    group, teacher = rows["group"], rows["teacher"]
    first, second, third = rows["sessions"][:3]
    from project.catalogue.models import Room

    room = Room.objects.create(organization=org, code="R-101", key="r101")
    type(first).objects.unscoped().filter(pk=first.pk).update(teacher=teacher, room="R-101", room_record=room)
    type(second).objects.unscoped().filter(pk=second.pk).update(teacher=teacher, room="Lab 2")
    type(third).objects.unscoped().filter(pk=third.pk).update(status="completed", room="Kept room")
    with django_capture_on_commit_callbacks(execute=True):
        r = api.delete(f"/api/block-groups/{group.id}/schedule")
    assert r.status_code in (200, 204), r.content
    events = [m["event"] for _g, m in captured_events if m["type"] == "change.event"]
    assert [(e["action"], e["ids"], e["sessions"]) for e in events] == [("schedule_cleared", [str(group.id)], None)]
    assert events[0]["schedule"] == {
        "dates": ["2026-03-02", "2026-03-03"],
        "times": [{"start": "09:00:00", "end": "12:00:00"}],
        "teacherIds": [str(teacher.id)],
        "roomIds": [str(room.id)],
        "rooms": ["Lab 2", "R-101"],
    }


def test_an_event_of_another_write_carries_no_schedule(api, rows, captured_events, django_capture_on_commit_callbacks):
    """Only a schedule generated or cleared sums its rows up; other writes send their rows themselves."""
    s = rows["sessions"][0]
    with django_capture_on_commit_callbacks(execute=True):
        r = api.delete(f"/api/timetables/{s.id}")
    assert r.status_code in (200, 204), r.content
    events = [m["event"] for _g, m in captured_events if m["type"] == "change.event"]
    assert len(events) == 1 and "schedule" not in events[0]


def test_session_events_say_what_the_rows_were_before_the_write(api, rows, captured_events, django_capture_on_commit_callbacks):
    """``before`` (ADR 0025): the same rows as they were, so a screen showing the old day, room or teacher
    knows the change concerns it too."""
    target = rows["sessions"][3]
    with django_capture_on_commit_callbacks(execute=True):
        r = api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(target.id)], "teacherId": str(rows["teacher"].id)})
    assert r.status_code == 200, r.content
    events = [m["event"] for _g, m in captured_events if m["type"] == "change.event"]
    assert [e["before"] for e in events] == [
        [
            {
                "id": str(target.id),
                "blockGroupId": str(rows["other"].id),
                "teacherId": None,
                "room": "B12",
                "roomId": None,
                "date": "2026-03-05",
                "unitId": str(rows["unit"].id),
                "hours": float(target.actual_hours),
                "status": "scheduled",
            }
        ]
    ]
    assert events[0]["sessions"][0]["teacherId"] == str(rows["teacher"].id)
    assert set(events[0]) >= {"entity", "action", "ids", "seq", "actorId", "origin", "at", "sessions"}  # additive


def test_a_session_write_sends_its_rows_as_ids_answers_them(api, rows, captured_events, django_capture_on_commit_callbacks):
    """``rows`` (ADR 0032): the written sessions exactly as ``GET /api/timetables?ids=`` answers them after
    the write, so that no open screen has to ask; the write's own answer is that row with its warnings."""
    target = rows["sessions"][3]
    with django_capture_on_commit_callbacks(execute=True):
        r = api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(target.id)], "teacherId": str(rows["teacher"].id)})
    assert r.status_code == 200, r.content
    (event,) = [m["event"] for _g, m in captured_events if m["type"] == "change.event"]
    assert event["rows"] == api.get("/api/timetables", {"ids": str(target.id)}).json()
    assert event["rows"][0]["teacherId"] == str(rows["teacher"].id)

    captured_events.clear()
    current = api.get(f"/api/timetables/{target.id}")
    body = {k: current.json()[k] for k in ("blockGroupId", "unitId", "startTime", "endTime", "actualDate", "teacherId")}
    with django_capture_on_commit_callbacks(execute=True):
        put = api.put(f"/api/timetables/{target.id}", {**body, "room": "C3"}, headers={"If-Match": current["ETag"]})
    assert put.status_code == 200, put.content
    (event,) = [m["event"] for _g, m in captured_events if m["type"] == "change.event"]
    answer = put.json()
    assert answer["room"] == "C3" and "warnings" in answer
    assert (
        {k: v for k, v in answer.items() if k != "warnings"}
        == event["rows"][0]
        == api.get("/api/timetables", {"ids": str(target.id)}).json()[0]
    )


def test_a_write_answers_its_own_row_when_its_event_was_not_sent_yet(
    api, rows, captured_events, django_capture_on_commit_callbacks
):
    """The answer takes the event's row only from this write's own event: an earlier write's row (same
    request context, same session) is never answered for a later write whose event has not gone yet."""
    target = rows["sessions"][0]
    current = api.get(f"/api/timetables/{target.id}")
    body = {k: current.json()[k] for k in ("blockGroupId", "unitId", "startTime", "endTime", "actualDate", "teacherId")}
    with django_capture_on_commit_callbacks(execute=True):
        first = api.put(f"/api/timetables/{target.id}", {**body, "room": "FIRST"}, headers={"If-Match": current["ETag"]})
    assert first.status_code == 200 and first.json()["room"] == "FIRST"
    # The test's transaction holds this write's commit (and its event) back: it must still answer its own row.
    second = api.put(f"/api/timetables/{target.id}", {**body, "room": "SECOND"}, headers={"If-Match": first["ETag"]})
    assert second.status_code == 200, second.content
    assert second.json()["room"] == "SECOND"


def test_a_write_of_more_rows_than_an_event_carries_sends_none(
    api, org, rows, captured_events, django_capture_on_commit_callbacks
):
    from project.core.changes import MAX_EVENT_ROWS

    many = [
        f.make_session(org, block_group=rows["group"], unit=rows["unit"], actual_date=date(2026, 4, 1))
        for _ in range(MAX_EVENT_ROWS + 1)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        r = api.put(
            "/api/timetables/bulk-allocate", {"sessionIds": [str(s.id) for s in many], "teacherId": str(rows["teacher"].id)}
        )
    assert r.status_code == 200, r.content
    (event,) = [m["event"] for _g, m in captured_events if m["type"] == "change.event"]
    assert "rows" not in event and len(event["sessions"]) == MAX_EVENT_ROWS + 1


def test_a_wall_display_never_receives_the_rows():
    from realtime.authentication import Principal
    from realtime.scoping import event_for

    event = {
        "entity": "timetable_session",
        "action": "updated",
        "ids": ["s"],
        "seq": 3,
        "rows": [{"id": "s", "notes": "private"}],
    }
    display = Principal(org_id="o", kind="display", name="Display", initials="D", scope={})
    member = Principal(org_id="o", user_id="u", kind="session", name="Ada", initials="AL", role="user")
    assert "rows" not in event_for(display, event)
    assert event_for(member, event)["rows"] == event["rows"]
