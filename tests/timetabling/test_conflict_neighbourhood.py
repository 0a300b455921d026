"""Conflicts of listed sessions come from their neighbourhood only (ADR 0009; docs/behaviour/conflicts.md §5).

The list of ``GET /api/timetables`` finds the conflicts of its rows from the rows' own block groups,
rooms and teachers on their dates and weeks. These tests pin that the answer equals a scan of every
stored session (randomized fixture with linked groups, holidays, shared rooms in mixed case, teachers
of every availability, cancelled sessions, another organization) and that a list reads only its
neighbourhood (queries counted, the whole organization never loaded).
"""

from __future__ import annotations

import random
from datetime import date, time, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.planning.models import LinkedBlockGroup, LinkedBlockGroupMember
from project.timetabling import conflicts as cf
from project.timetabling.conflicts import checks, neighbourhood
from project.timetabling.models import TimetableSession
from project.timetabling.selectors import session_list
from tests import factories as f

START = date(2026, 3, 2)  # a Monday
DAYS = 40
SLOTS = [
    (time(8, 30), time(11, 30)),
    (time(9), time(12)),
    (time(12), time(15)),
    (time(14), time(17)),
    (time(17, 30), time(20, 30)),
    (time(16, 30), time(19)),
]


def _seed(org, rng: random.Random, sessions: int = 500) -> dict:
    units = [f.make_unit(org, code=f"U{i:03d}", name=f"Unit {i}") for i in range(6)]
    groups = [f.make_block_group(org, code=f"G{i:02d}", name=f"Group {i}", start_date=START) for i in range(8)]
    teachers = [
        f.make_teacher(
            org,
            first_name=f"T{i}",
            last_name="Teach",
            max_weekly_hours=rng.choice([6, 9, 12, 21]),
            availability=rng.choice(["day", "evening", "both"]),
            is_active=rng.random() > 0.2,
            employment_type="fixed_term" if i % 3 == 0 else "ongoing",
            expiry_date=START + timedelta(days=rng.randint(0, DAYS)) if i % 3 == 0 else None,
        )
        for i in range(10)
    ]
    for t in teachers:
        for u in rng.sample(units, 3):
            f.qualify(t, u)
    lg = LinkedBlockGroup.objects.create(organization=org, name="Linked pair")
    for g in groups[:2]:
        LinkedBlockGroupMember.objects.create(organization=org, linked_group=lg, block_group=g)
    f.make_holiday(
        org, name="Mid break", start_date=START + timedelta(days=10), end_date=START + timedelta(days=12), year=START.year
    )
    f.make_holiday(
        org,
        name="Old day",
        start_date=date(2020, START.month, START.day + 3),
        end_date=date(2020, START.month, START.day + 3),
        year=2020,
        is_recurring=True,
    )
    rooms = ["R1", "r1", "R2", "Lab", "LAB ", "", "R3", "R4"]
    rows = []
    for _ in range(sessions):
        day = START + timedelta(days=rng.randrange(DAYS))
        start, end = rng.choice(SLOTS)
        rows.append(
            TimetableSession(
                organization=org,
                block_group=rng.choice(groups),
                unit=rng.choice(units),
                teacher=None if rng.random() < 0.1 else rng.choice(teachers),
                day_of_week=day.isoweekday(),
                start_time=start,
                end_time=end,
                room=rng.choice(rooms).strip(),
                week_number=1,
                actual_date=day,
                term=1,
                actual_hours=Decimal(3),
                status=rng.choice(["scheduled"] * 8 + ["cancelled", "confirmed"]),
            )
        )
    TimetableSession.objects.bulk_create(rows)
    return {"groups": groups, "teachers": teachers}


