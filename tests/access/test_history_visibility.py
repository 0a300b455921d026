"""History shows each reader what they may see, and undo is judged by the role at undo time (docs/adr/0023).

- One rule (:mod:`project.history.visibility`) decides what a member reads in ``/api/activity`` (list and
  detail) and what their socket receives (:func:`realtime.scoping.event_for`).
- A demoted administrator cannot undo the admin-only changes they made while an administrator (403).
"""

from __future__ import annotations

import itertools

import pytest

from project.history.models import Activity
from project.history.visibility import ADMIN_ONLY_READ, ADMIN_ONLY_WRITE, may_read, readable_filter
from realtime.authentication import Principal
from realtime.events import ENTITIES
from realtime.scoping import event_for
from tests import factories as f

pytestmark = pytest.mark.django_db


def _organization_put(api, body: dict):
    etag = api.get("/api/organization").headers.get("ETag")
    return api.put("/api/organization", body, headers={"If-Match": etag} if etag else None)


def _admin_only_activities(api, org) -> dict[str, str]:
    """Writes through the API whose activities only an administrator may read: ``{label: activity id}``."""
    out = {}
    r = api.post(
        "/api/admin/users", {"firstName": "New", "lastName": "Person", "email": "new.person@example.edu.au", "role": "user"}
    )
    assert r.status_code == 201, r.content
    out["user created"] = str(Activity.objects.for_org(org).latest("seq").id)
    r = api.post("/api/display-links", {"name": "Foyer", "groupBy": "room"})
    assert r.status_code == 201, r.content
    out["display link created"] = str(Activity.objects.for_org(org).latest("seq").id)
    return out


def test_the_list_the_detail_and_the_socket_apply_one_rule(api, member_api, org, member_user, admin_user):
    hidden = _admin_only_activities(api, org)
    r = api.post("/api/courses", {"code": "VIS1", "name": "Visible course"})
    assert r.status_code == 201, r.content
    # The member's own account: TOTP turned on elsewhere is theirs to read.
    Activity.objects.create(
        organization=org, seq=10_000, actor=member_user, actor_label="Mel", entity="user", action="updated",
        ids=[str(member_user.pk)], summary="Mel turned on two-step sign-in",
    )  # fmt: skip
    member_page = member_api.get("/api/activity", {"pageSize": 200}).json()
    admin_page = api.get("/api/activity", {"pageSize": 200}).json()
    member_ids = {i["id"] for i in member_page["items"]}
    assert member_page["total"] == len(member_ids) == admin_page["total"] - len(hidden)
    assert not member_ids & set(hidden.values())
    assert {i["entity"] for i in member_page["items"]} >= {"course", "user"}
    assert "new.person@example.edu.au" not in member_api.get("/api/activity", {"pageSize": 200}).content.decode()
    assert member_api.get("/api/activity", {"entity": "display_link"}).json()["total"] == 0
    assert api.get("/api/activity", {"entity": "display_link"}).json()["total"] == 1
    for label, activity_id in hidden.items():
        assert member_api.get(f"/api/activity/{activity_id}").status_code == 404, label
        assert member_api.get(f"/api/activity/{activity_id}").json() == {"message": "Activity not found"}
        assert api.get(f"/api/activity/{activity_id}").status_code == 200, label
    # ...and the socket of the same member gets the same answer for each of these activities.
    member = Principal(org_id=str(org.pk), user_id=str(member_user.pk), role="user")
    admin = Principal(org_id=str(org.pk), user_id=str(admin_user.pk), role="admin")
    for row in Activity.objects.for_org(org):
        event = {"entity": row.entity, "action": row.action, "ids": row.ids, "seq": row.seq}
        assert (event_for(member, event) == event) == (str(row.id) in member_ids), row.summary
        assert event_for(admin, event) == event


@pytest.mark.parametrize("role", ["admin", "user"])
def test_the_filter_and_the_predicate_agree_for_every_entity(org, member_user, role):
    mine, other = str(member_user.pk), "00000000-0000-0000-0000-000000000001"
    id_sets = [[mine], [other], [mine, other], []]
    for seq, (entity, ids) in enumerate(itertools.product(sorted(ENTITIES), id_sets), start=1):
        Activity.objects.create(organization=org, seq=seq, actor_label="t", entity=entity, action="updated", ids=ids, summary="t")
    readable = set(
        Activity.objects.for_org(org).filter(readable_filter(role=role, user_id=member_user.pk)).values_list("entity", "seq")
    )
    for row in Activity.objects.for_org(org):
        assert ((row.entity, row.seq) in readable) == may_read(role=role, user_id=mine, entity=row.entity, ids=row.ids), (
            row.entity,
            row.ids,
        )
    if role == "user":
        assert not any(e in ADMIN_ONLY_READ for e, _ in readable if e != "user")


def test_a_demoted_admin_cannot_undo_their_admin_only_changes(api, org, admin_user):
    campus = f.make_campus(org)
    made = {}
    r = api.post("/api/rooms", {"code": "UNDO-R1", "name": "Room", "campusId": str(campus.pk), "capacity": 20})
    assert r.status_code == 201, r.content
    made["room"] = Activity.objects.for_org(org).latest("seq")
    r = _organization_put(api, {"name": "Renamed Institute", "domain": org.domain})
    assert r.status_code == 200, r.content
    made["organization"] = Activity.objects.for_org(org).latest("seq")
    from tests.access.test_every_write_path import SSO

    r = api.put("/api/organization/sso", SSO)
    assert r.status_code == 200, r.content
    made["single sign-on"] = Activity.objects.for_org(org).latest("seq")
    made.update({k: Activity.objects.get(pk=v) for k, v in _admin_only_activities(api, org).items()})
    r = api.post("/api/courses", {"code": "UNDO-C1", "name": "Ordinary course"})
    assert r.status_code == 201, r.content
    course_activity = Activity.objects.for_org(org).latest("seq")
    assert {a.entity for a in made.values()} == set(ADMIN_ONLY_WRITE)

    admin_user.role = "user"
    admin_user.save()
    listed = {i["id"]: i for i in api.get("/api/activity", {"pageSize": 200}).json()["items"]}
    for label, activity in made.items():
        r = api.post(f"/api/activity/{activity.id}/undo")
        assert r.status_code == 403, (label, r.content)
        assert r.json() == {"message": "Only an administrator can undo this change."}
        if str(activity.id) in listed:
            assert listed[str(activity.id)]["canUndo"] is False, label
    assert Activity.objects.for_org(org).filter(undo_of__isnull=False).count() == 0
    assert api.get("/api/rooms").json()[0]["code"] == "UNDO-R1"
    # Their own ordinary change stays theirs to undo.
    assert listed[str(course_activity.id)]["canUndo"] is True
    assert api.post(f"/api/activity/{course_activity.id}/undo").status_code == 201

    # Promoted again, the same person may undo the room.
    admin_user.role = "admin"
    admin_user.save()
    r = api.post(f"/api/activity/{made['room'].id}/undo")
    assert r.status_code == 201, r.content
