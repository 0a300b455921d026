"""Events arrive in order on screen (ADR 0004): under concurrent writes on two daphne processes sharing
Redis, every socket applies every seq exactly once and in order through the SPA's reorder window
(spa/src/lib/eventOrder.ts, run by real socket.io-client processes), and no gap refetch happens when no
event was lost."""

from __future__ import annotations

import asyncio
import json
from itertools import pairwise

import pytest

from tests.realtime.conftest import NODE, ROOT, find_socketio_client_node_path, hook, start_node_client
from tests.realtime.test_two_processes import pair  # noqa: F401 - the two-process fixture

pytestmark = pytest.mark.asyncio

SCRIPT = ROOT / "tests" / "realtime" / "node" / "ordered.mjs"
NODE_PATH = find_socketio_client_node_path()
WRITES = 300
WRITERS = 12

if NODE is None or NODE_PATH is None:
    pytestmark = [pytestmark, pytest.mark.skip(reason="node or socket.io-client not found")]


async def start_client(server, session):
    config = {"url": server.http, "cookie": f"sessionid={session}", "origin": server.origin, "quietMs": 1500}
    proc = await start_node_client(SCRIPT, config)
    line = await asyncio.wait_for(proc.stdout.readline(), 20)
    assert json.loads(line or b"{}").get("type") == "connect", (line, (await proc.stderr.read())[-500:])
    return proc


async def report(proc) -> dict:
    proc.stdin.write(b"report\n")
    await proc.stdin.drain()
    line = await asyncio.wait_for(proc.stdout.readline(), 60)
    await proc.wait()
    return json.loads(line)


async def test_every_socket_applies_every_seq_once_in_order(pair):  # noqa: F811
    one, two = pair
    fresh = await hook(one, "seed", {})
    org = fresh["a"]["id"]
    users = fresh["a"]["users"]
    procs = [
        await start_client(one, users["ada"]["session"]),
        await start_client(two, users["sam"]["session"]),
        await start_client(one, (await hook(one, "session", {"user": users["sam"]["id"]}))["session"]),
        await start_client(two, (await hook(two, "session", {"user": users["ada"]["id"]}))["session"]),
    ]
    seqs: list[int] = []

    async def writer(n: int):
        server = one if n % 2 else two
        for i in range(WRITES // WRITERS):
            sent = await hook(server, "emit", {"org": org, "entity": "course", "action": "updated", "ids": [f"c{n}-{i}"]})
            seqs.append(sent["event"]["seq"])

    await asyncio.gather(*(writer(n) for n in range(WRITERS)))
    expected = sorted(seqs)
    assert expected == list(range(expected[0], expected[0] + WRITES))  # the server's numbering is complete
    reports = [await report(p) for p in procs]
    swaps = []
    for r in reports:
        assert r["applied"] == expected  # every seq once, in order
        assert r["gaps"] == 0  # nothing lost, so no full refetch
        assert sorted(r["received"]) == expected
        swaps.append(sum(1 for a, b in pairwise(r["received"]) if b < a))
    print(f"out-of-order arrivals per socket: {swaps}")
