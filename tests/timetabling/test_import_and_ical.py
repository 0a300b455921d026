"""Excel template and import (docs/behaviour/timetables.md §5), iCalendar feeds."""

from __future__ import annotations

import io
from datetime import date, datetime, time
from functools import partial
from zoneinfo import ZoneInfo

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from icalendar import Calendar

from project.catalogue.models import Unit
from project.planning.models import BlockGroup
from project.timetabling.importer import HEADERS
from project.timetabling.models import TimetableSession
from tests import factories as f
from tests.timetabling.conftest import filled_template, new_cohort_row

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def upload(api, content: bytes, name="sessions.xlsx"):
    return api.post("/api/timetables/import", data={"file": SimpleUploadedFile(name, content, content_type=XLSX)})


def workbook_bytes(wb) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def count():
    return TimetableSession.objects.unscoped().count()


def test_template_has_header_example_dropdowns_and_instructions(api):
    r = api.get("/api/timetables/template")
    assert r.status_code == 200
    assert r["Content-Type"] == XLSX
    assert "attachment" in r["Content-Disposition"]
    wb = openpyxl.load_workbook(io.BytesIO(r.content))
    ws = wb["Sessions"]
    assert [c.value for c in ws[1]] == HEADERS
    assert ws.cell(row=2, column=1).value == "BG-EXAMPLE"
    lists = {dv.formula1 for dv in ws.data_validations.dataValidation if dv.type == "list"}
    assert '"scheduled,confirmed,cancelled,completed"' in lists
    assert '"Monday,Tuesday,Wednesday,Thursday,Friday,Saturday,Sunday"' in lists
    info = wb["Instructions"]
    explained = [row[0].value for row in info.iter_rows(min_row=2, max_row=len(HEADERS) + 1)]
    assert explained == HEADERS


def test_template_downloaded_filled_and_imported(api, org, captured_events, django_capture_on_commit_callbacks):
    existing_unit = f.make_unit(org, code="ICTICT214", name="Operate application software")
    existing_group = f.make_block_group(org, code="BG-OLD", start_date=date(2026, 2, 2))
    teacher = f.make_teacher(org, employee_id="E777", email="tess@mp.edu.au")
    # Row 2 (the example) stays as it is and is skipped.
    content = filled_template(
        api,
        new_cohort_row(unit_name="A brand new unit", teacher="E777", notes="first"),
        [
            "BG-NEW",
            None,
            "ICTICT214",
            None,
            "2026-03-04",
            None,
            "13:00:00",
            "15:30:00",
            None,
            2.5,
            "",
            "tess@mp.edu.au",
            "Confirmed",
            None,
        ],
        ["BG-OLD", None, "NEWUNIT01", None, datetime(2026, 3, 9), "Mon", time(9), time(12), 6, 3, "", None, None, None],
    )
    with django_capture_on_commit_callbacks(execute=True):
        r = upload(api, content)
    assert r.status_code == 200, r.content
    assert r.json()["stats"] == {"sessionsCreated": 3, "blockGroupsCreated": ["BG-NEW"], "unitsCreated": ["NEWUNIT01"]}
    new_group = BlockGroup.objects.for_org(org).get(code="BG-NEW")
    assert new_group.name == "New cohort" and new_group.start_date == date(2026, 3, 2)
    assert Unit.objects.for_org(org).get(code="NEWUNIT01").name == "A brand new unit"
    assert not BlockGroup.objects.for_org(org).filter(code="BG-EXAMPLE").exists()
    rows = list(TimetableSession.objects.for_org(org).order_by("actual_date"))
    assert [(s.actual_date, s.start_time, s.end_time, float(s.actual_hours), s.status, s.teacher_id) for s in rows] == [
        (date(2026, 3, 2), time(9), time(12), 3.0, "scheduled", teacher.id),
        (date(2026, 3, 4), time(13), time(15, 30), 2.5, "confirmed", teacher.id),
        (date(2026, 3, 9), time(9), time(12), 3.0, "scheduled", None),
    ]
    assert rows[1].unit_id == existing_unit.id
    assert rows[2].block_group_id == existing_group.id and rows[2].week_number == 6
    assert rows[0].week_number == 1 and rows[0].day_of_week == 1
    events = [m["event"] for _g, m in captured_events]
    assert len(events) == 1 and events[0]["action"] == "imported" and len(events[0]["ids"]) == 3


