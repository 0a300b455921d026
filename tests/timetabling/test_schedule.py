"""POST/DELETE /api/block-groups/{id}/schedule (docs/behaviour/generation.md §9)."""

from __future__ import annotations

from datetime import date, time
from decimal import Decimal
from itertools import pairwise

import pytest

from project.planning.models import BlockGroup, LinkedBlockGroup, LinkedBlockGroupMember
from project.timetabling.models import TimetableSession
from tests import factories as f
from tests.timetabling.conftest import TEMPLATES


def url(group):
    return f"/api/block-groups/{group.id}/schedule"


def sessions_of(group):
    return list(TimetableSession.objects.unscoped().filter(block_group=group).order_by("actual_date", "start_time"))


def teaching(group):
    return [s for s in sessions_of(group) if s.status != "cancelled"]


def test_generates_units_in_order_on_preferred_days_with_templates_and_holiday_markers(api, org, plan_group):
    group, a, b = plan_group["group"], plan_group["a"], plan_group["b"]
    f.make_holiday(org, name="Staff Day", start_date=date(2026, 2, 9))  # a Monday
    r = api.post(url(group), {"sessionTemplates": TEMPLATES, "startDate": "2026-02-02", "room": "R101", "notes": "Gen"})
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["sessionsCreated"] == 5
    assert body["hoursScheduled"] == 15
    assert body["unitsScheduled"] == 2
    assert body["holidaysSkipped"] == [{"date": "2026-02-09", "name": "Staff Day"}]
    assert body["startDate"] == "2026-02-02"
    # Last teaching day Wed 11 Feb + one month.
    assert body["endDate"] == "2026-03-11"
    group.refresh_from_db()
    assert group.end_date == date(2026, 3, 11)

    got = [(s.actual_date, s.start_time, s.end_time, s.unit_id, s.status, float(s.actual_hours)) for s in sessions_of(group)]
    assert got == [
        (date(2026, 2, 2), time(9), time(12), a.id, "scheduled", 3.0),
        (date(2026, 2, 2), time(13), time(16), a.id, "scheduled", 3.0),
        (date(2026, 2, 4), time(9), time(12), a.id, "scheduled", 3.0),  # A: 9 facilitated hours, no WIL
        (date(2026, 2, 4), time(13), time(16), b.id, "scheduled", 3.0),  # B starts in the next template
        (date(2026, 2, 9), time(9), time(12), b.id, "cancelled", 0.0),  # holiday markers
        (date(2026, 2, 9), time(13), time(16), b.id, "cancelled", 0.0),
        (date(2026, 2, 11), time(9), time(12), b.id, "scheduled", 3.0),
    ]
    for s in sessions_of(group):
        assert s.day_of_week in (1, 3) and s.day_of_week == s.actual_date.isoweekday()
        assert s.teacher_id is None and s.room == "R101"
        assert s.term == 1  # no term breaks: quarters
    markers = [s for s in sessions_of(group) if s.status == "cancelled"]
    assert all(s.notes == "Staff Day" for s in markers)
    assert [s.week_number for s in sessions_of(group)] == [1, 1, 1, 1, 2, 2, 2]
    assert teaching(group)[0].notes == "Gen"


def test_last_session_of_a_unit_ends_early(api, org):
    unit = f.make_unit(org)
    plan = f.make_study_plan(org)
    f.add_plan_unit(plan, unit, face_to_face_hours=Decimal("4"))
    group = f.make_block_group(org, preferred_days="mon")
    f.assign_plan(group, plan)
    r = api.post(url(group), {"sessionTemplates": TEMPLATES})
    assert r.status_code == 200
    got = [(s.start_time, s.end_time, float(s.actual_hours)) for s in teaching(group)]
    assert got == [(time(9), time(12), 3.0), (time(13), time(14), 1.0)]


def test_start_next_unit_in_new_week(api, org, plan_group):
    group, b = plan_group["group"], plan_group["b"]
    r = api.post(url(group), {"sessionTemplates": TEMPLATES, "startNextUnitInNewWeek": True})
    assert r.status_code == 200
    b_sessions = [s for s in teaching(group) if s.unit_id == b.id]
    # Unit A finishes Wednesday 4 Feb at 12:00; B waits for Monday 9 Feb, not Wednesday afternoon.
    assert b_sessions[0].actual_date == date(2026, 2, 9)
    assert b_sessions[0].start_time == time(9)
    assert not any(s.actual_date == date(2026, 2, 4) and s.start_time == time(13) for s in sessions_of(group))


