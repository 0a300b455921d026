"""Schemas of study plans and their units, in every shape the API shows a plan unit (its own list, inside
a block group's assigned plan, and the hour breakdown over the seven hour fields)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Annotated
from uuid import UUID

from pydantic import Field

from project.catalogue.models import Unit
from project.catalogue.schemas import FormIn, StampedOut, flag, required_text, text
from project.core.refs import OrgRef
from project.core.schemas import BlankToNone, CamelSchema, at_least, required
from project.planning.models import StudyPlan as StudyPlanModel
from project.planning.schemas.fields import HOUR_LABELS, MAX_TOTAL_NOMINAL_HOURS, YearLevel, hours, required_count

if TYPE_CHECKING:  # pragma: no cover
    from project.planning.models import StudyPlan, StudyPlanUnit


# --- study plans ------------------------------------------------------------------------------------


class StudyPlanIn(FormIn):
    """POST/PUT /api/study-plans body (PUT replaces every field)."""

    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    description: text("Description") = ""
    total_nominal_hours: required_count("Total nominal hours", MAX_TOTAL_NOMINAL_HOURS) = Field(
        default=None, validate_default=True
    )
    is_active: flag(True) = True


class StudyPlanCloneIn(FormIn):
    """POST /api/study-plans/{id}/clone body: the new name, non-blank after trimming."""

    name: required_text("Name", 255) = Field(default=None, validate_default=True)


class StudyPlanOut(StampedOut):
    """A study plan with its totals (docs/behaviour/hours.md §2).

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
    def resolve_efficiency(obj: StudyPlan) -> float:
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

    study_plan_id: Annotated[UUID | None, BlankToNone, OrgRef(StudyPlanModel, "Study plan")] = None
    unit_id: Annotated[UUID | None, BlankToNone, required("Please select a unit"), OrgRef(Unit, "Unit")] = Field(
        default=None, validate_default=True
    )
    year_level: YearLevel = 1
    is_cluster: flag(False) = False
    cluster_group: ClusterGroup = ""
    insert_position: InsertPosition = None


class StudyPlanUnitUpdateIn(_HourFieldsIn):
    """PUT /api/study-plan-units/{id} body. Only the fields sent change (the edit dialog sends them all).

    ``unitId`` swaps the unit (409 when the plan already has it); ``sequenceOrder`` (at least 1) moves the
    row, shifting the others.
    """

    unit_id: Annotated[UUID | None, BlankToNone, OrgRef(Unit, "Unit")] = None
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
    def resolve_total_actual_hours(obj: StudyPlanUnit) -> float:
        return float(obj.actual_hours)

    @staticmethod
    def resolve_self_directed_hours(obj: StudyPlanUnit) -> float:
        return float(obj.self_directed_hours)


# --- plan units as a block group's assigned plans show them -----------------------------------------


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
    def resolve_units(obj: StudyPlan) -> list[StudyPlanUnit]:
        return list(obj.plan_units.all())


class HourBreakdownOut(CamelSchema):
    face_to_face_hours: float
    facilitated_e_learning_hours: float
    work_integrated_learning_hours: float
    in_class_assessment_hours: float
    structured_learning_hours: float
    work_integrated_learning_balance_hours: float
    cumulative_assessment_hours: float
