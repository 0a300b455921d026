"""The official socket.io-client 4 (Node) against a real daphne process: connect, presence with an
acknowledgement, a change event, logout closing the socket, and refusals."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.realtime.conftest import NODE, ROOT, find_socketio_client_node_path, hook, start_node_client

pytestmark = pytest.mark.asyncio

SCRIPT = ROOT / "tests" / "realtime" / "node" / "client.mjs"
NODE_PATH = find_socketio_client_node_path()

if NODE is None or NODE_PATH is None:
    pytestmark = [
        pytestmark,
        pytest.mark.skip(reason="node or socket.io-client not found (spa/node_modules or /tmp/sio/node_modules)"),
    ]


class NodeClient:
    def __init__(self, proc):
        self.proc = proc

    @classmethod
    async def start(cls, server, session=None, origin="default"):
        config = {"url": server.http, "timeoutMs": 20000}
        if session:
            config["cookie"] = f"sessionid={session}"
        if origin:
            config["origin"] = server.origin if origin == "default" else origin
        return cls(await start_node_client(SCRIPT, config))

    async def next(self, type_=None, timeout=8.0) -> dict:
        while True:
            line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
            if not line:
                err = (await self.proc.stderr.read()).decode()
                raise AssertionError(f"node client ended: {err}")
            item = json.loads(line)
            if type_ is None or item["type"] == type_:
                return item

    async def send(self, command: dict):
        self.proc.stdin.write((json.dumps(command) + "\n").encode())
        await self.proc.stdin.drain()

    async def finish(self):
        if self.proc.returncode is None:
            try:
                self.proc.stdin.close()
                self.proc.kill()
            except ProcessLookupError:
                pass
            await self.proc.wait()


async def test_socketio_client_4_end_to_end(server):
    fresh = await hook(server, "seed", {})
    ada = fresh["a"]["users"]["ada"]
    node = await NodeClient.start(server, ada["session"])
    try:
        connected = await node.next()
        assert connected["type"] == "connect" and connected["id"]
        assert (await node.next("presence"))["data"] == {"viewers": []}
        await node.send({"emit": "presence", "data": {"path": "/timetables/t1"}, "ref": "p"})
        ack = await node.next("ack")
        assert ack == {"type": "ack", "ref": "p", "data": {"ok": True}}
        shown = await node.next("presence")
        assert shown["data"]["viewers"] == [
            {"userId": ada["id"], "name": "Ada Admin", "initials": "AA", "path": "/timetables/t1"}
        ]
        sent = await hook(
            server,
            "emit",
            {
                "org": fresh["a"]["id"],
                "entity": "block_group",
                "action": "updated",
                "ids": ["bg-1"],
                "actor": ada["id"],
                "origin": "node-tab",
            },
        )
        assert (await node.next("change"))["data"] == sent["event"]
        await hook(server, "revoke", {"user": ada["id"]})
        gone = await node.next("disconnect")
        assert gone["reason"] == "io server disconnect"  # socket.io-client does not reconnect after this
    finally:
        await node.finish()


@pytest.mark.parametrize("case", ["anonymous", "foreign-origin"])
async def test_socketio_client_4_refusals(server, seeded, case):
    if case == "anonymous":
        node = await NodeClient.start(server, None)
    else:
        node = await NodeClient.start(server, seeded["a"]["users"]["ada"]["session"], origin="https://evil.example")
    try:
        error = await node.next()
        assert error["type"] == "connect_error"
        assert error["message"] == "unauthorized"  # the server's {"message": "unauthorized"}
    finally:
        await node.finish()
