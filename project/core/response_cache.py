"""Answers of the hot list reads kept until the organization's next change (ADR 0013).

Every write of an organization raises its ``event_seq`` in the write's own transaction
(the write unit ``project.core.changes.org_change``, docs/adr/0028), and the signed-in request has already read that
sequence with its user (one query, ``project.core.auth.SessionUserBackend``). So an answer built for
sequence S is the answer for every later request that still sees S: between two changes, thirty wall
displays and coordinators reading the same timetable cost one build, and the first read after a change
builds it again, once: requests of one process asking for a list being built wait for that build.

:func:`cached_json` keeps one entry per (organization, list, parameters): the sequence it was built at
and the JSON bytes. A request whose sequence differs rebuilds and replaces it, so memory is bounded by
the number of distinct lists, not by the rate of writes. The answer is built after the sequence was
read, so an entry is never older than its sequence (a write racing the build can only make it newer,
as an uncached read would be). Writes outside the unit (a management command editing rows
by hand) are not seen until ``RESPONSE_CACHE_SECONDS`` pass; every API, admin and undo write emits.

Bodies above 1 KB are also kept gzip-compressed (level 5, once per build) and sent that way to clients
that accept it (every browser): the 5,000-session timetable is 4.4 MB of JSON and 0.3 MB compressed, and
sending the bytes was most of a cached read's cost.

Two tiers (ADR 0020): the process's own memory first (a ``cachetools`` TTL cache bounded by
``RESPONSE_CACHE_LOCAL_BYTES``, holding references, nothing copied or unpickled), then, when
``REDIS_URL`` is set, Django's cache ``responses`` in Redis, shared by the processes so that one build
per change serves them all. The shared tier is one cache object per process: Django's ``caches[...]``
is per request context under ASGI, which made every read open a new Redis connection, and fetching the
5,000-session answer from Redis on every read halved a process's throughput behind nginx
(``bench/cluster_bench.py``, ADR 0020). ``RESPONSE_CACHE_SECONDS=0`` turns both off.

:func:`kept_value` applies the same rule to a part of an answer that is not sent as is (the wall
display board's sessions of a day and scope, which each display's answer wraps with its own name and
the time; ADR 0025): Python values, in this process only, one build per change.

An answer may outlive a change that cannot touch it (ADR 0034). A list that knows what its rows depend
on passes ``depends_on`` to :func:`cached_json`: the answer is kept with those keys (text such as a block
group, a teacher's week, a room's date), and each committed write notes the keys it touched under its
sequence (:func:`note_change`, called by the write unit after commit; an app registers how its entity's
events name keys with :func:`use_touched`, and an event of any other entity touches everything). A read
at a later sequence serves the kept answer when every change since it was built is noted and touches
none of its keys; a change not (yet) noted, one that touches everything, or an answer older than
``RESPONSE_CACHE_SECONDS`` rebuilds. The notes live where the answers do: this process's memory, and
Redis when it is configured, so a change written by one process is read by the others.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from cachetools import TTLCache
from django.conf import settings
from django.core.cache import BaseCache, caches
from django.http import HttpRequest, HttpResponse

from project.core.auth import AuthedRequest
from project.core.responses import json_dumps

T = TypeVar("T")
log = logging.getLogger(__name__)
CONTENT_TYPE = "application/json"
GZIP_FROM_BYTES = 1024
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as Django's GZipMiddleware reads Accept-Encoding


def _answer(request: HttpRequest, body: bytes, gz: bytes | None) -> HttpResponse:
    if gz is not None and _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
        response = HttpResponse(gz, content_type=CONTENT_TYPE)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(body, content_type=CONTENT_TYPE)
    if gz is not None:
        response["Vary"] = "Accept-Encoding"
    return response


class _Build:
    """One build in progress in this process: requests for the same list and sequence wait for it."""

    __slots__ = ("seq", "done", "result")

    def __init__(self, seq: int) -> None:
        self.seq = seq
        self.done = threading.Event()
        self.result: tuple[bytes, bytes | None] | None = None


_building: dict[str, _Build] = {}
_building_lock = threading.Lock()
FOLLOWER_WAIT_SECONDS = 30


_local: TTLCache | None = None
_local_lock = threading.Lock()
_shared = None
_shared_ready = False


def _entry_size(entry: tuple) -> int:
    deps = entry[3] or ()
    return len(entry[1]) + len(entry[2] or b"") + 200 + 80 * len(deps)


def _local_tier() -> TTLCache:
    global _local
    if _local is None:
        _local = TTLCache(maxsize=settings.RESPONSE_CACHE_LOCAL_BYTES, ttl=settings.RESPONSE_CACHE_SECONDS, getsizeof=_entry_size)
    return _local


def _shared_tier() -> BaseCache | None:
    """The process's one ``responses`` cache object, or None without Redis."""
    global _shared, _shared_ready
    if not _shared_ready:
        if "responses" in settings.CACHES:
            _shared = caches.create_connection("responses")
        _shared_ready = True
    return _shared


