"""Access that ends, ends everywhere within 2 s (docs/adr/0023), against a real daphne process.

Changes are made the way support staff make them: through the Django admin's HTML change forms, posted by
a superuser's browser session (sam), not by calling the model. The server here re-checks sessions only
every 10 minutes, so what closes or re-scopes a socket within 2 s is the model's own hook, not the
heartbeat's backstop.
"""

from __future__ import annotations

import asyncio
import os
import time

import aiohttp
import pytest
import socketio

from tests.access.admin_forms import form_fields
from tests.realtime.conftest import PyClient, Server, hook
from tests.realtime.test_displays_and_logout import Board, _api
from tests.realtime.test_socketio import refused

WITHIN = 2.0  # seconds, from sending the admin's form to the socket's answer


@pytest.fixture(scope="module")
def quiet_server(rt_database_url):
    """A daphne process whose sockets re-check their session only every 10 minutes."""
    srv = Server(rt_database_url, os.environ.get("REDIS_URL"), session_recheck=600_000).start()
    yield srv
    srv.stop()


class Watcher(PyClient):
    """A PyClient that also records ``session_ended`` and ``access_changed`` with their arrival time."""

    def __init__(self):
        super().__init__()
        self.ended: list[dict] = []
        self.access: asyncio.Queue = asyncio.Queue()
        self.sio.on("session_ended", self.ended.append)
        self.sio.on("access_changed", self._on_access)

    async def _on_access(self, data):
        await self.access.put((time.monotonic(), data))

    async def _on_disconnect(self, reason=None):
        self.disconnected_at = time.monotonic()
        await super()._on_disconnect(reason)


async def admin_change(server: Server, staff_session: str, path: str, change) -> float:
    """Open the Django admin's change form at ``path`` as the staff session, let ``change(fields)`` edit the
    fields, save it (302 expected). Returns when the form was sent (``time.monotonic()``)."""
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(base_url=server.http, cookie_jar=jar) as http:
        http.cookie_jar.update_cookies({"sessionid": staff_session})
        async with http.get(path) as resp:
            page = await resp.text()
            assert resp.status == 200, page[:2000]
        fields = form_fields(page)
        assert "csrfmiddlewaretoken" in fields, page[:2000]
        change(fields)
        fields["_save"] = "Save"
        sent = time.monotonic()
        async with http.post(path, data=fields, headers={"Referer": server.http + path}, allow_redirects=False) as resp:
            assert resp.status == 302, (await resp.text())[:3000]
        return sent


async def test_deactivating_a_user_in_the_django_admin_ends_their_sockets_and_sessions(quiet_server):
    server = quiet_server
    fresh = await hook(server, "seed", {})
    users = fresh["a"]["users"]
    mel, sam = users["mel"], users["sam"]
    laptop = (await hook(server, "session", {"user": mel["id"]}))["session"]
    tabs = [await Watcher().connect(server, mel["session"]), await Watcher().connect(server, laptop)]
    bystander = await Watcher().connect(server, users["ada"]["session"])
    try:
        sent = await admin_change(
            server, sam["session"], f"/django-admin/accounts/user/{mel['id']}/change/", lambda f: f.pop("is_active", None)
        )
        for tab in tabs:
            await asyncio.wait_for(tab.disconnected.wait(), WITHIN)
            assert tab.disconnected_at - sent < WITHIN
            assert tab.ended == [{"reason": "deactivated"}]
        # Their sessions are gone: neither the API nor a new socket lets them in.
        for session in (mel["session"], laptop):
            assert await refused(server, session) == {"message": "unauthorized"}
            async with aiohttp.ClientSession(base_url=server.http, cookies={"sessionid": session}) as http:
                async with http.get("/api/auth/user") as resp:
                    assert resp.status == 401
        # The organization's other sockets learn of the change (one activity by "Django admin") and stay.
        announced = await bystander.next_change()
        assert (announced["entity"], announced["ids"], announced["origin"]) == ("user", [mel["id"]], "admin")
        await hook(server, "emit", {"org": fresh["a"]["id"], "entity": "course", "action": "updated", "ids": ["c1"]})
        assert (await bystander.next_change())["ids"] == ["c1"]
        assert bystander.sio.connected and bystander.ended == []
    finally:
        for client in (*tabs, bystander):
            await client.close()