def test_generating_again_tops_up_and_never_duplicates(api, org, plan_group):
    group, plan, b = plan_group["group"], plan_group["plan"], plan_group["b"]
    f.make_holiday(org, name="Staff Day", start_date=date(2026, 2, 9))
    assert api.post(url(group), {"sessionTemplates": TEMPLATES}).json()["sessionsCreated"] == 5
    count = len(sessions_of(group))
    again = api.post(url(group), {"sessionTemplates": TEMPLATES})
    assert again.status_code == 200
    assert again.json()["sessionsCreated"] == 0
    assert len(sessions_of(group)) == count  # neither teaching sessions nor holiday markers repeated
    assert again.json()["warnings"]
    # Three more hours for unit B: one more session, after the existing ones, no overlap.
    pu = plan.plan_units.get(unit=b)
    pu.face_to_face_hours = Decimal("9")
    pu.save()
    more = api.post(url(group), {"sessionTemplates": TEMPLATES})
    assert more.json()["sessionsCreated"] == 1
    b_hours = sum(s.actual_hours for s in teaching(group) if s.unit_id == b.id)
    assert b_hours == Decimal("9")
    _assert_no_overlap(teaching(group))


def _assert_no_overlap(rows):
    by_day = {}
    for s in rows:
        by_day.setdefault(s.actual_date, []).append(s)
    for items in by_day.values():
        items.sort(key=lambda s: s.start_time)
        for x, y in pairwise(items):
            assert x.end_time <= y.start_time, (x, y)


def test_skips_slots_where_the_group_or_the_room_is_booked(api, org, plan_group):
    group, a = plan_group["group"], plan_group["a"]
    other_unit = f.make_unit(org)
    # The group already has a class on Monday morning; another (unlinked) group holds room R1 Monday afternoon.
    f.make_session(org, block_group=group, unit=other_unit, actual_date=date(2026, 2, 2), start=time(10), end=time(11))
    stranger = f.make_block_group(org, code="BG-X")
    f.make_session(
        org, block_group=stranger, unit=other_unit, actual_date=date(2026, 2, 2), start=time(13), end=time(16), room="r1"
    )
    r = api.post(url(group), {"sessionTemplates": TEMPLATES, "room": "R1"})
    assert r.status_code == 200
    mine = [s for s in teaching(group) if s.unit_id != other_unit.id]
    assert all(s.actual_date != date(2026, 2, 2) for s in mine)  # both Monday slots skipped
    assert mine[0].actual_date == date(2026, 2, 4) and mine[0].unit_id == a.id
    assert "skipped" in " ".join(r.json()["warnings"])
    _assert_no_overlap(teaching(group))
    # No room is double-booked against the stranger.
    for s in mine:
        assert not (s.actual_date == date(2026, 2, 2) and s.start_time < time(16) and s.end_time > time(13))


def test_a_linked_groups_room_booking_does_not_block(api, org, plan_group):
    group = plan_group["group"]
    partner = f.make_block_group(org, code="BG-P")
    link = LinkedBlockGroup.objects.create(organization=org, name="Co-delivered")
    for g in (group, partner):
        LinkedBlockGroupMember.objects.create(organization=org, linked_group=link, block_group=g)
    unit = f.make_unit(org)
    f.make_session(org, block_group=partner, unit=unit, actual_date=date(2026, 2, 2), start=time(9), end=time(12), room="R1")
    r = api.post(url(group), {"sessionTemplates": TEMPLATES, "room": "R1"})
    assert r.status_code == 200
    assert teaching(group)[0].actual_date == date(2026, 2, 2) and teaching(group)[0].start_time == time(9)


@pytest.mark.parametrize("status", ["consolidated", "completed"])
def test_refuses_groups_that_are_not_planned_or_active(api, org, plan_group, status):
    group = plan_group["group"]
    BlockGroup.objects.filter(pk=group.pk).update(status=status)
    r = api.post(url(group), {"sessionTemplates": TEMPLATES})
    assert r.status_code == 400
    assert r.json()["message"] == (
        f"Cannot schedule {status} block groups. Only Planned and Active block groups can be scheduled."
    )
    assert sessions_of(group) == []
    assert api.delete(url(group)).status_code == 400


def test_planned_groups_can_be_scheduled(api, org, plan_group):
    group = plan_group["group"]
    BlockGroup.objects.filter(pk=group.pk).update(status="planned")
    assert api.post(url(group), {"sessionTemplates": TEMPLATES}).status_code == 200


def test_needs_a_study_plan_and_a_preferred_day(api, org):
    group = f.make_block_group(org)
    r = api.post(url(group), {"sessionTemplates": TEMPLATES})
    assert r.status_code == 400
    assert r.json()["message"] == "Please assign a study plan before scheduling."
    plan = f.make_study_plan(org)
    f.add_plan_unit(plan, f.make_unit(org))
    f.assign_plan(group, plan)
    BlockGroup.objects.filter(pk=group.pk).update(preferred_days="whenever")
    r = api.post(url(group), {"sessionTemplates": TEMPLATES})
    assert r.status_code == 400
    assert "preferred days" in r.json()["message"]
    assert sessions_of(group) == []


