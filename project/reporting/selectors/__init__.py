"""Reads behind the Reports screen and the teacher allocation grid, one module per report (ADR 0021):

- :mod:`.common`: the definitions every figure uses (hours, year, semester, term, weeks, evening) and
  the shared helpers and thresholds;
- :mod:`.block_groups`: block groups without timetables;
- :mod:`.scheduling_summary`: the scheduling summary;
- :mod:`.load_planning`: load planning;
- :mod:`.workload`: teacher workload and delivery summaries;
- :mod:`.grid`: the documented allocation grid; :mod:`.compact_grid`: the compact grid and a teacher's week;
- :mod:`.dashboard`: the Dashboard's figures; :mod:`.room_utilisation`: room utilisation.

The names below are the package's public reads, as callers import them (``selectors.load_planning``).
"""

from project.reporting.selectors.block_groups import block_group_list_without_timetables
from project.reporting.selectors.common import (
    CANCELLED,
    EVENING_Q,
    OVER_CAPACITY_ABOVE,
    UNDER_UTILISED_BELOW,
    bucket_expression,
    delivered,
    hours,
    initials,
    percent,
    teacher_name,
    term_ranges,
    year_bounds,
)
from project.reporting.selectors.compact_grid import allocation_grid_compact, week_sessions
from project.reporting.selectors.dashboard import dashboard_stats, teacher_allocations, teacher_workload, upcoming_sessions
from project.reporting.selectors.grid import (
    allocation_grid,
    allocation_grid_json,
    grid_range,
    grid_teachers_and_weeks,
)
from project.reporting.selectors.load_planning import load_planning
from project.reporting.selectors.room_utilisation import room_utilisation
from project.reporting.selectors.scheduling_summary import scheduling_summary
from project.reporting.selectors.workload import teacher_delivery_summary, teacher_workload_summary

__all__ = [
    "CANCELLED",
    "EVENING_Q",
    "OVER_CAPACITY_ABOVE",
    "UNDER_UTILISED_BELOW",
    "allocation_grid",
    "allocation_grid_compact",
    "allocation_grid_json",
    "block_group_list_without_timetables",
    "bucket_expression",
    "dashboard_stats",
    "delivered",
    "grid_range",
    "grid_teachers_and_weeks",
    "hours",
    "initials",
    "load_planning",
    "percent",
    "room_utilisation",
    "scheduling_summary",
    "teacher_allocations",
    "teacher_delivery_summary",
    "teacher_name",
    "teacher_workload",
    "teacher_workload_summary",
    "term_ranges",
    "upcoming_sessions",
    "week_sessions",
    "year_bounds",
]
