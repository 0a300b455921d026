"""Teachers API (docs/behaviour/teachers.md §1; docs/behaviour/errors.md §1; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md)."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.staff.models import Teacher
from project.timetabling.models import TimetableSession
from tests import factories as f
from tests.checks import error_list

pytestmark = pytest.mark.django_db

FORM = {
    "employeeId": "EMP-1001",
    "firstName": "Priya",
    "lastName": "Raman",
    "email": "priya.raman@mp.edu.au",
    "phone": "03 9269 1200",
    "jobTitle": "Teacher, Cyber Security",
    "employmentType": "fixed_term",
    "expiryDate": "2027-06-30",
    "availability": "both",
    "maxWeeklyHours": 25,
    "isActive": True,
    "qualifications": "TAE40122; Bachelor of Computer Science",
}
KEYS = {
    "id",
    "employeeId",
    "firstName",
    "lastName",
    "email",
    "phone",
    "jobTitle",
    "employmentType",
    "expiryDate",
    "availability",
    "maxWeeklyHours",
    "isActive",
    "qualifications",
    "createdAt",
    "updatedAt",
    "unitCount",
    "availabilityPattern",  # ADR 0027: the weekly pattern, preferences, limits and campuses
}


# ---------------------------------------------------------------- list


def test_list_shows_active_teachers_sorted_by_first_then_last_name(api, org):
    f.make_teacher(org, first_name="zoe", last_name="Adams")
    f.make_teacher(org, first_name="Ann", last_name="Young")
    f.make_teacher(org, first_name="Ann", last_name="Brown")
    f.make_teacher(org, first_name="Bob", last_name="Inactive", is_active=False)
    resp = api.get("/api/teachers")
    assert resp.status_code == 200
    names = [(t["firstName"], t["lastName"]) for t in resp.json()]
    assert names == [("Ann", "Brown"), ("Ann", "Young"), ("zoe", "Adams")]
    assert set(resp.json()[0]) == KEYS


def test_list_with_show_inactive_includes_inactive(api, org):
    f.make_teacher(org, first_name="Ann", last_name="Active")
    f.make_teacher(org, first_name="Bob", last_name="Inactive", is_active=False)
    resp = api.get("/api/teachers", {"showInactive": "true"})
    assert [(t["firstName"], t["isActive"]) for t in resp.json()] == [("Ann", True), ("Bob", False)]
    resp = api.get("/api/teachers", {"showInactive": "false"})
    assert [t["firstName"] for t in resp.json()] == ["Ann"]


def test_list_counts_units(api, org):
    t = f.make_teacher(org)
    f.qualify(t, f.make_unit(org))
    f.qualify(t, f.make_unit(org))
    f.make_teacher(org)
    counts = sorted(row["unitCount"] for row in api.get("/api/teachers").json())
    assert counts == [0, 2]


def test_list_never_shows_another_organizations_teachers(api, org, other_org):
    mine = f.make_teacher(org)
    f.make_teacher(other_org)
    f.make_teacher(other_org, is_active=False)
    ids = [t["id"] for t in api.get("/api/teachers", {"showInactive": "true"}).json()]
    assert ids == [str(mine.pk)]


def test_list_needs_sign_in(anon_api):
    resp = anon_api.get("/api/teachers")
    assert resp.status_code == 401
    assert resp.json() == {"message": "Unauthorized"}


def test_a_member_can_use_teachers(member_api, org):
    f.make_teacher(org)
    assert member_api.get("/api/teachers").status_code == 200
    assert member_api.post("/api/teachers", FORM).status_code == 201


def _bulk_teachers(org, n, prefix):
    rows = [
        Teacher(
            organization=org,
            employee_id=f"{prefix}{i:05d}",
            first_name=f"First{i:05d}",
            last_name="Last",
            email=f"{prefix.lower()}{i}@x.edu.au",
            is_active=i % 7 != 0,
        )
        for i in range(n)
    ]
    Teacher.objects.bulk_create(rows)
    return rows


def test_list_query_count_is_fixed_for_1000_teachers(api, org, django_assert_max_num_queries, settings):
    settings.RESPONSE_CACHE_SECONDS = 0  # teachers are bulk-created without a change event: count the build
    few = _bulk_teachers(org, 3, "A")
    f.qualify(few[0], f.make_unit(org))
    with CaptureQueriesContext(connection) as small:
        assert len(api.get("/api/teachers", {"showInactive": "true"}).json()) == 3
    many = _bulk_teachers(org, 997, "B")
    unit = f.make_unit(org)
    for t in many[:50]:
        f.qualify(t, unit)
    with django_assert_max_num_queries(len(small.captured_queries)):
        body = api.get("/api/teachers", {"showInactive": "true"}).json()
    assert len(body) == 1000
    assert sum(t["unitCount"] for t in body) == 51


# ---------------------------------------------------------------- detail


def test_get_teacher_with_etag(api, org):
    t = f.make_teacher(org, first_name="Liam", last_name="Nguyen")
    f.qualify(t, f.make_unit(org))
    resp = api.get(f"/api/teachers/{t.pk}")
    assert resp.status_code == 200
    body = resp.json()
    assert set(body) == KEYS
    assert body["firstName"] == "Liam" and body["unitCount"] == 1
    t.refresh_from_db()
    assert resp["ETag"] == f'"{t.updated_at.isoformat()}"'


def test_get_teacher_of_another_organization_is_404(api, other_org):
    theirs = f.make_teacher(other_org)
    resp = api.get(f"/api/teachers/{theirs.pk}")
    assert resp.status_code == 404
    assert resp.json() == {"message": "Teacher not found"}


# ---------------------------------------------------------------- create


def test_create_teacher(api, org):
    resp = api.post("/api/teachers", FORM)
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert set(body) == KEYS
    for key, value in FORM.items():
        assert body[key] == value, key
    assert body["unitCount"] == 0
    t = Teacher.objects.for_org(org).get(pk=body["id"])
    assert t.organization_id == org.pk
    assert t.expiry_date == date(2027, 6, 30)
    assert resp["ETag"] == f'"{t.updated_at.isoformat()}"'
    assert body["updatedAt"] == t.updated_at.isoformat()  # full precision: usable as If-Match


def test_create_teacher_defaults(api):
    resp = api.post("/api/teachers", {"employeeId": "E1", "firstName": "A", "lastName": "B", "email": "a@b.edu.au"})
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["employmentType"] == "ongoing"
    assert body["availability"] == "day"
    assert body["maxWeeklyHours"] == 21
    assert body["isActive"] is True
    assert body["expiryDate"] is None
    assert body["phone"] == "" and body["jobTitle"] == "" and body["qualifications"] == ""


def test_create_teacher_empty_expiry_date_is_null(api):
    resp = api.post("/api/teachers", {**FORM, "expiryDate": ""})
    assert resp.status_code == 201
    assert resp.json()["expiryDate"] is None
    resp = api.post("/api/teachers", {**FORM, "employeeId": "E2", "email": "x2@mp.edu.au", "expiryDate": None})
    assert resp.json()["expiryDate"] is None


@pytest.mark.parametrize(
    "change, path, message",
    [
        ({"employeeId": ""}, "employeeId", "Employee ID is required"),
        ({"employeeId": None}, "employeeId", "Employee ID is required"),
        ({"employeeId": "   "}, "employeeId", "Employee ID is required"),
        ({"maxWeeklyHours": 0}, "maxWeeklyHours", "Max weekly hours must be at least 1"),
        ({"maxWeeklyHours": 41}, "maxWeeklyHours", "Max weekly hours cannot exceed 40"),
        ({"employmentType": "casual"}, "employmentType", "Employment type must be one of: ongoing, fixed_term, sessional"),
        ({"availability": "weekend"}, "availability", "Availability must be one of: day, evening, both"),
        ({"email": "not-an-email"}, "email", "Invalid email address"),
        ({"email": ""}, "email", "Email is required"),
        ({"phone": "0" * 21}, "phone", "Phone must be at most 20 characters"),
        ({"jobTitle": "x" * 101}, "jobTitle", "Job title must be at most 100 characters"),
        ({"employeeId": "x" * 51}, "employeeId", "Employee ID must be at most 50 characters"),
        ({"firstName": ""}, "firstName", "First name is required"),
        ({"lastName": ""}, "lastName", "Last name is required"),
    ],
)
def test_create_teacher_validation(api, org, change, path, message):
    resp = api.post("/api/teachers", {**FORM, **change})
    assert resp.status_code == 400
    body = resp.json()
    assert body["message"] == "Validation failed"
    assert body["type"] == "validation_error"
    assert ([path], message) in error_list(resp)
    assert not Teacher.objects.for_org(org).exists()


def test_create_teacher_missing_employee_id(api):
    form = {k: v for k, v in FORM.items() if k != "employeeId"}
    resp = api.post("/api/teachers", form)
    assert resp.status_code == 400
    assert error_list(resp) == [(["employeeId"], "Employee ID is required")]


def test_create_teacher_limits_accepted(api):
    assert api.post("/api/teachers", {**FORM, "maxWeeklyHours": 1}).status_code == 201
    resp = api.post(
        "/api/teachers", {**FORM, "employeeId": "E-40", "email": "e40@mp.edu.au", "maxWeeklyHours": 40, "phone": "0" * 20}
    )
    assert resp.status_code == 201


@pytest.mark.parametrize("body", [None, [], "text", {"maxWeeklyHours": "many"}, {"expiryDate": "30/06/2027"}])
def test_create_teacher_malformed_bodies_are_400(api, body):
    resp = api.post("/api/teachers", body if body is not None else None)
    assert resp.status_code == 400


@pytest.mark.parametrize(
    ("existing", "path"),
    [({"employee_id": "EMP-1001"}, "employeeId"), ({"email": "Priya.Raman@mp.edu.au"}, "email")],  # email: any case
)
def test_create_teacher_duplicate_employee_id_or_email_is_409(api, org, existing, path):
    f.make_teacher(org, **existing)
    resp = api.post("/api/teachers", FORM)
    assert resp.status_code == 409
    body = resp.json()
    assert body["type"] == "duplicate_code"
    assert body["errors"][0]["path"] == [path]
    assert Teacher.objects.for_org(org).count() == 1


def test_same_employee_id_and_email_in_another_organization_is_fine(api, other_org):
    f.make_teacher(other_org, employee_id=FORM["employeeId"], email=FORM["email"])
    assert api.post("/api/teachers", FORM).status_code == 201


def test_create_needs_csrf(api):
    resp = api.client.post("/api/teachers", FORM, content_type="application/json")
    assert resp.status_code == 403
    assert not Teacher.objects.unscoped().exists()


# ---------------------------------------------------------------- update


def test_update_teacher_full_form(api, org):
    t = f.make_teacher(org)
    etag = api.get(f"/api/teachers/{t.pk}")["ETag"]
    resp = api.put(f"/api/teachers/{t.pk}", FORM, headers={"If-Match": etag})
    assert resp.status_code == 200, resp.content
    body = resp.json()
    for key, value in FORM.items():
        assert body[key] == value, key
    t.refresh_from_db()
    assert t.first_name == "Priya" and t.max_weekly_hours == 25
    assert resp["ETag"] == f'"{t.updated_at.isoformat()}"'


def test_deactivate_and_reactivate_with_is_active_only(api, org):
    t = f.make_teacher(org, first_name="Keep", phone="0400 000 000", max_weekly_hours=30)
    resp = api.put(f"/api/teachers/{t.pk}", {"isActive": False})
    assert resp.status_code == 200
    assert resp.json()["isActive"] is False
    t.refresh_from_db()
    assert (t.is_active, t.first_name, t.phone, t.max_weekly_hours) == (False, "Keep", "0400 000 000", 30)
    assert api.get("/api/teachers").json() == []
    resp = api.put(f"/api/teachers/{t.pk}", {"isActive": True})
    assert resp.json()["isActive"] is True
    assert len(api.get("/api/teachers").json()) == 1


def test_update_validation_messages(api, org):
    t = f.make_teacher(org)
    for change, path, message in [
        ({"employeeId": ""}, "employeeId", "Employee ID is required"),
        ({"maxWeeklyHours": 0}, "maxWeeklyHours", "Max weekly hours must be at least 1"),
        ({"maxWeeklyHours": 41}, "maxWeeklyHours", "Max weekly hours cannot exceed 40"),
        ({"maxWeeklyHours": None}, "maxWeeklyHours", "Max weekly hours is required"),
        ({"isActive": None}, "isActive", "Active status is required"),
        ({"email": "nope"}, "email", "Invalid email address"),
    ]:
        resp = api.put(f"/api/teachers/{t.pk}", change)
        assert resp.status_code == 400, change
        assert ([path], message) in error_list(resp)
    before = t.updated_at
    t.refresh_from_db()
    assert t.updated_at == before


def test_update_clears_expiry_date_with_empty_value(api, org):
    t = f.make_teacher(org, employment_type="fixed_term", expiry_date=date(2027, 1, 1))
    resp = api.put(f"/api/teachers/{t.pk}", {"employmentType": "ongoing", "expiryDate": ""})
    assert resp.status_code == 200
    assert resp.json()["expiryDate"] is None
    t.refresh_from_db()
    assert t.expiry_date is None


def test_update_duplicate_employee_id_and_email_are_409(api, org):
    f.make_teacher(org, employee_id="TAKEN", email="taken@mp.edu.au")
    t = f.make_teacher(org)
    resp = api.put(f"/api/teachers/{t.pk}", {"employeeId": "TAKEN"})
    assert resp.status_code == 409
    assert resp.json()["errors"][0]["path"] == ["employeeId"]
    resp = api.put(f"/api/teachers/{t.pk}", {"email": "TAKEN@mp.edu.au"})
    assert resp.status_code == 409
    assert resp.json()["errors"][0]["path"] == ["email"]
    # Keeping one's own values is not a duplicate.
    assert api.put(f"/api/teachers/{t.pk}", {"employeeId": t.employee_id, "email": t.email}).status_code == 200


def test_update_with_stale_if_match_is_412_and_changes_nothing(api, org):
    t = f.make_teacher(org, first_name="Original")
    etag = api.get(f"/api/teachers/{t.pk}")["ETag"]
    assert api.put(f"/api/teachers/{t.pk}", {"firstName": "First edit"}, headers={"If-Match": etag}).status_code == 200
    resp = api.put(f"/api/teachers/{t.pk}", {"firstName": "Second edit"}, headers={"If-Match": etag})
    assert resp.status_code == 412
    assert resp.json()["type"] == "stale"
    t.refresh_from_db()
    assert t.first_name == "First edit"


def test_update_accepts_updated_at_as_if_match(api, org):
    t = f.make_teacher(org)
    updated_at = api.get(f"/api/teachers/{t.pk}").json()["updatedAt"]
    resp = api.put(f"/api/teachers/{t.pk}", {"lastName": "Fresh"}, headers={"If-Match": updated_at})
    assert resp.status_code == 200


def test_update_teacher_of_another_organization_is_404(api, other_org):
    theirs = f.make_teacher(other_org, first_name="Theirs")
    resp = api.put(f"/api/teachers/{theirs.pk}", {"firstName": "Hijacked"})
    assert resp.status_code == 404
    assert resp.json() == {"message": "Teacher not found"}
    theirs.refresh_from_db()
    assert theirs.first_name == "Theirs"


# ---------------------------------------------------------------- delete


def test_delete_teacher_keeps_sessions_unassigned(api, org):
    t = f.make_teacher(org)
    unit = f.make_unit(org)
    f.qualify(t, unit)
    session = f.make_session(org, block_group=f.make_block_group(org), unit=unit, teacher=t)
    resp = api.delete(f"/api/teachers/{t.pk}")
    assert resp.status_code == 204
    assert not Teacher.objects.for_org(org).exists()
    session.refresh_from_db()
    assert session.teacher_id is None
    assert TimetableSession.objects.for_org(org).count() == 1
    assert api.get(f"/api/teachers/{t.pk}").status_code == 404


def test_delete_teacher_of_another_organization_is_404(api, other_org):
    theirs = f.make_teacher(other_org)
    resp = api.delete(f"/api/teachers/{theirs.pk}")
    assert resp.status_code == 404
    assert Teacher.objects.for_org(other_org).count() == 1


def test_unknown_teacher_id_is_404(api):
    import uuid

    missing = uuid.uuid4()
    assert api.get(f"/api/teachers/{missing}").status_code == 404
    assert api.put(f"/api/teachers/{missing}", {"isActive": False}).status_code == 404
    assert api.delete(f"/api/teachers/{missing}").status_code == 404
