"""Socket.IO at /socket.io/ against a real daphne process (docs/behaviour/live-events.md §1, ADR 0003).

Clients: python-socketio's AsyncClient, a raw Engine.IO websocket (aiohttp) where the wire itself is
the subject, and socket.io-client 4 (Node) in test_node_client.py.
"""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
import socketio

from realtime.events import ACTIONS, ENTITIES
from tests.realtime.conftest import PING_INTERVAL_MS, PING_TIMEOUT_MS, PyClient, hook

pytestmark = pytest.mark.asyncio


def ws_url(server, query="EIO=4&transport=websocket"):
    return f"ws://127.0.0.1:{server.port}/socket.io/?{query}"


async def raw_ws(http, server, session=None, origin="default", query="EIO=4&transport=websocket"):
    headers = {}
    if session:
        headers["Cookie"] = f"sessionid={session}"
    if origin:
        headers["Origin"] = server.origin if origin == "default" else origin
    return await http.ws_connect(ws_url(server, query), headers=headers, autoping=True)


async def recv_text(ws, timeout=5.0) -> str:
    msg = await asyncio.wait_for(ws.receive(), timeout)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    return msg.data


async def refused(server, session, origin="default") -> dict:
    """Connect with python-socketio; return the connect error's data (fails if the connect succeeds)."""
    client = socketio.AsyncClient(reconnection=False)
    errors = []
    client.on("connect_error", lambda data: errors.append(data))
    headers = {"Origin": server.origin if origin == "default" else origin} if origin else {}
    if session:
        headers["Cookie"] = f"sessionid={session}"
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(server.http, headers=headers, transports=["websocket"], wait_timeout=5)
    await client.disconnect()
    assert errors, "no connect error received"
    return errors[0]


# --- Engine.IO handshake and heartbeat -------------------------------------------------------------------


async def test_open_packet_and_namespace_connect(server, seeded):
    async with aiohttp.ClientSession() as http:
        ws = await raw_ws(http, server, seeded["a"]["users"]["ada"]["session"])
        frame = await recv_text(ws)
        assert frame[0] == "0"
        opened = json.loads(frame[1:])
        assert opened["upgrades"] == []
        assert opened["pingInterval"] == PING_INTERVAL_MS and opened["pingTimeout"] == PING_TIMEOUT_MS
        assert opened["maxPayload"] > 0 and len(opened["sid"]) >= 16
        await ws.send_str("40")
        frame = await recv_text(ws)
        assert frame.startswith("40{")
        sid = json.loads(frame[2:])["sid"]
        assert sid
        # then the current viewers, then pings which we answer
        assert (await recv_text(ws)).startswith('42["presence",{"viewers":')
        assert await recv_text(ws, timeout=PING_INTERVAL_MS / 1000 + 2) == "2"
        await ws.send_str("3")
        # an unknown namespace is refused, the main one stays up
        await ws.send_str("40/admin,")
        assert await recv_text(ws) == '44/admin,{"message":"Invalid namespace"}'
        # an event with an ack id is acknowledged
        await ws.send_str('421["presence",{"path":"/timetables"}]')
        frames = []
        while not ('431[{"ok":true}]' in frames and any('"path":"/timetables"' in f for f in frames)):
            frame = await recv_text(ws)
            if frame == "2":
                await ws.send_str("3")
            else:
                frames.append(frame)
        assert frames[0] == '431[{"ok":true}]'  # the ack, then the org's new list
        assert frames[1].startswith('42["presence",{"viewers":[{"userId":')
        await ws.send_str("41")  # namespace disconnect: the server closes
        while (msg := await asyncio.wait_for(ws.receive(), 5)).type == aiohttp.WSMsgType.TEXT:
            pass
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        await ws.close()


async def test_wrong_engineio_version_is_refused_at_handshake(server):
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await raw_ws(http, server, query="EIO=3&transport=websocket")
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await raw_ws(http, server, query="EIO=4&transport=polling")


