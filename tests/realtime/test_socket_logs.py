"""One JSON log line per socket connect and disconnect, with the organization, the user, the
client address and the proxy's request id, and the open-socket gauge of /metrics following them."""

from __future__ import annotations

import asyncio
import json

import aiohttp

from tests.realtime.conftest import PyClient


def _socket_lines(server, sid: str) -> list[dict]:
    out = []
    for line in server.logs().splitlines():
        if line.startswith("{") and '"blockplan.sockets"' in line:
            data = json.loads(line)
            if data.get("sid") == sid:
                out.append(data)
    return out


async def _gauge(server) -> float:
    async with aiohttp.ClientSession() as http, http.get(f"{server.http}/metrics") as resp:
        assert resp.status == 200
        for line in (await resp.text()).splitlines():
            if line.startswith("blockplan_sockets_open "):
                return float(line.split()[1])
    raise AssertionError("no blockplan_sockets_open in /metrics")


async def test_socket_connect_and_disconnect_are_logged_and_counted(server, seeded):
    user = seeded["a"]["users"]["mel"]
    before = await _gauge(server)
    client = PyClient()
    await client.sio.connect(
        server.http,
        headers={"Cookie": f"sessionid={user['session']}", "Origin": server.origin, "X-Request-ID": "sock-req-1"},
        transports=["websocket"],
        wait_timeout=5,
    )
    assert await _gauge(server) == before + 1
    # The server's sid is the Engine.IO sid the client was given.
    sid = client.sio.eio.sid
    await client.sio.disconnect()
    for _ in range(50):
        lines = _socket_lines(server, sid)
        if len(lines) == 2:
            break
        await asyncio.sleep(0.1)
    connect, disconnect = lines
    assert connect["event"] == "socket_connect" and disconnect["event"] == "socket_disconnect"
    assert connect["user_id"] == user["id"] and connect["org_id"] == seeded["a"]["id"]
    assert connect["request_id"] == "sock-req-1" and connect["client"] == "127.0.0.1" and connect["display"] is False
    assert disconnect["duration_s"] >= 0 and disconnect["user_id"] == user["id"]
    assert user["session"] not in server.logs()
    assert await _gauge(server) == before
