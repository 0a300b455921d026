"""The timetable Excel template and the reading and validation of an uploaded workbook
(GET /api/timetables/template, POST /api/timetables/import; delivery.md §5 Import).

Sheet 1 "Sessions": a header row (``COLUMNS``), one example row (ignored on import while its codes are
unchanged), drop-down lists for Day of Week and Status. Sheet 2 "Instructions" explains each column.
Rows are read from the first sheet; columns are found by header text (any order, any case).

Validation reports every bad row at once: ``ValidationFailed`` with
``errors: [{"path": ["rows", <excel row number>, <column header>], "message", "row"}]``.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal, InvalidOperation

from openpyxl import Workbook, load_workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from project.core.errors import ValidationFailed
from project.core.schemas import MAX_YEAR, MIN_YEAR, NUL_MESSAGE, date_range_message
from project.staff.models import Teacher

DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
STATUSES = ["scheduled", "confirmed", "cancelled", "completed"]
MAX_BYTES = 10 * 1024 * 1024
MAX_ROWS = 20000
MAX_COLUMNS = 100  # cells per row; the template has 13 columns
MAX_SHEET_ROWS = 2 * MAX_ROWS + 1  # row elements in the sheet, blank (formatted) ones included
MAX_UNPACKED_BYTES = 200 * 1024 * 1024  # an .xlsx is a zip: what it unpacks to, not its size, is the cost
MAX_WEEK_NUMBER = 5300  # weeks of years 2000-2100, the dates the API accepts
EXT_MESSAGE = "Only .xlsx or .xls files are accepted"

# (header, required, format, explanation)
COLUMNS = [
    (
        "Block Group Code",
        True,
        "Text, up to 50 characters (letters, digits, - _ . /)",
        "Code of the block group. A code that does not exist yet creates a new block group (status active, cohort size 1, "
        "start date = its earliest session date).",
    ),
    ("Block Group Name", False, "Text", "Name given to a block group created by this import. Ignored for existing groups."),
    (
        "Unit Code",
        True,
        "Text, up to 20 characters (letters, digits, - _ .)",
        "Code of the unit of competency. A code that does not exist yet creates a new unit.",
    ),
    ("Unit Name", False, "Text", "Name given to a unit created by this import. Ignored for existing units."),
    ("Date", True, "Date (YYYY-MM-DD)", "The date of the session."),
    ("Day of Week", False, "Monday to Sunday (drop-down)", "Optional check: must be the day of the date."),
    ("Start Time", True, "HH:MM:SS (24 hour)", "Start of the session, local wall-clock time."),
    ("End Time", True, "HH:MM:SS (24 hour)", "End of the session; after the start."),
    (
        "Week Number",
        False,
        "Whole number, 1 or more",
        "Week of the block group (week 1 holds its start date). Computed from the date when empty.",
    ),
    ("Actual Hours", False, "Number from 0.5 to 12", "Hours of the session. The time span when empty."),
    ("Room", False, "Text, up to 50 characters", "Room or location."),
    ("Teacher", False, "Employee ID or email", "An existing teacher. Empty for unassigned."),
    ("Status", False, "scheduled, confirmed, cancelled or completed (drop-down)", "Default scheduled."),
    ("Notes", False, "Text", "Free notes."),
]
HEADERS = [c[0] for c in COLUMNS]
EXAMPLE = [
    "BG-EXAMPLE",
    "Example cohort",
    "BSBWHS311",
    "Assist with maintaining workplace safety",
    date(2026, 2, 2),
    "Monday",
    time(9),
    time(12),
    1,
    3,
    "Room 101",
    "",
    "scheduled",
    "Example row: ignored on import while its codes are BG-EXAMPLE / BSBWHS311. Replace it with your sessions.",
]
GROUP_CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_./-]{0,49}$")
UNIT_CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,19}$")
TIME_RE = re.compile(r"^(\d{1,2}):([0-5]\d)(?::([0-5]\d))?$")


def build_template() -> bytes:
    """The import template as xlsx bytes."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Sessions"
    ws.append(HEADERS)
    ws.append(EXAMPLE)
    bold = Font(bold=True, color="FFFFFF")
    fill = PatternFill("solid", fgColor="1F4E79")
    for i, (header, _required, _fmt, _text) in enumerate(COLUMNS, 1):
        cell = ws.cell(row=1, column=i)
        cell.font = bold
        cell.fill = fill
        ws.column_dimensions[cell.column_letter].width = max(14, len(header) + 4)
        ws.cell(row=2, column=i).font = Font(italic=True, color="7F7F7F")
    ws.column_dimensions["N"].width = 60
    ws.freeze_panes = "A2"
    col = {h: ws.cell(row=1, column=i + 1).column_letter for i, h in enumerate(HEADERS)}
    for r in range(2, 1001):
        ws[f"{col['Date']}{r}"].number_format = "yyyy-mm-dd"
        ws[f"{col['Start Time']}{r}"].number_format = "hh:mm:ss"
        ws[f"{col['End Time']}{r}"].number_format = "hh:mm:ss"
    days = DataValidation(type="list", formula1='"' + ",".join(DAY_NAMES) + '"', allow_blank=True)
    days.error, days.errorTitle = "Choose a day from the list", "Day of Week"
    status = DataValidation(type="list", formula1='"' + ",".join(STATUSES) + '"', allow_blank=True)
    status.error, status.errorTitle = "Choose a status from the list", "Status"
    hours = DataValidation(type="decimal", operator="between", formula1="0.5", formula2="12", allow_blank=True)
    hours.error, hours.errorTitle = "Hours from 0.5 to 12", "Actual Hours"
    for dv, name in ((days, "Day of Week"), (status, "Status"), (hours, "Actual Hours")):
        dv.showErrorMessage = True
        dv.add(f"{col[name]}2:{col[name]}1000")
        ws.add_data_validation(dv)

    info = wb.create_sheet("Instructions")
    info.append(["Column", "Required", "Format", "Description"])
    for c in info[1]:
        c.font = bold
        c.fill = fill
    for header, required, fmt, text in COLUMNS:
        info.append([header, "Yes" if required else "No", fmt, text])
    info.append([])
    info.append(
        [
            "Notes",
            "",
            "",
            "Rows are checked first; if any row is wrong nothing is imported and every problem "
            "is listed with its row number. Only .xlsx or .xls files are accepted. Row 2 of the Sessions sheet is "
            "an example and is skipped while its codes are unchanged.",
        ]
    )
    for letter, width in (("A", 20), ("B", 10), ("C", 44), ("D", 100)):
        info.column_dimensions[letter].width = width
    for row in info.iter_rows(min_row=2):
        for c in row:
            c.alignment = Alignment(wrap_text=True, vertical="top")
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


