"""Ninja schemas of automatic allocation (its router's bodies, queries and answers)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated
from uuid import UUID

from pydantic import Field

from project.core.refs import OrgRef, OrgRefs, OrgRefsAt
from project.core.schemas import CamelSchema, at_least, at_most, in_date_range
from project.planning.models import BlockGroup
from project.staff.models import Teacher
from project.timetabling.auto_allocation.model import MAX_TIME_LIMIT
from project.timetabling.models import TimetableSession


class AssignmentIn(CamelSchema):
    """One chosen assignment. A session or teacher of another organization answers 404 (the ids of all
    assignments are checked at once)."""

    session_id: UUID
    teacher_id: UUID


class AutoAllocateIn(CamelSchema):
    session_ids: Annotated[list[UUID] | None, OrgRefs(TimetableSession, "Timetable session")] = None
    block_group_id: Annotated[UUID | None, OrgRef(BlockGroup, "Block group")] = None
    start: Annotated[dt.date | None, in_date_range("Start date")] = None
    end: Annotated[dt.date | None, in_date_range("End date")] = None
    apply: bool = False
    assignments: Annotated[
        list[AssignmentIn] | None,
        OrgRefsAt(TimetableSession, "Timetable session", "session_id"),
        OrgRefsAt(Teacher, "Teacher", "teacher_id"),
    ] = None
    version: str | None = Field(default=None, max_length=64)
    time_limit_seconds: Annotated[
        float | None,
        at_least(0.5, "Time limit must be at least 0.5 seconds"),
        at_most(MAX_TIME_LIMIT, "Time limit cannot exceed 30 seconds"),
    ] = None


class AssignmentOut(CamelSchema):
    session_id: str
    teacher_id: str
    teacher_name: str
    date: str
    start_time: str
    end_time: str
    unit_code: str
    block_group_code: str
    hours: float


class UnassignableOut(CamelSchema):
    session_id: str
    date: str
    start_time: str
    end_time: str
    unit_code: str
    block_group_code: str
    reason: str


class TeacherLoadOut(CamelSchema):
    teacher_id: str
    teacher_name: str
    sessions: int
    hours: float


class FiguresOut(CamelSchema):
    continuity_percent: float
    highest_utilisation: float
    mean_utilisation: float
    preference_score: float = 0.0


class AutoAllocateOut(CamelSchema):
    applied: bool
    version: str
    status: str
    solve_ms: float
    sessions_in_scope: int
    assignments: list[AssignmentOut]
    unassignable: list[UnassignableOut]
    per_teacher: list[TeacherLoadOut]
    before: FiguresOut
    after: FiguresOut


class RuleOut(CamelSchema):
    rule: str
    met: bool
    message: str


class RecommendationOut(CamelSchema):
    teacher_id: str
    teacher_name: str
    rank: int
    eligible: bool
    rules: list[RuleOut]
    week_hours: float
    max_weekly_hours: int
    utilisation_after: float
    continuity: bool
    preference_weight: int = 0
    preference_reason: str = ""


class RecommendationsOut(CamelSchema):
    session_id: str
    recommendations: list[RecommendationOut]
