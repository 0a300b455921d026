"""Reads of study plans, block groups and linked block groups (docs/behaviour/block-groups.md §5; docs/behaviour/hours.md §2).

Every list runs a fixed number of queries whatever its length (annotations, ``select_related`` and
``prefetch_related``). Hours are Decimals here; the schemas answer them as JSON numbers.
"""

from __future__ import annotations

import math
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db.models import Count, DecimalField, F, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum, Value
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce

from project.core.tenancy import get_in_org
from project.planning.days import parse_preferred_days
from project.planning.models import (
    ACTUAL_HOUR_FIELDS,
    BALANCE_HOUR_FIELDS,
    BlockGroup,
    BlockGroupStudyPlan,
    LinkedBlockGroup,
    LinkedBlockGroupMember,
    StudyPlan,
    StudyPlanUnit,
)
from project.timetabling.models import TimetableSession

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from project.accounts.models import Organization

ZERO = Decimal("0")
HOURS_OUT = DecimalField(max_digits=12, decimal_places=2)


def _sum_of(prefix: str, fields: Iterable[str]) -> Coalesce:
    expr: F | CombinedExpression | None = None
    for name in fields:
        term = F(f"{prefix}{name}")
        expr = term if expr is None else expr + term
    return Coalesce(Sum(expr, output_field=HOURS_OUT), Value(ZERO), output_field=HOURS_OUT)


# --- study plans ------------------------------------------------------------------------------------


def study_plan_queryset(*, org: Organization) -> QuerySet[StudyPlan]:
    """Study plans of ``org`` annotated with total_actual_hours, total_self_directed_hours and unit_count."""
    return (
        StudyPlan.objects.for_org(org)
        .annotate(
            total_actual_hours=_sum_of("plan_units__", ACTUAL_HOUR_FIELDS),
            total_self_directed_hours=_sum_of("plan_units__", BALANCE_HOUR_FIELDS),
            unit_count=Count("plan_units"),
        )
        .order_by("name", "created_at")
    )


def study_plan_list(*, org: Organization) -> QuerySet[StudyPlan]:
    """All study plans of the organization with totals, ordered by name (one query)."""
    return study_plan_queryset(org=org)


def study_plan_get(*, org: Organization, plan_id: UUID | str) -> StudyPlan:
    """One study plan with its totals; NotFound "Study plan not found"."""
    return get_in_org(study_plan_queryset(org=org), org, plan_id, "Study plan")


def study_plan_units(*, org: Organization, plan_id: UUID | str) -> list[StudyPlanUnit]:
    """The units of a plan in ``sequenceOrder`` with their unit (two queries). NotFound for the plan."""
    plan = get_in_org(StudyPlan, org, plan_id, "Study plan")
    return list(
        StudyPlanUnit.objects.for_org(org).filter(study_plan=plan).select_related("unit").order_by("sequence_order", "created_at")
    )


def study_plan_unit_get(*, org: Organization, plan_unit_id: UUID | str) -> StudyPlanUnit:
    """One study plan unit with its unit; NotFound "Study plan unit not found"."""
    return get_in_org(StudyPlanUnit.objects.for_org(org).select_related("unit"), org, plan_unit_id, "Study plan unit")


def study_plan_cluster_names(*, org: Organization, plan_id: UUID | str) -> list[str]:
    """Distinct non-empty cluster group names used in the plan, sorted."""
    plan = get_in_org(StudyPlan, org, plan_id, "Study plan")
    names = (
        StudyPlanUnit.objects.for_org(org)
        .filter(study_plan=plan)
        .exclude(cluster_group="")
        .values_list("cluster_group", flat=True)
        .distinct()
    )
    return sorted(set(names))


# --- block groups -----------------------------------------------------------------------------------


