"""Response schemas of the reports, the allocation grid and the dashboard.

Field names are those of docs/behaviour/reports.md ("Report responses", "Teacher delivery summary row",
"Allocation grid response") and docs/behaviour/reports.md §7 ("Dashboard stats", "Teacher allocation response",
"Teacher workload entry", "Upcoming session"). Hours are decimal hours (JSON numbers, 2 decimals at
most), percentages have one decimal, dates are ``YYYY-MM-DD``.
"""

from __future__ import annotations

from datetime import date
from uuid import UUID

from project.core.schemas import CamelSchema

# ---------------------------------------------------------------- reports


class BlockGroupWithoutTimetableOut(CamelSchema):
    id: UUID
    code: str
    name: str
    status: str
    start_date: date
    end_date: date | None = None
    delivery_mode: str
    study_pattern: str


class MonthlyBreakdownOut(CamelSchema):
    month: str  # 'YYYY-MM'
    month_name: str  # 'March'
    sessions: int
    teachers: int
    hours: float
    block_groups: int


class TopTeacherOut(CamelSchema):
    teacher_id: UUID
    teacher_name: str
    units: int
    hours: float
    sessions: int


class TopUnitOut(CamelSchema):
    unit_id: UUID
    unit_code: str
    unit_name: str
    hours: float
    sessions: int


class SchedulingSummaryOut(CamelSchema):
    year: int
    total_sessions: int
    total_scheduled_hours: float
    upcoming_sessions: int
    past_sessions: int
    active_block_groups: int
    total_block_groups: int
    teachers_with_schedules: int
    total_teachers: int
    units_in_schedule: int
    total_units: int
    monthly_breakdown: list[MonthlyBreakdownOut]
    top_teachers: list[TopTeacherOut]
    top_units: list[TopUnitOut]


class LoadTotalsOut(CamelSchema):
    nominal_hours: float
    actual_hours: float
    student_count: int


class LoadBlockGroupOut(CamelSchema):
    block_group_name: str
    block_group_code: str
    nominal_hours: float
    actual_hours: float
    student_count: int


class LoadCourseOut(CamelSchema):
    course_name: str
    course_code: str
    block_groups: dict[str, LoadBlockGroupOut]
    totals: LoadTotalsOut


class LoadTermOut(CamelSchema):
    courses: dict[str, LoadCourseOut]
    grand_totals: LoadTotalsOut


class LoadPlanningOut(CamelSchema):
    year: int
    term_data: dict[str, LoadTermOut]


class WorkloadUnitOut(CamelSchema):
    unit_code: str
    unit_name: str
    nominal_hours: int
    semester1_hours: float
    semester2_hours: float
    total_actual_hours: float
    block_groups: list[str]
    first_delivery_date: date
    last_delivery_date: date


class WorkloadTeacherOut(CamelSchema):
    teacher_id: UUID
    teacher_name: str
    teacher_employee_id: str
    is_active: bool
    total_hours: float
    semester1_total: float
    semester2_total: float
    units: list[WorkloadUnitOut]


class WorkloadSummaryOut(CamelSchema):
    year: int
    total_teachers: int
    total_units_delivered: int
    semester1_total_hours: float
    semester2_total_hours: float
    total_actual_hours: float
    teachers: list[WorkloadTeacherOut]


class DeliverySummaryRowOut(CamelSchema):
    unit_code: str
    unit_name: str
    block_group_code: str
    block_group_name: str
    nominal_hours: int
    actual_delivery_hours: float
    first_delivery_date: date
    last_delivery_date: date


# ---------------------------------------------------------------- allocation grid


class GridSessionOut(CamelSchema):
    id: UUID
    date: date
    start_time: str  # HH:MM:SS
    end_time: str
    unit_code: str
    block_group_code: str
    actual_hours: float
    room: str
    status: str


