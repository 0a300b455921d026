"""/api/timetables: list, create, update, delete, bulk allocation, conflicts (docs/behaviour/conflicts.md §1; docs/behaviour/concurrency.md §4)."""

from __future__ import annotations

from datetime import date, time, timedelta
from decimal import Decimal

import pytest

from project.planning.models import LinkedBlockGroup, LinkedBlockGroupMember
from project.timetabling.models import TimetableSession
from project.timetabling.selectors import user_today
from tests import factories as f
from tests.timetabling.conftest import session_body

MON = date(2026, 3, 2)  # week 5 of a group starting Monday 2 Feb 2026


@pytest.fixture
def world(org):
    unit = f.make_unit(org, code="ICTICT214", name="Operate application software")
    g1 = f.make_block_group(org, code="G1", name="Group one", start_date=date(2026, 2, 2))
    g2 = f.make_block_group(org, code="G2", name="Group two", start_date=date(2026, 2, 2))
    teacher = f.make_teacher(org, first_name="Tess", last_name="Teach", max_weekly_hours=21)
    f.qualify(teacher, unit)
    return {"unit": unit, "g1": g1, "g2": g2, "teacher": teacher}


def count():
    return TimetableSession.objects.unscoped().count()


def link(org, *groups):
    lg = LinkedBlockGroup.objects.create(organization=org, name="Linked")
    for g in groups:
        LinkedBlockGroupMember.objects.create(organization=org, linked_group=lg, block_group=g)


# ------------------------------------------------------------------------------------ create / shape


def test_create_derives_date_and_term_and_answers_the_session_json(api, org, world):
    r = api.post(
        "/api/timetables",
        session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=3, teacherId=str(world["teacher"].id), room="B2.01"),
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["actualDate"] == "2026-03-04"  # week 5 Wednesday
    assert body["dayOfWeek"] == 3 and body["weekNumber"] == 5 and body["term"] == 1
    assert body["startTime"] == "09:00:00" and body["endTime"] == "12:00:00"
    assert body["actualHours"] == 3.0
    assert body["unit"] == {"id": str(world["unit"].id), "code": "ICTICT214", "name": "Operate application software"}
    assert body["blockGroup"] == {"id": str(world["g1"].id), "code": "G1", "name": "Group one"}
    assert body["teacher"] == {"id": str(world["teacher"].id), "firstName": "Tess", "lastName": "Teach", "name": "Tess Teach"}
    assert body["conflicts"] == [] and body["warnings"] == []
    assert set(body) >= {"id", "blockGroupId", "unitId", "teacherId", "room", "status", "notes", "createdAt", "updatedAt"}


def test_create_with_explicit_date_and_unassigned_teacher(api, world):
    r = api.post(
        "/api/timetables",
        session_body(
            world["g1"],
            world["unit"],
            actualDate="2026-03-10",
            teacherId="unassigned",
            startTime="13:00:00",
            endTime="15:30:00",
            actualHours=None,
        ),
    )
    assert r.status_code == 201
    body = r.json()
    assert body["teacherId"] is None and body["teacher"] is None
    assert body["dayOfWeek"] == 2 and body["weekNumber"] == 6
    assert body["actualHours"] == 2.5


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("actualHours", 0.25, "Hours must be at least 0.5"),
        ("actualHours", 12.5, "Hours cannot exceed 12 per session"),
        ("weekNumber", 0, "Week number must be at least 1"),
        ("startTime", "9:00", "Invalid time format, use HH:MM:SS"),
        ("endTime", "25:00:00", "Invalid time format, use HH:MM:SS"),
        ("room", "x" * 51, "Room must be at most 50 characters"),
        ("status", "postponed", "Status must be one of scheduled, confirmed, cancelled, completed"),
    ],
)
def test_create_validation(api, world, field, value, message):
    r = api.post("/api/timetables", session_body(world["g1"], world["unit"], **{field: value}))
    assert r.status_code == 400
    assert {"path": [field], "message": message} in r.json()["errors"]
    assert count() == 0


def test_malformed_bodies_are_400_not_500(api, world):
    for body in ({}, {"blockGroupId": "nope"}, {"actualHours": "lots"}, [1, 2]):
        r = api.post("/api/timetables", body)
        assert r.status_code in (400, 404), (body, r.content)


# ------------------------------------------------------------------------------------------ conflicts


