"""Holidays and term breaks API (docs/behaviour/terms-and-holidays.md §1; docs/behaviour/errors.md §1; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md) and the
public holiday import (beyond the spec)."""

from __future__ import annotations

import uuid
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.timetabling.models import Holiday
from tests import factories as f
from tests.checks import error_list, org_events

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Autumn (Term 1-2) school holidays 2026",
    "type": "term_break",
    "startDate": "2026-04-03",
    "endDate": "2026-04-19",
    "description": "Victorian government school term break",
    "isRecurring": False,
    "year": 2026,
    "isActive": True,
}
KEYS = {"id", "name", "type", "startDate", "endDate", "description", "isRecurring", "year", "isActive", "createdAt", "updatedAt"}


# ---------------------------------------------------------------- list


def test_list_holidays_by_start_date(api, org):
    f.make_holiday(org, name="Melbourne Cup Day", start_date=date(2026, 11, 3))
    f.make_holiday(org, name="Labour Day", start_date=date(2026, 3, 9))
    f.make_holiday(
        org, name="Winter break", type="term_break", start_date=date(2026, 6, 27), end_date=date(2026, 7, 12), is_active=False
    )
    resp = api.get("/api/holidays")
    assert resp.status_code == 200
    rows = resp.json()
    assert [r["name"] for r in rows] == ["Labour Day", "Winter break", "Melbourne Cup Day"]
    assert set(rows[0]) == KEYS
    assert rows[1]["startDate"] == "2026-06-27" and rows[1]["endDate"] == "2026-07-12"
    assert rows[1]["isActive"] is False


def test_list_filters_by_year_and_type_and_recurring_shows_in_every_year(api, org):
    f.make_holiday(org, name="Labour Day 2025", start_date=date(2025, 3, 10))
    f.make_holiday(org, name="Labour Day 2026", start_date=date(2026, 3, 9))
    f.make_holiday(org, name="Break 2026", type="term_break", start_date=date(2026, 4, 3), end_date=date(2026, 4, 19))
    f.make_holiday(org, name="Christmas Day", start_date=date(2024, 12, 25), is_recurring=True)
    names = lambda params: sorted(r["name"] for r in api.get("/api/holidays", params).json())  # noqa: E731
    assert names({"year": 2026}) == ["Break 2026", "Christmas Day", "Labour Day 2026"]
    assert names({"year": 2025}) == ["Christmas Day", "Labour Day 2025"]
    assert names({"year": 2031}) == ["Christmas Day"]
    assert names({"type": "term_break"}) == ["Break 2026"]
    assert names({"year": 2026, "type": "public_holiday"}) == ["Christmas Day", "Labour Day 2026"]
    assert names({}) == ["Break 2026", "Christmas Day", "Labour Day 2025", "Labour Day 2026"]


@pytest.mark.parametrize("params", [{"year": "soon"}, {"type": "birthday"}])
def test_list_bad_filters_are_400(api, params):
    assert api.get("/api/holidays", params).status_code == 400


def test_list_never_shows_another_organizations_holidays(api, org, other_org):
    mine = f.make_holiday(org)
    f.make_holiday(other_org, is_recurring=True)
    assert [r["id"] for r in api.get("/api/holidays").json()] == [str(mine.pk)]
    assert [r["id"] for r in api.get("/api/holidays", {"year": 2026}).json()] == [str(mine.pk)]


def test_list_query_count_is_fixed_for_1000_holidays(api, org, other_org, django_assert_max_num_queries):
    f.make_holiday(org)
    with CaptureQueriesContext(connection) as one:
        assert len(api.get("/api/holidays").json()) == 1
    Holiday.objects.bulk_create(
        [
            Holiday(organization=org, name=f"Day {i}", start_date=date(2026, 1, 1), end_date=date(2026, 1, 1), year=2026)
            for i in range(999)
        ]
    )
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert len(api.get("/api/holidays").json()) == 1000


def test_list_needs_sign_in(anon_api):
    assert anon_api.get("/api/holidays").status_code == 401


# ---------------------------------------------------------------- detail


def test_get_holiday_with_etag(api, org):
    h = f.make_holiday(org)
    resp = api.get(f"/api/holidays/{h.pk}")
    assert resp.status_code == 200
    assert resp.json()["name"] == "Labour Day"
    assert resp["ETag"] == f'"{h.updated_at.isoformat()}"'


def test_get_holiday_of_another_organization_is_404(api, other_org):
    theirs = f.make_holiday(other_org)
    resp = api.get(f"/api/holidays/{theirs.pk}")
    assert resp.status_code == 404
    assert resp.json() == {"message": "Holiday not found"}