# ------------------------------------------------------------------------------------------ reading


def _file_error(message: str) -> ValidationFailed:
    return ValidationFailed([{"path": ["file"], "message": message}], message=message)


def read_upload(upload) -> list[tuple[int, dict]]:
    """``[(excel_row_number, {header: value})]`` of the first sheet's non-blank data rows.

    Raises ValidationFailed (path ["file"] or ["columns", header]) for another file type, an unreadable
    workbook, or missing required columns.
    """
    if upload is None:
        raise _file_error("Please choose a file to import")
    name = (getattr(upload, "name", "") or "").lower()
    if not (name.endswith(".xlsx") or name.endswith(".xls")):
        raise _file_error(EXT_MESSAGE)
    if getattr(upload, "size", 0) and upload.size > MAX_BYTES:
        raise _file_error("The file is larger than 10 MB")
    data = upload.read()
    try:
        grid = _read_xlsx(data) if name.endswith(".xlsx") else _read_xls(data)
    except TooBig as exc:
        raise _file_error(str(exc)) from None
    except Exception:
        raise _file_error("The file could not be read as an Excel workbook") from None
    if not grid:
        raise _file_error("The file is empty")
    header = [str(v).strip().casefold() if v is not None else "" for v in grid[0]]
    index = {}
    for h in HEADERS:
        if h.casefold() in header:
            index[h] = header.index(h.casefold())
    missing = [h for h, required, _f, _t in COLUMNS if required and h not in index]
    if missing:
        raise ValidationFailed(
            [{"path": ["columns", h], "message": f"Missing column: {h}"} for h in missing],
            message="The file does not match the template: " + ", ".join(f"'{h}'" for h in missing) + " missing",
        )
    rows = []
    for n, values in enumerate(grid[1:], start=2):
        record = {h: (values[i] if i < len(values) else None) for h, i in index.items()}
        if all(v is None or (isinstance(v, str) and not v.strip()) for v in record.values()):
            continue
        if (str(record.get("Block Group Code") or "").strip(), str(record.get("Unit Code") or "").strip()) == (
            EXAMPLE[0],
            EXAMPLE[2],
        ):
            continue
        rows.append((n, record))
        if len(rows) > MAX_ROWS:
            raise _file_error(f"The file has more than {MAX_ROWS} rows")
    if not rows:
        raise _file_error("The file has no session rows")
    return rows


class TooBig(Exception):
    """The workbook is over a limit; the message says which (read before any row is parsed)."""


_ROW_OR_CELL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(row|c)[\s/>]")