async def test_client_that_stops_answering_pings_is_dropped(server, seeded, clients):
    session = seeded["a"]["users"]["mel"]["session"]
    steady = await clients(server, session)  # python-socketio answers pings
    async with aiohttp.ClientSession() as http:
        ws = await raw_ws(http, server, session)
        await recv_text(ws)
        await ws.send_str("40")
        assert (await recv_text(ws)).startswith("40{")
        loop = asyncio.get_running_loop()
        started = loop.time()
        pings = 0
        while True:  # read, never answer a ping
            msg = await asyncio.wait_for(ws.receive(), 10)
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            pings += msg.data == "2"
        elapsed = loop.time() - started
    assert pings == 1
    limit = (PING_INTERVAL_MS + PING_TIMEOUT_MS) / 1000
    assert limit * 0.8 <= elapsed <= limit + 2
    # the answering client outlived several ping rounds and still gets events (groups re-joined on pings)
    assert steady.sio.connected
    await hook(server, "emit", {"org": seeded["a"]["id"], "entity": "unit", "action": "updated", "ids": ["u1"]})
    assert (await steady.next_change())["ids"] == ["u1"]


# --- Authentication and Origin -----------------------------------------------------------------------------


async def test_signed_in_member_connects(server, seeded, clients):
    client = await clients(server, seeded["a"]["users"]["mel"]["session"])
    assert client.sio.connected and client.sio.get_sid()
    first = await client.presence_where(lambda d: True)
    assert isinstance(first["viewers"], list)


async def test_anonymous_is_refused(server):
    assert await refused(server, None) == {"message": "unauthorized"}
    assert await refused(server, "not-a-session-key") == {"message": "unauthorized"}


async def test_inactive_user_is_refused(server, seeded):
    assert await refused(server, seeded["a"]["users"]["ina"]["session"]) == {"message": "unauthorized"}


async def test_foreign_or_missing_origin_is_refused(server, seeded):
    session = seeded["a"]["users"]["ada"]["session"]
    assert await refused(server, session, origin="https://evil.example.com") == {"message": "unauthorized"}
    assert await refused(server, session, origin=None) == {"message": "unauthorized"}


async def test_refused_socket_is_closed_by_the_server(server):
    async with aiohttp.ClientSession() as http:
        ws = await raw_ws(http, server, None)
        await recv_text(ws)
        await ws.send_str("40")
        assert await recv_text(ws) == '44{"message":"unauthorized"}'
        while (msg := await asyncio.wait_for(ws.receive(), 5)).type == aiohttp.WSMsgType.TEXT:
            assert msg.data == "2"  # a ping may come first
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)


async def test_display_token_hook_point(server, seeded):
    """An alternative authenticator (wall displays, later) plugs in through the consumer's hook."""
    org = seeded["a"]["id"]
    display = PyClient()
    await display.sio.connect(
        server.http,
        headers={"Origin": server.origin},
        transports=["websocket"],
        auth={"displayToken": f"rt-display:{org}"},
        wait_timeout=5,
    )
    try:
        await hook(server, "emit", {"org": org, "entity": "timetable_session", "action": "allocated", "ids": ["s"]})
        assert (await display.next_change())["ids"] == ["s"]
        assert display.presence.empty()  # a display is not a viewer and gets no presence lists
    finally:
        await display.close()
    # a token the hook rejects is refused, even with a valid session cookie alongside
    client = socketio.AsyncClient(reconnection=False)
    errors = []
    client.on("connect_error", lambda data: errors.append(data))
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(
            f"{server.http}?displayToken=forged",
            transports=["websocket"],
            wait_timeout=5,
            headers={"Origin": server.origin, "Cookie": f"sessionid={seeded['a']['users']['ada']['session']}"},
        )
    await client.disconnect()
    assert errors == [{"message": "unauthorized"}]


# --- Change events -------------------------------------------------------------------------------------


