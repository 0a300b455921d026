"""Hot list answers kept until the organization's next change (ADR 0013).

``GET /api/timetables`` (without ``ids``), ``GET /api/teachers`` and ``GET /api/block-groups`` are built
once per organization, parameters and change sequence: a second read with no change in between runs only
the sign-in queries; any write through the API (which raises the sequence) shows in the next read; other
parameters, another organization and another "today" (``hidePast``) never share an answer.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import factories as f

SIGN_IN_QUERIES = 2  # the session row, the user with the organization


@pytest.fixture
def world(org):
    unit = f.make_unit(org, code="BSBCRT511", name="Develop critical thinking")
    group = f.make_block_group(org, code="BG-CACHE", name="Cache group")
    teacher = f.make_teacher(org, first_name="Kim", last_name="Nguyen")
    f.qualify(teacher, unit)
    session = f.make_session(org, block_group=group, unit=unit, teacher=teacher, room="CBD-3.12")
    return {"unit": unit, "group": group, "teacher": teacher, "session": session}


def _twice(api, path, params=None):
    first = api.get(path, params or {})
    with CaptureQueriesContext(connection) as queries:
        second = api.get(path, params or {})
    assert first.status_code == second.status_code == 200
    assert second.content == first.content
    return first.json(), len(queries)


@pytest.mark.parametrize("path", ["/api/teachers", "/api/block-groups", "/api/timetables"])
def test_a_second_read_without_a_change_is_not_rebuilt(api, world, path):
    params = {"blockGroupId": str(world["group"].id)} if path == "/api/timetables" else {}
    rows, queries = _twice(api, path, params)
    assert rows
    assert queries == SIGN_IN_QUERIES


def test_ids_reads_are_read_once_per_change(api, world):
    """A live screen's patch (``?ids=``): every open screen showing the rows asks at once after the change
    that named them; one read per change serves them (ADR 0025), and the next change reads again."""
    session = world["session"]
    params = {"ids": str(session.id)}
    assert api.get("/api/timetables", params).json()[0]["room"] == "CBD-3.12"
    with CaptureQueriesContext(connection) as queries:
        assert api.get("/api/timetables", params).status_code == 200
    assert len(queries) == SIGN_IN_QUERIES
    etag = api.get(f"/api/timetables/{session.id}")["ETag"]
    body = api.get(f"/api/timetables/{session.id}").json()
    assert api.put(f"/api/timetables/{session.id}", {**body, "room": "CBD-4.01"}, headers={"If-Match": etag}).status_code == 200
    assert api.get("/api/timetables", params).json()[0]["room"] == "CBD-4.01"
    other = {
        "ids": f"{session.id},{f.make_session(world['group'].organization, block_group=world['group'], unit=world['unit']).id}"
    }
    assert len(api.get("/api/timetables", other).json()) == 2  # other ids, their own answer


def test_a_write_through_the_api_shows_in_the_next_read(api, world):
    teacher, group = world["teacher"], world["group"]
    assert _twice(api, "/api/teachers")[0][0]["lastName"] == "Nguyen"
    etag = api.get(f"/api/teachers/{teacher.id}")["ETag"]
    body = api.get(f"/api/teachers/{teacher.id}").json()
    body["lastName"] = "Tran"
    assert api.put(f"/api/teachers/{teacher.id}", body, headers={"If-Match": etag}).status_code == 200
    assert [t["lastName"] for t in api.get("/api/teachers").json()] == ["Tran"]

    params = {"blockGroupId": str(group.id)}
    rows, _ = _twice(api, "/api/timetables", params)
    assert rows[0]["room"] == "CBD-3.12" and rows[0]["conflicts"] == []
    created = api.post(
        "/api/timetables",
        {
            "blockGroupId": str(group.id),
            "unitId": str(world["unit"].id),
            "teacherId": "unassigned",
            "dayOfWeek": 1,
            "weekNumber": 1,
            "startTime": "13:00:00",
            "endTime": "15:00:00",
            "room": "CBD-3.14",
            "actualHours": 2,
            "status": "scheduled",
            "notes": "",
        },
    )
    assert created.status_code == 201, created.json()
    day = created.json()["actualDate"]
    after = api.get("/api/timetables", params).json()
    assert len(after) == 2 and created.json()["id"] in {r["id"] for r in after}
    # A holiday added on that day: the rows of the day carry it at once.
    assert api.post("/api/holidays", {"name": "Snap closure", "startDate": day, "endDate": day}).status_code == 201
    rows = api.get("/api/timetables", params).json()
    assert [r["conflicts"] for r in rows if r["actualDate"] == day] and all(
        r["conflicts"] == ["holiday"] for r in rows if r["actualDate"] == day
    )
    groups = api.get("/api/block-groups").json()
    assert groups[0]["timetableCount"] == 2


def test_parameters_and_organizations_have_their_own_answers(api, other_api, world, org, other_org):
    f.make_teacher(org, first_name="Ina", last_name="Active", is_active=False)
    f.make_teacher(other_org, first_name="Oscar", last_name="Other")
    active = api.get("/api/teachers").json()
    everyone = api.get("/api/teachers", {"showInactive": "true"}).json()
    assert {t["lastName"] for t in active} == {"Nguyen"}
    assert {t["lastName"] for t in everyone} == {"Nguyen", "Active"}
    assert {t["lastName"] for t in other_api.get("/api/teachers").json()} == {"Other"}
    assert {t["lastName"] for t in api.get("/api/teachers").json()} == {"Nguyen"}


def test_hide_past_answers_follow_the_users_today(api, world, org, monkeypatch):
    from django.utils import timezone

    group, unit = world["group"], world["unit"]
    f.make_session(org, block_group=group, unit=unit, actual_date=date(2026, 3, 9))
    params = {"blockGroupId": str(group.id), "hidePast": "true"}
    # 2026-03-05 in Melbourne: the 2 March session is past, the 9 March one is not.
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 3, 4, 14, 0, tzinfo=UTC))
    assert [r["actualDate"] for r in api.get("/api/timetables", params).json()] == ["2026-03-09"]
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 3, 1, 14, 0, tzinfo=UTC))
    assert [r["actualDate"] for r in api.get("/api/timetables", params).json()] == ["2026-03-02", "2026-03-09"]


def test_turned_off_every_read_is_built(api, world, org, settings):
    settings.RESPONSE_CACHE_SECONDS = 0
    assert {t["lastName"] for t in api.get("/api/teachers").json()} == {"Nguyen"}
    f.make_teacher(org, first_name="Out", last_name="OfBand")  # no change event: only seen uncached
    assert {t["lastName"] for t in api.get("/api/teachers").json()} == {"Nguyen", "OfBand"}


@pytest.mark.parametrize(
    "path",
    ["/api/teachers/allocation-grid", "/api/teachers/workload-summary", "/api/reports/load-planning"],
)
def test_grid_and_reports_are_kept_until_the_next_change(api, world, path):
    """The allocation grid and the reports every open screen re-reads after a change it shows (ADR 0025):
    one build per change, and the next change shows."""
    year = {"year": str(world["session"].actual_date.year)}
    before, queries = _twice(api, path, year)
    assert queries == SIGN_IN_QUERIES
    session = world["session"]
    etag = api.get(f"/api/timetables/{session.id}")["ETag"]
    body = api.get(f"/api/timetables/{session.id}").json()
    body["actualHours"] = float(body["actualHours"]) + 1
    body["endTime"] = f"{int(body['endTime'][:2]) + 1:02d}{body['endTime'][2:]}"
    assert api.put(f"/api/timetables/{session.id}", body, headers={"If-Match": etag}).status_code == 200, body
    assert api.get(path, year).json() != before  # an hour more for the teacher: rebuilt


def test_display_boards_of_one_scope_share_one_build_per_change(api, world, org):
    """Every wall display showing the same day and scope re-reads its board after a change: the
    sessions are read once per change for all of them (ADR 0025), each answer with its own link's name."""
    from project.displays.models import DisplayLink
    from project.displays.selectors import organization_today

    session = world["session"]
    today, _ = organization_today(org)
    type(session).objects.filter(pk=session.pk).update(actual_date=today)
    tokens = [api.post("/api/display-links", {"name": f"TV {i}"}).json()["token"] for i in range(3)]
    first = api.get(f"/api/display/{tokens[0]}").json()
    assert [s["room"] for s in first["sessions"]] == ["CBD-3.12"] and first["name"] == "TV 0"
    for i, token in enumerate(tokens[1:], start=1):
        with CaptureQueriesContext(connection) as queries:
            board = api.get(f"/api/display/{token}").json()
        assert board["name"] == f"TV {i}" and board["sessions"] == first["sessions"]
        # The link (with its organization) and its first "last seen": no sessions read.
        assert not any("timetabling_timetablesession" in q["sql"] for q in queries.captured_queries), queries.captured_queries
    with CaptureQueriesContext(connection) as queries:
        api.get(f"/api/display/{tokens[1]}")
    assert len(queries) == 1  # seen a moment ago: last_seen_at is not written again
    assert DisplayLink.objects.for_org(org).filter(last_seen_at__isnull=False).count() == 3

    etag = api.get(f"/api/timetables/{session.id}")["ETag"]
    body = api.get(f"/api/timetables/{session.id}").json()
    body["room"] = "CBD-4.01"
    assert api.put(f"/api/timetables/{session.id}", body, headers={"If-Match": etag}).status_code == 200
    assert {api.get(f"/api/display/{t}").json()["sessions"][0]["room"] for t in tokens} == {"CBD-4.01"}


