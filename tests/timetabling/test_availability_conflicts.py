"""The hard conflicts of a painted availability pattern, its limits and campuses (ADR 0027): each one is
detected, explained, listed with the others, and refuses a write that would add it."""

from __future__ import annotations

from datetime import date, time, timedelta

import pytest

from tests import factories as f
from tests.timetabling.conftest import session_body

pytestmark = pytest.mark.django_db

MON = date(2026, 3, 2)  # week 5 of a group starting Monday 2 Feb 2026
RANGE = {"start": "2026-03-01", "end": "2026-03-31"}


@pytest.fixture
def world(org):
    unit = f.make_unit(org, code="ICTICT214", name="Operate application software")
    footscray = f.make_campus(org, abbreviation="FS", name="Footscray")
    sunshine = f.make_campus(org, abbreviation="SS", name="Sunshine")
    g1 = f.make_block_group(org, code="G1", start_date=date(2026, 2, 2), campus=footscray)
    g2 = f.make_block_group(org, code="G2", start_date=date(2026, 2, 2), campus=sunshine)
    teacher = f.make_teacher(org, first_name="Sam", last_name="Sessional", max_weekly_hours=40, availability="both")
    f.qualify(teacher, unit)
    return {"unit": unit, "g1": g1, "g2": g2, "teacher": teacher, "footscray": footscray, "sunshine": sunshine}


def paint(api, teacher, **body):
    base = {"windows": [{"weekday": d, "start": "08:00", "end": "22:00"} for d in range(7)]}
    r = api.put(f"/api/teachers/{teacher.pk}/availability", {**base, **body})
    assert r.status_code == 200, r.content


def session(org, world, day=MON, start=time(9), end=time(12), group="g1"):
    return f.make_session(
        org, block_group=world[group], unit=world["unit"], teacher=world["teacher"], actual_date=day, start=start, end=end
    )


def conflicts(api, kind):
    r = api.get("/api/timetables/conflicts", RANGE)
    assert r.status_code == 200
    return [c for c in r.json() if c["type"] == kind]


def test_a_session_outside_the_painted_windows_is_hard_and_explained(api, org, world):
    inside = session(org, world)  # Monday 09:00-12:00
    outside = session(org, world, day=MON + timedelta(days=1))  # Tuesday
    paint(
        api,
        world["teacher"],
        windows=[{"weekday": 0, "start": "08:00", "end": "17:00"}, {"weekday": 2, "start": "08:00", "end": "17:00"}],
    )
    found = conflicts(api, "teacher_outside_availability")
    assert [(c["severity"], c["sessionIds"]) for c in found] == [("hard", [str(outside.id)])]
    assert found[0]["message"] == "Sam Sessional is not available on Tuesday 2026-03-03 09:00-12:00"
    rows = {row["id"]: row["conflicts"] for row in api.get("/api/timetables").json()}
    assert "teacher_outside_availability" in rows[str(outside.id)] and rows[str(inside.id)] == []


def test_a_prohibited_preference_is_unavailable_time(api, org, world):
    s = session(org, world, start=time(13), end=time(16))
    paint(api, world["teacher"], preferences=[{"weekday": 0, "start": "15:00", "end": "17:00", "level": "prohibited"}])
    assert [c["sessionIds"] for c in conflicts(api, "teacher_outside_availability")] == [[str(s.id)]]


def test_the_unpainted_word_stays_the_soft_rule(api, org, world):
    t = world["teacher"]
    t.availability = "day"
    t.save()
    s = session(org, world, start=time(18), end=time(21))
    r = api.get("/api/timetables/conflicts", RANGE).json()
    assert [(c["type"], c["severity"], c["sessionIds"]) for c in r] == [("teacher_unavailable", "soft", [str(s.id)])]


def test_over_the_daily_hours_is_hard_and_explained(api, org, world):
    a = session(org, world, start=time(8), end=time(12))
    b = session(org, world, start=time(13), end=time(17), group="g2")
    paint(api, world["teacher"], maxHoursPerDay=7)
    found = conflicts(api, "teacher_over_daily_hours")
    assert [(c["severity"], set(c["sessionIds"])) for c in found] == [("hard", {str(a.id), str(b.id)})]
    assert found[0]["message"] == "Sam Sessional has 8 hours on 2026-03-02 (maximum 7 a day)"


def test_over_the_weekly_hours_is_hard_and_explained(api, org, world):
    ids = {str(session(org, world, day=MON + timedelta(days=d)).id) for d in range(4)}
    paint(api, world["teacher"], maxHoursPerWeek=10.5)
    found = conflicts(api, "teacher_over_weekly_hours")
    assert [(c["severity"], set(c["sessionIds"])) for c in found] == [("hard", ids)]
    assert found[0]["message"] == "Sam Sessional has 12 hours in the week of 2026-03-02 (maximum 10.5 a week)"


def test_over_the_days_per_week_is_hard_and_explained(api, org, world):
    ids = {str(session(org, world, day=MON + timedelta(days=d), start=time(9), end=time(10)).id) for d in (0, 2, 4)}
    paint(api, world["teacher"], maxDaysPerWeek=2)
    found = conflicts(api, "teacher_over_days")
    assert [(c["severity"], set(c["sessionIds"])) for c in found] == [("hard", ids)]
    assert found[0]["message"] == "Sam Sessional teaches on 3 days in the week of 2026-03-02 (maximum 2 days)"


def test_a_campus_they_do_not_teach_at_is_hard_and_explained(api, org, world):
    session(org, world)
    other = session(org, world, day=MON + timedelta(days=1), group="g2")
    paint(api, world["teacher"], campusIds=[str(world["footscray"].pk)])
    found = conflicts(api, "teacher_other_campus")
    assert [(c["severity"], c["sessionIds"]) for c in found] == [("hard", [str(other.id)])]
    assert found[0]["message"] == "Sam Sessional does not teach at the campus of block group G2"


def test_a_write_that_would_add_one_is_refused_with_the_reason(api, org, world):
    paint(api, world["teacher"], windows=[{"weekday": 0, "start": "08:00", "end": "17:00"}], maxHoursPerDay=3)
    tid = str(world["teacher"].id)
    tuesday = api.post("/api/timetables", session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=2, teacherId=tid))
    assert tuesday.status_code == 409
    assert [c["type"] for c in tuesday.json()["conflicts"]] == ["teacher_outside_availability"]
    ok = api.post("/api/timetables", session_body(world["g1"], world["unit"], weekNumber=5, dayOfWeek=1, teacherId=tid))
    assert ok.status_code == 201, ok.content
    more = api.post(
        "/api/timetables",
        session_body(
            world["g2"],
            world["unit"],
            weekNumber=5,
            dayOfWeek=1,
            teacherId=tid,
            startTime="13:00:00",
            endTime="15:00:00",
            actualHours=2,
        ),
    )
    assert more.status_code == 409
    assert [c["type"] for c in more.json()["conflicts"]] == ["teacher_over_daily_hours"]
