"""Before/after capture and undo/redo (docs/adr/0012).

The central check, :func:`world`, reads every tracked row of the organization (all fields but
``updated_at``): an undo must bring the organization back exactly to what it was before the write, and
a redo exactly to what it was after it.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction

from project.accounts.models import Organization
from project.catalogue.models import Course, Unit
from project.core.tenancy import Ctx
from project.history import tracking
from project.history.models import Activity, ActivityChange
from project.planning.models import BlockGroup, BlockGroupStudyPlan
from project.timetabling.models import Holiday, TimetableSession
from realtime.events import emit_change
from tests import factories as f
from tests.timetabling.conftest import filled_template, new_cohort_row, session_body

pytestmark = pytest.mark.django_db

MON = date(2026, 3, 2)
TEMPLATES = [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}]
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def world(org) -> dict:
    """Every tracked row of ``org`` (and its settings) without ``updated_at``."""
    out = {}
    for model in f.DELIVERY_MODELS:
        names = [fl.attname for fl in model._meta.concrete_fields if fl.name != "updated_at"]
        out[model.__name__] = sorted(
            (tuple(str(v) for v in row) for row in model.objects.for_org(org).values_list(*names)),
        )
    out["Organization"] = list(
        Organization.objects.filter(pk=org.pk).values_list("name", "timezone", "phone", "website", "address")
    )
    return out


def latest(org) -> Activity:
    return Activity.objects.for_org(org).latest("seq")


def undo(api, activity, status=201):
    r = api.post(f"/api/activity/{activity.id}/undo")
    assert r.status_code == status, r.content
    return r.json()


def ok(response):
    assert response.status_code < 300, response.content
    return response


def check_round_trip(api, org, write):
    """``write()`` makes one activity; undo restores the world before it, redo the world after it."""
    before_world = world(org)
    count = Activity.objects.for_org(org).count()
    write()
    assert Activity.objects.for_org(org).count() == count + 1, "one activity per write"
    act = latest(org)
    assert ActivityChange.objects.filter(activity=act).exists(), "the write captured its rows"
    after_world = world(org)
    assert after_world != before_world
    undone = undo(api, act)
    assert undone["undoOfId"] == str(act.id) and undone["summary"].split(": ", 1)[1] == act.summary
    assert world(org) == before_world
    act.refresh_from_db()
    assert str(act.undone_by_id) == undone["id"]
    redone = undo(api, Activity.objects.get(pk=undone["id"]))
    assert redone["summary"].split(": ", 1)[1] == act.summary and " redid: " in redone["summary"]
    assert world(org) == after_world
    act.refresh_from_db()
    assert act.undone_by_id is None  # the original is in effect again, and can be undone again
    undo(api, act)
    assert world(org) == before_world
    return act


# ------------------------------------------------------------------------------------------ capture


def test_a_single_edit_records_its_before_and_after(api, org):
    course = f.make_course(org, code="C1", name="Old name")
    etag = api.get(f"/api/courses/{course.id}")["ETag"]
    r = api.put(f"/api/courses/{course.id}", {"code": "C1", "name": "New name"}, headers={"If-Match": etag})
    assert r.status_code == 200, r.content
    act = latest(org)
    [change] = ActivityChange.objects.filter(activity=act)
    [[pk, before, after]] = change.row_list()
    assert pk == str(course.id) and change.model == "catalogue.Course"
    assert dict(zip(change.fields, before, strict=True))["name"] == "Old name"
    assert dict(zip(change.fields, after, strict=True))["name"] == "New name"
    detail = api.get(f"/api/activity/{act.id}").json()
    assert detail["changes"][0]["change"] == "updated"
    assert {"field": "name", "before": "Old name", "after": "New name"} in detail["changes"][0]["fields"]


def test_created_rows_have_no_before_and_deleted_rows_no_after(api, org):
    r = api.post("/api/units", {"code": "U1", "name": "A unit", "nominalHours": 10})
    unit_id = r.json()["id"]
    [[_pk, before, after]] = ActivityChange.objects.get(activity=latest(org)).row_list()
    assert before is None and after is not None
    assert api.delete(f"/api/units/{unit_id}").status_code == 204
    [[_pk, before, after]] = ActivityChange.objects.get(activity=latest(org)).row_list()
    assert before is not None and after is None


def test_a_rolled_back_write_records_neither_activity_nor_rows(org):
    course = f.make_course(org)
    activities, changes = Activity.objects.count(), ActivityChange.objects.count()
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            emit_change(Ctx(org=org), entity="course", action="updated", ids=[course.id])
            Course.objects.for_org(org).filter(pk=course.pk).update(name="Changed")
            raise RuntimeError("the write failed")
    assert (Activity.objects.count(), ActivityChange.objects.count()) == (activities, changes)
    # The tracker died with its transaction: a later untracked write records nothing.
    Course.objects.for_org(org).filter(pk=course.pk).update(name="Later")
    assert ActivityChange.objects.count() == changes


def test_secrets_and_the_change_sequence_are_never_captured(org):
    assert tracking.is_tracked(Course) and tracking.is_tracked(Organization)
    from project.displays.models import DisplayLink
    from project.timetabling.models import CalendarFeed

    assert not tracking.is_tracked(DisplayLink) and not tracking.is_tracked(CalendarFeed)
    assert "event_seq" not in [fl.name for fl in tracking.snapshot_fields(Organization)]


# ------------------------------------------------------------------------------------ round trips


def test_undo_redo_a_single_edit(api, org):
    course = f.make_course(org, code="C1", name="Old name")

    def write():
        etag = api.get(f"/api/courses/{course.id}")["ETag"]
        assert api.put(f"/api/courses/{course.id}", {"code": "C1", "name": "New"}, headers={"If-Match": etag}).status_code == 200

    check_round_trip(api, org, write)
    # An ETag read before the undo is stale after it (updated_at moved on), never valid again.
    course.refresh_from_db()
    assert course.name == "Old name"


def test_undo_a_delete_brings_the_row_back_with_its_id_and_relations(api, org):
    group = f.make_block_group(org, code="BG-DEL")
    plan = f.make_study_plan(org)
    unit = f.make_unit(org)
    f.add_plan_unit(plan, unit)
    f.assign_plan(group, plan)
    teacher = f.make_teacher(org)
    for d in range(3):
        f.make_session(org, block_group=group, unit=unit, actual_date=MON + timedelta(days=d), teacher=teacher)
    act = check_round_trip(api, org, lambda: ok(api.delete(f"/api/block-groups/{group.id}")))
    assert act.action == "deleted"
    back = BlockGroup.objects.for_org(org).get(pk=group.pk)
    assert back.created_at == group.created_at
    assert TimetableSession.objects.for_org(org).filter(block_group=back, teacher=teacher).count() == 3
    assert BlockGroupStudyPlan.objects.for_org(org).filter(block_group=back, study_plan=plan).exists()


def test_undo_a_teacher_delete_restores_their_allocations(api, org):
    group, unit = f.make_block_group(org), f.make_unit(org)
    teacher = f.make_teacher(org)
    f.qualify(teacher, unit)
    f.make_session(org, block_group=group, unit=unit, teacher=teacher)
    check_round_trip(api, org, lambda: ok(api.delete(f"/api/teachers/{teacher.id}")))


def test_undo_a_schedule_generation_removes_exactly_its_sessions(api, org, plan_group):
    group = plan_group["group"]
    keep = f.make_session(org, block_group=group, unit=plan_group["a"], actual_date=date(2026, 2, 2))
    other = f.make_block_group(org, code="OTHER")
    f.make_session(org, block_group=other, unit=plan_group["a"], actual_date=date(2026, 2, 4))

    def write():
        r = api.post(f"/api/block-groups/{group.id}/schedule", {"sessionTemplates": TEMPLATES})
        assert r.status_code == 200, r.content
        assert r.json()["sessionsCreated"] > 0

    act = check_round_trip(api, org, write)
    assert act.action == "scheduled"
    act.refresh_from_db()
    undo(api, act.undone_by)  # generated again, by a redo
    made = TimetableSession.objects.for_org(org).filter(block_group=group).exclude(pk=keep.pk).first()
    items = api.get("/api/activity", {"id": str(made.id)}).json()["items"]
    assert items and "redid" in items[0]["summary"]  # a generated session finds its generation
    assert TimetableSession.objects.for_org(org).filter(pk=keep.pk).exists()


def test_undo_a_clear_restores_the_sessions_with_their_teachers(api, org, plan_group):
    group = plan_group["group"]
    teacher = f.make_teacher(org)
    for d in (0, 2, 7):
        f.make_session(
            org, block_group=group, unit=plan_group["a"], actual_date=date(2026, 2, 2) + timedelta(days=d), teacher=teacher
        )
    act = check_round_trip(api, org, lambda: ok(api.delete(f"/api/block-groups/{group.id}/schedule")))
    assert act.action == "schedule_cleared"
    assert TimetableSession.objects.for_org(org).filter(block_group=group, teacher=teacher).count() == 3


def test_undo_a_bulk_allocation(api, org):
    group, unit = f.make_block_group(org), f.make_unit(org)
    old, new = f.make_teacher(org, first_name="Old"), f.make_teacher(org, first_name="New")
    sessions = [
        f.make_session(org, block_group=group, unit=unit, actual_date=MON + timedelta(days=d), teacher=old if d else None)
        for d in range(3)
    ]

    def write():
        r = api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(s.id) for s in sessions], "teacherId": str(new.id)})
        assert r.status_code == 200, r.content

    check_round_trip(api, org, write)
    assert TimetableSession.objects.for_org(org).filter(teacher=old).count() == 2


def test_undo_a_bulk_room(api, org):
    """The Set Room for selected sessions is one undoable change: undo restores each session's own
    room text and link."""
    from project.catalogue.models import Room

    group, unit = f.make_block_group(org), f.make_unit(org)
    lab = Room.objects.create(organization=org, code="LAB-U", key="labu")
    sessions = [
        f.make_session(org, block_group=group, unit=unit, actual_date=MON + timedelta(days=d), room=f"OLD-{d}") for d in range(3)
    ]

    def write():
        r = api.put("/api/timetables/bulk-room", {"sessionIds": [str(s.id) for s in sessions], "roomId": str(lab.id)})
        assert r.status_code == 200, r.content

    act = check_round_trip(api, org, write)
    assert act.summary.endswith(f" put room LAB-U on 3 sessions of {group.code}, Mon 2 Mar to Wed 4 Mar")
    assert sorted(TimetableSession.objects.for_org(org).filter(block_group=group).values_list("room", flat=True)) == [
        "OLD-0",
        "OLD-1",
        "OLD-2",
    ]


def test_undo_an_auto_allocation_apply(api, org):
    group, unit = f.make_block_group(org), f.make_unit(org)
    teacher = f.make_teacher(org)
    f.qualify(teacher, unit)
    for d in range(3):
        f.make_session(org, block_group=group, unit=unit, actual_date=MON + timedelta(days=d))

    def write():
        r = api.post("/api/timetables/auto-allocate", {"blockGroupId": str(group.id), "apply": True})
        assert r.status_code == 200 and r.json()["applied"], r.content

    check_round_trip(api, org, write)
    assert TimetableSession.objects.for_org(org).filter(teacher__isnull=False).count() == 0


def test_undo_an_import_removes_its_sessions_groups_and_units(api, org):
    f.make_block_group(org, code="BG-OLD", start_date=date(2026, 2, 2))
    content = filled_template(
        api,
        new_cohort_row(unit_name="A new unit"),
        ["BG-OLD", None, "NEWUNIT01", None, date(2026, 3, 9), "Mon", time(9), time(12), 6, 3, "", None, None, None],
    )

    def write():
        upload = SimpleUploadedFile("s.xlsx", content, content_type=XLSX)
        r = api.post("/api/timetables/import", data={"file": upload})
        assert r.status_code == 200, r.content

    check_round_trip(api, org, write)
    assert not BlockGroup.objects.for_org(org).filter(code="BG-NEW").exists()
    assert not Unit.objects.for_org(org).filter(code="NEWUNIT01").exists()


def test_undo_a_holiday_and_a_settings_change(api, org):
    check_round_trip(
        api,
        org,
        lambda: ok(api.post("/api/holidays", {"name": "Grand Final eve", "startDate": "2026-09-25", "endDate": "2026-09-25"})),
    )
    r = api.get("/api/organization")
    body = r.json()

    def write():
        resp = api.put(
            "/api/organization",
            {**{k: body[k] for k in ("name", "domain", "address", "phone", "website") if k in body}, "name": "Renamed TAFE"},
            headers={"If-Match": r["ETag"]} if r.has_header("ETag") else None,
        )
        assert resp.status_code == 200, resp.content

    check_round_trip(api, org, write)


def test_undo_a_public_holiday_import(api, org):
    act = check_round_trip(api, org, lambda: ok(api.post("/api/holidays/import-public", {"state": "VIC", "year": 2027})))
    assert act.action == "imported" and len(act.ids) > 5


def test_undo_a_study_plan_reorder(api, org):
    plan = f.make_study_plan(org)
    rows = [f.add_plan_unit(plan, f.make_unit(org, code=f"U{n}"), sequence_order=n + 1) for n in range(3)]

    def write():
        r = api.put(f"/api/study-plan-units/{rows[2].id}", {"sequenceOrder": 1})
        assert r.status_code == 200, r.content

    check_round_trip(api, org, write)


# ------------------------------------------------------------------------------------------ refusals


def test_a_later_change_to_the_same_rows_blocks_the_undo_and_is_named(api, org):
    group, unit = f.make_block_group(org), f.make_unit(org)
    a, b = f.make_teacher(org, first_name="Alice"), f.make_teacher(org, first_name="Bob")
    s = f.make_session(org, block_group=group, unit=unit)
    assert api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(s.id)], "teacherId": str(a.id)}).status_code == 200
    first = latest(org)
    assert api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(s.id)], "teacherId": str(b.id)}).status_code == 200
    second = latest(org)
    r = api.post(f"/api/activity/{first.id}/undo")
    assert r.status_code == 409 and r.json()["type"] == "conflict_state"
    assert r.json()["blockedBy"]["id"] == str(second.id)
    assert second.summary in r.json()["message"] and "Undo that first" in r.json()["message"]
    s.refresh_from_db()
    assert s.teacher_id == b.id  # nothing changed
    # Undo the later one first, then the earlier one goes through.
    undo(api, second)
    undo(api, first)
    s.refresh_from_db()
    assert s.teacher_id is None


def test_the_refusal_quotes_the_blocking_rows_summary_and_time(api, org, admin_user):
    """The 409 of an undo blocked by a later write names that write: its summary (which names the record)
    and when it was made, in the organization's time zone as History shows it."""
    org.timezone = "Australia/Melbourne"
    org.save(update_fields=["timezone"])
    name = admin_user.full_name or admin_user.email
    made = ok(api.post("/api/holidays", {"name": "Cup Day", "startDate": "2026-11-03", "endDate": "2026-11-03"}))
    body = {"name": "Cup Day", "startDate": "2026-11-03", "endDate": "2026-11-03"}
    ok(api.put(f"/api/holidays/{made.json()['id']}", {**body, "description": "Half the state"}))
    first = latest(org)
    ok(api.put(f"/api/holidays/{made.json()['id']}", {**body, "description": "The whole state"}))
    later = latest(org)
    assert later.summary == f"{name} updated holiday Cup Day"
    # 01:05 UTC on 26 November is 12:05 pm in Melbourne (daylight time, UTC+11).
    Activity.objects.filter(pk=later.pk).update(created_at=datetime(2026, 11, 26, 1, 5, tzinfo=UTC))
    r = api.post(f"/api/activity/{first.id}/undo")
    assert r.status_code == 409, r.content
    assert r.json()["message"].endswith(
        f"A later change touched the same records: “{name} updated holiday Cup Day” (26 Nov 2026, 12:05 pm). Undo that first."
    )
    assert r.json()["blockedBy"] == {
        "id": str(later.id),
        "seq": later.seq,
        "summary": f"{name} updated holiday Cup Day",
        "at": "2026-11-26T12:05:00+11:00",
    }
    assert Holiday.objects.get(pk=made.json()["id"]).description == "The whole state"  # nothing changed


