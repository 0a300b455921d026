"""Load planning export: downloaded as an attachment and read back (csv module, openpyxl)."""

from __future__ import annotations

import csv
import io
from datetime import date, time

import pytest
from openpyxl import load_workbook

from tests import factories as f

pytestmark = pytest.mark.django_db

HEADER = ["Term", "Course Code", "Course", "Block Group Code", "Block Group", "Nominal Hours", "Actual Hours", "Student Count"]


@pytest.fixture
def export_world(world):
    g5 = f.make_block_group(world.org, code="G5", name="Group Five", course=world.c1, cohort_size=12)
    f.make_session(world.org, block_group=g5, unit=world.u3, actual_date=date(2026, 2, 2), start=time(9), end=time(10, 30))
    return world


def test_csv_export(api, export_world):
    res = api.get("/api/reports/load-planning/export", {"format": "csv", "year": 2026})
    assert res.status_code == 200
    assert res["Content-Type"].startswith("text/csv")
    assert res["Content-Disposition"] == 'attachment; filename="load-planning-report.csv"'
    rows = list(csv.reader(io.StringIO(res.content.decode("utf-8"))))
    assert rows[0] == HEADER
    assert rows[1:] == [
        # Term 1: G1 (U1 + U2: 100 nominal, 9 h) and G5 (U3: 20 nominal, 1.5 h) of ICT30120.
        ["Term 1", "ICT30120", "Certificate III in IT", "G1", "Group One", "100.0", "9.0", "20"],
        ["Term 1", "ICT30120", "Certificate III in IT", "G5", "Group Five", "20.0", "1.5", "12"],
        ["Term 1", "ICT30120", "Certificate III in IT", "", "Total", "120.0", "10.5", "32"],
        ["Term 1", "", "Term 1 total", "", "", "120.0", "10.5", "32"],
        ["Term 2", "", "No course", "G3", "Group Three", "20.0", "3.0", "10"],
        ["Term 2", "", "No course", "", "Total", "20.0", "3.0", "10"],
        ["Term 2", "", "Term 2 total", "", "", "20.0", "3.0", "10"],
        ["Term 3", "ICT40120", "Certificate IV in IT", "G2", "Group Two", "80.0", "7.0", "15"],
        ["Term 3", "ICT40120", "Certificate IV in IT", "", "Total", "80.0", "7.0", "15"],
        ["Term 3", "", "Term 3 total", "", "", "80.0", "7.0", "15"],
    ]


def test_xlsx_export(api, export_world):
    res = api.get("/api/reports/load-planning/export", {"format": "xlsx", "year": 2026})
    assert res.status_code == 200
    assert res["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert res["Content-Disposition"] == 'attachment; filename="load-planning-report.xlsx"'
    wb = load_workbook(io.BytesIO(res.content))
    ws = wb["Load Planning"]
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    assert rows[0] == HEADER
    assert rows[1] == ["Term 1", "ICT30120", "Certificate III in IT", "G1", "Group One", 100, 9, 20]
    assert rows[4] == ["Term 1", None, "Term 1 total", None, None, 120, 10.5, 32]
    assert len(rows) == 11
    assert ws.cell(row=4, column=5).font.bold  # course total row


def test_export_matches_report(api, export_world):
    report = api.get("/api/reports/load-planning", {"year": 2026}).json()
    rows = list(
        csv.reader(io.StringIO(api.get("/api/reports/load-planning/export", {"format": "csv", "year": 2026}).content.decode()))
    )
    grand = [r for r in rows if r[2].endswith(" total")]
    assert [float(r[6]) for r in grand] == [report["termData"][t]["grandTotals"]["actualHours"] for t in ("1", "2", "3")]


def test_export_empty_year_has_header_only(api, world):
    res = api.get("/api/reports/load-planning/export", {"format": "csv", "year": 2040})
    assert list(csv.reader(io.StringIO(res.content.decode()))) == [HEADER]
    res = api.get("/api/reports/load-planning/export", {"format": "xlsx", "year": 2040})
    assert [list(r) for r in load_workbook(io.BytesIO(res.content)).active.iter_rows(values_only=True)] == [HEADER]


@pytest.mark.parametrize("fmt", [None, "", "pdf", "xls", "CSVX"])
def test_bad_format_is_400(api, fmt):
    params = {} if fmt is None else {"format": fmt}
    res = api.get("/api/reports/load-planning/export", params)
    assert res.status_code == 400
    assert res.json()["errors"] == [{"path": ["format"], "message": "Format must be csv or xlsx"}]


def test_format_is_case_insensitive(api, world):
    res = api.get("/api/reports/load-planning/export", {"format": "XLSX", "year": 2026})
    assert res.status_code == 200 and res["Content-Disposition"].endswith('.xlsx"')


def test_other_org_export_is_empty(other_api, world):
    res = other_api.get("/api/reports/load-planning/export", {"format": "csv", "year": 2026})
    assert list(csv.reader(io.StringIO(res.content.decode()))) == [HEADER]


# --- CSV injection (ADR 0004): text that a spreadsheet could run is neutralised, numbers stay numbers.

EVIL_COURSE = '=HYPERLINK("http://evil.example","c")'
EVIL_GROUP = "+cmd|' /C calc'!A0"


@pytest.fixture
def evil_world(world):
    course = f.make_course(world.org, code="@SUM(1+1)", name=EVIL_COURSE)
    group = f.make_block_group(world.org, code="-2+3", name=EVIL_GROUP, course=course, cohort_size=7)
    f.make_session(world.org, block_group=group, unit=world.u3, actual_date=date(2026, 2, 3), start=time(9), end=time(10))
    return world


def test_csv_export_neutralises_formulas(api, evil_world):
    res = api.get("/api/reports/load-planning/export", {"format": "csv", "year": 2026})
    assert res.status_code == 200
    rows = list(csv.reader(io.StringIO(res.content.decode("utf-8"))))
    evil = [r for r in rows if r[4] == "'" + EVIL_GROUP]
    assert evil == [["Term 1", "'@SUM(1+1)", "'" + EVIL_COURSE, "'-2+3", "'" + EVIL_GROUP, "20.0", "1.0", "7"]]
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row


def test_xlsx_export_writes_text_as_strings_never_formulas(api, evil_world):
    res = api.get("/api/reports/load-planning/export", {"format": "xlsx", "year": 2026})
    assert res.status_code == 200
    ws = load_workbook(io.BytesIO(res.content))["Load Planning"]
    cells = [c for row in ws.iter_rows() for c in row]
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    evil = [[c.value for c in row] for row in ws.iter_rows() if row[4].value == "'" + EVIL_GROUP]
    assert evil == [["Term 1", "'@SUM(1+1)", "'" + EVIL_COURSE, "'-2+3", "'" + EVIL_GROUP, 20, 1, 7]]
    hours = [row[5] for row in ws.iter_rows(min_row=2)]
    assert all(c.data_type == "n" for c in hours)  # hours are still numbers