async def test_demoting_an_admin_in_the_django_admin_rescopes_their_socket_and_their_undo(quiet_server):
    server = quiet_server
    fresh = await hook(server, "seed", {})
    org, users = fresh["a"]["id"], fresh["a"]["users"]
    ada, sam = users["ada"], users["sam"]
    http, headers = await _api(server, ada["session"])
    socket = await Watcher().connect(server, ada["session"])
    try:
        async with http.post("/api/rooms", json={"code": "DEMOTE-R1", "name": "Lab", "capacity": 12}, headers=headers) as resp:
            assert resp.status == 201, await resp.text()
        room_event = await socket.next_change()
        assert (room_event["entity"], room_event["action"]) == ("room", "created")
        async with http.get("/api/activity", params={"entity": "room"}) as resp:
            [room_activity] = (await resp.json())["items"]
        await hook(server, "emit", {"org": org, "entity": "display_link", "action": "updated", "ids": ["l1"]})
        assert (await socket.next_change())["entity"] == "display_link"  # an admin sees it

        sent = await admin_change(
            server, sam["session"], f"/django-admin/accounts/user/{ada['id']}/change/", lambda f: f.update(role="user")
        )
        at, data = await asyncio.wait_for(socket.access.get(), WITHIN)
        assert data == {"role": "user"} and at - sent < WITHIN
        announced = await socket.next_change()  # the admin's change of their own account: theirs to see
        assert (announced["entity"], announced["ids"]) == ("user", [ada["id"]])
        await hook(server, "emit", {"org": org, "entity": "display_link", "action": "updated", "ids": ["l2"]})
        await hook(server, "emit", {"org": org, "entity": "user", "action": "created", "ids": [users["mel"]["id"]]})
        await hook(server, "emit", {"org": org, "entity": "course", "action": "updated", "ids": ["c9"]})
        hidden_link, hidden_user, course = [await socket.next_change() for _ in range(3)]
        assert hidden_link == {"seq": hidden_link["seq"], "hidden": True}
        assert hidden_user == {"seq": hidden_link["seq"] + 1, "hidden": True}
        assert course["ids"] == ["c9"]
        assert socket.sio.connected and socket.ended == []  # re-scoped, not signed out

        # Undo is judged by the role now: the room they created as an admin is not theirs to undo any more.
        async with http.post(f"/api/activity/{room_activity['id']}/undo", headers=headers) as resp:
            assert resp.status == 403, await resp.text()
            assert await resp.json() == {"message": "Only an administrator can undo this change."}
        async with http.get("/api/rooms") as resp:
            assert [r["code"] for r in await resp.json()] == ["DEMOTE-R1"]
        # ...and the history they read is a member's.
        async with http.get("/api/activity", params={"entity": "display_link"}) as resp:
            assert (await resp.json())["total"] == 0
    finally:
        await socket.close()
        await http.close()


async def test_deactivating_an_organization_in_the_django_admin_closes_all_its_sockets(quiet_server):
    server = quiet_server
    fresh = await hook(server, "seed", {})
    users = fresh["a"]["users"]
    sockets = [await Watcher().connect(server, users[k]["session"]) for k in ("ada", "mel")]
    other = await Watcher().connect(server, fresh["b"]["users"]["bob"]["session"])
    staff = (await hook(server, "session", {"user": users["sam"]["id"]}))["session"]
    token = (await hook(server, "scope_fixture", {"org": fresh["a"]["id"]}))["links"]["all"]["token"]
    board = await Board().connect(server, token)
    try:
        sent = await admin_change(
            server, staff, f"/django-admin/accounts/organization/{fresh['a']['id']}/change/", lambda f: f.pop("is_active", None)
        )
        for client in sockets:
            await asyncio.wait_for(client.disconnected.wait(), WITHIN)
            assert client.disconnected_at - sent < WITHIN
            assert client.ended == [{"reason": "deactivated"}]
        await asyncio.wait_for(board.disconnected.wait(), WITHIN)  # its wall displays too
        assert await refused(server, users["mel"]["session"]) == {"message": "unauthorized"}
        with pytest.raises(socketio.exceptions.ConnectionError):
            await Board().connect(server, token)
        # Another organization is untouched.
        await hook(server, "emit", {"org": fresh["b"]["id"], "entity": "course", "action": "updated", "ids": ["b1"]})
        assert (await other.next_change())["ids"] == ["b1"]
        assert other.sio.connected
    finally:
        for client in (*sockets, other):
            await client.close()
        if board.sio.connected:
            await board.sio.disconnect()


async def test_a_change_no_save_hook_sees_ends_or_rescopes_the_socket_at_the_heartbeat(rt_database_url):
    """``QuerySet.update()`` (a shell, a script) runs no save hook: the heartbeat's re-check reads the user's
    row too, so a deactivated user's socket ends (``session_ended``) and a demoted admin's socket closes and
    comes back scoped by the new role, within one re-check (1 s here, with the pings of 1 s)."""
    server = Server(rt_database_url, os.environ.get("REDIS_URL"), session_recheck=1000).start()
    try:
        fresh = await hook(server, "seed", {})
        users = fresh["a"]["users"]
        mel, ada = users["mel"], users["ada"]
        member = await Watcher().connect(server, mel["session"])
        admin = await Watcher().connect(server, ada["session"])
        try:
            await hook(server, "bulk_update_user", {"user": mel["id"], "fields": {"is_active": False}})
            await asyncio.wait_for(member.disconnected.wait(), 5)
            assert member.ended == [{"reason": "expired"}]
            assert await refused(server, mel["session"])  # and it cannot come back

            await hook(server, "bulk_update_user", {"user": ada["id"], "fields": {"role": "user"}})
            await asyncio.wait_for(admin.disconnected.wait(), 5)
            assert admin.ended == []  # a role change is not a sign-out
            again = await Watcher().connect(server, ada["session"])  # the session still stands
            await again.close()
        finally:
            await member.close()
            await admin.close()
    finally:
        server.stop()
