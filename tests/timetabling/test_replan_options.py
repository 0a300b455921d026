"""Make-up or shift, and what generation promised (ADR 0015).

A closed day is fixed two ways: make-up (only the hit sessions move, each to its nearest free slot, its
own week first) and shift (later sessions of the unit move up one slot each, unit order kept); the
proposal offers both with their figures and preselects the one that moves fewest sessions. The block
group keeps its generation's options (one unit a week, session templates, room type), so every re-plan
and a regeneration honour them. Property: over random small organizations, no applied option ever holds
a hard conflict, make-up moves only hit sessions, and every session an option leaves unresolved has no
valid slot (checked by brute force over every date, not with the proposer's code).
"""

from __future__ import annotations

import json
import random
from datetime import date, time, timedelta
from decimal import Decimal

from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from project.planning.days import parse_preferred_days
from project.planning.models import BlockGroup
from project.timetabling import conflicts as cf
from project.timetabling.calendar import week_start
from project.timetabling.models import TimetableSession
from project.timetabling.replan import services as replan
from tests import factories as f
from tests.timetabling.test_replan import _holiday, _option

TWO_A_DAY = [
    {"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3},
    {"startTime": "13:00:00", "endTime": "16:00:00", "duration": 3},
]


def _new_week_group(org, api, code="NW"):
    """Mon/Wed, two classes a day from Mon 2 Feb 2026, unit A (12 h) then B (12 h) in a new week."""
    a = f.make_unit(org, code=f"{code}-A", nominal_hours=12)
    b = f.make_unit(org, code=f"{code}-B", nominal_hours=12)
    plan = f.make_study_plan(org, name=f"Plan {code}")
    f.add_plan_unit(plan, a, face_to_face_hours=Decimal("12"))
    f.add_plan_unit(plan, b, face_to_face_hours=Decimal("12"))
    group = f.make_block_group(org, code=code, start_date=date(2026, 2, 2), preferred_days="Monday, Wednesday")
    f.assign_plan(group, plan)
    r = api.post(f"/api/block-groups/{group.pk}/schedule", {"sessionTemplates": TWO_A_DAY, "startNextUnitInNewWeek": True})
    assert r.status_code == 200, r.json()
    group.refresh_from_db()
    return group, a, b


def _rows(group) -> list[tuple]:
    return list(
        TimetableSession.objects.unscoped()
        .filter(block_group=group)
        .exclude(status="cancelled")
        .order_by("actual_date", "start_time")
        .values_list("actual_date", "start_time", "unit_id")
    )


def _units_start_in_new_weeks(rows: list[tuple], a, b) -> bool:
    return max(week_start(d) for d, _s, u in rows if u == a.pk) < min(week_start(d) for d, _s, u in rows if u == b.pk)


def test_start_next_unit_in_new_week_is_kept_after_a_holiday(api, org):
    group, a, b = _new_week_group(org, api)
    assert group.start_next_unit_in_new_week is True
    assert json.loads(group.session_templates) == [
        {"startTime": "09:00:00", "endTime": "12:00:00", "duration": "3"},
        {"startTime": "13:00:00", "endTime": "16:00:00", "duration": "3"},
    ]
    before = _rows(group)
    assert [(d, s) for d, s, _u in before][:4] == [
        (date(2026, 2, 2), time(9)),
        (date(2026, 2, 2), time(13)),
        (date(2026, 2, 4), time(9)),
        (date(2026, 2, 4), time(13)),
    ]
    assert _units_start_in_new_weeks(before, a, b)
    holiday = _holiday(api, "2026-02-04")  # week 1's Wednesday: unit A's last two classes
    proposal = api.post("/api/replan/propose", {"holidayId": holiday["id"]}).json()
    # Shift cannot put A's classes into week 2 (B's week) nor move B into A's: they stay unresolved.
    shift = _option(proposal, "shift")
    moved = {c["sessionId"]: date.fromisoformat(c["to"]["actualDate"]) for c in shift["changes"]}
    ids = list(
        TimetableSession.objects.unscoped()
        .filter(block_group=group)
        .exclude(status="cancelled")
        .order_by("actual_date", "start_time")
        .values_list("id", flat=True)
    )
    shifted = [(moved.get(str(i), d), s, u) for i, (d, s, u) in zip(ids, before, strict=True)]
    assert _units_start_in_new_weeks(shifted, a, b)
    # Make-up keeps them in week 1, on Thursday (as near as Tuesday; the later day wins).
    make_up = _option(proposal, "makeUp")
    assert sorted((c["to"]["actualDate"], c["to"]["startTime"]) for c in make_up["changes"]) == [
        ("2026-02-05", "09:00:00"),
        ("2026-02-05", "13:00:00"),
    ]
    assert proposal["preselected"] == "makeUp"
    r = api.post("/api/replan/apply", {"proposalId": proposal["id"], "version": proposal["version"]})
    assert r.status_code == 200, r.json()
    after = _rows(group)
    assert _units_start_in_new_weeks(after, a, b)
    assert [x for x in after if x[0] >= date(2026, 2, 9)] == [x for x in before if x[0] >= date(2026, 2, 9)]  # nothing else moved


def test_a_regeneration_uses_the_stored_options(api, org):
    group, a, b = _new_week_group(org, api)
    before = _rows(group)
    assert api.delete(f"/api/block-groups/{group.pk}/schedule").status_code == 200
    r = api.post(f"/api/block-groups/{group.pk}/schedule", {})  # no templates, no flag: the stored ones
    assert r.status_code == 200, r.json()
    assert _rows(group) == before
    fresh = f.make_block_group(org, code="NEVER", start_date=date(2026, 2, 2), preferred_days="Monday")
    r = api.post(f"/api/block-groups/{fresh.pk}/schedule", {})
    assert r.status_code == 400 and r.json()["errors"][0]["message"] == "At least one session template is required"


def test_make_up_moves_exactly_the_hit_sessions_when_their_week_has_a_free_slot(api, org):
    """Two groups hit on Wednesday 4 Feb (three sessions); each week has a free weekday for each: make-up
    moves those three sessions within their week and nothing else; shift moves more."""
    a, b = f.make_unit(org, code="MU-A"), f.make_unit(org, code="MU-B")
    x = f.make_block_group(org, code="MU-X", preferred_days="Mon Tue Wed", end_date=date(2026, 4, 30))
    y = f.make_block_group(org, code="MU-Y", preferred_days="Monday, Wednesday, Friday", end_date=date(2026, 4, 30))
    teacher = f.make_teacher(org, first_name="Pat", last_name="M")
    for week in range(4):
        monday = date(2026, 2, 2) + timedelta(weeks=week)
        for offset in (0, 1, 2):  # X: Mon to Wed, two classes a day, the lab, Pat
            for start, end in ((time(9), time(12)), (time(13), time(16))):
                f.make_session(
                    org,
                    block_group=x,
                    unit=a if week < 2 else b,
                    actual_date=monday + timedelta(days=offset),
                    start=start,
                    end=end,
                    room="LAB",
                    teacher=teacher,
                )
        for offset in (0, 2, 4):  # Y: Mon, Wed, Fri mornings, the same lab in the afternoon
            f.make_session(
                org,
                block_group=y,
                unit=a if week < 2 else b,
                actual_date=monday + timedelta(days=offset),
                start=time(13),
                end=time(16),
                room="LAB-2",
            )
    before = {s.pk: (s.actual_date, s.start_time) for s in TimetableSession.objects.unscoped().filter(organization=org)}
    proposal = api.post("/api/replan/propose", {"start": "2026-02-04", "end": "2026-02-04"}).json()
    make_up = _option(proposal, "makeUp")
    hit = {s.pk for s in TimetableSession.objects.unscoped().filter(organization=org, actual_date=date(2026, 2, 4))}
    assert len(hit) == 3 and make_up["unresolved"] == []
    assert {c["sessionId"] for c in make_up["changes"]} == {str(i) for i in hit}
    assert all(week_start(date.fromisoformat(c["to"]["actualDate"])) == date(2026, 2, 2) for c in make_up["changes"])
    assert make_up["figures"]["sessionsMoved"] == 3 and make_up["figures"]["hoursMovedToOtherWeek"] == 0
    assert proposal["preselected"] == "makeUp"
    r = api.post("/api/replan/apply", {"proposalId": proposal["id"], "version": proposal["version"], "option": "makeUp"})
    assert r.status_code == 200, r.json()
    after = {s.pk: (s.actual_date, s.start_time) for s in TimetableSession.objects.unscoped().filter(organization=org)}
    assert {k for k in before if before[k] != after[k]} == hit
    assert all(after[k][1] == before[k][1] for k in hit)  # same times
    assert not cf.hard(cf.scan(org, date(2026, 2, 1), date(2026, 3, 31)))


# --------------------------------------------------------------------------------------------- property

MONDAY = date(2026, 3, 2)
SLOTS = [(time(9), time(12)), (time(13), time(16))]
DAYSETS = ["Monday, Wednesday", "Tuesday, Thursday", "Mon Tue Wed Thu Fri", "Mon Wed Fri", "Monday"]


def _build(org, seed: int) -> date:
    """A random small organization from ``seed``: 1-3 groups with 1-3 units in order over four weeks,
    sharing 0-2 teachers and 0-2 rooms, no clash; maybe a holiday and a teacher's leave. Answers the day
    to close (one with classes)."""
    rng = random.Random(seed)
    teachers = [f.make_teacher(org, first_name=f"T{i}", last_name=f"S{seed}") for i in range(rng.randint(0, 2))]
    rooms = ["", *[f"R{i}" for i in range(rng.randint(0, 2))]]
    taken: set = set()
    hol = MONDAY + timedelta(days=rng.choice([9, 16, 23])) if rng.random() < 0.5 else None
    if hol:
        f.make_holiday(org, name="Random holiday", start_date=hol, end_date=hol)
    used: list[date] = []
    for g in range(rng.randint(1, 3)):
        days = sorted(parse_preferred_days(rng.choice(DAYSETS)))
        group = f.make_block_group(
            org,
            code=f"P{seed}G{g}",
            start_date=MONDAY,
            preferred_days=",".join(str(d) for d in days),
            end_date=MONDAY + timedelta(weeks=rng.randint(3, 6)),
            start_next_unit_in_new_week=rng.random() < 0.4,
        )
        units = [f.make_unit(org, code=f"P{seed}G{g}U{u}") for u in range(rng.randint(1, 3))]
        per_unit = rng.randint(1, 4)
        unit, count = 0, 0
        for week in range(4):
            next_week = False
            for d in days:
                day = MONDAY + timedelta(weeks=week, days=d - 1)
                if day == hol:
                    continue
                for start, end in sorted(rng.sample(SLOTS, rng.randint(1, 2))):
                    teacher = rng.choice([None, *teachers])
                    room = rng.choice(rooms)
                    keys = {(day, start, "g", group.pk)}
                    keys |= {(day, start, "t", teacher.pk)} if teacher else set()
                    keys |= {(day, start, "r", room)} if room else set()
                    if keys & taken:
                        continue
                    taken |= keys
                    f.make_session(
                        org,
                        block_group=group,
                        unit=units[unit],
                        teacher=teacher,
                        room=room,
                        actual_date=day,
                        start=start,
                        end=end,
                    )
                    used.append(day)
                    count += 1
                    if count == per_unit:
                        unit, count = unit + 1, 0
                        next_week = group.start_next_unit_in_new_week
                    if next_week or unit == len(units):
                        break
                if next_week or unit == len(units):
                    break
            if unit == len(units):
                break
    if teachers and rng.random() < 0.5:
        busy = {d for d, _s, kind, key in taken if kind == "t" and key == teachers[0].pk}
        leave_day = rng.choice([MONDAY + timedelta(days=n) for n in range(28) if MONDAY + timedelta(days=n) not in busy])
        teachers[0].leave.create(organization=org, start_date=leave_day, end_date=leave_day)
    return rng.choice(used) if used else MONDAY


def _free_slots(org, session: TimetableSession, closed: date) -> list[date]:
    """Brute force, from the stored timetable: every date ``session`` could be made up on (ADR 0015: its
    week or later, a weekday or one of its group's days, up to its group's end date plus three months,
    not closed nor a holiday, the group, teacher and room free at its time, the teacher not on leave, and
    no week of another unit when the group keeps one unit a week)."""
    group = session.block_group
    allowed = set(parse_preferred_days(group.preferred_days)) | {1, 2, 3, 4, 5}
    from project.staff.models import TeacherLeave
    from project.timetabling.models import Holiday

    holidays = {h.start_date for h in Holiday.objects.unscoped().filter(organization=org)}
    leave = {(lv.teacher_id, lv.start_date) for lv in TeacherLeave.objects.unscoped().filter(organization=org)}
    others = list(TimetableSession.objects.unscoped().filter(organization=org).exclude(status="cancelled").exclude(pk=session.pk))
    out = []
    day = week_start(session.actual_date)
    last = cf.add_months(group.end_date or session.actual_date, 3)
    while day <= last:
        ok = day != closed and day != session.actual_date and day.isoweekday() in allowed and day not in holidays
        ok = ok and (session.teacher_id is None or (session.teacher_id, day) not in leave)
        for o in others:
            if not ok:
                break
            if o.actual_date == day and cf.overlaps(o.start_time, o.end_time, session.start_time, session.end_time):
                same_room = cf.norm_room(o.room) and cf.norm_room(o.room) == cf.norm_room(session.room)
                if (
                    o.block_group_id == session.block_group_id
                    or (session.teacher_id and o.teacher_id == session.teacher_id)
                    or same_room
                ):
                    ok = False
            if (
                group.start_next_unit_in_new_week
                and o.block_group_id == group.pk
                and o.unit_id != session.unit_id
                and week_start(o.actual_date) == week_start(day)
            ):
                ok = False
        if ok:
            out.append(day)
        day += timedelta(days=1)
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6))
def test_no_applied_option_holds_a_hard_conflict_and_make_up_gives_up_only_without_a_slot(ctx, seed):
    org = ctx.org
    with transaction.atomic():
        closed = _build(org, seed)
        lo, hi = MONDAY - timedelta(days=7), MONDAY + timedelta(days=300)
        assert not cf.hard(cf.scan(org, lo, hi))
        change = replan.replan_change(org, start=closed, end=closed)
        proposal = replan.replan_propose(ctx, change)
        hit = {s["id"] for s in replan.replan_hit_sessions(org, change)}
        for option in proposal["options"]:
            with transaction.atomic():
                replan.replan_apply(ctx, proposal["id"], version=proposal["version"], option=option["key"])
                assert not cf.hard(cf.scan(org, lo, hi)), option["key"]
                fixed = {c["sessionId"] for c in option["changes"]}
                still = (
                    TimetableSession.objects.unscoped().filter(organization=org, actual_date=closed).exclude(status="cancelled")
                )
                assert {s.pk for s in still} == {u["sessionId"] for u in option["unresolved"]}
                if option["key"] == "makeUp":
                    assert fixed <= hit
                for s in still.select_related("block_group"):  # shift too: it makes up what it cannot shift
                    assert _free_slots(org, s, closed) == [], (seed, option["key"], s.actual_date, s.start_time)
                transaction.set_rollback(True)
        transaction.set_rollback(True)
    assert not BlockGroup.objects.unscoped().filter(organization=org).exists()