def _remember(key: str, entry: tuple) -> None:
    if _entry_size(entry) > settings.RESPONSE_CACHE_LOCAL_BYTES:
        return
    with _local_lock:
        _local_tier()[key] = entry


def _key(org_id: UUID, name: str, params: dict[str, Any]) -> str:
    text = "&".join(f"{k}={params[k]}" for k in sorted(params))
    return f"{org_id}:{name}:{hashlib.blake2s(text.encode(), digest_size=12).hexdigest()}"


def cached_json(
    request: AuthedRequest,
    name: str,
    params: dict[str, Any],
    build: Callable[[], Any],
    *,
    depends_on: Callable[[Any], Keys | None] | None = None,
) -> HttpResponse:
    """A 200 JSON answer of ``build()`` (JSON-ready rows), served from the cache while the organization's
    ``event_seq`` is the one it was built at.

    ``name`` names the list; ``params`` must hold everything else the answer depends on (filters, and
    the user's "today" where a filter uses it); values are compared as text. Bodies above
    ``RESPONSE_CACHE_MAX_BYTES`` are not kept. Never raises for the cache: a store that fails answers
    uncached. Sent gzip-compressed (``Content-Encoding: gzip``, ``Vary: Accept-Encoding``) when the body
    is 1 KB or more and the client accepts it.

    ``depends_on(rows)``: the keys the built rows depend on (None: every change), for an answer kept
    across changes that touch none of them (module docstring; ADR 0034).
    """
    org = request.auth.org
    seconds = settings.RESPONSE_CACHE_SECONDS
    if seconds <= 0:
        return HttpResponse(json_dumps(build()), content_type=CONTENT_TYPE)
    key = _key(org.pk, name, params)
    seq = org.event_seq
    with _local_lock:
        hit = _local_tier().get(key)
    if hit is not None and _kept(org.pk, hit, seq):
        if hit[0] != seq:
            _remember(key, (seq, *hit[1:]))  # still the answer at seq: later reads check from here
        return _answer(request, hit[1], hit[2])
    shared = _shared_tier()
    if shared is not None:
        try:
            hit = shared.get(key)
        except Exception:  # noqa: BLE001 — the cache is an optimisation: a broken store answers uncached
            hit = None
        if hit is not None and _kept(org.pk, hit, seq):
            _remember(key, (seq, *hit[1:]))
            return _answer(request, hit[1], hit[2])
    # Single flight: after a change every open screen asks for the same list at once; one request of
    # this process builds it, the others of the same sequence wait for that answer.
    with _building_lock:
        current = _building.get(key)
        leader = current is None or current.seq != seq
        if current is None or current.seq != seq:
            current = _building[key] = _Build(seq)
    if not leader:
        if current.done.wait(FOLLOWER_WAIT_SECONDS) and current.result is not None:
            return _answer(request, *current.result)
        return _answer(request, *_encode(build()))  # the leader failed or is stuck: build it here
    try:
        # And one build per change for the processes sharing Redis (ADR 0034).
        def make() -> tuple[tuple, bool]:
            built_at = time.time()
            rows = build()
            body, gz = _encode(rows)
            keep = len(body) <= settings.RESPONSE_CACHE_MAX_BYTES
            return (seq, body, gz, _deps_of(depends_on, rows) if keep else None, built_at), keep

        entry, keep = _built_once(shared, key, seq, 5, make)
        current.result = entry[1], entry[2]
        if keep:
            _remember(key, entry)
    finally:
        current.done.set()
        with _building_lock:
            if _building.get(key) is current:
                del _building[key]
    return _answer(request, entry[1], entry[2])


def _built_once(
    store: BaseCache | None, key: str, seq: int, size: int, make: Callable[[], tuple[tuple, bool]]
) -> tuple[tuple, bool]:
    """The entry of ``key`` at ``seq`` (a tuple of ``size``, its sequence first) built once for the
    processes sharing ``store``: the one that claims the build runs ``make()`` (the entry, and whether
    to keep it) and keeps it in Redis; another waits for that entry (:func:`_built_elsewhere`) and runs
    ``make()`` itself only when none comes. Without Redis, ``make()`` here. Returns the entry and
    whether it is kept."""
    claimed = _claim(store, key, seq)
    try:
        if not claimed:
            elsewhere = _built_elsewhere(store, key, seq, size)
            if elsewhere is not None:
                return elsewhere, True
        entry, keep = make()
        if keep and store is not None:
            try:
                store.set(key, entry, settings.RESPONSE_CACHE_SECONDS)
            except Exception:  # noqa: BLE001, S110 — a failed shared store only loses the sharing
                pass
        return entry, keep
    finally:
        if claimed:
            _release(store, key, seq)


