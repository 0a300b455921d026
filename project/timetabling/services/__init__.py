"""Writes of timetable sessions: create, update, delete, bulk allocation, schedule generation and
clearing, Excel import, calendar feeds (docs/behaviour/timetables.md §5, docs/behaviour/generation.md §9; docs/behaviour/conflicts.md §1; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md).

Each write is one ``transaction.atomic()`` and calls ``emit_change`` exactly once, first thing inside
the transaction: its row lock on the organization serialises the organization's writers, so the
conflict check that follows sees every committed session and two coordinators cannot both book the
same teacher. A refused write (409, 412, 400) rolls back, event included.
"""

from project.timetabling.services.feeds import (
    feed_create,
    feed_revoke,
    feed_touch,
)
from project.timetabling.services.schedule import (
    clear_schedule,
    schedule_block_group,
)
from project.timetabling.services.sessions import (
    ENTITY,
    NO_DAYS,
    NO_PLAN,
    NOT_SCHEDULABLE,
    SCHEDULABLE,
    TWO,
    bulk_allocate,
    bulk_set_room,
    refuse_conflicts,
    session_create,
    session_delete,
    session_update,
)
from project.timetabling.services.spreadsheet_import import (
    import_sessions,
)

__all__ = [
    "ENTITY",
    "NOT_SCHEDULABLE",
    "NO_DAYS",
    "NO_PLAN",
    "SCHEDULABLE",
    "TWO",
    "bulk_allocate",
    "bulk_set_room",
    "clear_schedule",
    "feed_create",
    "feed_revoke",
    "feed_touch",
    "import_sessions",
    "refuse_conflicts",
    "schedule_block_group",
    "session_create",
    "session_delete",
    "session_update",
]