def block_group_queryset(*, org: Organization) -> QuerySet[BlockGroup]:
    """Block groups of ``org`` with course, campus, timetable_count and their plan links (3 queries)."""
    sessions = (
        TimetableSession.objects.for_org(org)
        .filter(block_group=OuterRef("pk"))
        .order_by()
        .values("block_group")
        .annotate(n=Count("pk"))
        .values("n")
    )
    links = BlockGroupStudyPlan.objects.for_org(org).select_related("study_plan").order_by("created_at", "id")
    return (
        BlockGroup.objects.for_org(org)
        .select_related("course", "campus")
        .annotate(timetable_count=Coalesce(Subquery(sessions), Value(0)))
        .prefetch_related(Prefetch("plan_links", queryset=links))
        .order_by("code")
    )


def block_group_list(
    *,
    org: Organization,
    statuses: list[str] | None = None,
    course_codes: list[str] | None = None,
    study_modes: list[str] | None = None,
    study_plan_ids: list | None = None,
) -> QuerySet[BlockGroup]:
    """Block groups filtered by any of ``statuses``, course codes, study modes and study plan ids (the
    groups a plan is assigned to) (each filter applies when given; values within one filter are
    alternatives). Ordered by code."""
    qs = block_group_queryset(org=org)
    if statuses:
        qs = qs.filter(status__in=statuses)
    if course_codes:
        qs = qs.filter(course__code__in=course_codes)
    if study_modes:
        qs = qs.filter(study_mode__in=study_modes)
    if study_plan_ids:
        linked = BlockGroupStudyPlan.objects.for_org(org).filter(study_plan_id__in=study_plan_ids)
        qs = qs.filter(pk__in=linked.values("block_group_id"))
    return qs


_GROUP_FIELDS = (
    "id",
    "code",
    "name",
    "course_id",
    "campus_id",
    "course__code",
    "course__name",
    "campus__name",
    "campus__abbreviation",
    "delivery_mode",
    "study_mode",
    "cohort_size",
    "start_date",
    "end_date",
    "preferred_days",
    "session_duration",
    "sessions_per_day",
    "status",
    "created_at",
    "updated_at",
    "preferred_room_type",
)


def block_group_list_rows(
    *,
    org: Organization,
    statuses: list[str] | None = None,
    course_codes: list[str] | None = None,
    study_modes: list[str] | None = None,
    study_plan_ids: list | None = None,
) -> list[dict]:
    """:func:`block_group_list` as JSON-ready camelCase dicts of exactly the ``BlockGroupOut`` shape.

    Three queries (the groups with course and campus; their session counts; the plan names of their
    links), read as values and written by ``project.core.responses.json_response``, without model
    instances or per-field schema validation (ADR 0013). ``tests/core/test_fast_lists.py`` pins the
    answer equal to ``BlockGroupOut`` over the model rows.

    The session counts are one grouped aggregate over the organization's sessions (a hash aggregate of
    one scan), not the list queryset's per-group subquery: that ran one index scan per group, each
    visiting the heap pages of the group's sessions to check their organization, about 23,000 page
    visits for 80 groups and 35,000 sessions (4-5x the rest of the list, the first read after every
    change; py-spy, docs/benchmarks.md).
    """
    qs = block_group_list(
        org=org, statuses=statuses, course_codes=course_codes, study_modes=study_modes, study_plan_ids=study_plan_ids
    )
    rows = list(qs.prefetch_related(None).values_list(*_GROUP_FIELDS))
    names: dict = defaultdict(list)
    counts: dict = {}
    if rows:
        sessions = TimetableSession.objects.for_org(org)
        if statuses or course_codes or study_modes or study_plan_ids:  # a few groups: only theirs
            sessions = sessions.filter(block_group_id__in=[r[0] for r in rows])
        counts = dict(sessions.order_by().values("block_group_id").annotate(n=Count("pk")).values_list("block_group_id", "n"))
        links = (
            BlockGroupStudyPlan.objects.for_org(org)
            .filter(block_group_id__in=[r[0] for r in rows])
            .order_by("created_at", "id")
            .values_list("block_group_id", "study_plan__name")
        )
        for group_id, plan_name in links:
            names[group_id].append(plan_name)
    return [
        {
            "id": r[0],
            "code": r[1],
            "name": r[2],
            "courseId": r[3],
            "campusId": r[4],
            "course": None if r[3] is None else {"id": r[3], "code": r[5], "name": r[6]},
            "campus": None if r[4] is None else {"id": r[4], "name": r[7], "abbreviation": r[8]},
            "deliveryMode": r[9],
            "studyMode": r[10],
            "cohortSize": r[11],
            "startDate": r[12],
            "endDate": r[13],
            "preferredDays": parse_preferred_days(r[14]),
            "preferredDaysText": r[14] or "",
            "sessionDuration": float(r[15]),
            "sessionsPerDay": r[16],
            "status": r[17],
            "timetableCount": counts.get(r[0], 0),
            "studyPlanNames": names.get(r[0], []),
            "createdAt": r[18],
            "updatedAt": r[19],
            "preferredRoomType": r[20] or "",
        }
        for r in rows
    ]


