"""Imports are bounded before they are read (ADR 0004).

A small .xlsx can unpack to a sheet of a million rows or a million cells in one row; openpyxl builds a
whole row in memory before it can skip columns. These workbooks are written by hand as zip files (a
real template whose sheet XML is replaced), so they are tiny on the wire like the attacker's, and they
must be refused with the documented 400 shape (path ``["file"]``) and nothing written.
"""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from project.timetabling.importer import MAX_COLUMNS, MAX_ROWS, build_template
from project.timetabling.models import TimetableSession

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def with_sheet_xml(sheet_xml: bytes) -> bytes:
    """The import template with its first sheet's XML replaced, deflated like any .xlsx."""
    source = zipfile.ZipFile(io.BytesIO(build_template()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = sheet_xml if info.filename == "xl/worksheets/sheet1.xml" else source.read(info.filename)
            target.writestr(info.filename, data)
    return out.getvalue()


def header_row() -> bytes:
    from project.timetabling.importer import HEADERS

    cells = "".join(f'<c t="inlineStr"><is><t>{h}</t></is></c>' for h in HEADERS)
    return f'<row r="1">{cells}</row>'.encode()


def sheet(rows: bytes, dimension: str | None = None) -> bytes:
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    return f'<?xml version="1.0"?><worksheet {NS}>{dim}<sheetData>'.encode() + header_row() + rows + b"</sheetData></worksheet>"


def post(api, content: bytes):
    started = time.perf_counter()
    r = api.post("/api/timetables/import", data={"file": SimpleUploadedFile("big.xlsx", content, content_type=XLSX)})
    return r, time.perf_counter() - started


def assert_refused(r, message: str):
    assert r.status_code == 400, r.content[:300]
    body = r.json()
    assert body["type"] == "validation_error"
    assert body["errors"] == [{"path": ["file"], "message": message}]
    assert TimetableSession.objects.unscoped().count() == 0


def test_a_million_rows_without_a_declared_dimension_is_refused(api):
    rows = b'<row><c t="inlineStr"><is><t>x</t></is></c></row>' * 1_000_000
    content = with_sheet_xml(sheet(rows))
    assert len(content) < 200_000  # small on the wire, like the attacker's workbook
    r, _ = post(api, content)
    assert_refused(r, f"The file has more than {MAX_ROWS} rows")


def test_a_declared_million_rows_is_refused_before_reading(api):
    content = with_sheet_xml(sheet(b'<row r="2"><c><v>1</v></c></row>', dimension="A1:M1000000"))
    r, _ = post(api, content)
    assert_refused(r, f"The file has more than {MAX_ROWS} rows")


def test_a_million_cells_in_one_row_is_refused(api):
    row = b'<row r="2">' + b"<c/>" * 1_000_000 + b"</row>"
    content = with_sheet_xml(sheet(row))
    assert len(content) < 200_000
    r, _ = post(api, content)
    assert_refused(r, f"The file has more than {MAX_COLUMNS} columns")


def test_a_zip_that_unpacks_past_the_limit_is_refused(api):
    content = with_sheet_xml(sheet(b'<row r="2"><c><v>1</v></c></row>' + b" " * (201 * 1024 * 1024)))
    r, _ = post(api, content)
    assert_refused(r, "The file is too large to read")


def test_a_sheet_at_the_limits_is_still_read():
    """The scan counts what it should: a sheet of MAX_ROWS data rows of the template's width passes it."""
    from project.timetabling.importer import HEADERS, _read_xlsx

    row = b"<row>" + b"<c><v>1</v></c>" * len(HEADERS) + b"</row>"
    grid = _read_xlsx(with_sheet_xml(sheet(row * MAX_ROWS)))
    assert len(grid) == MAX_ROWS + 1
    assert grid[0] == list(HEADERS)
