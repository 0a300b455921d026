"""Teacher units (docs/behaviour/teachers.md) and the change events of every teacher write (docs/behaviour/live-events.md §4)."""

from __future__ import annotations

import uuid

import pytest

from project.staff.models import TeacherUnit
from tests import factories as f
from tests.checks import error_list, org_events

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- list


def test_list_teacher_units_embeds_the_unit(api, org):
    t = f.make_teacher(org)
    b = f.make_unit(org, code="VU23217", name="Recognise the need for cyber security in an organisation", nominal_hours=60)
    a = f.make_unit(org, code="BSBWHS309", name="Contribute effectively to WHS communication", nominal_hours=30)
    f.qualify(t, b, proficiency_level="expert")
    f.qualify(t, a)
    f.qualify(f.make_teacher(org), a)  # another teacher's row is not listed
    resp = api.get(f"/api/teacher-units/{t.pk}")
    assert resp.status_code == 200
    rows = resp.json()
    assert [r["unit"]["code"] for r in rows] == ["BSBWHS309", "VU23217"]
    assert rows[0]["unit"] == {"id": str(a.pk), "code": "BSBWHS309", "name": a.name, "nominalHours": 30}
    assert rows[0]["proficiencyLevel"] == "competent"
    assert rows[1]["proficiencyLevel"] == "expert"
    assert set(rows[0]) == {"id", "teacherId", "unitId", "proficiencyLevel", "unit", "createdAt", "updatedAt"}
    assert rows[0]["teacherId"] == str(t.pk) and rows[0]["unitId"] == str(a.pk)


def test_list_teacher_units_query_count_is_fixed(api, org, django_assert_max_num_queries):
    from project.catalogue.models import Unit

    t = f.make_teacher(org)
    units = Unit.objects.bulk_create(
        [Unit(organization=org, code=f"U{i:04d}", name=f"Unit {i}", nominal_hours=20) for i in range(1000)]
    )
    TeacherUnit.objects.bulk_create([TeacherUnit(organization=org, teacher=t, unit=u) for u in units])
    small = f.make_teacher(org)
    f.qualify(small, units[0])
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one:
        assert len(api.get(f"/api/teacher-units/{small.pk}").json()) == 1
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert len(api.get(f"/api/teacher-units/{t.pk}").json()) == 1000


def test_list_teacher_units_of_another_organizations_teacher_is_404(api, other_org):
    theirs = f.make_teacher(other_org)
    f.qualify(theirs, f.make_unit(other_org))
    resp = api.get(f"/api/teacher-units/{theirs.pk}")
    assert resp.status_code == 404
    assert resp.json() == {"message": "Teacher not found"}


# ---------------------------------------------------------------- add


def test_add_teacher_unit(api, org):
    t = f.make_teacher(org)
    u = f.make_unit(org, nominal_hours=80)
    resp = api.post("/api/teacher-units", {"teacherId": str(t.pk), "unitId": str(u.pk)})
    assert resp.status_code == 201, resp.content
    body = resp.json()
    assert body["proficiencyLevel"] == "competent"
    assert body["unit"]["nominalHours"] == 80
    row = TeacherUnit.objects.for_org(org).get(pk=body["id"])
    assert (row.teacher_id, row.unit_id, row.organization_id) == (t.pk, u.pk, org.pk)
    assert api.get(f"/api/teachers/{t.pk}").json()["unitCount"] == 1


def test_add_teacher_unit_with_proficiency(api, org):
    t, u = f.make_teacher(org), f.make_unit(org)
    resp = api.post("/api/teacher-units", {"teacherId": str(t.pk), "unitId": str(u.pk), "proficiencyLevel": "expert"})
    assert resp.json()["proficiencyLevel"] == "expert"
    resp = api.post(
        "/api/teacher-units", {"teacherId": str(t.pk), "unitId": str(f.make_unit(org).pk), "proficiencyLevel": "x" * 21}
    )
    assert resp.status_code == 400
    assert (["proficiencyLevel"], "Proficiency level must be at most 20 characters") in error_list(resp)


@pytest.mark.parametrize("unit_id", [None, "", "missing"])
def test_add_teacher_unit_needs_a_unit(api, org, unit_id):
    t = f.make_teacher(org)
    body = {"teacherId": str(t.pk)}
    if unit_id != "missing":
        body["unitId"] = unit_id
    resp = api.post("/api/teacher-units", body)
    assert resp.status_code == 400
    assert error_list(resp) == [(["unitId"], "Please select a unit")]
    assert not TeacherUnit.objects.for_org(org).exists()


def test_add_teacher_unit_malformed_ids_are_400(api, org):
    resp = api.post("/api/teacher-units", {"teacherId": "nope", "unitId": "nope"})
    assert resp.status_code == 400
    paths = [p for p, _ in error_list(resp)]
    assert ["teacherId"] in paths and ["unitId"] in paths
    resp = api.post("/api/teacher-units", {"unitId": str(f.make_unit(org).pk)})
    assert error_list(resp) == [(["teacherId"], "Teacher is required")]


