"""The import template (GET /api/timetables/template): its columns, their explanations, and the workbook.

Sheet 1 "Sessions": a header row (``COLUMNS``), one example row (ignored on import while its codes are
unchanged), drop-down lists for Day of Week and Status. Sheet 2 "Instructions" explains each column.
"""

from __future__ import annotations

import io
from datetime import date, time

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
STATUSES = ["scheduled", "confirmed", "cancelled", "completed"]

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
