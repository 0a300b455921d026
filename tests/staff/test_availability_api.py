"""GET/PUT /api/teachers/{id}/availability and the pattern in the teacher list (ADR 0027)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.history.models import Activity
from project.staff.models import Teacher, TeacherAvailability
from tests import factories as f
from tests.checks import validation_errors

pytestmark = pytest.mark.django_db

SESSIONAL = {
    "windows": [
        {"weekday": 0, "start": "08:00", "end": "17:00"},
        {"weekday": 2, "start": "08:00", "end": "17:00"},
    ],
    "preferences": [{"weekday": 2, "start": "12:00", "end": "17:00", "level": "discouraged"}],
    "variants": [
        {
            "name": "Term 3",
            "startDate": "2027-07-12",
            "endDate": "2027-09-17",
            "windows": [{"weekday": 1, "start": "09:00", "end": "15:00"}],
        }
    ],
    "maxHoursPerDay": 7,
    "maxHoursPerWeek": 12.5,
    "maxDaysPerWeek": 2,
}


def path(teacher) -> str:
    return f"/api/teachers/{teacher.pk}/availability"


def test_a_teacher_never_painted_answers_the_words_pattern(api, org):
    t = f.make_teacher(org, availability="evening")
    r = api.get(path(t))
    assert r.status_code == 200
    body = r.json()
    assert body["custom"] is False and body["availability"] == "evening"
    assert body["windows"] == [{"weekday": d, "start": "17:00", "end": "22:00"} for d in range(5)]
    assert r.headers["ETag"] == f'"{body["updatedAt"]}"'


def test_put_replaces_the_pattern_and_the_word_follows(api, org, committed):
    t = f.make_teacher(org, availability="both")
    campus = f.make_campus(org, abbreviation="FS", name="Footscray")
    etag = api.get(path(t)).headers["ETag"]
    with committed() as sent:
        r = api.put(
            path(t), {**SESSIONAL, "campusIds": [str(campus.pk)], "preferredCampusId": str(campus.pk)}, headers={"If-Match": etag}
        )
    assert r.status_code == 200, r.content
    body = r.json()
    assert sent == [("teacher", "updated", [str(t.pk)])]
    assert body["custom"] is True and body["availability"] == "day"
    assert body["windows"] == SESSIONAL["windows"]
    assert body["preferences"] == SESSIONAL["preferences"]
    assert body["variants"] == SESSIONAL["variants"]
    assert (body["maxHoursPerDay"], body["maxHoursPerWeek"], body["maxDaysPerWeek"]) == (7, 12.5, 2)
    assert body["campusIds"] == [str(campus.pk)] and body["preferredCampusId"] == str(campus.pk)
    assert body["preferredCampusLevel"] == "preferred"
    t.refresh_from_db()
    assert t.availability == "day"
    assert api.get(path(t)).json() == body
    assert r.headers["ETag"] == f'"{body["updatedAt"]}"'


def test_a_stale_if_match_changes_nothing(api, org):
    t = f.make_teacher(org)
    etag = api.get(path(t)).headers["ETag"]
    assert api.put(path(t), SESSIONAL, headers={"If-Match": etag}).status_code == 200
    again = api.put(path(t), {"windows": []}, headers={"If-Match": etag})
    assert again.status_code == 412
    assert api.get(path(t)).json()["windows"] == SESSIONAL["windows"]


@pytest.mark.parametrize(
    ("body", "where", "message"),
    [
        (
            {"windows": [{"weekday": 0, "start": "12:00", "end": "09:00"}]},
            ("windows", 0, "end"),
            "End time must be after start time",
        ),
        (
            {"windows": [{"weekday": 7, "start": "08:00", "end": "09:00"}]},
            ("windows", 0, "weekday"),
            "Weekday must be 0 (Monday) to 6 (Sunday)",
        ),
        ({"windows": [{"weekday": 1, "end": "09:00"}]}, ("windows", 0, "start"), "Start time is required"),
        (
            {"preferences": [{"weekday": 1, "start": "08:00", "end": "09:00", "level": "maybe"}]},
            ("preferences", 0, "level"),
            None,
        ),
        ({"maxHoursPerDay": 0}, ("maxHoursPerDay",), "Max hours per day must be at least 0.5"),
        ({"maxHoursPerDay": 2.25}, ("maxHoursPerDay",), "Hours must be in steps of 0.5"),
        ({"maxDaysPerWeek": 8}, ("maxDaysPerWeek",), "Max days per week cannot exceed 7"),
        (
            {"variants": [{"startDate": "2027-09-01", "endDate": "2027-08-01", "windows": []}]},
            ("variants", 0, "endDate"),
            "End date must be on or after start date",
        ),
    ],
)
def test_bad_input_is_a_400_at_its_path_and_changes_nothing(api, org, body, where, message):
    t = f.make_teacher(org)
    r = api.put(path(t), body)
    assert r.status_code == 400, r.content
    errors = validation_errors(r)
    assert where in errors, errors
    if message:
        assert errors[where] == message
    assert not TeacherAvailability.objects.for_org(org).filter(teacher=t, custom=True).exists()


def test_another_organizations_teacher_or_campus_is_a_404(api, org, other_org):
    mine, theirs = f.make_teacher(org), f.make_teacher(other_org)
    foreign_campus = f.make_campus(other_org)
    assert api.get(path(theirs)).json() == {"message": "Teacher not found"}
    assert api.put(path(theirs), SESSIONAL).status_code == 404
    r = api.put(path(mine), {**SESSIONAL, "campusIds": [str(foreign_campus.pk)]})
    assert r.status_code == 404 and r.json()["message"] == "Campus not found"
    r = api.put(path(mine), {**SESSIONAL, "preferredCampusId": str(foreign_campus.pk)})
    assert r.status_code == 404 and r.json()["message"] == "Campus not found"
    assert api.get(path(mine)).json()["custom"] is False


def test_the_write_is_in_the_history_and_undo_restores_the_pattern_and_word(api, org):
    t = f.make_teacher(org, availability="both")
    before = api.get(path(t)).json()
    assert api.put(path(t), SESSIONAL).status_code == 200
    act = Activity.objects.for_org(org).latest("seq")
    r = api.post(f"/api/activity/{act.id}/undo")
    assert r.status_code == 201, r.content
    after = api.get(path(t)).json()
    assert after["custom"] is False and after["windows"] == before["windows"] and after["availability"] == "both"


def test_the_form_word_rewrites_an_unpainted_pattern_only(api, org):
    t = f.make_teacher(org, availability="day")
    assert api.put(f"/api/teachers/{t.pk}", {"availability": "evening"}).status_code == 200
    assert api.get(path(t)).json()["windows"] == [{"weekday": d, "start": "17:00", "end": "22:00"} for d in range(5)]
    assert api.put(path(t), SESSIONAL).status_code == 200
    assert api.put(f"/api/teachers/{t.pk}", {"availability": "both"}).status_code == 200
    body = api.get(path(t)).json()
    assert body["windows"] == SESSIONAL["windows"] and body["availability"] == "both"


def test_the_teacher_list_carries_each_pattern_in_a_fixed_number_of_queries(api, org, settings):
    settings.RESPONSE_CACHE_SECONDS = 0
    painted = f.make_teacher(org, employee_id="P1", email="p1@x.edu.au")
    assert api.put(path(painted), SESSIONAL).status_code == 200
    with CaptureQueriesContext(connection) as small:
        rows = api.get("/api/teachers").json()
    assert rows[0]["availabilityPattern"]["windows"] == SESSIONAL["windows"]
    teachers = Teacher.objects.bulk_create(
        Teacher(
            organization=org,
            employee_id=f"E{i}",
            first_name="T",
            last_name=f"{i:04d}",
            email=f"e{i}@x.edu.au",
            availability="evening",
        )
        for i in range(1000)
    )
    TeacherAvailability.objects.bulk_create(
        TeacherAvailability(organization=org, teacher=t, custom=True, windows=[{"weekday": 3, "start": "09:00", "end": "12:00"}])
        for t in teachers[:500]
    )
    with CaptureQueriesContext(connection) as large:
        rows = api.get("/api/teachers").json()
    assert len(rows) == 1001
    assert len(large) == len(small)
    patterns = {r["employeeId"]: r["availabilityPattern"] for r in rows}
    assert patterns["E0"]["custom"] and patterns["E0"]["windows"] == [{"weekday": 3, "start": "09:00", "end": "12:00"}]
    assert not patterns["E999"]["custom"] and patterns["E999"]["windows"][0] == {"weekday": 0, "start": "17:00", "end": "22:00"}


def test_the_board_reads_the_unavailable_times_of_painted_teachers(api, org, other_org):
    painted, unpainted = f.make_teacher(org), f.make_teacher(org)
    assert api.put(path(painted), SESSIONAL).status_code == 200
    r = api.get("/api/teachers/unavailable", {"start": "2027-03-01", "end": "2027-03-03"})  # Monday to Wednesday
    assert r.status_code == 200, r.content
    mine = [(x["date"], x["start"], x["end"]) for x in r.json() if x["teacherId"] == str(painted.pk)]
    assert mine == [
        ("2027-03-01", "07:00", "08:00"),
        ("2027-03-01", "17:00", "22:00"),
        ("2027-03-02", "07:00", "22:00"),
        ("2027-03-03", "07:00", "08:00"),
        ("2027-03-03", "17:00", "22:00"),
    ]
    assert not [x for x in r.json() if x["teacherId"] == str(unpainted.pk)]
    one = api.get("/api/teachers/unavailable", {"start": "2027-03-02", "end": "2027-03-02", "teacherId": str(painted.pk)})
    assert [x["start"] for x in one.json()] == ["07:00"]
    bad = api.get("/api/teachers/unavailable", {"start": "2027-03-02", "end": "2027-03-01"})
    assert bad.status_code == 400
    assert api.get("/api/teachers/unavailable", {"start": "2027-01-01", "end": "2028-12-31"}).status_code == 400