def _full_scan_types(org) -> dict:
    """Reference: every stored session of the organization swept at once, types per session id."""
    slots = cf.load_slots(org, date(2000, 1, 1), date(2100, 12, 31))
    data = cf.load_data(org, START - timedelta(days=7), START + timedelta(days=DAYS + 7))
    out: dict = {s.id: set() for s in slots}
    for c in cf.detect(slots, data):
        for sid in c.session_ids:
            out[sid].add(c.type)
    return {str(k): sorted(v) for k, v in out.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_list_conflicts_equal_a_full_scan(api, org, other_org, seed):
    rng = random.Random(seed)
    world = _seed(org, rng)
    _seed(other_org, random.Random(seed + 100), sessions=200)  # shares nothing with org
    expected = _full_scan_types(org)
    assert sum(1 for v in expected.values() if v) > 50  # the fixture is conflict-rich
    seen_types = {t for v in expected.values() for t in v}
    assert {
        cf.TEACHER_DOUBLE_BOOKED,
        cf.GROUP_DOUBLE_BOOKED,
        cf.ROOM_DOUBLE_BOOKED,
        cf.HOLIDAY,
        cf.TEACHER_OVER_CAPACITY,
        cf.TEACHER_UNQUALIFIED,
        cf.TEACHER_UNAVAILABLE,
    } <= seen_types

    queries = (
        [{}] + [{"blockGroupId": str(g.id)} for g in world["groups"]] + [{"teacherId": str(t.id)} for t in world["teachers"][:4]]
    )
    for params in queries:
        response = api.get("/api/timetables", params)
        assert response.status_code == 200
        rows = response.json()
        assert rows, params
        got = {r["id"]: r["conflicts"] for r in rows}
        assert got == {k: expected[k] for k in got}, params
    # hidePast mid-week: the listed rows' teachers still need their earlier sessions of the week.
    today = START + timedelta(days=17)  # a Thursday
    for g in world["groups"][:4]:
        rows = session_list(org=org, block_group_id=g.id, hide_past=True, today=today)
        assert rows and min(r["actualDate"] for r in rows) >= today
        assert {str(r["id"]): r["conflicts"] for r in rows} == {str(r["id"]): expected[str(r["id"])] for r in rows}


def test_scan_of_one_group_equals_the_full_scan(org):
    world = _seed(org, random.Random(7))
    end = START + timedelta(days=DAYS)
    full = cf.scan(org, START, end)
    for g in world["groups"][:3]:
        mine = {s.id for s in cf.load_slots(org, START, end) if s.block_group_id == g.id}
        # Messages compared case-insensitively: of two clashing rooms "R1" and "r1" either may be named.
        expected = sorted(
            (c.type, tuple(sorted(map(str, c.session_ids))), c.message.lower()) for c in full if mine & set(c.session_ids)
        )
        got = sorted(
            (c.type, tuple(sorted(map(str, c.session_ids))), c.message.lower())
            for c in cf.scan(org, START, end, block_group_id=g.id)
        )
        assert got
        assert got == expected


def test_a_group_list_reads_its_neighbourhood_not_the_organization(api, org):
    """A group's list: a fixed number of queries, and the neighbourhood read holds its group's days only."""
    rng = random.Random(11)
    world = _seed(org, rng, sessions=600)
    unit = f.make_unit(org, code="FAR", name="Far away")
    lonely = f.make_block_group(org, code="ZZ", name="Elsewhere", start_date=START)
    far = START + timedelta(days=200)
    f.make_session(org, block_group=lonely, unit=unit, actual_date=far, room="Lab", teacher=world["teachers"][0])
    loaded: list = []
    original = cf.load_neighbourhood

    def spy(org_, slots, exclude_ids=(), **kw):
        out = original(org_, slots, exclude_ids, **kw)
        loaded.append(out)
        return out

    # The list's conflict types call it from the engine's entry points (conflicts.checks).
    checks.load_neighbourhood, saved = spy, checks.load_neighbourhood
    try:
        with CaptureQueriesContext(connection) as ctx:
            response = api.get("/api/timetables", {"blockGroupId": str(lonely.id)})
    finally:
        checks.load_neighbourhood = saved
    assert response.status_code == 200 and len(response.json()) == 1
    # The list, its neighbourhood, linked groups, holidays, teacher facts, qualifications (+ session/auth).
    listed = [q for q in ctx.captured_queries if "timetabling_timetablesession" in q["sql"]]
    assert len(listed) == 2, [q["sql"][:120] for q in listed]
    assert len(ctx.captured_queries) <= 10
    # Teacher 0's week of `far` has only this session: nothing else of the 600 is read.
    assert [len(x) for x in loaded] == [1]


def test_big_neighbourhoods_fall_back_to_one_range_read(org, monkeypatch):
    world = _seed(org, random.Random(5), sessions=300)
    slots = cf.load_slots(org, START, START + timedelta(days=DAYS), None)
    focus = [s for s in slots if s.block_group_id == world["groups"][2].id]
    precise = {s.id for s in cf.load_neighbourhood(org, focus)}
    monkeypatch.setattr(neighbourhood, "NEIGHBOURHOOD_MAX_PAIRS", 1)  # read where it is used
    wide = {s.id for s in cf.load_neighbourhood(org, focus)}
    assert precise == wide and precise  # the fallback reads the range but keeps the same neighbourhood
    data = cf.load_data(org, START - timedelta(days=7), START + timedelta(days=DAYS + 7))
    by_id = {s.id: s for s in slots}
    ids = {s.id for s in focus}
    a = cf.detect([by_id[i] for i in precise | ids], data, focus=ids)
    b = cf.detect([by_id[i] for i in wide | ids], data, focus=ids)
    assert a and _norm(a) == _norm(b)


def _norm(conflicts) -> list:
    return sorted((c.type, tuple(sorted(map(str, c.session_ids))), c.message.lower()) for c in conflicts)


@pytest.mark.parametrize("seed", [11, 12])
def test_detect_types_equals_the_types_of_detect(org, seed):
    """The list's fast path (types per focus session, no Conflict per pair) answers what detect says."""
    rng = random.Random(seed)
    _seed(org, rng, sessions=400)
    slots = cf.load_slots(org, date(2000, 1, 1), date(2100, 12, 31))
    data = cf.load_data(org, START - timedelta(days=7), START + timedelta(days=DAYS + 7))
    for focus in ({s.id for s in slots}, {s.id for s in rng.sample(slots, 60)}):
        expected: dict = {sid: set() for sid in focus}
        for c in cf.detect(slots, data, focus=focus, messages=False):
            for sid in c.session_ids:
                if sid in expected:
                    expected[sid].add(c.type)
        got = cf.detect_types(slots, data, focus)
        assert got == expected
        assert sum(1 for v in got.values() if v) > 20