# ---------------------------------------------------------------- create


def test_create_holiday(api, org):
    resp = api.post("/api/holidays", FORM)
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert set(body) == KEYS
    for key, value in FORM.items():
        assert body[key] == value, key
    h = Holiday.objects.for_org(org).get(pk=body["id"])
    assert (h.start_date, h.end_date, h.organization_id) == (date(2026, 4, 3), date(2026, 4, 19), org.pk)
    assert resp["ETag"] == f'"{h.updated_at.isoformat()}"'


def test_create_holiday_defaults(api):
    resp = api.post("/api/holidays", {"name": "Boxing Day", "startDate": "2027-12-26", "endDate": "2027-12-26"})
    assert resp.status_code == 201
    body = resp.json()
    assert body["type"] == "public_holiday"
    assert body["isRecurring"] is False
    assert body["isActive"] is True
    assert body["year"] == 2027
    assert body["description"] == ""


def test_create_holiday_null_year_defaults_from_start_date(api):
    resp = api.post("/api/holidays", {**FORM, "year": None, "startDate": "2025-12-20", "endDate": "2026-01-26"})
    assert resp.json()["year"] == 2025
    resp = api.post("/api/holidays", {**FORM, "year": 2026, "startDate": "2025-12-20", "endDate": "2026-01-26"})
    assert resp.json()["year"] == 2026  # a summer break may be filed under the year it ends


@pytest.mark.parametrize(
    "change, path, message",
    [
        ({"startDate": None}, "startDate", "Start date is required"),
        ({"startDate": ""}, "startDate", "Start date is required"),
        ({"endDate": None}, "endDate", "End date is required"),
        ({"endDate": ""}, "endDate", "End date is required"),
        ({"endDate": "2026-04-02"}, "endDate", "End date must be on or after start date"),
        ({"type": "school_holiday"}, "type", "Type must be public_holiday or term_break"),
        ({"name": ""}, "name", "Name is required"),
        ({"name": "x" * 256}, "name", "Name must be at most 255 characters"),
        ({"year": 1850}, "year", "Year must be between 2000 and 2100"),
        ({"name": "bad\x00name"}, "name", "Text must not contain NUL characters"),
    ],
)
def test_create_holiday_validation(api, org, change, path, message):
    resp = api.post("/api/holidays", {**FORM, **change})
    assert resp.status_code == 400
    body = resp.json()
    assert body["type"] == "validation_error"
    assert ([path], message) in error_list(resp)
    assert not Holiday.objects.for_org(org).exists()


def test_create_holiday_missing_dates(api):
    resp = api.post("/api/holidays", {"name": "No dates"})
    assert resp.status_code == 400
    assert error_list(resp) == [(["startDate"], "Start date is required"), (["endDate"], "End date is required")]


def test_create_holiday_one_day_is_fine(api):
    assert api.post("/api/holidays", {**FORM, "endDate": FORM["startDate"]}).status_code == 201


@pytest.mark.parametrize(
    "body", [[], "text", {"startDate": "03/04/2026", "endDate": "2026-04-19", "name": "x"}, {"isRecurring": "maybe"}]
)
def test_create_holiday_malformed_bodies_are_400(api, body):
    assert api.post("/api/holidays", body).status_code == 400


# ---------------------------------------------------------------- update


def test_update_holiday(api, org):
    h = f.make_holiday(org)
    etag = api.get(f"/api/holidays/{h.pk}")["ETag"]
    resp = api.put(f"/api/holidays/{h.pk}", FORM, headers={"If-Match": etag})
    assert resp.status_code == 200, resp.content
    for key, value in FORM.items():
        assert resp.json()[key] == value
    h.refresh_from_db()
    assert h.type == "term_break" and h.end_date == date(2026, 4, 19)
    assert resp["ETag"] == f'"{h.updated_at.isoformat()}"'


def test_update_holiday_validation(api, org):
    h = f.make_holiday(org)
    resp = api.put(f"/api/holidays/{h.pk}", {**FORM, "startDate": "2026-05-01", "endDate": "2026-04-30"})
    assert resp.status_code == 400
    assert error_list(resp) == [(["endDate"], "End date must be on or after start date")]
    resp = api.put(f"/api/holidays/{h.pk}", {"name": "Only a name"})
    assert error_list(resp) == [(["startDate"], "Start date is required"), (["endDate"], "End date is required")]
    h.refresh_from_db()
    assert h.name == "Labour Day"


