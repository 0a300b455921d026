"""Teacher availability schemas (ADR 0027): the body of ``PUT /api/teachers/{id}/availability`` and the
pattern answered by it, by the GET and inside each teacher of ``GET /api/teachers``.

Times are wall-clock ``HH:MM`` (``HH:MM:SS`` accepted on input), weekdays 0 = Monday .. 6 = Sunday, dates
``YYYY-MM-DD`` inclusive, hours in hours (step 0.5). Preference levels are UniTime's scale:
strongly_preferred, preferred, neutral, discouraged, strongly_discouraged, prohibited (= unavailable).
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, time
from decimal import Decimal
from typing import Annotated

from pydantic import Field, model_validator

from project.catalogue.models import Campus
from project.core.refs import OrgRef, OrgRefs
from project.core.schemas import (
    BlankToNone,
    CamelSchema,
    CleanText,
    FormIn,
    NoneToEmpty,
    at_least,
    at_most,
    check,
    in_date_range,
    later_than,
    max_length,
    not_before,
    required,
)
from project.staff.availability.patterns import ALL_LEVELS, LEVELS
from project.staff.models import Teacher

MAX_WINDOWS = 200
MAX_VARIANTS = 20
MSG_WEEKDAY = "Weekday must be 0 (Monday) to 6 (Sunday)"
MSG_START = "Start time is required"
MSG_END = "End time is required"
MSG_TIME_ORDER = "End time must be after start time"
MSG_LEVEL = "Level must be one of: " + ", ".join(ALL_LEVELS)
MSG_CAMPUS_LEVEL = "Campus preference level must be one of: " + ", ".join(LEVELS)
MSG_TOO_MANY = f"At most {MAX_WINDOWS} windows"
MSG_TOO_MANY_VARIANTS = f"At most {MAX_VARIANTS} date-range variants"
MSG_HALF_HOURS = "Hours must be in steps of 0.5"

Weekday = Annotated[int | None, required("Weekday is required"), at_least(0, MSG_WEEKDAY), at_most(6, MSG_WEEKDAY)]
StartTime = Annotated[time | None, BlankToNone, required(MSG_START)]
EndTime = Annotated[time | None, BlankToNone, required(MSG_END), later_than("start", MSG_TIME_ORDER)]


VariantName = Annotated[str | None, CleanText, NoneToEmpty, max_length(100, "Name must be at most 100 characters")]


def _half_hours(value: Decimal) -> bool:
    return (value * 2) % 1 == 0


class WindowIn(FormIn):
    """An available window: ``{weekday, start, end}``."""

    weekday: Weekday = Field(default=None, validate_default=True)
    start: StartTime = Field(default=None, validate_default=True)
    end: EndTime = Field(default=None, validate_default=True)


class PreferenceIn(WindowIn):
    """A preference window: ``{weekday, start, end, level}``."""

    level: Annotated[str | None, BlankToNone, required("Level is required"), check(lambda v: v in ALL_LEVELS, MSG_LEVEL)] = Field(
        default=None, validate_default=True
    )


class VariantIn(FormIn):
    """The windows that replace the weekly pattern from ``startDate`` to ``endDate`` (a term, a semester)."""

    name: VariantName = ""
    start_date: Annotated[date | None, BlankToNone, required("Start date is required"), in_date_range("Start date")] = Field(
        default=None, validate_default=True
    )
    end_date: Annotated[
        date | None,
        BlankToNone,
        required("End date is required"),
        in_date_range("End date"),
        not_before("start_date", "End date must be on or after start date"),
    ] = Field(default=None, validate_default=True)
    windows: Annotated[list[WindowIn], Field(max_length=MAX_WINDOWS)] = []


class AvailabilityIn(FormIn):
    """PUT /api/teachers/{id}/availability body: the whole pattern (what is not sent is cleared)."""

    windows: Annotated[list[WindowIn], Field(max_length=MAX_WINDOWS)] = []
    preferences: Annotated[list[PreferenceIn], Field(max_length=MAX_WINDOWS)] = []
    variants: Annotated[list[VariantIn], Field(max_length=MAX_VARIANTS)] = []
    max_hours_per_day: Annotated[
        Decimal | None,
        BlankToNone,
        at_least(Decimal("0.5"), "Max hours per day must be at least 0.5"),
        at_most(24, "Max hours per day cannot exceed 24"),
        check(_half_hours, MSG_HALF_HOURS),
    ] = None
    max_hours_per_week: Annotated[
        Decimal | None,
        BlankToNone,
        at_least(Decimal("0.5"), "Max hours per week must be at least 0.5"),
        at_most(80, "Max hours per week cannot exceed 80"),
        check(_half_hours, MSG_HALF_HOURS),
    ] = None
    max_days_per_week: Annotated[
        int | None,
        BlankToNone,
        at_least(1, "Max days per week must be at least 1"),
        at_most(7, "Max days per week cannot exceed 7"),
    ] = None
    campus_ids: Annotated[list[uuid.UUID], Field(max_length=200), OrgRefs(Campus, "Campus")] = []
    preferred_campus_id: Annotated[uuid.UUID | None, BlankToNone, OrgRef(Campus, "Campus")] = None
    preferred_campus_level: Annotated[str | None, BlankToNone, check(lambda v: v in LEVELS, MSG_CAMPUS_LEVEL)] = "preferred"


class WindowOut(CamelSchema):
    weekday: int
    start: str
    end: str


class PreferenceOut(WindowOut):
    level: str


class VariantOut(CamelSchema):
    name: str
    start_date: date
    end_date: date
    windows: list[WindowOut]


class AvailabilityPatternOut(CamelSchema):
    """A teacher's availability as the screens read it (also inside each teacher of the list).

    ``custom`` false: the windows are the form's availability word's; hour limits null when not set;
    ``campusIds`` empty means every campus."""

    custom: bool
    windows: list[WindowOut]
    preferences: list[PreferenceOut]
    variants: list[VariantOut]
    max_hours_per_day: float | None
    max_hours_per_week: float | None
    max_days_per_week: int | None
    campus_ids: list[uuid.UUID]
    preferred_campus_id: uuid.UUID | None
    preferred_campus_level: str


class AvailabilityOut(AvailabilityPatternOut):
    """``GET/PUT /api/teachers/{id}/availability``: the pattern, its teacher, the form's word kept in step
    (``availability``: day, evening or both) and ``updatedAt`` (send it back as ``If-Match``)."""

    teacher_id: uuid.UUID
    availability: str
    updated_at: datetime


class UnavailableQuery(CamelSchema):
    """``?start&end`` (inclusive, at most 400 days) ``[&teacherId]`` of ``GET /api/teachers/unavailable``."""

    start: Annotated[date, in_date_range("Start date")]
    end: Annotated[
        date,
        in_date_range("End date"),
        not_before("start", "End date must be on or after start date"),
    ]
    teacher_id: Annotated[uuid.UUID | None, OrgRef(Teacher, "Teacher")] = None

    @model_validator(mode="after")
    def _at_most_400_days(self) -> UnavailableQuery:
        if (self.end - self.start).days > 400:
            raise ValueError("A date range covers at most 400 days")
        return self


class UnavailableOut(CamelSchema):
    """A time a teacher cannot teach: ``date`` and ``start``/``end`` as ``HH:MM``."""

    teacher_id: uuid.UUID
    date: date
    start: str
    end: str
