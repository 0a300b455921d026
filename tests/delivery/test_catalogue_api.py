"""Courses, units of competency and campuses (docs/behaviour/units-and-courses.md §2; docs/behaviour/errors.md §9; docs/behaviour/errors.md §1; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md)."""

from __future__ import annotations

import pytest

from project.catalogue.models import Campus, Course, Unit
from tests import factories as f
from tests.checks import assert_deleted, assert_detail, assert_field_error

pytestmark = pytest.mark.django_db

COURSE = {"code": "ICT30120", "name": "Certificate III in IT", "level": "certificate_iii", "description": "d", "isActive": True}
UNIT = {
    "code": "ICTICT313",
    "name": "Identify IP",
    "description": "",
    "nominalHours": 20,
    "isCore": False,
    "prerequisites": "none",
}


# --- courses ---------------------------------------------------------------------------------------


def test_course_create_get_list_update_delete(api, org, committed):
    with committed() as sent:
        r = api.post("/api/courses", {**COURSE, "code": "  ICT30120 "})
    assert r.status_code == 201
    course = r.json()
    assert course["code"] == "ICT30120"  # trimmed
    assert {k: course[k] for k in ("name", "level", "description", "isActive")} == {
        "name": "Certificate III in IT",
        "level": "certificate_iii",
        "description": "d",
        "isActive": True,
    }
    assert set(course) >= {"id", "createdAt", "updatedAt"}
    assert sent == [("course", "created", [course["id"]])]

    assert_detail(api, f"/api/courses/{course['id']}", course)

    assert [c["id"] for c in api.get("/api/courses").json()] == [course["id"]]

    with committed() as sent:
        r = api.put(
            f"/api/courses/{course['id']}",
            {**COURSE, "name": "Renamed", "level": "diploma", "isActive": False},
            headers={"If-Match": course["updatedAt"]},  # the SPA sends the record's updatedAt
        )
    assert r.status_code == 200, r.content
    assert r.json()["name"] == "Renamed" and r.json()["level"] == "diploma" and r.json()["isActive"] is False
    assert r.json()["updatedAt"] != course["updatedAt"]
    assert r.headers["ETag"] == f'"{r.json()["updatedAt"]}"'
    assert sent == [("course", "updated", [course["id"]])]

    assert_deleted(api, committed, f"/api/courses/{course['id']}", Course, "course")


def test_course_defaults(api):
    r = api.post("/api/courses", {"code": "BSB40120", "name": "Cert IV Business"})
    assert r.status_code == 201
    assert r.json()["level"] == "certificate_iii"
    assert r.json()["isActive"] is True
    assert r.json()["description"] == ""


@pytest.mark.parametrize(
    "body, path, message",
    [
        ({"name": "x"}, "code", "Code is required"),
        ({"code": "   ", "name": "x"}, "code", "Code is required"),
        ({"code": "X" * 21, "name": "x"}, "code", "Code must be at most 20 characters"),
        ({"code": "OK"}, "name", "Name is required"),
        ({"code": "OK", "name": "n" * 256}, "name", "Name must be at most 255 characters"),
        ({"code": "OK", "name": "x", "level": "masters"}, "level", None),
        ({"code": "OK\x00", "name": "x"}, "code", "Text must not contain NUL characters"),
        ({"code": "OK", "name": "x", "description": "d" * 10_001}, "description", "Description must be at most 10000 characters"),
        ({"code": "OK", "name": "x", "isActive": "maybe"}, "isActive", None),
    ],
)
def test_course_validation(api, body, path, message):
    r = api.post("/api/courses", body)
    assert r.status_code == 400 and r.json()["message"] == "Validation failed"
    assert_field_error(r, path, message)
    assert not Course.objects.unscoped().exists()


def test_malformed_bodies_are_400_not_500(api):
    for raw in ("{bad json", "[1, 2]", '"text"', "null"):
        r = api.client.post("/api/courses", raw, content_type="application/json", headers=api._headers(None))
        assert r.status_code == 400, raw