SHARED_WAIT_SECONDS = 2.0  # at most this long for another process's build, then build it here
SHARED_POLL_SECONDS = 0.01
_BUILDING, _BUILT = 0, 1


def _claim_key(key: str, seq: int) -> str:
    return f"{key}:build:{seq}"


def _claim(shared: BaseCache | None, key: str, seq: int) -> bool:
    """Whether this process builds ``key`` at ``seq``: it claimed the build in Redis (``SET NX``, for
    ``SHARED_WAIT_SECONDS`` at most), or there is no Redis or it failed (each process builds, as before).
    False: another process has claimed it."""
    if shared is None:
        return True
    try:
        return bool(shared.add(_claim_key(key, seq), _BUILDING, SHARED_WAIT_SECONDS))
    except Exception:  # noqa: BLE001 — without the claim each process builds its own
        return True


def _release(shared: BaseCache | None, key: str, seq: int) -> None:
    """The claimed build is over: its answer is in Redis (or it failed, or was too big to keep); the
    waiting processes stop waiting (they find the answer, or build it themselves)."""
    if shared is None:
        return
    try:
        shared.set(_claim_key(key, seq), _BUILT, SHARED_WAIT_SECONDS)
    except Exception:  # noqa: BLE001, S110 — the others stop waiting when the claim expires
        pass


def _built_elsewhere(shared: BaseCache | None, key: str, seq: int, size: int = 5) -> tuple | None:
    """The entry (a tuple of ``size``, its sequence first) another process claimed to build at ``seq``
    (or a newer one), once it is in Redis; None when that build ended without one or took longer than
    ``SHARED_WAIT_SECONDS``."""
    if shared is None:
        return None
    deadline = time.monotonic() + SHARED_WAIT_SECONDS
    try:
        while time.monotonic() < deadline:
            time.sleep(SHARED_POLL_SECONDS)
            state = shared.get(_claim_key(key, seq))
            if state == _BUILDING:
                continue
            hit = shared.get(key) if state == _BUILT else None
            return hit if isinstance(hit, tuple) and len(hit) == size and hit[0] >= seq else None
    except Exception:  # noqa: BLE001 — a broken store: build it here
        return None
    return None


def _deps_of(depends_on: Callable[[Any], Keys | None] | None, rows: Any) -> Keys | None:
    if depends_on is None:
        return None
    try:
        deps = depends_on(rows)
    except Exception:  # noqa: BLE001 — keys that cannot be read: the answer lives one sequence only
        log.exception("could not read the keys of a kept answer")
        return None
    return None if deps is None else frozenset(deps)


def _kept(org_id: object, entry: tuple, seq: int) -> bool:
    """Whether a kept answer ``(seq, body, gzip, keys, built at)`` is the answer at ``seq``: built at most
    ``RESPONSE_CACHE_SECONDS`` ago, and built at ``seq``, or at an earlier one with keys that no change
    since touched (:func:`_untouched`)."""
    if len(entry) != 5 or time.time() - entry[4] > settings.RESPONSE_CACHE_SECONDS:
        return False  # (an entry of another shape: kept by an earlier release)
    if entry[0] == seq:
        return True
    return entry[3] is not None and entry[0] < seq and _untouched(org_id, entry[0], seq, entry[3])


def _encode(rows: object) -> tuple[bytes, bytes | None]:
    body = json_dumps(rows)
    return body, (gzip.compress(body, compresslevel=5, mtime=0) if len(body) >= GZIP_FROM_BYTES else None)


# ------------------------------------------------------------------ changes noted by the keys they touch

Keys = frozenset[str]
ANY = "*"  # the key of a change that touches everything, whatever the answer depends on
EVERYTHING: Keys = frozenset({ANY})  # what a change of an entity without a registered reader touches
_touched_readers: dict[str, Callable[[dict[str, Any]], Keys | None]] = {}
_notes: TTLCache | None = None
NOTE_ENTRIES = 4096
MAX_CHANGES_BEHIND = 64  # an answer more changes behind than this is rebuilt, not checked note by note


def use_touched(entity: str, reader: Callable[[dict[str, Any]], Keys | None]) -> None:
    """Register how a change event of ``entity`` (its JSON with routing: ``sessions``, ``before``,
    ``schedule``) names the keys it touched; the reader returns None for "everything" (an event it
    cannot read). Called from an app's ``ready()``; entities without a reader touch everything."""
    _touched_readers[entity] = reader


def _note_key(org_id: object, seq: int) -> str:
    return f"{org_id}:touched:{seq}"


