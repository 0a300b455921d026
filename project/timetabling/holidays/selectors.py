"""Reads of holidays and term breaks (docs/behaviour/terms-and-holidays.md §1).

The list is one query whatever the row count. Another organization's holiday reads as 404
"Holiday not found".
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

from django.db.models import Q, QuerySet

from project.core.tenancy import get_in_org
from project.timetabling.models import Holiday

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization


def holiday_list(*, org: Organization, year: int | None = None, type: str | None = None) -> QuerySet:
    """The organization's holidays (active and inactive), by start date then name.

    year: holidays whose ``year`` is that year, plus every recurring holiday (it repeats each year).
    type: ``public_holiday`` or ``term_break``.
    """
    qs = Holiday.objects.for_org(org)
    if year is not None:
        qs = qs.filter(Q(year=year) | Q(is_recurring=True))
    if type:
        qs = qs.filter(type=type)
    return qs.order_by("start_date", "name", "id")


def holiday_get(*, org: Organization, holiday_id: UUID | str) -> Holiday:
    """One holiday of ``org``; NotFound "Holiday not found" otherwise."""
    return get_in_org(Holiday, org, holiday_id, label="Holiday")
