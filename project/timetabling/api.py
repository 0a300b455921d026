"""Timetable sessions: list, detail, writes, bulk writes, conflicts, the Excel template and import, the iCalendar
export (docs/behaviour/generation.md §1; docs/behaviour/reports.md §5; docs/behaviour/conflicts.md §1; docs/behaviour/terms-and-holidays.md; docs/behaviour/concurrency.md §2). Schedule generation and calendar feeds have their own routers.

Thin router: parse, call one service or selector, answer camelCase.
"""

from __future__ import annotations

import functools

from django.http import HttpRequest, HttpResponse
from ninja import File, Query, UploadedFile

from project.core.auth import AuthedRequest
from project.core.changes import sent_row
from project.core.concurrency import if_match_header, set_etag
from project.core.response_cache import cached_json, kept_value
from project.core.responses import json_response
from project.core.routers import make_router
from project.core.schemas import ErrorOut
from project.timetabling import importer, selectors, services
from project.timetabling.conflicts import Conflict
from project.timetabling.feeds.api import calendar_response
from project.timetabling.importer import services as importer_services
from project.timetabling.importer.schemas import ImportOut
from project.timetabling.kept import timetable_keys
from project.timetabling.models import TimetableSession
from project.timetabling.schemas import (
    BulkAllocateIn,
    BulkAllocateOut,
    BulkRoomIn,
    BulkRoomOut,
    ConflictOut,
    ConflictQuery,
    IcalQuery,
    SessionIn,
    SessionListQuery,
    SessionOut,
    SessionWriteOut,
)

router = make_router(tags=["timetabling"])
ERRORS = {400: ErrorOut, 404: ErrorOut}
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


# ---------------------------------------------------------------------------------- timetables


@router.get("/timetables", response=list[SessionOut])
def list_sessions(request: AuthedRequest, filters: Query[SessionListQuery]) -> HttpResponse:
    """Sessions by date, with unit, blockGroup, teacher and `conflicts` (types, computed at read time).

    Query: blockGroupId, teacherId, roomId (a recorded room's sessions; ADR 0019), hidePast=true
    (actualDate >= today in the user's timezone,
    default Australia/Melbourne), ids=<comma-separated session ids, at most 1,000> (just those rows of
    the organization, same shape: a live screen patches the rows a change event named; ADR 0008).
    Fixed number of queries whatever the row count.
    """
    ctx = request.auth
    today = selectors.user_today(ctx.user, ctx.org)
    ids = filters.session_ids()

    def build() -> list[dict[str, object]]:
        rows = selectors.session_list(
            org=ctx.org,
            block_group_id=filters.block_group_id,
            teacher_id=filters.teacher_id,
            hide_past=filters.hide_past,
            today=today,
            ids=ids,
            room_id=filters.room_id,
        )
        filters.confirm_refs(ctx.org, found=bool(rows))  # another organization's filter id: 404 (ADR 0001)
        return rows

    if ids is not None:
        # A live screen's patch of the rows a change named: every open screen showing them asks for the
        # same rows at once after the change, so they are read once per change in this process (ADR 0025).
        params = {
            "ids": ",".join(sorted(str(i) for i in ids)),
            "blockGroupId": filters.block_group_id,
            "teacherId": filters.teacher_id,
            "roomId": filters.room_id,
            "today": today if filters.hide_past else None,
        }
        return json_response(kept_value(ctx.org, "timetable-rows", params, build))
    group = filters.block_group_id if filters.teacher_id is None and filters.room_id is None else None
    return cached_json(
        request,
        "timetables",
        {
            "blockGroupId": filters.block_group_id,
            "teacherId": filters.teacher_id,
            "roomId": filters.room_id,
            "today": today if filters.hide_past else None,
        },
        build,
        # A block group's timetable is kept across changes that touch none of its rows' neighbours (ADR 0034).
        depends_on=None if group is None else functools.partial(timetable_keys, group),
    )


def _written(request: AuthedRequest, session: TimetableSession, warnings: list[Conflict]) -> dict[str, object]:
    """The written session's row with the write's ``warnings``: the row its change event carried to the
    screens (``sent_row``, read once after commit; ADR 0032), else read here."""
    sent = sent_row(session.id)
    row: dict[str, object] = (
        dict(sent)
        if sent is not None
        else selectors.session_rows(
            org=request.auth.org, sessions=[selectors.session_get(org=request.auth.org, session_id=session.id)]
        )[0]
    )
    row["warnings"] = [w.to_dict() for w in warnings]
    return row


@router.post("/timetables", response={201: SessionWriteOut, 400: ErrorOut, 404: ErrorOut, 409: dict})
def create_session(request: AuthedRequest, payload: SessionIn) -> tuple[int, dict[str, object]]:
    """Create a session. 409 {type: conflict, conflicts} on a hard conflict (nothing written); soft
    conflicts are saved and listed in `warnings`."""
    session, warnings = services.session_create(ctx=request.auth, data=payload)
    return 201, _written(request, session, warnings)


