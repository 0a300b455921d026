"""Reports: every figure checked against the hand-computed world of ``conftest.py``."""

from __future__ import annotations

from datetime import date, time

import pytest

from project.reporting import selectors
from tests import factories as f

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- block groups without timetables


def test_block_groups_without_timetables_lists_only_groups_with_no_session(api, world):
    # A group whose only session is cancelled still has a timetable (the holiday marker).
    g5 = f.make_block_group(world.org, code="G5", name="Group Five")
    f.make_session(world.org, block_group=g5, unit=world.u1, status="cancelled")
    res = api.get("/api/reports/block-groups-without-timetables")
    assert res.status_code == 200
    assert res.json() == [
        {
            "id": str(world.g4.id),
            "code": "G4",
            "name": "Group Four",
            "status": "planned",
            "startDate": "2026-07-06",
            "endDate": "2026-12-01",
            "deliveryMode": "remote",
            "studyPattern": "part_time",
        }
    ]


def test_block_groups_without_timetables_empty_and_other_org(api, other_api, world):
    f.make_block_group(world.org, code="G6")  # no session
    assert [r["code"] for r in api.get("/api/reports/block-groups-without-timetables").json()] == ["G4", "G6"]
    assert other_api.get("/api/reports/block-groups-without-timetables").json() == []


# ---------------------------------------------------------------- scheduling summary


def test_scheduling_summary_figures(world):
    r = selectors.scheduling_summary(org=world.org, year=2026, today=date(2026, 6, 1))
    assert r["totalSessions"] == 7  # s1 s2 s3 s4 s5 s8 s9 (s6 cancelled, s7 in 2025)
    assert r["totalScheduledHours"] == 19.0  # 3+3+3+4+3+2+1
    assert (r["upcomingSessions"], r["pastSessions"]) == (3, 4)  # s4 s8 s9 on/after 1 June
    assert (r["activeBlockGroups"], r["totalBlockGroups"]) == (3, 4)
    assert (r["teachersWithSchedules"], r["totalTeachers"]) == (2, 3)  # T1 T2 of active T1 T2 T4
    assert (r["unitsInSchedule"], r["totalUnits"]) == (3, 4)
    assert r["monthlyBreakdown"] == [
        {"month": "2026-03", "monthName": "March", "sessions": 3, "teachers": 2, "hours": 9.0, "blockGroups": 1},
        {"month": "2026-05", "monthName": "May", "sessions": 1, "teachers": 1, "hours": 3.0, "blockGroups": 1},
        {"month": "2026-08", "monthName": "August", "sessions": 2, "teachers": 1, "hours": 6.0, "blockGroups": 1},
        {"month": "2026-09", "monthName": "September", "sessions": 1, "teachers": 1, "hours": 1.0, "blockGroups": 1},
    ]
    assert [(t["teacherName"], t["units"], t["hours"], t["sessions"]) for t in r["topTeachers"]] == [
        ("Alice Anders", 2, 10.0, 3),
        ("Bob Brown", 2, 6.0, 2),
        ("Cara Cole", 1, 1.0, 1),
    ]
    # U2 7 h; U3 and U1 both 6 h: U3 first with more sessions (3 against 2).
    assert [(u["unitCode"], u["unitName"], u["hours"], u["sessions"]) for u in r["topUnits"]] == [
        ("ICTICT002", "Unit Two", 7.0, 2),
        ("ICTICT003", "Unit Three", 6.0, 3),
        ("ICTICT001", "Unit One", 6.0, 2),
    ]


def test_scheduling_summary_api_previous_year_and_shape(api, world):
    res = api.get("/api/reports/scheduling-summary", {"year": 2025})
    assert res.status_code == 200
    body = res.json()
    assert body["totalSessions"] == 1 and body["totalScheduledHours"] == 2.0  # s7 only
    assert body["pastSessions"] + body["upcomingSessions"] == 1
    assert body["monthlyBreakdown"] == [
        {"month": "2025-12", "monthName": "December", "sessions": 1, "teachers": 1, "hours": 2.0, "blockGroups": 1}
    ]
    assert body["topTeachers"][0]["teacherName"] == "Alice Anders"