def test_conflict_lists_are_built_once_per_change(api, world, org):
    """Every open timetable of a group re-reads its conflicts after a change (ADR 0025): one build per
    change and question, and the next change (any write through the API) shows what changed."""
    group, unit, session, teacher = world["group"], world["unit"], world["session"], world["teacher"]
    params = {"blockGroupId": str(group.id), "start": session.actual_date.isoformat()}
    assert api.get("/api/timetables/conflicts", params).json() == []
    with CaptureQueriesContext(connection) as queries:
        assert api.get("/api/timetables/conflicts", params).json() == []
    assert not any("timetabling_timetablesession" in q["sql"] for q in queries.captured_queries)
    # The group double-booked by hand (no change event): the kept answer stands until the next change.
    f.make_session(org, block_group=group, unit=unit, actual_date=session.actual_date, room="CBD-9.99")
    assert api.get("/api/timetables/conflicts", params).json() == []
    etag = api.get(f"/api/teachers/{teacher.id}")["ETag"]
    body = api.get(f"/api/teachers/{teacher.id}").json()
    assert api.put(f"/api/teachers/{teacher.id}", {**body, "lastName": "Tran"}, headers={"If-Match": etag}).status_code == 200
    assert [c["type"] for c in api.get("/api/timetables/conflicts", params).json()] == ["group_double_booked"]


