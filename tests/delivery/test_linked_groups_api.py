"""Linked block groups (docs/behaviour/block-groups.md §5; docs/behaviour/errors.md §1; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md §3)."""

from __future__ import annotations

from datetime import date

import pytest

from project.planning.models import BlockGroup, LinkedBlockGroup, LinkedBlockGroupMember
from tests import factories as f
from tests.checks import validation_errors

pytestmark = pytest.mark.django_db


def link(org, *groups, name="Pair"):
    linked = LinkedBlockGroup.objects.unscoped().create(organization=org, name=name)
    for g in groups:
        LinkedBlockGroupMember.objects.unscoped().create(organization=org, linked_group=linked, block_group=g)
    return linked


def test_create_list_update_delete(api, org, committed):
    a = f.make_block_group(
        org,
        code="A1",
        name="Alpha",
        delivery_mode="remote",
        study_mode="part_time",
        cohort_size=12,
        start_date=date(2026, 2, 2),
        end_date=date(2026, 6, 30),
    )
    b = f.make_block_group(org, code="B1")
    with committed() as sent:
        r = api.post(
            "/api/linked-block-groups",
            {
                "name": "  Co-delivered ICT ",
                "description": "Shared room",
                "memberBlockGroupIds": [str(b.pk), str(a.pk), str(a.pk)],
            },
        )
    assert r.status_code == 201, r.content
    linked = r.json()
    assert linked["name"] == "Co-delivered ICT" and linked["description"] == "Shared room"
    assert set(linked) == {"id", "name", "description", "createdAt", "updatedAt", "members"}
    assert [m["blockGroupId"] for m in linked["members"]] == [str(a.pk), str(b.pk)]  # by code, duplicates once
    assert linked["members"][0]["blockGroup"] == {
        "id": str(a.pk),
        "code": "A1",
        "name": "Alpha",
        "deliveryMode": "remote",
        "studyMode": "part_time",
        "cohortSize": 12,
        "startDate": "2026-02-02",
        "endDate": "2026-06-30",
    }
    assert "id" in linked["members"][0]
    assert sent == [("linked_block_group", "created", [linked["id"]])]

    assert api.get("/api/linked-block-groups").json() == [linked]
    r = api.get(f"/api/linked-block-groups/{linked['id']}")
    assert r.status_code == 200 and r.headers["ETag"] == f'"{linked["updatedAt"]}"'

    with committed() as sent:
        r = api.put(
            f"/api/linked-block-groups/{linked['id']}",
            {"name": "Renamed", "description": ""},
            headers={"If-Match": linked["updatedAt"]},
        )
    assert r.status_code == 200, r.content
    assert r.json()["name"] == "Renamed" and r.json()["description"] == "" and len(r.json()["members"]) == 2
    assert sent == [("linked_block_group", "updated", [linked["id"]])]

    with committed() as sent:
        assert api.delete(f"/api/linked-block-groups/{linked['id']}").status_code == 204
    assert sent == [("linked_block_group", "deleted", [linked["id"]])]
    assert not LinkedBlockGroup.objects.unscoped().exists()
    assert BlockGroup.objects.for_org(org).count() == 2  # the block groups stay


@pytest.mark.parametrize(
    "body, path, message",
    [
        ({"memberBlockGroupIds": ["{a}", "{b}"]}, "name", "Name is required"),
        ({"name": "  ", "memberBlockGroupIds": ["{a}", "{b}"]}, "name", "Name is required"),
        ({"name": "n" * 256, "memberBlockGroupIds": ["{a}", "{b}"]}, "name", "Name must be at most 255 characters"),
        ({"name": "L"}, "memberBlockGroupIds", "At least 2 block groups are required to create a linked group"),
        (
            {"name": "L", "memberBlockGroupIds": []},
            "memberBlockGroupIds",
            "At least 2 block groups are required to create a linked group",
        ),
        (
            {"name": "L", "memberBlockGroupIds": ["{a}"]},
            "memberBlockGroupIds",
            "At least 2 block groups are required to create a linked group",
        ),
        (
            {"name": "L", "memberBlockGroupIds": ["{a}", "{a}"]},
            "memberBlockGroupIds",
            "At least 2 block groups are required to create a linked group",
        ),
    ],
)
def test_create_validation(api, org, body, path, message):
    ids = {"a": str(f.make_block_group(org).pk), "b": str(f.make_block_group(org).pk)}
    payload = {k: ([v.format(**ids) for v in val] if isinstance(val, list) else val) for k, val in body.items()}
    r = api.post("/api/linked-block-groups", payload)
    assert r.status_code == 400
    assert validation_errors(r)[(path,)] == message
    assert not LinkedBlockGroup.objects.unscoped().exists()


def test_malformed_member_id_is_400(api, org):
    r = api.post("/api/linked-block-groups", {"name": "L", "memberBlockGroupIds": [str(f.make_block_group(org).pk), "nope"]})
    assert r.status_code == 400
    assert ["memberBlockGroupIds", 1] in [e["path"] for e in r.json()["errors"]]


def test_a_group_is_in_at_most_one_linked_group(api, org):
    a, b, c = (f.make_block_group(org, code=code) for code in ("A", "B", "C"))
    link(org, a, b, name="First")
    r = api.post("/api/linked-block-groups", {"name": "Second", "memberBlockGroupIds": [str(c.pk), str(a.pk)]})
    assert r.status_code == 409
    assert "A" in r.json()["message"] and "First" in r.json()["message"]
    assert LinkedBlockGroup.objects.for_org(org).count() == 1