def _check_sheet_shape(stream) -> None:
    """Count rows and cells per row in a worksheet's XML, streamed in chunks, before openpyxl parses it.

    openpyxl builds a whole ``<row>`` element (every cell) in memory before it can skip columns, so a
    30 KB workbook with a million cells in one row costs hundreds of MB; a million blank rows cost
    seconds. This scan stops at the first row over :data:`MAX_COLUMNS` cells or at
    :data:`MAX_SHEET_ROWS` rows. Raises TooBig.
    """
    rows = cells = 0
    tail = b""
    while True:
        chunk = stream.read(1 << 20)
        if not chunk:
            break
        data = tail + chunk
        last_end = 0
        for m in _ROW_OR_CELL.finditer(data):
            last_end = m.end()
            if m.group(1) == b"row":
                rows += 1
                cells = 0
                if rows > MAX_SHEET_ROWS:
                    raise TooBig(f"The file has more than {MAX_ROWS} rows")
            else:
                cells += 1
                if cells > MAX_COLUMNS:
                    raise TooBig(f"The file has more than {MAX_COLUMNS} columns")
        # Keep a short tail so that a tag cut by the chunk boundary is matched in the next round.
        tail = data[max(last_end, len(data) - 64) :]


def _read_xlsx(data: bytes) -> list[list]:
    """The first sheet's rows (values, trailing blanks dropped), at most :data:`MAX_COLUMNS` wide.

    Raises TooBig before openpyxl reads a workbook that unpacks past :data:`MAX_UNPACKED_BYTES` or has a
    sheet over the row or column limits (every worksheet part is scanned: openpyxl itself parses a
    sheet without a ``<dimension>`` to its end just to open it), or any zip/openpyxl error for an
    unreadable file.
    """
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = archive.infolist()
        if sum(info.file_size for info in members) > MAX_UNPACKED_BYTES:
            raise TooBig("The file is too large to read")
        for info in members:
            if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
                with archive.open(info) as stream:
                    _check_sheet_shape(stream)
    wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        ws = wb.worksheets[0]
        declared_rows, declared_cols = ws.max_row, ws.max_column  # the sheet's <dimension>, if it has one
        if declared_rows is not None and declared_rows > MAX_SHEET_ROWS:
            raise TooBig(f"The file has more than {MAX_ROWS} rows")
        if declared_cols is not None and declared_cols > MAX_COLUMNS:
            raise TooBig(f"The file has more than {MAX_COLUMNS} columns")
        grid = []
        for values in ws.iter_rows(values_only=True, max_col=MAX_COLUMNS):
            row = list(values)
            while row and row[-1] is None:
                row.pop()
            grid.append(row)
        return grid
    finally:
        wb.close()


def _read_xls(data: bytes) -> list[list]:
    import xlrd

    book = xlrd.open_workbook(file_contents=data, on_demand=True)
    sheet = book.sheet_by_index(0)
    if sheet.nrows > MAX_SHEET_ROWS:
        raise TooBig(f"The file has more than {MAX_ROWS} rows")
    if sheet.ncols > MAX_COLUMNS:
        raise TooBig(f"The file has more than {MAX_COLUMNS} columns")
    grid = []
    for r in range(sheet.nrows):
        row = []
        for c in range(sheet.ncols):
            cell = sheet.cell(r, c)
            if cell.ctype == xlrd.XL_CELL_DATE:
                value = xlrd.xldate.xldate_as_datetime(cell.value, book.datemode)
                row.append(value.time() if cell.value < 1 else value)
            elif cell.ctype in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
                row.append(None)
            else:
                row.append(cell.value)
        grid.append(row)
    return grid


# --------------------------------------------------------------------------------------- validation


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
    teacher_id: object | None
    status: str
    notes: str


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _date(value) -> date:
    """A session date: a date cell, an Excel serial number or text; years 2000-2100 only."""
    day = _any_date(value)
    if not MIN_YEAR <= day.year <= MAX_YEAR:
        raise ValueError(date_range_message("Date"))
    return day


def _any_date(value) -> date:
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


def _time(value) -> time:
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


def _day(value) -> int:
    text = _text(value).casefold()
    if text.isdigit() and 0 <= int(text) <= 7:
        return 7 if int(text) == 0 else int(text)
    for i, name in enumerate(DAY_NAMES, 1):
        if text in (name.casefold(), name[:3].casefold()):
            return i
    raise ValueError("Day of week must be Monday to Sunday")


