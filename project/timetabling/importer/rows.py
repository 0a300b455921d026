"""The rows of an uploaded workbook parsed and checked (POST /api/timetables/import, docs/behaviour/hours.md §4).

Every row is checked and every problem reported at once: :func:`validate_rows` raises one
``ValidationFailed`` with ``errors: [{"path": ["rows", <excel row number>, <column header>], "message",
"row"}]``, or returns the parsed rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, TypeVar
from uuid import UUID

from project.core.errors import ValidationFailed
from project.core.schemas import MAX_YEAR, MIN_YEAR, NUL_MESSAGE, date_range_message
from project.staff.models import Teacher
from project.timetabling.importer.template import DAY_NAMES, STATUSES
from project.timetabling.importer.workbook import Cell, Record

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

MAX_WEEK_NUMBER = 5300  # weeks of years 2000-2100, the dates the API accepts
GROUP_CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_./-]{0,49}$")
UNIT_CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,19}$")
TIME_RE = re.compile(r"^(\d{1,2}):([0-5]\d)(?::([0-5]\d))?$")

T = TypeVar("T")


@dataclass
class ImportRow:
    row: int
    group_code: str
    group_name: str
    unit_code: str
    unit_name: str
    date: date
    start: time
    end: time
    week_number: int | None
    hours: Decimal
    room: str
    teacher_id: UUID | None
    status: str
    notes: str


# ---------------------------------------------------------------------------------------------- cells
# Each parser takes a non-blank cell and returns its value, or raises ValueError with the message to show.


def _text(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _code(value: Cell, pattern: re.Pattern[str], limit: int, label: str) -> str:
    text = _text(value)
    if len(text) > limit:
        raise ValueError(f"{label} must be at most {limit} characters")
    if not pattern.match(text):
        raise ValueError(f"{label} may only contain letters, digits and - _ .{' /' if '/' in pattern.pattern else ''}")
    return text


def _group_code(value: Cell) -> str:
    return _code(value, GROUP_CODE_RE, 50, "Block group code")


def _unit_code(value: Cell) -> str:
    return _code(value, UNIT_CODE_RE, 20, "Unit code")


def _date(value: Cell) -> date:
    """A session date: a date cell, an Excel serial number or text; years 2000-2100 only."""
    day = _any_date(value)
    if not MIN_YEAR <= day.year <= MAX_YEAR:
        raise ValueError(date_range_message("Date"))
    return day


def _any_date(value: Cell) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 20000 < value < 80000:
        return date(1899, 12, 30) + timedelta(days=int(value))
    text = _text(value)
    for fmt in ("%Y-%m-%d", "%d/%m/%Y", "%Y/%m/%d"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError("Invalid date, use YYYY-MM-DD")


def _time(value: Cell) -> time:
    if isinstance(value, datetime):
        return value.time().replace(microsecond=0)
    if isinstance(value, time):
        return value.replace(microsecond=0, tzinfo=None)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1:
        seconds = round(value * 86400)
        return time(seconds // 3600, seconds % 3600 // 60, seconds % 60)
    m = TIME_RE.match(_text(value))
    if not m or int(m.group(1)) > 23:
        raise ValueError("Invalid time format, use HH:MM:SS")
    return time(int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


def _day(value: Cell) -> int:
    text = _text(value).casefold()
    if text.isdigit() and 0 <= int(text) <= 7:
        return 7 if int(text) == 0 else int(text)
    for i, name in enumerate(DAY_NAMES, 1):
        if text in (name.casefold(), name[:3].casefold()):
            return i
    raise ValueError("Day of week must be Monday to Sunday")


def _week_number(value: Cell) -> int:
    number = Decimal(str(value).strip())
    if number != number.to_integral_value():
        raise ValueError("Week number must be a whole number")
    if number < 1:
        raise ValueError("Week number must be at least 1")
    if number > MAX_WEEK_NUMBER:
        raise ValueError(f"Week number cannot exceed {MAX_WEEK_NUMBER}")
    return int(number)


def _hours(value: Cell) -> Decimal:
    h = Decimal(str(value).strip())
    if not h.is_finite():
        raise ValueError("Hours must be a number")
    return h


def _seconds(t: time) -> int:
    return t.hour * 3600 + t.minute * 60 + t.second


# ----------------------------------------------------------------------------------------------- rows


class _RowCells:
    """One row's cells read column by column, noting each problem as ``(column, message)`` so that every
    problem of the row is reported at once."""

    def __init__(self, record: Record) -> None:
        self.record = record
        # An .xls cell may hold NUL, which PostgreSQL cannot store.
        self.problems = [(column, NUL_MESSAGE) for column, value in record.items() if isinstance(value, str) and "\x00" in value]

    def text(self, column: str) -> str:
        return _text(self.record.get(column))

    def parse(self, column: str, parse: Callable[[Cell], T], *, required: bool = False) -> T | None:
        """``parse`` of the cell, or None when it is blank ("<column> is required" noted when it must not
        be) or ``parse`` refuses it (its message noted)."""
        value = self.record.get(column)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                self.problem(column, f"{column} is required")
            return None
        try:
            return parse(value)
        except (ValueError, TypeError, InvalidOperation) as exc:
            self.problem(column, str(exc) or f"Invalid {column}")
            return None

    def problem(self, column: str, message: str) -> None:
        self.problems.append((column, message))


def _parse_row(number: int, record: Record, teachers: dict[str, UUID]) -> ImportRow | list[tuple[str, str]]:
    """The row parsed, or its problems ``[(column, message)]`` in column order."""
    cells = _RowCells(record)
    group_code = cells.parse("Block Group Code", _group_code, required=True)
    unit_code = cells.parse("Unit Code", _unit_code, required=True)
    day = cells.parse("Date", _date, required=True)
    start = cells.parse("Start Time", _time, required=True)
    end = cells.parse("End Time", _time, required=True)
    if start is not None and end is not None and end <= start:
        cells.problem("End Time", "End time must be after start time")
        end = None
    dow = cells.parse("Day of Week", _day)
    if dow is not None and day is not None and dow != day.isoweekday():
        cells.problem("Day of Week", f"{DAY_NAMES[dow - 1]} does not match the date ({DAY_NAMES[day.isoweekday() - 1]})")
    week_number = cells.parse("Week Number", _week_number)
    hours = cells.parse("Actual Hours", _hours)
    if hours is None and start is not None and end is not None:
        hours = Decimal(_seconds(end) - _seconds(start)) / 3600
    if hours is not None:
        if hours < Decimal("0.5"):
            cells.problem("Actual Hours", "Hours must be at least 0.5")
        elif hours > 12:
            cells.problem("Actual Hours", "Hours cannot exceed 12 per session")
        hours = hours.quantize(Decimal("0.01"))
    room = cells.text("Room")
    if len(room) > 50:
        cells.problem("Room", "Room must be at most 50 characters")
    teacher_text = cells.text("Teacher")
    teacher_id = None
    if teacher_text and teacher_text.casefold() != "unassigned":
        teacher_id = teachers.get(teacher_text.casefold())
        if teacher_id is None:
            cells.problem("Teacher", f"No teacher with employee ID or email '{teacher_text}'")
    status = cells.text("Status").casefold() or "scheduled"
    if status not in STATUSES:
        cells.problem("Status", "Status must be one of scheduled, confirmed, cancelled, completed")
    # A required cell that is blank or refused has noted a problem, so without problems every value is set.
    if cells.problems or group_code is None or unit_code is None or day is None or start is None or end is None or hours is None:
        return cells.problems
    return ImportRow(
        number,
        group_code,
        cells.text("Block Group Name")[:255],
        unit_code,
        cells.text("Unit Name")[:255],
        day,
        start,
        end,
        week_number,
        hours,
        room,
        teacher_id,
        status,
        cells.text("Notes"),
    )


def validate_rows(org: Organization, rows: list[tuple[int, Record]]) -> list[ImportRow]:
    """Check every row; raise one ValidationFailed listing every problem, or return the parsed rows."""
    teachers: dict[str, UUID] = {}
    for tid, emp, email in Teacher.objects.for_org(org).values_list("id", "employee_id", "email"):
        teachers[emp.casefold()] = tid
        teachers[email.casefold()] = tid
    errors: list[dict[str, object]] = []
    rows_bad: set[int] = set()
    parsed: list[ImportRow] = []
    for n, record in rows:
        row = _parse_row(n, record, teachers)
        if isinstance(row, ImportRow):
            parsed.append(row)
            continue
        errors.extend({"path": ["rows", n, column], "message": message, "row": n} for column, message in row)
        rows_bad.add(n)
    if errors:
        bad = sorted(rows_bad)
        raise ValidationFailed(
            errors[:500],
            message=f"{len(bad)} row(s) have errors; nothing was imported (rows "
            + ", ".join(str(r) for r in bad[:20])
            + (", ..." if len(bad) > 20 else "")
            + ")",
        )
    return parsed