def test_scheduling_summary_empty_year(api, world):
    body = api.get("/api/reports/scheduling-summary", {"year": 2030}).json()
    assert body["totalSessions"] == 0 and body["totalScheduledHours"] == 0
    assert body["monthlyBreakdown"] == [] and body["topTeachers"] == [] and body["topUnits"] == []
    assert body["totalTeachers"] == 3 and body["totalUnits"] == 4 and body["totalBlockGroups"] == 4


def test_top_five_teachers_and_top_eight_units_ordering(org):
    g = f.make_block_group(org, code="GX")
    teachers = [f.make_teacher(org, first_name=f"T{i}", last_name="X") for i in range(7)]
    units = [f.make_unit(org, code=f"U{i:02d}") for i in range(10)]
    # Teacher Ti teaches i+1 one-hour sessions: T6 most, then T5 ... only five are kept.
    for i, t in enumerate(teachers):
        for k in range(i + 1):
            f.make_session(
                org, block_group=g, unit=units[0], teacher=t, actual_date=date(2026, 4, 1 + k), start=time(9), end=time(10)
            )
    r = selectors.scheduling_summary(org=org, year=2026, today=date(2026, 1, 1))
    assert [t["teacherName"] for t in r["topTeachers"]] == ["T6 X", "T5 X", "T4 X", "T3 X", "T2 X"]
    assert [t["hours"] for t in r["topTeachers"]] == [7.0, 6.0, 5.0, 4.0, 3.0]

    # Ten units, one session each of 1 + (i % 5) hours: ties on hours and sessions go by code.
    org2 = f.make_org()
    g2 = f.make_block_group(org2, code="GY")
    units2 = [f.make_unit(org2, code=f"V{i:02d}") for i in range(10)]
    for i, u in enumerate(units2):
        f.make_session(org2, block_group=g2, unit=u, actual_date=date(2026, 5, 4), start=time(8), end=time(8 + 1 + (i % 5)))
    # hours: V00 1, V01 2, V02 3, V03 4, V04 5, V05 1, V06 2, V07 3, V08 4, V09 5
    r2 = selectors.scheduling_summary(org=org2, year=2026, today=date(2026, 1, 1))
    assert [u["unitCode"] for u in r2["topUnits"]] == ["V04", "V09", "V03", "V08", "V02", "V07", "V01", "V06"]
    assert len(r2["topUnits"]) == 8


# ---------------------------------------------------------------- load planning


def _load(report, term):
    return report["termData"][str(term)]


def test_load_planning_quarters_without_term_breaks(api, world):
    body = api.get("/api/reports/load-planning", {"year": 2026}).json()
    assert sorted(body["termData"]) == ["1", "2", "3"]  # nothing in Oct-Dec
    t1 = _load(body, 1)
    assert t1 == {
        "courses": {
            str(world.c1.id): {
                "courseName": "Certificate III in IT",
                "courseCode": "ICT30120",
                "blockGroups": {
                    str(world.g1.id): {
                        "blockGroupName": "Group One",
                        "blockGroupCode": "G1",
                        "nominalHours": 100.0,  # U1 40 + U2 60
                        "actualHours": 9.0,  # s1 s2 s3 (s6 cancelled)
                        "studentCount": 20,
                    }
                },
                "totals": {"nominalHours": 100.0, "actualHours": 9.0, "studentCount": 20},
            }
        },
        "grandTotals": {"nominalHours": 100.0, "actualHours": 9.0, "studentCount": 20},
    }
    t2 = _load(body, 2)  # April-June: s5, G3 without a course
    assert list(t2["courses"]) == ["none"]
    assert t2["courses"]["none"]["courseName"] == "No course"
    assert t2["courses"]["none"]["blockGroups"][str(world.g3.id)]["nominalHours"] == 20.0
    assert t2["grandTotals"] == {"nominalHours": 20.0, "actualHours": 3.0, "studentCount": 10}
    t3 = _load(body, 3)  # s4 (U2 4 h), s8 (U3 2 h), s9 (U3 1 h) all G2
    assert t3["grandTotals"] == {"nominalHours": 80.0, "actualHours": 7.0, "studentCount": 15}


