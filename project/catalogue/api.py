"""Courses, units of competency and campuses (docs/behaviour/units-and-courses.md §2 "Courses", "Units", "Campuses").

Thin router: parse, call one selector or service, answer. Errors (docs/behaviour/errors.md §2): 400
``validation_error``, 404 "Course not found" / "Unit not found" (also for another organization's id),
409 ``duplicate_code`` for a code already used in the organization, 409 ``conflict_state`` when deleting a
row still in use, 412 ``stale`` when ``If-Match`` no longer matches ``updatedAt``.
"""

from __future__ import annotations

from datetime import date as date_type
from datetime import time as time_type
from typing import Annotated
from uuid import UUID

from django.db.models import QuerySet
from django.http import HttpResponse
from ninja import Field, Query

from project.catalogue import selectors, services
from project.catalogue.models import Campus, Course, Room, Unit
from project.catalogue.schemas import CampusOut, CourseIn, CourseOut, RoomIn, RoomOut, RoomType, UnitIn, UnitOut
from project.core.auth import AuthedRequest, admin_auth
from project.core.concurrency import if_match_header, with_etag
from project.core.refs import OrgRef, OrgRefs
from project.core.routers import make_router
from project.core.schemas import CamelSchema, ErrorOut
from project.timetabling.models import TimetableSession

router = make_router(tags=["catalogue"])

ERRORS = {400: ErrorOut, 404: ErrorOut, 409: ErrorOut, 412: ErrorOut}


# --- courses ---------------------------------------------------------------------------------------


@router.get("/courses", response=list[CourseOut])
def list_courses(request: AuthedRequest) -> QuerySet[Course]:
    """All courses of the organization, ordered by code (one query)."""
    return selectors.course_list(org=request.auth.org)


@router.get("/courses/{uuid:course_id}", response={200: CourseOut, 404: ErrorOut})
def get_course(request: AuthedRequest, course_id: UUID, response: HttpResponse) -> Course:
    """One course; sends ``ETag``. 404 "Course not found"."""
    return with_etag(response, selectors.course_get(org=request.auth.org, course_id=course_id))


@router.post("/courses", response={201: CourseOut, **ERRORS})
def create_course(request: AuthedRequest, payload: CourseIn) -> tuple[int, Course]:
    """Create a course: code (max 20, unique in the organization), name, level, description, isActive."""
    return 201, services.course_create(ctx=request.auth, data=payload)


@router.put("/courses/{uuid:course_id}", response={200: CourseOut, **ERRORS})
def update_course(request: AuthedRequest, course_id: UUID, payload: CourseIn, response: HttpResponse) -> Course:
    """Replace a course (body as POST). Honours ``If-Match`` (412 when stale); sends the new ``ETag``."""
    course = services.course_update(ctx=request.auth, course_id=course_id, data=payload, if_match=if_match_header(request))
    return with_etag(response, course)


@router.delete("/courses/{uuid:course_id}", response={204: None, 404: ErrorOut, 409: ErrorOut})
def delete_course(request: AuthedRequest, course_id: UUID) -> tuple[int, None]:
    """Delete a course: 204; 409 while block groups use it."""
    services.course_delete(ctx=request.auth, course_id=course_id)
    return 204, None


# --- units -----------------------------------------------------------------------------------------


class UnitFilters(CamelSchema):
    search: Annotated[str | None, Field(max_length=100)] = None
    course_id: Annotated[UUID | None, OrgRef(Course, "Course")] = None


@router.get("/units", response=list[UnitOut])
def list_units(request: AuthedRequest, filters: Query[UnitFilters]) -> QuerySet[Unit]:
    """Units of competency of the organization, ordered by code (one query). ``search``: code or name
    contains it (any case); ``courseId``: the units of the study plans assigned to the block groups of that
    course (its qualification; ADR 0018). No parameter: every unit."""
    return selectors.unit_list(org=request.auth.org, search=filters.search, course_id=filters.course_id)


@router.get("/units/{uuid:unit_id}", response={200: UnitOut, 404: ErrorOut})
def get_unit(request: AuthedRequest, unit_id: UUID, response: HttpResponse) -> Unit:
    """One unit; sends ``ETag``. 404 "Unit not found"."""
    return with_etag(response, selectors.unit_get(org=request.auth.org, unit_id=unit_id))


@router.post("/units", response={201: UnitOut, **ERRORS})
def create_unit(request: AuthedRequest, payload: UnitIn) -> tuple[int, Unit]:
    """Create a unit: code (max 20, unique in the organization), name, description, nominalHours (integer,
    at least 1), isCore, prerequisites."""
    return 201, services.unit_create(ctx=request.auth, data=payload)


@router.put("/units/{uuid:unit_id}", response={200: UnitOut, **ERRORS})
def update_unit(request: AuthedRequest, unit_id: UUID, payload: UnitIn, response: HttpResponse) -> Unit:
    """Replace a unit (body as POST). Honours ``If-Match`` (412 when stale); sends the new ``ETag``."""
    unit = services.unit_update(ctx=request.auth, unit_id=unit_id, data=payload, if_match=if_match_header(request))
    return with_etag(response, unit)


@router.delete("/units/{uuid:unit_id}", response={204: None, 404: ErrorOut, 409: ErrorOut})
def delete_unit(request: AuthedRequest, unit_id: UUID) -> tuple[int, None]:
    """Delete a unit: 204; 409 while study plans or timetable sessions use it."""
    services.unit_delete(ctx=request.auth, unit_id=unit_id)
    return 204, None


