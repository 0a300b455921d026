"""Holiday schemas (delivery.md §3 Holiday, §5 Holiday rules, §9 defaults).

``HolidayIn`` is the body of POST and PUT /api/holidays (the same form). ``startDate`` and ``endDate``
are required dates (``YYYY-MM-DD``; an empty string counts as absent), the end on or after the start
(error path ``endDate``). Defaults: type public_holiday, isRecurring false, isActive true; ``year``
defaults to the start date's year.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo, field_validator

from project.core.schemas import (
    BlankToNone,
    CamelSchema,
    FormIn,
    at_least,
    at_most,
    check,
    in_date_range,
    max_length,
    required,
)

HOLIDAY_TYPES = ("public_holiday", "term_break")
STATES = ("ACT", "NSW", "NT", "QLD", "SA", "TAS", "VIC", "WA")
LONG_TEXT = 10_000
MIN_YEAR, MAX_YEAR = 2000, 2100

MSG_START = "Start date is required"
MSG_END = "End date is required"
MSG_ORDER = "End date must be on or after start date"


def _clean(value: Any) -> Any:
    """Trim strings; refuse NUL characters (PostgreSQL cannot store them)."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("Text must not contain NUL characters")
        return value.strip()
    return value


def _none_to(default: Any) -> BeforeValidator:
    return BeforeValidator(lambda value: default if value is None else value)


Clean = BeforeValidator(_clean)
NoneToEmpty = AfterValidator(lambda value: "" if value is None else value)
YearRange = (
    at_least(MIN_YEAR, f"Year must be between {MIN_YEAR} and {MAX_YEAR}"),
    at_most(MAX_YEAR, f"Year must be between {MIN_YEAR} and {MAX_YEAR}"),
)


class HolidayIn(FormIn):
    """POST and PUT /api/holidays body."""

    name: Annotated[str | None, Clean, required("Name is required"), max_length(255, "Name must be at most 255 characters")] = (
        Field(default=None, validate_default=True)
    )
    type: Annotated[
        str | None,
        _none_to("public_holiday"),
        Clean,
        BlankToNone,
        _none_to("public_holiday"),
        check(lambda v: v in HOLIDAY_TYPES, "Type must be public_holiday or term_break"),
    ] = "public_holiday"
    start_date: Annotated[date | None, BlankToNone, required(MSG_START), in_date_range("Start date")] = Field(
        default=None, validate_default=True
    )
    end_date: Annotated[date | None, BlankToNone, required(MSG_END), in_date_range("End date")] = Field(
        default=None, validate_default=True
    )
    description: Annotated[
        str | None, Clean, max_length(LONG_TEXT, f"Description must be at most {LONG_TEXT} characters"), NoneToEmpty
    ] = Field(default="", validate_default=True)
    is_recurring: Annotated[bool, _none_to(False)] = False
    year: Annotated[int | None, BlankToNone, *YearRange] = None
    is_active: Annotated[bool, _none_to(True)] = True

    @field_validator("end_date")
    @classmethod
    def _end_not_before_start(cls, value: date | None, info: ValidationInfo) -> date | None:
        start = info.data.get("start_date")
        if value is not None and start is not None and value < start:
            raise ValueError(MSG_ORDER)
        return value


class HolidayImportIn(FormIn):
    """POST /api/holidays/import-public body: ``{"state": "VIC", "year": 2027}``; ``"preview": true``
    answers what would be added and writes nothing."""

    state: Annotated[
        str | None,
        Clean,
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