def _existing(org, world, **kw):
    kw.setdefault("block_group", world["g1"])
    kw.setdefault("unit", world["unit"])
    kw.setdefault("actual_date", MON)
    kw.setdefault(
        "week_number", (kw["actual_date"] - timedelta(days=kw["actual_date"].weekday()) - date(2026, 2, 2)).days // 7 + 1
    )
    return f.make_session(org, **kw)


def test_teacher_double_booked_is_refused_and_nothing_written(api, org, world):
    _existing(org, world, teacher=world["teacher"])
    before = count()
    r = api.post(
        "/api/timetables",
        session_body(
            world["g2"],
            world["unit"],
            weekNumber=5,
            dayOfWeek=1,
            startTime="11:00:00",
            endTime="13:00:00",
            actualHours=2,
            teacherId=str(world["teacher"].id),
        ),
    )
    assert r.status_code == 409
    body = r.json()
    assert body["type"] == "conflict"
    assert [c["type"] for c in body["conflicts"]] == ["teacher_double_booked"]
    assert body["conflicts"][0]["severity"] == "hard"
    assert count() == before


def test_co_delivered_linked_groups_share_teacher_and_room(api, org, world):
    link(org, world["g1"], world["g2"])
    _existing(org, world, teacher=world["teacher"], room="B2.01")
    r = api.post(
        "/api/timetables",
        session_body(world["g2"], world["unit"], weekNumber=5, dayOfWeek=1, teacherId=str(world["teacher"].id), room="B2.01"),
    )
    assert r.status_code == 201, r.content
    assert r.json()["conflicts"] == []


def test_group_double_booked_is_refused(api, org, world):
    _existing(org, world)
    r = api.post(
        "/api/timetables",
        session_body(
            world["g1"], world["unit"], weekNumber=5, dayOfWeek=1, startTime="10:00:00", endTime="11:00:00", actualHours=1
        ),
    )
    assert r.status_code == 409
    assert [c["type"] for c in r.json()["conflicts"]] == ["group_double_booked"]
    assert count() == 1
    # Back to back is fine.
    ok = api.post(
        "/api/timetables",
        session_body(
            world["g1"], world["unit"], weekNumber=5, dayOfWeek=1, startTime="12:00:00", endTime="13:00:00", actualHours=1
        ),
    )
    assert ok.status_code == 201


def test_room_double_booked_is_refused_case_insensitively(api, org, world):
    _existing(org, world, room="B2.01")
    r = api.post("/api/timetables", session_body(world["g2"], world["unit"], weekNumber=5, dayOfWeek=1, room=" b2.01 "))
    assert r.status_code == 409
    assert [c["type"] for c in r.json()["conflicts"]] == ["room_double_booked"]
    assert count() == 1


def test_holiday_is_refused_unless_cancelled(api, org, world):
    f.make_holiday(org, name="Labour Day", start_date=date(2026, 3, 9))
    body = session_body(world["g1"], world["unit"], weekNumber=6, dayOfWeek=1)
    r = api.post("/api/timetables", body)
    assert r.status_code == 409
    assert r.json()["conflicts"][0]["type"] == "holiday"
    assert "Labour Day" in r.json()["conflicts"][0]["message"]
    assert count() == 0
    assert api.post("/api/timetables", {**body, "status": "cancelled"}).status_code == 201


def test_recurring_holiday_applies_in_later_years(api, org, world):
    f.make_holiday(org, name="Christmas", start_date=date(2020, 12, 25), is_recurring=True)
    r = api.post("/api/timetables", session_body(world["g1"], world["unit"], actualDate="2026-12-25"))
    assert r.status_code == 409


def test_over_capacity_is_a_warning(api, org, world):
    t = f.make_teacher(org, max_weekly_hours=5)
    f.qualify(t, world["unit"])
    _existing(org, world, teacher=t)  # 3 h on Monday
    r = api.post("/api/timetables", session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=3, teacherId=str(t.id)))
    assert r.status_code == 201
    assert [w["type"] for w in r.json()["warnings"]] == ["teacher_over_capacity"]
    assert r.json()["warnings"][0]["severity"] == "soft"
    assert r.json()["conflicts"] == ["teacher_over_capacity"]