def test_load_planning_terms_from_term_breaks(api, world):
    # Two breaks: term 1 until 3 March (inclusive), term 2 until 10 August, term 3 after.
    f.make_holiday(world.org, name="Summer", type="term_break", start_date=date(2026, 2, 20), end_date=date(2026, 3, 3))
    f.make_holiday(world.org, name="Winter", type="term_break", start_date=date(2026, 7, 1), end_date=date(2026, 8, 10))
    f.make_holiday(world.org, name="Public", type="public_holiday", start_date=date(2026, 5, 1))  # not a break
    # A second group of course C1 in term 2, to check course totals add up.
    g5 = f.make_block_group(world.org, code="G5", name="Group Five", course=world.c1, cohort_size=12)
    world.session(date(2026, 6, 1), g5, world.u2, world.t4, time(9), time(11))
    body = api.get("/api/reports/load-planning", {"year": 2026}).json()
    assert sorted(body["termData"]) == ["1", "2", "3"]
    t1 = _load(body, 1)  # s1 (2 Mar, U1 3 h), s3 (3 Mar = break end: still term 1, U2 3 h)
    assert t1["grandTotals"] == {"nominalHours": 100.0, "actualHours": 6.0, "studentCount": 20}
    t2 = _load(body, 2)
    assert list(t2["courses"]) == [str(world.c1.id), str(world.c2.id), "none"]
    c1 = t2["courses"][str(world.c1.id)]
    assert list(c1["blockGroups"]) == [str(world.g1.id), str(g5.id)]  # by code
    assert c1["blockGroups"][str(world.g1.id)]["nominalHours"] == 40.0  # s2: U1 only
    assert c1["blockGroups"][str(world.g1.id)]["actualHours"] == 3.0
    assert c1["blockGroups"][str(g5.id)] == {
        "blockGroupName": "Group Five",
        "blockGroupCode": "G5",
        "nominalHours": 60.0,
        "actualHours": 2.0,
        "studentCount": 12,
    }
    assert c1["totals"] == {"nominalHours": 100.0, "actualHours": 5.0, "studentCount": 32}
    assert t2["courses"][str(world.c2.id)]["totals"] == {
        "nominalHours": 60.0,
        "actualHours": 4.0,
        "studentCount": 15,
    }  # s4 on 10 Aug
    assert t2["courses"]["none"]["totals"] == {"nominalHours": 20.0, "actualHours": 3.0, "studentCount": 10}  # s5
    assert t2["grandTotals"] == {"nominalHours": 180.0, "actualHours": 12.0, "studentCount": 57}
    t3 = _load(body, 3)  # s8 + s9: U3 for G2
    assert t3["grandTotals"] == {"nominalHours": 20.0, "actualHours": 3.0, "studentCount": 15}


def test_load_planning_empty(api, world):
    body = api.get("/api/reports/load-planning", {"year": 2031}).json()
    assert body == {"year": 2031, "termData": {}}


def test_term_ranges_match_term_calendar():
    from project.timetabling.calendar import TermCalendar

    cal = TermCalendar([(date(2026, 4, 4), date(2026, 4, 19)), (date(2026, 6, 27), date(2026, 7, 12))])
    ranges = selectors.term_ranges(cal, 2026)
    assert ranges == {
        1: (date(2026, 1, 1), date(2026, 4, 19)),
        2: (date(2026, 4, 20), date(2026, 7, 12)),
        3: (date(2026, 7, 13), date(2026, 12, 31)),
    }
    assert selectors.term_ranges(TermCalendar([]), 2027)[2] == (date(2027, 4, 1), date(2027, 6, 30))


# ---------------------------------------------------------------- teacher workload summary