# --- campuses --------------------------------------------------------------------------------------


@router.get("/campuses", response=list[CampusOut])
def list_campuses(request: AuthedRequest) -> QuerySet[Campus]:
    """Active campuses of the organization ordered by name: ``[{id, name, abbreviation}]``."""
    return selectors.campus_list(org=request.auth.org)


# --- rooms (ADR 0019) ----------------------------------------------------------------------


class RoomFilters(CamelSchema):
    campus_id: Annotated[UUID | None, OrgRef(Campus, "Campus")] = None
    type: RoomType | None = None
    active: bool | None = None


@router.get("/rooms", response=list[RoomOut])
def list_rooms(request: AuthedRequest, filters: Query[RoomFilters]) -> QuerySet[Room]:
    """The organization's rooms by code (readable by every user), filtered by ``campusId``, ``type`` and
    ``active`` when given; each with its campus and ``sessionCount``. One query."""
    return selectors.room_list(org=request.auth.org, campus_id=filters.campus_id, type=filters.type, active=filters.active)


class AvailabilityQuery(CamelSchema):
    date: date_type
    start_time: time_type
    end_time: time_type
    exclude_session_id: Annotated[UUID | None, OrgRef(TimetableSession, "Timetable session")] = None


class RoomAvailabilityOut(CamelSchema):
    room_id: UUID
    code: str
    free: bool
    booked_by: str | None


@router.get("/rooms/availability", response={200: list[RoomAvailabilityOut], 400: ErrorOut})
def room_availability(request: AuthedRequest, query: Query[AvailabilityQuery]) -> list[dict[str, object]]:
    """Which active rooms are free on ``date`` from ``startTime`` to ``endTime`` (HH:MM:SS), for the room
    pickers (ADR 0019): ``[{roomId, code, free, bookedBy}]``; ``excludeSessionId``: the session being
    edited. 400 when the end is not after the start."""
    from project.core.errors import ValidationFailed

    if query.end_time <= query.start_time:
        raise ValidationFailed.field("endTime", "End time must be after start time")
    return selectors.room_availability(
        org=request.auth.org,
        day=query.date,
        start=query.start_time,
        end=query.end_time,
        exclude_session_id=query.exclude_session_id,
    )


class SessionsAvailabilityIn(CamelSchema):
    """``{sessionIds}``: the sessions a bulk action would move into one room (at most 2,000)."""

    session_ids: Annotated[list[UUID], Field(min_length=1, max_length=2000), OrgRefs(TimetableSession, "Timetable session")]


class RoomSessionsAvailabilityOut(RoomAvailabilityOut):
    busy_for: int


@router.post("/rooms/availability", response={200: list[RoomSessionsAvailabilityOut], 400: ErrorOut})
def room_availability_for_sessions(request: AuthedRequest, payload: SessionsAvailabilityIn) -> list[dict[str, object]]:
    """Which active rooms are free at the times of every listed session (the bulk "Set Room" picker,
    ADR 0019): ``[{roomId, code, free, bookedBy, busyFor}]``, ``busyFor`` the number of listed sessions
    the room is booked against. A read sent as POST because the ids do not fit a URL; writes nothing.
    400 for an empty list, more than 2,000 ids or an id that is not a UUID."""
    return selectors.room_availability_for_sessions(org=request.auth.org, session_ids=payload.session_ids)


@router.get("/rooms/{uuid:room_id}", response={200: RoomOut, 404: ErrorOut})
def get_room(request: AuthedRequest, room_id: UUID, response: HttpResponse) -> Room:
    """One room; sends ``ETag``. 404 "Room not found"."""
    return with_etag(response, selectors.room_get(org=request.auth.org, room_id=room_id))


@router.post("/rooms", response={201: RoomOut, 400: ErrorOut, 404: ErrorOut, 409: ErrorOut}, auth=admin_auth)
def create_room(request: AuthedRequest, payload: RoomIn, response: HttpResponse) -> tuple[int, Room]:
    """Create a room (admin only): 201 with ``ETag``; 409 ``duplicate_code`` when the code names a room
    already (case and spacing ignored); 404 for another organization's campus. Sessions whose room text
    names it are linked to it."""
    room = services.room_create(ctx=request.auth, data=payload)
    return 201, with_etag(response, selectors.room_get(org=request.auth.org, room_id=room.pk))


@router.put(
    "/rooms/{uuid:room_id}", response={200: RoomOut, 400: ErrorOut, 404: ErrorOut, 409: ErrorOut, 412: ErrorOut}, auth=admin_auth
)
def update_room(request: AuthedRequest, room_id: UUID, payload: RoomIn, response: HttpResponse) -> Room:
    """Replace a room (admin only; body as POST). ``If-Match`` stale: 412 and nothing changes. Its
    sessions follow a new code."""
    services.room_update(ctx=request.auth, room_id=room_id, data=payload, if_match=if_match_header(request))
    return with_etag(response, selectors.room_get(org=request.auth.org, room_id=room_id))


@router.delete("/rooms/{uuid:room_id}", response={204: None, 404: ErrorOut, 409: ErrorOut}, auth=admin_auth)
def delete_room(request: AuthedRequest, room_id: UUID) -> tuple[int, None]:
    """Delete a room (admin only): 204; 409 while sessions name it (make it inactive instead)."""
    services.room_delete(ctx=request.auth, room_id=room_id)
    return 204, None