def test_unqualified_is_a_warning(api, org, world):
    t = f.make_teacher(org)
    r = api.post("/api/timetables", session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=1, teacherId=str(t.id)))
    assert r.status_code == 201
    assert [w["type"] for w in r.json()["warnings"]] == ["teacher_unqualified"]


@pytest.mark.parametrize(
    "availability,start,end,flagged",
    [
        ("day", "17:00:00", "20:00:00", True),
        ("day", "14:00:00", "17:30:00", True),  # ends after 17:00
        ("day", "14:00:00", "17:00:00", False),
        ("evening", "09:00:00", "12:00:00", True),
        ("evening", "18:00:00", "21:00:00", False),
        ("both", "18:00:00", "21:00:00", False),
    ],
)
def test_unavailable_is_a_warning(api, org, world, availability, start, end, flagged):
    t = f.make_teacher(org, availability=availability)
    f.qualify(t, world["unit"])
    r = api.post(
        "/api/timetables",
        session_body(
            world["g1"],
            world["unit"],
            weekNumber=5,
            dayOfWeek=1,
            teacherId=str(t.id),
            startTime=start,
            endTime=end,
            actualHours=None,
        ),
    )
    assert r.status_code == 201
    assert ("teacher_unavailable" in [w["type"] for w in r.json()["warnings"]]) is flagged


def test_inactive_and_expired_contract_are_warnings(api, org, world):
    t = f.make_teacher(org, is_active=False, employment_type="fixed_term", expiry_date=date(2026, 2, 28))
    f.qualify(t, world["unit"])
    r = api.post("/api/timetables", session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=1, teacherId=str(t.id)))
    assert r.status_code == 201
    assert sorted(w["type"] for w in r.json()["warnings"]) == ["teacher_contract_expired", "teacher_inactive"]


def test_cancelled_sessions_never_conflict(api, org, world):
    _existing(org, world, teacher=world["teacher"], room="R", status="cancelled")
    r = api.post(
        "/api/timetables",
        session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=1, room="R", teacherId=str(world["teacher"].id)),
    )
    assert r.status_code == 201


def test_update_that_adds_a_hard_conflict_changes_nothing(api, org, world):
    _existing(org, world)
    other = _existing(org, world, start=time(13), end=time(16))
    r = api.put(
        f"/api/timetables/{other.id}",
        session_body(
            world["g1"], world["unit"], weekNumber=5, dayOfWeek=1, startTime="11:00:00", endTime="14:00:00", notes="moved"
        ),
    )
    assert r.status_code == 409
    other.refresh_from_db()
    assert other.start_time == time(13) and other.notes == ""


def test_holiday_added_later_shows_at_once_and_does_not_block_other_edits(api, org, world):
    s = _existing(org, world)
    assert api.get("/api/timetables").json()[0]["conflicts"] == []
    # Added the way a coordinator does (its change event is what makes every open list show it).
    added = api.post("/api/holidays", {"name": "Snap closure", "startDate": MON.isoformat(), "endDate": MON.isoformat()})
    assert added.status_code == 201, added.json()
    row = api.get("/api/timetables").json()[0]
    assert row["conflicts"] == ["holiday"]
    # Editing notes keeps the existing clash (it is not a new one); cancelling clears it.
    body = session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=1, notes="check")
    assert api.put(f"/api/timetables/{s.id}", body).status_code == 200
    r = api.put(f"/api/timetables/{s.id}", {**body, "status": "cancelled"})
    assert r.status_code == 200 and r.json()["conflicts"] == []


def test_conflict_listing(api, org, world):
    a = _existing(org, world, teacher=world["teacher"])
    b = _existing(org, world, block_group=world["g2"], teacher=world["teacher"], start=time(11), end=time(14))
    f.make_holiday(org, name="Closure", start_date=MON + timedelta(days=1))
    c = _existing(org, world, actual_date=MON + timedelta(days=1))
    r = api.get("/api/timetables/conflicts", {"start": "2026-03-01", "end": "2026-03-31"})
    assert r.status_code == 200
    got = {(x["type"], x["severity"], frozenset(x["sessionIds"])) for x in r.json()}
    assert got == {
        ("teacher_double_booked", "hard", frozenset({str(a.id), str(b.id)})),
        ("holiday", "hard", frozenset({str(c.id)})),
    }
    assert all(x["message"] for x in r.json())
    only_g2 = api.get(
        "/api/timetables/conflicts", {"start": "2026-03-01", "end": "2026-03-31", "blockGroupId": str(world["g2"].id)}
    )
    assert [x["type"] for x in only_g2.json()] == ["teacher_double_booked"]
    by_teacher = api.get(
        "/api/timetables/conflicts", {"start": "2026-03-01", "end": "2026-03-31", "teacherId": str(world["teacher"].id)}
    )
    assert [x["type"] for x in by_teacher.json()] == ["teacher_double_booked"]
    assert api.get("/api/timetables/conflicts", {"start": "2026-04-01", "end": "2026-04-30"}).json() == []
    rows = {row["id"]: row["conflicts"] for row in api.get("/api/timetables").json()}
    assert rows[str(a.id)] == ["teacher_double_booked"] and rows[str(c.id)] == ["holiday"]


