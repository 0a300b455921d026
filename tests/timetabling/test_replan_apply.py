"""Apply writes the server's proposal, exactly and only when its final state is sound (ADR 0015).

``POST /api/replan/propose`` stores the proposal; ``POST /api/replan/apply`` names it (``proposalId``,
``version``, ``option``) and writes that option's changes: a request cannot add, drop or alter one
(400), cannot give a session another organization's teacher, and a final state holding a hard conflict,
one that was already there included, is a 409 naming the sessions. Another organization's scope ids are
404. Nothing is written on any refusal.
"""

from __future__ import annotations

from datetime import date, time

from project.history.models import Activity
from project.timetabling.models import ReplanProposal, TimetableSession
from tests import factories as f
from tests.timetabling.test_replan import _group, _holiday, _option, _timetable


def _nothing_replanned(org) -> bool:
    return not Activity.objects.filter(organization=org, action="replanned").exists()


def _apply(api, proposal: dict, **extra):
    return api.post("/api/replan/apply", {"proposalId": proposal["id"], "version": proposal["version"], **extra})


def test_a_change_that_is_not_the_proposals_is_400_and_writes_nothing(api, org):
    group, a, b = _group(org, api, new_week=True)
    holiday = _holiday(api, "2026-02-04")
    proposal = api.post("/api/replan/propose", {"holidayId": holiday["id"]}).json()
    before = _timetable(group)
    [hit] = _option(proposal, "makeUp")["changes"]
    untouched = TimetableSession.objects.unscoped().get(block_group=group, actual_date=date(2026, 2, 16))
    as_proposed = {"sessionId": hit["sessionId"], "actualDate": hit["to"]["actualDate"], "teacherId": None}
    for changes in (
        [as_proposed, {"sessionId": str(untouched.pk), "actualDate": "2026-02-25"}],  # one added
        [],  # one dropped
        [{**as_proposed, "actualDate": "2026-02-06"}],  # one altered
    ):
        r = _apply(api, proposal, option="makeUp", changes=changes)
        assert r.status_code == 400, changes
        assert r.json()["errors"][0]["path"] == ["changes"]
    # The change named must be the proposal's.
    for other in ({"start": "2026-02-04", "end": "2026-02-05"}, {"holidayId": holiday["id"], "blockGroupIds": [str(group.pk)]}):
        r = _apply(api, proposal, **other)
        assert r.status_code == 400, other
    assert _timetable(group) == before and _nothing_replanned(org)
    # The proposal's own changes, sent back as older clients do, are accepted.
    r = _apply(api, proposal, option="makeUp", changes=[as_proposed], holidayId=holiday["id"])
    assert r.status_code == 200, r.json()
    assert TimetableSession.objects.unscoped().get(pk=hit["sessionId"]).actual_date == date(2026, 2, 5)


def test_another_organizations_teacher_cannot_be_written(api, org, other_org):
    group, a, b = _group(org, api, new_week=True)
    kim = f.make_teacher(org, first_name="Kim", last_name="T")
    f.qualify(kim, a)
    TimetableSession.objects.unscoped().filter(block_group=group, unit=a).update(teacher=kim)
    theirs = f.make_teacher(other_org, first_name="Eve", last_name="Other")
    f.qualify(theirs, f.make_unit(other_org, code="THEIRS"))
    session = TimetableSession.objects.unscoped().get(block_group=group, actual_date=date(2026, 2, 4))
    body = {"teacherId": str(kim.pk), "start": "2026-02-04", "end": "2026-02-04"}
    proposal = api.post("/api/replan/propose", body).json()
    assert proposal["unresolved"] and not proposal["changes"]  # nobody else can take it
    # Sent in the request: another organization's id is resolved at the edge (ADR 0001): 404, as unknown.
    r = _apply(api, proposal, changes=[{"sessionId": str(session.pk), "actualDate": "2026-02-04", "teacherId": str(theirs.pk)}])
    assert r.status_code == 404 and r.json()["message"] == "Teacher not found"
    # Even in a stored proposal (written behind the server's back), the final check refuses it: 409.
    row = ReplanProposal.objects.unscoped().get(pk=proposal["id"])
    row.options = {"reallocate": {"writes": [[str(session.pk), "2026-02-04", str(theirs.pk)]]}}
    row.save()
    r = _apply(api, proposal)
    assert r.status_code == 409 and r.json()["type"] == "conflict"
    assert r.json()["conflicts"][0]["sessionIds"] == [str(session.pk)]
    session.refresh_from_db()
    assert session.teacher_id == kim.pk and _nothing_replanned(org)