def block_group_get(*, org: Organization, block_group_id: UUID | str) -> BlockGroup:
    """One block group as listed; NotFound "Block group not found"."""
    return get_in_org(block_group_queryset(org=org), org, block_group_id, "Block group")


def _plan_links(*, org: Organization, block_group: BlockGroup) -> list[BlockGroupStudyPlan]:
    """The group's plan links in assignment order, each plan with its units (and their unit) prefetched."""
    units = StudyPlanUnit.objects.for_org(org).select_related("unit").order_by("sequence_order", "created_at")
    return list(
        BlockGroupStudyPlan.objects.for_org(org)
        .filter(block_group=block_group)
        .select_related("study_plan")
        .prefetch_related(Prefetch("study_plan__plan_units", queryset=units))
        .order_by("created_at", "id")
    )


def block_group_study_plans(*, org: Organization, block_group_id: UUID | str) -> list[BlockGroupStudyPlan]:
    """GET /api/block-groups/{id}/study-plans: the assignments with each plan and its units (3 queries)."""
    group = get_in_org(BlockGroup, org, block_group_id, "Block group")
    return _plan_links(org=org, block_group=group)


def _timetabled_by_unit(*, org: Organization, block_group: BlockGroup) -> dict:
    """unit_id -> Decimal hours: sum of actualHours of the group's sessions that are not cancelled."""
    rows = (
        TimetableSession.objects.for_org(org)
        .filter(block_group=block_group)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .order_by()
        .values("unit_id")
        .annotate(hours=Sum("actual_hours"))
    )
    return {row["unit_id"]: row["hours"] or ZERO for row in rows}


