"""Sockets follow the session and the scope (ADR 0007), against a real daphne process.

- A password change ends the user's other sessions and their sockets (``session_ended`` with reason
  ``password_changed``), not the browser that changed it.
- Logging out closes only that browser session's sockets (``logout``); the user's other browsers stay live.
- The heartbeat re-checks the session: a session ended behind the socket's back ends it at the next ping.
- A wall display receives only its board's events, without ``actorId``; a member no admin-only entity.
- The Origin check compares scheme, host and port.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.realtime.conftest import PyClient, hook
from tests.realtime.test_displays_and_logout import Board, _api
from tests.realtime.test_socketio import refused

PW1 = "First$Password2026"
PW2 = "Second$Password2026"


class EndAware(PyClient):
    """A PyClient that records ``session_ended`` payloads."""

    def __init__(self):
        super().__init__()
        self.ended: list[dict] = []
        self.sio.on("session_ended", self._on_ended)

    async def _on_ended(self, data):
        self.ended.append(data)


async def connect(server, session) -> EndAware:
    return await EndAware().connect(server, session)


async def test_a_password_change_ends_the_other_sessions_sockets(server):
    fresh = await hook(server, "seed", {})
    ada = fresh["a"]["users"]["ada"]
    await hook(server, "password", {"user": ada["id"], "password": PW1})
    here = (await hook(server, "session", {"user": ada["id"]}))["session"]
    elsewhere = (await hook(server, "session", {"user": ada["id"]}))["session"]
    mine, theirs = await connect(server, here), await connect(server, elsewhere)
    try:
        http, headers = await _api(server, here)
        async with http.put(
            "/api/auth/change-password", json={"currentPassword": PW1, "newPassword": PW2}, headers=headers
        ) as resp:
            assert resp.status == 200, await resp.text()
        await asyncio.wait_for(theirs.disconnected.wait(), 3)
        assert theirs.ended == [{"reason": "password_changed"}]
        assert theirs.disconnect_reason == "server disconnect"
        # The browser that changed the password keeps its session (under a new key) and its live socket,
        # also past the heartbeat's re-checks (one ping a second in these tests).
        await asyncio.sleep(2.5)
        await hook(server, "emit", {"org": fresh["a"]["id"], "entity": "course", "action": "updated", "ids": ["c1"]})
        assert (await mine.next_change())["ids"] == ["c1"]
        assert mine.sio.connected and mine.ended == []
        # ...and a logout there (with the new session cookie) still closes it.
        new_key = {c.key: c.value for c in http.cookie_jar}.get("sessionid")
        assert new_key and new_key != here
        async with http.post(
            "/api/auth/logout", headers={**headers, "X-CSRFToken": {c.key: c.value for c in http.cookie_jar}["csrftoken"]}
        ) as resp:
            assert resp.status == 200, await resp.text()
        await asyncio.wait_for(mine.disconnected.wait(), 3)
        assert mine.ended == [{"reason": "logout"}]
        await http.close()
    finally:
        await mine.close()
        await theirs.close()


async def test_logout_closes_only_that_browsers_sockets(server):
    fresh = await hook(server, "seed", {})
    ada = fresh["a"]["users"]["ada"]
    laptop = (await hook(server, "session", {"user": ada["id"]}))["session"]
    desktop = (await hook(server, "session", {"user": ada["id"]}))["session"]
    laptop_tabs = [await connect(server, laptop), await connect(server, laptop)]
    desktop_tab = await connect(server, desktop)
    try:
        http, headers = await _api(server, laptop)
        async with http:
            async with http.post("/api/auth/logout", headers=headers) as resp:
                assert resp.status == 200, await resp.text()
        for tab in laptop_tabs:
            await asyncio.wait_for(tab.disconnected.wait(), 3)
            assert tab.ended == [{"reason": "logout"}]
        await hook(server, "emit", {"org": fresh["a"]["id"], "entity": "course", "action": "updated", "ids": ["c2"]})
        assert (await desktop_tab.next_change())["ids"] == ["c2"]
        assert desktop_tab.sio.connected and desktop_tab.ended == []
    finally:
        for tab in (*laptop_tabs, desktop_tab):
            await tab.close()


async def test_the_heartbeat_ends_a_socket_whose_session_is_gone(server):
    fresh = await hook(server, "seed", {})
    mel = fresh["a"]["users"]["mel"]
    session = (await hook(server, "session", {"user": mel["id"]}))["session"]
    client = await connect(server, session)
    try:
        await hook(server, "end_session", {"session": session})  # no revoke message: only the ping can tell
        await asyncio.wait_for(client.disconnected.wait(), 4)  # pings every second in these tests
        assert client.ended == [{"reason": "expired"}]
        assert await refused(server, session) == {"message": "unauthorized"}
    finally:
        await client.close()


async def test_a_member_gets_no_admin_only_events(server):
    fresh = await hook(server, "seed", {})
    ada, mel = fresh["a"]["users"]["ada"], fresh["a"]["users"]["mel"]
    admin, member = await connect(server, ada["session"]), await connect(server, mel["session"])
    org = fresh["a"]["id"]
    try:
        for entity, ids in (("display_link", ["l1"]), ("user", [ada["id"]]), ("user", [mel["id"]]), ("course", ["c1"])):
            await hook(server, "emit", {"org": org, "entity": entity, "action": "updated", "ids": ids, "actor": ada["id"]})
        got_admin = [(await admin.next_change())["entity"] for _ in range(4)]
        assert got_admin == ["display_link", "user", "user", "course"]
        got = [await member.next_change() for _ in range(4)]
        # Admin-only events keep only their place in the sequence (no gap for the SPA to refetch on).
        assert got[0] == {"seq": got[0]["seq"], "hidden": True}
        assert got[1] == {"seq": got[0]["seq"] + 1, "hidden": True}
        assert (got[2]["entity"], got[2]["ids"]) == ("user", [mel["id"]])  # their own user: yes
        assert got[3]["entity"] == "course"
        await member.no_change(0.5)
    finally:
        await admin.close()
        await member.close()


async def test_a_wall_display_gets_only_its_boards_events_without_the_actor(server):
    fresh = await hook(server, "seed", {})
    ada = fresh["a"]["users"]["ada"]
    org = fresh["a"]["id"]
    http, headers = await _api(server, ada["session"])
    async with http:
        async with http.post("/api/display-links", json={"name": "Foyer"}, headers=headers) as resp:
            assert resp.status == 201, await resp.text()
            link = await resp.json()
        async with http.post("/api/display-links", json={"name": "Library"}, headers=headers) as resp:
            other = await resp.json()
        board = await Board().connect(server, link["token"])
        try:
            emits = [
                ("user", [ada["id"]]),
                ("organization", [org]),
                ("course", ["c1"]),
                ("display_link", [other["id"]]),
                ("timetable_session", ["s1"]),
                ("holiday", ["h1"]),
                ("block_group", ["g1"]),
                ("display_link", [link["id"]]),
            ]
            for entity, ids in emits:
                await hook(
                    server,
                    "emit",
                    {"org": org, "entity": entity, "action": "updated", "ids": ids, "actor": ada["id"], "origin": "tab-1"},
                )
            got = [await asyncio.wait_for(board.changes.get(), 5) for _ in range(4)]
            assert [(e["entity"], e["ids"]) for e in got] == [
                ("timetable_session", ["s1"]),
                ("holiday", ["h1"]),
                ("block_group", ["g1"]),
                ("display_link", [link["id"]]),
            ]
            assert all("actorId" not in e and "origin" not in e and "campusIds" not in e for e in got)
            await asyncio.sleep(0.3)
            assert board.changes.empty()
        finally:
            if board.sio.connected:
                await board.sio.disconnect()


@pytest.mark.parametrize("origin", ["http://localhost:9999", "https://localhost:{port}", "http://evil.example:{port}"])
async def test_the_origin_must_match_scheme_host_and_port(server, seeded, origin):
    session = seeded["a"]["users"]["ada"]["session"]
    assert await refused(server, session, origin=origin.format(port=server.port)) == {"message": "unauthorized"}
    ok = await PyClient().connect(server, session, origin=f"http://localhost:{server.port}")
    assert ok.sio.connected
    await ok.close()


async def test_a_campus_board_gets_only_its_campus_sessions_and_block_groups(server):
    fresh = await hook(server, "seed", {})
    org, ada = fresh["a"]["id"], fresh["a"]["users"]["ada"]
    fx = await hook(server, "scope_fixture", {"org": org})
    north, south = fx["campuses"]["north"], fx["campuses"]["south"]
    north_board = await Board().connect(server, fx["links"]["north"]["token"])
    all_board = await Board().connect(server, fx["links"]["all"]["token"])
    try:
        for entity, ids in (
            ("timetable_session", [south["session"]]),
            ("block_group", [south["blockGroup"]]),
            ("timetable_session", [north["session"]]),
            ("block_group", [north["blockGroup"]]),
            ("holiday", ["h-1"]),
        ):
            await hook(server, "emit", {"org": org, "entity": entity, "action": "updated", "ids": ids, "actor": ada["id"]})
        got_north = [await asyncio.wait_for(north_board.changes.get(), 5) for _ in range(3)]
        assert [(e["entity"], e["ids"]) for e in got_north] == [
            ("timetable_session", [north["session"]]),
            ("block_group", [north["blockGroup"]]),
            ("holiday", ["h-1"]),
        ]
        got_all = [await asyncio.wait_for(all_board.changes.get(), 5) for _ in range(5)]
        assert [e["ids"] for e in got_all] == [
            [south["session"]],
            [south["blockGroup"]],
            [north["session"]],
            [north["blockGroup"]],
            ["h-1"],
        ]
        assert all("campusIds" not in e and "actorId" not in e for e in got_north + got_all)
        await asyncio.sleep(0.3)
        assert north_board.changes.empty()
    finally:
        for board in (north_board, all_board):
            if board.sio.connected:
                await board.sio.disconnect()
