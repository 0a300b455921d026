"""Auto-allocation: small hand-made cases whose best answer is known, the API, staleness."""

from datetime import date, time, timedelta

import pytest

from project.timetabling.models import TimetableSession
from tests import factories as f

MON = date(2026, 3, 2)  # a Monday


@pytest.fixture
def setup(org):
    bg = f.make_block_group(org, code="CYB-26-1")
    unit = f.make_unit(org, code="VU23213")
    return bg, unit


def propose(api, **body):
    r = api.post("/api/timetables/auto-allocate", body)
    assert r.status_code == 200, r.content
    return r.json()


def apply_proposal(api, bg, proposal):
    """POST the proposal for block group ``bg`` back with ``apply`` (its version and assignments)."""
    assignments = [{"sessionId": x["sessionId"], "teacherId": x["teacherId"]} for x in proposal["assignments"]]
    body = {"blockGroupId": str(bg.id), "apply": True, "version": proposal["version"], "assignments": assignments}
    return api.post("/api/timetables/auto-allocate", body)


def test_continuity_is_chosen_over_a_split(api, org, setup):
    bg, unit = setup
    a = f.make_teacher(org, first_name="Alice", max_weekly_hours=21)
    b = f.make_teacher(org, first_name="Bob", max_weekly_hours=21)
    f.qualify(a, unit)
    f.qualify(b, unit)
    s1 = f.make_session(org, block_group=bg, unit=unit, actual_date=MON)
    s2 = f.make_session(org, block_group=bg, unit=unit, actual_date=MON + timedelta(days=2))
    result = propose(api, blockGroupId=str(bg.id))
    teachers = {x["sessionId"]: x["teacherId"] for x in result["assignments"]}
    assert set(teachers) == {str(s1.id), str(s2.id)}
    assert len(set(teachers.values())) == 1  # one teacher for the unit, though splitting would balance load
    assert result["after"]["continuityPercent"] == 100.0
    assert result["before"]["continuityPercent"] == 0.0
    assert result["applied"] is False
    # A proposal writes nothing.
    assert TimetableSession.objects.filter(teacher__isnull=False).count() == 0


def test_capacity_is_respected_and_the_rest_reported(api, org, setup):
    bg, unit = setup
    a = f.make_teacher(org, first_name="Alice", max_weekly_hours=6)
    f.qualify(a, unit)
    for d in range(3):
        f.make_session(org, block_group=bg, unit=unit, actual_date=MON + timedelta(days=d))
    result = propose(api, start=str(MON), end=str(MON + timedelta(days=6)))
    assert len(result["assignments"]) == 2
    assert len(result["unassignable"]) == 1
    assert "maximum weekly hours" in result["unassignable"][0]["reason"]
    assert result["after"]["highestUtilisation"] == 100.0


def test_unqualified_and_unavailable_teachers_are_never_chosen(api, org, setup):
    bg, unit = setup
    other_unit = f.make_unit(org, code="BSBXCS402")
    day_only = f.make_teacher(org, first_name="Day", availability="day")
    unqualified = f.make_teacher(org, first_name="Unq", availability="both")
    evening = f.make_teacher(org, first_name="Eve", availability="evening")
    f.qualify(day_only, unit)
    f.qualify(evening, unit)
    f.qualify(unqualified, other_unit)
    night = f.make_session(org, block_group=bg, unit=unit, actual_date=MON, start=time(18), end=time(21))
    morning = f.make_session(org, block_group=bg, unit=unit, actual_date=MON + timedelta(days=1))
    result = propose(api, sessionIds=[str(night.id), str(morning.id)])
    chosen = {x["sessionId"]: x["teacherId"] for x in result["assignments"]}
    assert chosen[str(night.id)] == str(evening.id)
    assert chosen[str(morning.id)] == str(day_only.id)
    assert str(unqualified.id) not in chosen.values()


def test_impossible_session_is_reported_with_its_reason(api, org, setup):
    bg, unit = setup
    nobody = f.make_unit(org, code="ICTSAS999")
    s = f.make_session(org, block_group=bg, unit=nobody, actual_date=MON)
    result = propose(api, sessionIds=[str(s.id)])
    assert result["assignments"] == []
    assert result["unassignable"][0]["sessionId"] == str(s.id)
    assert result["unassignable"][0]["reason"] == "No teacher holds a qualification for unit ICTSAS999"


def test_inactive_and_expired_teachers_are_never_chosen(api, org, setup):
    bg, unit = setup
    inactive = f.make_teacher(org, is_active=False)
    expired = f.make_teacher(org, employment_type="fixed_term", expiry_date=MON - timedelta(days=1))
    f.qualify(inactive, unit)
    f.qualify(expired, unit)
    s = f.make_session(org, block_group=bg, unit=unit, actual_date=MON)
    result = propose(api, sessionIds=[str(s.id)])
    assert result["assignments"] == []
    assert "inactive or past their contract end" in result["unassignable"][0]["reason"]