def test_template_validation_messages(api, plan_group):
    group = plan_group["group"]
    r = api.post(url(group), {"sessionTemplates": []})
    assert r.status_code == 400
    assert r.json()["errors"] == [{"path": ["sessionTemplates"], "message": "At least one session template is required"}]
    r = api.post(url(group), {"sessionTemplates": [{"startTime": "9:00", "endTime": "12:00:00", "duration": 0}]})
    assert r.status_code == 400
    errors = {tuple(e["path"]): e["message"] for e in r.json()["errors"]}
    assert errors[("sessionTemplates", 0, "startTime")] == "Invalid time format, use HH:MM:SS"
    assert errors[("sessionTemplates", 0, "duration")] == "Duration must be positive"
    assert api.post(url(group), {}).json()["errors"][0]["message"] == "At least one session template is required"


@pytest.mark.parametrize(
    ("templates", "path", "message"),
    [
        (
            [
                {"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3},
                {"startTime": "11:00:00", "endTime": "14:00:00", "duration": 3},
            ],
            ["sessionTemplates"],
            "Template 1 (09:00-12:00) and template 2 (11:00-14:00) overlap",
        ),
        (
            [
                {"startTime": "13:00:00", "endTime": "16:00:00", "duration": 3},
                {"startTime": "09:00:00", "endTime": "17:00:00", "duration": 8},
            ],
            ["sessionTemplates"],
            "Template 1 (13:00-16:00) and template 2 (09:00-17:00) overlap",
        ),
        (
            [
                {"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3},
                {"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3},
            ],
            ["sessionTemplates"],
            "Template 1 (09:00-12:00) and template 2 (09:00-12:00) overlap",
        ),
        (
            [{"startTime": "09:00:00", "endTime": "09:00:00", "duration": 1}],
            ["sessionTemplates", 0, "endTime"],
            "End time must be after start time",
        ),
        (
            [{"startTime": "12:00:00", "endTime": "09:00:00", "duration": 1}],
            ["sessionTemplates", 0, "endTime"],
            "End time must be after start time",
        ),
    ],
)
def test_overlapping_zero_length_and_backwards_templates_are_refused_before_anything_is_made(
    api, plan_group, templates, path, message
):
    group = plan_group["group"]
    r = api.post(url(group), {"sessionTemplates": templates, "startDate": "2026-02-02"})
    assert r.status_code == 400, r.content
    assert r.json()["message"] == "Validation failed"
    assert {"path": path, "message": message} in r.json()["errors"]
    assert sessions_of(group) == []


def test_touching_templates_are_fine(api, plan_group):
    group = plan_group["group"]
    touching = [
        {"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3},
        {"startTime": "12:00:00", "endTime": "15:00:00", "duration": 3},
    ]
    assert api.post(url(group), {"sessionTemplates": touching, "startDate": "2026-02-02"}).status_code == 200


def test_more_than_three_years_is_refused_and_nothing_written(api, org):
    unit = f.make_unit(org, nominal_hours=2000)
    plan = f.make_study_plan(org)
    f.add_plan_unit(plan, unit, face_to_face_hours=Decimal("2000"))
    group = f.make_block_group(org, preferred_days="Monday")
    f.assign_plan(group, plan)
    r = api.post(url(group), {"sessionTemplates": [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}]})
    assert r.status_code == 400
    assert "3 years" in r.json()["message"]
    assert sessions_of(group) == []
    group.refresh_from_db()
    assert group.end_date is None


def test_one_event_for_a_schedule_and_one_for_clearing(api, org, plan_group, captured_events, django_capture_on_commit_callbacks):
    group = plan_group["group"]
    with django_capture_on_commit_callbacks(execute=True):
        api.post(url(group), {"sessionTemplates": TEMPLATES})
    events = [m["event"] for _g, m in captured_events]
    assert [(e["entity"], e["action"], e["ids"]) for e in events] == [("timetable_session", "scheduled", [str(group.id)])]
    # What the generation created, summed up (ADR 0033): every date once, no teacher, the rooms as written.
    created = sessions_of(group)
    assert events[0]["schedule"] == {
        "dates": sorted({s.actual_date.isoformat() for s in created}),
        "times": [
            {"start": a.isoformat(), "end": b.isoformat()} for a, b in sorted({(s.start_time, s.end_time) for s in created})
        ],
        "teacherIds": [],
        "roomIds": sorted({str(s.room_record_id) for s in created if s.room_record_id}),
        "rooms": sorted({s.room for s in created if s.room}),
    }
    assert len(events[0]["schedule"]["dates"]) >= 2
    done = teaching(group)[0]
    TimetableSession.objects.unscoped().filter(pk=done.pk).update(status="completed")
    with django_capture_on_commit_callbacks(execute=True):
        r = api.delete(url(group))
    assert r.status_code == 200
    assert r.json()["sessionsDeleted"] == 4
    assert [s.pk for s in sessions_of(group)] == [done.pk]  # completed sessions stay
    assert [m["event"]["action"] for _g, m in captured_events] == ["scheduled", "schedule_cleared"]


def test_other_organizations_group_is_not_found(api, other_org):
    theirs = f.make_block_group(other_org)
    r = api.post(url(theirs), {"sessionTemplates": TEMPLATES})
    assert r.status_code == 404
    assert r.json()["message"] == "Block group not found"
    assert api.delete(url(theirs)).status_code == 404
