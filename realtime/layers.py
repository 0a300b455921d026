"""Channel layers tuned for many long-lived sockets (traps 1 and 2 of docs/realtime.md, Traps handled, docs/behaviour/live-events.md §3).

:class:`InMemoryChannelLayer` (the single-process default): channels' in-memory layer runs
``_clean_expired`` — a walk over *every* channel and group member — on each ``receive`` and ``group_send``.
Each socket calls ``receive`` again after every message, so one broadcast to n sockets costs n² steps
(500 sockets: a quarter of a million; 2,000: four million, seconds of CPU). This subclass runs the same
clean at most once per ``clean_interval`` seconds (default 1; messages expire after 60 s anyway), and a
``group_send`` copies the message once for the group, not once per member.

:class:`RedisChannelLayer`:

- redis-py 8 caps a plain ``ConnectionPool`` at 100 connections and *raises* ``MaxConnectionsError`` when a
  burst of sockets joins groups at once. channels-redis 4.3 builds its pools in
  ``RedisChannelLayer.create_pool(index)`` (one pool per host and event loop); this subclass overrides that
  one method to hand out a ``BlockingConnectionPool``, which makes a caller wait (up to ``pool_timeout``
  seconds) for a free connection instead of failing. 50 connections held 4,000 sockets in the toolchain runs.
- A Redis restart breaks the one blocking read that serves a process's sockets: channels-redis raises the
  ``ConnectionError`` into whichever consumer held the read, and channels then ends that consumer and its
  websocket. :meth:`RedisChannelLayer.receive` retries instead (every 0.1 s up to 1 s apart), so the
  socket lives on; :mod:`realtime.watch` re-joins the groups Redis lost and tells sockets what they missed.
- redis-py 8 also sets a 5 s socket timeout that kills the layer's blocking reader (trap 1): unless the host
  says otherwise, ``socket_timeout`` is ``None`` here.

Settings: ``CHANNEL_LAYERS["default"]["CONFIG"]`` may carry ``max_connections`` (default 50) and
``pool_timeout`` (default 20 s) next to channels-redis' own options.
"""

from __future__ import annotations

import asyncio
import logging
import time
from copy import deepcopy

from channels.layers import InMemoryChannelLayer as _InMemoryBase
from channels_redis.core import RedisChannelLayer as _Base
from redis import asyncio as aioredis
from redis import exceptions as redis_errors

log = logging.getLogger(__name__)


class InMemoryChannelLayer(_InMemoryBase):
    """``channels.layers.InMemoryChannelLayer`` whose expiry sweep runs at most once a ``clean_interval``."""

    def __init__(self, *args: object, clean_interval: float = 1.0, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.clean_interval = clean_interval
        self._last_clean = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_clean >= self.clean_interval:
            self._last_clean = now
            super()._clean_expired()

    async def group_send(self, group: str, message: dict) -> None:
        """The base's ``group_send`` with one deep copy of ``message`` for the whole group instead of one
        per member, put on each member's queue directly (the base starts a task per member). The copy
        still keeps a sender's later change from reaching a receiver; the receivers share it, and no
        consumer changes a message it receives (``realtime.consumers``). A change event sent to 50 sockets
        was 50 deep copies (its rows included) made while the writing request waited for the send."""
        if not isinstance(message, dict):
            raise TypeError("Message is not a dict")
        self.require_valid_group_name(group)
        self._clean_expired()
        members = list(self.groups.get(group, {}))
        if not members:
            return
        shared = deepcopy(message)
        expires = time.time() + self.expiry
        for channel in members:
            queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
            try:
                queue.put_nowait((expires, shared))
            except asyncio.QueueFull:
                pass  # as the base: a full channel misses it (its socket learns it from the seq)


class RedisChannelLayer(_Base):
    """``channels_redis.core.RedisChannelLayer`` with a blocking, bounded connection pool per host."""

    def __init__(self, *args: object, max_connections: int = 50, pool_timeout: float = 20, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.max_connections = max_connections
        self.pool_timeout = pool_timeout

    def create_pool(self, index: int) -> aioredis.ConnectionPool:
        """The pool for host ``index``: a ``BlockingConnectionPool`` (address hosts) or the base pool
        (sentinel / host-port hosts, which carry their own ``max_connections`` if wanted)."""
        host = dict(self.hosts[index])
        if "address" not in host:
            return super().create_pool(index)
        address = host.pop("address")
        host.setdefault("socket_timeout", None)
        host.setdefault("max_connections", self.max_connections)
        host.setdefault("timeout", self.pool_timeout)
        return aioredis.BlockingConnectionPool.from_url(address, **host)

    RETRY_DELAYS = (0.1, 0.2, 0.4, 0.8, 1.0)

    async def receive(self, channel: str) -> dict:
        """channels-redis' ``receive``, retried while Redis is unreachable instead of ending the consumer
        (its receive lock and counters are released by then; a message buffered for this channel in that
        instant may be lost, which the seq-gap rule and :mod:`realtime.watch` cover)."""
        attempt = 0
        while True:
            try:
                return await super().receive(channel)
            except (redis_errors.ConnectionError, redis_errors.TimeoutError, OSError):
                delay = self.RETRY_DELAYS[min(attempt, len(self.RETRY_DELAYS) - 1)]
                if attempt == 0:
                    log.warning("channel layer receive lost Redis; retrying every %.1f-1 s", delay)
                attempt += 1
                await asyncio.sleep(delay)