def test_undoing_a_creation_that_others_built_on_is_refused(api, org):
    r = api.post(
        "/api/block-groups",
        {
            "code": "BG-X",
            "name": "X",
            "cohortSize": 10,
            "startDate": "2026-02-02",
            "preferredDays": "Monday",
            "status": "planned",
        },
    )
    assert r.status_code == 201, r.content
    created = latest(org)
    group = BlockGroup.objects.for_org(org).get(code="BG-X")
    unit = f.make_unit(org)
    etag = None
    assert api.post("/api/timetables", session_body(group, unit)).status_code == 201, etag
    r = api.post(f"/api/activity/{created.id}/undo")
    assert r.status_code == 409 and "added to what this change created" in r.json()["message"]
    assert BlockGroup.objects.for_org(org).filter(pk=group.pk).exists()


def test_already_undone_users_and_tenancy(api, member_api, other_api, org, admin_user, member_user):
    course = f.make_course(org)
    assert api.delete(f"/api/courses/{course.id}").status_code == 204
    act = latest(org)
    undo(api, act)
    r = api.post(f"/api/activity/{act.id}/undo")
    assert r.status_code == 409 and r.json()["message"] == "This change has already been undone."
    # Another organization's activity id is not found.
    assert other_api.post(f"/api/activity/{act.id}/undo").status_code == 404
    assert other_api.get(f"/api/activity/{act.id}").status_code == 404
    # A member may not undo an admin's change, but may undo their own.
    assert member_api.post(f"/api/activity/{latest(org).id}/undo").status_code == 403
    mine = member_api.post("/api/courses", {"code": "MINE", "name": "Mine"})
    assert mine.status_code == 201
    mine_act = latest(org)
    listed = member_api.get("/api/activity", {"pageSize": 5}).json()["items"]
    assert listed[0]["id"] == str(mine_act.id) and listed[0]["canUndo"] is True
    assert [i["canUndo"] for i in listed[1:3]] == [False, False]  # the admin's undo, the undone delete
    undo(member_api, mine_act)
    assert not Course.objects.for_org(org).filter(code="MINE").exists()
    # Users' changes cannot be undone.
    r = api.post(
        "/api/admin/users", {"email": "new.person@example.edu.au", "firstName": "New", "lastName": "Person", "role": "user"}
    )
    assert r.status_code == 201, r.content
    r = api.post(f"/api/activity/{latest(org).id}/undo")
    assert r.status_code == 409 and "users cannot be undone" in r.json()["message"]


