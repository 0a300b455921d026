"""Timetables, schedule generation, Excel import and calendar feeds (docs/behaviour/generation.md; docs/behaviour/conflicts.md §1; docs/behaviour/terms-and-holidays.md; docs/behaviour/concurrency.md §2).

Thin router: parse, call one service or selector, answer camelCase.
"""

from __future__ import annotations

from uuid import UUID

from django.http import HttpRequest, HttpResponse
from ninja import File, Query, UploadedFile

from project.accounts.models import Organization
from project.core.auth import AuthedRequest
from project.core.concurrency import if_match_header, set_etag
from project.core.response_cache import cached_json
from project.core.responses import json_response
from project.core.routers import make_router
from project.core.schemas import ErrorOut
from project.core.tenancy import get_in_org
from project.planning.models import BlockGroup
from project.staff.models import Teacher
from project.timetabling import ical, importer, selectors, services
from project.timetabling.conflicts import Conflict
from project.timetabling.models import CalendarFeed, TimetableSession
from project.timetabling.schemas import (
    BulkAllocateIn,
    BulkAllocateOut,
    BulkRoomIn,
    BulkRoomOut,
    CalendarFeedIn,
    CalendarFeedOut,
    ConflictOut,
    ConflictQuery,
    IcalQuery,
    ImportOut,
    ScheduleClearedOut,
    ScheduleIn,
    ScheduleOut,
    SessionIn,
    SessionListQuery,
    SessionOut,
    SessionWriteOut,
)

router = make_router(tags=["timetabling"])
ERRORS = {400: ErrorOut, 404: ErrorOut}
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


# ------------------------------------------------------------------------------------ schedule


@router.post("/block-groups/{uuid:block_group_id}/schedule", response={200: ScheduleOut, **ERRORS})
def schedule_block_group(request: AuthedRequest, block_group_id: str, payload: ScheduleIn) -> dict[str, object]:
    """Generate the group's sessions from its study plans (docs/behaviour/generation.md).

    Body: {sessionTemplates: [{startTime, endTime, duration (hours)}], startDate?, room?, notes?,
    startNextUnitInNewWeek?}. Answer: {sessionsCreated, hoursScheduled, startDate, endDate,
    lastTeachingDate, unitsScheduled, holidaysSkipped: [{date, name}], warnings: [str]}.
    400: not planned/active, no study plan, no preferred day, template errors, longer than 3 years.
    """
    return services.schedule_block_group(ctx=request.auth, block_group_id=block_group_id, data=payload)


@router.delete("/block-groups/{uuid:block_group_id}/schedule", response={200: ScheduleClearedOut, **ERRORS})
def clear_block_group_schedule(request: AuthedRequest, block_group_id: str) -> dict[str, object]:
    """Delete the group's sessions that are not completed; answers {sessionsDeleted, message}."""
    count = services.clear_schedule(ctx=request.auth, block_group_id=block_group_id)
    return {"sessions_deleted": count, "message": f"{count} session(s) deleted"}


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

    if ids is not None:  # a live screen's patch of the rows a change named: never the same twice
        return json_response(build())
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
    )


