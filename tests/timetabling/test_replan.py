"""Re-planning around a late change (ADR 0015): ``POST /api/replan/propose`` and ``/apply``.

A holiday added after scheduling moves exactly the sessions it hits to the earliest free slot of their
block group (preferred days, same hours, before the next unit starts), and nothing else; hours per unit
are unchanged; a session with no such slot is listed with the reason. A teacher's leave gives the hit
sessions another teacher, the one already teaching the unit to the group first. Apply writes all of it
in one change event and one undoable activity, refuses a stale proposal (412) and another
organization's change (404), and a randomized organization never gets a hard conflict from a proposal.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import date, time, timedelta
from decimal import Decimal

import pytest

from project.history.models import Activity
from project.timetabling import conflicts as cf
from project.timetabling.models import TimetableSession
from tests import factories as f

TEMPLATE = [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}]


def _group(org, api, *, new_week: bool, code="RP-G"):
    """Mon/Wed group from Monday 2 Feb 2026, units A (3 sessions) then B (2), 09:00-12:00."""
    a = f.make_unit(org, code=f"{code}-A", name="Unit A", nominal_hours=9)
    b = f.make_unit(org, code=f"{code}-B", name="Unit B", nominal_hours=6)
    plan = f.make_study_plan(org, name=f"Plan {code}")
    f.add_plan_unit(plan, a, face_to_face_hours=Decimal("9"))
    f.add_plan_unit(plan, b, face_to_face_hours=Decimal("6"))
    group = f.make_block_group(org, code=code, start_date=date(2026, 2, 2), preferred_days="Monday, Wednesday")
    f.assign_plan(group, plan)
    r = api.post(f"/api/block-groups/{group.pk}/schedule", {"sessionTemplates": TEMPLATE, "startNextUnitInNewWeek": new_week})
    assert r.status_code == 200, r.json()
    group.refresh_from_db()
    return group, a, b


def _timetable(group) -> list[tuple]:
    return [
        (s.actual_date, s.unit_id, s.teacher_id)
        for s in TimetableSession.objects.unscoped().filter(block_group=group).exclude(status="cancelled").order_by("actual_date")
    ]


def _holiday(api, day: str, name="Snap closure") -> dict:
    r = api.post("/api/holidays", {"name": name, "startDate": day, "endDate": day})
    assert r.status_code == 201
    return r.json()


def _apply(api, body: dict, proposal: dict, option: str | None = None):
    """Apply ``option`` of a stored proposal (default: its preselected one)."""
    chosen = {"option": option} if option else {}
    return api.post("/api/replan/apply", {"proposalId": proposal["id"], "version": proposal["version"], **chosen})


def _option(proposal: dict, key: str) -> dict:
    return next(o for o in proposal["options"] if o["key"] == key)


def test_a_late_holiday_offers_make_up_and_shift_and_applies_the_chosen_one(api, org):
    group, a, b = _group(org, api, new_week=True)
    before = _timetable(group)
    assert [d for d, *_ in before] == [date(2026, 2, 2), date(2026, 2, 4), date(2026, 2, 9), date(2026, 2, 16), date(2026, 2, 18)]
    holiday = _holiday(api, "2026-02-04")
    body = {"holidayId": holiday["id"]}
    proposal = api.post("/api/replan/propose", body).json()
    # Make-up: the nearest free weekday of the same week (Thu 5 Feb; Tue 3 Feb is as near, the later wins).
    make_up = _option(proposal, "makeUp")
    assert make_up["figures"] == {
        "sessionsHit": 1,
        "sessionsMoved": 1,
        "hoursMovedToOtherWeek": 0,
        "teachersChanged": 0,
        "unresolved": 0,
        "endDatesExtended": [],
    }
    [change] = make_up["changes"]
    assert change["from"]["actualDate"] == "2026-02-04" and change["to"]["actualDate"] == "2026-02-05"
    assert change["reason"] == "Falls on Snap closure" and change["unitCode"] == "RP-G-A" and change["actualHours"] == 3
    # Shift: the next free preferred day before unit B, in another week.
    shift = _option(proposal, "shift")
    assert [(c["from"]["actualDate"], c["to"]["actualDate"]) for c in shift["changes"]] == [("2026-02-04", "2026-02-11")]
    assert shift["figures"]["hoursMovedToOtherWeek"] == 3
    assert proposal["preselected"] == "makeUp" and proposal["changes"] == make_up["changes"]
    assert _timetable(group) == before  # a proposal writes nothing

    r = _apply(api, body, proposal, "shift")
    assert r.status_code == 200, r.json()
    assert r.json()["option"] == "shift"
    after = _timetable(group)
    assert [d for d, *_ in after] == [date(2026, 2, 2), date(2026, 2, 9), date(2026, 2, 11), date(2026, 2, 16), date(2026, 2, 18)]
    # Hours per unit unchanged, unit order kept, nothing else moved.
    assert Counter(u for _, u, _ in after) == Counter(u for _, u, _ in before)
    assert max(d for d, u, _ in after if u == a.pk) < min(d for d, u, _ in after if u == b.pk)
    moved = TimetableSession.objects.unscoped().get(pk=change["sessionId"])
    assert (moved.day_of_week, moved.week_number, moved.start_time) == (3, 2, time(9))
    assert api.get("/api/timetables/conflicts", {"start": "2026-02-01", "end": "2026-03-31"}).json() == []
    # One activity, undone as one step.
    activity = Activity.objects.filter(organization=org, action="replanned").get()
    assert api.post(f"/api/activity/{activity.pk}/undo").status_code == 201
    assert _timetable(group) == before


def test_the_last_unit_moves_past_the_end_and_the_end_date_follows(api, org):
    group, a, b = _group(org, api, new_week=False)
    end = group.end_date
    assert end == date(2026, 3, 16)  # last teaching day Mon 16 Feb + 1 month
    f.make_session(org, block_group=group, unit=b, actual_date=date(2026, 3, 16))  # a session on the end date
    _holiday(api, "2026-03-16")
    proposal = api.post("/api/replan/propose", {"start": "2026-03-16", "end": "2026-03-16"}).json()
    [change] = proposal["changes"]
    assert change["to"]["actualDate"] == "2026-03-18"
    assert proposal["figures"]["endDatesExtended"] == [
        {"blockGroupId": str(group.pk), "code": "RP-G", "from": "2026-03-16", "to": "2026-04-18"}
    ]
    assert _apply(api, {"start": "2026-03-16", "end": "2026-03-16"}, proposal).status_code == 200
    group.refresh_from_db()
    assert group.end_date == date(2026, 4, 18)


def test_a_packed_timetable_reflows_keeping_the_unit_order(api, org):
    group, a, b = _group(org, api, new_week=False)
    # A: 2, 4, 9 Feb; B: 11, 16 Feb, no free day between. A closure on the 4th: the fewest moves that keep
    # the unit order are two (the greedy re-flow shifts all four later sessions one slot each): the A
    # session takes B's first date, the 11th, and that B session the free Wednesday after B's last.
    before = _timetable(group)
    body = {"start": "2026-02-04", "end": "2026-02-04"}
    proposal = api.post("/api/replan/propose", body).json()
    shift = _option(proposal, "shift")
    assert shift["unresolved"] == []
    moves = [(c["from"]["actualDate"], c["to"]["actualDate"], c["unitCode"], c["reason"]) for c in shift["changes"]]
    assert moves == [
        ("2026-02-04", "2026-02-11", "RP-G-A", "Falls on Closure"),
        ("2026-02-11", "2026-02-18", "RP-G-B", "Moved later to make room (the unit order is kept)"),
    ]
    assert shift["figures"]["sessionsMoved"] == 2
    # Make-up moves one session (to Thu 5 Feb), so it is the one the review starts on.
    assert proposal["preselected"] == "makeUp" and proposal["figures"]["sessionsMoved"] == 1
    assert _apply(api, body, proposal, "shift").status_code == 200
    after = _timetable(group)
    assert [d for d, *_ in after] == [date(2026, 2, 2), date(2026, 2, 9), date(2026, 2, 11), date(2026, 2, 16), date(2026, 2, 18)]
    assert [u for _, u, _ in after] == [u for _, u, _ in before]  # same units in the same order
    assert api.get("/api/timetables/conflicts", {"start": "2026-02-01", "end": "2026-03-31"}).json() == []


def test_sessions_competing_for_a_room_get_the_fewest_moves(api, org):
    """In date order, X's session of Tue 3 Feb would take the lab's first free morning, Mon 9 Feb, the only
    date Y's session of Wed 4 Feb has before Y's next unit, and Y would then push its next unit's
    sessions along (four moves). The model gives X Tue 10 Feb instead: two sessions move, nothing else."""
    a, b = f.make_unit(org, code="RP-CA"), f.make_unit(org, code="RP-CB")
    x = f.make_block_group(org, code="RP-X", preferred_days="Mon Tue Wed Thu Fri")
    y = f.make_block_group(org, code="RP-Y", preferred_days="Monday, Wednesday")
    for day, unit in ((3, a), (5, a), (6, a), (20, b)):
        f.make_session(org, block_group=x, unit=unit, actual_date=date(2026, 2, day), room="LAB-1")
    for day, unit in ((2, a), (4, a), (11, b), (16, b)):
        f.make_session(org, block_group=y, unit=unit, actual_date=date(2026, 2, day), room="lab-1 ")
    body = {"start": "2026-02-03", "end": "2026-02-04"}
    proposal = api.post("/api/replan/propose", body).json()
    shift = _option(proposal, "shift")
    moves = sorted((c["blockGroupCode"], c["from"]["actualDate"], c["to"]["actualDate"]) for c in shift["changes"])
    assert moves == [("RP-X", "2026-02-03", "2026-02-10"), ("RP-Y", "2026-02-04", "2026-02-09")]
    assert shift["unresolved"] == [] and shift["figures"]["sessionsMoved"] == 2
    assert _apply(api, body, proposal, "shift").status_code == 200
    assert not cf.hard(cf.scan(org, date(2026, 2, 1), date(2026, 3, 31)))


def test_a_session_with_no_date_left_is_reported(api, org):
    group, a, b = _group(org, api, new_week=False)
    TimetableSession.objects.unscoped().filter(block_group=group).update(room="LAB-1")
    own = set(TimetableSession.objects.unscoped().filter(block_group=group).values_list("actual_date", flat=True))
    other = f.make_block_group(org, code="RP-OTHER", start_date=date(2026, 2, 2), preferred_days="Mon Tue Wed Thu Fri")
    # The lab is taken every other weekday morning from the 3rd for five months by another group.
    day = date(2026, 2, 3)
    while day <= date(2026, 6, 30):
        if day.isoweekday() <= 5 and day not in own:
            f.make_session(org, block_group=other, unit=a, actual_date=day, room="LAB-1")
        day += timedelta(days=1)
    proposal = api.post("/api/replan/propose", {"start": "2026-02-04", "end": "2026-02-04"}).json()
    shift, make_up = _option(proposal, "shift"), _option(proposal, "makeUp")
    assert shift["changes"] == [] and make_up["changes"] == []
    [unresolved] = shift["unresolved"]
    assert unresolved["actualDate"] == "2026-02-04" and unresolved["unitCode"] == "RP-G-A"
    assert unresolved["reason"] == "No free slot on the group's preferred days before the next unit starts on 2026-02-11"
    assert [u["reason"] for u in make_up["unresolved"]] == [
        "No free slot for a make-up class: the group, its teacher or its room is busy at 09:00 on every open weekday until 2026-06-16"
    ]


def test_a_session_the_shift_cannot_place_is_made_up_instead(api, org):
    group, a, b = _group(org, api, new_week=False)
    TimetableSession.objects.unscoped().filter(block_group=group).update(room="LAB-1")
    other = f.make_block_group(org, code="RP-OTHER", start_date=date(2026, 2, 2), preferred_days="Monday, Wednesday")
    day = date(2026, 2, 5)  # the lab is taken every Monday and Wednesday morning after the 4th
    while day <= date(2026, 6, 30):
        if day.isoweekday() in (1, 3):
            f.make_session(org, block_group=other, unit=a, actual_date=day, room="LAB-1")
        day += timedelta(days=1)
    proposal = api.post("/api/replan/propose", {"start": "2026-02-04", "end": "2026-02-04"}).json()
    [change] = _option(proposal, "shift")["changes"]
    assert change["to"]["actualDate"] == "2026-02-05"
    assert change["reason"] == "Falls on Closure; no room to shift, made up instead"
    assert _option(proposal, "shift")["unresolved"] == []


def test_an_open_ended_packed_group_moves_nothing_past_what_was_read(api, org):
    """A group with no end date taught every weekday from 4 Mar to 30 Jun: a closure on 4 Mar finds no
    free date within three months (4 Jun, the last date the proposal reads), so the session is unresolved;
    no session is shifted onto a date past that, where the group is busy too."""
    a = f.make_unit(org, code="RP-OPEN")
    group = f.make_block_group(org, code="RP-OPEN", preferred_days="Mon Tue Wed Thu Fri", end_date=None)
    day = date(2026, 3, 4)
    while day <= date(2026, 6, 30):
        if day.isoweekday() <= 5:
            f.make_session(org, block_group=group, unit=a, actual_date=day)
        day += timedelta(days=1)
    proposal = api.post("/api/replan/propose", {"start": "2026-03-04", "end": "2026-03-04"}).json()
    # No date to shift to; a make-up class may go earlier in its week: Tue 3 Mar, before the group's first
    # class, is free. Either way that one session moves, nothing else.
    for key in ("shift", "makeUp"):
        option = _option(proposal, key)
        assert [c["to"]["actualDate"] for c in option["changes"]] == ["2026-03-03"] and option["unresolved"] == []


def test_leave_gives_the_sessions_the_teacher_already_teaching_the_unit(api, org):
    group, a, b = _group(org, api, new_week=True)
    kim, lee, sam = (f.make_teacher(org, first_name=n, last_name="T", availability="both") for n in ("Kim", "Lee", "Sam"))
    for t in (kim, lee, sam):
        f.qualify(t, a)
    rows = TimetableSession.objects.unscoped().filter(block_group=group, unit=a).order_by("actual_date")
    TimetableSession.objects.unscoped().filter(pk__in=[rows[0].pk, rows[1].pk]).update(teacher=kim)
    TimetableSession.objects.unscoped().filter(pk=rows[2].pk).update(teacher=lee)
    leave = api.post(f"/api/teachers/{kim.pk}/leave", {"startDate": "2026-02-04", "endDate": "2026-02-04"}).json()
    body = {"leaveId": leave["id"]}
    proposal = api.post("/api/replan/propose", body).json()
    [change] = proposal["changes"]
    assert change["sessionId"] == str(rows[1].pk) and change["reason"] == "Kim T is on leave"
    assert change["from"]["teacherName"] == "Kim T" and change["to"]["teacherName"] == "Lee T"  # continuity
    assert change["to"]["actualDate"] == change["from"]["actualDate"] == "2026-02-04"
    assert proposal["figures"]["teachersChanged"] == 1 and proposal["figures"]["sessionsMoved"] == 0
    assert _apply(api, body, proposal).status_code == 200
    assert TimetableSession.objects.unscoped().get(pk=rows[1].pk).teacher_id == lee.pk
    assert [c["type"] for c in api.get("/api/timetables/conflicts", {"start": "2026-02-01", "end": "2026-02-28"}).json()] == []


def test_leave_nobody_can_cover_is_reported(api, org):
    group, a, b = _group(org, api, new_week=True)
    kim = f.make_teacher(org, first_name="Kim", last_name="T")
    f.qualify(kim, a)
    TimetableSession.objects.unscoped().filter(block_group=group, unit=a).update(teacher=kim)
    proposal = api.post("/api/replan/propose", {"teacherId": str(kim.pk), "start": "2026-02-04", "end": "2026-02-04"}).json()
    assert proposal["changes"] == []
    assert [u["reason"] for u in proposal["unresolved"]] == ["Every teacher qualified for RP-G-A is on leave on 2026-02-04"]


def test_a_stale_proposal_is_412_and_writes_nothing(api, org):
    group, a, b = _group(org, api, new_week=True)
    holiday = _holiday(api, "2026-02-04")
    proposal = api.post("/api/replan/propose", {"holidayId": holiday["id"]}).json()
    other = TimetableSession.objects.unscoped().filter(block_group=group).order_by("actual_date").last()
    TimetableSession.objects.unscoped().filter(pk=other.pk).update(
        notes="edited meanwhile", updated_at=other.updated_at + timedelta(seconds=5)
    )
    before = _timetable(group)
    r = _apply(api, {"holidayId": holiday["id"]}, proposal)
    assert r.status_code == 412 and r.json()["message"].startswith("The timetable changed since this proposal was made")
    assert _timetable(group) == before
    assert not Activity.objects.filter(organization=org, action="replanned").exists()


def test_changes_outside_the_hit_sessions_are_refused(api, org):
    group, a, b = _group(org, api, new_week=True)
    stranger = f.make_session(org, block_group=f.make_block_group(org, code="RP-ELSE"), unit=a, actual_date=date(2026, 2, 16))
    holiday = _holiday(api, "2026-02-04")
    proposal = api.post("/api/replan/propose", {"holidayId": holiday["id"]}).json()
    untouched = TimetableSession.objects.unscoped().filter(block_group=group, actual_date=date(2026, 2, 16)).get()
    for move in (
        {"sessionId": str(untouched.pk), "actualDate": "2026-02-10"},  # earlier: not a re-flow
        {"sessionId": str(stranger.pk), "actualDate": "2026-02-25"},
    ):  # a group the change does not hit
        r = api.post("/api/replan/apply", {"holidayId": holiday["id"], "version": proposal["version"], "changes": [move]})
        assert r.status_code == 400, move
    assert TimetableSession.objects.unscoped().get(pk=untouched.pk).actual_date == date(2026, 2, 16)
    assert TimetableSession.objects.unscoped().get(pk=stranger.pk).actual_date == date(2026, 2, 16)


def test_another_organizations_change_is_404(api, other_api, org, other_org):
    theirs = f.make_holiday(other_org)
    assert api.post("/api/replan/propose", {"holidayId": str(theirs.pk)}).status_code == 404
    assert api.post("/api/replan/apply", {"holidayId": str(theirs.pk), "version": "x", "changes": []}).status_code == 404


@pytest.mark.parametrize("seed,open_ended", [(3, False), (4, False), (5, False), (6, False), (7, True), (8, True)])
def test_no_proposal_holds_a_hard_conflict(api, org, seed, open_ended):
    """Random groups sharing rooms and teachers; a closure on the busiest day; the applied proposal adds
    no hard conflict (checked by the conflict engine over everything stored). Open-ended groups (no end
    date) have sessions months on, past the dates a proposal reads for them."""
    rng = random.Random(seed)
    units = [f.make_unit(org, code=f"R{seed}U{i}", name=f"Unit {i}") for i in range(3)]
    teachers = [
        f.make_teacher(org, first_name=f"T{i}", last_name="R", availability="both", max_weekly_hours=40) for i in range(4)
    ]
    groups = [
        f.make_block_group(
            org,
            code=f"R{seed}G{i}",
            start_date=date(2026, 2, 2),
            preferred_days=rng.choice(["Monday, Wednesday", "Tuesday, Thursday", "Mon Tue Wed Thu Fri"]),
            end_date=None if open_ended else date(2026, 6, 30),
        )
        for i in range(6)
    ]
    slots = [(time(9), time(12)), (time(13), time(16))]
    busiest = date(2026, 3, 4)
    taken: set = set()  # (date, start, "t"/"r"/"g", key): nothing booked twice
    for g in groups:
        later = [1, 2, 5, 7, 8, 9, 12, 14, 16] + ([*range(17, 40), *range(85, 100)] if open_ended else [])
        days = [busiest] * 2 + [busiest + timedelta(days=rng.choice(later)) for _ in range(6 + 24 * open_ended)]
        for k, day in enumerate(days):
            start, end = rng.choice(slots)
            teacher = rng.choice(teachers + [None])
            room = rng.choice(["CBD-1", "CBD-2", ""])
            keys = (
                {(day, start, "g", g.pk)}
                | ({(day, start, "t", teacher.pk)} if teacher else set())
                | ({(day, start, "r", room)} if room else set())
            )
            if keys & taken:
                continue
            taken |= keys
            f.make_session(
                org, block_group=g, unit=units[min(2, k // 3)], teacher=teacher, room=room, actual_date=day, start=start, end=end
            )
    assert not cf.hard(cf.scan(org, date(2026, 2, 1), date(2026, 8, 31)))
    body = {"start": busiest.isoformat(), "end": busiest.isoformat()}
    proposal = api.post("/api/replan/propose", body).json()
    assert proposal["figures"]["sessionsHit"] >= 3 and len(proposal["changes"]) >= 2
    r = _apply(api, body, proposal)
    assert r.status_code == 200, r.json()
    assert not cf.hard(cf.scan(org, date(2026, 2, 1), date(2026, 8, 31)))
    assert (
        not TimetableSession.objects.unscoped()
        .filter(pk__in=[c["sessionId"] for c in proposal["changes"]], actual_date=busiest)
        .exists()
    )
