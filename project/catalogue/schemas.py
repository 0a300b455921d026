"""Schemas of courses, units of competency and campuses (docs/behaviour/units-and-courses.md §2).

Input schemas validate with the documents' own messages; a ``ValueError(msg)`` in a validator becomes
``{"path": [field], "message": msg}`` in the 400 ``validation_error`` answer (docs/behaviour/errors.md §2).
Field lengths of docs/behaviour/units-and-courses.md §2 are checked here so that no over-long value ever reaches the database.

The text helpers (:func:`text`, :func:`required_text`, :func:`flag`) come from ``project.core.schemas``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self
from uuid import UUID

from pydantic import BeforeValidator, Field, model_validator

from project.catalogue.models import Campus
from project.core.refs import OrgRef
from project.core.schemas import (
    CamelSchema,
    FormIn,
    StampedOut,
    at_least,
    at_most,
    clean_text,
    flag,
    none_to,
    required,
    required_text,
    text,
)

MAX_NOMINAL_HOURS = 10_000


# --- courses ---------------------------------------------------------------------------------------

CourseLevel = Literal["certificate_iii", "certificate_iv", "diploma"]


class CourseIn(FormIn):
    """POST/PUT /api/courses body (PUT replaces every field)."""

    code: required_text("Code", 20) = Field(default=None, validate_default=True)
    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    level: Annotated[CourseLevel, none_to("certificate_iii")] = "certificate_iii"
    description: text("Description") = ""
    is_active: flag(True) = True


class CourseOut(StampedOut):
    id: UUID
    code: str
    name: str
    level: str
    description: str
    is_active: bool


# --- units of competency ----------------------------------------------------------------------------


class UnitIn(FormIn):
    """POST/PUT /api/units body. ``nominalHours`` is an integer of at least 1 (docs/behaviour/units-and-courses.md §2)."""

    code: required_text("Code", 20) = Field(default=None, validate_default=True)
    name: required_text("Name", 255) = Field(default=None, validate_default=True)
    description: text("Description") = ""
    nominal_hours: Annotated[
        int | None,
        required("Nominal hours must be at least 1"),
        at_least(1, "Nominal hours must be at least 1"),
        at_most(MAX_NOMINAL_HOURS, f"Nominal hours cannot exceed {MAX_NOMINAL_HOURS}"),
    ] = Field(default=None, validate_default=True)
    is_core: flag(True) = True
    prerequisites: text("Prerequisites") = ""


class UnitOut(StampedOut):
    id: UUID
    code: str
    name: str
    description: str
    nominal_hours: int
    is_core: bool
    prerequisites: str


# --- campuses ---------------------------------------------------------------------------------------


class CampusOut(CamelSchema):
    """GET /api/campuses row: campuses are read for selection only (docs/behaviour/units-and-courses.md §3)."""

    id: UUID
    name: str
    abbreviation: str


# --- rooms (ADR 0019) ------------------------------------------------------------------------------

RoomType = Literal["classroom", "computer_lab", "workshop", "kitchen", "online", "other"]
MAX_CAPACITY = 1000
MAX_FEATURES = 30


def _features(value: Any) -> Any:
    """Free tags ("Cisco rack", "welding bays"): trimmed, blanks and repeats dropped, each at most 50."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("Features must be a list of texts")
    out: list[str] = []
    for v in value:
        tag = clean_text(v)
        if tag and tag.casefold() not in {o.casefold() for o in out}:
            if len(tag) > 50:
                raise ValueError("A feature must be at most 50 characters")
            out.append(tag)
    if len(out) > MAX_FEATURES:
        raise ValueError(f"A room can have at most {MAX_FEATURES} features")
    return out


class RoomIn(FormIn):
    """POST/PUT /api/rooms body (PUT replaces every field). An online room has no capacity."""

    code: required_text("Code", 50) = Field(default=None, validate_default=True)
    name: text("Name", 255) = ""
    campus_id: Annotated[UUID | None, OrgRef(Campus, "Campus")] = None
    capacity: Annotated[
        int | None,
        at_least(1, "Capacity must be at least 1"),
        at_most(MAX_CAPACITY, f"Capacity cannot exceed {MAX_CAPACITY}"),
    ] = None
    type: Annotated[RoomType, none_to("classroom")] = "classroom"
    features: Annotated[list[str], BeforeValidator(_features)] = Field(default_factory=list)
    is_active: flag(True) = True

    @model_validator(mode="after")
    def _online_has_no_capacity(self) -> Self:
        if self.type == "online":
            self.capacity = None
        return self


class RoomCampusOut(CamelSchema):
    id: UUID
    name: str
    abbreviation: str


class RoomOut(StampedOut):
    id: UUID
    code: str
    name: str
    campus_id: UUID | None
    campus: RoomCampusOut | None
    capacity: int | None
    type: str
    features: list[str]
    is_active: bool
    session_count: int = 0
