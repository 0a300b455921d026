"""Sending on the channel layer: the transport of change events and of socket control messages.

The project's writes go through the write unit ``project.core.changes.org_change`` (docs/adr/0028), which
raises the organization's seq, records the write's activity and, after commit, hands the change event to
:func:`send_change`, registered as its transport by ``realtime.apps`` (the project imports nothing of
``realtime`` for it). This module sends ``{"type": "change.event", "event": {...}}`` to the organization's
group; sending never fails the write: a channel-layer error is logged, and clients recover through the
seq-gap rule. :func:`send_to_group` carries the socket control messages of ``project.core.sockets``
(close, re-scope, re-key), registered there the same way.

``ENTITIES``, ``ACTIONS``, ``emit_change`` and the socket controls are core's, named here for the tests
that import them from this module; the project's apps import them from ``project.core``.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from project.core.changes import ACTIONS, CHANGE_EVENT, ENTITIES, emit_change
from project.core.sockets import (
    ACCESS_EVENT,
    REKEY_EVENT,
    REVOKE_EVENT,
    close_group_sockets,
    close_session_sockets,
    close_user_sockets,
    org_group,
    rekey_session_sockets,
    rescope_user_sockets,
    session_group,
    user_group,
)

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
    "send_to_group",
    "session_group",
    "user_group",
]

log = logging.getLogger(__name__)


def send_change(org_id: str, event: dict[str, Any]) -> None:
    """Send a committed change ``event`` (the wire object of ``project.core.changes.ChangeEvent`` plus its
    routing data ``campusIds``) to the sockets of organization ``org_id``; each socket forwards what it
    may see of it (``realtime.scoping``). Called after commit by the write unit."""
    _send(org_group(org_id), {"type": CHANGE_EVENT, "event": event})


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Send a socket control message of ``project.core.sockets`` (close, re-scope, re-key) to ``group``;
    registered with ``project.core.sockets.use_sender``, called after commit."""
    _send(group, message)


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
