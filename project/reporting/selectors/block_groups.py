"""The Block Groups without timetables report (docs/behaviour/reports.md). Definitions: :mod:`project.reporting.selectors.common`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from project.planning.models import BlockGroup

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

# ---------------------------------------------------------------- block groups without timetables


def block_group_list_without_timetables(*, org: Organization) -> list[dict]:
    """Block groups of ``org`` that have no timetable session at all (of any status), by code.

    Row: id, code, name, status, startDate, endDate (null when unset), deliveryMode, studyPattern
    (the group's ``studyMode``). One query (``NOT EXISTS`` over each group's sessions, by the group index).
    """
    rows = (
        BlockGroup.objects.for_org(org)
        .exclude(sessions__isnull=False)  # NOT EXISTS over the group's own sessions (group index)
        .order_by("code")
        .values("id", "code", "name", "status", "start_date", "end_date", "delivery_mode", "study_mode")
    )
    return [
        {
            "id": r["id"],
            "code": r["code"],
            "name": r["name"],
            "status": r["status"],
            "startDate": r["start_date"],
            "endDate": r["end_date"],
            "deliveryMode": r["delivery_mode"],
            "studyPattern": r["study_mode"],
        }
        for r in rows
    ]
