"""A block group's timetable kept across changes that cannot touch it (ADR 0034).

The answer of ``GET /api/timetables?blockGroupId=G`` is kept with the keys its rows depend on (the group,
its teachers' weeks, its rooms' dates); a committed change notes the keys it touched. A read after changes
that touched none of them is answered from the kept answer (the sign-in queries only); any other is
rebuilt. Every test compares the answer with the timetable built afresh (``selectors.session_list``),
which is the only thing that matters: a kept answer that differs from it is a stale screen.
"""

from __future__ import annotations

import json
import random
from datetime import date, timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.core import response_cache
from project.core.responses import json_dumps
from project.timetabling import selectors
from tests import factories as f

SIGN_IN_QUERIES = 2  # the session row, the user with the organization
MONDAY = date(2027, 3, 1)


@pytest.fixture
def world(org):
    unit = f.make_unit(org, code="BSBCRT511", name="Develop critical thinking")
    t1 = f.make_teacher(org, first_name="Kim", last_name="Nguyen")
    t2 = f.make_teacher(org, first_name="Ari", last_name="Lee")
    for t in (t1, t2):
        f.qualify(t, unit)
    g1, g2, g3 = (f.make_block_group(org, code=f"BG-K{i}", start_date=date(2027, 2, 1)) for i in (1, 2, 3))
    s1 = f.make_session(org, block_group=g1, unit=unit, teacher=t1, room="CBD-1.01", actual_date=MONDAY)
    # Same teacher, same week, another day: a neighbour of s1 (a move to Monday morning clashes).
    s2 = f.make_session(org, block_group=g2, unit=unit, teacher=t1, room="CBD-2.02", actual_date=MONDAY + timedelta(days=2))
    # Another teacher, another room, another month: no neighbour of g1's rows.
    s3 = f.make_session(org, block_group=g3, unit=unit, teacher=t2, room="CBD-3.03", actual_date=date(2027, 5, 10))
    return {"org": org, "unit": unit, "t1": t1, "t2": t2, "g1": g1, "g2": g2, "g3": g3, "s1": s1, "s2": s2, "s3": s3}


def fresh(org, group) -> list[dict]:
    """The timetable of ``group`` built now, as the API would send it."""
    return json.loads(json_dumps(selectors.session_list(org=org, block_group_id=group.id)))


def read(api, group) -> tuple[list[dict], int]:
    """``GET /api/timetables?blockGroupId=`` and the number of queries it ran."""
    with CaptureQueriesContext(connection) as queries:
        response = api.get("/api/timetables", {"blockGroupId": str(group.id)})
    assert response.status_code == 200, response.content
    return response.json(), len(queries)


def edit(api, session_id, *, refused_ok: bool = False, **changes) -> dict:
    """A session's edit as the SPA sends it; ``refused_ok``: a hard conflict's 409 (nothing written) is an answer too."""
    path = f"/api/timetables/{session_id}"
    current = api.get(path)
    response = api.put(path, {**current.json(), **changes}, headers={"If-Match": current["ETag"]})
    assert response.status_code == 200 or (refused_ok and response.status_code == 409), response.content
    return response.json()


def by_id(rows: list[dict]) -> dict[str, dict]:
    return {r["id"]: r for r in rows}


def test_a_change_of_an_unrelated_group_keeps_the_answer(api, world, committed):
    org, g1 = world["org"], world["g1"]
    before, _ = read(api, g1)
    with committed():
        edit(api, world["s3"].id, notes="Bring the case studies", room="CBD-3.04")
    after, queries = read(api, g1)
    assert queries == SIGN_IN_QUERIES  # kept: no session was read
    assert after == before == fresh(org, g1)


def test_a_neighbour_moved_into_the_week_shows_at_once(api, world, committed):
    """The teacher's session of another group moved into g1's week: their six hours pass the teacher's
    four a week, and g1's row says so; moved out again (the week it leaves is touched too), it does not."""
    org, g1, s1, s2 = world["org"], world["g1"], world["s1"], world["s2"]
    world["t1"].max_weekly_hours = 4
    world["t1"].save()
    with committed():
        edit(api, s2.id, actualDate=(MONDAY + timedelta(days=14)).isoformat())
    assert by_id(read(api, g1)[0])[str(s1.id)]["conflicts"] == []
    with committed():
        edit(api, s2.id, actualDate=(MONDAY + timedelta(days=1)).isoformat())
    rows, queries = read(api, g1)
    assert queries > SIGN_IN_QUERIES
    assert "teacher_over_capacity" in by_id(rows)[str(s1.id)]["conflicts"]
    assert rows == fresh(org, g1)
    with committed():
        edit(api, s2.id, actualDate=(MONDAY + timedelta(days=30)).isoformat())
    rows, _ = read(api, g1)
    assert by_id(rows)[str(s1.id)]["conflicts"] == [] and rows == fresh(org, g1)


