"""Sending on the channel layer: the transport of change events and of socket control messages.

The project's writes go through the write unit ``project.core.changes.org_change`` (docs/adr/0028), which
raises the organization's seq, records the write's activity and, after commit, hands the change event to
:func:`send_change`, registered as its transport by ``realtime.apps`` (the project imports nothing of
``realtime`` for it). This module sends ``{"type": "change.event", "event": {...}}`` to the organization's
group; sending never fails the write: a channel-layer error is logged, and clients recover through the
seq-gap rule. The other functions close, re-scope or re-key sockets after commit.

``ENTITIES``, ``ACTIONS`` and ``emit_change`` are the write unit's, named here for the tests that import
them from this module.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from project.core.changes import ACTIONS, CHANGE_EVENT, ENTITIES, emit_change

__all__ = [
    "ACTIONS",
    "ACCESS_EVENT",
    "CHANGE_EVENT",
    "ENTITIES",
    "REKEY_EVENT",
    "REVOKE_EVENT",
    "close_group_sockets",
    "close_session_sockets",
    "close_user_sockets",
    "emit_change",
    "org_group",
    "rekey_session_sockets",
    "rescope_user_sockets",
    "send_change",
    "session_group",
    "user_group",
]

log = logging.getLogger(__name__)

REVOKE_EVENT = "session.revoke"


def org_group(org_id: object) -> str:
    return f"org.{org_id}"


def user_group(user_id: object) -> str:
    return f"user.{user_id}"


def session_group(session_key: str) -> str:
    """The sockets of one browser session (the key itself is a secret: only its digest names the group)."""
    import hashlib

    return "session." + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def send_change(org_id: str, event: dict[str, Any]) -> None:
    """Send a committed change ``event`` (the wire object of ``project.core.changes.ChangeEvent`` plus its
    routing data ``campusIds``) to the sockets of organization ``org_id``; each socket forwards what it
    may see of it (``realtime.scoping``). Called after commit by the write unit."""
    _send(org_group(org_id), {"type": CHANGE_EVENT, "event": event})


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
