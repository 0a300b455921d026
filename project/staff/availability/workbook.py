"""Teacher availability as an .xlsx workbook (ADR 0027): one row per teacher and window.

Columns (header text, any order, any case): ``Employee ID``, ``Kind``, ``Weekday``, ``Start``, ``End``,
``Level``, ``From``, ``To``, ``Range Name``.

- Kind ``available``: a window of the weekly pattern (Weekday, Start, End);
- Kind ``preference``: a preference window with its Level (strongly_preferred, preferred, neutral,
  discouraged, strongly_discouraged, prohibited);
- Kind ``range``: a window of the date-range variant From..To (inclusive; rows with the same dates and
  name make one variant).

Weekday is Mon..Sun (or the full name, or 1 = Monday .. 7 = Sunday); times ``HH:MM`` (or time cells);
dates ``YYYY-MM-DD`` (or date cells). Uploads are read by
:func:`project.core.workbooks.read_first_sheet` (the bounded worker, ADR 0004).

Import replaces the windows, preferences and date ranges of each teacher in the file (limits and campuses
stay), all or nothing: any wrong row answers 400 with ``errors: [{path: ["rows", row, column], message,
row}]`` as the timetable import does. One ``teacher imported`` change event with the teachers' ids.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, time
from io import BytesIO
from typing import TYPE_CHECKING, Any

from django.db import transaction

from project.core.changes import org_change
from project.core.errors import ValidationFailed
from project.core.spreadsheets import xlsx_cell
from project.core.tenancy import Ctx
from project.core.workbooks import Cell, SheetLimits, file_error, read_first_sheet
from project.staff.availability import patterns as av
from project.staff.availability.selectors import PROFILE_FIELDS, facts_of
from project.staff.models import Teacher, TeacherAvailability

if TYPE_CHECKING:  # pragma: no cover
    from django.core.files.uploadedfile import UploadedFile

    from project.accounts.models import Organization

HEADERS = ("Employee ID", "Kind", "Weekday", "Start", "End", "Level", "From", "To", "Range Name")
KINDS = ("available", "preference", "range")
MAX_ROWS = 20000
LIMITS = SheetLimits(
    max_sheet_rows=2 * MAX_ROWS + 1,
    max_columns=50,
    max_cells=12 * (MAX_ROWS + 1),
    rows_message=f"The file has more than {MAX_ROWS} rows",
    columns_message="The file has more than 50 columns",
)
_DAY_NAMES = {name.casefold(): i for i, name in enumerate(av.DAY_NAMES)} | {
    name.casefold(): i for i, name in enumerate(av.SHORT_DAYS)
}


# ------------------------------------------------------------------------------------------ export


def export_rows(*, org: Organization) -> list[list[Any]]:
    """The rows of every teacher's availability, by teacher name (1 query). Any: cells (text, dates)."""
    rows: list[list[Any]] = []
    qs = Teacher.objects.for_org(org).order_by("first_name", "last_name", "employee_id")
    for employee_id, word, *profile in qs.values_list("employee_id", "availability", *PROFILE_FIELDS):
        facts = facts_of(word, profile)
        for w in facts.windows:
            rows.append([employee_id, "available", av.SHORT_DAYS[w.weekday], av.hm(w.start), av.hm(w.end), "", "", "", ""])
        for p in facts.preferences:
            rows.append([employee_id, "preference", av.SHORT_DAYS[p.weekday], av.hm(p.start), av.hm(p.end), p.level, "", "", ""])
        for v in facts.variants:
            for w in v.windows:
                rows.append(
                    [
                        employee_id,
                        "range",
                        av.SHORT_DAYS[w.weekday],
                        av.hm(w.start),
                        av.hm(w.end),
                        "",
                        v.start_date.isoformat(),
                        v.end_date.isoformat(),
                        v.name,
                    ]
                )
    return rows


def export_xlsx(*, org: Organization) -> bytes:
    """``Availability`` sheet: the header and :func:`export_rows`, text cells never formulas."""
    from openpyxl import Workbook

    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Availability")
    ws.append([xlsx_cell(ws, h) for h in HEADERS])
    for row in export_rows(org=org):
        ws.append([xlsx_cell(ws, v) for v in row])
    out = BytesIO()
    wb.save(out)
    return out.getvalue()


# ------------------------------------------------------------------------------------------ import


