"""Field types shared by the planning schemas: the hour fields of a study plan unit (decimals with 2
places, precision 6: docs/behaviour/hours.md §2, §4), the year level, and required whole numbers with an upper limit."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator

from project.core.schemas import at_least, at_most, required

MAX_HOURS = Decimal("9999.99")  # precision 6, scale 2 (docs/behaviour/hours.md §4)
MAX_TOTAL_NOMINAL_HOURS = 100_000
MAX_COHORT_SIZE = 10_000
MAX_SESSION_DURATION = 12  # hours; a session is at most 12 hours (docs/behaviour/hours.md §4)
MAX_SESSIONS_PER_DAY = 10


def quantize_hours(value: Decimal) -> Decimal:
    """Hours stored with 2 decimals (half up)."""
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def hours(label: str) -> object:  # a type for a field annotation
    """An hour field of a study plan unit: a number >= 0 ("<label> must be non-negative"), at most
    9999.99, stored with 2 decimals. Null or an empty string becomes 0 (docs/behaviour/study-plans.md §2 "An empty input
    becomes 0")."""
    return Annotated[
        Decimal,
        BeforeValidator(lambda v: Decimal("0") if v is None or (isinstance(v, str) and not v.strip()) else v),
        at_least(0, f"{label} must be non-negative"),
        at_most(MAX_HOURS, f"{label} cannot exceed {MAX_HOURS}"),
        AfterValidator(quantize_hours),
    ]


# The seven hour fields with their labels (messages "<label> must be non-negative").
HOUR_LABELS = {
    "face_to_face_hours": "Face to face hours",
    "facilitated_e_learning_hours": "Facilitated e-learning hours",
    "work_integrated_learning_hours": "Work integrated learning hours",
    "in_class_assessment_hours": "In-class assessment hours",
    "structured_learning_hours": "Structured learning hours",
    "work_integrated_learning_balance_hours": "Work integrated learning balance hours",
    "cumulative_assessment_hours": "Cumulative assessment hours",
}

YearLevel = Annotated[
    int,
    BeforeValidator(lambda v: 1 if v is None else v),
    at_least(1, "Year level must be at least 1"),
    at_most(4, "Year level cannot exceed 4"),
]


def required_count(label: str, maximum: int) -> object:  # a type for a field annotation
    """A required whole number from 1 to ``maximum`` (total nominal hours, cohort size): "<label> must be
    at least 1" (also when absent or null), "<label> cannot exceed <maximum>"."""
    return Annotated[
        int | None,
        required(f"{label} must be at least 1"),
        at_least(1, f"{label} must be at least 1"),
        at_most(maximum, f"{label} cannot exceed {maximum}"),
    ]
