"""Schemas of block groups: the group itself, its assigned study plans, its scheduling information, hour
reconciliation and units."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any, Literal, Self
from uuid import UUID

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from project.catalogue.models import Campus, Course
from project.catalogue.schemas import FormIn, StampedOut, required_text
from project.core.refs import OrgRef
from project.core.schemas import BlankToNone, CamelSchema, at_least, at_most, in_date_range, max_length, required
from project.planning.days import INVALID_DAYS_MESSAGE, parse_preferred_days
from project.planning.models import StudyPlan as StudyPlanModel
from project.planning.schemas.fields import (
    MAX_COHORT_SIZE,
    MAX_SESSION_DURATION,
    MAX_SESSIONS_PER_DAY,
    quantize_hours,
    required_count,
)
from project.planning.schemas.study_plans import HourBreakdownOut, LinkedStudyPlanOut

if TYPE_CHECKING:  # pragma: no cover
    from project.planning.models import BlockGroup


def _preferred_days(value: Any) -> Any:
    if isinstance(value, list):  # the SPA may send back the array it was given
        value = ",".join(str(v) for v in value)
    if value is None:
        return ""
    if isinstance(value, str) and "\x00" in value:
        raise ValueError("Text must not contain NUL characters")
    if isinstance(value, str) and value.strip() and not parse_preferred_days(value):
        raise ValueError(INVALID_DAYS_MESSAGE)
    return value


class BlockGroupIn(FormIn):
    """POST/PUT /api/block-groups body (PUT replaces every field).

    preferredDays is free text ("Monday, Wednesday", "mon wed", "1,3"; an array of day numbers is also
    accepted) stored as entered; blank is allowed (the group cannot be scheduled until it has days).
    sessionDuration is in hours. Defaults: sessionDuration 3, sessionsPerDay 2, deliveryMode on_campus,
    studyMode full_time, status active (docs/behaviour/block-groups.md §1).
    """

    code: required_text("Code", 50) = Field(default=None, validate_default=True)
    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    course_id: Annotated[UUID | None, BlankToNone, OrgRef(Course, "Course")] = None
    campus_id: Annotated[UUID | None, BlankToNone, OrgRef(Campus, "Campus")] = None
    delivery_mode: Annotated[Literal["on_campus", "remote"], BeforeValidator(lambda v: v or "on_campus")] = "on_campus"
    study_mode: Annotated[Literal["full_time", "part_time"], BeforeValidator(lambda v: v or "full_time")] = "full_time"
    cohort_size: required_count("Cohort size", MAX_COHORT_SIZE) = Field(default=None, validate_default=True)
    start_date: Annotated[date | None, BlankToNone, required("Start date is required"), in_date_range("Start date")] = Field(
        default=None, validate_default=True
    )
    end_date: Annotated[date | None, BlankToNone, in_date_range("End date")] = None
    preferred_days: Annotated[
        str,
        BeforeValidator(_preferred_days),
        BeforeValidator(lambda v: v.strip() if isinstance(v, str) else v),
        max_length(255, "Preferred days must be at most 255 characters"),
    ] = ""
    session_duration: Annotated[
        Decimal,
        BeforeValidator(lambda v: Decimal("3") if v is None or v == "" else v),
        at_least(1, "Session duration must be at least 1 hour"),
        at_most(MAX_SESSION_DURATION, f"Session duration cannot exceed {MAX_SESSION_DURATION} hours"),
        AfterValidator(quantize_hours),
    ] = Decimal("3")
    sessions_per_day: Annotated[
        int,
        BeforeValidator(lambda v: 2 if v is None or v == "" else v),
        at_least(1, "Sessions per day must be at least 1"),
        at_most(MAX_SESSIONS_PER_DAY, f"Sessions per day cannot exceed {MAX_SESSIONS_PER_DAY}"),
    ] = 2
    status: Annotated[Literal["planned", "active", "consolidated", "completed"], BeforeValidator(lambda v: v or "active")] = (
        "active"
    )
    # The room type schedule generation picks rooms of by default ("" or null: none).
    preferred_room_type: Annotated[
        Literal["", "classroom", "computer_lab", "workshop", "kitchen", "online", "other"], BeforeValidator(lambda v: v or "")
    ] = ""

    @model_validator(mode="after")
    def _end_after_start(self) -> Self:
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValueError("End date must be on or after start date")
        return self


class CourseSummaryOut(CamelSchema):
    id: UUID
    code: str
    name: str


class CampusSummaryOut(CamelSchema):
    id: UUID
    name: str
    abbreviation: str


class BlockGroupOut(StampedOut):
    """A block group as listed and detailed.

    preferredDays: sorted ISO day numbers (1 Monday .. 7 Sunday) parsed from preferredDaysText, the text
    as entered. sessionDuration in hours. timetableCount: number of its timetable sessions (any status).
    studyPlanNames: names of the assigned study plans in assignment order.
    """

    id: UUID
    code: str
    name: str
    course_id: UUID | None
    campus_id: UUID | None
    course: CourseSummaryOut | None
    campus: CampusSummaryOut | None
    delivery_mode: str
    study_mode: str
    cohort_size: int
    start_date: date
    end_date: date | None
    preferred_days: list[int]
    preferred_days_text: str
    session_duration: float
    sessions_per_day: int
    status: str
    timetable_count: int
    study_plan_names: list[str]
    preferred_room_type: str = ""

    @staticmethod
    def resolve_preferred_days(obj: BlockGroup) -> list[int]:
        return parse_preferred_days(obj.preferred_days)

    @staticmethod
    def resolve_preferred_days_text(obj: BlockGroup) -> str:
        return obj.preferred_days or ""

    @staticmethod
    def resolve_timetable_count(obj: BlockGroup) -> int:
        return getattr(obj, "timetable_count", 0) or 0

    @staticmethod
    def resolve_study_plan_names(obj: BlockGroup) -> list[str]:
        return [link.study_plan.name for link in obj.plan_links.all()]


class BlockGroupStudyPlanIn(FormIn):
    """POST /api/block-groups/{id}/study-plans body."""

    study_plan_id: Annotated[
        UUID | None, BlankToNone, required("Please select a study plan"), OrgRef(StudyPlanModel, "Study plan")
    ] = Field(default=None, validate_default=True)


class BlockGroupStudyPlanOut(StampedOut):
    """An assignment of a study plan to a block group (docs/behaviour/study-plans.md §2 "Block group study plan link")."""

    id: UUID
    block_group_id: UUID
    study_plan_id: UUID
    study_plan: LinkedStudyPlanOut


class SchedulingUnitOut(CamelSchema):
    id: UUID  # the study plan unit
    unit_id: UUID
    code: str
    name: str
    sequence_order: int
    year_level: int
    facilitated_hours: float
    actual_hours: float
    nominal_hours: int
    timetabled_hours: float


class SchedulingPlanOut(CamelSchema):
    id: UUID
    name: str
    units: list[SchedulingUnitOut]


class SchedulingInfoOut(CamelSchema):
    """GET /api/block-groups/{id}/scheduling-info (see selectors.block_group_scheduling_info)."""

    block_group: BlockGroupOut
    study_plans: list[SchedulingPlanOut]
    total_facilitated_hours: float
    remaining_facilitated_hours: float
    existing_session_count: int
    estimated_sessions: int
    estimated_weeks: int


class HourReconciliationOut(CamelSchema):
    """GET /api/block-groups/{id}/hour-reconciliation (docs/behaviour/hours.md §5), over the assigned study plans."""

    total_nominal_hours: float
    unit_nominal_hours: float
    total_actual_hours: float
    total_self_directed_hours: float
    efficiency_rate: float
    breakdown: HourBreakdownOut


class TimetabledUnitOut(CamelSchema):
    unit_id: UUID
    unit_code: str
    unit_name: str
    nominal_hours: int
    timetabled_hours: float
    planned_hours: float | None = None


class BlockGroupUnitOut(CamelSchema):
    """A row of GET /api/block-groups/{id}/units: a unit of the assigned plans (id is the unit's id)."""

    id: UUID
    code: str
    name: str
    nominal_hours: int
    is_core: bool
    year_level: int
    sequence_order: int
    study_plan_id: UUID
    study_plan_name: str
    study_plan_unit_id: UUID
