"""No request, however malformed, yields a 5xx (docs/behaviour/errors.md §1).

Each class of bad input that a fuzzing pass (schemathesis over /api/openapi.json plus hand probes on
PostgreSQL) turned into a 500 is sent here to the endpoints it reached. Every answer must be a 4xx in
the documented shape (``message``; a 400 is ``type: validation_error`` with ``errors: [{path, message}]``)
and nothing in the database may change. The classes:

- bodies that are not JSON: malformed, not UTF-8, ``NaN``; a form or multipart body sent to a JSON call;
  a multipart body Django cannot read (project.api's parser and exception handlers);
- NUL characters in any body string, object key or query value (PostgreSQL cannot store or compare
  them) and in a token path segment;
- dates outside years 2000-2100, given directly or reached through a huge ``weekNumber`` (Python's
  date arithmetic overflowed), including in an imported workbook;
- data stored before these checks (a session dated 9999-12-31) hits the OverflowError safety net.
"""

from __future__ import annotations

import io
import json
from datetime import date

import openpyxl
import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile

from project.timetabling.importer import HEADERS
from tests import factories as f

pytestmark = pytest.mark.django_db

APPS = ("accounts", "catalogue", "planning", "staff", "timetabling", "displays")
NUL_MESSAGE = "Text must not contain NUL characters"


# --------------------------------------------------------------------------------------------- helpers


def snapshot() -> dict:
    """Every row of the domain apps, all fields: equal before and after means nothing changed."""
    state = {}
    for label in APPS:
        for model in apps.get_app_config(label).get_models():
            state[model._meta.label] = list(model._base_manager.order_by("pk").values())
    return state


def problems(r, status: int | tuple[int, ...] = 400, paths: list | None = None) -> str | None:
    """What is wrong with an error answer, or None when it has the documented shape."""
    expected = status if isinstance(status, tuple) else (status,)
    if r.status_code not in expected:
        return f"status {r.status_code}: {r.content[:200]!r}"
    try:
        body = r.json()
    except ValueError:
        return f"not JSON: {r.content[:200]!r}"
    if not isinstance(body.get("message"), str) or not body["message"]:
        return f"no message: {body}"
    if r.status_code == 400:
        if body.get("type") != "validation_error":
            return f"type {body.get('type')!r}: {body}"
        errors = body.get("errors")
        if not errors or not all(isinstance(e.get("path"), list) and e.get("message") for e in errors):
            return f"errors not [{{path, message}}]: {body}"
        if paths is not None:
            got = [e["path"] for e in errors]
            if any(p not in got for p in paths):
                return f"paths {got}, expected {paths}"
    return None


def send(client, method: str, path: str, body: bytes | str, content_type="application/json", headers=None):
    return client.client.generic(method, path, body, content_type=content_type, headers=client._headers(headers))


@pytest.fixture
def world(org, admin_user):
    """One row of everything the write endpoints touch, so that each path resolves."""
    course = f.make_course(org)
    unit = f.make_unit(org)
    other_unit = f.make_unit(org)
    campus = f.make_campus(org)
    plan = f.make_study_plan(org)
    plan_unit = f.add_plan_unit(plan, unit)
    group = f.make_block_group(org, course=course, campus=campus)
    f.assign_plan(group, plan)
    teacher = f.make_teacher(org)
    session = f.make_session(org, block_group=group, unit=unit, week_number=5)
    holiday = f.make_holiday(org)
    from project.displays.models import DisplayLink

    link = DisplayLink.objects.create(organization=org, name="Foyer", campus=campus)
    return {
        "course": course.id,
        "unit": unit.id,
        "other_unit": other_unit.id,
        "campus": campus.id,
        "plan": plan.id,
        "plan_unit": plan_unit.id,
        "group": group.id,
        "teacher": teacher.id,
        "session": session.id,
        "holiday": holiday.id,
        "link": link.id,
        "link_token": link.token,
    }


