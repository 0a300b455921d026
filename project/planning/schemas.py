"""Schemas of study plans, study plan units, block groups and linked block groups.

delivery.md §3 (fields), §5 (validation messages), §9 (limits); decisions.md §1 (camelCase JSON, 400
shape) and §2 (hours). Hours are decimals with 2 places (precision 6) in the database and JSON numbers
in answers. Every ``*Out`` with ``updatedAt`` sends it with microsecond precision (usable as ``If-Match``).
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from project.catalogue.schemas import FormIn, StampedOut, flag, required_text, text
from project.core.schemas import BlankToNone, CamelSchema, at_least, at_most, in_date_range, max_length, required
from project.planning.days import INVALID_DAYS_MESSAGE, parse_preferred_days

MAX_HOURS = Decimal("9999.99")  # precision 6, scale 2 (delivery.md §9)
MAX_TOTAL_NOMINAL_HOURS = 100_000
MAX_COHORT_SIZE = 10_000
MAX_SESSION_DURATION = 12  # hours; a session is at most 12 hours (delivery.md §9)
MAX_SESSIONS_PER_DAY = 10


def _quantize(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def hours(label: str):
    """An hour field of a study plan unit: a number >= 0 ("<label> must be non-negative"), at most
    9999.99, stored with 2 decimals. Null or an empty string becomes 0 (delivery.md §3 "An empty input
    becomes 0")."""
    return Annotated[
        Decimal,
        BeforeValidator(lambda v: Decimal("0") if v is None or (isinstance(v, str) and not v.strip()) else v),
        at_least(0, f"{label} must be non-negative"),
        at_most(MAX_HOURS, f"{label} cannot exceed {MAX_HOURS}"),
        AfterValidator(_quantize),
    ]


# The seven hour fields with their labels (messages "<label> must be non-negative").
HOUR_LABELS = {
    "face_to_face_hours": "Face to face hours",
    "facilitated_e_learning_hours": "Facilitated e-learning hours",
    "work_integrated_learning_hours": "Work integrated learning hours",
    "in_class_assessment_hours": "In-class assessment hours",
    "structured_learning_hours": "Structured learning hours",
    "work_integrated_learning_balance_hours": "Work integrated learning balance hours",
    "cumulative_assessment_hours": "Cumulative assessment hours",
}

YearLevel = Annotated[
    int,
    BeforeValidator(lambda v: 1 if v is None else v),
    at_least(1, "Year level must be at least 1"),
    at_most(4, "Year level cannot exceed 4"),
]


# --- study plans ------------------------------------------------------------------------------------


class StudyPlanIn(FormIn):
    """POST/PUT /api/study-plans body (PUT replaces every field)."""

    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    description: text("Description") = ""
    total_nominal_hours: Annotated[
        int | None,
        required("Total nominal hours must be at least 1"),
        at_least(1, "Total nominal hours must be at least 1"),
        at_most(MAX_TOTAL_NOMINAL_HOURS, f"Total nominal hours cannot exceed {MAX_TOTAL_NOMINAL_HOURS}"),
    ] = Field(default=None, validate_default=True)
    is_active: flag(True) = True


class StudyPlanCloneIn(FormIn):
    """POST /api/study-plans/{id}/clone body: the new name, non-blank after trimming."""

    name: required_text("Name", 255) = Field(default=None, validate_default=True)


class StudyPlanOut(StampedOut):
    """A study plan with its totals (decisions.md §2).

    totalActualHours: sum of the four actual hour fields over the plan's units; totalSelfDirectedHours:
    sum of the three balance fields; efficiency: totalActualHours / totalNominalHours x 100, rounded to
    2 decimals, 0 when totalNominalHours is 0; unitCount: number of plan units.
    """

    id: UUID
    name: str
    description: str
    total_nominal_hours: int
    is_active: bool
    total_actual_hours: float = 0
    total_self_directed_hours: float = 0
    efficiency: float = 0
    unit_count: int = 0

    @staticmethod
    def resolve_efficiency(obj) -> float:
        nominal = obj.total_nominal_hours or 0
        actual = getattr(obj, "total_actual_hours", None) or 0
        if not nominal:
            return 0.0
        return round(float(actual) / float(nominal) * 100, 2)


# --- study plan units -------------------------------------------------------------------------------


class _HourFieldsIn(FormIn):
    face_to_face_hours: hours(HOUR_LABELS["face_to_face_hours"]) = Decimal("0")
    facilitated_e_learning_hours: hours(HOUR_LABELS["facilitated_e_learning_hours"]) = Decimal("0")
    work_integrated_learning_hours: hours(HOUR_LABELS["work_integrated_learning_hours"]) = Decimal("0")
    in_class_assessment_hours: hours(HOUR_LABELS["in_class_assessment_hours"]) = Decimal("0")
    structured_learning_hours: hours(HOUR_LABELS["structured_learning_hours"]) = Decimal("0")
    work_integrated_learning_balance_hours: hours(HOUR_LABELS["work_integrated_learning_balance_hours"]) = Decimal("0")
    cumulative_assessment_hours: hours(HOUR_LABELS["cumulative_assessment_hours"]) = Decimal("0")


ClusterGroup = text("Cluster group", 50)
InsertPosition = Annotated[int | None, at_least(1, "Insert position must be at least 1")]


class StudyPlanUnitIn(_HourFieldsIn):
    """POST /api/study-plans/{id}/units body.

    ``studyPlanId`` may be sent but the path's plan is the one used. ``insertPosition`` (1-based, optional)
    puts the unit at that place and shifts the later ones; absent or past the end appends.
    """

    study_plan_id: Annotated[UUID | None, BlankToNone] = None
    unit_id: Annotated[UUID | None, BlankToNone, required("Please select a unit")] = Field(default=None, validate_default=True)
    year_level: YearLevel = 1
    is_cluster: flag(False) = False
    cluster_group: ClusterGroup = ""
    insert_position: InsertPosition = None


class StudyPlanUnitUpdateIn(_HourFieldsIn):
    """PUT /api/study-plan-units/{id} body. Only the fields sent change (the edit dialog sends them all).

    ``unitId`` swaps the unit (409 when the plan already has it); ``sequenceOrder`` (at least 1) moves the
    row, shifting the others.
    """

    unit_id: Annotated[UUID | None, BlankToNone] = None
    year_level: YearLevel = 1
    is_cluster: flag(False) = False
    cluster_group: ClusterGroup = ""
    sequence_order: Annotated[int | None, at_least(1, "Sequence order must be at least 1")] = None


class UnitSummaryOut(CamelSchema):
    id: UUID
    code: str
    name: str
    nominal_hours: int
    is_core: bool


class StudyPlanUnitOut(StampedOut):
    """A row of GET /api/study-plans/{id}/units: the seven hour fields, the computed totalActualHours (four
    actual fields) and selfDirectedHours (three balance fields), and the embedded unit."""

    id: UUID
    study_plan_id: UUID
    unit_id: UUID
    sequence_order: int
    year_level: int
    face_to_face_hours: float
    facilitated_e_learning_hours: float
    work_integrated_learning_hours: float
    in_class_assessment_hours: float
    structured_learning_hours: float
    work_integrated_learning_balance_hours: float
    cumulative_assessment_hours: float
    total_actual_hours: float
    self_directed_hours: float
    is_cluster: bool
    cluster_group: str
    unit: UnitSummaryOut

    @staticmethod
    def resolve_total_actual_hours(obj) -> float:
        return float(obj.actual_hours)

    @staticmethod
    def resolve_self_directed_hours(obj) -> float:
        return float(obj.self_directed_hours)


# --- block groups -----------------------------------------------------------------------------------


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
    studyMode full_time, status active (delivery.md §9).
    """

    code: required_text("Code", 50) = Field(default=None, validate_default=True)
    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    course_id: Annotated[UUID | None, BlankToNone] = None
    campus_id: Annotated[UUID | None, BlankToNone] = None
    delivery_mode: Annotated[Literal["on_campus", "remote"], BeforeValidator(lambda v: v or "on_campus")] = "on_campus"
    study_mode: Annotated[Literal["full_time", "part_time"], BeforeValidator(lambda v: v or "full_time")] = "full_time"
    cohort_size: Annotated[
        int | None,
        required("Cohort size must be at least 1"),
        at_least(1, "Cohort size must be at least 1"),
        at_most(MAX_COHORT_SIZE, f"Cohort size cannot exceed {MAX_COHORT_SIZE}"),
    ] = Field(default=None, validate_default=True)
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
        AfterValidator(_quantize),
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
    # Issue 19: the room type schedule generation picks rooms of by default ("" or null: none).
    preferred_room_type: Annotated[
        Literal["", "classroom", "computer_lab", "workshop", "kitchen", "online", "other"], BeforeValidator(lambda v: v or "")
    ] = ""

    @model_validator(mode="after")
    def _end_after_start(self):
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
    def resolve_preferred_days(obj) -> list[int]:
        return parse_preferred_days(obj.preferred_days)

    @staticmethod
    def resolve_preferred_days_text(obj) -> str:
        return obj.preferred_days or ""

    @staticmethod
    def resolve_timetable_count(obj) -> int:
        return getattr(obj, "timetable_count", 0) or 0

    @staticmethod
    def resolve_study_plan_names(obj) -> list[str]:
        return [link.study_plan.name for link in obj.plan_links.all()]


class BlockGroupStudyPlanIn(FormIn):
    """POST /api/block-groups/{id}/study-plans body."""

    study_plan_id: Annotated[UUID | None, BlankToNone, required("Please select a study plan")] = Field(
        default=None, validate_default=True
    )


class LinkPlanUnitOut(CamelSchema):
    id: UUID
    unit_id: UUID
    sequence_order: int
    year_level: int
    face_to_face_hours: float
    facilitated_e_learning_hours: float
    work_integrated_learning_hours: float
    in_class_assessment_hours: float
    unit: UnitSummaryOut


class LinkedStudyPlanOut(CamelSchema):
    id: UUID
    name: str
    description: str
    is_active: bool
    total_nominal_hours: int
    units: list[LinkPlanUnitOut]

    @staticmethod
    def resolve_units(obj) -> list:
        return list(obj.plan_units.all())


class BlockGroupStudyPlanOut(StampedOut):
    """An assignment of a study plan to a block group (delivery.md §3 "Block group study plan link")."""

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


class HourBreakdownOut(CamelSchema):
    face_to_face_hours: float
    facilitated_e_learning_hours: float
    work_integrated_learning_hours: float
    in_class_assessment_hours: float
    structured_learning_hours: float
    work_integrated_learning_balance_hours: float
    cumulative_assessment_hours: float


class HourReconciliationOut(CamelSchema):
    """GET /api/block-groups/{id}/hour-reconciliation (delivery.md §3), over the assigned study plans."""

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


# --- linked block groups ----------------------------------------------------------------------------


def _at_least_two(value: list) -> list:
    if len(value) < 2:
        raise ValueError("At least 2 block groups are required to create a linked group")
    return value


class LinkedBlockGroupIn(FormIn):
    """POST /api/linked-block-groups body."""

    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    description: text("Description") = ""
    member_block_group_ids: Annotated[
        list[UUID] | None,
        BeforeValidator(lambda v: [] if v is None else v),
        AfterValidator(lambda v: list(dict.fromkeys(v))),  # the same group twice counts once
        AfterValidator(_at_least_two),
    ] = Field(default=None, validate_default=True)


class LinkedBlockGroupUpdateIn(FormIn):
    """PUT /api/linked-block-groups/{id} body."""

    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    description: text("Description") = ""


class MemberBlockGroupOut(CamelSchema):
    id: UUID
    code: str
    name: str
    delivery_mode: str
    study_mode: str
    cohort_size: int
    start_date: date
    end_date: date | None


class LinkedMemberOut(CamelSchema):
    id: UUID
    block_group_id: UUID
    block_group: MemberBlockGroupOut


class LinkedBlockGroupOut(StampedOut):
    id: UUID
    name: str
    description: str
    members: list[LinkedMemberOut]

    @staticmethod
    def resolve_members(obj) -> list:
        return list(obj.members.all())


class MemberRemovedOut(CamelSchema):
    """DELETE /api/linked-block-groups/{id}/members/{blockGroupId}: the group left, or ``dissolved`` true
    and ``linkedGroup`` null when fewer than 2 members remained."""

    dissolved: bool
    linked_group: LinkedBlockGroupOut | None
