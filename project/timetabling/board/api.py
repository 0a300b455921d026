"""The planner board's reads (ADR 0026): ``GET /api/board``, ``GET /api/board/conflict-index`` and
``GET /api/board/teachers``. Thin: parse, call one function of :mod:`project.timetabling.board.selectors`, answer.
Moves are the existing ``PUT /api/timetables/{id}`` (If-Match)."""

from __future__ import annotations

from typing import Any

from ninja import Query

from project.core.auth import AuthedRequest
from project.core.routers import make_router
from project.core.schemas import ErrorOut
from project.timetabling.board import selectors as board
from project.timetabling.board.schemas import (
    PlannerBoardOut,
    PlannerBoardQuery,
    PlannerConflictIndexOut,
    PlannerConflictIndexQuery,
    PlannerTeacherOut,
    PlannerTeachersQuery,
)

router = make_router(tags=["board"])
# The module this router was published from: its OpenAPI operation ids stay (docs/adr/0030).
OPERATION_ID_MODULE = "project.timetabling.board_api"

ERRORS = {400: ErrorOut, 401: ErrorOut, 404: ErrorOut}


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
