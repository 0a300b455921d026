"""Reports, teacher allocation grid and dashboard endpoints (docs/behaviour/reports.md,
docs/behaviour/reports.md §7). Thin: parse the query, call one selector, answer.

Definitions (see :mod:`project.reporting.selectors` and :mod:`project.reporting.selectors.dashboard`): hours are
sums of ``actualHours`` of non-cancelled sessions (docs/behaviour/hours.md §2); semester 1 = January-June; the
term of a date per ``TermCalendar`` (the organization's term breaks, quarters otherwise); weeks
Monday-Sunday; evening = starts at or after 17:00 or ends after 17:00; "today" in the user's timezone.

Errors: 400 ``validation_error`` for a bad ``year`` (outside 2000-2100), ``term``, ``start``/``end``
or ``format``; 401 when signed out; 403 for the allocation grid to a non-admin; 404 "Teacher not
found" for another organization's teacher.
"""

from __future__ import annotations

from datetime import date
from uuid import UUID

from django.http import HttpResponse
from ninja import Query

from project.core.auth import AuthedRequest, admin_auth
from project.core.errors import ValidationFailed
from project.core.response_cache import cached_json
from project.core.routers import make_router
from project.reporting import exports, selectors
from project.reporting.params import parse_iso_date, parse_term, parse_year, today_for
from project.reporting.schemas import (
    AllocationGridOut,
    BlockGroupWithoutTimetableOut,
    CompactAllocationGridOut,
    DashboardStatsOut,
    DeliverySummaryRowOut,
    GridSessionOut,
    LoadPlanningOut,
    RoomUtilisationOut,
    SchedulingSummaryOut,
    TeacherAllocationsOut,
    TeacherWorkloadEntryOut,
    UpcomingSessionOut,
    WorkloadSummaryOut,
)
from project.reporting.selectors.dashboard import MAX_RANGE_DAYS

router = make_router(tags=["reporting"])


# ---------------------------------------------------------------- reports


@router.get("/reports/block-groups-without-timetables", response=list[BlockGroupWithoutTimetableOut])
def block_groups_without_timetables(request: AuthedRequest) -> list[dict[str, object]]:
    """Block groups with no timetable session, by code (docs/behaviour/reports.md §1). Always an array."""
    return selectors.block_group_list_without_timetables(org=request.auth.org)


@router.get("/reports/scheduling-summary", response=SchedulingSummaryOut)
def scheduling_summary(request: AuthedRequest, year: str | None = None) -> dict[str, object]:
    """Scheduling summary of ``year`` (default: the current year in the user's timezone)."""
    ctx = request.auth
    y = parse_year(year, ctx.user)
    return selectors.scheduling_summary(org=ctx.org, year=y, today=today_for(ctx.user))


@router.get("/reports/load-planning", response=LoadPlanningOut)
def load_planning(request: AuthedRequest, year: str | None = None) -> HttpResponse:
    """Load planning of ``year`` (default: current year): termData by term, course, block group."""
    # Kept until the organization's next change (ADR 0013): the open report screens re-read it at once.
    ctx = request.auth
    y = parse_year(year, ctx.user)
    return cached_json(request, "load-planning", {"year": y}, lambda: selectors.load_planning(org=ctx.org, year=y))


@router.get("/reports/room-utilisation", response=RoomUtilisationOut)
def room_utilisation_report(request: AuthedRequest, year: str | None = None) -> dict[str, object]:
    """Room utilisation of ``year`` (default: the current year in the user's timezone; ADR 0019): per
    recorded room and per room type, hours booked against hours available (50 a teaching week)."""
    ctx = request.auth
    return selectors.room_utilisation(org=ctx.org, year=parse_year(year, ctx.user))


@router.get("/reports/room-utilisation/export")
def room_utilisation_export(request: AuthedRequest, format: str | None = None, year: str | None = None) -> HttpResponse:
    """The room utilisation report as ``room-utilisation-{year}.csv`` or ``.xlsx`` (an attachment);
    ``format`` must be ``csv`` or ``xlsx`` (400 otherwise)."""
    ctx = request.auth
    fmt = (format or "").strip().lower()
    if fmt not in exports.FORMATS:
        raise ValidationFailed.field("format", "Format must be csv or xlsx")
    return exports.room_utilisation_file(selectors.room_utilisation(org=ctx.org, year=parse_year(year, ctx.user)), fmt)


@router.get("/reports/load-planning/export")
def load_planning_export(request: AuthedRequest, format: str | None = None, year: str | None = None) -> HttpResponse:
    """The load planning report as ``load-planning-report.csv`` or ``.xlsx`` (an attachment).

    ``format`` must be ``csv`` or ``xlsx`` (400 otherwise).
    """
    ctx = request.auth
    fmt = (format or "").strip().lower()
    if fmt not in exports.FORMATS:
        raise ValidationFailed.field("format", "Format must be csv or xlsx")
    report = selectors.load_planning(org=ctx.org, year=parse_year(year, ctx.user))
    return exports.load_planning_file(report, fmt)


# ---------------------------------------------------------------- teachers


@router.get("/teachers/workload-summary", response=WorkloadSummaryOut)
def teacher_workload_summary(request: AuthedRequest, year: str | None = None) -> HttpResponse:
    """Teacher workload summary of ``year`` with the semester split (docs/behaviour/reports.md)."""
    # Kept until the organization's next change (ADR 0013).
    ctx = request.auth
    y = parse_year(year, ctx.user)
    return cached_json(
        request, "teacher-workload-summary", {"year": y}, lambda: selectors.teacher_workload_summary(org=ctx.org, year=y)
    )


