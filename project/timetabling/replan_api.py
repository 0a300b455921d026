"""Re-planning around late changes (issue 17): ``GET /api/replan/impact``. Thin: parse, call, answer."""

from __future__ import annotations

import uuid
from datetime import date, time
from typing import Annotated

from django.http import HttpResponse
from ninja import Query
from pydantic import Field

from project.core.auth import AuthedRequest
from project.core.responses import json_response
from project.core.routers import make_router
from project.core.schemas import BlankToNone, CamelSchema, ErrorOut, in_date_range
from project.timetabling import replan

router = make_router(tags=["replan"])

ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut}


class ChangeFields(CamelSchema):
    """The fields naming a late change (``replan.change_of``'s keyword arguments), shared by the impact
    query and the proposal and apply bodies."""

    holiday_id: uuid.UUID | None = None
    leave_id: uuid.UUID | None = None
    teacher_id: uuid.UUID | None = None
    campus_id: uuid.UUID | None = None
    start: Annotated[date | None, BlankToNone, in_date_range("Start date")] = None
    end: Annotated[date | None, BlankToNone, in_date_range("End date")] = None
    start_time: Annotated[time | None, BlankToNone] = None
    end_time: Annotated[time | None, BlankToNone] = None


class ImpactQuery(ChangeFields):
    """Which change: ``holidayId`` (a saved holiday or term break), ``leaveId`` (saved leave),
    ``teacherId`` with ``start``/``end`` and optional ``startTime``/``endTime`` (proposed leave), or
    ``start``/``end`` with optional ``campusId`` (a proposed closure)."""


class ImpactSessionOut(CamelSchema):
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
    sessions: list[ImpactSessionOut]


class ReplanChangeIn(ChangeFields):
    """The change to re-plan around (as ``GET /api/replan/impact``'s query) and optionally the block
    groups or sessions to fix (default: every session it hits)."""

    block_group_ids: list[uuid.UUID] | None = Field(default=None, max_length=2000)
    session_ids: list[uuid.UUID] | None = Field(default=None, max_length=20000)


class ReplanPlaceOut(CamelSchema):
    actual_date: date
    start_time: str
    end_time: str
    teacher_id: uuid.UUID | None
    teacher_name: str


class ReplanChangeOut(CamelSchema):
    session_id: uuid.UUID
    block_group_id: uuid.UUID
    block_group_code: str
    unit_code: str
    reason: str
    from_: ReplanPlaceOut = Field(alias="from")
    to: ReplanPlaceOut


class ReplanUnresolvedOut(CamelSchema):
    session_id: uuid.UUID
    block_group_code: str
    unit_code: str
    actual_date: date
    start_time: str
    end_time: str
    reason: str


class EndDateExtendedOut(CamelSchema):
    block_group_id: uuid.UUID
    code: str
    from_: date = Field(alias="from")
    to: date


class ReplanFiguresOut(CamelSchema):
    sessions_hit: int
    sessions_moved: int
    teachers_changed: int
    unresolved: int
    end_dates_extended: list[EndDateExtendedOut]


class ReplanProposalOut(CamelSchema):
    version: str
    kind: str
    description: str
    start: date
    end: date
    changes: list[ReplanChangeOut]
    unresolved: list[ReplanUnresolvedOut]
    figures: ReplanFiguresOut


class ReplanChangeToIn(CamelSchema):
    session_id: uuid.UUID
    actual_date: Annotated[date, in_date_range("Date")]
    teacher_id: uuid.UUID | None = None


class ReplanApplyIn(ReplanChangeIn):
    version: str = Field(max_length=64)
    changes: list[ReplanChangeToIn] = Field(max_length=20000)


class ReplanAppliedOut(CamelSchema):
    applied: bool
    session_ids: list[uuid.UUID]
    end_dates_extended: list[EndDateExtendedOut]


def _change(request: AuthedRequest, body: ChangeFields) -> replan.Change:
    """The change ``body`` names, of the caller's organization (400/404 as ``replan.change_of``, whose
    keyword arguments are the fields of :class:`ChangeFields`)."""
    return replan.change_of(request.auth.org, **body.model_dump(include=set(ChangeFields.model_fields)))


@router.post("/replan/propose", response={200: ReplanProposalOut, **ERRORS})
def replan_propose(request: AuthedRequest, payload: ReplanChangeIn) -> HttpResponse:
    """POST /api/replan/propose: a proposal fixing every session the change hits (closures: moved to the
    earliest free slot; leave: another teacher), the sessions it cannot fix with reasons, and the
    figures; ``version`` for the apply (issue 17, ``replan.propose``). Writes nothing. Errors as
    ``GET /api/replan/impact``."""
    change = _change(request, payload)
    return json_response(
        replan.propose(
            request.auth,
            change,
            block_group_ids=payload.block_group_ids,
            session_ids=payload.session_ids,
        )
    )


@router.post("/replan/apply", response={200: ReplanAppliedOut, **ERRORS, 409: dict, 412: ErrorOut})
def replan_apply(request: AuthedRequest, payload: ReplanApplyIn) -> HttpResponse:
    """POST /api/replan/apply ``{...the change, version, changes: [{sessionId, actualDate, teacherId}]}``:
    writes the reviewed proposal all-or-nothing with one change event (one activity, undone as one step).
    412 when the timetable changed since the proposal; 409 ``conflict`` when it would hold a hard
    conflict; 400 when a change is not of a hit session. Nothing is written on an error."""
    change = _change(request, payload)
    return json_response(
        replan.apply(
            request.auth,
            change,
            version=payload.version,
            changes=[c.model_dump() for c in payload.changes],
            block_group_ids=payload.block_group_ids,
            session_ids=payload.session_ids,
        )
    )


@router.get("/replan/impact", response={200: ImpactOut, **ERRORS})
def replan_impact(request: AuthedRequest, filters: Query[ImpactQuery]) -> HttpResponse:
    """GET /api/replan/impact: the sessions a change hits (not cancelled), by block group and by teacher,
    with ``actualHours`` summed (issue 17, ``project.timetabling.replan``). 400 "Start date is required",
    "End date is required", "End date must be on or after start date", "The range can be at most 400
    days", part-day times; 404 "Holiday not found" / "Leave not found" / "Teacher not found" / "Campus not
    found". Reads only."""
    return json_response(replan.impact(request.auth.org, _change(request, filters)))
