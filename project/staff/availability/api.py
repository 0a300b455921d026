"""Teacher availability: ``/api/teachers/{id}/availability`` (ADR 0027). Thin: parse, call, answer."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpResponse
from ninja import File, Query, UploadedFile

from project.core.auth import AuthedRequest
from project.core.concurrency import if_match_header
from project.core.routers import make_router
from project.core.schemas import CamelSchema, ErrorOut
from project.staff.availability import selectors, services, workbook
from project.staff.availability.schemas import AvailabilityIn, AvailabilityOut, UnavailableOut, UnavailableQuery

router = make_router(tags=["teachers"])
# The module this router was published from: its OpenAPI operation ids stay (docs/adr/0030).
OPERATION_ID_MODULE = "project.staff.availability_api"

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 412: ErrorOut}


def _answer(request: AuthedRequest, response: HttpResponse, teacher_id: uuid.UUID) -> dict[str, Any]:
    """The teacher's availability with its ``ETag`` (the version an ``If-Match`` compares).

    Any: the ``AvailabilityOut`` shape's values."""
    out = selectors.availability_get(org=request.auth.org, teacher_id=teacher_id)
    response["ETag"] = f'"{out["updated_at"].isoformat()}"'
    return out


@router.get("/teachers/{uuid:teacher_id}/availability", response={200: AvailabilityOut, **ERRORS})
def get_availability(request: AuthedRequest, response: HttpResponse, teacher_id: uuid.UUID) -> dict[str, Any]:
    """GET /api/teachers/{id}/availability: the weekly pattern, preferences, date-range variants, limits
    and campuses, with ``ETag``. A teacher never painted answers the form's word's pattern
    (``custom`` false). 404 "Teacher not found"."""
    return _answer(request, response, teacher_id)


@router.put("/teachers/{uuid:teacher_id}/availability", response={200: AvailabilityOut, **ERRORS})
def put_availability(
    request: AuthedRequest, response: HttpResponse, teacher_id: uuid.UUID, payload: AvailabilityIn
) -> dict[str, Any]:
    """PUT /api/teachers/{id}/availability: replace it all (the body of ``AvailabilityIn``); the form's
    ``availability`` word follows the windows. 400 with the field's message (e.g. "End time must be after
    start time" at ``["windows", 0, "end"]``); 404 "Teacher not found", "Campus not found"; 412 when
    ``If-Match`` is stale (nothing changes). Emits ``teacher updated``; undoable from the history."""
    services.availability_put(
        ctx=request.auth, teacher_id=teacher_id, data=payload.model_dump(), if_match=if_match_header(request)
    )
    return _answer(request, response, teacher_id)


@router.get("/teachers/unavailable", response={200: list[UnavailableOut], **ERRORS})
def unavailable(request: AuthedRequest, query: Query[UnavailableQuery]) -> list[dict[str, Any]]:
    """GET /api/teachers/unavailable?start=YYYY-MM-DD&end=YYYY-MM-DD[&teacherId=...]: for the planner board
    and the allocation grid to shade, the times of each day (07:00-22:00) each teacher with a painted
    pattern cannot teach: ``[{teacherId, date, start, end}]``. 400 when end is before start or the range
    is over 400 days."""
    spans = selectors.availability_unavailable_times(
        org=request.auth.org,
        start=query.start,
        end=query.end,
        teacher_ids=[query.teacher_id] if query.teacher_id else None,
    )
    return [{"teacher_id": tid, **span} for tid, items in spans.items() for span in items]


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class AvailabilityImportStats(CamelSchema):
    teachers: int
    rows: int


class AvailabilityImportOut(CamelSchema):
    message: str
    stats: AvailabilityImportStats


@router.get("/teachers/availability/export")
def export_availability(request: AuthedRequest) -> HttpResponse:
    """GET /api/teachers/availability/export: every teacher's availability as .xlsx, one row per teacher
    and window (columns in :mod:`project.staff.availability.workbook`)."""
    response = HttpResponse(workbook.export_xlsx(org=request.auth.org), content_type=XLSX)
    response["Content-Disposition"] = 'attachment; filename="teacher-availability.xlsx"'
    return response


@router.post("/teachers/availability/import", response={200: AvailabilityImportOut, 400: ErrorOut})
def import_availability(request: AuthedRequest, file: UploadedFile = File(None)) -> dict[str, object]:
    """POST /api/teachers/availability/import (multipart field ``file``, .xlsx or .xls): replaces the
    windows, preferences and date ranges of each teacher in the file, all or nothing. 400 with
    ``errors: [{path: ["rows", row, column], message, row}]`` when any row is wrong. Answer ``{message,
    stats: {teachers, rows}}``."""
    stats = workbook.import_availability(ctx=request.auth, upload=file)
    return {"message": f"Imported availability of {stats['teachers']} teacher(s)", "stats": stats}
