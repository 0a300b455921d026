"""Ninja schemas of schedule generation: the schedule request and its answers (docs/behaviour/generation.md)."""

from __future__ import annotations

import datetime as dt
from datetime import date, time
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, field_validator

from project.core.schemas import BlankToNone, CamelSchema, at_most, in_date_range, max_length
from project.timetabling.schemas import EndTimeText, TimeText, _strip


class SessionTemplateIn(CamelSchema):
    start_time: TimeText = Field(default=None, validate_default=True)
    end_time: EndTimeText = Field(default=None, validate_default=True)
    duration: Annotated[Decimal | None, at_most(Decimal("12"), "Hours cannot exceed 12 per session")] = Field(
        default=None, validate_default=True
    )

    @field_validator("duration", mode="after")
    @classmethod
    def _positive(cls, value: Decimal | None) -> Decimal:
        if value is None or value <= 0:
            raise ValueError("Duration must be positive")
        return value


NO_TEMPLATE = "At least one session template is required"


class ScheduleIn(CamelSchema):
    """The schedule request (docs/behaviour/generation.md §1): templates in order, start date (default: the group's)."""

    session_templates: list[SessionTemplateIn] | None = Field(default=None, validate_default=True)
    start_date: Annotated[date | None, BlankToNone, in_date_range("Start date")] = None
    room: Annotated[str | None, BeforeValidator(_strip), max_length(50, "Room must be at most 50 characters")] = ""
    # Without a room, a room type makes the generation choose a free room of that type for each
    # session (of the group's campus, seating its cohort).
    room_type: Literal["classroom", "computer_lab", "workshop", "kitchen", "online", "other"] | None = None
    notes: Annotated[str | None, BlankToNone] = None
    # omitted, the block group's stored choice of its last generation (ADR 0015); given, stored.
    start_next_unit_in_new_week: bool | None = None

    @field_validator("session_templates", mode="after")
    @classmethod
    def _some(cls, value: list[SessionTemplateIn] | None) -> list[SessionTemplateIn] | None:
        # Omitted: the block group's stored templates, if it has any (the service says so otherwise).
        if value is not None and not value:
            raise ValueError(NO_TEMPLATE)
        overlap = overlapping_templates(value) if value else None
        if overlap:
            raise ValueError(overlap)
        return value


def _hhmm(value: time) -> str:
    return value.strftime("%H:%M")


def overlapping_templates(templates: list[SessionTemplateIn]) -> str | None:
    """The message for the first two templates of one day whose times overlap (end after the other's start),
    or None: each template is a slot of every scheduled day, so two overlapping slots would book the group
    twice at once (ADR 0018). Touching slots (12:00-13:00 after 09:00-12:00) are fine."""
    slots = sorted((t.start_time, t.end_time, i) for i, t in enumerate(templates))
    for (s1, e1, i1), (s2, e2, i2) in zip(slots, slots[1:], strict=False):
        if s2 < e1:
            first, second = sorted([(i1, s1, e1), (i2, s2, e2)])
            return (
                f"Template {first[0] + 1} ({_hhmm(first[1])}-{_hhmm(first[2])}) and template {second[0] + 1} "
                f"({_hhmm(second[1])}-{_hhmm(second[2])}) overlap"
            )
    return None


class HolidaySkipped(CamelSchema):
    date: dt.date
    name: str


class ScheduleOut(CamelSchema):
    sessions_created: int
    hours_scheduled: float
    start_date: date
    end_date: date | None
    last_teaching_date: date | None
    units_scheduled: int
    holidays_skipped: list[HolidaySkipped]
    warnings: list[str]


class ScheduleClearedOut(CamelSchema):
    sessions_deleted: int
    message: str