def test_course_duplicate_code_is_409_within_org_only(api, other_api, org):
    f.make_course(org, code="ICT30120")
    r = api.post("/api/courses", {**COURSE, "code": "ict30120"})
    assert r.status_code == 409
    body = r.json()
    assert body["type"] == "duplicate_code"
    assert body["errors"] == [{"path": ["code"], "message": body["message"]}]
    # Another organization may use the same code.
    assert other_api.post("/api/courses", COURSE).status_code == 201


def test_course_update_to_taken_code_is_409(api, org):
    f.make_course(org, code="TAKEN")
    mine = f.make_course(org, code="MINE")
    r = api.put(f"/api/courses/{mine.pk}", {**COURSE, "code": "TAKEN"})
    assert r.status_code == 409 and r.json()["type"] == "duplicate_code"
    # Keeping its own code is fine.
    assert api.put(f"/api/courses/{mine.pk}", {**COURSE, "code": "MINE"}).status_code == 200


def test_course_stale_if_match_is_412_and_changes_nothing(api, org, captured_events, django_capture_on_commit_callbacks):
    course = f.make_course(org, name="Original")
    stale = api.get(f"/api/courses/{course.pk}").headers["ETag"]
    api.put(f"/api/courses/{course.pk}", {**COURSE, "code": course.code, "name": "First"}, headers={"If-Match": stale})
    captured_events.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = api.put(f"/api/courses/{course.pk}", {**COURSE, "code": course.code, "name": "Second"}, headers={"If-Match": stale})
    assert r.status_code == 412
    assert r.json()["type"] == "stale"
    course.refresh_from_db()
    assert course.name == "First"
    assert captured_events == []


def test_course_delete_in_use_is_409(api, org):
    course = f.make_course(org)
    f.make_block_group(org, course=course)
    r = api.delete(f"/api/courses/{course.pk}")
    assert r.status_code == 409
    assert "block group" in r.json()["message"]
    assert Course.objects.for_org(org).filter(pk=course.pk).exists()


def test_course_unknown_id_is_404(api):
    r = api.get("/api/courses/00000000-0000-0000-0000-000000000000")
    assert r.status_code == 404
    assert r.json() == {"message": "Course not found"}


# --- units -----------------------------------------------------------------------------------------


def test_unit_create_get_list_update_delete(api, org, committed):
    with committed() as sent:
        r = api.post("/api/units", UNIT)
    assert r.status_code == 201, r.content
    unit = r.json()
    assert {k: unit[k] for k in UNIT} == UNIT
    assert sent == [("unit", "created", [unit["id"]])]

    assert_detail(api, f"/api/units/{unit['id']}", unit)
    assert [u["code"] for u in api.get("/api/units").json()] == ["ICTICT313"]

    with committed() as sent:
        r = api.put(f"/api/units/{unit['id']}", {**UNIT, "nominalHours": 30}, headers={"If-Match": f'"{unit["updatedAt"]}"'})
    assert r.status_code == 200 and r.json()["nominalHours"] == 30
    assert sent == [("unit", "updated", [unit["id"]])]

    assert_deleted(api, committed, f"/api/units/{unit['id']}", Unit, "unit")


def test_unit_defaults(api):
    r = api.post("/api/units", {"code": "U1", "name": "Unit", "nominalHours": 5})
    assert r.status_code == 201
    assert r.json()["isCore"] is True and r.json()["prerequisites"] == "" and r.json()["description"] == ""


