"""Who is looking at what (ADR 0003; beyond docs/behaviour/live-events.md).

A socket says which screen or record it shows (client event ``presence`` with ``{"path": "/block-groups/<id>"}``
or ``{"view": "block-groups", "id": "<id>"}``; ``{"path": null}`` clears it). The organization's viewers are
kept in a store keyed by the socket's channel name, each entry with an expiry that the socket refreshes on
every answered ping:

- :class:`RedisPresenceStore` when ``REDIS_URL`` is set: a hash of entries and a sorted set of expiries per
  organization, shared by every daphne process (two processes behave as one);
- :class:`MemoryPresenceStore` otherwise (the single-process default).

After a change the process sends the organization the whole list, coalesced over ``BROADCAST_DELAY``
seconds: ``{"type": "presence.viewers", "version": n, "viewers": [{"userId", "name", "initials", "path"}]}``
on the org group; consumers forward it as event ``presence`` ``{"viewers": [...]}`` and drop a list older
than one already sent (``version`` is the store's per-organization counter, so two processes racing
cannot leave a stale list on screen). A closed tab is removed on disconnect (at once); a tab that vanished
without closing goes when its ping times out; a crashed process's entries expire after ``ttl`` seconds and
are pruned by the next refresh in that organization.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING
from uuid import UUID

from django.conf import settings

from project.core.sockets import org_group

if TYPE_CHECKING:  # pragma: no cover
    from channels.layers import BaseChannelLayer
    from redis.asyncio import Redis

log = logging.getLogger(__name__)

PRESENCE_MESSAGE = "presence.viewers"
MAX_PATH = 300
BROADCAST_DELAY = 0.05  # seconds: one list for a burst of changes


@dataclass(frozen=True)
class Viewer:
    userId: str  # noqa: N815 - the wire name
    name: str
    initials: str
    path: str


def normalise_location(data: object) -> str | None:
    """The path a ``presence`` payload names, ``None`` to clear; ValueError when malformed.

    ``{"path": "/block-groups/<id>"}`` as given; ``{"view": "timetables", "id": "<id>"}`` becomes
    ``/timetables/<id>`` (``/timetables`` without an id).
    """
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("presence payload must be an object")
    if "path" in data:
        path = data["path"]
        if path is None or path == "":
            return None
        if not isinstance(path, str) or not path.startswith("/"):
            raise ValueError("path must start with /")
    elif "view" in data:
        view, ident = data.get("view"), data.get("id")
        if view is None or view == "":
            return None
        if not isinstance(view, str) or (ident is not None and not isinstance(ident, (str, int))):
            raise ValueError("view must be a string and id a string or number")
        path = "/" + view.strip("/") + (f"/{ident}" if ident not in (None, "") else "")
    else:
        return None
    if len(path) > MAX_PATH or any(ord(c) < 32 for c in path):
        raise ValueError("path too long or not printable")
    return path


def _listing(entries: Iterable[dict[str, str]]) -> list[dict[str, str]]:
    """Distinct viewers (one per user and path), sorted by path then name."""
    seen: dict[tuple[str, str], dict[str, str]] = {}
    for entry in entries:
        seen.setdefault((entry["userId"], entry["path"]), entry)
    return sorted(seen.values(), key=lambda e: (e["path"], e["name"], e["userId"]))


class MemoryPresenceStore:
    """Per-process store (the in-memory channel layer is per process too)."""

    def __init__(self) -> None:
        self._orgs: dict[str, dict[str, tuple[dict[str, str], float]]] = {}
        self._versions: dict[str, int] = {}

    def _prune(self, org: str, now: float) -> bool:
        entries = self._orgs.get(org, {})
        stale = [k for k, (_, exp) in entries.items() if exp <= now]
        for k in stale:
            del entries[k]
        return bool(stale)

    async def set(self, org: str, key: str, entry: dict[str, str], ttl: float) -> None:
        self._orgs.setdefault(org, {})[key] = (entry, time.time() + ttl)

    async def remove(self, org: str, key: str) -> bool:
        return self._orgs.get(org, {}).pop(key, None) is not None

    async def touch(self, org: str, key: str, ttl: float) -> bool:
        """Extend ``key``; True when expired entries of the organization were pruned."""
        now = time.time()
        entries = self._orgs.get(org, {})
        if key in entries:
            entries[key] = (entries[key][0], now + ttl)
        return self._prune(org, now)

    async def snapshot(self, org: str) -> tuple[int, list[dict[str, str]]]:
        self._prune(org, time.time())
        version = self._versions[org] = self._versions.get(org, 0) + 1
        return version, _listing(e for e, _ in self._orgs.get(org, {}).values())


class RedisPresenceStore:
    """Shared store: ``<prefix>:<org>`` hash key→entry JSON, ``<prefix>:<org>:exp`` zset key→expiry,
    ``<prefix>:<org>:v`` version counter. Keys themselves expire an hour after the last write."""

    KEY_TTL = 3600

    def __init__(self, url: str, prefix: str = "blockplan:presence") -> None:
        self.url = url
        self.prefix = prefix
        self._clients: dict[asyncio.AbstractEventLoop, Redis] = {}

    def _redis(self) -> Redis:
        from redis import asyncio as aioredis

        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            pool = aioredis.BlockingConnectionPool.from_url(self.url, max_connections=20, timeout=20, socket_timeout=None)
            client = self._clients[loop] = aioredis.Redis(connection_pool=pool)
        return client

    def _keys(self, org: str) -> tuple[str, str, str]:
        base = f"{self.prefix}:{org}"
        return base, base + ":exp", base + ":v"

    async def set(self, org: str, key: str, entry: dict[str, str], ttl: float) -> None:
        h, z, _ = self._keys(org)
        async with self._redis().pipeline(transaction=True) as pipe:
            # One command per statement: redis-py types a pipeline's commands as Awaitable, not as the pipeline.
            pipe.hset(h, key, json.dumps(entry))
            pipe.zadd(z, {key: time.time() + ttl})
            pipe.expire(h, self.KEY_TTL)
            pipe.expire(z, self.KEY_TTL)
            await pipe.execute()

    async def remove(self, org: str, key: str) -> bool:
        h, z, _ = self._keys(org)
        async with self._redis().pipeline(transaction=True) as pipe:
            pipe.hdel(h, key)
            pipe.zrem(z, key)
            removed, _ = await pipe.execute()
        return bool(removed)

    async def _prune(self, org: str, now: float) -> bool:
        h, z, _ = self._keys(org)
        redis = self._redis()
        stale = await redis.zrangebyscore(z, "-inf", now)
        if not stale:
            return False
        async with redis.pipeline(transaction=True) as pipe:
            pipe.hdel(h, *stale)
            pipe.zrem(z, *stale)
            await pipe.execute()
        return True

    async def touch(self, org: str, key: str, ttl: float) -> bool:
        h, z, _ = self._keys(org)
        now = time.time()
        async with self._redis().pipeline(transaction=True) as pipe:
            pipe.zadd(z, {key: now + ttl}, xx=True)
            pipe.expire(h, self.KEY_TTL)
            pipe.expire(z, self.KEY_TTL)
            await pipe.execute()
        return await self._prune(org, now)

    async def snapshot(self, org: str) -> tuple[int, list[dict[str, str]]]:
        await self._prune(org, time.time())
        h, _, v = self._keys(org)
        async with self._redis().pipeline(transaction=True) as pipe:
            pipe.incr(v)
            pipe.hvals(h)
            pipe.expire(v, self.KEY_TTL)
            version, values, _ = await pipe.execute()
        return int(version), _listing(json.loads(raw) for raw in values)


_store: RedisPresenceStore | MemoryPresenceStore | None = None


def get_store() -> RedisPresenceStore | MemoryPresenceStore:
    """The process's store: Redis when ``REDIS_URL`` is set, else in memory."""
    global _store
    if _store is None:
        url = getattr(settings, "REDIS_URL", None)
        _store = RedisPresenceStore(url) if url else MemoryPresenceStore()
    return _store


_pending: dict[str, asyncio.Task[None]] = {}


def schedule_broadcast(org_id: str, channel_layer: BaseChannelLayer) -> None:
    """Send ``org_id``'s viewer list to its group soon (one send for a burst of changes)."""
    task = _pending.get(org_id)
    if task is not None and not task.done():
        return
    _pending[org_id] = asyncio.get_running_loop().create_task(_broadcast(org_id, channel_layer))


async def _broadcast(org_id: str, channel_layer: BaseChannelLayer) -> None:
    try:
        await asyncio.sleep(BROADCAST_DELAY)
        _pending.pop(org_id, None)  # a change from here on schedules a new list
        version, viewers = await get_store().snapshot(org_id)
        await channel_layer.group_send(org_group(org_id), {"type": PRESENCE_MESSAGE, "version": version, "viewers": viewers})
    except Exception:  # presence is best effort: the next change or refresh sends a fresh list
        log.exception("presence broadcast for %s failed", org_id)
        _pending.pop(org_id, None)


def viewer_entry(*, user_id: str | UUID, name: str, initials: str, path: str) -> dict[str, str]:
    return asdict(Viewer(userId=str(user_id), name=name, initials=initials, path=path))