@router.get("/timetables/conflicts", response=list[ConflictOut])
def list_conflicts(request: AuthedRequest, filters: Query[ConflictQuery]) -> list[dict[str, object]]:
    """Conflicts {type, severity, sessionIds, message, date} of sessions dated in [start, end]
    (default today .. +365 days), optionally of one block group or teacher (docs/behaviour/conflicts.md §1)."""
    # Built once per change of the organization for every screen asking the same question (kept_value,
    # ADR 0025): after a change each open timetable of the group re-reads its conflicts at once.
    ctx = request.auth
    today = selectors.user_today(ctx.user, ctx.org)
    params = {
        "start": filters.start,
        "end": filters.end,
        "blockGroup": filters.block_group_id,
        "teacher": filters.teacher_id,
        "today": today,
    }
    return kept_value(
        ctx.org,
        "conflicts",
        params,
        lambda: selectors.conflict_list(
            org=ctx.org,
            start=filters.start,
            end=filters.end,
            block_group_id=filters.block_group_id,
            teacher_id=filters.teacher_id,
            today=today,
        ),
    )


@router.get("/timetables/template")
def download_template(request: HttpRequest) -> HttpResponse:
    """The xlsx import template: Sessions sheet (header, example row, drop-downs) and Instructions."""
    response = HttpResponse(importer.build_template(), content_type=XLSX)
    response["Content-Disposition"] = 'attachment; filename="timetable-import-template.xlsx"'
    return response


@router.post("/timetables/import", response={200: ImportOut, 400: ErrorOut})
def import_sessions(request: AuthedRequest, file: UploadedFile = File(None)) -> dict[str, object]:
    """Import sessions from .xlsx/.xls (multipart field `file`), all or nothing.

    400 with errors [{path: ['rows', row, column], message, row}] when any row is wrong.
    Answer {message, stats: {sessionsCreated, blockGroupsCreated: [codes], unitsCreated: [codes]}}.
    """
    stats = importer_services.session_import(ctx=request.auth, upload=file)
    return {"message": f"Imported {stats['sessions_created']} session(s)", "stats": stats}


@router.get("/timetables/ical")
def session_calendar(request: AuthedRequest, filters: Query[IcalQuery]) -> HttpResponse:
    """text/calendar of a teacher's (?teacherId=) or a block group's (?blockGroupId=) sessions."""
    ctx = request.auth
    return calendar_response(
        ctx.org, teacher_id=filters.teacher_id, block_group_id=filters.block_group_id, room_id=filters.room_id
    )


@router.put("/timetables/bulk-allocate", response={200: BulkAllocateOut, 400: ErrorOut, 404: ErrorOut, 409: dict})
def bulk_allocate(request: AuthedRequest, payload: BulkAllocateIn) -> dict[str, object]:
    """Give one teacher every listed session, all or nothing (409 with the conflicts on any hard one)."""
    ids, warnings = services.session_bulk_allocate(
        ctx=request.auth, session_ids=payload.session_ids, teacher_id=payload.teacher_id
    )
    return {
        "updated": len(ids),
        "session_ids": ids,
        "teacher_id": payload.teacher_id,
        "warnings": [w.to_dict() for w in warnings],
    }


@router.put("/timetables/bulk-room", response={200: BulkRoomOut, 400: ErrorOut, 404: ErrorOut, 409: dict})
def bulk_room(request: AuthedRequest, payload: BulkRoomIn) -> dict[str, object]:
    """Put every listed session in one room, all or nothing (ADR 0019): ``{updated, sessionIds, roomId,
    room, warnings}``; 409 with the conflicts when the room is booked at any of their times."""
    ids, room, warnings = services.session_bulk_set_room(
        ctx=request.auth, session_ids=payload.session_ids, room_id=payload.room_id
    )
    return {
        "updated": len(ids),
        "session_ids": ids,
        "room_id": room.pk,
        "room": room.code,
        "warnings": [w.to_dict() for w in warnings],
    }


@router.get("/timetables/{uuid:session_id}", response={200: SessionOut, 404: ErrorOut})
def get_session(request: AuthedRequest, session_id: str, response: HttpResponse) -> dict[str, object]:
    """One session (ETag: its updatedAt)."""
    session = selectors.session_get(org=request.auth.org, session_id=session_id)
    set_etag(response, session)
    return selectors.session_rows(org=request.auth.org, sessions=[session])[0]


@router.put("/timetables/{uuid:session_id}", response={200: SessionWriteOut, 400: ErrorOut, 404: ErrorOut, 409: dict, 412: dict})
def update_session(request: AuthedRequest, session_id: str, payload: SessionIn, response: HttpResponse) -> dict[str, object]:
    """Update a session: If-Match (412 when stale), 409 on a new hard conflict, soft ones in `warnings`."""
    session, warnings = services.session_update(
        ctx=request.auth, session_id=session_id, data=payload, if_match=if_match_header(request)
    )
    set_etag(response, session)
    return _written(request, session, warnings)


@router.delete("/timetables/{uuid:session_id}", response={204: None, 404: ErrorOut})
def delete_session(request: AuthedRequest, session_id: str) -> tuple[int, None]:
    """Delete a session."""
    services.session_delete(ctx=request.auth, session_id=session_id)
    return 204, None