@pytest.mark.parametrize(
    "body, path, message",
    [
        ({"code": "U1", "name": "x"}, "nominalHours", "Nominal hours must be at least 1"),
        ({"code": "U1", "name": "x", "nominalHours": 0}, "nominalHours", "Nominal hours must be at least 1"),
        ({"code": "U1", "name": "x", "nominalHours": 10_001}, "nominalHours", "Nominal hours cannot exceed 10000"),
        ({"code": "U1", "name": "x", "nominalHours": 10**30}, "nominalHours", "Nominal hours cannot exceed 10000"),
        ({"code": "U1", "name": "x", "nominalHours": "abc"}, "nominalHours", None),
        ({"code": "U" * 21, "name": "x", "nominalHours": 5}, "code", "Code must be at most 20 characters"),
        ({"name": "x", "nominalHours": 5}, "code", "Code is required"),
        ({"code": "U1", "nominalHours": 5}, "name", "Name is required"),
    ],
)
def test_unit_validation(api, body, path, message):
    r = api.post("/api/units", body)
    assert r.status_code == 400 and r.json()["message"] == "Validation failed"
    assert_field_error(r, path, message)


def test_unit_nominal_hours_is_coerced_from_text(api):
    r = api.post("/api/units", {"code": "U1", "name": "x", "nominalHours": "12"})
    assert r.status_code == 201 and r.json()["nominalHours"] == 12


def test_unit_duplicate_code_is_409(api, other_api, org):
    f.make_unit(org, code="BSBWHS311")
    r = api.post("/api/units", {**UNIT, "code": "BSBWHS311"})
    assert r.status_code == 409 and r.json()["type"] == "duplicate_code"
    assert r.json()["errors"][0]["path"] == ["code"]
    assert other_api.post("/api/units", {**UNIT, "code": "BSBWHS311"}).status_code == 201


def test_unit_stale_if_match_is_412(api, org):
    unit = f.make_unit(org, nominal_hours=10)
    r = api.put(f"/api/units/{unit.pk}", {**UNIT, "code": unit.code}, headers={"If-Match": '"2001-01-01T00:00:00+00:00"'})
    assert r.status_code == 412
    unit.refresh_from_db()
    assert unit.nominal_hours == 10


def test_unit_delete_in_use_is_409(api, org):
    in_plan, in_session = f.make_unit(org), f.make_unit(org)
    f.add_plan_unit(f.make_study_plan(org), in_plan)
    f.make_session(org, block_group=f.make_block_group(org), unit=in_session)
    r = api.delete(f"/api/units/{in_plan.pk}")
    assert r.status_code == 409 and "study plan" in r.json()["message"]
    r = api.delete(f"/api/units/{in_session.pk}")
    assert r.status_code == 409 and "timetable session" in r.json()["message"]
    assert Unit.objects.for_org(org).count() == 2


# --- campuses --------------------------------------------------------------------------------------


def test_campuses_lists_active_campuses_of_own_org(api, org, other_org):
    f.make_campus(org, name="Zeta Campus", abbreviation="ZET")
    f.make_campus(org, name="Closed Campus", abbreviation="OLD", is_active=False)
    f.make_campus(other_org, name="Theirs", abbreviation="TH")
    r = api.get("/api/campuses")
    assert r.status_code == 200
    rows = r.json()
    assert [c["name"] for c in rows] == ["Main Campus", "Zeta Campus"]
    assert set(rows[0]) == {"id", "name", "abbreviation"}
    assert rows[0]["abbreviation"] == "MAIN"


# --- isolation, auth and query counts --------------------------------------------------------------


def test_lists_never_show_another_organizations_rows(api, org, other_org):
    f.make_course(other_org, code="THEIRS")
    f.make_unit(other_org, code="THEIRS")
    mine = f.make_course(org, code="MINE")
    assert [c["id"] for c in api.get("/api/courses").json()] == [str(mine.pk)]
    assert api.get("/api/units").json() == []
    assert all(c["name"] != "Theirs" for c in api.get("/api/campuses").json())


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("get", "/api/courses/{course}", None),
        ("put", "/api/courses/{course}", COURSE),
        ("delete", "/api/courses/{course}", None),
        ("get", "/api/units/{unit}", None),
        ("put", "/api/units/{unit}", UNIT),
        ("delete", "/api/units/{unit}", None),
    ],
)
def test_another_organizations_ids_are_404(api, other_org, method, path, body):
    course = f.make_course(other_org, name="Theirs")
    unit = f.make_unit(other_org, name="Theirs")
    url = path.format(course=course.pk, unit=unit.pk)
    r = getattr(api, method)(url, body) if body is not None else getattr(api, method)(url)
    assert r.status_code == 404
    assert r.json()["message"] in {"Course not found", "Unit not found"}
    course.refresh_from_db()
    unit.refresh_from_db()
    assert course.name == "Theirs" and unit.name == "Theirs"