def block_group_scheduling_info(*, org: Organization, block_group_id: UUID | str) -> dict:
    """GET /api/block-groups/{id}/scheduling-info: what the Schedule dialog shows.

    studyPlans: the assigned plans in assignment order, each unit with facilitatedHours (face to face +
    facilitated e-learning + in-class assessment, docs/behaviour/hours.md §2), actualHours (four actual fields),
    nominalHours and timetabledHours (its non-cancelled sessions of this group).
    totalFacilitatedHours: over all plan units. remainingFacilitatedHours: per unit, facilitated hours not
    yet timetabled (never below 0), summed; what a generation would add.
    existingSessionCount: the group's sessions that are not cancelled.
    estimatedSessions: per unit, ceil(remaining / sessionDuration), summed. estimatedWeeks:
    ceil(estimatedSessions / (sessionsPerDay x number of preferred days)); 0 without preferred days.
    """
    group = block_group_get(org=org, block_group_id=block_group_id)
    links = _plan_links(org=org, block_group=group)
    timetabled = _timetabled_by_unit(org=org, block_group=group)
    plans = []
    total_facilitated = ZERO
    needed: dict = OrderedDict()
    for link in links:
        units = []
        for pu in link.study_plan.plan_units.all():
            facilitated = pu.facilitated_hours
            total_facilitated += facilitated
            needed[pu.unit_id] = needed.get(pu.unit_id, ZERO) + facilitated
            units.append(
                {
                    "id": pu.pk,
                    "unit_id": pu.unit_id,
                    "code": pu.unit.code,
                    "name": pu.unit.name,
                    "sequence_order": pu.sequence_order,
                    "year_level": pu.year_level,
                    "facilitated_hours": facilitated,
                    "actual_hours": pu.actual_hours,
                    "nominal_hours": pu.unit.nominal_hours,
                    "timetabled_hours": timetabled.get(pu.unit_id, ZERO),
                }
            )
        plans.append({"id": link.study_plan.pk, "name": link.study_plan.name, "units": units})
    duration = group.session_duration or Decimal("1")
    remaining_total = ZERO
    sessions = 0
    for unit_id, hours in needed.items():
        remaining = max(hours - timetabled.get(unit_id, ZERO), ZERO)
        remaining_total += remaining
        sessions += math.ceil(remaining / duration) if remaining > 0 else 0
    per_week = (group.sessions_per_day or 1) * len(parse_preferred_days(group.preferred_days))
    weeks = math.ceil(sessions / per_week) if per_week and sessions else 0
    existing = (
        TimetableSession.objects.for_org(org).filter(block_group=group).exclude(status=TimetableSession.Status.CANCELLED).count()
    )
    return {
        "block_group": group,
        "study_plans": plans,
        "total_facilitated_hours": total_facilitated,
        "remaining_facilitated_hours": remaining_total,
        "existing_session_count": existing,
        "estimated_sessions": sessions,
        "estimated_weeks": weeks,
    }


def block_group_hour_reconciliation(*, org: Organization, block_group_id: UUID | str) -> dict:
    """GET /api/block-groups/{id}/hour-reconciliation over the assigned study plans (docs/behaviour/hours.md §5).

    totalNominalHours: sum of the plans' totalNominalHours; unitNominalHours: sum of the nominal hours of
    their units; totalActualHours: the four actual fields; totalSelfDirectedHours: the three balance
    fields; efficiencyRate: totalActualHours / totalNominalHours x 100 (2 decimals; 0 when no nominal);
    breakdown: each of the seven fields summed. Hours throughout. Two queries after the group lookup.
    """
    group = get_in_org(BlockGroup, org, block_group_id, "Block group")
    nominal = (
        BlockGroupStudyPlan.objects.for_org(org)
        .filter(block_group=group)
        .aggregate(n=Coalesce(Sum("study_plan__total_nominal_hours"), Value(0)))["n"]
    )
    fields = ACTUAL_HOUR_FIELDS + BALANCE_HOUR_FIELDS
    sums = (
        StudyPlanUnit.objects.for_org(org)
        .filter(study_plan__block_group_links__block_group=group)
        .aggregate(
            unit_nominal=Coalesce(Sum("unit__nominal_hours"), Value(0)),
            **{f: Coalesce(Sum(f), Value(ZERO), output_field=HOURS_OUT) for f in fields},
        )
    )
    actual = sum((sums[f] for f in ACTUAL_HOUR_FIELDS), ZERO)
    self_directed = sum((sums[f] for f in BALANCE_HOUR_FIELDS), ZERO)
    return {
        "total_nominal_hours": nominal,
        "unit_nominal_hours": sums["unit_nominal"],
        "total_actual_hours": actual,
        "total_self_directed_hours": self_directed,
        "efficiency_rate": round(float(actual) / nominal * 100, 2) if nominal else 0.0,
        "breakdown": {f: sums[f] for f in fields},
    }


