"""Wall display sockets and the real logout API (ADR 0003), against a real daphne process.

A display link's token authenticates a socket for its organization only; revoking the link through the
API closes the open board's socket at once and a reconnect is refused. Logging out through the API
closes that user's sockets.
"""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
import socketio

from tests.realtime.conftest import hook


async def _api(server, session_key):
    jar = aiohttp.CookieJar(unsafe=True)
    http = aiohttp.ClientSession(base_url=server.http, cookie_jar=jar)
    http.cookie_jar.update_cookies({"sessionid": session_key})
    async with http.get("/api/auth/user") as resp:
        assert resp.status == 200, await resp.text()
    csrf = {c.key: c.value for c in jar}["csrftoken"]
    headers = {"X-CSRFToken": csrf, "Origin": server.http, "Referer": server.http + "/"}
    return http, headers


class Board:
    def __init__(self):
        self.sio = socketio.AsyncClient(reconnection=False)
        self.changes: asyncio.Queue = asyncio.Queue()
        self.disconnected = asyncio.Event()
        self.reason = None
        self.sio.on("change", self.changes.put)

        async def gone(reason=None):
            self.reason = reason
            self.disconnected.set()

        self.sio.on("disconnect", gone)

    async def connect(self, server, token):
        await self.sio.connect(
            server.http,
            headers={"Origin": server.origin},
            auth={"displayToken": token},
            transports=["websocket"],
            wait_timeout=5,
        )
        return self


async def test_display_token_socket_gets_its_org_events_and_is_closed_on_revocation(server, seeded):
    fresh = await hook(server, "seed", {})
    ada = fresh["a"]["users"]["ada"]
    http, headers = await _api(server, ada["session"])
    async with http:
        async with http.post("/api/display-links", json={"name": "Staff room"}, headers=headers) as resp:
            assert resp.status == 201, await resp.text()
            link = await resp.json()
        board = await Board().connect(server, link["token"])
        try:
            # Events of its organization reach the board; another organization's do not.
            await hook(
                server, "emit", {"org": fresh["b"]["id"], "entity": "timetable_session", "action": "allocated", "ids": ["other"]}
            )
            await hook(
                server, "emit", {"org": fresh["a"]["id"], "entity": "timetable_session", "action": "allocated", "ids": ["s1"]}
            )
            event = await asyncio.wait_for(board.changes.get(), 5)
            assert event["ids"] == ["s1"] and event["entity"] == "timetable_session"
            assert board.changes.empty()

            async with http.delete(f"/api/display-links/{link['id']}", headers=headers) as resp:
                assert resp.status == 200, await resp.text()
            await asyncio.wait_for(board.disconnected.wait(), 3)
            assert board.reason == "server disconnect"  # io server disconnect: the client does not retry
        finally:
            if board.sio.connected:
                await board.sio.disconnect()

        # The revoked token is refused from now on, on the socket and on the board call.
        with pytest.raises(socketio.exceptions.ConnectionError):
            await Board().connect(server, link["token"])
        async with http.get(f"/api/display/{link['token']}") as resp:
            assert resp.status == 410


async def test_unknown_display_token_is_refused(server, seeded):
    board = Board()
    with pytest.raises(socketio.exceptions.ConnectionError):
        await board.connect(server, "not-a-display-token")
    assert not board.sio.connected


async def test_logout_through_the_api_closes_the_users_socket(server, seeded, clients):
    fresh = await hook(server, "seed", {})
    mel = fresh["a"]["users"]["mel"]
    tab = await clients(server, mel["session"])
    http, headers = await _api(server, mel["session"])
    async with http:
        async with http.post("/api/auth/logout", headers=headers) as resp:
            assert resp.status == 200, await resp.text()
    await asyncio.wait_for(tab.disconnected.wait(), 3)
    assert tab.disconnect_reason == "server disconnect"
