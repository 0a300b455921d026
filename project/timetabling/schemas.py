"""Schemas of timetable sessions, schedule generation, import and calendar feeds (docs/behaviour/generation.md §1)."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from datetime import date, datetime, time
from decimal import Decimal
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo, field_validator

from project.catalogue.models import Room, Unit
from project.core.errors import NotFound
from project.core.refs import OrgRef, OrgRefs, confirm_filter_refs
from project.core.schemas import BlankToNone, CamelSchema, at_least, at_most, in_date_range, later_than, max_length
from project.planning.models import BlockGroup
from project.staff.models import Teacher
from project.timetabling.models import TimetableSession

TIME_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$")
TIME_MESSAGE = "Invalid time format, use HH:MM:SS"
STATUSES = ("scheduled", "confirmed", "cancelled", "completed")


def parse_time(value: Any) -> time:
    """``HH:MM:SS`` (24 h) text or a ``time`` into a ``time``; ValueError with the spec's message."""
    if isinstance(value, time):
        return value.replace(microsecond=0, tzinfo=None)
    if not isinstance(value, str) or not TIME_RE.match(value.strip()):
        raise ValueError(TIME_MESSAGE)
    h, m, s = (int(p) for p in value.strip().split(":"))
    return time(h, m, s)


def _time(value: Any) -> time:
    return parse_time(value)


TimeText = Annotated[Any, AfterValidator(_time)]
# The end of a session: a TimeText after the body's startTime.
EndTimeText = Annotated[TimeText, later_than("start_time", "End time must be after start time")]