def block_group_timetabled_units(*, org: Organization, block_group_id: UUID | str) -> list[dict]:
    """GET /api/block-groups/{id}/timetabled-units: units of the assigned plans (assignment then sequence
    order, each unit once) then any other unit with sessions of this group (by code). timetabledHours is
    the sum of actualHours of the group's non-cancelled sessions of that unit (docs/behaviour/hours.md §2).
    plannedHours: the facilitated hours the assigned plans give the unit (what scheduling aims for,
    summed when two plans hold it); null for a unit of no assigned plan (ADR 0018)."""
    group = get_in_org(BlockGroup, org, block_group_id, "Block group")
    rows: dict = OrderedDict()
    for link in _plan_links(org=org, block_group=group):
        for pu in link.study_plan.plan_units.all():
            row = rows.setdefault(
                pu.unit_id,
                {
                    "unit_id": pu.unit_id,
                    "unit_code": pu.unit.code,
                    "unit_name": pu.unit.name,
                    "nominal_hours": pu.unit.nominal_hours,
                    "timetabled_hours": ZERO,
                    "planned_hours": ZERO,
                },
            )
            row["planned_hours"] += pu.facilitated_hours
    sessions = (
        TimetableSession.objects.for_org(org)
        .filter(block_group=group)
        .order_by()
        .values("unit_id", "unit__code", "unit__name", "unit__nominal_hours")
        .annotate(
            hours=Coalesce(
                Sum("actual_hours", filter=~Q(status=TimetableSession.Status.CANCELLED)), Value(ZERO), output_field=HOURS_OUT
            )
        )
    )
    extra = []
    for s in sessions:
        row = rows.get(s["unit_id"])
        if row is None:
            extra.append(
                {
                    "unit_id": s["unit_id"],
                    "unit_code": s["unit__code"],
                    "unit_name": s["unit__name"],
                    "nominal_hours": s["unit__nominal_hours"],
                    "timetabled_hours": s["hours"],
                    "planned_hours": None,
                }
            )
        else:
            row["timetabled_hours"] = s["hours"]
    return list(rows.values()) + sorted(extra, key=lambda r: r["unit_code"])


def block_group_units(*, org: Organization, block_group_id: UUID | str, year_level: int | None = None) -> list[dict]:
    """GET /api/block-groups/{id}/units?yearLevel=n: the units of the assigned plans (of that year level
    when given), in assignment then sequence order, each unit once."""
    group = get_in_org(BlockGroup, org, block_group_id, "Block group")
    out: dict = OrderedDict()
    for link in _plan_links(org=org, block_group=group):
        for pu in link.study_plan.plan_units.all():
            if year_level is not None and pu.year_level != year_level:
                continue
            out.setdefault(
                pu.unit_id,
                {
                    "id": pu.unit_id,
                    "code": pu.unit.code,
                    "name": pu.unit.name,
                    "nominal_hours": pu.unit.nominal_hours,
                    "is_core": pu.unit.is_core,
                    "year_level": pu.year_level,
                    "sequence_order": pu.sequence_order,
                    "study_plan_id": link.study_plan.pk,
                    "study_plan_name": link.study_plan.name,
                    "study_plan_unit_id": pu.pk,
                },
            )
    return list(out.values())


# --- linked block groups ----------------------------------------------------------------------------


def linked_group_queryset(*, org: Organization) -> QuerySet[LinkedBlockGroup]:
    """Linked groups of ``org`` with their members and each member's block group (2 queries)."""
    members = LinkedBlockGroupMember.objects.for_org(org).select_related("block_group").order_by("block_group__code")
    return (
        LinkedBlockGroup.objects.for_org(org)
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("name", "created_at")
    )


def linked_group_list(*, org: Organization) -> QuerySet[LinkedBlockGroup]:
    """All linked groups of the organization, ordered by name."""
    return linked_group_queryset(org=org)


def linked_group_get(*, org: Organization, linked_group_id: UUID | str) -> LinkedBlockGroup:
    """One linked group with members; NotFound "Linked block group not found"."""
    return get_in_org(linked_group_queryset(org=org), org, linked_group_id, "Linked block group")
