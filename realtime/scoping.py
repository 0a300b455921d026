"""What each socket may see of a change event (docs/adr/0007).

- A wall display (``Principal.kind == "display"``) gets only what its board shows: sessions, holidays and
  block groups — of its campus when the link has one and the event says which campuses it touched
  (``campusIds``) — and its own link's events; never ``user``, ``organization``, other links' or
  catalogue events. Its events carry no ``actorId`` or ``origin`` (who changed what is not for a screen in
  a corridor), and no ``rows`` (the written sessions whole, notes included; ADR 0032).
- A signed-in user gets what they may read of the history (:func:`project.history.visibility.may_read`,
  the one rule for sockets and ``/api/activity``, docs/adr/0023): a member gets no admin-only entity
  (``display_link``, other users' ``user`` events; their own ``user`` events still reach them, e.g. TOTP
  turned on in another tab): in its place ``{"seq", "hidden": true}``, so the client's sequence has no gap.
- ``campusIds`` is routing data: no client receives it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from project.history.visibility import ADMIN_ONLY_READ, may_read

if TYPE_CHECKING:  # pragma: no cover
    from realtime.authentication import Principal

DISPLAY_ENTITIES = frozenset({"timetable_session", "holiday", "block_group", "display_link"})
CAMPUS_SCOPED = frozenset({"timetable_session", "block_group"})
ADMIN_ONLY = ADMIN_ONLY_READ  # kept for readers of this module; the rule itself is may_read
HIDDEN_FROM_DISPLAYS = ("actorId", "origin", "campusIds", "rows")  # rows: notes and names a board does not show (ADR 0032)


def event_for(principal: Principal, event: dict) -> dict | None:
    """The event as ``principal`` may receive it, or None when it must not be sent at all."""
    entity = event.get("entity")
    if principal.kind == "display":
        grant = principal.scope if isinstance(principal.scope, dict) else {}
        if entity not in DISPLAY_ENTITIES:
            return None
        out = {k: v for k, v in event.items() if k not in HIDDEN_FROM_DISPLAYS}
        if entity == "display_link":
            own = grant.get("displayLinkId")
            if not own or own not in (event.get("ids") or []):
                return None
            out["ids"] = [own]
            return out
        campus = grant.get("campusId")
        touched = event.get("campusIds")
        if campus and entity in CAMPUS_SCOPED and touched is not None and campus not in touched:
            return None
        return out
    if "campusIds" in event:
        event = {k: v for k, v in event.items() if k != "campusIds"}
    if not may_read(role=principal.role, user_id=principal.user_id, entity=entity, ids=event.get("ids")):
        # Only its place in the sequence: the SPA keeps its seq order without a gap (which would refetch
        # everything) and learns nothing about what changed.
        return {"seq": event.get("seq"), "hidden": True}
    return event
