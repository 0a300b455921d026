"""The Load Planning report (docs/behaviour/reports.md). Definitions: :mod:`project.reporting.selectors.common`."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from django.db.models import (
    Sum,
)

from project.catalogue.models import Unit
from project.planning.models import BlockGroup
from project.reporting.selectors.common import (
    NO_COURSE_KEY,
    NO_COURSE_NAME,
    delivered,
    hours,
    term_expression,
    term_ranges,
    year_bounds,
)
from project.timetabling.calendar import TermCalendar

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

# ---------------------------------------------------------------- load planning


def load_planning(*, org: Organization, year: int) -> dict:
    """Load Planning tab for ``year`` (docs/behaviour/reports.md "Load planning").

    ``termData[term]["courses"][courseId]`` with courseName, courseCode, ``blockGroups[blockGroupId]``
    and totals; ``termData[term]["grandTotals"]``. Terms per ``TermCalendar`` (term breaks of the
    organization, quarters otherwise); only terms, courses and groups that have non-cancelled sessions
    in the year appear. Block groups without a course sit under the key ``"none"`` ("No course").

    Per block group and term:
    - nominalHours: the nominal hours of the distinct units the group has sessions for in that term
      (a unit delivered across two terms counts in both terms);
    - actualHours: hours of the group's sessions in that term;
    - studentCount: the group's cohortSize.
    Course totals and grand totals add these up. Keys are strings (JSON objects); courses and groups
    are ordered by code, "none" last. Four queries: term breaks, one pass over the year's sessions
    grouped by (term, block group, unit) ids, then units and block groups for names and hours.
    """
    ranges = term_ranges(TermCalendar.for_org(org), year)
    start, end = year_bounds(year)
    rows = (
        delivered(org)
        .filter(actual_date__range=(start, end))
        .annotate(term_no=term_expression(ranges))
        .values("term_no", "block_group_id", "unit_id")
        .annotate(hours=Sum("actual_hours"))
        .order_by()
    )
    per_group: dict[tuple[int, object], list[Decimal]] = {}
    nominal_of: dict | None = None
    for r in rows:
        if nominal_of is None:
            nominal_of = dict(Unit.objects.for_org(org).values_list("id", "nominal_hours"))
        acc = per_group.setdefault((r["term_no"], r["block_group_id"]), [Decimal(0), Decimal(0)])
        acc[0] += Decimal(nominal_of[r["unit_id"]] or 0)
        acc[1] += r["hours"] or Decimal(0)

    groups = {
        g["id"]: g
        for g in BlockGroup.objects.for_org(org).values(
            "id", "code", "name", "cohort_size", "course_id", "course__code", "course__name"
        )
    }

    term_data: dict[str, dict] = {}
    ordered = sorted(
        per_group.items(),
        key=lambda item: (
            item[0][0],
            groups[item[0][1]]["course_id"] is None,
            groups[item[0][1]]["course__code"] or "",
            groups[item[0][1]]["code"],
        ),
    )
    for (term, group_id), (nominal, actual) in ordered:
        g = groups[group_id]
        term_entry = term_data.setdefault(
            str(term),
            {"courses": {}, "grandTotals": {"nominalHours": 0.0, "actualHours": 0.0, "studentCount": 0}},
        )
        course_key = str(g["course_id"]) if g["course_id"] else NO_COURSE_KEY
        course = term_entry["courses"].setdefault(
            course_key,
            {
                "courseName": g["course__name"] if g["course_id"] else NO_COURSE_NAME,
                "courseCode": g["course__code"] if g["course_id"] else "",
                "blockGroups": {},
                "totals": {"nominalHours": 0.0, "actualHours": 0.0, "studentCount": 0},
            },
        )
        course["blockGroups"][str(group_id)] = {
            "blockGroupName": g["name"],
            "blockGroupCode": g["code"],
            "nominalHours": hours(nominal),
            "actualHours": hours(actual),
            "studentCount": g["cohort_size"],
        }
        for totals in (course["totals"], term_entry["grandTotals"]):
            totals["nominalHours"] = hours(Decimal(str(totals["nominalHours"])) + nominal)
            totals["actualHours"] = hours(Decimal(str(totals["actualHours"])) + actual)
            totals["studentCount"] += g["cohort_size"]
    return {"year": year, "termData": term_data}
