"""Availability as .xlsx (ADR 0027): export one row per teacher and window, import it back all or nothing
with row errors like the timetable import."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests import factories as f
from tests.checks import error_list

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HEADER = ["Employee ID", "Kind", "Weekday", "Start", "End", "Level", "From", "To", "Range Name"]


def sheet(*rows) -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(HEADER)
    for r in rows:
        ws.append(list(r))
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def upload(api, content: bytes, name="availability.xlsx"):
    return api.post("/api/teachers/availability/import", data={"file": SimpleUploadedFile(name, content, content_type=XLSX)})


def test_import_replaces_each_listed_teachers_pattern(api, org, committed):
    sia = f.make_teacher(org, employee_id="S1", availability="both")
    other = f.make_teacher(org, employee_id="O1", availability="evening")
    content = sheet(
        ["S1", "available", "Mon", "08:00", "17:00"],
        ["S1", "available", "Wednesday", "08:00", "17:00"],
        ["S1", "preference", "Wed", "12:00", "17:00", "discouraged"],
        ["S1", "range", "Tue", "09:00", "15:00", "", "2027-07-12", "2027-09-17", "Term 3"],
    )
    with committed() as sent:
        r = upload(api, content)
    assert r.status_code == 200, r.content
    assert r.json() == {"message": "Imported availability of 1 teacher(s)", "stats": {"teachers": 1, "rows": 4}}
    assert sent == [("teacher", "imported", [str(sia.pk)])]
    body = api.get(f"/api/teachers/{sia.pk}/availability").json()
    assert body["custom"] and body["availability"] == "day"
    assert body["windows"] == [{"weekday": 0, "start": "08:00", "end": "17:00"}, {"weekday": 2, "start": "08:00", "end": "17:00"}]
    assert body["preferences"] == [{"weekday": 2, "start": "12:00", "end": "17:00", "level": "discouraged"}]
    assert body["variants"] == [
        {
            "name": "Term 3",
            "startDate": "2027-07-12",
            "endDate": "2027-09-17",
            "windows": [{"weekday": 1, "start": "09:00", "end": "15:00"}],
        }
    ]
    assert api.get(f"/api/teachers/{other.pk}/availability").json()["custom"] is False


def test_export_then_import_round_trips(api, org):
    t = f.make_teacher(org, employee_id="R1")
    painted = {
        "windows": [{"weekday": 4, "start": "17:30", "end": "21:30"}],
        "preferences": [{"weekday": 4, "start": "17:30", "end": "19:00", "level": "strongly_preferred"}],
    }
    assert api.put(f"/api/teachers/{t.pk}/availability", painted).status_code == 200
    r = api.get("/api/teachers/availability/export")
    assert r.status_code == 200 and r["Content-Type"] == XLSX
    rows = list(openpyxl.load_workbook(io.BytesIO(r.content)).active.values)
    assert list(rows[0]) == HEADER
    assert ("R1", "available", "Fri", "17:30", "21:30", None, None, None, None) in rows
    assert api.put(f"/api/teachers/{t.pk}/availability", {"windows": []}).status_code == 200
    assert upload(api, r.content).status_code == 200
    body = api.get(f"/api/teachers/{t.pk}/availability").json()
    assert body["windows"] == painted["windows"] and body["preferences"] == painted["preferences"]


def test_wrong_rows_are_each_reported_and_nothing_is_imported(api, org):
    t = f.make_teacher(org, employee_id="W1")
    content = sheet(
        ["W1", "available", "Mon", "08:00", "17:00"],
        ["NOPE", "available", "Mon", "08:00", "17:00"],
        ["W1", "sometimes", "Funday", "9am", "08:00"],
        ["W1", "available", "Tue", "12:00", "09:00"],
        ["W1", "preference", "Tue", "12:00", "13:00", "maybe"],
        ["W1", "range", "Tue", "12:00", "13:00", "", "2027-09-01", "2027-08-01"],
    )
    r = upload(api, content)
    assert r.status_code == 400
    errors = error_list(r)
    assert (["rows", 3, "Employee ID"], "No teacher with employee ID 'NOPE'") in errors
    assert (["rows", 4, "Kind"], "Kind must be one of: available, preference, range") in errors
    assert (["rows", 4, "Weekday"], "Weekday must be Mon to Sun") in errors
    assert (["rows", 4, "Start"], "Start must be a time (HH:MM)") in errors
    assert (["rows", 5, "End"], "End time must be after start time") in errors
    assert any(path == ["rows", 6, "Level"] for path, _m in errors)
    assert (["rows", 7, "To"], "End date must be on or after start date") in errors
    assert r.json()["message"] == "5 row(s) have errors; nothing was imported"
    assert api.get(f"/api/teachers/{t.pk}/availability").json()["custom"] is False


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"not a workbook", "availability.xlsx", "The file could not be read as an Excel workbook"),
        (b"a,b", "availability.csv", "Only .xlsx or .xls files are accepted"),
    ],
)
def test_a_file_that_is_not_a_workbook_is_a_400_at_file(api, org, content, name, message):
    r = upload(api, content, name)
    assert r.status_code == 400
    assert error_list(r) == [(["file"], message)]


def test_a_missing_column_is_named(api, org):
    wb = openpyxl.Workbook()
    wb.active.append(["Employee ID", "Kind", "Weekday", "Start"])
    wb.active.append(["X", "available", "Mon", "08:00"])
    out = io.BytesIO()
    wb.save(out)
    r = upload(api, out.getvalue())
    assert r.status_code == 400 and error_list(r) == [(["columns", "End"], "Missing column: End")]
