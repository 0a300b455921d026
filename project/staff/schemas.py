"""Teacher and teacher-unit schemas (docs/behaviour/teachers.md §1).

JSON is camelCase (``CamelSchema``). Validators raise the spec's own messages, which ``project.api``
turns into ``400 {"message": "Validation failed", "errors": [{"path": [field], "message": ...}]}``.

- ``TeacherIn`` (POST): the full form, with the spec's defaults (employmentType ongoing, availability
  day, maxWeeklyHours 21, isActive true).
- ``TeacherUpdateIn`` (PUT): every field optional; only the fields present in the body are applied
  (the SPA sends the full form, or ``{"isActive": false}`` alone to deactivate). A field sent as null
  that cannot be empty gets its "required" message.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Annotated, Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from pydantic import Field

from project.catalogue.models import Unit
from project.core.refs import OrgRef
from project.core.schemas import (
    BlankToNone,
    CamelSchema,
    CleanText,
    FormIn,
    StampedOut,
    at_least,
    at_most,
    check,
    in_date_range,
    max_length,
    required,
    required_text,
    text,
)
from project.staff.availability.schemas import AvailabilityPatternOut
from project.staff.availability.selectors import pattern_json, profile_values
from project.staff.models import Teacher

EMPLOYMENT_TYPES = ("ongoing", "fixed_term", "sessional")
AVAILABILITIES = ("day", "evening", "both")

MSG_MAX_HOURS_MIN = "Max weekly hours must be at least 1"
MSG_MAX_HOURS_MAX = "Max weekly hours cannot exceed 40"
MSG_SELECT_UNIT = "Please select a unit"


def _is_email(value: str) -> bool:
    try:
        validate_email(value)
    except DjangoValidationError:
        return False
    return True


EmployeeId = required_text("Employee ID", 50)
FirstName = required_text("First name", 100)
LastName = required_text("Last name", 100)
Email = Annotated[required_text("Email", 255), check(_is_email, "Invalid email address")]
Phone = text("Phone", 20)
JobTitle = text("Job title", 100)
EmploymentType = Annotated[
    str | None,
    BlankToNone,
    required("Employment type is required"),
    check(lambda v: v in EMPLOYMENT_TYPES, "Employment type must be one of: ongoing, fixed_term, sessional"),
]
Availability = Annotated[
    str | None,
    BlankToNone,
    required("Availability is required"),
    check(lambda v: v in AVAILABILITIES, "Availability must be one of: day, evening, both"),
]
ExpiryDate = Annotated[date | None, BlankToNone, in_date_range("Expiry date")]
MaxWeeklyHours = Annotated[
    int | None,
    BlankToNone,
    required("Max weekly hours is required"),
    at_least(1, MSG_MAX_HOURS_MIN),
    at_most(40, MSG_MAX_HOURS_MAX),
]
IsActive = Annotated[bool | None, required("Active status is required")]
Qualifications = text("Qualifications")


class TeacherIn(FormIn):
    """POST /api/teachers body (docs/behaviour/teachers.md §1)."""

    employee_id: EmployeeId = Field(default=None, validate_default=True)
    first_name: FirstName = Field(default=None, validate_default=True)
    last_name: LastName = Field(default=None, validate_default=True)
    email: Email = Field(default=None, validate_default=True)
    phone: Phone = Field(default="", validate_default=True)
    job_title: JobTitle = Field(default="", validate_default=True)
    employment_type: EmploymentType = "ongoing"
    expiry_date: ExpiryDate = None
    availability: Availability = "day"
    max_weekly_hours: MaxWeeklyHours = 21
    is_active: IsActive = True
    qualifications: Qualifications = Field(default="", validate_default=True)


class TeacherUpdateIn(FormIn):
    """PUT /api/teachers/{id} body: any subset of the teacher fields; only those sent are applied."""

    employee_id: EmployeeId = None
    first_name: FirstName = None
    last_name: LastName = None
    email: Email = None
    phone: Phone = None
    job_title: JobTitle = None
    employment_type: EmploymentType = None
    expiry_date: ExpiryDate = None
    availability: Availability = None
    max_weekly_hours: MaxWeeklyHours = None
    is_active: IsActive = None
    qualifications: Qualifications = None


class TeacherOut(StampedOut):
    """A teacher as the SPA reads it; ``unitCount`` is the number of units the teacher is qualified for."""

    id: uuid.UUID
    employee_id: str
    first_name: str
    last_name: str
    email: str
    phone: str
    job_title: str
    employment_type: str
    expiry_date: date | None
    availability: str
    max_weekly_hours: int
    is_active: bool
    qualifications: str
    unit_count: int = 0
    # The weekly pattern, preferences, limits and campuses (ADR 0027): the screens read them from the list.
    availability_pattern: AvailabilityPatternOut

    @staticmethod
    def resolve_availability_pattern(obj: Any) -> dict[str, Any]:
        """Any: a Teacher row (its profile joined by the selectors) or a dict already holding the pattern."""
        if isinstance(obj, dict):
            return obj["availability_pattern"]
        return pattern_json(obj.availability, profile_values(getattr(obj, "availability_profile", None)))


class TeacherUnitIn(FormIn):
    """POST /api/teacher-units body. ``proficiencyLevel`` defaults to "competent" (max 20)."""

    teacher_id: Annotated[uuid.UUID | None, BlankToNone, required("Teacher is required"), OrgRef(Teacher, "Teacher")] = Field(
        default=None, validate_default=True
    )
    unit_id: Annotated[uuid.UUID | None, BlankToNone, required(MSG_SELECT_UNIT), OrgRef(Unit, "Unit")] = Field(
        default=None, validate_default=True
    )
    proficiency_level: Annotated[
        str | None, CleanText, BlankToNone, max_length(20, "Proficiency level must be at most 20 characters")
    ] = None


class TeacherUnitUnitOut(CamelSchema):
    id: uuid.UUID
    code: str
    name: str
    nominal_hours: int


class TeacherUnitOut(StampedOut):
    """A teacher's unit qualification with the unit embedded (docs/behaviour/teachers.md §1)."""

    id: uuid.UUID
    teacher_id: uuid.UUID
    unit_id: uuid.UUID
    proficiency_level: str
    unit: TeacherUnitUnitOut
