"""Load planning export (docs/behaviour/reports.md: ``GET /api/reports/load-planning/export?format=csv|xlsx``).

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
from collections.abc import Callable

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
                [
                    label,
                    course["courseCode"],
                    course["courseName"],
                    "",
                    "Total",
                    totals["nominalHours"],
                    totals["actualHours"],
                    totals["studentCount"],
                ]
            )
        grand = entry["grandTotals"]
        out.append([label, "", f"{label} total", "", "", grand["nominalHours"], grand["actualHours"], grand["studentCount"]])
    return out


def _csv_bytes(rows: list[list], header: list[str] = HEADER) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(header)
    writer.writerows(neutralise_row(row) for row in rows)
    return buf.getvalue().encode("utf-8")


def _xlsx_bytes(
    rows: list[list],
    header: list[str] = HEADER,
    sheet: str = "Load Planning",
    widths: tuple = (8, 14, 40, 18, 40, 15, 14, 14),
    is_total: Callable[[list], bool] | None = None,
) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook(write_only=True)  # streams rows: no cell objects kept for the whole sheet
    ws = wb.create_sheet(sheet)
    for letter, width in zip("ABCDEFGHIJKLMN", widths, strict=False):
        ws.column_dimensions[letter].width = width
    bold = Font(bold=True)

    def cells(values: list, font: Font | None = None) -> list:
        out = []
        for value in values:
            cell = xlsx_cell(ws, value)  # text typed as a string and neutralised: never a formula
            if font is not None:
                cell.font = font
            out.append(cell)
        return out

    ws.append(cells(header, bold))
    total = is_total or (lambda row: row[4] == "Total" or row[2].endswith(" total"))
    for row in rows:
        ws.append(cells(row, bold if total(row) else None))
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


# --------------------------------------------------------------------------- room utilisation (ADR 0019)

ROOM_HEADER = [
    "Room",
    "Name",
    "Type",
    "Campus",
    "Capacity",
    "Booked Hours",
    "Teaching Weeks",
    "Available Hours",
    "Utilisation %",
    "Average Weekly Hours",
    "Peak Week Hours",
]


def room_utilisation_rows(report: dict) -> list[list]:
    """One row per room, then one "Type total" row per room type (Name column "<Type> total")."""
    out = []
    for r in report["rooms"]:
        out.append(
            [
                r["code"],
                r["name"],
                r["typeLabel"],
                r["campus"] or "",
                r["capacity"] if r["capacity"] is not None else "",
                r["bookedHours"],
                report["teachingWeeks"],
                r["availableHours"] if r["availableHours"] is not None else "",
                r["utilisationPercent"] if r["utilisationPercent"] is not None else "",
                r["averageWeeklyHours"],
                r["peakWeekHours"],
            ]
        )
    for t in report["byType"]:
        out.append(
            [
                "",
                f"{t['typeLabel']} total",
                t["typeLabel"],
                "",
                "",
                t["bookedHours"],
                report["teachingWeeks"],
                t["availableHours"] if t["availableHours"] is not None else "",
                t["utilisationPercent"] if t["utilisationPercent"] is not None else "",
                "",
                "",
            ]
        )
    return out


def room_utilisation_file(report: dict, fmt: str) -> HttpResponse:
    """The room utilisation report as an attachment ``room-utilisation-{year}.{fmt}`` (csv or xlsx)."""
    rows = room_utilisation_rows(report)
    if fmt == "csv":
        body = _csv_bytes(rows, ROOM_HEADER)
    else:
        body = _xlsx_bytes(
            rows,
            ROOM_HEADER,
            "Room Utilisation",
            (12, 28, 14, 24, 10, 14, 15, 16, 14, 20, 16),
            is_total=lambda row: str(row[1]).endswith(" total"),
        )
    response = HttpResponse(body, content_type=FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="room-utilisation-{report["year"]}.{fmt}"'
    response["Cache-Control"] = "no-store"
    return response
