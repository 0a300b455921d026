"""A socket knows when it is behind (realtime/watch.py, docs/realtime.md "Catching up").

- An event lost on the way (the seq raised, nothing sent) is announced as ``seq`` within two watch ticks.
- An event that arrives is never followed by a ``seq`` notice.
- ``seq`` with an acknowledgement answers the organization's latest seq.
- With Redis: after a flush or a restart of Redis (our own redis-server, never the shared one), sockets
  get events again within 2 s, and a write made while Redis was down is announced as ``seq``.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import subprocess
import tempfile
import time

import pytest

from tests.realtime.conftest import Server, free_port, hook, redis_reachable

pytestmark = pytest.mark.asyncio

TICK_S = 1.0  # LIVE_WATCH_INTERVAL_MS default


def watch_seq(client) -> asyncio.Queue:
    notices: asyncio.Queue = asyncio.Queue()

    async def on_seq(data):
        await notices.put(data)

    client.sio.on("seq", on_seq)
    return notices


async def test_a_lost_event_is_announced_as_seq_within_two_ticks(server, seeded, clients):
    ada = seeded["a"]["users"]["ada"]
    client = await clients(server, ada["session"])
    notices = watch_seq(client)
    bumped = await hook(server, "bump_seq", {"org": seeded["a"]["id"]})
    started = time.monotonic()
    notice = await asyncio.wait_for(notices.get(), 2 * TICK_S + 1.5)
    assert notice == {"seq": bumped["seq"]}
    assert time.monotonic() - started < 2 * TICK_S + 1.5
    await client.no_change(0.1)


async def test_an_event_that_arrives_is_not_announced_again(server, seeded, clients):
    ada = seeded["a"]["users"]["ada"]
    client = await clients(server, ada["session"])
    notices = watch_seq(client)
    sent = await hook(server, "emit", {"org": seeded["a"]["id"], "entity": "course", "action": "created", "ids": ["c-1"]})
    assert (await client.next_change())["seq"] == sent["event"]["seq"]
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(notices.get(), 3 * TICK_S)


async def test_seq_with_an_acknowledgement_answers_the_latest_seq(server, seeded, clients):
    ada = seeded["a"]["users"]["ada"]
    client = await clients(server, ada["session"])
    bumped = await hook(server, "bump_seq", {"org": seeded["a"]["id"]})
    answer = await client.sio.call("seq", {}, timeout=5)
    assert answer == {"ok": True, "seq": bumped["seq"]}


class OwnRedis:
    """A redis-server of this test only, on a free port, without persistence: restarting it loses
    everything, as a crashed Redis does."""

    def __init__(self):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="bp_redis_")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> OwnRedis:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no", "--dir", self.dir],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 10
        while not redis_reachable(self.url):
            if time.time() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        self.proc = None

    def flush(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "FLUSHALL"], check=True, capture_output=True)  # noqa: S607


@pytest.fixture(scope="module")
def redis_server():
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server on this machine")
    own = OwnRedis().start()
    yield own
    own.stop()
    shutil.rmtree(own.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def on_own_redis(rt_database_url, redis_server):
    # Production heartbeat timings: the ping's own re-join (every 25 s) must not be what renews the groups.
    srv = Server(rt_database_url, redis_server.url, ping_interval=25000, ping_timeout=20000, session_recheck=60000).start()
    yield srv
    srv.stop()


async def _delivered_within(server, org, client, seconds: float) -> dict:
    sent = await hook(server, "emit", {"org": org, "entity": "course", "action": "created", "ids": ["c-x"]})
    got = await client.next_change(seconds)
    while got["seq"] != sent["event"]["seq"]:
        got = await client.next_change(seconds)
    return got


async def test_after_a_redis_flush_events_flow_again_within_2_s(on_own_redis, redis_server, clients):
    fresh = await hook(on_own_redis, "seed", {})
    org, ada = fresh["a"]["id"], fresh["a"]["users"]["ada"]
    client = await clients(on_own_redis, ada["session"])
    await _delivered_within(on_own_redis, org, client, 5)
    redis_server.flush()  # every group membership is gone
    await asyncio.sleep(2.0)  # the promise under test: at most 2 s of missed events
    await _delivered_within(on_own_redis, org, client, 1.0)


async def test_after_a_redis_restart_events_flow_again_and_a_write_made_meanwhile_is_announced(
    on_own_redis, redis_server, clients
):
    fresh = await hook(on_own_redis, "seed", {})
    org, ada = fresh["a"]["id"], fresh["a"]["users"]["ada"]
    client = await clients(on_own_redis, ada["session"])
    notices = watch_seq(client)
    await _delivered_within(on_own_redis, org, client, 5)
    redis_server.stop()
    try:
        lost = await hook(on_own_redis, "emit", {"org": org, "entity": "course", "action": "created", "ids": ["c-lost"]})
    finally:
        redis_server.start()
    notice = await asyncio.wait_for(notices.get(), 2 * TICK_S + 1.5)
    assert notice["seq"] >= lost["event"]["seq"]
    with contextlib.suppress(TimeoutError):  # the lost event itself never arrives; nothing else may either
        extra = await client.next_change(0.1)
        raise AssertionError(f"unexpected change {extra}")
    await asyncio.sleep(2.0)  # at most 2 s after Redis answers again
    assert client.sio.connected
    await _delivered_within(on_own_redis, org, client, 1.0)