def note_change(org_id: object, seq: int, message: dict[str, Any]) -> None:
    """After a write committed: note the keys its change event (``message``, with routing) touched,
    under the organization's ``seq``, for :func:`cached_json`'s ``depends_on``. Never raises: a note
    that cannot be made only costs a rebuild (a missing note reads as "everything")."""
    global _notes
    if settings.RESPONSE_CACHE_SECONDS <= 0:
        return
    try:
        reader = _touched_readers.get(str(message.get("entity")))
        keys = reader(message) if reader is not None else None
        keys = EVERYTHING if keys is None else frozenset(keys)
    except Exception:  # noqa: BLE001 — an unreadable event touches everything
        keys = EVERYTHING
    key = _note_key(org_id, seq)
    with _local_lock:
        if _notes is None:
            _notes = TTLCache(maxsize=NOTE_ENTRIES, ttl=settings.RESPONSE_CACHE_SECONDS)
        _notes[key] = keys
    shared = _shared_tier()
    if shared is not None:
        try:
            shared.set(key, keys, settings.RESPONSE_CACHE_SECONDS)
        except Exception:  # noqa: BLE001, S110 — the other processes rebuild instead
            pass


def _untouched(org_id: object, since: int, until: int, deps: Keys) -> bool:
    """Whether every change of sequence ``since`` + 1 .. ``until`` is noted and touches none of ``deps``."""
    if until <= since:
        return until == since
    if until - since > MAX_CHANGES_BEHIND:
        return False
    wanted = [_note_key(org_id, s) for s in range(since + 1, until + 1)]
    found: dict[str, Any] = {}
    with _local_lock:
        if _notes is not None:
            for key in wanted:
                if key in _notes:
                    found[key] = _notes[key]
    missing = [key for key in wanted if key not in found]
    if missing:
        shared = _shared_tier()
        if shared is None:
            return False
        try:
            found.update(shared.get_many(missing))
        except Exception:  # noqa: BLE001 — a broken store: rebuild
            return False
    for key in wanted:
        if key not in found:
            return False
        if not isinstance(found[key], frozenset) or ANY in found[key] or not found[key].isdisjoint(deps):
            return False
    return True


_values: TTLCache | None = None
_value_builds: dict[str, tuple[int, threading.Lock]] = {}
VALUE_ENTRIES = 1024


def kept_value(org: Any, name: str, params: dict[str, Any], build: Callable[[], T], *, shared: bool = False) -> T:
    """``build()`` kept in this process while ``org.event_seq`` (read before, with ``org``) is the one it
    was built at: after a change, the first caller builds it once and callers of the same sequence wait
    for that build instead of building it too.

    The value is shared by every caller: read it, never change it. ``params`` must hold everything else
    it depends on. At most ``VALUE_ENTRIES`` entries, each for ``RESPONSE_CACHE_SECONDS`` at most (0:
    nothing kept). ``shared``: the value (it must pickle: bytes, say) is also kept in Redis when it is
    configured, built once per change by the process that claims it (as :func:`cached_json`'s answers)."""
    global _values
    seconds = settings.RESPONSE_CACHE_SECONDS
    if seconds <= 0:
        return build()
    key = _key(org.pk, name, params)
    seq = org.event_seq
    with _local_lock:
        if _values is None:
            _values = TTLCache(maxsize=VALUE_ENTRIES, ttl=seconds)
        hit = _values.get(key)
        if hit is not None and hit[0] == seq:
            return hit[1]
    with _building_lock:
        running = _value_builds.get(key)
        if running is None or running[0] != seq:
            running = _value_builds[key] = (seq, threading.Lock())
    try:
        with running[1]:  # one build per (key, sequence); the others wait here, then find it kept
            with _local_lock:
                hit = _values.get(key)
            if hit is not None and hit[0] == seq:
                return hit[1]
            value = _shared_value(key, seq, build) if shared else build()
            with _local_lock:
                _values[key] = (seq, value)
            return value
    finally:
        with _building_lock:
            if _value_builds.get(key) is running:
                del _value_builds[key]


def _shared_value(key: str, seq: int, build: Callable[[], T]) -> T:
    """``build()`` at ``seq`` once for the processes sharing Redis: read there, or built by the process that
    claims it while the others wait for it (:func:`_claim`); built here without Redis or when it fails."""
    store = _shared_tier()
    if store is None:
        return build()
    value_key = f"{key}:value"
    try:
        hit = store.get(value_key)
    except Exception:  # noqa: BLE001 — a broken store: build it here
        hit = None
    if isinstance(hit, tuple) and len(hit) == 2 and hit[0] == seq:
        return hit[1]
    return _built_once(store, value_key, seq, 2, lambda: ((seq, build()), True))[0][1]
