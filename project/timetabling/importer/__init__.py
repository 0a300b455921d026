"""The timetable Excel template and the reading and validation of an uploaded workbook
(GET /api/timetables/template, POST /api/timetables/import; docs/behaviour/timetables.md §5).

Sheet 1 "Sessions": a header row (``COLUMNS``), one example row (ignored on import while its codes are
unchanged), drop-down lists for Day of Week and Status. Sheet 2 "Instructions" explains each column.
Rows are read from the first sheet; columns are found by header text (any order, any case).

Validation reports every bad row at once: ``ValidationFailed`` with
``errors: [{"path": ["rows", <excel row number>, <column header>], "message", "row"}]``.

Three steps, a module each: :mod:`.template` (the columns and the template workbook), :mod:`.workbook`
(the upload read into rows, within size limits) and :mod:`.rows` (each row's cells parsed and checked).
"""

from project.timetabling.importer.rows import ImportRow, validate_rows
from project.timetabling.importer.template import COLUMNS, DAY_NAMES, EXAMPLE, HEADERS, STATUSES, build_template
from project.timetabling.importer.workbook import (
    EXT_MESSAGE,
    MAX_BYTES,
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_SHEET_ROWS,
    MAX_UNPACKED_BYTES,
    Cell,
    Record,
    _read_xlsx,
    read_upload,
)

__all__ = [
    "COLUMNS",
    "DAY_NAMES",
    "EXAMPLE",
    "EXT_MESSAGE",
    "HEADERS",
    "MAX_BYTES",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "MAX_SHEET_ROWS",
    "MAX_UNPACKED_BYTES",
    "STATUSES",
    "Cell",
    "ImportRow",
    "Record",
    "_read_xlsx",
    "build_template",
    "read_upload",
    "validate_rows",
]
