"""A socket knows when it is behind (docs/realtime.md "Catching up", docs/adr/0025).

Change events can be lost between the writer and a socket: the channel layer drops a message on a full
channel, a Redis restart or flush loses the queued messages *and* the group memberships (until they are
renewed, every event of the organization misses the socket), and a write made while Redis is down sends
nothing. The client's seq-gap rule only notices a loss when a later event arrives, which may be never.

One task per process (started with its first socket) runs every ``LIVE_WATCH_INTERVAL_MS`` (1000 ms):

1. **Group renewal.** With the Redis layer, one ``SET blockplan:live:alive:<process> 1 EX 3600 GET`` per
   host: no previous value means that Redis restarted or was flushed since the last tick, so every local
   socket's groups are joined again at once. Cost: one round trip per host and tick; a restart or flush
   costs at most one tick (plus the time Redis is down) of missed events.
2. **Seq watch.** A socket's baseline is read when it connects. One query a tick reads ``event_seq`` of the organizations that have local sockets. A socket
   whose last seen event (forwarded or not: displays see few) is still below the seq it was behind at the
   previous tick — so not just in flight — gets ``42["seq",{"seq": n}]`` and the client, behind, re-reads
   what it shows. So a lost event is noticed within two ticks, with or without later events.

A client may also ask (on focus, after a wake-up): event ``seq`` with an acknowledgement is answered
``[{"ok": true, "seq": n}]`` (:func:`current_seq`).

Kept apart from :mod:`realtime.consumers`: the consumer calls :func:`register`, :func:`unregister` and
:func:`saw` only.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from realtime import protocol

log = logging.getLogger(__name__)

PROCESS_KEY = "blockplan:live:alive:" + secrets.token_hex(8)
SEQ_EVENT = "seq"

_consumers: set[Any] = set()
_task: asyncio.Task | None = None


def interval_seconds() -> float:
    """The watch period: ``LIVE_WATCH_INTERVAL_MS`` (a Django setting of that name wins), default 1000."""
    from django.conf import settings

    value = getattr(settings, "LIVE_WATCH_INTERVAL_MS", None) or os.environ.get("LIVE_WATCH_INTERVAL_MS") or 1000
    return max(0.05, int(value) / 1000)


async def register(consumer: Any) -> None:
    """A socket joined its groups (namespace connect): watch it from now on. Its baseline is the
    organization's seq read now (one query), after the joins and before the client's catch-up read, so an
    event lost from here on is noticed."""
    global _task
    consumer.live_seq = getattr(consumer, "live_seq", None)  # the highest seq this socket has seen (or was told)
    consumer.live_behind = None
    try:
        baseline = await current_seq(consumer.principal.org_id)
    except Exception:
        log.exception("live watch: baseline of socket %s not read", getattr(consumer, "sid", "?"))
        baseline = None
    if consumer.live_seq is None or (baseline is not None and baseline > consumer.live_seq):
        consumer.live_seq = baseline
    _consumers.add(consumer)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:  # none yet, ended, or of a closed loop
        _task = loop.create_task(_run())


def unregister(consumer: Any) -> None:
    _consumers.discard(consumer)


def saw(consumer: Any, event: dict) -> None:
    """A change event reached the socket from the channel layer (whether or not it was forwarded)."""
    seq = event.get("seq")
    current = getattr(consumer, "live_seq", None)
    if isinstance(seq, int) and (current is None or seq > current):
        consumer.live_seq = seq


async def answer_seq(consumer: Any) -> dict[str, object]:
    """The acknowledgement of a client's ``seq`` event: ``{"ok": true, "seq": n}``."""
    seq = await current_seq(consumer.principal.org_id)
    if isinstance(seq, int):
        saw(consumer, {"seq": seq})  # the client learns it now: no notice for it later
    return {"ok": True, "seq": seq}


async def current_seq(org_id: object) -> int | None:
    """The organization's latest seq (one query)."""
    seqs = await _read_seqs([org_id])
    return seqs.get(str(org_id))


@database_sync_to_async
def _read_seqs(org_ids: list) -> dict[str, int]:
    from project.accounts.models import Organization

    return {str(pk): seq for pk, seq in Organization.objects.filter(pk__in=org_ids).values_list("pk", "event_seq")}


async def _run() -> None:
    global _task
    period = interval_seconds()
    while _consumers:
        await asyncio.sleep(period)
        try:
            await renew_groups_if_lost()
        except Exception:  # Redis is down: the next tick tries again
            log.info("live watch: Redis unreachable, groups not renewed this tick")
        try:
            await _check_seqs()
        except Exception:
            log.exception("live watch: seq check failed")
    _task = None


async def renew_groups_if_lost() -> bool:
    """Re-join every local socket's groups when Redis lost them (restart, flush). True when it did."""
    layer = get_channel_layer()
    ring_size = getattr(layer, "ring_size", 0)
    if layer is None or not ring_size or not hasattr(layer, "connection"):
        return False  # the in-memory layer lives and dies with the process
    lost = False
    for index in range(ring_size):
        previous = await layer.connection(index).set(PROCESS_KEY, "1", ex=3600, get=True)
        lost = lost or previous is None
    if not lost:
        return False
    for consumer in list(_consumers):
        for group in list(getattr(consumer, "groups_joined", [])):
            try:
                await layer.group_add(group, consumer.channel_name)
            except Exception:
                # Not renewed: forget the marker so that the next tick tries again.
                for index in range(ring_size):
                    await layer.connection(index).delete(PROCESS_KEY)
                raise
    log.info("live watch: Redis had lost the groups; %d sockets re-joined", len(_consumers))
    return True


async def _check_seqs() -> None:
    watched = [c for c in list(_consumers) if getattr(c, "principal", None) is not None and not c.closing]
    if not watched:
        return
    seqs = await _read_seqs(sorted({str(c.principal.org_id) for c in watched}))
    for consumer in watched:
        latest = seqs.get(str(consumer.principal.org_id))
        if latest is None:
            continue
        if consumer.live_seq is None:
            consumer.live_seq = latest  # the baseline: the client read everything when it connected
            continue
        if latest <= consumer.live_seq:
            consumer.live_behind = None
            continue
        if consumer.live_behind is None or consumer.live_seq >= consumer.live_behind:
            consumer.live_behind = latest  # maybe just in flight: look again at the next tick
            continue
        # Behind for a whole tick: the event(s) up to live_behind were lost on the way.
        consumer.live_seq = latest
        consumer.live_behind = None
        try:
            await consumer.send(protocol.event_frame(SEQ_EVENT, {"seq": latest}))
        except Exception:
            log.info("live watch: could not tell socket %s it is behind", getattr(consumer, "sid", "?"))