# Every call that reads a JSON body.
JSON_CALLS = [
    ("POST", "/api/courses"),
    ("PUT", "/api/courses/{course}"),
    ("POST", "/api/units"),
    ("PUT", "/api/units/{unit}"),
    ("POST", "/api/study-plans"),
    ("PUT", "/api/study-plans/{plan}"),
    ("POST", "/api/study-plans/{plan}/clone"),
    ("POST", "/api/study-plans/{plan}/units"),
    ("PUT", "/api/study-plan-units/{plan_unit}"),
    ("POST", "/api/block-groups"),
    ("PUT", "/api/block-groups/{group}"),
    ("POST", "/api/block-groups/{group}/study-plans"),
    ("POST", "/api/block-groups/{group}/schedule"),
    ("POST", "/api/linked-block-groups"),
    ("POST", "/api/teachers"),
    ("PUT", "/api/teachers/{teacher}"),
    ("POST", "/api/teacher-units"),
    ("POST", "/api/timetables"),
    ("PUT", "/api/timetables/{session}"),
    ("PUT", "/api/timetables/bulk-allocate"),
    ("POST", "/api/timetables/auto-allocate"),
    ("POST", "/api/holidays"),
    ("PUT", "/api/holidays/{holiday}"),
    ("POST", "/api/holidays/import-public"),
    ("POST", "/api/display-links"),
    ("PUT", "/api/display-links/{link}"),
    ("POST", "/api/calendar-feeds"),
    ("PUT", "/api/organization"),
    ("PUT", "/api/auth/profile"),
    ("PUT", "/api/auth/settings"),
    ("POST", "/api/admin/users"),
    ("POST", "/api/auth/login"),
]

# (name, raw body, content type, expected error paths)
BAD_BODIES = [
    ("malformed JSON", b'{"name": ', "application/json", [[]]),
    ("not UTF-8", b'{"name": "\xff\xfe"}', "application/json", [[]]),
    ("NaN", b'{"name": "x", "cohortSize": NaN}', "application/json", [[]]),
    ("Infinity", b'{"name": "x", "nominalHours": Infinity}', "application/json", [[]]),
    ("NUL in a value", json.dumps({"name": "Bad\u0000name"}).encode(), "application/json", [["name"]]),
    (
        "NUL deep in a value",
        json.dumps({"preferences": {"timezone": ["\u0000"]}}).encode(),
        "application/json",
        [["preferences", "timezone", 0]],
    ),
    ("NUL in a key", json.dumps({"na\u0000me": "x"}).encode(), "application/json", [["na\u0000me"]]),
    # A lone UTF-16 surrogate decodes to text psycopg cannot encode (it was a 500 on 7 of 12 endpoints).
    (
        "lone surrogate in a value",
        b'{"name": "Bad\\ud800name", "email": "\\udfff@x.au", "password": "\\ud800"}',
        "application/json",
        [["name"]],
    ),
    (
        "lone surrogate deep in a value",
        b'{"preferences": {"timezone": ["\\udc00"]}}',
        "application/json",
        [["preferences", "timezone", 0]],
    ),
    ("lone surrogate in a key", b'{"na\\ud800me": "x"}', "application/json", [["na\ud800me"]]),
    ("form body", b"name=x&code=y", "multipart/form-data; boundary=BOUNDARY", [[]]),
    (
        "multipart form",
        b'--B\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--B--\r\n',
        "multipart/form-data; boundary=B",
        [[]],
    ),
    ("multipart without boundary", b"x", "multipart/form-data", [[]]),
]


@pytest.mark.parametrize("name,raw,content_type,paths", BAD_BODIES, ids=[b[0] for b in BAD_BODIES])
def test_bad_bodies_are_400_and_change_nothing(api, world, name, raw, content_type, paths):
    before = snapshot()
    failures = []
    for method, template in JSON_CALLS:
        path = template.format(**world)
        r = send(api, method, path, raw, content_type=content_type)
        # A form body to a PUT is not read by the CSRF check, so it fails as JSON: path [] either way.
        problem = problems(r, 400, paths)
        if problem:
            failures.append(f"{method} {path}: {problem}")
    assert failures == []
    assert snapshot() == before


# A body that was valid but for one NUL in the field that reached PostgreSQL.
NUL_FIELDS = [
    ("POST", "/api/display-links", {"name": "Foyer\u0000"}, ["name"]),
    ("PUT", "/api/organization", {"name": "MP\u0000", "domain": "mp.edu.au"}, ["name"]),
    ("PUT", "/api/organization", {"name": "MP", "domain": "mp\u0000.edu.au"}, ["domain"]),
    ("PUT", "/api/auth/profile", {"firstName": "Ada\u0000", "lastName": "Admin"}, ["firstName"]),
    (
        "POST",
        "/api/admin/users",
        {"email": "new@mp.edu.au", "firstName": "N", "lastName": "\u0000", "role": "user"},
        ["lastName"],
    ),
    (
        "POST",
        "/api/timetables",
        {
            "blockGroupId": "{group}",
            "unitId": "{unit}",
            "startTime": "09:00:00",
            "endTime": "10:00:00",
            "actualDate": "2026-03-04",
            "room": "R\u0000",
        },
        ["room"],
    ),
    (
        "PUT",
        "/api/timetables/{session}",
        {"blockGroupId": "{group}", "unitId": "{unit}", "startTime": "09:00:00", "endTime": "10:00:00", "notes": "n\u0000"},
        ["notes"],
    ),
    (
        "POST",
        "/api/block-groups/{group}/schedule",
        {"sessionTemplates": [{"startTime": "09:00\u0000", "endTime": "12:00:00", "duration": 3}]},
        ["sessionTemplates", 0, "startTime"],
    ),
    ("POST", "/api/auth/login", {"email": "admin@mp.edu.au\u0000", "password": "x"}, ["email"]),
]


