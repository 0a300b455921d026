"""The one way a write announces itself (docs/behaviour/live-events.md §4, docs/engineering.md, Rules: Change events).

Every write service calls :func:`emit_change` inside its transaction, once per write (a schedule
generation or a bulk allocation is one event with many ids). The function:

1. raises the organization's ``event_seq`` by one in the same transaction (the row lock it takes
   serialises writers of one organization, so commit order is seq order);
2. registers an ``on_commit`` callback that reads the routing data of the written rows (one query) and
   sends ``{"type": "change.event", "event": {...}}`` to the organization's group on the channel layer. A
   rolled-back transaction sends nothing.

The event is ``{"entity", "action", "ids", "seq", "actorId", "origin", "at"}``; ``at`` is ISO 8601 in the
organization's timezone. ``timetable_session`` events also carry ``sessions``: ``[{id, blockGroupId, roomId,
teacherId, room, date}]`` of the written rows, or null (see :func:`_routing`), and with them ``before``:
the same rows before the write (:func:`_sessions_before`). Sending never fails the write: a channel-layer error is logged, and clients
recover through the seq-gap rule.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import F
from django.utils import timezone

if TYPE_CHECKING:  # pragma: no cover
    from project.core.tenancy import Ctx
    from project.history.models import Activity

log = logging.getLogger(__name__)

ENTITIES = frozenset(
    {
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
    }
)
ACTIONS = frozenset(
    {"created", "updated", "deleted", "scheduled", "schedule_cleared", "allocated", "imported", "replanned", "signed_in"}
)

CHANGE_EVENT = "change.event"
REVOKE_EVENT = "session.revoke"


def org_group(org_id: object) -> str:
    return f"org.{org_id}"


def user_group(user_id: object) -> str:
    return f"user.{user_id}"


def session_group(session_key: str) -> str:
    """The sockets of one browser session (the key itself is a secret: only its digest names the group)."""
    import hashlib

    return "session." + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def emit_change(
    ctx: Ctx, *, entity: str, action: str, ids: Iterable, summary: str | None = None, undo_of: Activity | None = None
) -> dict:
    """Announce one committed change to ``ctx.org``. Returns the event (sent only after commit).

    ctx: a :class:`project.core.tenancy.Ctx`. entity / action: from ``ENTITIES`` / ``ACTIONS``
    (ValueError otherwise). ids: the ids of the rows written (UUIDs or strings). summary / undo_of: for
    the activity (an undo names what it reverses). Call it inside the write's ``transaction.atomic()``
    and before the write: the rows written after it in that block are captured into the activity
    (ADR 0012).
    """
    from project.accounts.models import Organization

    if entity not in ENTITIES:
        raise ValueError(f"unknown entity {entity!r}")
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    org = ctx.org
    with transaction.atomic():
        Organization.objects.filter(pk=org.pk).update(event_seq=F("event_seq") + 1)
        seq = Organization.objects.filter(pk=org.pk).values_list("event_seq", flat=True).get()
    try:
        tz = ZoneInfo(org.timezone or "Australia/Melbourne")
    except Exception:  # pragma: no cover - a bad tz name in the admin
        tz = ZoneInfo("Australia/Melbourne")
    ids = [str(i) for i in ids]
    event = {
        "entity": entity,
        "action": action,
        "ids": ids,
        "seq": seq,
        "actorId": str(ctx.user.pk) if ctx.user is not None else None,
        "origin": ctx.origin,
        "at": timezone.now().astimezone(tz).isoformat(timespec="seconds"),
    }
    from project.history.services import record

    record(ctx, event, summary=summary, undo_of=undo_of)  # the activity of this write, in its transaction (ADR 0012)
    group = org_group(org.pk)
    before = _sessions_before(entity, action, ids)
    transaction.on_commit(lambda: _send(group, {"type": CHANGE_EVENT, "event": _with_routing(event, before)}))
    return event


def _sessions_before(entity: str, action: str, ids: list[str]) -> list[dict] | None:
    """For a ``timetable_session`` write of at most ``MAX_SESSION_DETAILS`` rows: the rows as they are
    *before* the write (``emit_change`` runs before it), in the shape of ``sessions`` (one query); rows
    that do not exist yet are absent. None otherwise. A screen decides from before and after whether a
    change touches what it shows (a session moved out of its day or week touches it too)."""
    if entity != "timetable_session" or action in GROUP_ID_ACTIONS or not ids or len(ids) > MAX_SESSION_DETAILS:
        return None
    from django.core.exceptions import ValidationError

    from project.timetabling.models import TimetableSession

    try:
        rows = TimetableSession.objects.unscoped().filter(id__in=ids).values_list(*_DETAIL_FIELDS)
        return [_detail(row) for row in rows]
    except (ValidationError, ValueError):  # ids that are not UUIDs (the realtime test hooks send labels)
        return None
    except Exception:  # an optimisation only: without it clients decide from the rows after the write
        log.exception("could not read the sessions before a write")
        return None


_DETAIL_FIELDS = ("id", "block_group_id", "teacher_id", "room", "actual_date", "block_group__campus_id", "room_record_id")


def _detail(row: tuple) -> dict:
    """One ``sessions`` / ``before`` entry from a row of ``_DETAIL_FIELDS``."""
    i, g, t, room, d, _c, r = row
    return {
        "id": str(i),
        "blockGroupId": str(g),
        "teacherId": str(t) if t else None,
        "room": room or "",
        "roomId": str(r) if r else None,
        "date": d.isoformat() if d else None,
    }


def _with_routing(event: dict, before: list[dict] | None = None) -> dict:
    """The event with its routing data, read after commit so that it describes the rows as written
    (a service may emit before its bulk UPDATE): ``campusIds`` and, for sessions, ``sessions``."""
    try:
        campus_ids, sessions = _routing(event["entity"], event["ids"], event.get("action", ""))
    except Exception:  # routing is an optimisation: without it clients refetch and displays get everything
        log.exception("could not read the routing data of a %s event", event["entity"])
        campus_ids, sessions = None, None
    out = dict(event)
    if campus_ids is not None:
        out["campusIds"] = campus_ids  # routing for campus-scoped wall displays; never sent to a client
    if event["entity"] == "timetable_session":
        out["sessions"] = sessions  # None: too many or deleted rows (clients refetch the lists they show)
        if sessions is not None and before is not None:
            out["before"] = before  # the same rows before the write (additive, ADR 0025)
    return out


MAX_SESSION_DETAILS = 2000


GROUP_ID_ACTIONS = frozenset({"scheduled", "schedule_cleared"})  # timetable_session events whose ids are block groups'


def _routing(entity: str, ids: list[str], action: str = "") -> tuple[list[str] | None, list[dict] | None]:
    """What screens and displays need to decide whether a change touches them (one query):

    - ``campusIds``: the campuses of the written sessions' or block groups' rows (routing for
      campus-scoped wall displays; never sent to a client);
    - ``sessions`` (timetable_session events of at most 2,000 ids): ``[{id, blockGroupId, teacherId,
      room, date}]`` of the rows as written (a list showing none of them and matching none of
      them does not refetch).

    None for either when no row is left to ask (a delete) or the write is too big: clients then fall back
    to refetching what the entity touches, and every display of the organization gets the event.
    """
    from django.core.exceptions import ValidationError

    try:
        if entity == "timetable_session" and action in GROUP_ID_ACTIONS:
            # A schedule generated or cleared: the ids are the block group's; every list of it refetches.
            from project.planning.models import BlockGroup

            details = None
            campuses = list(BlockGroup.objects.unscoped().filter(id__in=ids).values_list("campus_id", flat=True))
        elif entity == "timetable_session":
            from project.timetabling.models import TimetableSession

            rows = list(TimetableSession.objects.unscoped().filter(id__in=ids).values_list(*_DETAIL_FIELDS))
            details = None
            if len(ids) <= MAX_SESSION_DETAILS:
                details = [_detail(row) for row in rows]
            campuses = [row[5] for row in rows]
        elif entity == "block_group":
            from project.planning.models import BlockGroup

            details = None
            campuses = list(BlockGroup.objects.unscoped().filter(id__in=ids).values_list("campus_id", flat=True))
        else:
            return None, None
    except (ValidationError, ValueError):  # ids that are not UUIDs (the realtime test hooks send labels)
        return None, None
    if not campuses:
        return None, details
    return sorted({str(c) for c in campuses if c is not None}), details


def close_user_sockets(user_id: object, reason: str | None = "deactivated") -> None:
    """Close every open socket of a user (deactivation), after the current transaction commits; each gets
    ``session_ended`` ``{reason}`` first."""
    close_group_sockets(user_group(user_id), reason=reason)


def close_session_sockets(session_key: str | None, reason: str) -> None:
    """Close the sockets of one browser session (logout there; a password change or deactivation ending
    it), after commit: ``session_ended`` ``{reason}``, then the disconnect packet (docs/realtime.md)."""
    if session_key:
        close_group_sockets(session_group(session_key), reason=reason)


ACCESS_EVENT = "access.changed"


def rescope_user_sockets(user_id: object, role: str) -> None:
    """A user's role changed (whatever wrote it: API, Django admin, shell): after commit their open
    sockets take ``role`` for every later event (an admin demoted to user stops receiving admin-only
    events) and are told ``access_changed`` ``{role}`` (docs/adr/0023)."""
    message = {"type": ACCESS_EVENT, "role": role}
    group = user_group(user_id)
    transaction.on_commit(lambda: _send(group, message))


REKEY_EVENT = "session.rekey"


def rekey_session_sockets(old_key: str | None, new_key: str | None) -> None:
    """A browser session got a new key (Django cycles it on a password change): its sockets follow it
    after commit, so that the heartbeat's re-check and a later logout still find them."""
    if old_key and new_key and old_key != new_key:
        message = {"type": REKEY_EVENT, "group": session_group(new_key), "key": new_key}
        group = session_group(old_key)
        transaction.on_commit(lambda: _send(group, message))


def close_group_sockets(group: str, reason: str | None = None) -> None:
    """Close every socket in a channel-layer group (e.g. a revoked display link's boards) after commit."""
    message = {"type": REVOKE_EVENT}
    if reason:
        message["reason"] = reason
    transaction.on_commit(lambda: _send(group, message))


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the write has committed; clients recover through the seq gap rule
        from project.operations.metrics import CHANNEL_LAYER_ERRORS

        CHANNEL_LAYER_ERRORS.labels("group_send").inc()
        log.exception("could not send %s to %s", message.get("type"), group)
