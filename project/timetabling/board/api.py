"""The planner board's reads (ADR 0026): ``GET /api/board``, ``GET /api/board/conflict-index`` and
``GET /api/board/teachers``. Thin: parse, call one function of :mod:`project.timetabling.board.selectors`, answer.
Moves are the existing ``PUT /api/timetables/{id}`` (If-Match)."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Any

from ninja import Query
from pydantic import BeforeValidator, Field, model_validator

from project.core.auth import AuthedRequest
from project.core.routers import make_router
from project.core.schemas import BlankToNone, CamelSchema, ErrorOut, in_date_range
from project.timetabling.board import selectors as board
from project.timetabling.schemas import _teacher, _uuid_or_error

router = make_router(tags=["board"])
# The module this router was published from: its OpenAPI operation ids stay (docs/adr/0030).
OPERATION_ID_MODULE = "project.timetabling.board_api"

ERRORS = {400: ErrorOut, 401: ErrorOut, 404: ErrorOut}
SCOPES = ("block_group_id", "teacher_id", "room_id", "campus_id")


def _candidate(value: Any) -> Any:
    """``teacherId`` of the conflict index: None (absent), "unassigned", or a teacher's UUID."""
    if value is None or value == "":
        return None
    if _teacher(value) is None:
        return "unassigned"
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise ValueError("Teacher not found") from None


class PlannerRangeQuery(CamelSchema):
    from_: Annotated[date | None, BlankToNone, in_date_range("Start date")] = Field(default=None, alias="from")
    to: Annotated[date | None, BlankToNone, in_date_range("End date")] = None

    @model_validator(mode="after")
    def _both(self) -> PlannerRangeQuery:
        if self.from_ is None:
            raise ValueError("Start date (from) is required")
        if self.to is None:
            raise ValueError("End date (to) is required")
        return self


class PlannerBoardQuery(PlannerRangeQuery):
    block_group_id: Annotated[Any, BlankToNone, _uuid_or_error("Block group not found")] = None
    teacher_id: Annotated[Any, BlankToNone, _uuid_or_error("Teacher not found")] = None
    room_id: Annotated[Any, BlankToNone, _uuid_or_error("Room not found")] = None
    campus_id: Annotated[Any, BlankToNone, _uuid_or_error("Campus not found")] = None

    @model_validator(mode="after")
    def _one_scope(self) -> PlannerBoardQuery:
        if sum(getattr(self, name) is not None for name in SCOPES) != 1:
            raise ValueError("Give exactly one of blockGroupId, teacherId, roomId or campusId")
        return self

    def scope(self) -> tuple[str, uuid.UUID]:
        for name, scope in zip(SCOPES, ("blockGroup", "teacher", "room", "campus"), strict=True):
            value = getattr(self, name)
            if value is not None:
                return scope, value
        raise AssertionError("validated")  # pragma: no cover


class PlannerConflictIndexQuery(PlannerRangeQuery):
    session_id: Annotated[Any, BlankToNone, _uuid_or_error("Timetable session not found")] = None
    # A teacher's id, or "unassigned" for none; absent: the session's own teacher.
    teacher_id: Annotated[Any, BeforeValidator(_candidate)] = None

    @model_validator(mode="after")
    def _session(self) -> PlannerConflictIndexQuery:
        if self.session_id is None:
            raise ValueError("Session id is required")
        return self


class PlannerTeachersQuery(CamelSchema):
    session_id: Annotated[Any, BlankToNone, _uuid_or_error("Timetable session not found")] = None

    @model_validator(mode="after")
    def _session(self) -> PlannerTeachersQuery:
        if self.session_id is None:
            raise ValueError("Session id is required")
        return self


class PlannerRef(CamelSchema):
    id: uuid.UUID
    code: str
    name: str


class PlannerTeacherRef(CamelSchema):
    id: uuid.UUID
    name: str


class PlannerSessionOut(CamelSchema):
    id: uuid.UUID
    actual_date: date
    start_time: str
    end_time: str
    unit: PlannerRef
    block_group: PlannerRef
    teacher: PlannerTeacherRef | None
    room: str
    room_id: uuid.UUID | None
    status: str
    actual_hours: float
    updated_at: datetime


class PlannerShadeOut(CamelSchema):
    kind: str
    name: str
    start: date
    end: date
    start_time: str | None
    end_time: str | None
    teacher_id: uuid.UUID | None


class PlannerBoardOut(CamelSchema):
    title: str
    sessions: list[PlannerSessionOut]
    shading: list[PlannerShadeOut]


class PlannerBlockedOut(CamelSchema):
    date: date
    start_time: str | None
    end_time: str | None
    type: str
    reason: str
    session_id: uuid.UUID | None


class PlannerConflictIndexOut(CamelSchema):
    session_id: uuid.UUID
    teacher_id: uuid.UUID | None
    qualified: bool
    blocked: list[PlannerBlockedOut]


class PlannerTeacherOut(CamelSchema):
    id: uuid.UUID
    name: str
    week_hours: float
    max_weekly_hours: int
    clash: str | None


@router.get("/board", response={200: PlannerBoardOut, **ERRORS})
def get_board(request: AuthedRequest, filters: Query[PlannerBoardQuery]) -> dict[str, Any]:
    """GET /api/board?blockGroupId=|teacherId=|roomId=|campusId= (exactly one) &from=&to= (dates,
    inclusive, at most 190 days): {sessions, shading} (see :func:`project.timetabling.board.selectors.board_range`).
    400 validation_error for a missing or bad parameter; 404 "<Thing> not found" for a foreign id."""
    scope, scope_id = filters.scope()
    return board.board_range(request.auth.org, scope=scope, scope_id=scope_id, start=filters.from_, end=filters.to)  # type: ignore[arg-type]


@router.get("/board/conflict-index", response={200: PlannerConflictIndexOut, **ERRORS})
def get_conflict_index(request: AuthedRequest, filters: Query[PlannerConflictIndexQuery]) -> dict[str, Any]:
    """GET /api/board/conflict-index?sessionId=&from=&to=[&teacherId=<id>|unassigned]: where the session
    would hard-conflict in the range (see :func:`project.timetabling.board.selectors.board_conflict_index`)."""
    teacher = filters.teacher_id
    return board.board_conflict_index(
        request.auth.org,
        session_id=filters.session_id,
        start=filters.from_,  # type: ignore[arg-type]
        end=filters.to,  # type: ignore[arg-type]
        teacher_id=None if teacher in (None, "unassigned") else teacher,
        unassigned=teacher == "unassigned",
    )


@router.get("/board/teachers", response={200: list[PlannerTeacherOut], **ERRORS})
def get_board_teachers(request: AuthedRequest, filters: Query[PlannerTeachersQuery]) -> list[dict[str, Any]]:
    """GET /api/board/teachers?sessionId=: the active teachers qualified for the session's unit with their
    hours that week and any clash at its time (see :func:`project.timetabling.board.selectors.board_teachers`)."""
    return board.board_teachers(request.auth.org, session_id=filters.session_id)
