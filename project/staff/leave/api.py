"""Teacher leave: ``/api/teachers/{id}/leave`` (ADR 0014). Thin: parse, call, answer."""

from __future__ import annotations

import uuid

from django.http import HttpResponse

from project.core.auth import AuthedRequest
from project.core.concurrency import if_match_header, with_etag
from project.core.routers import make_router
from project.core.schemas import ErrorOut
from project.staff.leave import selectors, services
from project.staff.leave.schemas import LeaveIn, LeaveOut
from project.staff.models import TeacherLeave

router = make_router(tags=["teachers"])
# The module this router was published from: its OpenAPI operation ids stay (docs/adr/0030).
OPERATION_ID_MODULE = "project.staff.leave_api"

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 412: ErrorOut}


@router.get("/teachers/{uuid:teacher_id}/leave", response={200: list[LeaveOut], **ERRORS})
def list_leave(request: AuthedRequest, teacher_id: uuid.UUID) -> list[TeacherLeave]:
    """GET /api/teachers/{id}/leave: the teacher's leave periods by start date. 404 "Teacher not found"."""
    return list(selectors.leave_list(org=request.auth.org, teacher_id=teacher_id))


@router.post("/teachers/{uuid:teacher_id}/leave", response={201: LeaveOut, **ERRORS})
def create_leave(
    request: AuthedRequest, response: HttpResponse, teacher_id: uuid.UUID, payload: LeaveIn
) -> tuple[int, TeacherLeave]:
    """POST /api/teachers/{id}/leave ``{startDate, endDate, startTime?, endTime?, reason?}``: 201 with the
    leave and its ``ETag``. 400 "Start date is required", "End date is required", "End date must be on
    or after start date", "End time is required with a start time", "Start time is required with an end
    time", "End time must be after start time"; 404 "Teacher not found"."""
    return 201, with_etag(response, services.leave_create(ctx=request.auth, teacher_id=teacher_id, data=payload.model_dump()))


@router.get("/teachers/{uuid:teacher_id}/leave/{uuid:leave_id}", response={200: LeaveOut, **ERRORS})
def get_leave(request: AuthedRequest, response: HttpResponse, teacher_id: uuid.UUID, leave_id: uuid.UUID) -> TeacherLeave:
    """GET one leave period with ``ETag``; 404 "Teacher not found" / "Leave not found"."""
    return with_etag(response, selectors.leave_get(org=request.auth.org, teacher_id=teacher_id, leave_id=leave_id))


@router.put("/teachers/{uuid:teacher_id}/leave/{uuid:leave_id}", response={200: LeaveOut, **ERRORS})
def update_leave(
    request: AuthedRequest, response: HttpResponse, teacher_id: uuid.UUID, leave_id: uuid.UUID, payload: LeaveIn
) -> TeacherLeave:
    """PUT: the same form as POST. ``If-Match`` stale: 412 and nothing changes."""
    leave = services.leave_update(
        ctx=request.auth,
        teacher_id=teacher_id,
        leave_id=leave_id,
        data=payload.model_dump(),
        if_match=if_match_header(request),
    )
    return with_etag(response, leave)


@router.delete("/teachers/{uuid:teacher_id}/leave/{uuid:leave_id}", response={204: None, **ERRORS})
def delete_leave(request: AuthedRequest, teacher_id: uuid.UUID, leave_id: uuid.UUID) -> tuple[int, None]:
    """DELETE: 204. ``If-Match`` stale: 412 and nothing changes. 404 "Teacher not found" / "Leave not
    found"."""
    services.leave_delete(ctx=request.auth, teacher_id=teacher_id, leave_id=leave_id, if_match=if_match_header(request))
    return 204, None