def test_update_moving_to_another_year_moves_the_year_unless_given(api, org):
    h = f.make_holiday(org, start_date=date(2026, 3, 9))
    body = {"name": "Labour Day", "startDate": "2027-03-08", "endDate": "2027-03-08"}
    assert api.put(f"/api/holidays/{h.pk}", body).json()["year"] == 2027
    assert api.put(f"/api/holidays/{h.pk}", {**body, "year": 2026}).json()["year"] == 2026
    # Year not sent and the start stays in 2027: the stored year is kept.
    assert api.put(f"/api/holidays/{h.pk}", {**body, "name": "Labour Day (VIC)"}).json()["year"] == 2026


def test_update_with_stale_if_match_is_412_and_changes_nothing(api, org):
    h = f.make_holiday(org)
    etag = api.get(f"/api/holidays/{h.pk}")["ETag"]
    body = {"name": "First", "startDate": "2026-03-09", "endDate": "2026-03-09"}
    assert api.put(f"/api/holidays/{h.pk}", body, headers={"If-Match": etag}).status_code == 200
    resp = api.put(f"/api/holidays/{h.pk}", {**body, "name": "Second"}, headers={"If-Match": etag})
    assert resp.status_code == 412
    assert resp.json()["type"] == "stale"
    h.refresh_from_db()
    assert h.name == "First"


def test_update_accepts_updated_at_as_if_match(api, org):
    h = f.make_holiday(org)
    updated_at = api.get(f"/api/holidays/{h.pk}").json()["updatedAt"]
    body = {"name": "Fresh", "startDate": "2026-03-09", "endDate": "2026-03-09"}
    assert api.put(f"/api/holidays/{h.pk}", body, headers={"If-Match": updated_at}).status_code == 200


def test_update_holiday_of_another_organization_is_404(api, other_org):
    theirs = f.make_holiday(other_org)
    resp = api.put(f"/api/holidays/{theirs.pk}", FORM)
    assert resp.status_code == 404
    assert resp.json() == {"message": "Holiday not found"}
    theirs.refresh_from_db()
    assert theirs.name == "Labour Day"


# ---------------------------------------------------------------- delete


def test_delete_holiday(api, org):
    h, keep = f.make_holiday(org), f.make_holiday(org, name="Keep")
    resp = api.delete(f"/api/holidays/{h.pk}")
    assert resp.status_code == 204
    assert list(Holiday.objects.for_org(org)) == [keep]
    assert api.delete(f"/api/holidays/{h.pk}").status_code == 404


def test_delete_holiday_of_another_organization_is_404(api, other_org):
    theirs = f.make_holiday(other_org)
    resp = api.delete(f"/api/holidays/{theirs.pk}")
    assert resp.status_code == 404
    assert Holiday.objects.for_org(other_org).count() == 1


def test_unknown_holiday_id_is_404(api):
    missing = uuid.uuid4()
    assert api.get(f"/api/holidays/{missing}").status_code == 404
    assert api.put(f"/api/holidays/{missing}", FORM).status_code == 404
    assert api.delete(f"/api/holidays/{missing}").status_code == 404


# ---------------------------------------------------------------- import of public holidays


def test_import_vic_public_holidays_2027(api, org):
    resp = api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027})
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert body["skipped"] == 0
    by_date = {h["startDate"]: h for h in body["added"]}
    # Victorian public holidays 2027 (project/operations/demo/data/holidays_vic.json).
    assert by_date["2027-03-08"]["name"] == "Labour Day"
    assert by_date["2027-09-24"]["name"] == "Friday before the AFL Grand Final"
    assert by_date["2027-11-02"]["name"] == "Melbourne Cup Day"
    assert {"2027-01-01", "2027-01-26", "2027-03-26", "2027-04-25", "2027-06-14", "2027-12-27", "2027-12-28"} <= set(by_date)
    h = by_date["2027-11-02"]
    assert (h["type"], h["endDate"], h["year"], h["isRecurring"], h["isActive"]) == (
        "public_holiday",
        "2027-11-02",
        2027,
        False,
        True,
    )
    assert Holiday.objects.for_org(org).count() == len(body["added"])