def _text(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _weekday(value: Cell) -> int | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer() and 1 <= value <= 7:
        return int(value) - 1
    return _DAY_NAMES.get(_text(value).casefold())


def _time(value: Cell) -> time | None:
    if isinstance(value, time):
        return value.replace(second=0, microsecond=0)
    if isinstance(value, datetime):
        return value.time().replace(second=0, microsecond=0)
    try:
        return time.fromisoformat(_text(value))
    except ValueError:
        return None


def _date(value: Cell) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(_text(value))
    except ValueError:
        return None


def read_upload(upload: UploadedFile | None) -> list[tuple[int, dict[str, Cell]]]:
    """``[(excel row number, {header: value})]`` of the first sheet's non-blank data rows. ValidationFailed
    (path ``["file"]`` or ``["columns", header]``) for a file that cannot be read or lacks a column."""
    grid = read_first_sheet(upload, LIMITS)
    if not grid:
        raise file_error("The file is empty")
    header = [_text(v).casefold() for v in grid[0]]
    index = {h: header.index(h.casefold()) for h in HEADERS if h.casefold() in header}
    missing = [h for h in HEADERS[:5] if h not in index]
    if missing:
        raise ValidationFailed(
            [{"path": ["columns", h], "message": f"Missing column: {h}"} for h in missing],
            message="The file does not match the template: " + ", ".join(f"'{h}'" for h in missing) + " missing",
        )
    rows = []
    for n, values in enumerate(grid[1:], start=2):
        record = {h: (values[i] if i < len(values) else None) for h, i in index.items()}
        if all(_text(v) == "" for v in record.values()):
            continue
        rows.append((n, record))
    if not rows:
        raise file_error("The file has no availability rows")
    return rows


def import_availability(*, ctx: Ctx, upload: UploadedFile | None) -> dict[str, int]:
    """Replace the windows, preferences and date ranges of each teacher in the file, all or nothing (see
    the module docstring). Answer ``{"teachers": n, "rows": n}``. Raises ValidationFailed (400) with every
    row error, or the file's."""
    rows = read_upload(upload)
    teachers = {e: pk for pk, e in Teacher.objects.for_org(ctx.org).values_list("id", "employee_id")}
    errors: list[dict[str, Any]] = []
    windows: dict = defaultdict(list)
    preferences: dict = defaultdict(list)
    ranges: dict = defaultdict(lambda: defaultdict(list))

    def bad(n: int, column: str, message: str) -> None:
        errors.append({"path": ["rows", n, column], "message": message, "row": n})

    for n, r in rows:
        employee_id = _text(r.get("Employee ID"))
        teacher = teachers.get(employee_id)
        if teacher is None:
            bad(n, "Employee ID", f"No teacher with employee ID '{employee_id}'" if employee_id else "Employee ID is required")
        kind = _text(r.get("Kind")).casefold()
        if kind not in KINDS:
            bad(n, "Kind", "Kind must be one of: " + ", ".join(KINDS))
        weekday = _weekday(r.get("Weekday"))
        if weekday is None:
            bad(n, "Weekday", "Weekday must be Mon to Sun")
        start, end = _time(r.get("Start")), _time(r.get("End"))
        if start is None:
            bad(n, "Start", "Start must be a time (HH:MM)")
        if end is None:
            bad(n, "End", "End must be a time (HH:MM)")
        elif start is not None and end <= start:
            bad(n, "End", "End time must be after start time")
        level = _text(r.get("Level")).casefold()
        if kind == "preference" and level not in av.ALL_LEVELS:
            bad(n, "Level", "Level must be one of: " + ", ".join(av.ALL_LEVELS))
        first, last = _date(r.get("From")), _date(r.get("To"))
        if kind == "range":
            if first is None:
                bad(n, "From", "From must be a date (YYYY-MM-DD)")
            if last is None:
                bad(n, "To", "To must be a date (YYYY-MM-DD)")
            elif first is not None and last < first:
                bad(n, "To", "End date must be on or after start date")
        if errors and errors[-1]["row"] == n:
            continue
        assert teacher is not None and weekday is not None and start is not None and end is not None  # noqa: S101 — checked above
        window = {"weekday": weekday, "start": av.hm(start), "end": av.hm(end)}
        if kind == "available":
            windows[teacher].append(window)
        elif kind == "preference":
            preferences[teacher].append({**window, "level": level})
        else:
            assert first is not None and last is not None  # noqa: S101 — checked above
            name = _text(r.get("Range Name"))[:100]
            ranges[teacher][(first.isoformat(), last.isoformat(), name)].append(window)
    if errors:
        raise ValidationFailed(errors, message=f"{len({e['row'] for e in errors})} row(s) have errors; nothing was imported")
    ids = sorted(set(windows) | set(preferences) | set(ranges), key=str)
    order = lambda w: (w["weekday"], w["start"], w["end"], w.get("level", ""))  # noqa: E731
    with transaction.atomic():
        profiles = {
            p.teacher_id: p for p in TeacherAvailability.objects.for_org(ctx.org).select_for_update().filter(teacher_id__in=ids)
        }
        with org_change(ctx, "teacher", "imported", ids=ids):
            for tid in ids:
                profile = profiles.get(tid) or TeacherAvailability(organization=ctx.org, teacher_id=tid)
                profile.custom = True
                profile.windows = sorted(windows[tid], key=order)
                profile.preferences = sorted(preferences[tid], key=order)
                profile.variants = [
                    {"name": name, "startDate": a, "endDate": b, "windows": sorted(items, key=order)}
                    for (a, b, name), items in sorted(ranges[tid].items())
                ]
                profile.save()
            word_of = {tid: av.derive_word(av.window_of(w) for w in windows[tid]) for tid in ids}
            for teacher in Teacher.objects.for_org(ctx.org).filter(id__in=ids):
                if teacher.availability != word_of[teacher.pk]:
                    teacher.availability = word_of[teacher.pk]
                    teacher.save(update_fields=["availability", "updated_at"])
    return {"teachers": len(ids), "rows": len(rows)}
