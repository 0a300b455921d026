"""Schema building blocks: camelCase JSON (decisions.md §1) and validators with the spec's own messages.

Every API schema derives from :class:`CamelSchema`. A validator raising ``ValueError(msg)`` becomes
``{"path": [field], "message": msg}`` in the 400 answer (``project.api`` strips pydantic's prefix).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable

from ninja import Schema
from pydantic import AfterValidator, BeforeValidator, ConfigDict
from pydantic.alias_generators import to_camel


class CamelSchema(Schema):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        from_attributes=True,
    )


def _blank_to_none(value: Any) -> Any:
    if isinstance(value, str) and value.strip() == "":
        return None
    return value


# An empty string from a form field counts as absent (delivery.md §5: "an empty string is treated as absent").
BlankToNone = BeforeValidator(_blank_to_none)


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


class MessageOut(CamelSchema):
    message: str


class ErrorItem(CamelSchema):
    path: list[str | int]
    message: str


class ErrorOut(CamelSchema):
    message: str
    type: str | None = None
    errors: list[ErrorItem] | None = None