def test_import_skips_dates_already_present(api, org):
    f.make_holiday(org, name="Labour Day", start_date=date(2026, 3, 9))
    f.make_holiday(org, name="Christmas Day", start_date=date(2020, 12, 25), is_recurring=True)
    # A term break over a public holiday does not hide it.
    f.make_holiday(org, name="Autumn break", type="term_break", start_date=date(2026, 4, 3), end_date=date(2026, 4, 19))
    first = api.post("/api/holidays/import-public", {"state": "vic", "year": 2026}).json()
    added = {h["startDate"] for h in first["added"]}
    assert first["skipped"] == 2
    assert "2026-03-09" not in added and "2026-12-25" not in added
    assert "2026-04-03" in added  # Good Friday, inside the term break
    again = api.post("/api/holidays/import-public", {"state": "VIC", "year": 2026}).json()
    assert again == {"added": [], "skipped": first["skipped"] + len(first["added"]), "wouldAdd": []}


def test_import_preview_lists_what_would_be_added_and_writes_nothing(
    api, org, captured_events, django_capture_on_commit_callbacks
):
    """The Holidays page previews an import before adding it."""
    f.make_holiday(org, name="Labour Day", start_date=date(2027, 3, 8))
    with django_capture_on_commit_callbacks(execute=True):
        body = api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027, "preview": True}).json()
    assert body["added"] == [] and body["skipped"] == 1
    preview = {h["date"]: h["name"] for h in body["wouldAdd"]}
    assert preview["2027-11-02"] == "Melbourne Cup Day" and "2027-03-08" not in preview
    assert Holiday.objects.for_org(org).count() == 1 and captured_events == []
    added = api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027}).json()["added"]
    assert sorted(h["startDate"] for h in added) == sorted(preview)


def test_import_other_state(api, org):
    body = api.post("/api/holidays/import-public", {"state": "SA", "year": 2026}).json()
    names = {h["startDate"]: h["name"] for h in body["added"]}
    assert names["2026-03-09"] == "Adelaide Cup Day"
    assert "2026-11-03" not in names  # Melbourne Cup is Victorian


@pytest.mark.parametrize(
    "body, path, message",
    [
        ({"year": 2027}, "state", "State is required"),
        ({"state": "XYZ", "year": 2027}, "state", "State must be one of: ACT, NSW, NT, QLD, SA, TAS, VIC, WA"),
        ({"state": "VIC"}, "year", "Year is required"),
        ({"state": "VIC", "year": 1800}, "year", "Year must be between 2000 and 2100"),
    ],
)
def test_import_validation(api, org, body, path, message):
    resp = api.post("/api/holidays/import-public", body)
    assert resp.status_code == 400
    assert ([path], message) in error_list(resp)
    assert not Holiday.objects.for_org(org).exists()


def test_import_only_touches_own_organization(api, org, other_org):
    f.make_holiday(other_org, name="Labour Day", start_date=date(2027, 3, 8))
    body = api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027}).json()
    assert "2027-03-08" in {h["startDate"] for h in body["added"]}  # another organization's row is not "present"
    assert Holiday.objects.for_org(other_org).count() == 1


# ---------------------------------------------------------------- change events


def test_holiday_writes_emit_one_event_each(api, org, admin_user, captured_events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post("/api/holidays", FORM).json()
    with django_capture_on_commit_callbacks(execute=True):
        api.put(f"/api/holidays/{created['id']}", {**FORM, "name": "Renamed"})
    with django_capture_on_commit_callbacks(execute=True):
        api.delete(f"/api/holidays/{created['id']}")
    with django_capture_on_commit_callbacks(execute=True):
        imported = api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027}).json()
    with django_capture_on_commit_callbacks(execute=True):
        api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027})  # nothing new: no event
    events = org_events(captured_events, org)
    assert [(e["entity"], e["action"]) for e in events] == [
        ("holiday", "created"),
        ("holiday", "updated"),
        ("holiday", "deleted"),
        ("holiday", "imported"),
    ]
    assert events[0]["ids"] == events[1]["ids"] == events[2]["ids"] == [created["id"]]
    assert sorted(events[3]["ids"]) == sorted(h["id"] for h in imported["added"])
    assert all(e["actorId"] == str(admin_user.pk) for e in events)


def test_refused_holiday_writes_emit_nothing(api, org, other_org, captured_events, django_capture_on_commit_callbacks):
    h = f.make_holiday(org)
    theirs = f.make_holiday(other_org)
    etag = api.get(f"/api/holidays/{h.pk}")["ETag"]
    api.put(f"/api/holidays/{h.pk}", {**FORM, "name": "Moved on"})
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/api/holidays", {**FORM, "endDate": "2020-01-01"}).status_code == 400
        assert api.put(f"/api/holidays/{h.pk}", FORM, headers={"If-Match": etag}).status_code == 412
        assert api.delete(f"/api/holidays/{theirs.pk}").status_code == 404
    assert org_events(captured_events, org) == []
    assert org_events(captured_events, other_org) == []