def _written(request: AuthedRequest, session: TimetableSession, warnings: list[Conflict]) -> dict[str, object]:
    row = selectors.session_rows(
        org=request.auth.org, sessions=[selectors.session_get(org=request.auth.org, session_id=session.id)]
    )[0]
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
    ctx = request.auth
    return selectors.conflict_list(
        org=ctx.org,
        start=filters.start,
        end=filters.end,
        block_group_id=filters.block_group_id,
        teacher_id=filters.teacher_id,
        today=selectors.user_today(ctx.user, ctx.org),
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
    stats = services.import_sessions(ctx=request.auth, upload=file)
    return {"message": f"Imported {stats['sessions_created']} session(s)", "stats": stats}


@router.get("/timetables/ical")
def session_calendar(request: AuthedRequest, filters: Query[IcalQuery]) -> HttpResponse:
    """text/calendar of a teacher's (?teacherId=) or a block group's (?blockGroupId=) sessions."""
    ctx = request.auth
    return _calendar_response(
        ctx.org, teacher_id=filters.teacher_id, block_group_id=filters.block_group_id, room_id=filters.room_id
    )


@router.put("/timetables/bulk-allocate", response={200: BulkAllocateOut, 400: ErrorOut, 404: ErrorOut, 409: dict})
def bulk_allocate(request: AuthedRequest, payload: BulkAllocateIn) -> dict[str, object]:
    """Give one teacher every listed session, all or nothing (409 with the conflicts on any hard one)."""
    ids, warnings = services.bulk_allocate(ctx=request.auth, session_ids=payload.session_ids, teacher_id=payload.teacher_id)
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
    ids, room, warnings = services.bulk_set_room(ctx=request.auth, session_ids=payload.session_ids, room_id=payload.room_id)
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


# ------------------------------------------------------------------------------ calendar feeds


def _calendar_response(
    org: Organization,
    *,
    teacher_id: UUID | str | None = None,
    block_group_id: UUID | str | None = None,
    room_id: UUID | str | None = None,
) -> HttpResponse:
    if sum(x is not None for x in (teacher_id, block_group_id, room_id)) != 1:
        from project.core.errors import ValidationFailed

        raise ValidationFailed.field("teacherId", "Choose either a teacher or a block group")
    if teacher_id is not None:
        target = get_in_org(Teacher, org, teacher_id, "Teacher")
        name = f"{target.full_name} timetable"
    elif block_group_id is not None:
        target = get_in_org(BlockGroup, org, block_group_id, "Block group")
        name = f"{target.code} {target.name} timetable"
    else:
        from project.catalogue.models import Room

        target = get_in_org(Room, org, room_id, "Room")
        name = f"Room {target.code} timetable"
    sessions = selectors.sessions_for_calendar(org=org, teacher_id=teacher_id, block_group_id=block_group_id, room_id=room_id)
    body = ical.build_calendar(org=org, sessions=sessions, name=name)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="timetable.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response


def _feed_dict(request: HttpRequest, feed: CalendarFeed) -> dict[str, object]:
    if feed.teacher_id:
        target = feed.teacher.full_name
    elif feed.block_group_id:
        target = f"{feed.block_group.code} {feed.block_group.name}"
    else:
        target = f"Room {feed.room.code}"
    return {
        "id": feed.id,
        "url": request.build_absolute_uri(f"/api/calendar-feeds/{feed.token}.ics"),
        "token": feed.token,
        "teacher_id": feed.teacher_id,
        "block_group_id": feed.block_group_id,
        "room_id": feed.room_id,
        "name": target,
        "created_at": feed.created_at,
        "last_accessed_at": feed.last_accessed_at,
    }


@router.post("/calendar-feeds", response={201: CalendarFeedOut, 400: ErrorOut, 404: ErrorOut})
def create_feed(request: AuthedRequest, payload: CalendarFeedIn) -> tuple[int, dict[str, object]]:
    """A secret subscription URL ({id, url, token, ...}) for a teacher or a block group; keep it private."""
    feed = services.feed_create(
        ctx=request.auth, teacher_id=payload.teacher_id, block_group_id=payload.block_group_id, room_id=payload.room_id
    )
    return 201, _feed_dict(request, feed)


@router.get("/calendar-feeds", response=list[CalendarFeedOut])
def list_feeds(request: AuthedRequest) -> list[dict[str, object]]:
    """The signed-in user's feeds that are not revoked."""
    ctx = request.auth
    return [_feed_dict(request, f) for f in selectors.feed_list(org=ctx.org, user=ctx.user)]


@router.delete("/calendar-feeds/{uuid:feed_id}", response={204: None, 404: ErrorOut})
def revoke_feed(request: AuthedRequest, feed_id: str) -> tuple[int, None]:
    """Revoke a feed: its URL answers 404 from now on."""
    services.feed_revoke(ctx=request.auth, feed_id=feed_id)
    return 204, None


@router.get("/calendar-feeds/{slug:token}.ics", auth=None)
def public_feed(request: HttpRequest, token: str) -> HttpResponse:
    """Public text/calendar for calendar clients (no session; the token is the secret). 404 when the
    token is unknown or revoked, its owner inactive, or the organization inactive."""
    feed = selectors.feed_for_token(token)
    response = _calendar_response(
        feed.organization, teacher_id=feed.teacher_id, block_group_id=feed.block_group_id, room_id=feed.room_id
    )
    services.feed_touch(feed)
    return response