def test_kept_value_builds_once_per_sequence_while_the_others_wait():
    """Callers arriving together after a change wait for the one build (single flight); a new sequence
    builds again; a failed build is not kept."""
    import threading
    import time
    import uuid
    from types import SimpleNamespace

    from project.core.response_cache import kept_value

    org = SimpleNamespace(pk=uuid.uuid4(), event_seq=7)
    builds = []

    def build():
        builds.append(org.event_seq)
        time.sleep(0.2)
        return ["rows", org.event_seq]

    answers = []
    threads = [threading.Thread(target=lambda: answers.append(kept_value(org, "t", {"a": 1}, build))) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert builds == [7] and answers == [["rows", 7]] * 6
    org.event_seq = 8
    assert kept_value(org, "t", {"a": 1}, build) == ["rows", 8] and builds == [7, 8]
    assert kept_value(org, "t", {"a": 2}, build) == ["rows", 8] and builds == [7, 8, 8]  # other parameters

    def failing():
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        kept_value(org, "u", {}, failing)
    assert kept_value(org, "u", {}, build) == ["rows", 8]


needs_redis = pytest.mark.skipif(not django_settings.CACHES.get("responses"), reason="the shared tier needs REDIS_URL")


@needs_redis
def test_a_build_another_process_claimed_is_waited_for_not_repeated(api, world, org, monkeypatch):
    """After a change the processes of a cluster are asked for the same list at once: the one that claims
    the build in Redis builds it, the others answer with its answer (one build per change, not per process)."""
    import threading
    import time

    from project.core import response_cache as rc

    claimed: list[str] = []
    monkeypatch.setattr(rc, "_claim", lambda shared, key, seq: claimed.append(key) or False)  # another process holds it
    built_elsewhere = b'[{"built": "by the other process"}]'

    def other_process() -> None:
        for _ in range(200):
            if claimed:
                break
            threading.Event().wait(0.01)
        shared = rc._shared_tier()
        shared.set(claimed[0], (org.event_seq, built_elsewhere, None, None, time.time()), 60)
        rc._release(shared, claimed[0], org.event_seq)

    worker = threading.Thread(target=other_process)
    worker.start()
    with CaptureQueriesContext(connection) as queries:
        response = api.get("/api/teachers")
    worker.join()
    assert response.status_code == 200 and response.content == built_elsewhere
    assert len(queries) == SIGN_IN_QUERIES  # nothing built here
    assert api.get("/api/teachers").content == built_elsewhere  # and kept here for the next reads


@needs_redis
def test_a_claimed_build_that_never_comes_is_built_here(api, world, monkeypatch):
    from project.core import response_cache as rc

    monkeypatch.setattr(rc, "_claim", lambda shared, key, seq: False)
    monkeypatch.setattr(rc, "SHARED_WAIT_SECONDS", 0.1)
    rows = api.get("/api/teachers").json()
    assert [t["lastName"] for t in rows] == ["Nguyen"]


@needs_redis
def test_a_shared_value_is_built_once_for_the_processes(monkeypatch):
    """``kept_value(shared=True)`` (a board's sessions): a second process finds the first one's value in
    Redis; a process whose build another claimed waits for that value instead of building it."""
    import threading
    import time
    import uuid
    from types import SimpleNamespace

    from project.core import response_cache as rc

    org = SimpleNamespace(pk=uuid.uuid4(), event_seq=3)
    builds: list[int] = []

    def build() -> bytes:
        builds.append(org.event_seq)
        return b'[{"seq": %d}]' % org.event_seq

    assert rc.kept_value(org, "board", {"day": "2027-03-01"}, build, shared=True) == b'[{"seq": 3}]'
    monkeypatch.setattr(rc, "_values", None)  # another process: nothing of its own
    assert rc.kept_value(org, "board", {"day": "2027-03-01"}, build, shared=True) == b'[{"seq": 3}]'
    assert builds == [3]

    org.event_seq = 4
    claimed: list[str] = []
    monkeypatch.setattr(rc, "_claim", lambda shared, key, seq: claimed.append(key) or False)

    def other_process() -> None:
        while not claimed:
            time.sleep(0.01)
        store = rc._shared_tier()
        store.set(claimed[0], (4, b"[built elsewhere]"), 60)
        rc._release(store, claimed[0], 4)

    worker = threading.Thread(target=other_process, daemon=True)
    worker.start()
    assert rc.kept_value(org, "board", {"day": "2027-03-01"}, build, shared=True) == b"[built elsewhere]"
    worker.join(5)
    assert builds == [3]
