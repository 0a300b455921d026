"""Activity history (ADR 0011; first slice): exactly one activity per write, in the write's transaction,
readable through GET /api/activity, scoped to the organization."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from project.core.tenancy import Ctx
from project.history.models import Activity
from project.timetabling.holidays.services import holiday_public_list
from project.timetabling.models import Holiday
from realtime.events import emit_change
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_api_writes_record_one_activity_each_with_actor_and_summary(api, admin_user, org):
    before = Activity.objects.count()
    r = api.post("/api/courses", {"code": "HIST1", "name": "History course"})
    assert r.status_code == 201, r.content
    course_id = r.json()["id"]
    assert Activity.objects.count() == before + 1
    act = Activity.objects.latest("seq")
    assert (act.entity, act.action, act.ids, act.actor_id) == ("course", "created", [course_id], admin_user.pk)
    assert act.summary == f"{admin_user.full_name or admin_user.email} created course HIST1"


def test_a_bulk_write_is_one_activity_with_all_its_ids(api, org, admin_user):
    group = f.make_block_group(org)
    unit = f.make_unit(org)
    teacher = f.make_teacher(org)
    sessions = [f.make_session(org, block_group=group, unit=unit, actual_date=date(2026, 3, d)) for d in (2, 3, 4)]
    before = Activity.objects.count()
    r = api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(s.id) for s in sessions], "teacherId": str(teacher.id)})
    assert r.status_code == 200, r.content
    assert Activity.objects.count() == before + 1
    act = Activity.objects.latest("seq")
    assert act.action == "allocated" and sorted(act.ids) == sorted(str(s.id) for s in sessions)
    # The row says who, to whom, which group and which days (ADR 0018).
    name = f"{admin_user.full_name or admin_user.email}"
    assert (
        act.summary
        == f"{name} allocated {teacher.first_name} {teacher.last_name} to 3 sessions of {group.code}, Mon 2 Mar to Wed 4 Mar"
    )


def test_a_single_session_row_names_the_session_and_what_changed(api, org, admin_user):
    group, unit = f.make_block_group(org), f.make_unit(org)
    teacher = f.make_teacher(org)
    s = f.make_session(org, block_group=group, unit=unit, actual_date=date(2026, 11, 30))
    r = api.get(f"/api/timetables/{s.id}")
    body = {**r.json(), "room": "CBD-9.99", "teacherId": None}
    r = api.put(f"/api/timetables/{s.id}", body, headers={"If-Match": r.json()["updatedAt"]})
    assert r.status_code == 200, r.content
    name = admin_user.full_name or admin_user.email
    assert Activity.objects.latest("seq").summary == f"{name} updated a session of {unit.code} in {group.code}, Mon 30 Nov: room"
    r = api.get(f"/api/timetables/{s.id}")
    r = api.put(
        f"/api/timetables/{s.id}", {**r.json(), "teacherId": str(teacher.id)}, headers={"If-Match": r.json()["updatedAt"]}
    )
    assert r.status_code == 200, r.content
    expected = (
        f"{name} allocated {teacher.first_name} {teacher.last_name} to a session of {unit.code} in {group.code}, Mon 30 Nov"
    )
    assert Activity.objects.latest("seq").summary == expected
    assert api.delete(f"/api/timetables/{s.id}").status_code in (200, 204)
    assert Activity.objects.latest("seq").summary == f"{name} deleted a session of {unit.code} in {group.code}, Mon 30 Nov"


def test_a_rolled_back_write_records_nothing(org):
    before = Activity.objects.count()
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            emit_change(Ctx(org=org), entity="course", action="updated", ids=["x"])
            raise RuntimeError("the write failed")
    assert Activity.objects.count() == before


def test_admin_and_system_writes_name_their_actor(org):
    emit_change(Ctx(org=org, origin="admin"), entity="holiday", action="deleted", ids=["h"])
    emit_change(Ctx(org=org), entity="unit", action="imported", ids=["u1", "u2"])
    labels = list(Activity.objects.for_org(org).order_by("seq").values_list("actor_label", "summary"))
    assert labels[-2:] == [
        ("Django admin", "Django admin deleted a holiday"),
        ("system", "system imported 2 units of competency"),
    ]


def test_reading_activity_newest_first_filtered_and_scoped(api, member_api, other_api, org, admin_user):
    ids = []
    for n in range(3):
        ids.append(api.post("/api/courses", {"code": f"HIST{n}", "name": f"Course {n}"}).json()["id"])
    api.post("/api/units", {"code": "HISTU1", "name": "A unit", "nominalHours": 10})
    page = member_api.get("/api/activity", {"pageSize": 2}).json()
    assert page["total"] >= 4 and page["page"] == 1 and page["pageSize"] == 2
    assert [i["entity"] for i in page["items"]] == ["unit", "course"]
    assert page["items"][0]["seq"] > page["items"][1]["seq"]
    assert page["items"][0]["actorName"] and page["items"][0]["at"].endswith(("+11:00", "+10:00"))
    one = member_api.get("/api/activity", {"id": ids[1]}).json()
    assert [i["ids"] for i in one["items"]] == [[ids[1]]]
    assert member_api.get("/api/activity", {"entity": "unit"}).json()["total"] == 1
    assert member_api.get("/api/activity", {"actorId": str(admin_user.id)}).json()["total"] >= 4
    # Another organization sees none of it.
    assert other_api.get("/api/activity", {"id": ids[1]}).json()["total"] == 0
    bad = member_api.get("/api/activity", {"pageSize": 0})
    assert bad.status_code == 400 and bad.json()["type"] == "validation_error"


def test_reading_activity_takes_a_fixed_number_of_queries(api, member_api):
    for n in range(3):
        api.post("/api/courses", {"code": f"Q{n}", "name": f"Q {n}"})
    with CaptureQueriesContext(connection) as few:
        member_api.get("/api/activity")
    for n in range(3, 30):
        api.post("/api/courses", {"code": f"Q{n}", "name": f"Q {n}"})
    with CaptureQueriesContext(connection) as many:
        assert len(member_api.get("/api/activity").json()["items"]) == 30
    assert len(many) == len(few)


def test_trim_activity_keeps_the_retention_window(org, settings):
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    settings.ACTIVITY_RETENTION_DAYS = 400
    emit_change(Ctx(org=org), entity="course", action="updated", ids=["old"])
    emit_change(Ctx(org=org), entity="course", action="updated", ids=["new"])
    old = next(a for a in Activity.objects.for_org(org) if a.ids == ["old"])
    Activity.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=401))
    call_command("trim_activity")
    assert [a.ids for a in Activity.objects.for_org(org)] == [["new"]]


def test_a_one_record_row_names_the_record(api, org, admin_user):
    name = admin_user.full_name or admin_user.email
    r = api.post("/api/courses", {"code": "NAMED-1", "name": "Named course"})
    assert r.status_code == 201, r.content
    assert Activity.objects.latest("seq").summary == f"{name} created course NAMED-1"
    r = api.post("/api/rooms", {"code": "CBD-9.99", "name": "Spare room", "type": "classroom"})
    assert r.status_code == 201, r.content
    assert Activity.objects.latest("seq").summary == f"{name} created room CBD-9.99"
    teacher = f.make_teacher(org)
    assert api.delete(f"/api/teachers/{teacher.id}").status_code in (200, 204)
    assert Activity.objects.latest("seq").summary == f"{name} deleted teacher {teacher.first_name} {teacher.last_name}"


def test_a_few_record_import_names_each_record_and_more_are_counted(api, org, admin_user):
    """Public holidays imported: two new ones are named in the order of the write, four are counted."""
    name = admin_user.full_name or admin_user.email
    wanted = holiday_public_list("VIC", 2027)
    # Every VIC public holiday of 2027 but two already exists, so the import adds exactly those two.
    for day, title in wanted[2:]:
        f.make_holiday(org, name=title, start_date=day, end_date=day)
    r = api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027})
    assert r.status_code == 200, r.content
    act = Activity.objects.latest("seq")
    assert act.summary == f"{name} imported holidays {wanted[0][1]} and {wanted[1][1]}"

    # Three: "A, B and C".
    Holiday.objects.for_org(org).filter(start_date__in=[d for d, _ in wanted[:3]]).delete()
    assert api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027}).status_code == 200
    assert Activity.objects.latest("seq").summary == (
        f"{name} imported holidays {wanted[0][1]}, {wanted[1][1]} and {wanted[2][1]}"
    )

    # More than a few: counted, not named.
    Holiday.objects.for_org(org).filter(start_date__in=[d for d, _ in wanted[:4]]).delete()
    assert api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027}).status_code == 200
    assert Activity.objects.latest("seq").summary == f"{name} imported 4 holidays"