def test_workload_summary_semester_split(api, world):
    body = api.get("/api/teachers/workload-summary", {"year": 2026}).json()
    assert body["totalTeachers"] == 3
    assert body["totalUnitsDelivered"] == 3
    assert body["semester1TotalHours"] == 12.0  # s1 s2 s3 s5
    assert body["semester2TotalHours"] == 5.0  # s4 s9 (s8 has no teacher)
    assert body["totalActualHours"] == 17.0
    assert [(t["teacherName"], t["totalHours"], t["semester1Total"], t["semester2Total"]) for t in body["teachers"]] == [
        ("Alice Anders", 10.0, 6.0, 4.0),
        ("Bob Brown", 6.0, 6.0, 0.0),
        ("Cara Cole", 1.0, 0.0, 1.0),
    ]
    alice = body["teachers"][0]
    assert alice["teacherId"] == str(world.t1.id)
    assert alice["teacherEmployeeId"] == "E001" and alice["isActive"] is True
    assert body["teachers"][2]["isActive"] is False
    assert alice["units"] == [
        {
            "unitCode": "ICTICT001",
            "unitName": "Unit One",
            "nominalHours": 40,
            "semester1Hours": 6.0,
            "semester2Hours": 0.0,
            "totalActualHours": 6.0,
            "blockGroups": ["Group One"],
            "firstDeliveryDate": "2026-03-02",
            "lastDeliveryDate": "2026-03-04",
        },
        {
            "unitCode": "ICTICT002",
            "unitName": "Unit Two",
            "nominalHours": 60,
            "semester1Hours": 0.0,
            "semester2Hours": 4.0,
            "totalActualHours": 4.0,
            "blockGroups": ["Group Two"],
            "firstDeliveryDate": "2026-08-10",
            "lastDeliveryDate": "2026-08-10",
        },
    ]


def test_workload_summary_semester_boundary_and_group_names(api, world):
    # 30 June is semester 1, 1 July semester 2; the same unit to two groups lists both names.
    world.session(date(2026, 6, 30), world.g1, world.u3, world.t2, time(9), time(11))
    world.session(date(2026, 7, 1), world.g2, world.u3, world.t2, time(9), time(10))
    body = api.get("/api/teachers/workload-summary", {"year": 2026}).json()
    bob = next(t for t in body["teachers"] if t["teacherName"] == "Bob Brown")
    u3 = next(u for u in bob["units"] if u["unitCode"] == "ICTICT003")
    assert (u3["semester1Hours"], u3["semester2Hours"], u3["totalActualHours"]) == (5.0, 1.0, 6.0)
    assert u3["blockGroups"] == ["Group One", "Group Three", "Group Two"]
    assert (u3["firstDeliveryDate"], u3["lastDeliveryDate"]) == ("2026-05-05", "2026-07-01")


def test_workload_summary_empty(api, world):
    body = api.get("/api/teachers/workload-summary", {"year": 2024}).json()
    assert body == {
        "year": 2024,
        "totalTeachers": 0,
        "totalUnitsDelivered": 0,
        "semester1TotalHours": 0.0,
        "semester2TotalHours": 0.0,
        "totalActualHours": 0.0,
        "teachers": [],
    }


# ---------------------------------------------------------------- teacher delivery summary


def test_delivery_summary_rows(api, world):
    world.session(date(2026, 10, 5), world.g2, world.u1, world.t1, time(9), time(10, 30))
    res = api.get(f"/api/teachers/{world.t1.id}/delivery-summary", {"year": 2026})
    assert res.status_code == 200
    assert res.json() == [
        {
            "unitCode": "ICTICT001",
            "unitName": "Unit One",
            "blockGroupCode": "G1",
            "blockGroupName": "Group One",
            "nominalHours": 40,
            "actualDeliveryHours": 6.0,
            "firstDeliveryDate": "2026-03-02",
            "lastDeliveryDate": "2026-03-04",
        },
        {
            "unitCode": "ICTICT002",
            "unitName": "Unit Two",
            "blockGroupCode": "G2",
            "blockGroupName": "Group Two",
            "nominalHours": 60,
            "actualDeliveryHours": 4.0,
            "firstDeliveryDate": "2026-08-10",
            "lastDeliveryDate": "2026-08-10",
        },
        {
            "unitCode": "ICTICT001",
            "unitName": "Unit One",
            "blockGroupCode": "G2",
            "blockGroupName": "Group Two",
            "nominalHours": 40,
            "actualDeliveryHours": 1.5,
            "firstDeliveryDate": "2026-10-05",
            "lastDeliveryDate": "2026-10-05",
        },
    ]
    assert api.get(f"/api/teachers/{world.t4.id}/delivery-summary", {"year": 2026}).json() == []
    assert api.get(f"/api/teachers/{world.t1.id}/delivery-summary", {"year": 2025}).json()[0]["actualDeliveryHours"] == 2.0


