"""Hot list answers kept until the organization's next change (ADR 0013).

``GET /api/timetables`` (without ``ids``), ``GET /api/teachers`` and ``GET /api/block-groups`` are built
once per organization, parameters and change sequence: a second read with no change in between runs only
the sign-in queries; any write through the API (which raises the sequence) shows in the next read; other
parameters, another organization and another "today" (``hidePast``) never share an answer.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
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


def test_ids_reads_are_never_cached(api, world):
    params = {"ids": str(world["session"].id)}
    api.get("/api/timetables", params)
    with CaptureQueriesContext(connection) as queries:
        assert api.get("/api/timetables", params).status_code == 200
    assert len(queries) > SIGN_IN_QUERIES


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
