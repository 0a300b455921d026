"""Writes of holidays and term breaks (docs/behaviour/terms-and-holidays.md §1; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md).

Each service runs in one transaction, reaches rows only through the organization (404 for another
organization's id) and writes in one ``org_change`` unit with entity ``holiday``.

Beyond the spec: :func:`holiday_import_public` adds a state's public holidays for a year from the
``holidays`` package (``holidays.country_holidays("AU", subdiv=state, years=year)``).
"""

from __future__ import annotations

from datetime import date
from typing import Any
from uuid import UUID

import holidays as holidays_lib
from django.db import transaction

from project.accounts.models import Organization
from project.core.changes import org_change
from project.core.concurrency import assert_fresh
from project.core.tenancy import Ctx, get_locked
from project.timetabling.calendar import holiday_by_date, holiday_spans
from project.timetabling.models import Holiday

FIELDS = ("name", "type", "start_date", "end_date", "description", "is_recurring", "year", "is_active")


def holiday_create(*, ctx: Ctx, data: dict[str, Any]) -> Holiday:
    """Create a holiday of ``ctx.org`` from validated ``HolidayIn`` fields; ``year`` defaults to the start
    date's year. Emits ``holiday created``."""
    values = {k: data[k] for k in FIELDS if k in data}
    if values.get("year") is None:
        values["year"] = values["start_date"].year
    with transaction.atomic():
        holiday = Holiday(organization=ctx.org, **values)
        with org_change(ctx, "holiday", "created", ids=[holiday.pk]):
            holiday.save(force_insert=True)
    return holiday


def holiday_update(*, ctx: Ctx, holiday_id: UUID | str, data: dict[str, Any], if_match: str | None) -> Holiday:
    """Apply the fields sent (``name``, ``startDate`` and ``endDate`` always) to a holiday of ``ctx.org``.

    ``year`` not sent (or null): kept, unless the start date moved to another year, then that year.
    A stale ``if_match`` raises StaleWrite (412) and nothing changes. Emits ``holiday updated``.
    """
    with transaction.atomic():
        holiday = get_locked(Holiday, ctx, holiday_id, "Holiday")
        assert_fresh(holiday, if_match)
        old_start = holiday.start_date
        for key in FIELDS:
            if key in data and key != "year":
                setattr(holiday, key, data[key])
        if data.get("year") is not None:
            holiday.year = data["year"]
        elif holiday.start_date.year != old_start.year:
            holiday.year = holiday.start_date.year
        with org_change(ctx, "holiday", "updated", ids=[holiday.pk]):
            holiday.save()
    return holiday


def holiday_delete(*, ctx: Ctx, holiday_id: UUID | str) -> None:
    """Delete a holiday of ``ctx.org`` (sessions already generated are not touched). Emits
    ``holiday deleted``. Raises NotFound (404)."""
    with transaction.atomic():
        holiday = get_locked(Holiday, ctx, holiday_id, "Holiday")
        pk = holiday.pk
        with org_change(ctx, "holiday", "deleted", ids=[pk]):
            holiday.delete()


def holiday_public_list(state: str, year: int) -> list[tuple[date, str]]:
    """(date, name) of the public holidays of an Australian state or territory in ``year``, by date,
    from the ``holidays`` package (Australian English names; several names on one date joined by "; ")."""
    calendar = holidays_lib.country_holidays("AU", subdiv=state, years=year, language="en_AU")
    return [(day, "; ".join(calendar.get_list(day))) for day in sorted(calendar)]


def holiday_import_public(*, ctx: Ctx, state: str, year: int, preview: bool = False) -> tuple[list[Holiday], int]:
    """Add ``state``'s public holidays of ``year`` to ``ctx.org``, skipping dates already covered by one of
    its public holidays (active or not, recurring ones included). Returns (added, skipped count).

    Added rows: type public_holiday, one day, not recurring, active, ``year``, description naming the
    state and source. Emits one ``holiday imported`` event with every new id (none when nothing added).
    ``preview``: the rows it would add, unsaved, and nothing is written or emitted (the preview).
    """
    wanted = holiday_public_list(state, year)
    with transaction.atomic():
        # Serialise imports of one organization so that two at once cannot both add a date.
        Organization.objects.select_for_update().filter(pk=ctx.org.pk).values_list("pk", flat=True).get()
        start, end = date(year, 1, 1), date(year, 12, 31)
        existing = Holiday.objects.for_org(ctx.org).filter(type=Holiday.Type.PUBLIC_HOLIDAY)
        covered = holiday_by_date(holiday_spans(existing, start, end))
        rows, skipped = [], 0
        for day, name in wanted:
            if day in covered:
                skipped += 1
                continue
            rows.append(
                Holiday(
                    organization=ctx.org,
                    name=name[:255],
                    type=Holiday.Type.PUBLIC_HOLIDAY,
                    start_date=day,
                    end_date=day,
                    description=f"{state} public holiday (imported from the holidays package)",
                    is_recurring=False,
                    year=year,
                    is_active=True,
                )
            )
        if preview:
            return rows, skipped
        if rows:
            with org_change(ctx, "holiday", "imported", ids=[r.pk for r in rows]):
                Holiday.objects.for_org(ctx.org).bulk_create(rows)
    return rows, skipped
