"""Re-planning around late changes (issue 17): ``GET /api/replan/impact``. Thin: parse, call, answer."""

from __future__ import annotations

import uuid
from datetime import date, time
from typing import Annotated, Any

from django.http import HttpRequest
from ninja import Query

from project.core.responses import json_response
from project.core.routers import make_router
from project.core.schemas import BlankToNone, CamelSchema, ErrorOut, in_date_range
from project.timetabling import replan

router = make_router(tags=["replan"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut}


class ImpactQuery(CamelSchema):
    """Which change: ``holidayId`` (a saved holiday or term break), ``leaveId`` (saved leave),
    ``teacherId`` with ``start``/``end`` and optional ``startTime``/``endTime`` (proposed leave), or
    ``start``/``end`` with optional ``campusId`` (a proposed closure)."""

    holiday_id: uuid.UUID | None = None
    leave_id: uuid.UUID | None = None
    teacher_id: uuid.UUID | None = None
    campus_id: uuid.UUID | None = None
    start: Annotated[date | None, BlankToNone, in_date_range("Start date")] = None
    end: Annotated[date | None, BlankToNone, in_date_range("End date")] = None
    start_time: Annotated[time | None, BlankToNone] = None
    end_time: Annotated[time | None, BlankToNone] = None


class HitSessionOut(CamelSchema):
    id: uuid.UUID
    block_group_id: uuid.UUID
    block_group_code: str
    block_group_name: str
    teacher_id: uuid.UUID | None
    teacher_name: str
    actual_date: date
    start_time: time
    end_time: time
    actual_hours: float


class ImpactGroupOut(CamelSchema):
    block_group_id: uuid.UUID
    code: str
    name: str
    session_count: int
    hours: float
    session_ids: list[uuid.UUID]


class ImpactTeacherOut(CamelSchema):
    teacher_id: uuid.UUID | None
    name: str
    session_count: int
    hours: float


class ImpactOut(CamelSchema):
    kind: str
    description: str
    start: date
    end: date
    session_count: int
    hours: float
    block_group_count: int
    teacher_count: int
    by_block_group: list[ImpactGroupOut]
    by_teacher: list[ImpactTeacherOut]
    sessions: list[HitSessionOut]


@router.get("/replan/impact", response={200: ImpactOut, **ERRORS})
def replan_impact(request: HttpRequest, filters: Query[ImpactQuery]) -> Any:
    """GET /api/replan/impact: the sessions a change hits (not cancelled), by block group and by teacher,
    with ``actualHours`` summed (issue 17, ``project.timetabling.replan``). 400 "Start date is required",
    "End date is required", "End date must be on or after start date", "The range can be at most 400
    days", part-day times; 404 "Holiday not found" / "Leave not found" / "Teacher not found" / "Campus not
    found". Reads only."""
    change = replan.change_of(
        request.auth.org, holiday_id=filters.holiday_id, leave_id=filters.leave_id, teacher_id=filters.teacher_id,
        campus_id=filters.campus_id, start=filters.start, end=filters.end, start_time=filters.start_time,
        end_time=filters.end_time,
    )
    return json_response(replan.impact(request.auth.org, change))
