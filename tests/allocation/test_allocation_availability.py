"""Auto-allocation, recommendations and leave cover with availability and preferences (ADR 0027)."""

from datetime import date, time, timedelta

import pytest

from tests import factories as f

pytestmark = pytest.mark.django_db

MON = date(2026, 3, 2)  # a Monday
FRI = MON + timedelta(days=4)
WEEKDAYS = [{"weekday": d, "start": "08:00", "end": "17:00"} for d in range(5)]


def paint(api, teacher, **body):
    r = api.put(f"/api/teachers/{teacher.pk}/availability", {"windows": WEEKDAYS, **body})
    assert r.status_code == 200, r.content


def propose(api, **body):
    r = api.post("/api/timetables/auto-allocate", body)
    assert r.status_code == 200, r.content
    return r.json()


@pytest.fixture
def two_groups(org):
    unit = f.make_unit(org, code="VU23213")
    monday_group = f.make_block_group(org, code="MON-G")
    friday_group = f.make_block_group(org, code="FRI-G")
    monday = f.make_session(org, block_group=monday_group, unit=unit, actual_date=MON, start=time(13), end=time(16))
    friday = f.make_session(org, block_group=friday_group, unit=unit, actual_date=FRI, start=time(13), end=time(16))
    ana = f.make_teacher(org, first_name="Ana", last_name="Avoids", availability="both")
    ben = f.make_teacher(org, first_name="Ben", last_name="Neutral", availability="both")
    f.qualify(ana, unit)
    f.qualify(ben, unit)
    return {"monday": monday, "friday": friday, "ana": ana, "ben": ben}


@pytest.mark.parametrize(("avoided", "expected"), [(4, "monday"), (0, "friday")])
def test_a_teacher_who_avoids_a_day_gets_the_other_group_when_all_else_is_equal(api, two_groups, avoided, expected):
    w = two_groups
    paint(api, w["ana"], preferences=[{"weekday": avoided, "start": "12:00", "end": "17:00", "level": "discouraged"}])
    paint(api, w["ben"])
    result = propose(api, start=str(MON), end=str(FRI))
    chosen = {x["sessionId"]: x["teacherId"] for x in result["assignments"]}
    assert chosen[str(w[expected].id)] == str(w["ana"].id)
    assert len(set(chosen.values())) == 2  # balance splits the two sessions; the preference decides who takes which
    assert result["after"]["preferenceScore"] == 0.0


def test_recommendations_give_the_preference_as_a_reason(api, two_groups):
    w = two_groups
    paint(api, w["ana"], preferences=[{"weekday": 4, "start": "12:00", "end": "17:00", "level": "discouraged"}])
    r = api.get(f"/api/timetables/{w['friday'].id}/recommendations")
    assert r.status_code == 200, r.content
    rows = {x["teacherName"]: x for x in r.json()["recommendations"]}
    assert rows["Ana Avoids"]["preferenceReason"] == "avoids Friday afternoons"
    assert rows["Ana Avoids"]["preferenceWeight"] == 1
    assert rows["Ben Neutral"]["preferenceReason"] == "" and rows["Ben Neutral"]["rank"] < rows["Ana Avoids"]["rank"]


def test_recommendations_name_the_broken_availability_rules(api, org, two_groups):
    w = two_groups
    paint(api, w["ana"], windows=[{"weekday": 0, "start": "08:00", "end": "17:00"}])
    rows = {x["teacherName"]: x for x in api.get(f"/api/timetables/{w['friday'].id}/recommendations").json()["recommendations"]}
    available = next(rule for rule in rows["Ana Avoids"]["rules"] if rule["rule"] == "available")
    assert available == {"rule": "available", "met": False, "message": "Not available Friday 13:00-16:00"}
    assert rows["Ana Avoids"]["eligible"] is False and rows["Ben Neutral"]["eligible"] is True


def test_a_sessional_teacher_is_only_given_their_days(api, org):
    unit = f.make_unit(org, code="BSBXCS402")
    group = f.make_block_group(org, code="SES-G")
    sessions = [f.make_session(org, block_group=group, unit=unit, actual_date=MON + timedelta(days=d)) for d in range(5)]
    sessional = f.make_teacher(org, first_name="Sia", last_name="Sessional", availability="both", employment_type="sessional")
    f.qualify(sessional, unit)
    paint(
        api,
        sessional,
        windows=[{"weekday": 0, "start": "08:00", "end": "17:00"}, {"weekday": 2, "start": "08:00", "end": "17:00"}],
    )
    result = propose(api, blockGroupId=str(group.id))
    assert {x["sessionId"] for x in result["assignments"]} == {str(sessions[0].id), str(sessions[2].id)}  # Monday, Wednesday
    assert len(result["unassignable"]) == 3


def test_leave_cover_in_re_planning_respects_availability(api, org):
    unit = f.make_unit(org, code="ICTPRG302")
    group = f.make_block_group(org, code="RP-AV")
    wed = MON + timedelta(days=2)
    kim = f.make_teacher(org, first_name="Kim", last_name="Away", availability="both")
    lee = f.make_teacher(org, first_name="Lee", last_name="Mondays", availability="both")
    sam = f.make_teacher(org, first_name="Sam", last_name="Wednesdays", availability="both")
    for t in (kim, lee, sam):
        f.qualify(t, unit)
    f.make_session(org, block_group=group, unit=unit, actual_date=MON, teacher=lee)  # Lee already teaches the unit here
    hit = f.make_session(org, block_group=group, unit=unit, actual_date=wed, teacher=kim)
    paint(api, lee, windows=[{"weekday": 0, "start": "08:00", "end": "17:00"}])
    paint(api, sam, windows=[{"weekday": 2, "start": "08:00", "end": "17:00"}])
    leave = api.post(f"/api/teachers/{kim.pk}/leave", {"startDate": str(wed), "endDate": str(wed)}).json()
    proposal = api.post("/api/replan/propose", {"leaveId": leave["id"]}).json()
    [change] = proposal["changes"]
    assert change["sessionId"] == str(hit.id)
    assert change["to"]["teacherName"] == "Sam Wednesdays"  # not Lee, whose continuity would have won


def test_painting_after_a_proposal_makes_it_stale(api, org, two_groups):
    w = two_groups
    group_id = str(w["monday"].block_group_id)
    proposal = propose(api, blockGroupId=group_id)
    assert proposal["assignments"]
    paint(api, w["ana"], windows=[{"weekday": 2, "start": "08:00", "end": "17:00"}])
    assignments = [{"sessionId": x["sessionId"], "teacherId": x["teacherId"]} for x in proposal["assignments"]]
    r = api.post(
        "/api/timetables/auto-allocate",
        {"blockGroupId": group_id, "apply": True, "version": proposal["version"], "assignments": assignments},
    )
    assert r.status_code == 412, r.content
