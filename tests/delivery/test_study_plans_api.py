"""Study plans, their units, clone and cluster names (docs/behaviour/study-plans.md §2; docs/behaviour/hours.md §2, §4; docs/behaviour/errors.md §1; docs/behaviour/hours.md §2; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from project.planning.models import ACTUAL_HOUR_FIELDS, BALANCE_HOUR_FIELDS, StudyPlan, StudyPlanUnit
from tests import factories as f
from tests.checks import assert_deleted, assert_detail, assert_field_error, validation_errors

pytestmark = pytest.mark.django_db

PLAN = {"name": "Cert III 2026", "description": "Full time", "totalNominalHours": 200, "isActive": True}
HOUR_MESSAGES = {
    "faceToFaceHours": "Face to face hours must be non-negative",
    "facilitatedELearningHours": "Facilitated e-learning hours must be non-negative",
    "workIntegratedLearningHours": "Work integrated learning hours must be non-negative",
    "inClassAssessmentHours": "In-class assessment hours must be non-negative",
    "structuredLearningHours": "Structured learning hours must be non-negative",
    "workIntegratedLearningBalanceHours": "Work integrated learning balance hours must be non-negative",
    "cumulativeAssessmentHours": "Cumulative assessment hours must be non-negative",
}


def plan_with_units(org, n=2, **kw):
    plan = f.make_study_plan(org, **kw)
    rows = [
        f.add_plan_unit(
            plan,
            f.make_unit(org),
            face_to_face_hours=Decimal("10"),
            facilitated_e_learning_hours=Decimal("2.5"),
            work_integrated_learning_hours=Decimal("1"),
            in_class_assessment_hours=Decimal("0.5"),
            structured_learning_hours=Decimal("3"),
            work_integrated_learning_balance_hours=Decimal("1"),
            cumulative_assessment_hours=Decimal("0.25"),
            cluster_group=f"Cluster {i % 2}",
            year_level=1 + i % 2,
        )
        for i in range(n)
    ]
    return plan, rows


# --- study plans ------------------------------------------------------------------------------------


def test_plan_crud_with_events(api, org, committed):
    with committed() as sent:
        r = api.post("/api/study-plans", PLAN)
    assert r.status_code == 201, r.content
    plan = r.json()
    assert {k: plan[k] for k in PLAN} == PLAN
    assert plan["totalActualHours"] == 0 and plan["efficiency"] == 0 and plan["unitCount"] == 0
    assert sent == [("study_plan", "created", [plan["id"]])]

    assert_detail(api, f"/api/study-plans/{plan['id']}", plan)

    with committed() as sent:
        r = api.put(
            f"/api/study-plans/{plan['id']}",
            {**PLAN, "name": "Renamed", "isActive": False},
            headers={"If-Match": plan["updatedAt"]},
        )
    assert r.status_code == 200 and r.json()["name"] == "Renamed" and r.json()["isActive"] is False
    assert sent == [("study_plan", "updated", [plan["id"]])]

    assert_deleted(api, committed, f"/api/study-plans/{plan['id']}", StudyPlan, "study_plan")


def test_plan_totals_and_efficiency(api, org):
    plan, _ = plan_with_units(org, n=2, total_nominal_hours=56)
    body = api.get(f"/api/study-plans/{plan.pk}").json()
    # actual per unit = 10 + 2.5 + 1 + 0.5 = 14; self-directed = 3 + 1 + 0.25 = 4.25
    assert body["totalActualHours"] == 28
    assert body["totalSelfDirectedHours"] == 8.5
    assert body["efficiency"] == 50
    assert body["unitCount"] == 2
    listed = {p["id"]: p for p in api.get("/api/study-plans").json()}
    assert listed[str(plan.pk)]["totalActualHours"] == 28 and listed[str(plan.pk)]["efficiency"] == 50


def test_plan_efficiency_is_0_without_nominal_hours(api, org):
    plan, _ = plan_with_units(org, n=1, total_nominal_hours=0)
    body = api.get(f"/api/study-plans/{plan.pk}").json()
    assert body["totalActualHours"] == 14 and body["efficiency"] == 0


@pytest.mark.parametrize(
    "body, path, message",
    [
        ({"totalNominalHours": 10}, "name", "Name is required"),
        ({"name": "  ", "totalNominalHours": 10}, "name", "Name is required"),
        ({"name": "n" * 256, "totalNominalHours": 10}, "name", "Name must be at most 255 characters"),
        ({"name": "P"}, "totalNominalHours", "Total nominal hours must be at least 1"),
        ({"name": "P", "totalNominalHours": 0}, "totalNominalHours", "Total nominal hours must be at least 1"),
        ({"name": "P", "totalNominalHours": 100_001}, "totalNominalHours", "Total nominal hours cannot exceed 100000"),
    ],
)
def test_plan_validation(api, body, path, message):
    r = api.post("/api/study-plans", body)
    assert r.status_code == 400
    assert validation_errors(r)[(path,)] == message


def test_plan_nominal_hours_coerced_from_text(api):
    r = api.post("/api/study-plans", {"name": "P", "totalNominalHours": "40"})
    assert r.status_code == 201 and r.json()["totalNominalHours"] == 40 and r.json()["isActive"] is True


def test_plan_stale_if_match_is_412(api, org, captured_events, django_capture_on_commit_callbacks):
    plan = f.make_study_plan(org, name="Before")
    with django_capture_on_commit_callbacks(execute=True):
        r = api.put(f"/api/study-plans/{plan.pk}", {**PLAN, "name": "After"}, headers={"If-Match": '"2000-01-01T00:00:00+00:00"'})
    assert r.status_code == 412 and r.json()["type"] == "stale"
    plan.refresh_from_db()
    assert plan.name == "Before"
    assert captured_events == []


def test_plan_assigned_to_block_group_cannot_be_deleted(api, org):
    plan = f.make_study_plan(org)
    f.assign_plan(f.make_block_group(org), plan)
    r = api.delete(f"/api/study-plans/{plan.pk}")
    assert r.status_code == 409
    assert "block group" in r.json()["message"]
    assert StudyPlan.objects.for_org(org).filter(pk=plan.pk).exists()


def test_plan_delete_removes_its_units(api, org):
    plan, rows = plan_with_units(org, n=2)
    assert api.delete(f"/api/study-plans/{plan.pk}").status_code == 204
    assert not StudyPlanUnit.objects.unscoped().filter(pk__in=[r.pk for r in rows]).exists()


# --- clone ------------------------------------------------------------------------------------------


def test_clone_copies_every_unit(api, org, committed):
    plan, rows = plan_with_units(org, n=3, total_nominal_hours=42, description="Orig")
    StudyPlanUnit.objects.unscoped().filter(pk=rows[0].pk).update(is_cluster=True)
    with committed() as sent:
        r = api.post(f"/api/study-plans/{plan.pk}/clone", {"name": "  Copy of plan  "})
    assert r.status_code == 201, r.content
    clone = r.json()
    assert clone["name"] == "Copy of plan" and clone["id"] != str(plan.pk)
    assert clone["description"] == "Orig" and clone["totalNominalHours"] == 42 and clone["unitCount"] == 3
    assert sent == [("study_plan", "created", [clone["id"]])]
    fields = ("unit_id", "sequence_order", "year_level", *ACTUAL_HOUR_FIELDS, *BALANCE_HOUR_FIELDS, "is_cluster", "cluster_group")
    original = list(StudyPlanUnit.objects.for_org(org).filter(study_plan=plan).order_by("sequence_order").values(*fields))
    copied = list(StudyPlanUnit.objects.for_org(org).filter(study_plan_id=clone["id"]).order_by("sequence_order").values(*fields))
    assert copied == original
    assert copied[0]["is_cluster"] is True


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "   "}])
def test_clone_needs_a_non_blank_name(api, org, body):
    plan = f.make_study_plan(org)
    r = api.post(f"/api/study-plans/{plan.pk}/clone", body)
    assert r.status_code == 400
    assert validation_errors(r)[("name",)] == "Name is required"
    assert StudyPlan.objects.for_org(org).count() == 1


# --- plan units -------------------------------------------------------------------------------------


def test_plan_units_list_embeds_unit_and_totals(api, org):
    plan, rows = plan_with_units(org, n=2)
    r = api.get(f"/api/study-plans/{plan.pk}/units")
    assert r.status_code == 200
    body = r.json()
    assert [row["id"] for row in body] == [str(rows[0].pk), str(rows[1].pk)]
    first = body[0]
    assert first["sequenceOrder"] == 1 and body[1]["sequenceOrder"] == 2
    assert first["unit"] == {
        "id": str(rows[0].unit.pk),
        "code": rows[0].unit.code,
        "name": rows[0].unit.name,
        "nominalHours": rows[0].unit.nominal_hours,
        "isCore": True,
    }
    assert first["faceToFaceHours"] == 10 and first["facilitatedELearningHours"] == 2.5
    assert isinstance(first["facilitatedELearningHours"], float)  # a JSON number, not a string
    assert first["totalActualHours"] == 14 and first["selfDirectedHours"] == 4.25
    assert first["studyPlanId"] == str(plan.pk) and first["unitId"] == str(rows[0].unit.pk)
    assert set(first) >= {"yearLevel", "isCluster", "clusterGroup", "updatedAt", "cumulativeAssessmentHours"}


def test_add_unit_appends_by_default_and_inserts_at_position(api, org, committed):
    plan, rows = plan_with_units(org, n=2)
    u1, u2 = f.make_unit(org), f.make_unit(org)
    with committed() as sent:
        r = api.post(
            f"/api/study-plans/{plan.pk}/units", {"studyPlanId": str(plan.pk), "unitId": str(u1.pk), "faceToFaceHours": 12.25}
        )
    assert r.status_code == 201, r.content
    appended = r.json()
    assert appended["sequenceOrder"] == 3 and appended["faceToFaceHours"] == 12.25
    assert appended["yearLevel"] == 1 and appended["facilitatedELearningHours"] == 0  # defaults
    assert sent == [("study_plan_unit", "created", [appended["id"]])]

    r = api.post(f"/api/study-plans/{plan.pk}/units", {"unitId": str(u2.pk), "insertPosition": 2})
    assert r.status_code == 201 and r.json()["sequenceOrder"] == 2
    order = [(row["unit"]["id"], row["sequenceOrder"]) for row in api.get(f"/api/study-plans/{plan.pk}/units").json()]
    assert order == [(str(rows[0].unit.pk), 1), (str(u2.pk), 2), (str(rows[1].unit.pk), 3), (str(u1.pk), 4)]


def test_add_unit_past_the_end_appends(api, org):
    plan, _ = plan_with_units(org, n=1)
    r = api.post(f"/api/study-plans/{plan.pk}/units", {"unitId": str(f.make_unit(org).pk), "insertPosition": 99})
    assert r.status_code == 201 and r.json()["sequenceOrder"] == 2


def test_add_unit_twice_is_409(api, org):
    plan, rows = plan_with_units(org, n=1)
    r = api.post(f"/api/study-plans/{plan.pk}/units", {"unitId": str(rows[0].unit.pk)})
    assert r.status_code == 409
    assert r.json()["message"] == "This unit is already assigned to this study plan."
    assert plan.plan_units.count() == 1


def test_add_unit_unknown_plan_or_unit_is_404(api, org):
    plan = f.make_study_plan(org)
    r = api.post("/api/study-plans/00000000-0000-0000-0000-000000000000/units", {"unitId": str(f.make_unit(org).pk)})
    assert r.status_code == 404 and r.json()["message"] == "Study plan not found"
    r = api.post(f"/api/study-plans/{plan.pk}/units", {"unitId": "00000000-0000-0000-0000-000000000000"})
    assert r.status_code == 404 and r.json()["message"] == "Unit not found"


@pytest.mark.parametrize("field, message", sorted(HOUR_MESSAGES.items()))
def test_each_hour_field_must_be_non_negative(api, org, field, message):
    plan = f.make_study_plan(org)
    r = api.post(f"/api/study-plans/{plan.pk}/units", {"unitId": str(f.make_unit(org).pk), field: -0.25})
    assert r.status_code == 400
    assert validation_errors(r) == {(field,): message}


@pytest.mark.parametrize(
    "extra, path, message",
    [
        ({"unitId": None}, "unitId", "Please select a unit"),
        ({"yearLevel": 0}, "yearLevel", "Year level must be at least 1"),
        ({"yearLevel": 5}, "yearLevel", "Year level cannot exceed 4"),
        ({"insertPosition": 0}, "insertPosition", "Insert position must be at least 1"),
        ({"clusterGroup": "c" * 51}, "clusterGroup", "Cluster group must be at most 50 characters"),
        ({"faceToFaceHours": 10_000}, "faceToFaceHours", "Face to face hours cannot exceed 9999.99"),
        ({"faceToFaceHours": "lots"}, "faceToFaceHours", None),
        ({"faceToFaceHours": "NaN"}, "faceToFaceHours", None),
    ],
)
def test_plan_unit_validation(api, org, extra, path, message):
    plan = f.make_study_plan(org)
    r = api.post(f"/api/study-plans/{plan.pk}/units", {"unitId": str(f.make_unit(org).pk), **extra})
    assert r.status_code == 400
    assert_field_error(r, path, message)


def test_empty_hour_input_becomes_0(api, org):
    plan = f.make_study_plan(org)
    r = api.post(
        f"/api/study-plans/{plan.pk}/units",
        {"unitId": str(f.make_unit(org).pk), "faceToFaceHours": "", "structuredLearningHours": None},
    )
    assert r.status_code == 201
    assert r.json()["faceToFaceHours"] == 0 and r.json()["structuredLearningHours"] == 0


def test_update_plan_unit(api, org, committed):
    plan, rows = plan_with_units(org, n=3)
    row = api.get(f"/api/study-plans/{plan.pk}/units").json()[0]
    with committed() as sent:
        r = api.put(
            f"/api/study-plan-units/{row['id']}",
            {
                "yearLevel": 3,
                "faceToFaceHours": 20,
                "inClassAssessmentHours": 4.5,
                "isCluster": True,
                "clusterGroup": "Networking",
            },
            headers={"If-Match": row["updatedAt"]},
        )
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["yearLevel"] == 3 and body["faceToFaceHours"] == 20 and body["inClassAssessmentHours"] == 4.5
    assert body["facilitatedELearningHours"] == 2.5  # not sent: unchanged
    assert body["clusterGroup"] == "Networking" and body["isCluster"] is True
    assert body["totalActualHours"] == 20 + 2.5 + 1 + 4.5
    assert r.headers["ETag"] == f'"{body["updatedAt"]}"'
    assert sent == [("study_plan_unit", "updated", [row["id"]])]


def test_update_plan_unit_moves_and_swaps_unit(api, org):
    plan, rows = plan_with_units(org, n=3)
    r = api.put(f"/api/study-plan-units/{rows[0].pk}", {"sequenceOrder": 3})
    assert r.status_code == 200 and r.json()["sequenceOrder"] == 3
    assert [u["id"] for u in api.get(f"/api/study-plans/{plan.pk}/units").json()] == [
        str(rows[1].pk),
        str(rows[2].pk),
        str(rows[0].pk),
    ]
    assert [u["sequenceOrder"] for u in api.get(f"/api/study-plans/{plan.pk}/units").json()] == [1, 2, 3]
    # Swapping to a unit the plan already has is a 409; to a new unit is fine.
    r = api.put(f"/api/study-plan-units/{rows[0].pk}", {"unitId": str(rows[1].unit.pk)})
    assert r.status_code == 409 and r.json()["message"] == "This unit is already assigned to this study plan."
    other = f.make_unit(org)
    r = api.put(f"/api/study-plan-units/{rows[0].pk}", {"unitId": str(other.pk)})
    assert r.status_code == 200 and r.json()["unit"]["id"] == str(other.pk)


def test_update_plan_unit_validation_and_stale(api, org):
    plan, rows = plan_with_units(org, n=1)
    r = api.put(f"/api/study-plan-units/{rows[0].pk}", {"workIntegratedLearningHours": -1})
    assert r.status_code == 400
    assert validation_errors(r) == {("workIntegratedLearningHours",): "Work integrated learning hours must be non-negative"}
    r = api.put(
        f"/api/study-plan-units/{rows[0].pk}", {"faceToFaceHours": 99}, headers={"If-Match": '"1999-01-01T00:00:00+00:00"'}
    )
    assert r.status_code == 412
    rows[0].refresh_from_db()
    assert rows[0].face_to_face_hours == Decimal("10")


def test_remove_plan_unit_closes_the_gap(api, org, committed):
    plan, rows = plan_with_units(org, n=3)
    with committed() as sent:
        r = api.delete(f"/api/study-plans/{plan.pk}/units/{rows[1].pk}")
    assert r.status_code == 204
    assert sent == [("study_plan_unit", "deleted", [str(rows[1].pk)])]
    body = api.get(f"/api/study-plans/{plan.pk}/units").json()
    assert [(u["id"], u["sequenceOrder"]) for u in body] == [(str(rows[0].pk), 1), (str(rows[2].pk), 2)]


def test_remove_plan_unit_of_another_plan_is_404(api, org):
    plan_a, rows_a = plan_with_units(org, n=1)
    plan_b, _ = plan_with_units(org, n=1)
    r = api.delete(f"/api/study-plans/{plan_b.pk}/units/{rows_a[0].pk}")
    assert r.status_code == 404 and r.json()["message"] == "Study plan unit not found"
    assert StudyPlanUnit.objects.for_org(org).filter(pk=rows_a[0].pk).exists()


def test_cluster_names(api, org):
    plan, _ = plan_with_units(org, n=3)
    f.add_plan_unit(plan, f.make_unit(org), cluster_group="")
    assert api.get(f"/api/study-plans/{plan.pk}/cluster-names").json() == ["Cluster 0", "Cluster 1"]
    assert api.get(f"/api/study-plans/{f.make_study_plan(org).pk}/cluster-names").json() == []


# --- isolation and query counts ---------------------------------------------------------------------


def test_lists_never_show_another_organizations_rows(api, org, other_org):
    plan_with_units(other_org, n=2)
    mine = f.make_study_plan(org)
    assert [p["id"] for p in api.get("/api/study-plans").json()] == [str(mine.pk)]
    assert api.get(f"/api/study-plans/{mine.pk}/units").json() == []


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("get", "/api/study-plans/{plan}", None),
        ("put", "/api/study-plans/{plan}", PLAN),
        ("delete", "/api/study-plans/{plan}", None),
        ("post", "/api/study-plans/{plan}/clone", {"name": "Stolen"}),
        ("get", "/api/study-plans/{plan}/units", None),
        ("post", "/api/study-plans/{plan}/units", {"unitId": "{my_unit}"}),
        ("post", "/api/study-plans/{my_plan}/units", {"unitId": "{unit}"}),
        ("put", "/api/study-plan-units/{plan_unit}", {"faceToFaceHours": 1}),
        ("put", "/api/study-plan-units/{plan_unit}", {"unitId": "{my_unit}"}),
        ("put", "/api/study-plan-units/{my_plan_unit}", {"unitId": "{unit}"}),
        ("delete", "/api/study-plans/{plan}/units/{plan_unit}", None),
        ("delete", "/api/study-plans/{my_plan}/units/{plan_unit}", None),
        ("get", "/api/study-plans/{plan}/cluster-names", None),
    ],
)
def test_another_organizations_ids_are_404(api, org, other_org, method, path, body):
    plan, rows = plan_with_units(other_org, n=1, name="Theirs")
    my_plan, my_rows = plan_with_units(org, n=1)
    ids = {
        "plan": plan.pk,
        "plan_unit": rows[0].pk,
        "unit": f.make_unit(other_org).pk,
        "my_plan": my_plan.pk,
        "my_plan_unit": my_rows[0].pk,
        "my_unit": f.make_unit(org).pk,
    }
    url = path.format(**ids)
    if body is None:
        r = getattr(api, method)(url)
    else:
        r = getattr(api, method)(url, {k: (v.format(**ids) if isinstance(v, str) else v) for k, v in body.items()})
    assert r.status_code == 404, r.content
    assert r.json()["message"].endswith("not found")
    plan.refresh_from_db()
    assert plan.name == "Theirs"
    assert StudyPlanUnit.objects.for_org(other_org).filter(pk=rows[0].pk, face_to_face_hours=Decimal("10")).exists()
    assert StudyPlan.objects.for_org(org).count() == 1


def test_lists_of_1000_rows_use_a_fixed_number_of_queries(api, org, django_assert_max_num_queries):
    plans = StudyPlan.objects.unscoped().bulk_create(
        [StudyPlan(organization=org, name=f"Plan {i:04d}", total_nominal_hours=10) for i in range(1000)]
    )
    units = f.Unit.objects.unscoped().bulk_create(
        [f.Unit(organization=org, code=f"U{i:05d}", name=f"Unit {i}", nominal_hours=10) for i in range(1000)]
    )
    big = plans[0]
    StudyPlanUnit.objects.unscoped().bulk_create(
        [
            StudyPlanUnit(organization=org, study_plan=big, unit=u, sequence_order=i + 1, face_to_face_hours=1)
            for i, u in enumerate(units)
        ]
        + [
            StudyPlanUnit(organization=org, study_plan=p, unit=units[0], sequence_order=1, face_to_face_hours=5)
            for p in plans[1:]
        ]
    )
    with django_assert_max_num_queries(4):  # auth (3) + the annotated list
        r = api.get("/api/study-plans")
    assert len(r.json()) == 1000
    assert r.json()[0]["unitCount"] == 1000 and r.json()[0]["totalActualHours"] == 1000
    with django_assert_max_num_queries(5):  # auth (3) + plan + units with their unit
        r = api.get(f"/api/study-plans/{big.pk}/units")
    assert len(r.json()) == 1000 and r.json()[-1]["sequenceOrder"] == 1000