def _fill(value, world):
    if isinstance(value, str):
        return value.format(**world) if value.startswith("{") and value.endswith("}") else value
    if isinstance(value, dict):
        return {k: _fill(v, world) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, world) for v in value]
    return value


def refused_bodies(api, world, table, message: str | None = None) -> list[str]:
    """Send every ``(method, url template, body, error path)`` of ``table`` (filled from the world); list
    those not answered 400 with an error at that path (saying ``message``, when given)."""
    failures = []
    for method, template, body, path in table:
        url = template.format(**world)
        r = send(api, method, url, json.dumps(_fill(body, world)))
        problem = problems(r, 400, [path])
        if problem is None and message is not None and r.json()["errors"][0]["message"] != message:
            problem = f"message {r.json()}"
        if problem:
            failures.append(f"{method} {url} {path}: {problem}")
    return failures


def test_nul_in_fields_that_reached_the_database(api, world):
    before = snapshot()
    assert refused_bodies(api, world, NUL_FIELDS, NUL_MESSAGE) == []
    assert snapshot() == before


# (url, expected status, expected error paths); "{...}" filled from the world.
BAD_QUERIES_AND_PATHS = [
    ("/api/block-groups?status=%00", 400, [["status"]]),
    ("/api/block-groups?course=a%00b&status=active", 400, [["course"]]),
    ("/api/holidays?type=%00", 400, [["type"]]),
    ("/api/timetables?blockGroupId=%00", 400, [["blockGroupId"]]),
    ("/api/reports/load-planning?year=%00", 400, [["year"]]),
    ("/api/timetables/conflicts?start=0001-01-01&end=9999-12-31", 400, [["start"], ["end"]]),
    ("/api/timetables/conflicts?start=2026-13-45", 400, [["start"]]),
    ("/api/holidays?year=abc", 400, [["year"]]),
    ("/api/display/{link_token}?date=9999-12-31", 400, [["date"]]),
    ("/api/display/{link_token}?date=%00", 400, [["date"]]),
    ("/api/display/ab%00cd", 404, None),
    ("/api/calendar-feeds/ab%00cd.ics", 404, None),
    ("/api/courses/not-a-uuid", 404, None),
    ("/api/block-groups/123/units?yearLevel=abc", 404, None),
    ("/api/timetables/{session}%00", 404, None),
]


@pytest.mark.parametrize("url,status,paths", BAD_QUERIES_AND_PATHS, ids=[q[0] for q in BAD_QUERIES_AND_PATHS])
def test_bad_query_values_and_path_segments(api, world, url, status, paths):
    r = api.get(url.format(**world))
    assert problems(r, status, paths) is None, problems(r, status, paths)


# A valid body but for a date out of years 2000-2100, given or computed (weekNumber).
SESSION = {"blockGroupId": "{group}", "unitId": "{unit}", "startTime": "09:00:00", "endTime": "10:00:00"}
GROUP = {"code": "BG-NEW", "name": "New", "cohortSize": 10, "startDate": "2026-02-02", "preferredDays": "mon"}
TEACHER = {
    "employeeId": "E9",
    "firstName": "A",
    "lastName": "B",
    "email": "ab@mp.edu.au",
    "maxWeeklyHours": 20,
    "employmentType": "fixed_term",
}
BAD_DATES = [
    ("POST", "/api/timetables", {**SESSION, "actualDate": "9999-12-31"}, ["actualDate"]),
    ("POST", "/api/timetables", {**SESSION, "actualDate": "0001-01-01"}, ["actualDate"]),
    ("POST", "/api/timetables", {**SESSION, "weekNumber": 10**12, "dayOfWeek": 1}, ["weekNumber"]),
    ("POST", "/api/timetables", {**SESSION, "weekNumber": 6000, "dayOfWeek": 1}, ["weekNumber"]),
    ("PUT", "/api/timetables/{session}", {**SESSION, "actualDate": "9999-12-31"}, ["actualDate"]),
    ("PUT", "/api/timetables/{session}", {**SESSION, "weekNumber": 10**12}, ["weekNumber"]),
    ("POST", "/api/holidays", {"name": "H", "startDate": "2026-05-01", "endDate": "9999-12-31"}, ["endDate"]),
    ("POST", "/api/holidays", {"name": "H", "startDate": "0001-01-01", "endDate": "2026-05-02"}, ["startDate"]),
    ("PUT", "/api/holidays/{holiday}", {"name": "H", "startDate": "2026-05-01", "endDate": "9999-12-31"}, ["endDate"]),
    ("POST", "/api/block-groups", {**GROUP, "startDate": "9999-12-31"}, ["startDate"]),
    ("PUT", "/api/block-groups/{group}", {**GROUP, "endDate": "9999-12-31"}, ["endDate"]),
    ("POST", "/api/teachers", {**TEACHER, "expiryDate": "9999-12-31"}, ["expiryDate"]),
    ("PUT", "/api/teachers/{teacher}", {"expiryDate": "0001-01-01"}, ["expiryDate"]),
    (
        "POST",
        "/api/block-groups/{group}/schedule",
        {"sessionTemplates": [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}], "startDate": "9999-12-31"},
        ["startDate"],
    ),
    ("POST", "/api/timetables/auto-allocate", {"blockGroupId": "{group}", "start": "0001-01-01", "end": "9999-12-31"}, ["start"]),
]


