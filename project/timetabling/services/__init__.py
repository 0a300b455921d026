"""Writes of timetable sessions: create, update, delete, bulk allocation, schedule generation and
clearing, Excel import, calendar feeds (delivery.md §7, decisions.md §3, §4, §6, §7).

Each write is one ``transaction.atomic()`` and calls ``emit_change`` exactly once, first thing inside
the transaction: its row lock on the organization serialises the organization's writers, so the
conflict check that follows sees every committed session and two coordinators cannot both book the
same teacher. A refused write (409, 412, 400) rolls back, event included.
"""

from project.timetabling.services.sessions import (
    ENTITY,
    TWO,
    bulk_allocate,
    bulk_set_room,
    refuse_conflicts,
    session_create,
    session_delete,
    session_update,
)

__all__ = [
    "ENTITY",
    "TWO",
    "bulk_allocate",
    "bulk_set_room",
    "refuse_conflicts",
    "session_create",
    "session_delete",
    "session_update",
]