def test_delivery_summary_other_org_teacher_is_404(other_api, world):
    res = other_api.get(f"/api/teachers/{world.t1.id}/delivery-summary", {"year": 2026})
    assert res.status_code == 404
    assert res.json() == {"message": "Teacher not found"}


# ---------------------------------------------------------------- parameters and access


@pytest.mark.parametrize(
    "path",
    [
        "/api/reports/scheduling-summary",
        "/api/reports/load-planning",
        "/api/teachers/workload-summary",
        "/api/teachers/allocation-gantt",
    ],
)
@pytest.mark.parametrize("year", ["1999", "2101", "abc", "2026.5", "99999999999999999999", "-2026"])
def test_bad_years_are_400(api, path, year):
    res = api.get(path, {"year": year})
    assert res.status_code == 400
    body = res.json()
    assert body["type"] == "validation_error"
    assert body["errors"] == [{"path": ["year"], "message": "Year must be a number between 2000 and 2100"}]


def test_year_bounds_accepted_and_default(api, world):
    assert api.get("/api/reports/scheduling-summary", {"year": "2000"}).status_code == 200
    assert api.get("/api/reports/scheduling-summary", {"year": "2100"}).status_code == 200
    from project.reporting.params import today_for

    body = api.get("/api/reports/scheduling-summary").json()
    assert body["year"] == today_for(None).year


def test_delivery_summary_bad_year_is_400(api, world):
    assert api.get(f"/api/teachers/{world.t1.id}/delivery-summary", {"year": "1900"}).status_code == 400


@pytest.mark.parametrize(
    "path",
    [
        "/api/reports/block-groups-without-timetables",
        "/api/reports/scheduling-summary",
        "/api/reports/load-planning",
        "/api/reports/load-planning/export?format=csv",
        "/api/teachers/workload-summary",
        "/api/teachers/allocation-gantt",
        "/api/dashboard/stats",
        "/api/dashboard/teacher-workload",
        "/api/dashboard/upcoming-sessions",
        "/api/dashboard/teacher-allocations?start=2026-03-02&end=2026-03-08",
    ],
)
def test_signed_out_is_401(anon_api, path):
    res = anon_api.get(path)
    assert res.status_code == 401
    assert res.json() == {"message": "Unauthorized"}


def test_member_can_read_reports(member_api, world):
    assert member_api.get("/api/reports/load-planning", {"year": 2026}).status_code == 200
    assert member_api.get("/api/teachers/workload-summary", {"year": 2026}).json()["totalTeachers"] == 3


# ---------------------------------------------------------------- answers written as raw JSON keep their schema


def test_raw_json_answers_match_their_declared_schemas(api, world):
    """The big answers skip Ninja's response validation for speed: check them against the schemas here."""
    from project.reporting import schemas as sc

    checks = [
        ("/api/reports/load-planning?year=2026", sc.LoadPlanningOut),
        ("/api/teachers/workload-summary?year=2026", sc.WorkloadSummaryOut),
        ("/api/teachers/allocation-gantt?year=2026&term=1", sc.AllocationGridOut),
        ("/api/dashboard/teacher-allocations?start=2026-03-01&end=2026-03-31", sc.TeacherAllocationsOut),
    ]
    for path, schema in checks:
        res = api.get(path)
        assert res.status_code == 200 and res["Content-Type"] == "application/json"
        body = res.json()
        parsed = schema.model_validate(body)
        # Every field of the schema is present under its camelCase name (nothing silently defaulted).
        for field in schema.model_fields.values():
            assert field.alias in body, (path, field.alias)
        assert parsed is not None
    grid = sc.AllocationGridOut.model_validate(api.get("/api/teachers/allocation-gantt?year=2026&term=1").json())
    assert grid.teachers[0].weekly_stats[9].sessions[0].unit_code == "ICTICT001"
    from project.reporting.params import today_for

    f.make_session(world.org, block_group=world.g1, unit=world.u1, actual_date=today_for(None))
    upcoming = api.get("/api/dashboard/upcoming-sessions").json()
    assert [sc.UpcomingSessionOut.model_validate(row).unit.code for row in upcoming] == ["ICTICT001"]
