"""Ninja schemas of the planner board (its router's bodies, queries and answers)."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, model_validator

from project.core.schemas import BlankToNone, CamelSchema, in_date_range
from project.timetabling.schemas import _teacher, _uuid_or_error

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
