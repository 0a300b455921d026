"""Schema building blocks: camelCase JSON (docs/behaviour/api.md §1) and validators with the spec's own messages.

Every API schema derives from :class:`CamelSchema`. A validator raising ``ValueError(msg)`` becomes
``{"path": [field], "message": msg}`` in the 400 answer (``project.api`` strips pydantic's prefix).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time
from decimal import Decimal
from typing import Annotated, Any

from ninja import Schema
from ninja.schema import DjangoGetter
from pydantic import AfterValidator, BeforeValidator, ConfigDict, ValidationInfo, model_validator
from pydantic.alias_generators import to_camel

from project.core.errors import ValidationFailed

# project.api's parser refuses NUL in every body string and query value with this message.
NUL_MESSAGE = "Text must not contain NUL characters"
SURROGATE_MESSAGE = "Text must be valid Unicode (no lone surrogate characters)"

# Dates the API accepts (the years of reporting.params and the holiday form). Bounding every input date
# keeps calendar arithmetic (week ranges, +1 month end dates, 3-year schedules) far from Python's
# date limits, so no stored or requested date can make a later call fail.
MIN_YEAR, MAX_YEAR = 2000, 2100


class CamelSchema(Schema):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        from_attributes=True,
    )


class FormIn(CamelSchema):
    """Base of request bodies.

    A body that is not a JSON object is a 400, and a missing required field (``required(msg)`` with
    ``validate_default``) is reported at its camelCase path: pydantic would report a defaulted field at
    its snake_case name, so the missing camelCase keys are filled with null before validation.
    """

    @model_validator(mode="before")
    @classmethod
    def _fill_missing(cls, data: Any) -> Any:
        target = data._obj if isinstance(data, DjangoGetter) else data
        if target is None or isinstance(target, (list, str, int, float, bool)):
            raise ValueError("The request body must be a JSON object")
        if isinstance(target, dict):
            missing: dict = {}
            for name, field in cls.model_fields.items():
                alias = field.alias or name
                if field.validate_default and alias not in target and name not in target:
                    missing[alias] = None
            if missing:
                if isinstance(data, DjangoGetter):
                    data._obj = {**target, **missing}
                else:
                    data = {**target, **missing}
        return data


class StampedOut(CamelSchema):
    """``createdAt``/``updatedAt`` of an answer; the API's renderer keeps microseconds so that
    ``updatedAt`` can be sent back as ``If-Match`` (docs/behaviour/concurrency.md §1)."""

    created_at: datetime
    updated_at: datetime


def _blank_to_none(value: Any) -> Any:
    if isinstance(value, str) and value.strip() == "":
        return None
    return value


# An empty string from a form field counts as absent (docs/behaviour/errors.md §2: "an empty string is treated as absent").
BlankToNone = BeforeValidator(_blank_to_none)


def clean_text(value: Any) -> Any:
    """Trim a string and refuse NUL characters (PostgreSQL cannot store them: it would be a 500); any
    other value passes unchanged."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError(NUL_MESSAGE)
        return value.strip()
    return value


# The free text of a form field: trimmed, NUL refused.
CleanText = BeforeValidator(clean_text)
# An optional text sent as null is stored as "".
NoneToEmpty = AfterValidator(lambda value: "" if value is None else value)


def none_to(default: Any) -> BeforeValidator:
    """A field sent as null takes ``default`` (the form's default, docs/behaviour/hours.md)."""
    return BeforeValidator(lambda value: default if value is None else value)


def required(message: str) -> AfterValidator:
    """Use with ``Field(default=None, validate_default=True)``: a missing or null value gets ``message``."""

    def check(value: Any) -> Any:
        if value is None or (isinstance(value, str) and value.strip() == ""):
            raise ValueError(message)
        return value

    return AfterValidator(check)


def at_least(minimum: float | int | Decimal, message: str) -> AfterValidator:
    def check(value: Any) -> Any:
        if value is not None and value < minimum:
            raise ValueError(message)
        return value

    return AfterValidator(check)


def at_most(maximum: float | int | Decimal, message: str) -> AfterValidator:
    def check(value: Any) -> Any:
        if value is not None and value > maximum:
            raise ValueError(message)
        return value

    return AfterValidator(check)


def max_length(limit: int, message: str | None = None) -> AfterValidator:
    def check(value: Any) -> Any:
        if isinstance(value, str) and len(value) > limit:
            raise ValueError(message or f"Must be at most {limit} characters")
        return value

    return AfterValidator(check)


def check(predicate: Callable[[Any], bool], message: str) -> AfterValidator:
    def run(value: Any) -> Any:
        if value is not None and not predicate(value):
            raise ValueError(message)
        return value

    return AfterValidator(run)


def not_before(start_field: str, message: str) -> AfterValidator:
    """Use on the end of a period of dates (inclusive): an end earlier than the body's ``start_field``
    (validated before it) gets ``message``; a missing end or start passes (their own messages say so)."""

    def check(value: Any, info: ValidationInfo) -> Any:
        start = info.data.get(start_field)
        if value is not None and start is not None and value < start:
            raise ValueError(message)
        return value

    return AfterValidator(check)


def later_than(start_field: str, message: str) -> AfterValidator:
    """Use on an end time: an end not after the body's ``start_field`` (validated before it) gets
    ``message``; anything that is not a ``time`` on either side passes (its own message says why)."""

    def check(value: Any, info: ValidationInfo) -> Any:
        start = info.data.get(start_field)
        if isinstance(start, time) and isinstance(value, time) and value <= start:
            raise ValueError(message)
        return value

    return AfterValidator(check)


# Free text such as descriptions: generous, but bounded so that a request cannot store megabytes.
LONG_TEXT = 10_000


def required_text(label: str, limit: int) -> Any:
    """A required, trimmed string: "<label> is required", "<label> must be at most <limit> characters"."""
    return Annotated[
        str | None,
        CleanText,
        required(f"{label} is required"),
        max_length(limit, f"{label} must be at most {limit} characters"),
    ]


def text(label: str, limit: int = LONG_TEXT) -> Any:
    """An optional trimmed string; null or absent becomes ""; "<label> must be at most <limit> characters"."""
    return Annotated[
        str | None,
        CleanText,
        NoneToEmpty,
        max_length(limit, f"{label} must be at most {limit} characters"),
    ]


def flag(default: bool) -> Any:
    """A boolean; null or absent becomes ``default``."""
    return Annotated[bool, none_to(default)]


def date_range_message(label: str = "Date") -> str:
    return f"{label} must be between {MIN_YEAR} and {MAX_YEAR}"


def in_date_range(label: str = "Date") -> AfterValidator:
    """Use on every input ``date``: a date outside years 2000-2100 gets "<label> must be between 2000
    and 2100" (None passes)."""

    def check_range(value: Any) -> Any:
        if isinstance(value, date) and not MIN_YEAR <= value.year <= MAX_YEAR:
            raise ValueError(date_range_message(label))
        return value

    return AfterValidator(check_range)


def ensure_date_in_range(value: date, path: str | list, label: str = "Date") -> date:
    """The same bound for a date a service computes from input (a week number, a start plus weeks):
    :class:`ValidationFailed` at ``path`` when outside years 2000-2100."""
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValidationFailed.field(path, date_range_message(label))
    return value


class MessageOut(CamelSchema):
    message: str


class ErrorItem(CamelSchema):
    path: list[str | int]
    message: str


class ErrorOut(CamelSchema):
    message: str
    type: str | None = None
    errors: list[ErrorItem] | None = None