# ------------------------------------------------------------------------------------- bulk allocate


def test_bulk_allocation_with_one_clash_changes_nothing(api, org, world, captured_events, django_capture_on_commit_callbacks):
    t = world["teacher"]
    _existing(org, world, block_group=world["g2"], teacher=t)  # Monday 9-12 with G2
    free = [_existing(org, world, actual_date=MON + timedelta(days=d)) for d in (1, 2)]
    clash = _existing(org, world, start=time(10), end=time(11))  # Monday 10-11 with G1
    ids = [str(s.id) for s in free + [clash]]
    with django_capture_on_commit_callbacks(execute=True):
        r = api.put("/api/timetables/bulk-allocate", {"sessionIds": ids, "teacherId": str(t.id)})
    assert r.status_code == 409
    assert [c["type"] for c in r.json()["conflicts"]] == ["teacher_double_booked"]
    assert TimetableSession.objects.unscoped().filter(id__in=ids, teacher__isnull=False).count() == 0
    assert captured_events == []
    with django_capture_on_commit_callbacks(execute=True):
        ok = api.put("/api/timetables/bulk-allocate", {"sessionIds": ids[:2], "teacherId": str(t.id)})
    assert ok.status_code == 200
    assert ok.json()["updated"] == 2
    assert TimetableSession.objects.unscoped().filter(id__in=ids[:2], teacher=t).count() == 2
    events = [m["event"] for _g, m in captured_events]
    assert len(events) == 1 and events[0]["action"] == "allocated" and sorted(events[0]["ids"]) == sorted(ids[:2])


def test_bulk_allocation_clash_between_selected_sessions(api, org, world):
    a = _existing(org, world)
    b = _existing(org, world, block_group=world["g2"], start=time(10), end=time(11))
    r = api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(a.id), str(b.id)], "teacherId": str(world["teacher"].id)})
    assert r.status_code == 409
    assert TimetableSession.objects.unscoped().filter(teacher__isnull=False).count() == 0


@pytest.mark.parametrize(
    "body", [{"sessionIds": [], "teacherId": None}, {"sessionIds": ["x"]}, {"teacherId": "unassigned", "sessionIds": ["x"]}, {}]
)
def test_bulk_allocation_needs_sessions_and_a_teacher(api, world, body):
    if body.get("sessionIds") == ["x"]:
        body = {**body, "sessionIds": [str(_existing(world["unit"].organization, world).id)]}
    r = api.put("/api/timetables/bulk-allocate", body)
    assert r.status_code == 400
    assert r.json()["errors"][0]["message"] == "Please select sessions and a teacher"


# ---------------------------------------------------------------------------------- list, etc.


def test_list_filters(api, org, world):
    today = user_today(None, org)
    past = _existing(org, world, actual_date=today - timedelta(days=7))
    future = _existing(org, world, block_group=world["g2"], teacher=world["teacher"], actual_date=today + timedelta(days=7))
    ids = lambda r: [row["id"] for row in r.json()]  # noqa: E731
    assert ids(api.get("/api/timetables")) == [str(past.id), str(future.id)]
    assert ids(api.get("/api/timetables", {"hidePast": "true"})) == [str(future.id)]
    assert ids(api.get("/api/timetables", {"blockGroupId": str(world["g1"].id)})) == [str(past.id)]
    assert ids(api.get("/api/timetables", {"teacherId": str(world["teacher"].id)})) == [str(future.id)]