def test_add_the_same_unit_twice_is_409(api, org):
    t, u = f.make_teacher(org), f.make_unit(org)
    f.qualify(t, u)
    resp = api.post("/api/teacher-units", {"teacherId": str(t.pk), "unitId": str(u.pk)})
    assert resp.status_code == 409
    body = resp.json()
    assert body["message"] == "This unit is already assigned to this teacher."
    assert body["errors"][0]["path"] == ["unitId"]
    assert TeacherUnit.objects.for_org(org).count() == 1


def test_add_with_another_organizations_teacher_or_unit_is_404(api, org, other_org):
    mine_t, mine_u = f.make_teacher(org), f.make_unit(org)
    theirs_t, theirs_u = f.make_teacher(other_org), f.make_unit(other_org)
    resp = api.post("/api/teacher-units", {"teacherId": str(theirs_t.pk), "unitId": str(mine_u.pk)})
    assert resp.status_code == 404
    assert resp.json() == {"message": "Teacher not found"}
    resp = api.post("/api/teacher-units", {"teacherId": str(mine_t.pk), "unitId": str(theirs_u.pk)})
    assert resp.status_code == 404
    assert resp.json() == {"message": "Unit not found"}
    assert not TeacherUnit.objects.unscoped().exists()


# ---------------------------------------------------------------- remove


def test_remove_teacher_unit(api, org):
    t, u, keep = f.make_teacher(org), f.make_unit(org), f.make_unit(org)
    f.qualify(t, u)
    f.qualify(t, keep)
    resp = api.delete(f"/api/teacher-units/{t.pk}/{u.pk}")
    assert resp.status_code == 204
    assert list(TeacherUnit.objects.for_org(org).values_list("unit_id", flat=True)) == [keep.pk]
    resp = api.delete(f"/api/teacher-units/{t.pk}/{u.pk}")
    assert resp.status_code == 404
    assert resp.json() == {"message": "Teacher unit not found"}


def test_remove_teacher_unit_of_another_organization_is_404(api, other_org):
    theirs_t, theirs_u = f.make_teacher(other_org), f.make_unit(other_org)
    f.qualify(theirs_t, theirs_u)
    resp = api.delete(f"/api/teacher-units/{theirs_t.pk}/{theirs_u.pk}")
    assert resp.status_code == 404
    assert TeacherUnit.objects.for_org(other_org).count() == 1


def test_remove_with_unknown_ids_is_404(api, org):
    t = f.make_teacher(org)
    assert api.delete(f"/api/teacher-units/{uuid.uuid4()}/{uuid.uuid4()}").status_code == 404
    assert api.delete(f"/api/teacher-units/{t.pk}/{uuid.uuid4()}").status_code == 404
    assert api.get(f"/api/teacher-units/{uuid.uuid4()}").status_code == 404


# ---------------------------------------------------------------- change events


FORM = {"employeeId": "EV-1", "firstName": "Eve", "lastName": "Event", "email": "eve@mp.edu.au"}


def test_teacher_writes_emit_one_event_each(api, org, admin_user, captured_events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post("/api/teachers", FORM).json()
    with django_capture_on_commit_callbacks(execute=True):
        api.put(f"/api/teachers/{created['id']}", {"isActive": False})
    with django_capture_on_commit_callbacks(execute=True):
        api.delete(f"/api/teachers/{created['id']}")
    events = org_events(captured_events, org)
    assert [(e["entity"], e["action"], e["ids"]) for e in events] == [
        ("teacher", "created", [created["id"]]),
        ("teacher", "updated", [created["id"]]),
        ("teacher", "deleted", [created["id"]]),
    ]
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert all(e["actorId"] == str(admin_user.pk) and e["origin"] == "test-tab" for e in events)


def test_teacher_unit_writes_emit_events(api, org, captured_events, django_capture_on_commit_callbacks):
    t, u = f.make_teacher(org), f.make_unit(org)
    with django_capture_on_commit_callbacks(execute=True):
        row = api.post("/api/teacher-units", {"teacherId": str(t.pk), "unitId": str(u.pk)}).json()
    with django_capture_on_commit_callbacks(execute=True):
        api.delete(f"/api/teacher-units/{t.pk}/{u.pk}")
    assert [(e["entity"], e["action"], e["ids"]) for e in org_events(captured_events, org)] == [
        ("teacher_unit", "created", [row["id"]]),
        ("teacher_unit", "deleted", [row["id"]]),
    ]


def test_refused_writes_emit_nothing(api, org, other_org, captured_events, django_capture_on_commit_callbacks):
    t = f.make_teacher(org, employee_id="DUP")
    etag = api.get(f"/api/teachers/{t.pk}")["ETag"]
    api.put(f"/api/teachers/{t.pk}", {"firstName": "Moved on"})
    theirs = f.make_teacher(other_org)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post("/api/teachers", {**FORM, "employeeId": "DUP"}).status_code == 409
        assert api.post("/api/teachers", {**FORM, "maxWeeklyHours": 99}).status_code == 400
        assert api.put(f"/api/teachers/{t.pk}", {"firstName": "Stale"}, headers={"If-Match": etag}).status_code == 412
        assert api.delete(f"/api/teachers/{theirs.pk}").status_code == 404
    assert org_events(captured_events, org) == []
    assert org_events(captured_events, other_org) == []