def test_a_deleted_neighbour_takes_its_clash_with_it(api, world, committed):
    org, g1, s1 = world["org"], world["g1"], world["s1"]
    clash = f.make_session(org, block_group=world["g3"], unit=world["unit"], teacher=world["t1"], actual_date=MONDAY)
    assert "teacher_double_booked" in by_id(read(api, g1)[0])[str(s1.id)]["conflicts"]
    with committed():
        assert api.delete(f"/api/timetables/{clash.id}").status_code == 204
    rows, _ = read(api, g1)
    assert by_id(rows)[str(s1.id)]["conflicts"] == [] and rows == fresh(org, g1)


def test_a_neighbour_leaving_the_room_takes_its_clash_with_it(api, world, committed):
    """Another teacher's class in g1's room at the same time; moved to another room (its room and date
    before the edit are touched): g1's row loses the clash, the room compared as the rules do."""
    org, g1, s1 = world["org"], world["g1"], world["s1"]
    clash = f.make_session(
        org, block_group=world["g3"], unit=world["unit"], teacher=world["t2"], actual_date=MONDAY, room="cbd-1.01"
    )
    assert "room_double_booked" in by_id(read(api, g1)[0])[str(s1.id)]["conflicts"]
    with committed():
        edit(api, clash.id, room="CBD-9.09")
    rows, _ = read(api, g1)
    assert by_id(rows)[str(s1.id)]["conflicts"] == [] and rows == fresh(org, g1)


def test_a_cleared_schedule_of_a_neighbour_takes_its_clashes_with_it(api, world, committed):
    """A schedule cleared names its rows by dates and teachers only (``schedule``): enough to rebuild."""
    org, g1, s1 = world["org"], world["g1"], world["s1"]
    f.make_session(org, block_group=world["g2"], unit=world["unit"], teacher=world["t1"], actual_date=MONDAY, room="CBD-1.01")
    conflicts = by_id(read(api, g1)[0])[str(s1.id)]["conflicts"]
    assert {"teacher_double_booked", "room_double_booked"} <= set(conflicts)
    with committed() as sent:
        assert api.delete(f"/api/block-groups/{world['g2'].id}/schedule").status_code == 200
    assert [(e, a) for e, a, _ids in sent] == [("timetable_session", "schedule_cleared")]
    rows, _ = read(api, g1)
    assert by_id(rows)[str(s1.id)]["conflicts"] == [] and rows == fresh(org, g1)


def test_a_change_of_another_entity_rebuilds(api, world, committed):
    """The teacher's name is on every row of theirs: a teacher's change touches everything."""
    org, g1, t1 = world["org"], world["g1"], world["t1"]
    read(api, g1)
    path = f"/api/teachers/{t1.id}"
    current = api.get(path)
    with committed():
        assert api.put(path, {**current.json(), "lastName": "Tran"}, headers={"If-Match": current["ETag"]}).status_code == 200
    rows, queries = read(api, g1)
    assert queries > SIGN_IN_QUERIES
    assert rows == fresh(org, g1) and "Tran" in json.dumps(rows)


def test_a_change_without_its_note_rebuilds(api, world, org):
    """A change whose note is not there (not yet made after its commit, or lost): rebuilt, not guessed."""
    g1 = world["g1"]
    read(api, g1)
    type(org)._base_manager.filter(pk=org.pk).update(event_seq=org.event_seq + 5)  # five changes, none noted
    rows, queries = read(api, g1)
    assert queries > SIGN_IN_QUERIES and rows == fresh(org, g1)


def test_an_answer_kept_past_its_lifetime_is_rebuilt(api, world, committed, monkeypatch):
    g1 = world["g1"]
    read(api, g1)
    with committed():
        edit(api, world["s3"].id, notes="later")
    real = response_cache.time.time
    monkeypatch.setattr(response_cache.time, "time", lambda: real() + settings.RESPONSE_CACHE_SECONDS + 1)
    _rows, queries = read(api, g1)
    assert queries > SIGN_IN_QUERIES