def test_malformed_rows_are_refused_with_row_numbers_and_nothing_written(api, org):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(HEADERS)
    ws.append(["BG-1", None, "GOODUNIT", None, "2026-03-02", None, "09:00:00", "12:00:00", None, None, None, None, None, None])
    ws.append(["BG-1", None, "BAD UNIT!", None, "31/02/2026x", None, "09:00:00", "12:00:00", None, 13, None, None, None, None])
    ws.append(["BG-1", None, "", None, "2026-03-02", "Tuesday", "9am", "12:00:00", None, None, None, "nobody", "maybe", None])
    r = upload(api, workbook_bytes(wb))
    assert r.status_code == 400
    body = r.json()
    assert body["type"] == "validation_error"
    errors = {(e["row"], e["path"][2]): e["message"] for e in body["errors"]}
    assert all(e["path"][:2] == ["rows", e["row"]] for e in body["errors"])
    assert errors[(3, "Unit Code")].startswith("Unit code may only contain")
    assert errors[(3, "Date")] == "Invalid date, use YYYY-MM-DD"
    assert errors[(3, "Actual Hours")] == "Hours cannot exceed 12 per session"
    assert errors[(4, "Unit Code")] == "Unit Code is required"
    assert errors[(4, "Start Time")] == "Invalid time format, use HH:MM:SS"
    assert errors[(4, "Teacher")].startswith("No teacher")
    assert errors[(4, "Status")].startswith("Status must be")
    assert not any(row == 2 for row, _c in errors)
    assert count() == 0
    assert not BlockGroup.objects.for_org(org).filter(code="BG-1").exists()
    assert not Unit.objects.for_org(org).filter(code="GOODUNIT").exists()


def test_wrong_columns_are_refused(api):
    wb = openpyxl.Workbook()
    wb.active.append(["Group", "Subject", "When"])
    wb.active.append(["BG-1", "X", "2026-03-02"])
    r = upload(api, workbook_bytes(wb))
    assert r.status_code == 400
    paths = [e["path"] for e in r.json()["errors"]]
    assert ["columns", "Block Group Code"] in paths and ["columns", "Start Time"] in paths
    assert count() == 0


@pytest.mark.parametrize(
    "name,content",
    [
        ("sessions.csv", b"Block Group Code,Unit Code\nBG,U\n"),
        ("sessions.pdf", b"%PDF-1.4"),
        ("sessions.xlsx", b"this is not a workbook"),
    ],
)
def test_non_excel_files_are_refused(api, name, content):
    r = upload(api, content, name=name)
    assert r.status_code == 400
    assert r.json()["errors"][0]["path"] == ["file"]
    if not name.endswith(".xlsx"):
        assert r.json()["errors"][0]["message"] == "Only .xlsx or .xls files are accepted"
    assert count() == 0


def test_missing_file_is_400(api):
    r = api.post("/api/timetables/import", data={})
    assert r.status_code == 400


# --------------------------------------------------------------------------------------------- iCal


@pytest.fixture
def cal_world(org):
    unit = f.make_unit(org, code="ICTICT214", name="Operate application software")
    group = f.make_block_group(org, code="G1", name="Group one")
    teacher = f.make_teacher(org, first_name="Tess", last_name="Teach")
    session = partial(f.make_session, org, block_group=group, unit=unit, teacher=teacher)
    a = session(actual_date=date(2026, 3, 2), start=time(9), end=time(12), room="B2.01")
    b = session(actual_date=date(2026, 7, 6), start=time(18), end=time(21, 30), status="cancelled")
    return {"unit": unit, "group": group, "teacher": teacher, "a": a, "b": b}


