"""An uploaded workbook read into rows (POST /api/timetables/import): the first sheet's non-blank data rows
as ``{column header: cell value}``, columns found by header text (any order, any case).

The file is read by :func:`project.core.workbooks.read_first_sheet`, in a worker process with a CPU and
memory budget, every part of the package bounded before anything is parsed (ADR 0004); this module sets
the import's limits (rows, columns, cells) and turns the grid into records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from project.core.errors import ValidationFailed
from project.core.workbooks import Cell, SheetLimits, file_error, read_first_sheet, read_workbook_bytes
from project.timetabling.importer.template import COLUMNS, EXAMPLE, HEADERS

if TYPE_CHECKING:  # pragma: no cover
    from django.core.files.uploadedfile import UploadedFile

MAX_BYTES = 10 * 1024 * 1024
MAX_ROWS = 20000
MAX_COLUMNS = 100  # cells per row; the template has 13 columns
MAX_SHEET_ROWS = 2 * MAX_ROWS + 1  # row elements in the sheet, blank (formatted) ones included
MAX_CELLS = 20 * (MAX_ROWS + 1)  # cells in the sheet: 20,000 rows of 20 columns (the template has 13)
MAX_UNPACKED_BYTES = 200 * 1024 * 1024  # an .xlsx is a zip: what it unpacks to, not its size, is the cost
EXT_MESSAGE = "Only .xlsx or .xls files are accepted"
LIMITS = SheetLimits(
    max_sheet_rows=MAX_SHEET_ROWS,
    max_columns=MAX_COLUMNS,
    max_cells=MAX_CELLS,
    rows_message=f"The file has more than {MAX_ROWS} rows",
    columns_message=f"The file has more than {MAX_COLUMNS} columns",
)

Record = dict[str, Cell]
"""One data row: ``{column header: cell value}``."""


def read_upload(upload: UploadedFile | None) -> list[tuple[int, Record]]:
    """``[(excel_row_number, {header: value})]`` of the first sheet's non-blank data rows.

    Raises ValidationFailed (path ["file"] or ["columns", header]) for another file type, an unreadable
    workbook, one over the limits (:data:`LIMITS`, the worker's budget), or missing required columns.
    """
    grid = read_first_sheet(upload, LIMITS)
    if not grid:
        raise file_error("The file is empty")
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
            raise file_error(f"The file has more than {MAX_ROWS} rows")
    if not rows:
        raise file_error("The file has no session rows")
    return rows


def _read_xlsx(data: bytes) -> list[list[Cell]]:
    """The first sheet's rows of an .xlsx's bytes, read as an upload is (:data:`LIMITS`)."""
    return read_workbook_bytes(data, kind="xlsx", limits=LIMITS)