class GridWeekStatsOut(CamelSchema):
    week_number: int
    week_start: date
    total_hours: float
    daytime_hours: float
    evening_hours: float
    utilization_percentage: float
    is_over_capacity: bool
    sessions: list[GridSessionOut]


class GridYearlyStatsOut(CamelSchema):
    utilization_percentage: float
    total_hours: float


class GridTeacherOut(CamelSchema):
    teacher_id: UUID
    teacher_name: str
    max_weekly_hours: int
    is_active: bool
    yearly_stats: GridYearlyStatsOut
    weekly_stats: list[GridWeekStatsOut]


class GridWeekOut(CamelSchema):
    week_number: int
    week_start: date
    week_end: date


class GridSummaryOut(CamelSchema):
    total_teachers: int
    active_teachers: int
    over_capacity_teachers: int
    under_utilized_teachers: int
    average_utilization: float


class CompactGridTeacherOut(CamelSchema):
    """One active teacher of the compact grid: arrays indexed like ``weeks`` (ADR 0010)."""

    teacher_id: UUID
    teacher_name: str
    max_weekly_hours: int
    is_active: bool
    yearly_stats: GridYearlyStatsOut
    total_hours: list[float]
    evening_hours: list[float]
    utilization_percentage: list[float]
    sessions: list[int]
    evening_sessions: list[int]


class CompactAllocationGridOut(CamelSchema):
    year: int
    term: int | None = None
    summary: GridSummaryOut
    weeks: list[GridWeekOut]
    teachers: list[CompactGridTeacherOut]


class AllocationGridOut(CamelSchema):
    year: int
    term: int | None = None
    summary: GridSummaryOut
    weeks: list[GridWeekOut]
    teachers: list[GridTeacherOut]


# ---------------------------------------------------------------- dashboard


class DashboardCountsOut(CamelSchema):
    active_courses: int
    active_teachers: int
    block_groups: int


class DashboardStatsOut(CamelSchema):
    active_courses: int
    active_teachers: int
    block_groups: int
    weekly_hours: float
    efficiency: float
    thirty_days_ago: DashboardCountsOut | None = None


class AllocationOut(CamelSchema):
    id: UUID
    date: date
    time: str  # 'HH:MM - HH:MM'
    teacher_name: str
    unit_code: str
    unit_name: str
    block_group_code: str
    room: str
    status: str


class UnallocatedTeacherOut(CamelSchema):
    id: UUID
    name: str
    initials: str
    max_weekly_hours: int


class TeacherAllocationsOut(CamelSchema):
    allocations: list[AllocationOut]
    unallocated_teachers: list[UnallocatedTeacherOut]


class TeacherWorkloadEntryOut(CamelSchema):
    id: UUID
    name: str
    initials: str
    hours: float
    max_hours: int
    percentage: int


class CodeNameOut(CamelSchema):
    code: str
    name: str


class UpcomingSessionOut(CamelSchema):
    id: UUID
    day_of_week: int  # 0 Sunday .. 6 Saturday
    actual_date: date
    start_time: str  # HH:MM
    end_time: str
    unit: CodeNameOut
    block_group: CodeNameOut
    teacher: str | None = None
    room: str | None = None
    status: str


class RoomUtilisationRowOut(CamelSchema):
    room_id: UUID
    code: str
    name: str
    type: str
    type_label: str
    campus: str | None
    capacity: int | None
    booked_hours: float
    available_hours: float | None
    utilisation_percent: float | None
    average_weekly_hours: float
    peak_week_hours: float


class RoomTypeUtilisationOut(CamelSchema):
    type: str
    type_label: str
    rooms: int
    booked_hours: float
    available_hours: float | None
    utilisation_percent: float | None


class RoomUtilisationOut(CamelSchema):
    """GET /api/reports/room-utilisation (ADR 0019): hours booked against available hours per room and type."""

    year: int
    teaching_weeks: int
    hours_per_week: int
    rooms: list[RoomUtilisationRowOut]
    by_type: list[RoomTypeUtilisationOut]