def test_list_runs_a_fixed_number_of_queries(api, org, world, django_assert_max_num_queries):
    teachers = [f.make_teacher(org) for _ in range(5)]
    rows = []
    for i in range(1000):
        day = date(2026, 2, 2) + timedelta(days=i // 4)
        rows.append(
            TimetableSession(
                organization=org,
                block_group=world["g1"] if i % 2 else world["g2"],
                unit=world["unit"],
                teacher=teachers[i % 5],
                day_of_week=day.isoweekday(),
                start_time=time(8 + (i % 4) * 3),
                end_time=time(10 + (i % 4) * 3),
                room=f"R{i % 3}",
                actual_date=day,
                actual_hours=Decimal(2),
            )
        )
    TimetableSession.objects.unscoped().bulk_create(rows)
    f.make_holiday(org, start_date=date(2026, 3, 9))
    with django_assert_max_num_queries(12):
        r = api.get("/api/timetables")
    assert r.status_code == 200
    assert len(r.json()) == 1000
    assert any("holiday" in row["conflicts"] for row in r.json())


def test_stale_if_match_is_412_and_changes_nothing(api, org, world):
    s = _existing(org, world)
    r = api.get(f"/api/timetables/{s.id}")
    etag = r["ETag"]
    body = session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=1, notes="first")
    first = api.put(f"/api/timetables/{s.id}", body, headers={"If-Match": etag})
    assert first.status_code == 200
    stale = api.put(f"/api/timetables/{s.id}", {**body, "notes": "second"}, headers={"If-Match": etag})
    assert stale.status_code == 412
    assert stale.json()["type"] == "stale"
    s.refresh_from_db()
    assert s.notes == "first"
    assert (
        api.put(
            f"/api/timetables/{s.id}", {**body, "notes": "third"}, headers={"If-Match": first.json()["updatedAt"]}
        ).status_code
        == 200
    )


def test_update_keeps_the_date_when_week_and_day_are_unchanged(api, org, world):
    # A generated session whose week numbering started elsewhere keeps its date when the form sends it back.
    s = _existing(org, world, actual_date=MON, week_number=1)
    r = api.put(f"/api/timetables/{s.id}", session_body(world["g1"], world["unit"], weekNumber=1, dayOfWeek=1, notes="x"))
    assert r.status_code == 200 and r.json()["actualDate"] == "2026-03-02"
    r = api.put(f"/api/timetables/{s.id}", session_body(world["g1"], world["unit"], weekNumber=2, dayOfWeek=2))
    assert r.json()["actualDate"] == "2026-03-10"


def test_delete_and_events(api, org, world, captured_events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post("/api/timetables", session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=1)).json()
        assert api.delete(f"/api/timetables/{created['id']}").status_code == 204
    assert count() == 0
    assert [(m["event"]["action"], m["event"]["ids"]) for _g, m in captured_events] == [
        ("created", [created["id"]]),
        ("deleted", [created["id"]]),
    ]


def test_other_organizations_ids_are_404(api, org, other_org, world):
    unit = f.make_unit(other_org)
    group = f.make_block_group(other_org)
    teacher = f.make_teacher(other_org)
    theirs = f.make_session(other_org, block_group=group, unit=unit)
    assert api.get(f"/api/timetables/{theirs.id}").status_code == 404
    assert api.put(f"/api/timetables/{theirs.id}", session_body(world["g1"], world["unit"])).status_code == 404
    assert api.delete(f"/api/timetables/{theirs.id}").status_code == 404
    assert api.post("/api/timetables", session_body(group, world["unit"])).json()["message"] == "Block group not found"
    assert api.post("/api/timetables", session_body(world["g1"], unit)).status_code == 404
    assert api.post("/api/timetables", session_body(world["g1"], world["unit"], teacherId=str(teacher.id))).status_code == 404
    mine = _existing(org, world)
    assert (
        api.put(
            "/api/timetables/bulk-allocate", {"sessionIds": [str(theirs.id)], "teacherId": str(world["teacher"].id)}
        ).status_code
        == 404
    )
    assert (
        api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(mine.id)], "teacherId": str(teacher.id)}).status_code == 404
    )
    assert api.get("/api/timetables").json()[0]["id"] == str(mine.id)
    assert len(api.get("/api/timetables").json()) == 1
    theirs.refresh_from_db()
    assert theirs.teacher_id is None


def test_needs_sign_in(anon_api):
    assert anon_api.get("/api/timetables").status_code == 401
