"""Calendar feeds' router: ``/api/calendar-feeds`` (create, list, revoke) and the public
``/api/calendar-feeds/{token}.ics``; :func:`calendar_response` also answers ``GET /api/timetables/ical``."""

from __future__ import annotations

from uuid import UUID

from django.http import HttpRequest, HttpResponse

from project.accounts.models import Organization
from project.core.auth import AuthedRequest
from project.core.routers import make_router
from project.core.schemas import ErrorOut
from project.core.tenancy import get_in_org
from project.planning.models import BlockGroup
from project.staff.models import Teacher
from project.timetabling import selectors
from project.timetabling.feeds import ical
from project.timetabling.feeds import selectors as feeds_selectors
from project.timetabling.feeds import services as feeds_services
from project.timetabling.feeds.schemas import CalendarFeedIn, CalendarFeedOut
from project.timetabling.models import CalendarFeed

router = make_router(tags=["timetabling"])
# The module this router was published from: its OpenAPI operation ids stay (docs/adr/0030).
OPERATION_ID_MODULE = "project.timetabling.api"


# ------------------------------------------------------------------------------ calendar feeds


def calendar_response(
    org: Organization,
    *,
    teacher_id: UUID | str | None = None,
    block_group_id: UUID | str | None = None,
    room_id: UUID | str | None = None,
) -> HttpResponse:
    """The text/calendar answer of one teacher's, block group's or room's sessions (exactly one id given;
    400 at ``teacherId`` otherwise, 404 for an id not of ``org``), cached privately for 5 minutes. Used by
    ``GET /api/timetables/ical`` and the public feed."""
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
    sessions = selectors.session_list_for_calendar(org=org, teacher_id=teacher_id, block_group_id=block_group_id, room_id=room_id)
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
    feed = feeds_services.feed_create(
        ctx=request.auth, teacher_id=payload.teacher_id, block_group_id=payload.block_group_id, room_id=payload.room_id
    )
    return 201, _feed_dict(request, feed)


@router.get("/calendar-feeds", response=list[CalendarFeedOut])
def list_feeds(request: AuthedRequest) -> list[dict[str, object]]:
    """The signed-in user's feeds that are not revoked."""
    ctx = request.auth
    return [_feed_dict(request, f) for f in feeds_selectors.feed_list(org=ctx.org, user=ctx.user)]


@router.delete("/calendar-feeds/{uuid:feed_id}", response={204: None, 404: ErrorOut})
def revoke_feed(request: AuthedRequest, feed_id: str) -> tuple[int, None]:
    """Revoke a feed: its URL answers 404 from now on."""
    feeds_services.feed_revoke(ctx=request.auth, feed_id=feed_id)
    return 204, None


@router.get("/calendar-feeds/{slug:token}.ics", auth=None)
def public_feed(request: HttpRequest, token: str) -> HttpResponse:
    """Public text/calendar for calendar clients (no session; the token is the secret). 404 when the
    token is unknown or revoked, its owner inactive, or the organization inactive."""
    feed = feeds_selectors.feed_get_by_token(token)
    response = calendar_response(
        feed.organization, teacher_id=feed.teacher_id, block_group_id=feed.block_group_id, room_id=feed.room_id
    )
    feeds_services.feed_touch(feed)
    return response
