"""Events arrive in order on screen (docs/adr/0007): under concurrent writes on two daphne processes sharing
Redis, every socket applies every seq exactly once and in order through the SPA's reorder window
(spa/src/lib/eventOrder.ts, run by real socket.io-client processes), and no gap refetch happens when no
event was lost — also when a client process stops for 2.5 s in the middle of the burst, as a process of
a loaded machine is descheduled.

Two races made the first test flaky under load (load average 10-26; its applied list once ended at seq
43 of 300):

- the servers used the realtime tests' 1 s + 1 s heartbeat, so a process or client that got no CPU for
  about 2 s dropped its sockets (socket.io-client ends one after pingInterval + pingTimeout without a
  ping) and, without reconnection, its list stopped there. This module's servers use the production
  heartbeat (25 s + 20 s): a missed heartbeat is the heartbeat tests' subject, not this one's. The
  stalled-client test fails with the 1 s heartbeat (its socket is dropped, its list stops);
- the client reported after 1.5 s without an event, so a pause of the server's delivery after the last
  write's answer ended the report early. It now reports once the reorder window has delivered (or given
  up on) every seq up to the last one written, and says when its socket was disconnected.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from itertools import pairwise

import pytest

from tests.realtime.conftest import (
    DEFAULT_REDIS,
    NODE,
    ROOT,
    Server,
    find_socketio_client_node_path,
    hook,
    redis_reachable,
    start_node_client,
)

pytestmark = pytest.mark.asyncio

SCRIPT = ROOT / "tests" / "realtime" / "node" / "ordered.mjs"
NODE_PATH = find_socketio_client_node_path()
WRITES = 300
WRITERS = 12
REDIS_URL = os.environ.get("REDIS_URL") or DEFAULT_REDIS

if NODE is None or NODE_PATH is None:
    pytestmark = [pytestmark, pytest.mark.skip(reason="node or socket.io-client not found")]


@pytest.fixture(scope="module")
def pair(rt_database_url):
    """Two processes on one Redis with the production heartbeat (25 s + 20 s, realtime/protocol.py)."""
    if not redis_reachable(REDIS_URL):
        pytest.skip(f"no Redis at {REDIS_URL}")
    servers = [Server(rt_database_url, REDIS_URL, ping_interval=25000, ping_timeout=20000).launch() for _ in range(2)]
    try:
        for srv in servers:
            srv.wait()
        yield servers
    finally:
        for srv in servers:
            srv.stop()


async def start_client(server, session):
    config = {"url": server.http, "cookie": f"sessionid={session}", "origin": server.origin, "quietMs": 1500}
    proc = await start_node_client(SCRIPT, config)
    line = await asyncio.wait_for(proc.stdout.readline(), 20)
    assert json.loads(line or b"{}").get("type") == "connect", (line, (await proc.stderr.read())[-500:])
    return proc


async def report(proc, until: int) -> dict:
    """The client's report once it has delivered every seq up to ``until`` (see ordered.mjs)."""
    proc.stdin.write(json.dumps({"until": until}).encode() + b"\n")
    await proc.stdin.drain()
    line = await asyncio.wait_for(proc.stdout.readline(), 150)
    await proc.wait()
    return json.loads(line)


async def burst(pair, writes: int, stall: float = 0.0) -> None:
    """``writes`` changes by ``WRITERS`` concurrent writers through both processes, seen by four sockets;
    with ``stall``, the first socket's client process is stopped (SIGSTOP) for that many seconds once a
    sixth of the writes are in. Asserts every socket's applied list."""
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
        for i in range(writes // WRITERS):
            sent = await hook(server, "emit", {"org": org, "entity": "course", "action": "updated", "ids": [f"c{n}-{i}"]})
            seqs.append(sent["event"]["seq"])

    async def stall_first_client():
        while len(seqs) < writes // 6:
            await asyncio.sleep(0.01)
        os.kill(procs[0].pid, signal.SIGSTOP)
        try:
            await asyncio.sleep(stall)
        finally:
            os.kill(procs[0].pid, signal.SIGCONT)

    await asyncio.gather(*(writer(n) for n in range(WRITERS)), *([stall_first_client()] if stall else []))
    expected = sorted(seqs)
    assert expected == list(range(expected[0], expected[0] + writes))  # the server's numbering is complete
    reports = await asyncio.gather(*(report(p, expected[-1]) for p in procs))
    swaps = []
    for r in reports:
        assert r["disconnects"] == []  # a socket that ended would stop its list (no reconnection here)
        assert r["applied"] == expected  # every seq once, in order
        assert r["gaps"] == 0  # nothing lost, so no full refetch
        assert sorted(r["received"]) == expected
        swaps.append(sum(1 for a, b in pairwise(r["received"]) if b < a))
    print(f"out-of-order arrivals per socket: {swaps}")


async def test_every_socket_applies_every_seq_once_in_order(pair):
    await burst(pair, WRITES)


async def test_a_stalled_client_gets_every_event_late_but_in_order(pair):
    await burst(pair, 144, stall=2.5)