def test_dates_out_of_range_are_400_and_change_nothing(api, world):
    before = snapshot()
    assert refused_bodies(api, world, BAD_DATES) == []
    assert snapshot() == before


def test_if_match_garbage_is_412_and_changes_nothing(api, world):
    before = snapshot()
    for value in ("garbage", '"not-a-date"', "W/", ",,,", '"9999-99-99T99:99:99"'):
        r = send(
            api, "PUT", f"/api/courses/{world['course']}", json.dumps({"code": "NEW", "name": "N"}), headers={"If-Match": value}
        )
        assert problems(r, 412) is None, (value, problems(r, 412))
        assert r.json()["type"] == "stale"
    assert snapshot() == before


# ------------------------------------------------------------------------------------------ import


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _workbook(*rows) -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sessions"
    ws.append(HEADERS)
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _row(**kw):
    values = {
        "Block Group Code": "BG-X",
        "Unit Code": "UX1",
        "Date": "2026-03-02",
        "Start Time": "09:00:00",
        "End Time": "12:00:00",
        **kw,
    }
    return [values.get(h) for h in HEADERS]


IMPORTS = [
    ("no file field", {"other": "x"}, [["file"]]),
    ("empty file", {"file": SimpleUploadedFile("s.xlsx", b"", content_type=XLSX)}, [["file"]]),
    ("not a workbook", {"file": SimpleUploadedFile("s.xlsx", b"PK\x03\x04garbage", content_type=XLSX)}, None),
    ("date 9999-12-31", {"file": ("s.xlsx", _row(Date="9999-12-31"))}, [["rows", 2, "Date"]]),
    ("date cell 1900", {"file": ("s.xlsx", _row(Date=date(1900, 1, 1)))}, [["rows", 2, "Date"]]),
    ("week number Infinity", {"file": ("s.xlsx", _row(**{"Week Number": "Infinity"}))}, [["rows", 2, "Week Number"]]),
    ("week number huge", {"file": ("s.xlsx", _row(**{"Week Number": 10**15}))}, [["rows", 2, "Week Number"]]),
]


@pytest.mark.parametrize("name,data,paths", IMPORTS, ids=[i[0] for i in IMPORTS])
def test_bad_imports_are_400_and_change_nothing(api, world, name, data, paths):
    data = {
        k: SimpleUploadedFile(v[0], _workbook(v[1]), content_type=XLSX) if isinstance(v, tuple) else v for k, v in data.items()
    }
    before = snapshot()
    r = api.post("/api/timetables/import", data=data)
    assert problems(r, 400, paths) is None, problems(r, 400, paths)
    assert snapshot() == before


def test_unreadable_multipart_upload_is_400(api, world):
    before = snapshot()
    for content_type in ("multipart/form-data", "multipart/form-data; boundary="):
        r = send(api, "POST", "/api/timetables/import", b"x", content_type=content_type)
        assert problems(r, 400, [[]]) is None, problems(r, 400, [[]])
    assert snapshot() == before


def test_dates_stored_before_the_bounds_answer_400_not_500(api, org):
    """A session dated 9999-12-31 (stored before dates were bounded, or by a support script) made
    allocation overflow Python's dates in the conflict check's week range: the OverflowError safety net
    of project.api answers 400 and the allocation is not written."""
    group, unit = f.make_block_group(org), f.make_unit(org)
    session = f.make_session(org, block_group=group, unit=unit, actual_date=date(9999, 12, 31))
    teacher = f.make_teacher(org)
    before = snapshot()
    r = send(
        api, "PUT", "/api/timetables/bulk-allocate", json.dumps({"sessionIds": [str(session.id)], "teacherId": str(teacher.id)})
    )
    assert problems(r, 400) is None, problems(r, 400)
    assert snapshot() == before
