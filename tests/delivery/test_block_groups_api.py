"""Block groups, their study plans and read models (docs/behaviour/study-plans.md §2; docs/behaviour/hours.md §2, §4; docs/behaviour/errors.md §1; docs/behaviour/hours.md §2; docs/behaviour/generation.md; docs/behaviour/concurrency.md §2; docs/behaviour/live-events.md §3)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from project.planning.days import INVALID_DAYS_MESSAGE
from project.planning.models import BlockGroup, BlockGroupStudyPlan, LinkedBlockGroup, StudyPlan, StudyPlanUnit
from project.timetabling.models import TimetableSession
from tests import factories as f
from tests.checks import assert_deleted, assert_detail, assert_field_error, validation_errors

pytestmark = pytest.mark.django_db


@pytest.fixture
def course(org):
    return f.make_course(org, code="ICT30120", name="Cert III IT")


@pytest.fixture
def campus(org):
    return f.make_campus(org, name="City", abbreviation="CITY")


@pytest.fixture
def body(course, campus):
    return {
        "code": "ICT-FT-26A",
        "name": "ICT Full Time 2026 A",
        "courseId": str(course.pk),
        "campusId": str(campus.pk),
        "deliveryMode": "remote",
        "studyMode": "part_time",
        "cohortSize": 18,
        "startDate": "2026-02-02",
        "endDate": "2026-11-27",
        "preferredDays": "Wednesday, mon",
        "sessionDuration": 3.5,
        "sessionsPerDay": 1,
        "status": "planned",
    }


def hours(**kw):
    base = dict(
        face_to_face_hours=Decimal("0"),
        facilitated_e_learning_hours=Decimal("0"),
        work_integrated_learning_hours=Decimal("0"),
        in_class_assessment_hours=Decimal("0"),
    )
    base.update({k: Decimal(str(v)) for k, v in kw.items()})
    return base


# --- CRUD -------------------------------------------------------------------------------------------


def test_block_group_crud(api, org, body, course, campus, committed):
    with committed() as sent:
        r = api.post("/api/block-groups", body)
    assert r.status_code == 201, r.content
    group = r.json()
    assert group["code"] == "ICT-FT-26A" and group["name"] == "ICT Full Time 2026 A"
    assert group["course"] == {"id": str(course.pk), "code": "ICT30120", "name": "Cert III IT"}
    assert group["campus"] == {"id": str(campus.pk), "name": "City", "abbreviation": "CITY"}
    assert group["courseId"] == str(course.pk) and group["campusId"] == str(campus.pk)
    assert group["preferredDays"] == [1, 3]
    assert group["preferredDaysText"] == "Wednesday, mon"
    assert group["sessionDuration"] == 3.5 and group["sessionsPerDay"] == 1
    assert group["startDate"] == "2026-02-02" and group["endDate"] == "2026-11-27"
    assert group["deliveryMode"] == "remote" and group["studyMode"] == "part_time" and group["status"] == "planned"
    assert group["timetableCount"] == 0 and group["studyPlanNames"] == []
    assert "updatedAt" in group
    assert sent == [("block_group", "created", [group["id"]])]
    assert BlockGroup.objects.for_org(org).get().preferred_days == "Wednesday, mon"  # stored as entered

    assert_detail(api, f"/api/block-groups/{group['id']}", group)

    with committed() as sent:
        r = api.put(
            f"/api/block-groups/{group['id']}",
            {**body, "name": "Renamed", "preferredDays": "5 1", "courseId": None, "endDate": ""},
            headers={"If-Match": group["updatedAt"]},
        )
    assert r.status_code == 200, r.content
    assert r.json()["name"] == "Renamed" and r.json()["preferredDays"] == [1, 5]
    assert r.json()["course"] is None and r.json()["endDate"] is None
    assert sent == [("block_group", "updated", [group["id"]])]

    assert_deleted(api, committed, f"/api/block-groups/{group['id']}", BlockGroup, "block_group")


def test_block_group_defaults(api):
    r = api.post("/api/block-groups", {"code": "BG1", "name": "Group", "cohortSize": 10, "startDate": "2026-02-02"})
    assert r.status_code == 201, r.content
    g = r.json()
    assert (g["sessionDuration"], g["sessionsPerDay"], g["deliveryMode"], g["studyMode"], g["status"]) == (
        3,
        2,
        "on_campus",
        "full_time",
        "active",
    )
    assert g["endDate"] is None and g["preferredDays"] == [] and g["course"] is None and g["campus"] is None


@pytest.mark.parametrize(
    "extra, path, message",
    [
        ({"cohortSize": 0}, "cohortSize", "Cohort size must be at least 1"),
        ({"cohortSize": None}, "cohortSize", "Cohort size must be at least 1"),
        ({"cohortSize": 10_001}, "cohortSize", "Cohort size cannot exceed 10000"),
        ({"sessionDuration": 0.5}, "sessionDuration", "Session duration must be at least 1 hour"),
        ({"sessionDuration": 13}, "sessionDuration", "Session duration cannot exceed 12 hours"),
        ({"sessionsPerDay": 0}, "sessionsPerDay", "Sessions per day must be at least 1"),
        ({"sessionsPerDay": 11}, "sessionsPerDay", "Sessions per day cannot exceed 10"),
        ({"startDate": ""}, "startDate", "Start date is required"),
        ({"startDate": None}, "startDate", "Start date is required"),
        ({"startDate": "2026-02-30"}, "startDate", None),
        ({"preferredDays": "someday soon"}, "preferredDays", INVALID_DAYS_MESSAGE),
        ({"preferredDays": "Monday " * 40}, "preferredDays", "Preferred days must be at most 255 characters"),
        ({"code": ""}, "code", "Code is required"),
        ({"code": "C" * 51}, "code", "Code must be at most 50 characters"),
        ({"name": None}, "name", "Name is required"),
        ({"deliveryMode": "hybrid"}, "deliveryMode", None),
        ({"studyMode": "evening"}, "studyMode", None),
        ({"status": "cancelled"}, "status", None),
        ({"courseId": "nope"}, "courseId", None),
    ],
)
def test_block_group_validation(api, body, extra, path, message):
    r = api.post("/api/block-groups", {**body, **extra})
    assert r.status_code == 400, r.content
    assert_field_error(r, path, message)
    assert not BlockGroup.objects.unscoped().exists()


def test_missing_start_date_and_cohort_size(api):
    r = api.post("/api/block-groups", {"code": "X", "name": "Y"})
    assert r.status_code == 400
    assert validation_errors(r) == {("cohortSize",): "Cohort size must be at least 1", ("startDate",): "Start date is required"}


def test_end_before_start_is_400(api, body):
    r = api.post("/api/block-groups", {**body, "endDate": "2026-01-01"})
    assert r.status_code == 400
    assert "End date must be on or after start date" in validation_errors(r).values()


def test_preferred_days_accepts_an_array(api, body):
    r = api.post("/api/block-groups", {**body, "preferredDays": [5, 2, 0]})
    assert r.status_code == 201 and r.json()["preferredDays"] == [2, 5, 7]


def test_block_group_duplicate_code_is_409(api, other_api, org, body):
    f.make_block_group(org, code="ICT-FT-26A")
    r = api.post("/api/block-groups", body)
    assert r.status_code == 409 and r.json()["type"] == "duplicate_code"
    assert r.json()["errors"][0]["path"] == ["code"]
    other_body = {**body, "courseId": None, "campusId": None}
    assert other_api.post("/api/block-groups", other_body).status_code == 201


def test_unknown_course_or_campus_is_404(api, body, other_org):
    r = api.post("/api/block-groups", {**body, "courseId": str(f.make_course(other_org).pk)})
    assert r.status_code == 404 and r.json()["message"] == "Course not found"
    r = api.post("/api/block-groups", {**body, "campusId": str(f.make_campus(other_org).pk)})
    assert r.status_code == 404 and r.json()["message"] == "Campus not found"
    assert not BlockGroup.objects.unscoped().exists()


def test_block_group_stale_if_match_is_412(api, org, body, captured_events, django_capture_on_commit_callbacks):
    group = f.make_block_group(org, name="Before")
    etag = api.get(f"/api/block-groups/{group.pk}").headers["ETag"]
    assert api.put(f"/api/block-groups/{group.pk}", {**body, "name": "First"}, headers={"If-Match": etag}).status_code == 200
    captured_events.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = api.put(f"/api/block-groups/{group.pk}", {**body, "name": "Second"}, headers={"If-Match": etag})
    assert r.status_code == 412
    group.refresh_from_db()
    assert group.name == "First"
    assert captured_events == []


def test_delete_block_group_with_sessions_and_links(api, org):
    group, other = f.make_block_group(org), f.make_block_group(org)
    unit = f.make_unit(org)
    f.make_session(org, block_group=group, unit=unit)
    f.assign_plan(group, f.make_study_plan(org))
    r = api.post("/api/linked-block-groups", {"name": "Pair", "memberBlockGroupIds": [str(group.pk), str(other.pk)]})
    assert r.status_code == 201
    assert api.delete(f"/api/block-groups/{group.pk}").status_code == 204
    assert not TimetableSession.objects.for_org(org).exists()
    assert not BlockGroupStudyPlan.objects.for_org(org).exists()
    assert StudyPlan.objects.for_org(org).count() == 1  # the plan itself stays
    # The linked group left with one member is dissolved.
    assert not LinkedBlockGroup.objects.for_org(org).exists()


def test_course_in_use_cannot_be_deleted_but_group_can(api, org, course):
    group = f.make_block_group(org, course=course)
    assert api.delete(f"/api/courses/{course.pk}").status_code == 409
    assert api.delete(f"/api/block-groups/{group.pk}").status_code == 204
    assert api.delete(f"/api/courses/{course.pk}").status_code == 204


# --- list and filters -------------------------------------------------------------------------------


def test_list_filters(api, org):
    ict, bsb = f.make_course(org, code="ICT"), f.make_course(org, code="BSB")
    a = f.make_block_group(org, code="A", status="active", study_mode="full_time", course=ict)
    b = f.make_block_group(org, code="B", status="planned", study_mode="part_time", course=bsb)
    c = f.make_block_group(org, code="C", status="completed", study_mode="full_time", course=None)

    def codes(params=None):
        r = api.get("/api/block-groups", params)
        assert r.status_code == 200
        return [g["code"] for g in r.json()]

    assert codes() == ["A", "B", "C"]
    assert codes({"status": "active"}) == ["A"]
    assert codes({"status": ["active", "planned"]}) == ["A", "B"]
    assert codes({"course": "BSB"}) == ["B"]
    assert codes({"course": ["BSB", "ICT"]}) == ["A", "B"]
    assert codes({"studyMode": "full_time"}) == ["A", "C"]
    assert codes({"status": ["active", "completed"], "studyMode": "full_time", "course": "ICT"}) == ["A"]
    assert codes({"status": "consolidated"}) == []
    assert a and b and c


def test_list_carries_counts_and_plan_names(api, org):
    group = f.make_block_group(org)
    unit = f.make_unit(org)
    p1, p2 = f.make_study_plan(org, name="Year 1"), f.make_study_plan(org, name="Alpha")
    f.assign_plan(group, p1)
    f.assign_plan(group, p2)
    f.make_session(org, block_group=group, unit=unit)
    f.make_session(org, block_group=group, unit=unit, actual_date=date(2026, 3, 4), status="cancelled")
    row = api.get("/api/block-groups").json()[0]
    assert row["timetableCount"] == 2
    assert row["studyPlanNames"] == ["Year 1", "Alpha"]  # assignment order


# --- study plan assignment --------------------------------------------------------------------------


def test_assign_list_and_remove_study_plan(api, org, committed):
    group = f.make_block_group(org)
    plan = f.make_study_plan(org, name="Plan A")
    unit = f.make_unit(org, code="BSBWHS311", name="WHS")
    pu = f.add_plan_unit(plan, unit, **hours(face_to_face_hours=10, facilitated_e_learning_hours=2))
    with committed() as sent:
        r = api.post(f"/api/block-groups/{group.pk}/study-plans", {"studyPlanId": str(plan.pk)})
    assert r.status_code == 201, r.content
    link = r.json()
    assert link["blockGroupId"] == str(group.pk) and link["studyPlanId"] == str(plan.pk)
    assert link["studyPlan"]["name"] == "Plan A" and link["studyPlan"]["isActive"] is True
    assert link["studyPlan"]["units"] == [
        {
            "id": str(pu.pk),
            "unitId": str(unit.pk),
            "sequenceOrder": 1,
            "yearLevel": 1,
            "faceToFaceHours": 10.0,
            "facilitatedELearningHours": 2.0,
            "workIntegratedLearningHours": 0.0,
            "inClassAssessmentHours": 0.0,
            "unit": {"id": str(unit.pk), "code": "BSBWHS311", "name": "WHS", "nominalHours": 40, "isCore": True},
        }
    ]
    assert sent == [("block_group_study_plan", "created", [link["id"]])]
    assert api.get(f"/api/block-groups/{group.pk}/study-plans").json() == [link]
    assert api.get(f"/api/block-groups/{group.pk}").json()["studyPlanNames"] == ["Plan A"]

    with committed() as sent:
        assert api.delete(f"/api/block-groups/{group.pk}/study-plans/{plan.pk}").status_code == 204
    assert sent == [("block_group_study_plan", "deleted", [link["id"]])]
    assert api.get(f"/api/block-groups/{group.pk}/study-plans").json() == []
    assert api.delete(f"/api/block-groups/{group.pk}/study-plans/{plan.pk}").status_code == 404


def test_assign_rules(api, org):
    group = f.make_block_group(org)
    inactive = f.make_study_plan(org, is_active=False)
    r = api.post(f"/api/block-groups/{group.pk}/study-plans", {"studyPlanId": str(inactive.pk)})
    assert r.status_code == 400
    assert validation_errors(r) == {("studyPlanId",): "Only active study plans can be assigned to a block group."}
    r = api.post(f"/api/block-groups/{group.pk}/study-plans", {})
    assert r.status_code == 400 and validation_errors(r) == {("studyPlanId",): "Please select a study plan"}
    plan = f.make_study_plan(org)
    assert api.post(f"/api/block-groups/{group.pk}/study-plans", {"studyPlanId": str(plan.pk)}).status_code == 201
    r = api.post(f"/api/block-groups/{group.pk}/study-plans", {"studyPlanId": str(plan.pk)})
    assert r.status_code == 409 and r.json()["message"] == "This study plan is already assigned to this block group."
    r = api.post(f"/api/block-groups/{group.pk}/study-plans", {"studyPlanId": "00000000-0000-0000-0000-000000000000"})
    assert r.status_code == 404 and r.json()["message"] == "Study plan not found"
    assert BlockGroupStudyPlan.objects.for_org(org).count() == 1


# --- read models ------------------------------------------------------------------------------------


@pytest.fixture
def scheduled(org):
    """A group (Mon/Wed, 2 sessions a day of 3 hours) with two plans and some sessions."""
    group = f.make_block_group(org, preferred_days="Mon, Wed", session_duration=Decimal("3"), sessions_per_day=2)
    u1 = f.make_unit(org, code="U1", name="One", nominal_hours=20)
    u2 = f.make_unit(org, code="U2", name="Two", nominal_hours=30)
    u3 = f.make_unit(org, code="U3", name="Three", nominal_hours=10)
    stray = f.make_unit(org, code="A0", name="Stray", nominal_hours=5)
    p1 = f.make_study_plan(org, name="Plan 1", total_nominal_hours=40)
    p2 = f.make_study_plan(org, name="Plan 2", total_nominal_hours=20)
    pu1 = f.add_plan_unit(
        p1,
        u1,
        **hours(
            face_to_face_hours=10, facilitated_e_learning_hours=2, work_integrated_learning_hours=4, in_class_assessment_hours=1
        ),
        structured_learning_hours=Decimal("2"),
        year_level=1,
    )
    pu2 = f.add_plan_unit(p1, u2, **hours(face_to_face_hours=6), cumulative_assessment_hours=Decimal("1.5"), year_level=2)
    pu3 = f.add_plan_unit(
        p2, u3, **hours(face_to_face_hours=3), work_integrated_learning_balance_hours=Decimal("0.5"), year_level=1
    )
    f.assign_plan(group, p1)
    f.assign_plan(group, p2)
    f.make_session(org, block_group=group, unit=u1)  # 3 h
    f.make_session(org, block_group=group, unit=u1, actual_date=date(2026, 3, 4))  # 3 h
    f.make_session(org, block_group=group, unit=u1, actual_date=date(2026, 3, 9), status="cancelled", actual_hours=Decimal("3"))
    f.make_session(org, block_group=group, unit=stray, actual_date=date(2026, 3, 11))  # 3 h, not in a plan
    other = f.make_block_group(org)
    f.make_session(org, block_group=other, unit=u2)  # another group's session never counts
    return dict(group=group, units=(u1, u2, u3, stray), plans=(p1, p2), plan_units=(pu1, pu2, pu3))


def test_scheduling_info(api, scheduled):
    group = scheduled["group"]
    u1, u2, u3, _ = scheduled["units"]
    p1, p2 = scheduled["plans"]
    pu1, pu2, pu3 = scheduled["plan_units"]
    r = api.get(f"/api/block-groups/{group.pk}/scheduling-info")
    assert r.status_code == 200
    info = r.json()
    assert info["blockGroup"]["id"] == str(group.pk) and info["blockGroup"]["preferredDays"] == [1, 3]
    assert [p["name"] for p in info["studyPlans"]] == ["Plan 1", "Plan 2"]
    assert info["studyPlans"][0]["id"] == str(p1.pk)
    first = info["studyPlans"][0]["units"][0]
    assert first == {
        "id": str(pu1.pk),
        "unitId": str(u1.pk),
        "code": "U1",
        "name": "One",
        "sequenceOrder": 1,
        "yearLevel": 1,
        "facilitatedHours": 13.0,  # 10 + 2 + 1: work-integrated learning is not timetabled
        "actualHours": 17.0,
        "nominalHours": 20,
        "timetabledHours": 6.0,
    }
    assert info["totalFacilitatedHours"] == 13 + 6 + 3
    # Remaining: U1 13-6=7, U2 6, U3 3 -> sessions ceil(7/3)+ceil(6/3)+ceil(3/3) = 3+2+1 = 6.
    assert info["remainingFacilitatedHours"] == 16
    assert info["estimatedSessions"] == 6
    assert info["estimatedWeeks"] == 2  # 6 sessions / (2 a day x 2 days a week)
    assert info["existingSessionCount"] == 3  # the cancelled holiday marker is not counted


def test_scheduling_info_without_plans(api, org):
    group = f.make_block_group(org, preferred_days="")
    info = api.get(f"/api/block-groups/{group.pk}/scheduling-info").json()
    assert info["studyPlans"] == [] and info["totalFacilitatedHours"] == 0
    assert info["estimatedSessions"] == 0 and info["estimatedWeeks"] == 0 and info["existingSessionCount"] == 0


def test_hour_reconciliation(api, scheduled):
    r = api.get(f"/api/block-groups/{scheduled['group'].pk}/hour-reconciliation")
    assert r.status_code == 200
    assert r.json() == {
        "totalNominalHours": 60.0,  # the plans' totalNominalHours
        "unitNominalHours": 60.0,  # 20 + 30 + 10
        "totalActualHours": 26.0,  # 17 + 6 + 3
        "totalSelfDirectedHours": 4.0,  # 2 + 1.5 + 0.5
        "efficiencyRate": 43.33,
        "breakdown": {
            "faceToFaceHours": 19.0,
            "facilitatedELearningHours": 2.0,
            "workIntegratedLearningHours": 4.0,
            "inClassAssessmentHours": 1.0,
            "structuredLearningHours": 2.0,
            "workIntegratedLearningBalanceHours": 0.5,
            "cumulativeAssessmentHours": 1.5,
        },
    }


def test_hour_reconciliation_without_plans_is_zero(api, org):
    body = api.get(f"/api/block-groups/{f.make_block_group(org).pk}/hour-reconciliation").json()
    assert body["totalNominalHours"] == 0 and body["totalActualHours"] == 0 and body["efficiencyRate"] == 0


def test_timetabled_units(api, scheduled):
    u1, u2, u3, stray = scheduled["units"]
    r = api.get(f"/api/block-groups/{scheduled['group'].pk}/timetabled-units")
    assert r.status_code == 200
    assert r.json() == [
        {
            "unitId": str(u1.pk),
            "unitCode": "U1",
            "unitName": "One",
            "nominalHours": 20,
            "timetabledHours": 6.0,
            "plannedHours": 13.0,
        },
        {
            "unitId": str(u2.pk),
            "unitCode": "U2",
            "unitName": "Two",
            "nominalHours": 30,
            "timetabledHours": 0.0,
            "plannedHours": 6.0,
        },
        {
            "unitId": str(u3.pk),
            "unitCode": "U3",
            "unitName": "Three",
            "nominalHours": 10,
            "timetabledHours": 0.0,
            "plannedHours": 3.0,
        },
        # Not in an assigned plan: nothing planned to compare with (ADR 0018).
        {
            "unitId": str(stray.pk),
            "unitCode": "A0",
            "unitName": "Stray",
            "nominalHours": 5,
            "timetabledHours": 3.0,
            "plannedHours": None,
        },
    ]


def test_units_by_year_level(api, scheduled):
    u1, u2, u3, _ = scheduled["units"]
    group = scheduled["group"]
    r = api.get(f"/api/block-groups/{group.pk}/units", {"yearLevel": 1})
    assert r.status_code == 200
    rows = r.json()
    assert [u["id"] for u in rows] == [str(u1.pk), str(u3.pk)]
    assert rows[0]["code"] == "U1" and rows[0]["yearLevel"] == 1 and rows[0]["studyPlanName"] == "Plan 1"
    assert [u["code"] for u in api.get(f"/api/block-groups/{group.pk}/units", {"yearLevel": 2}).json()] == ["U2"]
    assert api.get(f"/api/block-groups/{group.pk}/units", {"yearLevel": 4}).json() == []
    assert [u["code"] for u in api.get(f"/api/block-groups/{group.pk}/units").json()] == ["U1", "U2", "U3"]
    r = api.get(f"/api/block-groups/{group.pk}/units", {"yearLevel": 5})
    assert r.status_code == 400 and validation_errors(r) == {("yearLevel",): "Year level cannot exceed 4"}
    assert api.get(f"/api/block-groups/{group.pk}/units", {"yearLevel": "x"}).status_code == 400


# --- isolation and query counts ---------------------------------------------------------------------


def test_lists_never_show_another_organizations_rows(api, org, other_org):
    theirs = f.make_block_group(other_org, code="THEIRS")
    f.assign_plan(theirs, f.make_study_plan(other_org))
    mine = f.make_block_group(org, code="MINE")
    assert [g["id"] for g in api.get("/api/block-groups").json()] == [str(mine.pk)]
    assert api.get(f"/api/block-groups/{mine.pk}/study-plans").json() == []


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("get", "/api/block-groups/{group}", None),
        ("put", "/api/block-groups/{group}", "FULL"),
        ("delete", "/api/block-groups/{group}", None),
        ("get", "/api/block-groups/{group}/study-plans", None),
        ("post", "/api/block-groups/{group}/study-plans", {"studyPlanId": "{my_plan}"}),
        ("post", "/api/block-groups/{my_group}/study-plans", {"studyPlanId": "{plan}"}),
        ("delete", "/api/block-groups/{group}/study-plans/{plan}", None),
        ("delete", "/api/block-groups/{my_group}/study-plans/{plan}", None),
        ("get", "/api/block-groups/{group}/scheduling-info", None),
        ("get", "/api/block-groups/{group}/hour-reconciliation", None),
        ("get", "/api/block-groups/{group}/timetabled-units", None),
        ("get", "/api/block-groups/{group}/units", None),
    ],
)
def test_another_organizations_ids_are_404(api, org, other_org, body, method, path):
    group = f.make_block_group(other_org, name="Theirs")
    plan = f.make_study_plan(other_org)
    f.assign_plan(group, plan)
    my_group, my_plan = f.make_block_group(org), f.make_study_plan(org)
    ids = {"group": group.pk, "plan": plan.pk, "my_group": my_group.pk, "my_plan": my_plan.pk}
    url = path.format(**ids)
    if body is None:
        r = getattr(api, method)(url)
    elif body == "FULL":
        r = getattr(api, method)(url, {"code": "X", "name": "Hijacked", "cohortSize": 1, "startDate": "2026-01-01"})
    else:
        r = getattr(api, method)(url, {k: v.format(**ids) for k, v in body.items()})
    assert r.status_code == 404, r.content
    assert r.json()["message"].endswith("not found")
    group.refresh_from_db()
    assert group.name == "Theirs"
    assert BlockGroupStudyPlan.objects.for_org(other_org).count() == 1
    assert not BlockGroupStudyPlan.objects.for_org(org).exists()


def test_list_of_1000_block_groups_with_plans_and_sessions(api, org, django_assert_max_num_queries):
    course, campus = f.make_course(org), f.make_campus(org)
    unit = f.make_unit(org)
    plans = StudyPlan.objects.unscoped().bulk_create(
        [StudyPlan(organization=org, name=f"Plan {i:04d}", total_nominal_hours=10) for i in range(1000)]
    )
    groups = BlockGroup.objects.unscoped().bulk_create(
        [
            BlockGroup(
                organization=org,
                code=f"G{i:05d}",
                name=f"Group {i}",
                cohort_size=10,
                start_date=date(2026, 2, 2),
                preferred_days="mon wed",
                course=course,
                campus=campus,
            )
            for i in range(1000)
        ]
    )
    BlockGroupStudyPlan.objects.unscoped().bulk_create(
        [BlockGroupStudyPlan(organization=org, block_group=g, study_plan=p) for g, p in zip(groups, plans, strict=True)]
        + [BlockGroupStudyPlan(organization=org, block_group=g, study_plan=plans[0]) for g in groups[1:]]
    )
    TimetableSession.objects.unscoped().bulk_create(
        [
            TimetableSession(
                organization=org,
                block_group=g,
                unit=unit,
                day_of_week=1,
                start_time="09:00",
                end_time="12:00",
                actual_date=date(2026, 3, 2),
                actual_hours=3,
            )
            for g in groups
            for _ in range(2)
        ]
    )
    with django_assert_max_num_queries(5):  # auth (3) + groups with course, campus, count + plan links
        r = api.get("/api/block-groups")
    rows = r.json()
    assert len(rows) == 1000
    assert rows[1]["timetableCount"] == 2 and rows[1]["studyPlanNames"] == ["Plan 0001", "Plan 0000"]
    assert rows[0]["course"]["id"] == str(course.pk)

    big = groups[0]
    StudyPlanUnit.objects.unscoped().bulk_create(
        [
            StudyPlanUnit(organization=org, study_plan=plans[0], unit=u, sequence_order=i + 1, face_to_face_hours=1)
            for i, u in enumerate(
                f.Unit.objects.unscoped().bulk_create(
                    [f.Unit(organization=org, code=f"U{i:05d}", name="u", nominal_hours=1) for i in range(1000)]
                )
            )
        ]
    )
    with django_assert_max_num_queries(6):
        r = api.get(f"/api/block-groups/{big.pk}/study-plans")
    assert len(r.json()[0]["studyPlan"]["units"]) == 1000
    for path in ("scheduling-info", "timetabled-units", "units", "hour-reconciliation"):
        with django_assert_max_num_queries(9):
            r = api.get(f"/api/block-groups/{big.pk}/{path}")
        assert r.status_code == 200


MALFORMED = [
    "[1]",
    "null",
    '"x"',
    "5",
    "{}",
    '{"code": {"a": 1}, "name": [1], "unitId": 5, "memberBlockGroupIds": "x", "faceToFaceHours": "1e999",'
    ' "cohortSize": 1e300, "sessionDuration": "Infinity", "startDate": 5, "preferredDays": 7, "studyPlanId": [],'
    ' "totalNominalHours": 1.5, "nominalHours": true, "yearLevel": "2.5", "sequenceOrder": -1}',
]


def test_no_malformed_body_gives_a_500(api, org):
    """docs/behaviour/errors.md §8: no request, however malformed, yields a 500 (every write of this area)."""
    group, plan, unit = f.make_block_group(org), f.make_study_plan(org), f.make_unit(org)
    plan_unit = f.add_plan_unit(plan, unit)
    linked = LinkedBlockGroup.objects.unscoped().create(organization=org, name="L")
    writes = [
        ("post", "/api/courses"),
        ("put", f"/api/courses/{f.make_course(org).pk}"),
        ("post", "/api/units"),
        ("put", f"/api/units/{unit.pk}"),
        ("post", "/api/study-plans"),
        ("put", f"/api/study-plans/{plan.pk}"),
        ("post", f"/api/study-plans/{plan.pk}/clone"),
        ("post", f"/api/study-plans/{plan.pk}/units"),
        ("put", f"/api/study-plan-units/{plan_unit.pk}"),
        ("post", "/api/block-groups"),
        ("put", f"/api/block-groups/{group.pk}"),
        ("post", f"/api/block-groups/{group.pk}/study-plans"),
        ("post", "/api/linked-block-groups"),
        ("put", f"/api/linked-block-groups/{linked.pk}"),
    ]
    for method, path in writes:
        for raw in MALFORMED:
            r = getattr(api.client, method)(path, raw, content_type="application/json", headers=api._headers(None))
            if raw == "{}" and path.startswith("/api/study-plan-units/"):
                assert r.status_code == 200  # a partial update that changes nothing
                continue
            assert r.status_code == 400, (method, path, raw, r.status_code, r.content)
    plan_unit.refresh_from_db()
    assert plan_unit.sequence_order == 1


def test_block_groups_filtered_by_study_plan(api, org):
    """A study plan's detail page lists the block groups it is assigned to."""
    plan = f.make_study_plan(org, name="Filtered plan")
    a, b, c = (f.make_block_group(org, code=code) for code in ("SP-A", "SP-B", "SP-C"))
    f.assign_plan(a, plan)
    f.assign_plan(c, plan)
    f.assign_plan(b, f.make_study_plan(org, name="Another plan"))
    r = api.get("/api/block-groups", {"studyPlan": str(plan.pk)})
    assert r.status_code == 200
    assert [g["code"] for g in r.json()] == ["SP-A", "SP-C"]
    assert [g["code"] for g in api.get("/api/block-groups").json()] == ["SP-A", "SP-B", "SP-C"]
