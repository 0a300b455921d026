"""An uploaded workbook read into rows (POST /api/timetables/import): the first sheet's non-blank data rows
as ``{column header: cell value}``, columns found by header text (any order, any case).

Limits are checked before anything is parsed: the file's size and type, what the zip unpacks to, and the
rows and cells of each sheet (:func:`_check_sheet_shape`).
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import date, time, timedelta
from typing import IO, TYPE_CHECKING

from openpyxl import load_workbook

from project.core.errors import ValidationFailed
from project.timetabling.importer.template import COLUMNS, EXAMPLE, HEADERS

if TYPE_CHECKING:  # pragma: no cover
    from django.core.files.uploadedfile import UploadedFile

MAX_BYTES = 10 * 1024 * 1024
MAX_ROWS = 20000
MAX_COLUMNS = 100  # cells per row; the template has 13 columns
MAX_SHEET_ROWS = 2 * MAX_ROWS + 1  # row elements in the sheet, blank (formatted) ones included
MAX_UNPACKED_BYTES = 200 * 1024 * 1024  # an .xlsx is a zip: what it unpacks to, not its size, is the cost
EXT_MESSAGE = "Only .xlsx or .xls files are accepted"

Cell = str | int | float | date | time | timedelta | None
"""A cell's value as openpyxl or xlrd reads it (a bool is an int, a datetime a date)."""
Record = dict[str, Cell]
"""One data row: ``{column header: cell value}``."""


def _file_error(message: str) -> ValidationFailed:
    return ValidationFailed([{"path": ["file"], "message": message}], message=message)


def read_upload(upload: UploadedFile | None) -> list[tuple[int, Record]]:
    """``[(excel_row_number, {header: value})]`` of the first sheet's non-blank data rows.

    Raises ValidationFailed (path ["file"] or ["columns", header]) for another file type, an unreadable
    workbook, or missing required columns.
    """
    if upload is None:
        raise _file_error("Please choose a file to import")
    name = (upload.name or "").lower()
    if not (name.endswith(".xlsx") or name.endswith(".xls")):
        raise _file_error(EXT_MESSAGE)
    if (upload.size or 0) > MAX_BYTES:
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


def _check_sheet_shape(stream: IO[bytes]) -> None:
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


def _read_xlsx(data: bytes) -> list[list[Cell]]:
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


def _read_xls(data: bytes) -> list[list[Cell]]:
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
