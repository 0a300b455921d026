"""Teacher workload and delivery summaries (docs/behaviour/reports.md). Definitions: :mod:`project.reporting.selectors.common`."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db.models import (
    Max,
    Min,
    Q,
    Sum,
)

from project.catalogue.models import Unit
from project.core.tenancy import get_in_org
from project.planning.models import BlockGroup
from project.reporting.selectors.common import (
    delivered,
    hours,
    teacher_name,
    year_bounds,
)
from project.staff.models import Teacher

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from project.accounts.models import Organization

# ---------------------------------------------------------------- teacher workload and delivery


def teacher_workload_summary(*, org: Organization, year: int) -> dict:
    """Teacher Workload Summary tab for ``year`` (docs/behaviour/reports.md "Teacher workload summary").

    Teachers (active or not) with at least one non-cancelled session in the year, by total hours
    descending (ties by name). Per teacher: teacherId, teacherName, teacherEmployeeId, isActive,
    totalHours, semester1Total (Jan-Jun), semester2Total (Jul-Dec), units[] ordered by total hours
    descending then code, each with unitCode, unitName, nominalHours, semester1Hours, semester2Hours,
    totalActualHours, blockGroups (sorted names of the groups the teacher taught it to),
    firstDeliveryDate, lastDeliveryDate.

    Top level: totalTeachers (teachers listed), totalUnitsDelivered (distinct units delivered by any
    teacher), semester1TotalHours, semester2TotalHours, totalActualHours.

    Four queries: one pass over the year's sessions grouped by (teacher, unit, block group) ids with
    the semester sums and first/last dates, then the organization's teachers, units and block groups
    for names. The grouped rows (bounded by the teaching allocations, not by sessions) are added up here.
    """
    start, end = year_bounds(year)
    mid = date(year, 7, 1)
    rows = (
        delivered(org)
        .filter(actual_date__range=(start, end), teacher__isnull=False)
        .values("teacher_id", "unit_id", "block_group_id")
        .annotate(
            s1=Sum("actual_hours", filter=Q(actual_date__lt=mid)),
            s2=Sum("actual_hours", filter=Q(actual_date__gte=mid)),
            first=Min("actual_date"),
            last=Max("actual_date"),
        )
        .order_by()
    )
    per_pair: dict[tuple, dict] = {}
    for r in rows:
        p = per_pair.setdefault(
            (r["teacher_id"], r["unit_id"]),
            {"s1": Decimal(0), "s2": Decimal(0), "first": r["first"], "last": r["last"], "groups": set()},
        )
        p["s1"] += r["s1"] or Decimal(0)
        p["s2"] += r["s2"] or Decimal(0)
        p["first"] = min(p["first"], r["first"])
        p["last"] = max(p["last"], r["last"])
        p["groups"].add(r["block_group_id"])
    if not per_pair:
        teacher_rows, unit_rows, group_names = {}, {}, {}
    else:
        teacher_rows = {
            t["id"]: t for t in Teacher.objects.for_org(org).values("id", "first_name", "last_name", "employee_id", "is_active")
        }
        unit_rows = {u["id"]: u for u in Unit.objects.for_org(org).values("id", "code", "name", "nominal_hours")}
        group_names = dict(BlockGroup.objects.for_org(org).values_list("id", "name"))

    teachers: dict[object, dict] = {}
    sums = {"s1": Decimal(0), "s2": Decimal(0)}
    units_delivered = set()
    for (teacher_id, unit_id), p in per_pair.items():
        tr, ur = teacher_rows[teacher_id], unit_rows[unit_id]
        total = p["s1"] + p["s2"]
        t = teachers.setdefault(
            teacher_id,
            {
                "teacherId": teacher_id,
                "teacherName": teacher_name(tr["first_name"], tr["last_name"]),
                "teacherEmployeeId": tr["employee_id"],
                "isActive": tr["is_active"],
                "_s1": Decimal(0),
                "_s2": Decimal(0),
                "units": [],
            },
        )
        t["_s1"] += p["s1"]
        t["_s2"] += p["s2"]
        sums["s1"] += p["s1"]
        sums["s2"] += p["s2"]
        units_delivered.add(unit_id)
        t["units"].append(
            {
                "unitCode": ur["code"],
                "unitName": ur["name"],
                "nominalHours": ur["nominal_hours"],
                "semester1Hours": hours(p["s1"]),
                "semester2Hours": hours(p["s2"]),
                "totalActualHours": hours(total),
                "blockGroups": sorted(group_names[g] for g in p["groups"]),
                "firstDeliveryDate": p["first"],
                "lastDeliveryDate": p["last"],
                "_total": total,
            }
        )
    out = []
    for t in teachers.values():
        t["units"].sort(key=lambda u: (-u["_total"], u["unitCode"]))
        for u in t["units"]:
            del u["_total"]
        s1, s2 = t.pop("_s1"), t.pop("_s2")
        t["totalHours"] = hours(s1 + s2)
        t["semester1Total"] = hours(s1)
        t["semester2Total"] = hours(s2)
        t["_total"] = s1 + s2
        out.append(t)
    out.sort(key=lambda t: (-t["_total"], t["teacherName"], str(t["teacherId"])))
    for t in out:
        del t["_total"]
    return {
        "year": year,
        "totalTeachers": len(out),
        "totalUnitsDelivered": len(units_delivered),
        "semester1TotalHours": hours(sums["s1"]),
        "semester2TotalHours": hours(sums["s2"]),
        "totalActualHours": hours(sums["s1"] + sums["s2"]),
        "teachers": out,
    }


def teacher_delivery_summary(*, org: Organization, teacher_id: UUID | str, year: int) -> list[dict]:
    """Unit Delivery Summary of one teacher for ``year`` (docs/behaviour/teachers.md §1 "Teacher delivery summary row").

    One row per (unit, block group) the teacher delivered non-cancelled sessions of in the year,
    ordered by first delivery date then unit code: unitCode, unitName, blockGroupCode, blockGroupName,
    nominalHours (the unit's), actualDeliveryHours, firstDeliveryDate, lastDeliveryDate.
    Raises NotFound "Teacher not found" for an unknown id or another organization's. Two queries.
    """
    teacher = get_in_org(Teacher, org, teacher_id, label="Teacher")
    start, end = year_bounds(year)
    rows = (
        delivered(org)
        .filter(teacher=teacher, actual_date__range=(start, end))
        .values(
            "unit_id",
            "unit__code",
            "unit__name",
            "unit__nominal_hours",
            "block_group_id",
            "block_group__code",
            "block_group__name",
        )
        .annotate(hours=Sum("actual_hours"), first=Min("actual_date"), last=Max("actual_date"))
        .order_by("first", "unit__code", "block_group__code")
    )
    return [
        {
            "unitCode": r["unit__code"],
            "unitName": r["unit__name"],
            "blockGroupCode": r["block_group__code"],
            "blockGroupName": r["block_group__name"],
            "nominalHours": r["unit__nominal_hours"],
            "actualDeliveryHours": hours(r["hours"]),
            "firstDeliveryDate": r["first"],
            "lastDeliveryDate": r["last"],
        }
        for r in rows
    ]
