"""Reads of holidays and term breaks (delivery.md §7 Holidays).

The list is one query whatever the row count. Another organization's holiday reads as 404
"Holiday not found".
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from project.core.tenancy import get_in_org
from project.timetabling.models import Holiday


def holiday_list(*, org, year: int | None = None, type: str | None = None) -> QuerySet:
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


def holiday_get(*, org, holiday_id) -> Holiday:
    """One holiday of ``org``; NotFound "Holiday not found" otherwise."""
    return get_in_org(Holiday, org, holiday_id, label="Holiday")