def test_a_final_state_on_a_holiday_is_409_and_writes_nothing(api, org):
    group, a, b = _group(org, api, new_week=True)
    _holiday(api, "2026-02-25", name="Show day")
    holiday = _holiday(api, "2026-02-04")
    proposal = api.post("/api/replan/propose", {"holidayId": holiday["id"]}).json()
    before = _timetable(group)
    [hit] = _option(proposal, "makeUp")["changes"]
    row = ReplanProposal.objects.unscoped().get(pk=proposal["id"])
    row.options = {"makeUp": {"writes": [[hit["sessionId"], "2026-02-25", None]]}}  # onto the show day
    row.save()
    r = _apply(api, proposal, option="makeUp")
    assert r.status_code == 409, r.json()
    body = r.json()
    assert body["type"] == "conflict" and "Make a new proposal" in body["message"] and hit["sessionId"] in body["message"]
    assert [(c["type"], c["sessionIds"]) for c in body["conflicts"]] == [("holiday", [hit["sessionId"]])]
    assert _timetable(group) == before and _nothing_replanned(org)


def test_a_conflict_that_was_already_there_is_409_too(api, org):
    """A session already on a holiday (the holiday was added without a re-plan) that leave would
    re-allocate keeps its date: not proposed, and apply refuses to write it, though the clash is not new."""
    group, a, b = _group(org, api, new_week=True)
    kim, lee = (f.make_teacher(org, first_name=n, last_name="T", availability="both") for n in ("Kim", "Lee"))
    for t in (kim, lee):
        f.qualify(t, a)
    TimetableSession.objects.unscoped().filter(block_group=group, unit=a).update(teacher=kim)
    f.make_holiday(org, name="Late holiday", start_date=date(2026, 2, 4), end_date=date(2026, 2, 4))
    session = TimetableSession.objects.unscoped().get(block_group=group, actual_date=date(2026, 2, 4))
    proposal = api.post("/api/replan/propose", {"teacherId": str(kim.pk), "start": "2026-02-04", "end": "2026-02-04"}).json()
    # The proposal does not offer it: Lee is free, but the session would still sit on the holiday.
    assert proposal["changes"] == []
    [unresolved] = proposal["unresolved"]
    assert unresolved["sessionId"] == str(session.pk) and unresolved["reason"].startswith("Would still be in conflict: ")
    # Put into the stored proposal behind the server's back, apply refuses it.
    row = ReplanProposal.objects.unscoped().get(pk=proposal["id"])
    row.options = {"reallocate": {"writes": [[str(session.pk), "2026-02-04", str(lee.pk)]]}}
    row.save()
    r = _apply(api, proposal)
    assert r.status_code == 409 and [c["type"] for c in r.json()["conflicts"]] == ["holiday"]
    session.refresh_from_db()
    assert session.teacher_id == kim.pk and _nothing_replanned(org)


def test_another_organizations_scope_ids_and_proposal_are_404(api, other_api, org, other_org):
    group, a, b = _group(org, api, new_week=True)
    theirs = f.make_block_group(other_org, code="THEIRS")
    their_session = f.make_session(
        other_org, block_group=theirs, unit=f.make_unit(other_org, code="TU"), actual_date=date(2026, 2, 4)
    )
    body = {"start": "2026-02-04", "end": "2026-02-04"}
    for scope in (
        {"blockGroupIds": [str(theirs.pk)]},
        {"blockGroupIds": [str(group.pk), str(theirs.pk)]},
        {"sessionIds": [str(their_session.pk)]},
    ):
        r = api.post("/api/replan/propose", {**body, **scope})
        assert r.status_code == 404, scope
        assert r.json()["message"] in ("Block group not found", "Timetable session not found")
    assert not ReplanProposal.objects.unscoped().exists()
    mine = api.post("/api/replan/propose", body).json()
    r = api.post(
        "/api/replan/apply", {"proposalId": mine["id"], "version": mine["version"], "sessionIds": [str(their_session.pk)]}
    )
    assert r.status_code == 404
    # Another organization's proposal id.
    r = other_api.post("/api/replan/apply", {"proposalId": mine["id"], "version": mine["version"]})
    assert r.status_code == 404 and r.json()["message"] == "Re-plan proposal not found"
    assert TimetableSession.objects.unscoped().get(pk=their_session.pk).actual_date == date(2026, 2, 4)
    assert _nothing_replanned(org)


def test_the_stored_version_must_be_the_one_sent(api, org):
    group, a, b = _group(org, api, new_week=True)
    proposal = api.post("/api/replan/propose", {"start": "2026-02-04", "end": "2026-02-04"}).json()
    before = _timetable(group)
    r = api.post("/api/replan/apply", {"proposalId": proposal["id"], "version": "0" * 32})
    assert r.status_code == 412 and r.json()["type"] == "stale"
    assert _timetable(group) == before
    assert api.post("/api/replan/apply", {"version": proposal["version"]}).status_code == 400  # no proposal named
    assert _apply(api, proposal).status_code == 200
    assert _apply(api, proposal).status_code == 412  # applied: the timetable it read has changed
    assert TimetableSession.objects.unscoped().filter(block_group=group, start_time=time(9)).count() == 5
