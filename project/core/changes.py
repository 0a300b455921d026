"""The write unit and the change event: the one way a write of an organization's data happens (docs/adr/0028).

Every write service wraps its write in :func:`org_change`::

    with org_change(ctx, "course", "updated", ids=[course.pk]) as change:
        course.save()

and the unit does, in this order, what each write needs (docs/realtime.md, "Events"; docs/adr/0003, 0012):

1. opens ``transaction.atomic()`` (a savepoint inside the caller's transaction, if any) around it all;
2. raises the organization's ``event_seq`` by one: the row lock it takes serialises the organization's
   writers until the transaction ends, so commit order is seq order and a conflict check inside the body
   sees every earlier write (the response cache is keyed on this seq, so its answers of earlier seqs are
   no longer served);
3. records the write's activity through the recorder the ``history`` app registers (:func:`use_recorder`)
   *before* the body: the rows the body writes are captured into it, for History and undo (no recorder
   registered: the write fails with ``ImproperlyConfigured`` before it writes anything);
4. runs the body; the body may name its rows there (``change.ids = [row.pk]``) when their keys come from
   the write itself;
5. after commit, sends the :class:`ChangeEvent` to the organization's sockets through the transport the
   ``realtime`` app registers (:func:`use_transport`), having noted the keys it touched for the kept
   answers (``project.core.response_cache.note_change``, ADR 0034). A rolled-back write (the body
   raised) sends nothing, records nothing and leaves the seq as it was.

A write cannot do one of them without the others, nor in another order. The event is declared once,
here, as a Pydantic model with closed sets of entities and actions; it is published in the OpenAPI
schema (``project.api``), so the SPA's generated types carry it.

This module imports no app and nothing of ``realtime`` (docs/engineering.md, "Boundaries"): what it calls
of them is registered in their ``AppConfig.ready()`` — the transport (``realtime.apps``:
:func:`use_transport`), the history recorder (``project.history.apps``: :func:`use_recorder`) and the
routing details of an entity's events (``sessions``, ``before``, ``campusIds``: ``project.timetabling.apps``
and ``project.planning.apps``: :func:`use_routing`), because they describe those apps' rows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, get_args
from zoneinfo import ZoneInfo

from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from project.core.response_cache import note_change

if TYPE_CHECKING:  # pragma: no cover
    from project.core.tenancy import Ctx

log = logging.getLogger(__name__)

Entity = Literal[
    "course",
    "unit",
    "study_plan",
    "study_plan_unit",
    "campus",
    "block_group",
    "block_group_study_plan",
    "linked_block_group",
    "teacher",
    "teacher_unit",
    "teacher_leave",
    "timetable_session",
    "holiday",
    "organization",
    "user",
    "display_link",
    "room",
]
"""What a change event is about: one name per kind of record (docs/realtime.md, "Events")."""

Action = Literal[
    "created", "updated", "deleted", "scheduled", "schedule_cleared", "allocated", "imported", "replanned", "signed_in"
]
"""What happened to the records: ``scheduled`` / ``schedule_cleared`` are a block group's sessions
generated or cleared (the ids are the block group's), ``allocated`` teachers given to sessions,
``imported`` rows from a spreadsheet or the public holidays, ``replanned`` a re-plan applied."""

ENTITIES: frozenset[str] = frozenset(get_args(Entity))
ACTIONS: frozenset[str] = frozenset(get_args(Action))

CHANGE_EVENT = "change.event"  # the channel-layer message type: {"type": CHANGE_EVENT, "event": {...}}

MAX_SESSION_DETAILS = 2000
GROUP_ID_ACTIONS = frozenset({"scheduled", "schedule_cleared"})  # timetable_session events whose ids are block groups'


class _Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class ChangeEventSession(_Camel):
    """One session of a ``timetable_session`` event, as written (``sessions``) or before the write
    (``before``): what a screen needs to decide whether the change touches what it shows."""

    id: str
    block_group_id: str
    teacher_id: str | None
    room: str
    room_id: str | None
    date: str | None  # ISO date (YYYY-MM-DD) of the session, or null when it has none
    unit_id: str
    hours: float  # the session's counted hours (``actualHours``)
    status: str  # scheduled, completed or cancelled: a cancelled session counts no hours


class ChangeEventTimes(_Camel):
    """A start and end time of rows of a schedule (``HH:MM:SS``, the organization's local time)."""

    start: str
    end: str


class ChangeEventSchedule(_Camel):
    """What a schedule generated or cleared touched (``scheduled`` / ``schedule_cleared`` events, whose ids
    are the block group's; ADR 0033): the rows created or deleted, summed up so that a screen can decide
    without them whether the change concerns it. Each list is sorted and holds each value once."""

    dates: list[str]  # ISO dates (YYYY-MM-DD) of the rows created or deleted
    times: list[ChangeEventTimes]  # their start and end times (a schedule's templates: a few)
    teacher_ids: list[str]  # their teachers (a generated row has none)
    room_ids: list[str]  # their recorded rooms
    rooms: list[str]  # their room codes as written, for rows with a room typed in


def _absent_unless_sent(schema: dict[str, Any]) -> None:
    """``sessions``, ``before``, ``rows`` and ``schedule`` are absent from the JSON unless sent: optional
    without a default in the published schema (a default would make generated clients treat them as
    always present)."""
    for name in ("sessions", "before", "rows", "schedule"):
        schema["properties"][name].pop("default", None)


class ChangeEvent(_Camel):
    """Event ``change`` on the socket: one per committed write of the organization (docs/realtime.md).

    ``seq`` rises by one per event of the organization (a client that sees another value than last + 1
    re-reads what it shows). ``actorId``: the user who wrote (null for the system or Django admin).
    ``origin``: the ``X-Client-Id`` of the writing tab, ``admin``, ``sso`` or null. ``at``: ISO 8601 time
    of the write in the organization's timezone, to the second. ``timetable_session`` events also carry
    ``sessions``: the written rows (null when there are more than 2,000, the rows are gone, or the ids are
    a block group's), and with them ``before``: the same rows before the write (absent otherwise).
    ``rows`` (ADR 0032): the written sessions as ``GET /api/timetables?ids=`` answers them after the write
    (``SessionOut`` objects, every one still existing), when the write names at most
    :data:`MAX_EVENT_ROWS`; absent otherwise and never sent to a wall display. A screen patches them in
    without asking. ``schedule`` (ADR 0033): on a ``scheduled`` or ``schedule_cleared`` event, the dates,
    times, teachers and rooms of the rows the generation created or the clear deleted; absent otherwise.
    """

    model_config = ConfigDict(json_schema_extra=_absent_unless_sent)

    entity: Entity
    action: Action
    ids: list[str]
    seq: int
    actor_id: str | None
    origin: str | None
    at: str
    sessions: list[ChangeEventSession] | None = None
    before: list[ChangeEventSession] | None = None
    rows: list[dict[str, Any]] | None = None
    schedule: ChangeEventSchedule | None = None

    def wire(self) -> dict[str, Any]:
        """The event's JSON object (camelCase; ``sessions`` / ``before`` only where they are sent)."""
        return self.model_dump(by_alias=True, exclude_unset=True)


class HiddenChangeEvent(_Camel):
    """Event ``change`` as a member receives an admin-only change (docs/adr/0007): its seq only, so the
    client's sequence has no gap and it learns nothing about what changed."""

    seq: int
    hidden: Literal[True]


Transport = Callable[[str, dict[str, Any]], None]
_transport: Transport | None = None


def use_transport(send: Transport) -> None:
    """Register how a committed change reaches the sockets: ``send(org_id, event)`` with ``event`` the
    wire object plus routing data (``campusIds``). Called once by the ``realtime`` app when it is ready."""
    global _transport
    _transport = send


Activity = Any
"""A write's History entry (a ``project.history.models.Activity`` row): whatever the registered recorder
returns; the unit only hands it back to the recorder and to the write's body."""


class Recorder(Protocol):
    """The history's step of the unit, registered by the ``history`` app (``project.history.recording``)."""

    def record(self, ctx: Ctx, event: dict, *, summary: str | None = None, undo_of: Activity | None = None) -> Activity:
        """Record the activity of ``event`` (``{entity, action, ids, seq}``) in the caller's transaction and
        capture the rows written until its atomic block ends."""

    def set_ids(self, ctx: Ctx, activity: Activity, ids: list[str], *, summary: str | None = None) -> None:
        """Store the ids the body named after the activity was recorded."""


_recorder: Recorder | None = None


def use_recorder(recorder: Recorder) -> None:
    """Register the history's step of the unit (an object or module with ``record`` and ``set_ids``).
    Called once by the ``history`` app when it is ready; a write without a recorder fails loudly."""
    global _recorder
    _recorder = recorder


def _the_recorder() -> Recorder:
    if _recorder is None:
        raise ImproperlyConfigured(
            "no history recorder registered for the write unit: is project.history in INSTALLED_APPS and "
            "the app registry ready? (docs/adr/0028)"
        )
    return _recorder


SessionRows = list[dict]
"""``sessions`` / ``before`` entries: :class:`ChangeEventSession` JSON objects."""

Routing = Callable[[list[str], str], tuple[list[Any], SessionRows | None]]
"""``routing(ids, action) -> (campuses, sessions)`` of an entity's written rows, read after commit (one
query): the campus keys of the rows (any order, repeats and None allowed) and the ``sessions`` entries
(None: not sent). May raise ``ValueError`` / ``ValidationError`` for ids that are not the rows' keys."""

Before = Callable[[list[str]], SessionRows | None]
"""``before(ids) -> sessions``: the rows as they are before the write's body (None: not sent)."""

Rows = Callable[[Any, list[str]], list[dict[str, Any]]]
"""``rows(org, ids) -> rows``: the written rows as the entity's list endpoint answers them, read after
commit, JSON-ready (text, numbers, lists, dicts: the event crosses Redis as msgpack)."""

_routings: dict[str, tuple[Routing, Before | None]] = {}
_row_readers: dict[str, Rows] = {}
MAX_EVENT_ROWS = 50
"""A write naming more rows sends no ``rows``: its screens fetch what they show (ADR 0032)."""

_sent_rows: ContextVar[dict[str, dict[str, Any]] | None] = ContextVar("sent_rows", default=None)


def use_routing(entity: Entity, routing: Routing, before: Before | None = None, rows: Rows | None = None) -> None:
    """Register how the routing details of ``entity``'s events are read (called by the app that owns the
    rows, in its ``AppConfig.ready()``). An entity without a registration has none (clients refetch).
    ``rows``: how the written rows are read for the event's ``rows`` (none: not sent)."""
    _routings[entity] = (routing, before)
    if rows is not None:
        _row_readers[entity] = rows


def sent_row(row_id: object) -> dict[str, Any] | None:
    """The row ``row_id`` as the last change event sent in this context (a request, after its write's
    commit) carried it in ``rows``, or None. A write's answer is the same row the screens were sent: the
    API returns it instead of reading it again (ADR 0032). Read it, never change it."""
    sent = _sent_rows.get()
    return sent.get(str(row_id)) if sent else None


@dataclass
class Change:
    """A write in progress inside :func:`org_change`. ``ids``: the rows it writes (set them in the body
    when their keys come from the write); ``seq``: its place in the organization's sequence;
    ``activity``: its History entry."""

    ctx: Ctx
    entity: Entity
    action: Action
    ids: list[Any]  # UUIDs or text while the body runs; text once it has
    seq: int
    at: str
    activity: Activity
    summary: str | None = None
    before: list[dict] | None = field(default=None, repr=False)
    schedule: dict[str, Any] | None = field(default=None, repr=False)  # ChangeEventSchedule's JSON

    def schedule_touched(self, rows: Iterable[tuple[Any, Any, Any, Any, Any, Any]]) -> None:
        """For a ``scheduled`` / ``schedule_cleared`` write (ADR 0033): the rows it created or deletes, as
        ``(date, start time, end time, teacher id, room id, room code)`` tuples (None or "" where a row has
        none), summed up into the event's ``schedule``. Call it in the body; ValueError for another action."""
        if self.action not in GROUP_ID_ACTIONS:
            raise ValueError(f"schedule details are for a schedule generated or cleared, not {self.action!r}")
        dates: set[str] = set()
        times: set[tuple[str, str]] = set()
        teachers: set[str] = set()
        room_ids: set[str] = set()
        rooms: set[str] = set()
        for day, start, end, teacher, room_id, room in rows:
            if day is not None:
                dates.add(day.isoformat())
            times.add((start.isoformat(), end.isoformat()))
            if teacher:
                teachers.add(str(teacher))
            if room_id:
                room_ids.add(str(room_id))
            if room:
                rooms.add(str(room))
        self.schedule = ChangeEventSchedule(
            dates=sorted(dates),
            times=[ChangeEventTimes(start=a, end=b) for a, b in sorted(times)],
            teacher_ids=sorted(teachers),
            room_ids=sorted(room_ids),
            rooms=sorted(rooms),
        ).model_dump(by_alias=True)

    @property
    def event(self) -> ChangeEvent:
        """The change event (without its routing details, read after commit)."""
        return ChangeEvent(
            entity=self.entity,
            action=self.action,
            ids=list(self.ids),
            seq=self.seq,
            actor_id=str(self.ctx.user.pk) if self.ctx.user is not None else None,
            origin=self.ctx.origin,
            at=self.at,
        )


@contextmanager
def org_change(
    ctx: Ctx,
    entity: Entity,
    action: Action,
    *,
    ids: Iterable[object] = (),
    summary: str | None = None,
    undo_of: Activity | None = None,
) -> Iterator[Change]:
    """The write unit: ``with org_change(ctx, entity, action, ids=[...]) as change:`` around the write.

    ctx: a :class:`project.core.tenancy.Ctx` (its organization is written). entity / action: of
    :data:`Entity` / :data:`Action` (pydantic's ValidationError, a ValueError, otherwise). ids: the rows
    written (UUIDs or text), or set ``change.ids`` in the body. summary: History's sentence (default: one
    made from entity, action and ids). undo_of: the activity an undo reverses. See the module docstring
    for what it does and in which order. An exception in the body rolls the whole unit back and
    propagates.
    """
    _the_recorder()  # before anything is written
    with transaction.atomic():
        change = _begin(ctx, entity, action, ids=ids, summary=summary, undo_of=undo_of)
        recorded = list(change.ids)
        yield change
        change.ids = [str(i) for i in change.ids]
        if change.ids != recorded:
            _the_recorder().set_ids(ctx, change.activity, change.ids, summary=summary)


def emit_change(
    ctx: Ctx, *, entity: str, action: str, ids: Iterable[object], summary: str | None = None, undo_of: Activity | None = None
) -> dict[str, Any]:
    """The unit's steps 2, 3 and 5 for a caller that holds its own transaction, in the order the unit
    takes them: for tests of the sequence and the history. Services use :func:`org_change` (a test fails
    when a module of ``project`` calls this). Returns the event's JSON object (sent after commit)."""
    change = _begin(ctx, entity, action, ids=ids, summary=summary, undo_of=undo_of)  # type: ignore[arg-type]
    return change.event.wire()


def _begin(
    ctx: Ctx, entity: Entity, action: Action, *, ids: Iterable[object], summary: str | None, undo_of: Activity | None
) -> Change:
    """Validate the event, raise the seq (row lock), record the activity, and send after commit."""
    _sent_rows.set(None)  # rows an earlier write of this context sent are not this write's (sent_row)
    recorder = _the_recorder()
    org = ctx.org
    id_list = [str(i) for i in ids]
    at = timezone.now().astimezone(_zone(org.timezone)).isoformat(timespec="seconds")
    # Validated before anything is written: an unknown entity or action is a ValueError.
    ChangeEvent(entity=entity, action=action, ids=id_list, seq=0, actor_id=None, origin=None, at=at)
    organizations = type(org)._base_manager
    # In the unit's transaction (no savepoint of its own): the row lock is held until the write commits.
    organizations.filter(pk=org.pk).update(event_seq=F("event_seq") + 1)
    seq = organizations.filter(pk=org.pk).values_list("event_seq", flat=True).get()
    event = {"entity": entity, "action": action, "ids": id_list, "seq": seq}
    activity = recorder.record(ctx, event, summary=summary, undo_of=undo_of)
    change = Change(ctx, entity, action, id_list, seq, at, activity, summary, _sessions_before(entity, action, id_list))
    org_id = str(org.pk)
    transaction.on_commit(lambda: _send(org_id, change))
    return change


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "Australia/Melbourne")
    except Exception:  # pragma: no cover - a bad tz name in the admin
        return ZoneInfo("Australia/Melbourne")


def _send(org_id: str, change: Change) -> None:
    """After commit: the event with its routing data, to the registered transport (never raises: the
    write has committed, and clients recover through the seq-gap rule)."""
    rows = _rows_of(change)
    _sent_rows.set({str(r.get("id")): r for r in rows} if rows else None)
    try:
        message = with_routing(change.event.wire(), change.before)
    except Exception:  # pragma: no cover - the event was validated at the start of the write
        log.exception("could not build the change event of seq %s", change.seq)
        return
    if rows is not None:
        message["rows"] = rows
    if change.schedule is not None:
        message["schedule"] = change.schedule
    note_change(org_id, change.seq, message)  # what kept answers this change may have touched (ADR 0034)
    if _transport is None:
        log.warning("no change-event transport registered: seq %s not sent", change.seq)
        return
    _transport(org_id, message)


# ------------------------------------------------------------------------------ routing details


T = TypeVar("T")


def _read_optional(what: str, read: Callable[[], T]) -> T | None:
    """``read()`` for an optional part of an event (``rows``, ``before``, routing): None when the ids are
    not the rows' keys (ValidationError, ValueError: the realtime test hooks send labels), and None,
    logged, when it fails otherwise. Screens without the part fetch or refetch what they show."""
    from django.core.exceptions import ValidationError

    try:
        return read()
    except (ValidationError, ValueError):
        return None
    except Exception:
        log.exception("could not read %s", what)
        return None


def _rows_of(change: Change) -> list[dict[str, Any]] | None:
    """The event's ``rows``: the written rows read after commit by the reader registered for the entity,
    for a write of 1..``MAX_EVENT_ROWS`` rows (not a block group's schedule); None otherwise or when the
    read fails (the screens then fetch the rows, as without it)."""
    reader = _row_readers.get(change.entity)
    if reader is None or change.action in GROUP_ID_ACTIONS or not 0 < len(change.ids) <= MAX_EVENT_ROWS:
        return None
    return _read_optional(f"the rows of a {change.entity} event", lambda: reader(change.ctx.org, [str(i) for i in change.ids]))


def _sessions_before(entity: str, action: str, ids: list[str]) -> list[dict] | None:
    """For a ``timetable_session`` write of at most ``MAX_SESSION_DETAILS`` rows: the rows as they are
    *before* the write (the unit reads them before its body, through the ``before`` reader registered for
    the entity), in the shape of ``sessions``; rows that do not exist yet are absent. None otherwise. A
    screen decides from before and after whether a change touches what it shows (a session moved out of
    its day or week touches it too)."""
    if entity != "timetable_session" or action in GROUP_ID_ACTIONS or not ids or len(ids) > MAX_SESSION_DETAILS:
        return None
    before = _routings.get(entity, (None, None))[1]
    if before is None:
        return None
    return _read_optional("the sessions before a write", lambda: before(ids))


def with_routing(event: dict, before: list[dict] | None = None) -> dict:
    """The event with its routing data, read after commit so that it describes the rows as written:
    ``campusIds`` (never sent to a client) and, for sessions, ``sessions`` and ``before``."""
    # Routing is an optimisation: without it clients refetch and displays get everything.
    routed = _read_optional(
        f"the routing data of a {event['entity']} event", lambda: _routing(event["entity"], event["ids"], event.get("action", ""))
    )
    campus_ids, sessions = routed if routed is not None else (None, None)
    out = dict(event)
    if campus_ids is not None:
        out["campusIds"] = campus_ids  # routing for campus-scoped wall displays; never sent to a client
    if event["entity"] == "timetable_session":
        out["sessions"] = sessions  # None: too many or deleted rows (clients refetch the lists they show)
        if sessions is not None and before is not None:
            out["before"] = before  # the same rows before the write (additive, ADR 0025)
    return out


def _routing(entity: str, ids: list[str], action: str = "") -> tuple[list[str] | None, list[dict] | None]:
    """What screens and displays need to decide whether a change touches them, from the routing
    registered for the entity (:func:`use_routing`):

    - ``campusIds``: the campuses of the written sessions' or block groups' rows (routing for
      campus-scoped wall displays; never sent to a client);
    - ``sessions`` (timetable_session events of at most 2,000 ids): :class:`ChangeEventSession` of the rows as
      written (a list showing none of them and matching none of them does not refetch, ADR 0008).

    None for either when no row is left to ask (a delete), the write is too big or the entity has no
    routing: clients then fall back to refetching what the entity touches, and every display of the
    organization gets the event.
    """
    registered = _routings.get(entity)
    if registered is None:
        return None, None
    campuses, details = registered[0](ids, action)  # ValidationError / ValueError: see _read_optional
    if not campuses:
        return None, details
    return sorted({str(c) for c in campuses if c is not None}), details