def _teacher(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in {"", "unassigned", "null", "none"}:
        return None
    return value


def _uuid_or_error(message: str) -> AfterValidator:
    def run(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, uuid.UUID):
            return value
        try:
            return uuid.UUID(str(value))
        except (ValueError, TypeError, AttributeError):
            raise ValueError(message) from None

    return AfterValidator(run)


def _uuid_or_404(label: str) -> AfterValidator:
    """A reference whose malformed id answers 404 "<label> not found" like an unknown one (the bulk
    actions' documented answer)."""

    def run(value: Any) -> Any:
        if value is None or isinstance(value, uuid.UUID):
            return value
        try:
            return uuid.UUID(str(value))
        except (ValueError, TypeError, AttributeError):
            raise NotFound(f"{label} not found") from None

    return AfterValidator(run)


def _session_uuids(value: list[Any] | None) -> list[Any] | None:
    """The session ids of a bulk action as UUIDs; a malformed one answers 404 "Timetable session not
    found" (an empty list stays for the service's "Please select sessions ..." answer)."""
    if value is None:
        return None
    try:
        return [v if isinstance(v, uuid.UUID) else uuid.UUID(str(v)) for v in value]
    except (ValueError, TypeError, AttributeError):
        raise NotFound("Timetable session not found") from None


def _status(value: Any) -> Any:
    if value is None:
        return "scheduled"
    if not isinstance(value, str) or value.strip().lower() not in STATUSES:
        raise ValueError("Status must be one of scheduled, confirmed, cancelled, completed")
    return value.strip().lower()


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


# ---------------------------------------------------------------------------------- session in/out


class SessionIn(CamelSchema):
    """Create and update body of ``/api/timetables`` (docs/behaviour/timetables.md §1; docs/behaviour/hours.md §4).

    actualDate is optional: when absent it is derived from the block group's startDate, weekNumber and
    dayOfWeek (week 1 is the Monday-to-Sunday week holding the start date); when given, dayOfWeek and
    weekNumber follow it. actualHours defaults to the time span. teacherId "unassigned" or null is
    no teacher.
    """

    block_group_id: Annotated[Any, _uuid_or_error("Block group not found"), OrgRef(BlockGroup, "Block group")] = Field(
        default=None, validate_default=True
    )
    unit_id: Annotated[Any, _uuid_or_error("Unit not found"), OrgRef(Unit, "Unit")] = Field(default=None, validate_default=True)
    teacher_id: Annotated[Any, BeforeValidator(_teacher), _uuid_or_error("Teacher not found"), OrgRef(Teacher, "Teacher")] = None
    day_of_week: Annotated[
        int | None,
        at_least(1, "Day of week must be between 1 (Monday) and 7 (Sunday)"),
        at_most(7, "Day of week must be between 1 (Monday) and 7 (Sunday)"),
    ] = None
    start_time: TimeText = Field(default=None, validate_default=True)
    end_time: EndTimeText = Field(default=None, validate_default=True)
    room: Annotated[str | None, BeforeValidator(_strip), max_length(50, "Room must be at most 50 characters")] = ""
    # A room record (ADR 0019): sets ``room`` to its code; without it a room text matching a room's code
    # (case and spacing ignored) is linked to that room.
    room_id: Annotated[Any, _uuid_or_error("Room not found"), OrgRef(Room, "Room")] = None
    week_number: Annotated[int | None, at_least(1, "Week number must be at least 1")] = None
    actual_date: Annotated[date | None, BlankToNone, in_date_range()] = None
    actual_hours: Annotated[
        Decimal | None,
        BlankToNone,
        at_least(Decimal("0.5"), "Hours must be at least 0.5"),
        at_most(Decimal("12"), "Hours cannot exceed 12 per session"),
    ] = None
    status: Annotated[Any, BeforeValidator(_status)] = "scheduled"
    notes: Annotated[str | None, BlankToNone] = None
    term: int | None = None  # ignored: computed from the organization's term breaks (docs/behaviour/terms-and-holidays.md §3)

    @field_validator("block_group_id", "unit_id", mode="after")
    @classmethod
    def _required(cls, value: UUID | None, info: ValidationInfo) -> UUID:
        if value is None:
            raise ValueError("Block group is required" if info.field_name == "block_group_id" else "Unit is required")
        return value


class Ref(CamelSchema):
    id: uuid.UUID
    code: str
    name: str


class TeacherRef(CamelSchema):
    id: uuid.UUID
    first_name: str
    last_name: str
    name: str


class ConflictOut(CamelSchema):
    type: str
    severity: str
    session_ids: list[str]
    message: str
    date: dt.date | None = None


class SessionOut(CamelSchema):
    id: uuid.UUID
    block_group_id: uuid.UUID
    unit_id: uuid.UUID
    teacher_id: uuid.UUID | None
    day_of_week: int
    start_time: str
    end_time: str
    room: str
    room_id: uuid.UUID | None = None
    week_number: int
    actual_date: date
    term: int
    actual_hours: float
    status: str
    notes: str
    created_at: datetime
    updated_at: datetime
    unit: Ref
    block_group: Ref
    teacher: TeacherRef | None
    conflicts: list[str]


class SessionWriteOut(SessionOut):
    """A created or updated session with the soft conflicts it has (``warnings``)."""

    warnings: list[ConflictOut]


MAX_LIST_IDS = 1000


def _session_ids(value: Any) -> list[UUID] | None:
    """``ids=a,b,c``: at most 1,000 session UUIDs, comma-separated (a screen fetches just the
    rows a change event named)."""
    if value is None or value == "":
        return None
    parts = [p.strip() for p in str(value).split(",") if p.strip()]
    if len(parts) > MAX_LIST_IDS:
        raise ValueError(f"At most {MAX_LIST_IDS} ids")
    try:
        return [UUID(p) for p in parts]
    except ValueError:
        raise ValueError("ids must be comma-separated session ids") from None


class SessionListQuery(CamelSchema):
    """The filters of GET /api/timetables. A filter id of another organization answers 404 "<Thing> not
    found" (checked when the list is empty, so a cached answer costs nothing more)."""

    block_group_id: Annotated[Any, BlankToNone, _uuid_or_error("Block group not found")] = None
    teacher_id: Annotated[Any, BlankToNone, BeforeValidator(_teacher), _uuid_or_error("Teacher not found")] = None
    room_id: Annotated[Any, BlankToNone, _uuid_or_error("Room not found")] = None  # ADR 0019: a room's timetable
    hide_past: bool = False
    ids: Annotated[str | None, Field(description="Comma-separated session ids (at most 1,000): just those rows")] = None

    def session_ids(self) -> list[UUID] | None:
        return _session_ids(self.ids)

    def confirm_refs(self, org: Any, found: bool) -> None:
        """NotFound "<Thing> not found" when the list is empty and a filter id is not ``org``'s
        (``project.core.refs.confirm_filter_refs``)."""
        confirm_filter_refs(
            found,
            org,
            [
                (BlockGroup, self.block_group_id, "Block group"),
                (Teacher, self.teacher_id, "Teacher"),
                (Room, self.room_id, "Room"),
            ],
        )

    @field_validator("ids")
    @classmethod
    def _check_ids(cls, value: str | None) -> str | None:
        _session_ids(value)
        return value


class ConflictQuery(CamelSchema):
    start: Annotated[date | None, BlankToNone, in_date_range("Start date")] = None
    end: Annotated[date | None, BlankToNone, in_date_range("End date")] = None
    block_group_id: Annotated[Any, BlankToNone, _uuid_or_error("Block group not found"), OrgRef(BlockGroup, "Block group")] = None
    teacher_id: Annotated[Any, BlankToNone, _uuid_or_error("Teacher not found"), OrgRef(Teacher, "Teacher")] = None


class BulkAllocateIn(CamelSchema):
    """``{sessionIds, teacherId}``; both needed ("Please select sessions and a teacher", checked by the service)."""

    session_ids: Annotated[list[Any] | None, AfterValidator(_session_uuids), OrgRefs(TimetableSession, "Timetable session")] = (
        None
    )
    teacher_id: Annotated[Any, BeforeValidator(_teacher), _uuid_or_404("Teacher"), OrgRef(Teacher, "Teacher")] = None


class BulkAllocateOut(CamelSchema):
    updated: int
    session_ids: list[str]
    teacher_id: uuid.UUID
    warnings: list[ConflictOut]


class BulkRoomIn(CamelSchema):
    """``{sessionIds, roomId}``; both needed ("Please select sessions and a room", checked by the service)."""

    session_ids: Annotated[list[Any] | None, AfterValidator(_session_uuids), OrgRefs(TimetableSession, "Timetable session")] = (
        None
    )
    room_id: Annotated[Any, BlankToNone, _uuid_or_error("Room not found"), OrgRef(Room, "Room")] = None


class BulkRoomOut(CamelSchema):
    updated: int
    session_ids: list[str]
    room_id: uuid.UUID
    room: str
    warnings: list[ConflictOut]


class IcalQuery(CamelSchema):
    teacher_id: Annotated[Any, BlankToNone, _uuid_or_error("Teacher not found"), OrgRef(Teacher, "Teacher")] = None
    block_group_id: Annotated[Any, BlankToNone, _uuid_or_error("Block group not found"), OrgRef(BlockGroup, "Block group")] = None
    room_id: Annotated[Any, BlankToNone, _uuid_or_error("Room not found"), OrgRef(Room, "Room")] = None


ScheduleStatus = Literal["planned", "active"]