@router.get("/teachers/allocation-gantt", response=AllocationGridOut, auth=admin_auth)
def allocation_gantt(request: AuthedRequest, year: str | None = None, term: str | None = None) -> HttpResponse:
    """Teacher allocation grid of ``year``, or of ``term`` 1-4 in it (admin only; 403 otherwise).

    Answered as pre-serialised JSON in the shape of :class:`AllocationGridOut`: a year of a large
    organization holds tens of thousands of sessions, too many to validate one by one in time.
    """
    ctx = request.auth
    y = parse_year(year, ctx.user)
    t = parse_term(term)
    return HttpResponse(selectors.allocation_grid_json(org=ctx.org, year=y, term=t), content_type="application/json")


@router.get("/teachers/allocation-grid", response=CompactAllocationGridOut, auth=admin_auth)
def allocation_grid_compact(request: AuthedRequest, year: str | None = None, term: str | None = None) -> HttpResponse:
    """The allocation grid in compact form (ADR 0010): the summary and weeks of
    ``allocation-gantt`` and per active teacher arrays indexed like ``weeks`` (totalHours, eveningHours,
    utilizationPercentage, sessions and eveningSessions counts); a cell's sessions come from
    ``/teachers/{id}/allocation-week``. Admin only (403 otherwise); 400 for a bad year or term."""
    # Kept until the organization's next change (ADR 0013): every open grid re-reads it after a change it
    # shows (ADR 0025), and one build serves them.
    ctx = request.auth
    y, t = parse_year(year, ctx.user), parse_term(term)
    return cached_json(
        request,
        "allocation-grid",
        {"year": y, "term": t},
        lambda: selectors.allocation_grid_compact(org=ctx.org, year=y, term=t),
    )


@router.get("/teachers/{uuid:teacher_id}/allocation-week", response=list[GridSessionOut], auth=admin_auth)
def allocation_week(
    request: AuthedRequest, teacher_id: UUID, week_start: date = Query(..., alias="weekStart")
) -> list[dict[str, object]]:
    """One teacher-week's sessions of the allocation grid (the week holding ``weekStart``), in the grid's
    session shape. Admin only; 404 "Teacher not found" for another organization's teacher."""
    return selectors.week_sessions(org=request.auth.org, teacher_id=teacher_id, week=week_start)


@router.get("/teachers/{uuid:teacher_id}/delivery-summary", response=list[DeliverySummaryRowOut])
def teacher_delivery_summary(request: AuthedRequest, teacher_id: UUID, year: str | None = None) -> list[dict[str, object]]:
    """Per unit and block group delivery of one teacher in ``year``; 404 "Teacher not found"."""
    ctx = request.auth
    return selectors.teacher_delivery_summary(org=ctx.org, teacher_id=teacher_id, year=parse_year(year, ctx.user))


# ---------------------------------------------------------------- dashboard


# The dashboard's answers are kept until the organization's next change (ADR 0013's cache; ADR 0025): after
# a change every open dashboard asks at once, and one build serves them all.


@router.get("/dashboard/stats", response=DashboardStatsOut)
def dashboard_stats(request: AuthedRequest) -> HttpResponse:
    """Stat cards of the dashboard; this week in the user's timezone (docs/behaviour/reports.md §7)."""
    ctx = request.auth
    today = today_for(ctx.user)
    return cached_json(request, "dashboard-stats", {"today": today}, lambda: selectors.dashboard_stats(org=ctx.org, today=today))


@router.get("/dashboard/teacher-allocations", response=TeacherAllocationsOut)
def dashboard_teacher_allocations(request: AuthedRequest, start: str | None = None, end: str | None = None) -> HttpResponse:
    """Allocated sessions and unallocated active teachers for ``start``..``end`` (YYYY-MM-DD, inclusive).

    400 when either is missing or malformed, when end is before start, or for more than 366 days.
    """
    ctx = request.auth
    first = parse_iso_date(start, "start", "Start date")
    last = parse_iso_date(end, "end", "End date")
    if last < first:
        raise ValidationFailed.field("end", "End date must be on or after start date")
    if (last - first).days >= MAX_RANGE_DAYS:
        raise ValidationFailed.field("end", f"The date range cannot exceed {MAX_RANGE_DAYS} days")
    return cached_json(
        request,
        "dashboard-allocations",
        {"start": first, "end": last},
        lambda: selectors.teacher_allocations(org=ctx.org, start=first, end=last),
    )


@router.get("/dashboard/teacher-workload", response=list[TeacherWorkloadEntryOut])
def dashboard_teacher_workload(request: AuthedRequest) -> HttpResponse:
    """This week's hours of every active teacher (docs/behaviour/reports.md §7 "Teacher workload entry")."""
    ctx = request.auth
    today = today_for(ctx.user)
    return cached_json(
        request, "dashboard-workload", {"today": today}, lambda: selectors.teacher_workload(org=ctx.org, today=today)
    )


@router.get("/dashboard/upcoming-sessions", response=list[UpcomingSessionOut])
def dashboard_upcoming_sessions(request: AuthedRequest) -> HttpResponse:
    """Sessions of the next 7 days (today and the 6 after, user's timezone); dayOfWeek 0 = Sunday."""
    ctx = request.auth
    today = today_for(ctx.user)
    return cached_json(
        request, "dashboard-upcoming", {"today": today}, lambda: selectors.upcoming_sessions(org=ctx.org, today=today)
    )