def test_existing_bookings_block_overlaps_but_linked_groups_share(api, org, setup):
    from project.planning.models import LinkedBlockGroup, LinkedBlockGroupMember

    bg, unit = setup
    other_bg = f.make_block_group(org, code="CYB-26-2")
    a = f.make_teacher(org, first_name="Alice")
    f.qualify(a, unit)
    f.make_session(org, block_group=other_bg, unit=unit, actual_date=MON, teacher=a)
    s = f.make_session(org, block_group=bg, unit=unit, actual_date=MON)
    result = propose(api, sessionIds=[str(s.id)])
    assert result["assignments"] == []
    assert "already teaching at this time" in result["unassignable"][0]["reason"]
    # Once the two groups are linked (co-delivered) the same teacher may take both.
    link = LinkedBlockGroup.objects.create(organization=org, name="Co-delivered")
    for g in (bg, other_bg):
        LinkedBlockGroupMember.objects.create(organization=org, linked_group=link, block_group=g)
    result = propose(api, sessionIds=[str(s.id)])
    assert [x["teacherId"] for x in result["assignments"]] == [str(a.id)]


def test_apply_writes_everything_with_one_event(api, org, setup, captured_events, django_capture_on_commit_callbacks):
    bg, unit = setup
    a = f.make_teacher(org)
    f.qualify(a, unit)
    sessions = [f.make_session(org, block_group=bg, unit=unit, actual_date=MON + timedelta(days=d)) for d in range(3)]
    proposal = propose(api, blockGroupId=str(bg.id))
    with django_capture_on_commit_callbacks(execute=True):
        r = apply_proposal(api, bg, proposal)
    assert r.status_code == 200, r.content
    assert r.json()["applied"] is True
    assert TimetableSession.objects.filter(id__in=[s.id for s in sessions], teacher=a).count() == 3
    changes = [m["event"] for _, m in captured_events if m["type"] == "change.event"]
    assert len(changes) == 1
    assert changes[0]["action"] == "allocated"
    assert sorted(changes[0]["ids"]) == sorted(str(s.id) for s in sessions)


def test_stale_proposal_is_refused_and_writes_nothing(api, org, setup, captured_events, django_capture_on_commit_callbacks):
    bg, unit = setup
    a = f.make_teacher(org)
    f.qualify(a, unit)
    s1 = f.make_session(org, block_group=bg, unit=unit, actual_date=MON)
    s2 = f.make_session(org, block_group=bg, unit=unit, actual_date=MON + timedelta(days=1))
    proposal = propose(api, blockGroupId=str(bg.id))
    # Someone edits a session meanwhile.
    s2.room = "B2.14"
    s2.save()
    with django_capture_on_commit_callbacks(execute=True):
        r = apply_proposal(api, bg, proposal)
    assert r.status_code == 412
    assert r.json()["type"] == "stale"
    assert TimetableSession.objects.filter(id__in=[s1.id, s2.id], teacher__isnull=False).count() == 0
    assert captured_events == []


def test_scope_is_required_and_ids_are_scoped(api, other_api, org, setup):
    bg, unit = setup
    s = f.make_session(org, block_group=bg, unit=unit, actual_date=MON)
    r = api.post("/api/timetables/auto-allocate", {})
    assert r.status_code == 400
    assert r.json()["errors"][0]["message"] == "Choose sessions, a block group, or a start and end date"
    r = other_api.post("/api/timetables/auto-allocate", {"sessionIds": [str(s.id)]})
    assert r.status_code == 404
    assert other_api.get(f"/api/timetables/{s.id}/recommendations").status_code == 404


def test_foreign_or_unknown_block_group_is_404(api, other_api, org, setup):
    """Another organization's blockGroupId answered 200 with an empty proposal."""
    bg, unit = setup
    f.make_session(org, block_group=bg, unit=unit, actual_date=MON)
    for body in ({"blockGroupId": str(bg.id)}, {"blockGroupId": str(bg.id), "apply": True}):
        r = other_api.post("/api/timetables/auto-allocate", body)
        assert r.status_code == 404, r.content
        assert r.json()["message"] == "Block group not found"
    r = api.post("/api/timetables/auto-allocate", {"blockGroupId": "00000000-0000-0000-0000-000000000000"})
    assert r.status_code == 404
    assert TimetableSession.objects.filter(teacher__isnull=False).count() == 0


def test_recommendations_rank_eligible_teachers_with_reasons(api, org, setup):
    bg, unit = setup
    good = f.make_teacher(org, first_name="Good", max_weekly_hours=21)
    busy = f.make_teacher(org, first_name="Busy", max_weekly_hours=21)
    unq = f.make_teacher(org, first_name="Unq")
    f.qualify(good, unit)
    f.qualify(busy, unit)
    other_bg = f.make_block_group(org)
    f.make_session(org, block_group=other_bg, unit=unit, actual_date=MON, teacher=busy)
    s = f.make_session(org, block_group=bg, unit=unit, actual_date=MON)
    r = api.get(f"/api/timetables/{s.id}/recommendations")
    assert r.status_code == 200
    recs = r.json()["recommendations"]
    assert recs[0]["teacherId"] == str(good.id) and recs[0]["eligible"] is True and recs[0]["rank"] == 1
    busy_row = next(x for x in recs if x["teacherId"] == str(busy.id))
    clash = next(rule for rule in busy_row["rules"] if rule["rule"] == "no_clash")
    assert clash["met"] is False and "Already teaching" in clash["message"]
    unq_row = next(x for x in recs if x["teacherId"] == str(unq.id))
    assert next(rule for rule in unq_row["rules"] if rule["rule"] == "qualified")["met"] is False
    assert recs[0]["utilisationAfter"] == round(300 / 21, 1)
