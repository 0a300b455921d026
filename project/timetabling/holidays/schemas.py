"""Holiday schemas (docs/behaviour/terms-and-holidays.md §1).

``HolidayIn`` is the body of POST and PUT /api/holidays (the same form). ``startDate`` and ``endDate``
are required dates (``YYYY-MM-DD``; an empty string counts as absent), the end on or after the start
(error path ``endDate``). Defaults: type public_holiday, isRecurring false, isActive true; ``year``
defaults to the start date's year.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from project.core.schemas import (
    BlankToNone,
    CamelSchema,
    CleanText,
    FormIn,
    at_least,
    at_most,
    check,
    in_date_range,
    none_to,
    not_before,
    required,
    required_text,
    text,
)

HOLIDAY_TYPES = ("public_holiday", "term_break")
STATES = ("ACT", "NSW", "NT", "QLD", "SA", "TAS", "VIC", "WA")
MIN_YEAR, MAX_YEAR = 2000, 2100

MSG_START = "Start date is required"
MSG_END = "End date is required"
MSG_ORDER = "End date must be on or after start date"

YearRange = (
    at_least(MIN_YEAR, f"Year must be between {MIN_YEAR} and {MAX_YEAR}"),
    at_most(MAX_YEAR, f"Year must be between {MIN_YEAR} and {MAX_YEAR}"),
)


class HolidayIn(FormIn):
    """POST and PUT /api/holidays body."""

    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    type: Annotated[
        str | None,
        none_to("public_holiday"),
        CleanText,
        BlankToNone,
        none_to("public_holiday"),
        check(lambda v: v in HOLIDAY_TYPES, "Type must be public_holiday or term_break"),
    ] = "public_holiday"
    start_date: Annotated[date | None, BlankToNone, required(MSG_START), in_date_range("Start date")] = Field(
        default=None, validate_default=True
    )
    end_date: Annotated[
        date | None, BlankToNone, required(MSG_END), in_date_range("End date"), not_before("start_date", MSG_ORDER)
    ] = Field(default=None, validate_default=True)
    description: text("Description") = Field(default="", validate_default=True)
    is_recurring: Annotated[bool, none_to(False)] = False
    year: Annotated[int | None, BlankToNone, *YearRange] = None
    is_active: Annotated[bool, none_to(True)] = True


class HolidayImportIn(FormIn):
    """POST /api/holidays/import-public body: ``{"state": "VIC", "year": 2027}``; ``"preview": true``
    answers what would be added and writes nothing."""

    state: Annotated[
        str | None,
        CleanText,
        BlankToNone,
        required("State is required"),
        AfterValidator(lambda v: v.upper()),
        check(lambda v: v in STATES, "State must be one of: " + ", ".join(STATES)),
    ] = Field(default=None, validate_default=True)
    year: Annotated[int | None, BlankToNone, required("Year is required"), *YearRange] = Field(
        default=None, validate_default=True
    )
    preview: bool = False


class HolidayFilters(CamelSchema):
    """GET /api/holidays query: ``year`` (a recurring holiday shows in every year) and ``type``."""

    year: int | None = None
    type: Literal["public_holiday", "term_break"] | None = None


class HolidayOut(CamelSchema):
    """A holiday as the SPA reads it; dates ``YYYY-MM-DD`` (inclusive), timestamps ISO 8601 in UTC."""

    id: uuid.UUID
    name: str
    type: str
    start_date: date
    end_date: date
    description: str
    is_recurring: bool
    year: int
    is_active: bool
    created_at: datetime
    updated_at: datetime


class PublicHolidayPreviewOut(CamelSchema):
    """A public holiday an import would add (preview)."""

    date: date
    name: str


class HolidayImportOut(CamelSchema):
    """Answer of the public holiday import: the holidays added and how many dates were already present;
    with ``preview``, nothing is added and ``wouldAdd`` lists what would be."""

    added: list[HolidayOut]
    skipped: int
    would_add: list[PublicHolidayPreviewOut] = []