def test_an_undo_is_one_change_event(api, org, captured_events, django_capture_on_commit_callbacks):
    group, unit = f.make_block_group(org), f.make_unit(org)
    teacher = f.make_teacher(org)
    sessions = [f.make_session(org, block_group=group, unit=unit, actual_date=MON + timedelta(days=d)) for d in range(2)]
    assert (
        api.put(
            "/api/timetables/bulk-allocate", {"sessionIds": [str(s.id) for s in sessions], "teacherId": str(teacher.id)}
        ).status_code
        == 200
    )
    act = latest(org)
    captured_events.clear()
    with django_capture_on_commit_callbacks(execute=True):
        undo(api, act)
    events = [m["event"] for _g, m in captured_events if m["type"] == "change.event"]
    assert len(events) == 1
    assert events[0]["entity"] == "timetable_session" and events[0]["action"] == "allocated"
    assert sorted(events[0]["ids"]) == sorted(str(s.id) for s in sessions)
    assert {x["teacherId"] for x in events[0]["sessions"]} == {None}


def test_the_django_admin_writes_are_captured_too(client, org):
    from project.accounts.models import User

    staff = User.objects.create_superuser(email="support@blockplan.test", password="x" * 16, organization=org)
    client.force_login(staff)
    course = f.make_course(org, code="ADM1", name="Before")
    r = client.post(
        f"/django-admin/catalogue/course/{course.id}/change/",
        {"code": "ADM1", "name": "After", "level": course.level, "description": "", "is_active": "on"},
    )
    assert r.status_code == 302, r.content[:2000]
    course.refresh_from_db()
    assert course.name == "After"
    act = latest(org)
    assert act.actor_label == "Django admin" or act.actor_id == staff.pk
    [change] = ActivityChange.objects.filter(activity=act)
    assert dict(zip(change.fields, change.row_list()[0][2], strict=True))["name"] == "After"


def test_a_block_groups_and_a_teachers_history_show_their_sessions_writes(api, org):
    group, unit = f.make_block_group(org), f.make_unit(org)
    teacher = f.make_teacher(org)
    other_group = f.make_block_group(org, code="OTHER")
    s = f.make_session(org, block_group=group, unit=unit)
    assert api.put("/api/timetables/bulk-allocate", {"sessionIds": [str(s.id)], "teacherId": str(teacher.id)}).status_code == 200
    act = latest(org)
    for record_id in (group.id, teacher.id, s.id):
        items = api.get("/api/activity", {"id": str(record_id)}).json()["items"]
        assert [i["id"] for i in items][:1] == [str(act.id)]
    assert api.get("/api/activity", {"id": str(other_group.id)}).json()["total"] == 0


def test_a_write_answers_with_its_activity_id(api, org):
    r = api.post("/api/courses", {"code": "HDR1", "name": "Header"})
    assert r.status_code == 201
    assert r["X-Activity-Id"] == str(latest(org).id)
    assert not api.get("/api/courses").has_header("X-Activity-Id")
    refused = api.post("/api/courses", {"code": "HDR1", "name": "Again"})
    assert refused.status_code == 409 and not refused.has_header("X-Activity-Id")
