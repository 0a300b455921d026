"""Load planning export (delivery.md §7 Reports: ``GET /api/reports/load-planning/export?format=csv|xlsx``).

The file is the load planning report of :func:`project.reporting.selectors.load_planning` flattened
to rows, downloaded as ``load-planning-report.{format}`` (``Content-Disposition: attachment``).

Columns: Term, Course Code, Course, Block Group Code, Block Group, Nominal Hours, Actual Hours,
Student Count. Per term: one row per block group, one "Course total" row after each course's groups
(Block Group column "Total"), then one "Term total" row (Course column "Term N total"). Hours are
decimal hours; CSV is UTF-8 with a header row; the xlsx has one sheet "Load Planning" with numbers
stored as numbers. Text that a spreadsheet could run as a formula is neutralised
(:mod:`project.core.spreadsheets`).
"""

from __future__ import annotations

import csv
import io

from django.http import HttpResponse

from project.core.spreadsheets import neutralise_row, xlsx_cell

FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
HEADER = [
    "Term",
    "Course Code",
    "Course",
    "Block Group Code",
    "Block Group",
    "Nominal Hours",
    "Actual Hours",
    "Student Count",
]


def load_planning_rows(report: dict) -> list[list]:
    """The report as rows (without the header), in term order."""
    out: list[list] = []
    for term in sorted(report["termData"], key=int):
        entry = report["termData"][term]
        label = f"Term {term}"
        for course in entry["courses"].values():
            for group in course["blockGroups"].values():
                out.append(
                    [
                        label,
                        course["courseCode"],
                        course["courseName"],
                        group["blockGroupCode"],
                        group["blockGroupName"],
                        group["nominalHours"],
                        group["actualHours"],
                        group["studentCount"],
                    ]
                )
            totals = course["totals"]
            out.append(
                [label, course["courseCode"], course["courseName"], "", "Total",
                 totals["nominalHours"], totals["actualHours"], totals["studentCount"]]
            )
        grand = entry["grandTotals"]
        out.append(
            [label, "", f"{label} total", "", "", grand["nominalHours"], grand["actualHours"], grand["studentCount"]]
        )
    return out


def _csv_bytes(rows: list[list]) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(HEADER)
    writer.writerows(neutralise_row(row) for row in rows)
    return buf.getvalue().encode("utf-8")


def _xlsx_bytes(rows: list[list]) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook(write_only=True)  # streams rows: no cell objects kept for the whole sheet
    ws = wb.create_sheet("Load Planning")
    for letter, width in zip("ABCDEFGH", (8, 14, 40, 18, 40, 15, 14, 14)):
        ws.column_dimensions[letter].width = width
    bold = Font(bold=True)

    def cells(values: list, font=None) -> list:
        out = []
        for value in values:
            cell = xlsx_cell(ws, value)  # text typed as a string and neutralised: never a formula
            if font is not None:
                cell.font = font
            out.append(cell)
        return out

    ws.append(cells(HEADER, bold))
    for row in rows:
        is_total = row[4] == "Total" or row[2].endswith(" total")
        ws.append(cells(row, bold if is_total else None))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def load_planning_file(report: dict, fmt: str) -> HttpResponse:
    """The report as an attachment ``load-planning-report.{fmt}``; ``fmt`` is ``csv`` or ``xlsx``."""
    rows = load_planning_rows(report)
    body = _csv_bytes(rows) if fmt == "csv" else _xlsx_bytes(rows)
    response = HttpResponse(body, content_type=FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="load-planning-report.{fmt}"'
    response["Cache-Control"] = "no-store"
    return response