def test_update_validation_and_stale(api, org, captured_events, django_capture_on_commit_callbacks):
    linked = link(org, f.make_block_group(org), f.make_block_group(org), name="Keep")
    r = api.put(f"/api/linked-block-groups/{linked.pk}", {"name": ""})
    assert r.status_code == 400 and validation_errors(r) == {("name",): "Name is required"}
    with django_capture_on_commit_callbacks(execute=True):
        r = api.put(f"/api/linked-block-groups/{linked.pk}", {"name": "New"}, headers={"If-Match": '"2001-01-01T00:00:00+00:00"'})
    assert r.status_code == 412 and r.json()["type"] == "stale"
    linked.refresh_from_db()
    assert linked.name == "Keep"
    assert captured_events == []


def test_remove_member_keeps_a_group_of_two(api, org, committed):
    a, b, c = (f.make_block_group(org, code=code) for code in ("A", "B", "C"))
    linked = link(org, a, b, c)
    with committed() as sent:
        r = api.delete(f"/api/linked-block-groups/{linked.pk}/members/{b.pk}")
    assert r.status_code == 200
    assert r.json()["dissolved"] is False
    assert [m["blockGroupId"] for m in r.json()["linkedGroup"]["members"]] == [str(a.pk), str(c.pk)]
    assert sent == [("linked_block_group", "updated", [str(linked.pk)])]
    assert BlockGroup.objects.for_org(org).filter(pk=b.pk).exists()


def test_remove_member_dissolves_a_group_left_with_one(api, org, committed):
    a, b = f.make_block_group(org), f.make_block_group(org)
    linked = link(org, a, b)
    with committed() as sent:
        r = api.delete(f"/api/linked-block-groups/{linked.pk}/members/{a.pk}")
    assert r.status_code == 200
    assert r.json() == {"dissolved": True, "linkedGroup": None}
    assert not LinkedBlockGroup.objects.unscoped().exists()
    assert not LinkedBlockGroupMember.objects.unscoped().exists()
    assert sent == [("linked_block_group", "deleted", [str(linked.pk)])]
    # Both groups can be linked again.
    r = api.post("/api/linked-block-groups", {"name": "Again", "memberBlockGroupIds": [str(a.pk), str(b.pk)]})
    assert r.status_code == 201


def test_remove_non_member_is_404(api, org):
    linked = link(org, f.make_block_group(org), f.make_block_group(org))
    r = api.delete(f"/api/linked-block-groups/{linked.pk}/members/{f.make_block_group(org).pk}")
    assert r.status_code == 404
    assert LinkedBlockGroupMember.objects.for_org(org).count() == 2


def test_lists_never_show_another_organizations_rows(api, org, other_org):
    link(other_org, f.make_block_group(other_org), f.make_block_group(other_org), name="Theirs")
    assert api.get("/api/linked-block-groups").json() == []


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("get", "/api/linked-block-groups/{linked}", None),
        ("put", "/api/linked-block-groups/{linked}", {"name": "Hijacked"}),
        ("delete", "/api/linked-block-groups/{linked}", None),
        ("delete", "/api/linked-block-groups/{linked}/members/{group}", None),
        ("delete", "/api/linked-block-groups/{my_linked}/members/{group}", None),
        ("post", "/api/linked-block-groups", {"name": "Steal", "memberBlockGroupIds": ["{group}", "{my_group}"]}),
    ],
)
def test_another_organizations_ids_are_404(api, org, other_org, method, path, body):
    group, group2 = f.make_block_group(other_org), f.make_block_group(other_org)
    linked = link(other_org, group, group2, name="Theirs")
    my_group = f.make_block_group(org)
    my_linked = link(org, my_group, f.make_block_group(org), name="Mine")
    ids = {"linked": linked.pk, "group": group.pk, "my_linked": my_linked.pk, "my_group": f.make_block_group(org).pk}
    url = path.format(**ids)
    if body is None:
        r = getattr(api, method)(url)
    else:
        r = getattr(api, method)(url, {k: ([x.format(**ids) for x in v] if isinstance(v, list) else v) for k, v in body.items()})
    assert r.status_code == 404, r.content
    assert r.json()["message"].endswith("not found") or "not found" in r.json()["message"]
    linked.refresh_from_db()
    assert linked.name == "Theirs"
    assert LinkedBlockGroupMember.objects.for_org(other_org).count() == 2
    assert LinkedBlockGroup.objects.for_org(org).count() == 1


def test_list_of_1000_linked_groups_uses_a_fixed_number_of_queries(api, org, django_assert_max_num_queries):
    groups = BlockGroup.objects.unscoped().bulk_create(
        [
            BlockGroup(organization=org, code=f"G{i:05d}", name=f"G{i}", cohort_size=5, start_date=date(2026, 1, 5))
            for i in range(2000)
        ]
    )
    linked = LinkedBlockGroup.objects.unscoped().bulk_create(
        [LinkedBlockGroup(organization=org, name=f"Linked {i:04d}") for i in range(1000)]
    )
    LinkedBlockGroupMember.objects.unscoped().bulk_create(
        [
            LinkedBlockGroupMember(organization=org, linked_group=lg, block_group=groups[2 * i + k])
            for i, lg in enumerate(linked)
            for k in (0, 1)
        ]
    )
    with django_assert_max_num_queries(5):  # auth (3) + linked groups + members with their block group
        r = api.get("/api/linked-block-groups")
    rows = r.json()
    assert len(rows) == 1000
    assert [m["blockGroup"]["code"] for m in rows[0]["members"]] == ["G00000", "G00001"]
