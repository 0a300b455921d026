"""What the apps may ask of open sockets: close, re-scope or re-key them, after the write commits.

Core names the channel-layer groups (an organization's, a user's, one browser session's) and the control
messages; ``realtime`` carries them: it registers its channel-layer sender with :func:`use_sender` when it
is ready (``realtime.apps``), as it registers the write unit's transport (docs/adr/0028), and its consumers
act on the messages (docs/realtime.md). So the apps import nothing of ``realtime`` (contract
``realtime-transport-only``, .importlinter). Every function here sends after the current transaction
commits: a rolled-back write closes nothing. Without a registered sender (a project without ``realtime``
installed has no sockets) nothing is sent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.db import transaction

REVOKE_EVENT = "session.revoke"
"""Close the sockets of a group; each gets ``session_ended`` ``{reason}`` first when a reason is given."""
ACCESS_EVENT = "access.changed"
"""A user's role changed: their sockets take ``role`` for every later event."""
REKEY_EVENT = "session.rekey"
"""A browser session got a new key: its sockets join ``group`` and remember ``key``."""

Sender = Callable[[str, dict[str, Any]], None]
_sender: Sender | None = None


def use_sender(sender: Sender) -> None:
    """Register the channel-layer sender (``realtime.events.send_to_group``): ``sender(group, message)``."""
    global _sender
    _sender = sender


def org_group(org_id: object) -> str:
    """The sockets of one organization (change events, presence)."""
    return f"org.{org_id}"


def user_group(user_id: object) -> str:
    """The sockets of one user, in every browser."""
    return f"user.{user_id}"


def session_group(session_key: str) -> str:
    """The sockets of one browser session (the key itself is a secret: only its digest names the group)."""
    return "session." + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def _after_commit(group: str, message: dict[str, Any]) -> None:
    def send() -> None:
        if _sender is not None:
            _sender(group, message)

    transaction.on_commit(send)


def close_group_sockets(group: str, reason: str | None = None) -> None:
    """Close every socket in a channel-layer group (e.g. a revoked display link's boards) after commit."""
    message: dict[str, Any] = {"type": REVOKE_EVENT}
    if reason:
        message["reason"] = reason
    _after_commit(group, message)


def close_user_sockets(user_id: object, reason: str | None = "deactivated") -> None:
    """Close every open socket of a user (deactivation), after the current transaction commits; each gets
    ``session_ended`` ``{reason}`` first."""
    close_group_sockets(user_group(user_id), reason=reason)


def close_session_sockets(session_key: str | None, reason: str) -> None:
    """Close the sockets of one browser session (logout there; a password change or deactivation ending
    it), after commit: ``session_ended`` ``{reason}``, then the disconnect packet (docs/realtime.md)."""
    if session_key:
        close_group_sockets(session_group(session_key), reason=reason)


def rescope_user_sockets(user_id: object, role: str) -> None:
    """A user's role changed (whatever wrote it: API, Django admin, shell): after commit their open
    sockets take ``role`` for every later event (an admin demoted to user stops receiving admin-only
    events) and are told ``access_changed`` ``{role}`` (docs/adr/0023)."""
    _after_commit(user_group(user_id), {"type": ACCESS_EVENT, "role": role})


def rekey_session_sockets(old_key: str | None, new_key: str | None) -> None:
    """A browser session got a new key (Django cycles it on a password change): its sockets follow it
    after commit, so that the heartbeat's re-check and a later logout still find them."""
    if old_key and new_key and old_key != new_key:
        _after_commit(session_group(old_key), {"type": REKEY_EVENT, "group": session_group(new_key), "key": new_key})