async def test_every_entity_gives_exactly_one_event_in_seq_order(server, seeded, clients):
    org = seeded["a"]["id"]
    ada = seeded["a"]["users"]["ada"]
    client = await clients(server, ada["session"])
    sent = []
    actions = sorted(ACTIONS)
    for i, entity in enumerate(sorted(ENTITIES)):
        action = actions[i % len(actions)]
        out = await hook(
            server,
            "emit",
            {"org": org, "entity": entity, "action": action, "ids": [f"id-{i}"], "actor": ada["id"], "origin": "tab-1"},
        )
        sent.append(out["event"])
    got = [await client.next_change() for _ in sent]
    await client.no_change(0.3)
    # Session events also carry the written rows (ADR 0008); these test ids name no row: null.
    assert [{k: v for k, v in e.items() if k != "sessions"} for e in got] == sent
    assert [e.get("sessions", "absent") for e in got] == [None if e["entity"] == "timetable_session" else "absent" for e in sent]
    seqs = [e["seq"] for e in got]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert {e["actorId"] for e in got} == {ada["id"]} and {e["origin"] for e in got} == {"tab-1"}
    assert set(got[0]) == {"entity", "action", "ids", "seq", "actorId", "origin", "at"}


async def test_bulk_write_is_one_event(server, seeded, clients):
    client = await clients(server, seeded["a"]["users"]["mel"]["session"])
    ids = [f"session-{n}" for n in range(250)]
    await hook(server, "emit", {"org": seeded["a"]["id"], "entity": "timetable_session", "action": "scheduled", "ids": ids})
    event = await client.next_change()
    assert event["ids"] == ids and event["action"] == "scheduled"
    await client.no_change(0.5)


async def test_rolled_back_write_sends_nothing(server, seeded, clients):
    org = seeded["a"]["id"]
    client = await clients(server, seeded["a"]["users"]["mel"]["session"])
    before = await hook(server, "emit", {"org": org, "entity": "holiday", "action": "created", "ids": ["h1"]})
    assert (await client.next_change())["seq"] == before["event"]["seq"]
    out = await hook(server, "emit", {"org": org, "entity": "holiday", "action": "deleted", "ids": ["h1"], "rollback": True})
    assert out == {"rolledBack": True}
    await client.no_change(0.5)
    after = await hook(server, "emit", {"org": org, "entity": "holiday", "action": "updated", "ids": ["h2"]})
    event = await client.next_change()
    assert event["ids"] == ["h2"] and event["seq"] == before["event"]["seq"] + 1 == after["event"]["seq"]


async def test_another_organization_receives_nothing(server, seeded, clients):
    mine = await clients(server, seeded["a"]["users"]["mel"]["session"])
    other = await clients(server, seeded["b"]["users"]["bob"]["session"])
    await hook(server, "emit", {"org": seeded["a"]["id"], "entity": "course", "action": "created", "ids": ["c"]})
    assert (await mine.next_change())["ids"] == ["c"]
    await other.no_change(0.5)
    await hook(server, "emit", {"org": seeded["b"]["id"], "entity": "course", "action": "created", "ids": ["d"]})
    assert (await other.next_change())["ids"] == ["d"]
    await mine.no_change(0.3)


async def test_course_writes_through_the_http_api(server, seeded, clients):
    """POST/PUT/DELETE /api/courses each give exactly one event at the socket, with origin and actor."""
    ada = seeded["a"]["users"]["ada"]
    client = await clients(server, seeded["a"]["users"]["mel"]["session"])
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(base_url=server.http, cookie_jar=jar) as http:
        http.cookie_jar.update_cookies({"sessionid": ada["session"]})
        async with http.get("/api/courses") as resp:
            if resp.status == 404:
                pytest.skip("no course API in this tree yet; writes are covered through emit_change")
            assert resp.status == 200
        csrf = {c.key: c.value for c in jar}["csrftoken"]
        headers = {"X-CSRFToken": csrf, "X-Client-Id": "rt-tab", "Origin": server.http, "Referer": server.http + "/"}
        body = {"code": "RT101", "name": "Realtime Course", "level": "certificate_iii", "description": "", "isActive": True}
        async with http.post("/api/courses", json=body, headers=headers) as resp:
            assert resp.status == 201, await resp.text()
            course_id = (await resp.json())["id"]
        created = await client.next_change()
        assert (created["entity"], created["action"], created["ids"]) == ("course", "created", [course_id])
        assert created["origin"] == "rt-tab" and created["actorId"] == ada["id"]
        async with http.put(f"/api/courses/{course_id}", json={**body, "name": "Renamed"}, headers=headers) as resp:
            assert resp.status == 200, await resp.text()
        updated = await client.next_change()
        assert (updated["action"], updated["ids"], updated["seq"]) == ("updated", [course_id], created["seq"] + 1)
        async with http.post("/api/courses", json=body, headers=headers) as resp:  # duplicate code: 409
            assert resp.status == 409
        async with http.delete(f"/api/courses/{course_id}", headers=headers) as resp:
            assert resp.status == 204, await resp.text()
        deleted = await client.next_change()
        assert (deleted["action"], deleted["seq"]) == ("deleted", updated["seq"] + 1)  # nothing for the 409
        await client.no_change(0.3)


