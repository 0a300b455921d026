"""The routing details of ``timetable_session`` change events, registered with the write unit by this app
(``project.core.changes.use_routing``, docs/adr/0028): the campuses of the written sessions (routing for
campus-scoped wall displays) and the sessions as written and as they were before the write (``sessions``
and ``before``: :class:`project.core.changes.ChangeEventSession` JSON objects)."""

from __future__ import annotations

import json
from typing import Any

from project.core.changes import GROUP_ID_ACTIONS, MAX_SESSION_DETAILS
from project.core.responses import json_dumps
from project.planning.models import BlockGroup
from project.timetabling import selectors
from project.timetabling.models import TimetableSession

_DETAIL_FIELDS = (
    "id",
    "block_group_id",
    "teacher_id",
    "room",
    "actual_date",
    "block_group__campus_id",
    "room_record_id",
    "unit_id",
    "actual_hours",
    "status",
)


def _detail(row: tuple) -> dict:
    """One ``sessions`` / ``before`` entry (:class:`ChangeEventSession`'s JSON) from a row of ``_DETAIL_FIELDS``."""
    i, g, t, room, d, _c, r, u, h, status = row
    return {
        "id": str(i),
        "blockGroupId": str(g),
        "teacherId": str(t) if t else None,
        "room": room or "",
        "roomId": str(r) if r else None,
        "date": d.isoformat() if d else None,
        "unitId": str(u),
        "hours": float(h),
        "status": status,
    }


def sessions_before(ids: list[str]) -> list[dict]:
    """The sessions ``ids`` as they are now (before the write's body), in the shape of ``sessions``; rows
    that do not exist are absent (one query). ValidationError for ids that are not UUIDs."""
    rows = TimetableSession.objects.unscoped().filter(id__in=ids).values_list(*_DETAIL_FIELDS)
    return [_detail(row) for row in rows]


def session_routing(ids: list[str], action: str) -> tuple[list[Any], list[dict] | None]:
    """The campuses of the written rows and their ``sessions`` entries (None when more than
    ``MAX_SESSION_DETAILS`` or when the ids are a block group's: a schedule generated or cleared), read
    after commit (one query). ValidationError for ids that are not UUIDs."""
    if action in GROUP_ID_ACTIONS:
        # A schedule generated or cleared: the ids are the block group's; every list of it refetches.
        return list(BlockGroup.objects.unscoped().filter(id__in=ids).values_list("campus_id", flat=True)), None
    rows = list(TimetableSession.objects.unscoped().filter(id__in=ids).values_list(*_DETAIL_FIELDS))
    details = [_detail(row) for row in rows] if len(ids) <= MAX_SESSION_DETAILS else None
    return [row[5] for row in rows], details


def session_event_rows(org: Any, ids: list[str]) -> list[dict[str, Any]]:
    """The event's ``rows`` (ADR 0032): the written sessions as ``GET /api/timetables?ids=`` answers them
    (``selectors.session_list`` with ``ids``, the same call), JSON-ready (ids and dates as text, hours as
    numbers). Rows no longer there are absent. ValidationError for ids that are not UUIDs."""
    return json.loads(json_dumps(selectors.session_list(org=org, ids=ids)))