def validate_rows(org, rows: list[tuple[int, dict]]) -> list[ImportRow]:
    """Check every row; raise one ValidationFailed listing every problem, or return the parsed rows."""
    teachers: dict[str, object] = {}
    for tid, emp, email in Teacher.objects.for_org(org).values_list("id", "employee_id", "email"):
        teachers[emp.casefold()] = tid
        teachers[email.casefold()] = tid
    errors: list[dict] = []
    parsed: list[ImportRow] = []

    for n, rec in rows:
        bad: list[tuple[str, str]] = []
        # An .xls cell may hold NUL, which PostgreSQL cannot store.
        bad.extend((column, NUL_MESSAGE) for column, value in rec.items() if isinstance(value, str) and "\x00" in value)

        def take(column, fn, required: bool = False, default=None, rec=rec, bad=bad):  # called in this iteration only
            value = rec.get(column)
            if value is None or (isinstance(value, str) and not value.strip()):
                if required:
                    bad.append((column, f"{column} is required"))
                return default
            try:
                return fn(value)
            except (ValueError, TypeError, InvalidOperation) as exc:
                bad.append((column, str(exc) or f"Invalid {column}"))
                return default

        def code(value, pattern, limit, label):
            text = _text(value)
            if len(text) > limit:
                raise ValueError(f"{label} must be at most {limit} characters")
            if not pattern.match(text):
                raise ValueError(f"{label} may only contain letters, digits and - _ .{' /' if '/' in pattern.pattern else ''}")
            return text

        group_code = take("Block Group Code", lambda v: code(v, GROUP_CODE_RE, 50, "Block group code"), required=True)
        unit_code = take("Unit Code", lambda v: code(v, UNIT_CODE_RE, 20, "Unit code"), required=True)
        group_name = _text(rec.get("Block Group Name"))[:255]
        unit_name = _text(rec.get("Unit Name"))[:255]
        day = take("Date", _date, required=True)
        start = take("Start Time", _time, required=True)
        end = take("End Time", _time, required=True)
        if start is not None and end is not None and end <= start:
            bad.append(("End Time", "End time must be after start time"))
            end = None
        dow = take("Day of Week", _day)
        if dow is not None and day is not None and dow != day.isoweekday():
            bad.append(("Day of Week", f"{DAY_NAMES[dow - 1]} does not match the date ({DAY_NAMES[day.isoweekday() - 1]})"))

        def week(v):
            number = Decimal(str(v).strip())
            if number != number.to_integral_value():
                raise ValueError("Week number must be a whole number")
            if number < 1:
                raise ValueError("Week number must be at least 1")
            if number > MAX_WEEK_NUMBER:
                raise ValueError(f"Week number cannot exceed {MAX_WEEK_NUMBER}")
            return int(number)

        week_number = take("Week Number", week)

        def hours_of(v):
            h = Decimal(str(v).strip())
            if not h.is_finite():
                raise ValueError("Hours must be a number")
            return h

        hours = take("Actual Hours", hours_of)
        if hours is None and start is not None and end is not None:
            hours = (
                Decimal((end.hour * 3600 + end.minute * 60 + end.second) - (start.hour * 3600 + start.minute * 60 + start.second))
                / 3600
            )
        if hours is not None:
            if hours < Decimal("0.5"):
                bad.append(("Actual Hours", "Hours must be at least 0.5"))
            elif hours > 12:
                bad.append(("Actual Hours", "Hours cannot exceed 12 per session"))
            hours = hours.quantize(Decimal("0.01"))
        room = _text(rec.get("Room"))
        if len(room) > 50:
            bad.append(("Room", "Room must be at most 50 characters"))
        teacher_text = _text(rec.get("Teacher"))
        teacher_id = None
        if teacher_text and teacher_text.casefold() != "unassigned":
            teacher_id = teachers.get(teacher_text.casefold())
            if teacher_id is None:
                bad.append(("Teacher", f"No teacher with employee ID or email '{teacher_text}'"))
        status_text = _text(rec.get("Status")).casefold() or "scheduled"
        if status_text not in STATUSES:
            bad.append(("Status", "Status must be one of scheduled, confirmed, cancelled, completed"))
        if bad:
            for column, message in bad:
                errors.append({"path": ["rows", n, column], "message": message, "row": n})
            continue
        parsed.append(
            ImportRow(
                n,
                group_code,
                group_name,
                unit_code,
                unit_name,
                day,
                start,
                end,
                week_number,
                hours,
                room,
                teacher_id,
                status_text,
                _text(rec.get("Notes")),
            )
        )
    if errors:
        rows_bad = sorted({e["row"] for e in errors})
        raise ValidationFailed(
            errors[:500],
            message=f"{len(rows_bad)} row(s) have errors; nothing was imported (rows "
            + ", ".join(str(r) for r in rows_bad[:20])
            + (", ..." if len(rows_bad) > 20 else "")
            + ")",
        )
    return parsed