@pytest.mark.skipif(not settings.CACHES.get("responses"), reason="the shared tier needs REDIS_URL")
def test_another_process_reads_the_notes_from_redis(api, world, committed, monkeypatch):
    """The answer and the notes of one process serve another: its own memory is empty, Redis holds both."""
    org, g1 = world["org"], world["g1"]
    read(api, g1)
    with committed():
        edit(api, world["s3"].id, notes="from process one")
    monkeypatch.setattr(response_cache, "_local", None)  # a second process: nothing of its own yet
    monkeypatch.setattr(response_cache, "_notes", None)
    rows, queries = read(api, g1)
    assert queries == SIGN_IN_QUERIES and rows == fresh(org, g1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_after_any_sequence_of_writes_every_kept_timetable_is_the_fresh_one(api, world, committed, seed):
    """Random session writes among three groups sharing two teachers (of four hours a week) and two rooms
    in two weeks (moves, new teachers and rooms, times, notes, cancellations, creates, deletes; hard
    conflicts refused): after each, every group's timetable as served equals the timetable built afresh,
    and some reads were kept."""
    rng = random.Random(seed)
    org, unit = world["org"], world["unit"]
    for t in (world["t1"], world["t2"]):
        t.max_weekly_hours = 4  # soft conflicts that come and go with the teacher's week
        t.save()
    groups = [world["g1"], world["g2"], world["g3"]]
    teachers = [str(world["t1"].id), str(world["t2"].id), "unassigned"]
    rooms = ["CBD-1.01", "cbd-1.01 ", "CBD-2.02", ""]
    days = [MONDAY + timedelta(days=d) for d in (0, 1, 2, 7, 8)]
    sessions = [str(s.id) for s in (world["s1"], world["s2"], world["s3"])]
    for g in groups:
        for _ in range(3):
            day = rng.choice(days)
            sessions.append(
                str(
                    f.make_session(
                        org,
                        block_group=g,
                        unit=unit,
                        teacher=rng.choice([world["t1"], world["t2"], None]),
                        room=rng.choice(rooms).strip(),
                        actual_date=day,
                    ).id
                )
            )
    kept = 0
    for _step in range(30):
        for g in groups:
            read(api, g)  # every answer kept at this sequence
        kind = rng.choice(["move", "teacher", "room", "time", "notes", "status", "create", "delete"])
        with committed():
            if kind == "create":
                start = rng.choice([9, 10, 13])
                body = {
                    "blockGroupId": str(rng.choice(groups).id),
                    "unitId": str(unit.id),
                    "teacherId": rng.choice(teachers),
                    "actualDate": rng.choice(days).isoformat(),
                    "startTime": f"{start:02d}:00:00",
                    "endTime": f"{start + 3:02d}:00:00",
                    "room": rng.choice(rooms),
                    "status": "scheduled",
                    "notes": "",
                }
                response = api.post("/api/timetables", body)
                assert response.status_code in (201, 409), response.content  # 409: a hard conflict refused
                if response.status_code == 201:
                    sessions.append(response.json()["id"])
            elif kind == "delete" and len(sessions) > 3:
                assert api.delete(f"/api/timetables/{sessions.pop(rng.randrange(len(sessions)))}").status_code == 204
            else:
                target = rng.choice(sessions)
                start = rng.choice([9, 10, 13])
                changes = {
                    "move": {"actualDate": rng.choice(days).isoformat()},
                    "teacher": {"teacherId": rng.choice(teachers)},
                    "room": {"room": rng.choice(rooms)},
                    "time": {"startTime": f"{start:02d}:00:00", "endTime": f"{start + 3:02d}:00:00", "actualHours": 3},
                    "notes": {"notes": f"step {_step}"},
                    "status": {"status": rng.choice(["scheduled", "cancelled", "completed"])},
                    "delete": {"notes": "kept"},
                }[kind]
                edit(api, target, refused_ok=True, **changes)
        for g in groups:
            rows, queries = read(api, g)
            kept += queries == SIGN_IN_QUERIES
            assert rows == fresh(org, g), (kind, g.code)
    assert kept > 0  # the rule kept some answers (else this test would not test it)


def test_another_organizations_kept_timetable_is_never_served(api, other_api, other_org, world, committed):
    """Another organization's block group, whose timetable its own coordinator has just had kept: asked
    by id from here it is 404 (its kept answer lives under its organization), and stays 404 after a
    change here that touches nothing of theirs; their next read is still theirs."""
    unit = f.make_unit(other_org)
    group = f.make_block_group(other_org)
    theirs = f.make_session(other_org, block_group=group, unit=unit, actual_date=MONDAY)
    kept = other_api.get("/api/timetables", {"blockGroupId": str(group.id)})
    assert [r["id"] for r in kept.json()] == [str(theirs.id)]
    assert api.get("/api/timetables", {"blockGroupId": str(group.id)}).status_code == 404
    with committed():
        edit(api, world["s3"].id, notes="ours")
    assert api.get("/api/timetables", {"blockGroupId": str(group.id)}).status_code == 404
    assert other_api.get("/api/timetables", {"blockGroupId": str(group.id)}).content == kept.content