def test_anonymous_is_401(anon_api):
    assert anon_api.get("/api/courses").status_code == 401
    assert anon_api.get("/api/campuses").status_code == 401


def test_member_can_use_catalogue(member_api):
    assert member_api.post("/api/courses", COURSE).status_code == 201


def _count(django_assert_max_num_queries, api, path, n):
    with django_assert_max_num_queries(n):
        r = api.get(path)
    assert r.status_code == 200
    return r.json()


def test_lists_of_1000_rows_use_a_fixed_number_of_queries(api, org, django_assert_max_num_queries):
    Course.objects.unscoped().bulk_create([Course(organization=org, code=f"C{i:05d}", name=f"Course {i}") for i in range(1000)])
    Unit.objects.unscoped().bulk_create(
        [Unit(organization=org, code=f"U{i:05d}", name=f"Unit {i}", nominal_hours=10) for i in range(1000)]
    )
    Campus.objects.unscoped().bulk_create(
        [Campus(organization=org, abbreviation=f"A{i:04d}", name=f"Campus {i}") for i in range(1000)]
    )
    # 3 queries of auth (session, user, organization) + 1 for the list.
    assert len(_count(django_assert_max_num_queries, api, "/api/courses", 4)) == 1000
    assert len(_count(django_assert_max_num_queries, api, "/api/units", 4)) == 1000
    assert len(_count(django_assert_max_num_queries, api, "/api/campuses", 4)) == 1001


def test_units_search_by_code_or_name_and_filter_by_qualification(api, other_api, org, other_org):
    """The Units page searches by code and name and filters by qualification (course): the
    units of the study plans assigned to that course's block groups."""
    web = f.make_unit(org, code="ICTWEB301", name="Create web pages")
    net = f.make_unit(org, code="ICTNWK305", name="Install network")
    other = f.make_unit(org, code="BSBOPS304", name="Deliver and monitor a service")
    course = f.make_course(org, code="ICT30120")
    plan = f.make_study_plan(org, name="Cert III plan")
    f.add_plan_unit(plan, web)
    f.add_plan_unit(plan, net)
    f.assign_plan(f.make_block_group(org, course=course), plan)
    f.assign_plan(f.make_block_group(org, course=course), plan)  # two groups: each unit once
    f.add_plan_unit(f.make_study_plan(org, name="Unassigned plan"), other)

    codes = lambda r: [u["code"] for u in r.json()]  # noqa: E731
    assert codes(api.get("/api/units", {"search": "ict"})) == ["ICTNWK305", "ICTWEB301"]
    assert codes(api.get("/api/units", {"search": "NETWORK"})) == ["ICTNWK305"]
    assert codes(api.get("/api/units", {"courseId": str(course.pk)})) == ["ICTNWK305", "ICTWEB301"]
    assert codes(api.get("/api/units", {"courseId": str(course.pk), "search": "web"})) == ["ICTWEB301"]
    assert codes(api.get("/api/units")) == ["BSBOPS304", "ICTNWK305", "ICTWEB301"]
    # Another organization's course is not found (docs/behaviour/tenancy.md §2, ADR 0001); a malformed id is the documented 400.
    r = other_api.get("/api/units", {"courseId": str(course.pk)})
    assert (r.status_code, r.json()) == (404, {"message": "Course not found"})
    r = api.get("/api/units", {"courseId": "not-a-uuid"})
    assert r.status_code == 400 and "message" in r.json()
