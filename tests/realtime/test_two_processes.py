"""Two daphne processes sharing Redis behave as one: a change made through one reaches sockets on the
other, presence is shared, and a logout reaches the user's sockets on both (docs/behaviour/live-events.md §8)."""

from __future__ import annotations

import asyncio
import os

import pytest

from tests.realtime.conftest import DEFAULT_REDIS, Server, hook, redis_reachable

pytestmark = pytest.mark.asyncio

REDIS_URL = os.environ.get("REDIS_URL") or DEFAULT_REDIS


@pytest.fixture(scope="module")
def pair(rt_database_url, request):
    """Two processes on one Redis: the session's server and a second one when the session already runs
    on Redis, else two new ones on ``redis://127.0.0.1:6379/5``."""
    if not redis_reachable(REDIS_URL):
        pytest.skip(f"no Redis at {REDIS_URL}")
    started = []
    if os.environ.get("REDIS_URL"):
        one = request.getfixturevalue("server")
    else:
        one = Server(rt_database_url, REDIS_URL).launch()
        started.append(one)
    two = Server(rt_database_url, REDIS_URL).launch()
    started.append(two)
    for srv in started:
        srv.wait()
    yield one, two
    for srv in started:
        srv.stop()


async def test_change_on_one_process_reaches_sockets_on_the_other(pair, clients):
    one, two = pair
    fresh = await hook(one, "seed", {})
    ada, mel, bob = fresh["a"]["users"]["ada"], fresh["a"]["users"]["mel"], fresh["b"]["users"]["bob"]
    on_one = await clients(one, ada["session"])
    on_two = await clients(two, mel["session"])
    stranger = await clients(two, bob["session"])
    sent = await hook(
        one,
        "emit",
        {
            "org": fresh["a"]["id"],
            "entity": "teacher",
            "action": "created",
            "ids": ["t-1"],
            "actor": ada["id"],
            "origin": "tab-x",
        },
    )
    assert await on_two.next_change() == sent["event"]
    assert await on_one.next_change() == sent["event"]
    await stranger.no_change(0.5)
    # and the other way round
    sent = await hook(two, "emit", {"org": fresh["a"]["id"], "entity": "teacher", "action": "deleted", "ids": ["t-1"]})
    assert (await on_one.next_change())["seq"] == sent["event"]["seq"]
    await on_two.next_change()

    # presence set on one process is seen on the other, and goes when the tab closes
    path = "/block-groups/bg-77"
    await on_one.sio.call("presence", {"path": path}, timeout=5)
    await on_two.presence_where(lambda d: [v["userId"] for v in d["viewers"] if v["path"] == path] == [ada["id"]])
    await on_one.close()
    await on_two.presence_where(lambda d: all(v["path"] != path for v in d["viewers"]), timeout=3)

    # a logout handled by process one closes the user's socket on process two
    await hook(one, "revoke", {"user": mel["id"]})
    await asyncio.wait_for(on_two.disconnected.wait(), 3)
    assert stranger.sio.connected
