"""Holidays and term breaks (docs/behaviour/terms-and-holidays.md §1; docs/behaviour/errors.md §1; docs/behaviour/concurrency.md §2), plus the public holiday
import (beyond the spec). Thin: parse, call one selector or service, answer."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet
from django.http import HttpResponse
from ninja import Query

from project.core.auth import AuthedRequest
from project.core.concurrency import if_match_header, with_etag
from project.core.routers import make_router
from project.core.schemas import ErrorOut
from project.timetabling.holidays import selectors, services
from project.timetabling.holidays.schemas import HolidayFilters, HolidayImportIn, HolidayImportOut, HolidayIn, HolidayOut
from project.timetabling.models import Holiday

router = make_router(tags=["holidays"])
# The module this router was published from: its OpenAPI operation ids stay (docs/adr/0030).
OPERATION_ID_MODULE = "project.timetabling.holiday_api"

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 412: ErrorOut}


@router.get("/holidays", response={200: list[HolidayOut], **ERRORS})
def list_holidays(request: AuthedRequest, filters: Query[HolidayFilters]) -> QuerySet[Holiday]:
    """GET /api/holidays[?year=2026][&type=public_holiday|term_break]: by start date. A recurring
    holiday shows in every year."""
    return selectors.holiday_list(org=request.auth.org, year=filters.year, type=filters.type)


@router.post("/holidays", response={201: HolidayOut, **ERRORS})
def create_holiday(request: AuthedRequest, response: HttpResponse, payload: HolidayIn) -> tuple[int, Holiday]:
    """POST /api/holidays: 201 with the holiday. 400 "Start date is required", "End date is required",
    "End date must be on or after start date" (path endDate)."""
    return 201, with_etag(response, services.holiday_create(ctx=request.auth, data=payload.model_dump()))


@router.post("/holidays/import-public", response={200: HolidayImportOut, **ERRORS})
def import_public_holidays(request: AuthedRequest, payload: HolidayImportIn) -> dict[str, object]:
    """POST /api/holidays/import-public ``{"state": "VIC", "year": 2027}``: adds the state's public
    holidays of that year (states ACT, NSW, NT, QLD, SA, TAS, VIC, WA), skipping dates already present.
    Answers ``{"added": [holiday...], "skipped": n}``. With ``"preview": true`` nothing is written and the
    answer is ``{"added": [], "skipped": n, "wouldAdd": [{date, name}]}`` (the Holidays page's preview)."""
    rows, skipped = services.holiday_import_public(
        ctx=request.auth, state=payload.state, year=payload.year, preview=payload.preview
    )
    if payload.preview:
        return {"added": [], "skipped": skipped, "would_add": [{"date": r.start_date, "name": r.name} for r in rows]}
    return {"added": rows, "skipped": skipped}


@router.get("/holidays/{uuid:holiday_id}", response={200: HolidayOut, **ERRORS})
def get_holiday(request: AuthedRequest, response: HttpResponse, holiday_id: uuid.UUID) -> Holiday:
    """GET /api/holidays/{id}: the holiday with ``ETag``; 404 "Holiday not found"."""
    return with_etag(response, selectors.holiday_get(org=request.auth.org, holiday_id=holiday_id))


@router.put("/holidays/{uuid:holiday_id}", response={200: HolidayOut, **ERRORS})
def update_holiday(request: AuthedRequest, response: HttpResponse, holiday_id: uuid.UUID, payload: HolidayIn) -> Holiday:
    """PUT /api/holidays/{id}: the same form as POST. ``If-Match`` stale: 412 and nothing changes."""
    holiday = services.holiday_update(
        ctx=request.auth,
        holiday_id=holiday_id,
        data=payload.model_dump(exclude_unset=True),
        if_match=if_match_header(request),
    )
    return with_etag(response, holiday)


@router.delete("/holidays/{uuid:holiday_id}", response={204: None, **ERRORS})
def delete_holiday(request: AuthedRequest, holiday_id: uuid.UUID) -> tuple[int, None]:
    """DELETE /api/holidays/{id}: 204; 404 "Holiday not found"."""
    services.holiday_delete(ctx=request.auth, holiday_id=holiday_id)
    return 204, None