def _events(content: bytes) -> dict:
    cal = Calendar.from_ical(content)
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


def test_teacher_feed_parses_back_with_events_and_wall_times(api, cal_world):
    r = api.get("/api/timetables/ical", {"teacherId": str(cal_world["teacher"].id)})
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/calendar")
    events = _events(r.content)
    assert set(events) == {f"{cal_world['a'].id}@blockplan", f"{cal_world['b'].id}@blockplan"}
    a = events[f"{cal_world['a'].id}@blockplan"]
    mel = ZoneInfo("Australia/Melbourne")
    assert a.decoded("DTSTART") == datetime(2026, 3, 2, 9, 0, tzinfo=mel)
    assert a.decoded("DTEND") == datetime(2026, 3, 2, 12, 0, tzinfo=mel)
    assert a["DTSTART"].params["TZID"] == "Australia/Melbourne"
    assert str(a["SUMMARY"]) == "ICTICT214 Operate application software"
    assert str(a["LOCATION"]) == "B2.01"
    assert str(a["STATUS"]) == "CONFIRMED"
    b = events[f"{cal_world['b'].id}@blockplan"]
    assert str(b["STATUS"]) == "CANCELLED"
    assert b.decoded("DTEND").hour == 21 and b.decoded("DTEND").minute == 30
    assert b"BEGIN:VTIMEZONE" in r.content
    # The same through the block group.
    by_group = api.get("/api/timetables/ical", {"blockGroupId": str(cal_world["group"].id)})
    assert set(_events(by_group.content)) == set(events)


def test_ical_needs_one_target_and_own_ids(api, other_org, cal_world):
    assert api.get("/api/timetables/ical").status_code == 400
    theirs = f.make_teacher(other_org)
    assert api.get("/api/timetables/ical", {"teacherId": str(theirs.id)}).status_code == 404


def test_secret_feed_url_works_without_session_and_is_revocable(api, anon_api, member_api, cal_world, other_api):
    r = api.post("/api/calendar-feeds", {"teacherId": str(cal_world["teacher"].id)})
    assert r.status_code == 201
    feed = r.json()
    assert feed["url"].endswith(f"/api/calendar-feeds/{feed['token']}.ics")
    assert len(feed["token"]) >= 40
    assert [x["id"] for x in api.get("/api/calendar-feeds").json()] == [feed["id"]]
    assert member_api.get("/api/calendar-feeds").json() == []  # per user
    public = anon_api.get(f"/api/calendar-feeds/{feed['token']}.ics")
    assert public.status_code == 200
    assert public["Content-Type"].startswith("text/calendar")
    assert len(_events(public.content)) == 2
    assert anon_api.get("/api/calendar-feeds/not-a-real-token.ics").status_code == 404
    assert other_api.delete(f"/api/calendar-feeds/{feed['id']}").status_code == 404
    assert member_api.delete(f"/api/calendar-feeds/{feed['id']}").status_code == 404
    assert api.delete(f"/api/calendar-feeds/{feed['id']}").status_code == 204
    assert anon_api.get(f"/api/calendar-feeds/{feed['token']}.ics").status_code == 404
    assert api.get("/api/calendar-feeds").json() == []


def test_feed_targets_are_checked(api, other_org, cal_world):
    assert api.post("/api/calendar-feeds", {}).status_code == 400
    assert api.post("/api/calendar-feeds", {"blockGroupId": str(f.make_block_group(other_org).id)}).status_code == 404
    r = api.post("/api/calendar-feeds", {"blockGroupId": str(cal_world["group"].id)})
    assert r.status_code == 201 and r.json()["blockGroupId"] == str(cal_world["group"].id)
