"""Ninja schemas of the re-plan (its router's bodies, queries and answers)."""

from __future__ import annotations

import uuid
from datetime import date, time
from typing import Annotated, Literal

from pydantic import Field

from project.catalogue.models import Campus
from project.core.refs import OrgRef, OrgRefs, OrgRefsAt
from project.core.schemas import BlankToNone, CamelSchema, in_date_range
from project.planning.models import BlockGroup
from project.staff.models import Teacher, TeacherLeave
from project.timetabling.models import Holiday, TimetableSession


class ChangeFields(CamelSchema):
    """The fields naming a late change (``replan.replan_change``'s keyword arguments), shared by the impact
    query and the proposal and apply bodies."""

    holiday_id: Annotated[uuid.UUID | None, OrgRef(Holiday, "Holiday")] = None
    leave_id: Annotated[uuid.UUID | None, OrgRef(TeacherLeave, "Leave")] = None
    teacher_id: Annotated[uuid.UUID | None, OrgRef(Teacher, "Teacher")] = None
    campus_id: Annotated[uuid.UUID | None, OrgRef(Campus, "Campus")] = None
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

    block_group_ids: Annotated[list[uuid.UUID] | None, Field(max_length=2000), OrgRefs(BlockGroup, "Block group")] = None
    session_ids: Annotated[list[uuid.UUID] | None, Field(max_length=20000), OrgRefs(TimetableSession, "Timetable session")] = None


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
    actual_hours: float
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
    """``teachersChanged``: sessions that get another teacher; ``hoursMovedToOtherWeek``: ``actualHours``
    of the sessions whose new date is in another week (Monday to Sunday)."""

    sessions_hit: int
    sessions_moved: int
    hours_moved_to_other_week: float
    teachers_changed: int
    unresolved: int
    end_dates_extended: list[EndDateExtendedOut]


class ReplanOptionOut(CamelSchema):
    """One way of fixing the change: ``makeUp`` or ``shift`` (closures), ``reallocate`` (leave)."""

    key: Literal["makeUp", "shift", "reallocate"]
    label: str
    changes: list[ReplanChangeOut]
    unresolved: list[ReplanUnresolvedOut]
    figures: ReplanFiguresOut


class ReplanProposalOut(CamelSchema):
    """A stored proposal: ``id`` and ``version`` for the apply, its ``options`` and the one the review
    starts on (``preselected``); ``changes``, ``unresolved`` and ``figures`` are the preselected option's."""

    id: uuid.UUID
    version: str
    kind: str
    description: str
    start: date
    end: date
    preselected: Literal["makeUp", "shift", "reallocate"]
    options: list[ReplanOptionOut]
    changes: list[ReplanChangeOut]
    unresolved: list[ReplanUnresolvedOut]
    figures: ReplanFiguresOut


class ReplanChangeToIn(CamelSchema):
    session_id: uuid.UUID
    actual_date: Annotated[date, in_date_range("Date")]
    teacher_id: uuid.UUID | None = None


class ReplanApplyIn(ReplanChangeIn):
    """``proposalId`` and ``version`` of ``POST /api/replan/propose``'s answer and the ``option`` chosen
    (default: its ``preselected``). The change's fields, the scope and ``changes`` are optional (older
    clients send them): when given they must be the proposal's."""

    proposal_id: uuid.UUID | None = None
    version: str = Field(max_length=64)
    option: Literal["makeUp", "shift", "reallocate"] | None = None
    changes: Annotated[
        list[ReplanChangeToIn] | None,
        Field(max_length=20000),
        OrgRefsAt(TimetableSession, "Timetable session", "session_id"),
        OrgRefsAt(Teacher, "Teacher", "teacher_id"),
    ] = None


class ReplanAppliedOut(CamelSchema):
    applied: bool
    option: str
    session_ids: list[uuid.UUID]
    end_dates_extended: list[EndDateExtendedOut]