# --- Logout and deactivation -------------------------------------------------------------------------------


async def test_logout_closes_the_users_sockets_only(server, seeded, clients):
    fresh = await hook(server, "seed", {})  # users of their own: this test revokes them
    ada, mel = fresh["a"]["users"]["ada"], fresh["a"]["users"]["mel"]
    tab1 = await clients(server, ada["session"])
    tab2 = await clients(server, (await hook(server, "session", {"user": ada["id"]}))["session"])
    colleague = await clients(server, mel["session"])
    await hook(server, "revoke", {"user": ada["id"]})
    for tab in (tab1, tab2):
        await asyncio.wait_for(tab.disconnected.wait(), 3)
        assert tab.disconnect_reason == "server disconnect"  # "io server disconnect": no auto-reconnect
    assert colleague.sio.connected
    await hook(server, "emit", {"org": fresh["a"]["id"], "entity": "course", "action": "updated", "ids": [ada["id"]]})
    assert (await colleague.next_change())["entity"] == "course"


async def test_deactivation_closes_the_socket_and_a_reconnect_is_refused(server, clients):
    fresh = await hook(server, "seed", {})
    mel = fresh["a"]["users"]["mel"]
    client = await clients(server, mel["session"])
    await hook(server, "revoke", {"user": mel["id"], "deactivate": True})
    await asyncio.wait_for(client.disconnected.wait(), 3)
    assert await refused(server, mel["session"]) == {"message": "unauthorized"}


# --- Presence ------------------------------------------------------------------------------------------


def viewers_of(payload, path):
    return sorted(v["userId"] for v in payload["viewers"] if v["path"] == path)


async def test_presence_is_shared_within_the_organization(server, clients):
    fresh = await hook(server, "seed", {})
    ada, mel, bob = fresh["a"]["users"]["ada"], fresh["a"]["users"]["mel"], fresh["b"]["users"]["bob"]
    a = await clients(server, ada["session"])
    m = await clients(server, mel["session"])
    b = await clients(server, bob["session"])
    path = "/block-groups/3f1c2a9e-0000-4000-8000-000000000001"
    assert await a.sio.call("presence", {"path": path}, timeout=5) == {"ok": True}
    seen = await m.presence_where(lambda d: viewers_of(d, path) == [ada["id"]])
    entry = next(v for v in seen["viewers"] if v["userId"] == ada["id"])
    assert entry == {"userId": ada["id"], "name": "Ada Admin", "initials": "AA", "path": path}
    # the {"view", "id"} form, and a second viewer
    await m.sio.emit("presence", {"view": "block-groups", "id": path.rsplit("/", 1)[1]})
    await a.presence_where(lambda d: viewers_of(d, path) == sorted([ada["id"], mel["id"]]))
    # a malformed location is refused in the ack
    answer = await m.sio.call("presence", {"path": "no-slash"}, timeout=5)
    assert answer["ok"] is False
    # another organization sees none of it
    await asyncio.sleep(0.3)
    while not b.presence.empty():
        assert all(v["userId"] not in (ada["id"], mel["id"]) for v in b.presence.get_nowait()["viewers"])
    # a closed tab disappears within seconds
    loop = asyncio.get_running_loop()
    started = loop.time()
    await a.close()
    await m.presence_where(lambda d: viewers_of(d, path) == [mel["id"]], timeout=3)
    assert loop.time() - started < 2
    # a newcomer gets the current list at once
    late = await clients(server, (await hook(server, "session", {"user": ada["id"]}))["session"])
    first = await late.presence_where(lambda d: True)
    assert viewers_of(first, path) == [mel["id"]]
