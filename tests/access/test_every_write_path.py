"""Every write path's activity reads back (docs/adr/0011, docs/adr/0023).

The list of write operations comes from the OpenAPI schema the server answers: each one is either walked
here (called for real, with a valid body, in an order where each finds what it needs) or named in
``NOT_WALKED`` with the reason. A new write operation fails the first test until it is added.

For every activity the walk records, ``GET /api/activity/{id}`` answers 200 to an administrator with a
readable detail (a summary, each touched row with a label and created / updated / deleted), and to a
member 200 or 404 exactly as :func:`project.history.visibility.may_read` says. Operations that write no
organization data (sign-in, feeds, previews) must record no activity.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, time

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from project.history.models import Activity
from project.history.visibility import may_read
from tests import factories as f
from tests.accounts.conftest import code_at
from tests.conftest import ApiClient
from tests.timetabling.conftest import TEMPLATES, session_body

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
WRITE_METHODS = {"post", "put", "patch", "delete"}
NOT_WALKED = {
    ("POST", "/api/auth/passkeys/register/complete"): "needs a WebAuthn authenticator's signed answer",
    ("POST", "/api/auth/passkeys/authenticate/complete"): "needs a WebAuthn authenticator's signed answer",
    ("POST", "/api/organization/sso/test"): "fetches the identity provider's discovery document (outbound network)",
    (
        "POST",
        "/api/organization/sso/domains/verify",
    ): "looks the TXT record up in DNS (tests/sso/test_domains.py runs its own DNS server)",
}


def schema_writes() -> set[tuple[str, str]]:
    from project.api import api as ninja_api

    paths = ninja_api.get_openapi_schema()["paths"]
    return {(m.upper(), p) for p, ops in paths.items() for m in ops if m in WRITE_METHODS}


@dataclass
class Step:
    method: str
    path: str  # as the OpenAPI schema names it
    call: Callable[[dict], object]  # the world -> the response
    records: bool = True  # whether it writes organization data (one activity or more)


def _ok(r, *statuses):
    assert r.status_code in (statuses or (200, 201, 204)), (r.status_code, r.content[:1000])
    return r.json() if r.content and r["Content-Type"].startswith("application/json") else None


def _etag(client, path) -> dict:
    """``If-Match`` with the row's current ETag, when its path answers one to a GET."""
    r = client.get(path)
    return {"If-Match": r["ETag"]} if r.status_code == 200 and r.has_header("ETag") else {}


def steps(api: ApiClient, member: ApiClient, org, admin_user, member_user) -> list[Step]:  # noqa: C901 — one table
    unit_body = {"code": "WALK-U1", "name": "Walk unit", "nominalHours": 20}
    plan_unit_body = {"faceToFaceHours": 6, "inClassAssessmentHours": 3}
    teacher_body = {
        "employeeId": "WALK-T1",
        "firstName": "Walk",
        "lastName": "Teacher",
        "email": "walk.teacher@example.edu.au",
        "maxWeeklyHours": 30,
    }
    group_body = {
        "code": "WALK-G1",
        "name": "Walk group",
        "cohortSize": 12,
        "startDate": "2026-02-02",
        "preferredDays": "Monday, Wednesday",
    }
    room_body = {"code": "WALK-R1", "name": "Walk room", "capacity": 20, "features": ["Projector", "Sink"], "type": "classroom"}

    def put(client, path, body):
        return client.put(path, body, headers=_etag(client, path))

    def setup_password(w):
        client = ApiClient()
        token = w["invitation"].split("token=", 1)[1]
        user_id = _ok(client.post("/api/auth/first-time-login", {"token": token}))["userId"]
        secret = _ok(client.get(f"/api/auth/totp-setup/{user_id}"))["manualEntryKey"]
        password = "Walk$Newcomer2026"
        return client.post(
            "/api/auth/setup-password",
            {"userId": user_id, "password": password, "confirmPassword": password, "totpCode": code_at(secret)},
        )

    def enable_totp(w):
        secret = _ok(member.get(f"/api/auth/totp-setup/{member_user.pk}"))["manualEntryKey"]
        return member.post("/api/auth/enable-totp", {"totpCode": code_at(secret)})

    def passkey_delete(w):
        from project.accounts.models import Passkey

        key = Passkey.objects.create(
            user=admin_user, credential_id="walk-credential", public_key="walk-key", device_name="Walk key"
        )
        return api.delete(f"/api/auth/passkeys/{key.pk}")

    def import_sessions(w):
        wb = openpyxl.load_workbook(io.BytesIO(api.get("/api/timetables/template").content))
        row = ["WALK-IMP", "Imported cohort", "WALK-IMPU", "Imported unit", date(2026, 3, 2), "Monday", time(9), time(12)]
        wb["Sessions"].append([*row, None, None, "R1", None, "scheduled", None])
        out = io.BytesIO()
        wb.save(out)
        return api.post(
            "/api/timetables/import", data={"file": SimpleUploadedFile("walk.xlsx", out.getvalue(), content_type=XLSX)}
        )

    def import_availability(w):
        import openpyxl

        wb = openpyxl.Workbook()
        wb.active.append(["Employee ID", "Kind", "Weekday", "Start", "End"])
        for day in ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"):  # the walk's later writes still fit
            wb.active.append(["WALK-T1", "available", day, "07:00", "22:00"])
        out = io.BytesIO()
        wb.save(out)
        return api.post(
            "/api/teachers/availability/import",
            data={"file": SimpleUploadedFile("walk-availability.xlsx", out.getvalue(), content_type=XLSX)},
        )

    def replan_apply(w):
        body = {"holidayId": w["snap_holiday"]}
        proposal = _ok(api.post("/api/replan/propose", body))
        assert proposal["changes"], proposal
        return api.post("/api/replan/apply", {"proposalId": proposal["id"], "version": proposal["version"]})

    def remember(key, field="id"):
        def keep(w, r):
            w[key] = _ok(r)[field]
            return r

        return keep

    def then(call, after):
        return lambda w: after(w, call(w))

    a = api
    return [
        # Catalogue
        Step(
            "POST",
            "/api/courses",
            then(lambda w: a.post("/api/courses", {"code": "WALK-C1", "name": "Walk course"}), remember("course")),
        ),
        Step(
            "PUT",
            "/api/courses/{course_id}",
            lambda w: put(a, f"/api/courses/{w['course']}", {"code": "WALK-C1", "name": "Walk course 2"}),
        ),
        Step("POST", "/api/units", then(lambda w: a.post("/api/units", unit_body), remember("unit"))),
        Step("PUT", "/api/units/{unit_id}", lambda w: put(a, f"/api/units/{w['unit']}", {**unit_body, "name": "Walk unit 2"})),
        Step(
            "POST", "/api/rooms", then(lambda w: a.post("/api/rooms", {**room_body, "campusId": w["campus"]}), remember("room"))
        ),
        Step(
            "PUT",
            "/api/rooms/{room_id}",
            lambda w: put(a, f"/api/rooms/{w['room']}", {**room_body, "features": ["Sink"], "capacity": 24}),
        ),
        Step(
            "POST",
            "/api/rooms/availability",
            lambda w: a.post("/api/rooms/availability", {"sessionIds": [w["session"]]}),
            records=False,
        ),
        # Planning
        Step(
            "POST",
            "/api/study-plans",
            then(lambda w: a.post("/api/study-plans", {"name": "Walk plan", "totalNominalHours": 20}), remember("plan")),
        ),
        Step(
            "PUT",
            "/api/study-plans/{plan_id}",
            lambda w: put(a, f"/api/study-plans/{w['plan']}", {"name": "Walk plan 2", "totalNominalHours": 20}),
        ),
        Step(
            "POST",
            "/api/study-plans/{plan_id}/units",
            then(
                lambda w: a.post(f"/api/study-plans/{w['plan']}/units", {"unitId": w["unit"], **plan_unit_body}),
                remember("plan_unit"),
            ),
        ),
        Step(
            "PUT",
            "/api/study-plan-units/{plan_unit_id}",
            lambda w: put(
                a, f"/api/study-plan-units/{w['plan_unit']}", {"unitId": w["unit"], **plan_unit_body, "faceToFaceHours": 9}
            ),
        ),
        Step(
            "POST",
            "/api/study-plans/{plan_id}/clone",
            then(lambda w: a.post(f"/api/study-plans/{w['plan']}/clone", {"name": "Walk clone"}), remember("clone")),
        ),
        Step(
            "DELETE",
            "/api/study-plans/{plan_id}/units/{plan_unit_id}",
            lambda w: a.delete(f"/api/study-plans/{w['clone']}/units/{_first_plan_unit(w['clone'])}"),
        ),
        Step("DELETE", "/api/study-plans/{plan_id}", lambda w: a.delete(f"/api/study-plans/{w['clone']}")),
        Step(
            "POST",
            "/api/block-groups",
            then(
                lambda w: a.post("/api/block-groups", {**group_body, "courseId": w["course"], "campusId": w["campus"]}),
                remember("group"),
            ),
        ),
        Step(
            "PUT",
            "/api/block-groups/{block_group_id}",
            lambda w: put(
                a,
                f"/api/block-groups/{w['group']}",
                {**group_body, "courseId": w["course"], "campusId": w["campus"], "cohortSize": 14},
            ),
        ),
        Step(
            "POST",
            "/api/block-groups/{block_group_id}/study-plans",
            lambda w: a.post(f"/api/block-groups/{w['group']}/study-plans", {"studyPlanId": w["plan"]}),
        ),
        Step(
            "POST",
            "/api/block-groups/{block_group_id}/schedule",
            lambda w: a.post(f"/api/block-groups/{w['group']}/schedule", {"sessionTemplates": TEMPLATES}),
        ),
        Step(
            "POST",
            "/api/linked-block-groups",
            then(
                lambda w: a.post(
                    "/api/linked-block-groups",
                    {"name": "Walk pair", "memberBlockGroupIds": [w["group"], w["spare_group"], w["third_group"]]},
                ),
                remember("linked"),
            ),
        ),
        Step(
            "PUT",
            "/api/linked-block-groups/{linked_group_id}",
            lambda w: put(a, f"/api/linked-block-groups/{w['linked']}", {"name": "Walk pair 2"}),
        ),
        Step(
            "DELETE",
            "/api/linked-block-groups/{linked_group_id}/members/{block_group_id}",
            lambda w: a.delete(f"/api/linked-block-groups/{w['linked']}/members/{w['third_group']}"),
        ),
        Step(
            "DELETE", "/api/linked-block-groups/{linked_group_id}", lambda w: a.delete(f"/api/linked-block-groups/{w['linked']}")
        ),
        # Staff
        Step("POST", "/api/teachers", then(lambda w: a.post("/api/teachers", teacher_body), remember("teacher"))),
        Step(
            "PUT",
            "/api/teachers/{teacher_id}",
            lambda w: put(a, f"/api/teachers/{w['teacher']}", {**teacher_body, "jobTitle": "Walker"}),
        ),
        Step(
            "POST", "/api/teacher-units", lambda w: a.post("/api/teacher-units", {"teacherId": w["teacher"], "unitId": w["unit"]})
        ),
        Step(
            "POST",
            "/api/teachers/{teacher_id}/leave",
            then(
                lambda w: a.post(f"/api/teachers/{w['teacher']}/leave", {"startDate": "2026-06-01", "endDate": "2026-06-02"}),
                remember("leave"),
            ),
        ),
        Step(
            "PUT",
            "/api/teachers/{teacher_id}/leave/{leave_id}",
            lambda w: put(
                a,
                f"/api/teachers/{w['teacher']}/leave/{w['leave']}",
                {"startDate": "2026-06-01", "endDate": "2026-06-03", "reason": "Walk"},
            ),
        ),
        Step(
            "DELETE",
            "/api/teachers/{teacher_id}/leave/{leave_id}",
            lambda w: a.delete(f"/api/teachers/{w['teacher']}/leave/{w['leave']}"),
        ),
        Step(
            "PUT",
            "/api/teachers/{teacher_id}/availability",
            lambda w: put(
                a,
                f"/api/teachers/{w['teacher']}/availability",
                {"windows": [{"weekday": d, "start": "07:00", "end": "22:00"} for d in range(7)]},
            ),
        ),
        Step("POST", "/api/teachers/availability/import", import_availability),
        # Timetabling
        Step(
            "POST",
            "/api/timetables",
            then(
                lambda w: a.post("/api/timetables", session_body(_Id(w["group"]), _Id(w["unit"]), weekNumber=20)),
                remember("session"),
            ),
        ),
        Step(
            "PUT",
            "/api/timetables/{session_id}",
            lambda w: put(
                a, f"/api/timetables/{w['session']}", session_body(_Id(w["group"]), _Id(w["unit"]), weekNumber=20, notes="Walked")
            ),
        ),
        Step(
            "PUT",
            "/api/timetables/bulk-allocate",
            lambda w: a.put("/api/timetables/bulk-allocate", {"sessionIds": [w["session"]], "teacherId": w["teacher"]}),
        ),
        Step(
            "PUT",
            "/api/timetables/bulk-room",
            lambda w: a.put("/api/timetables/bulk-room", {"sessionIds": [w["session"]], "roomId": w["room"]}),
        ),
        Step(
            "POST",
            "/api/timetables/auto-allocate",
            lambda w: a.post("/api/timetables/auto-allocate", {"blockGroupId": w["group"], "apply": True}),
        ),
        Step("POST", "/api/timetables/import", import_sessions),
        Step(
            "POST",
            "/api/holidays",
            then(
                lambda w: a.post("/api/holidays", {"name": "Walk day", "startDate": "2026-07-01", "endDate": "2026-07-01"}),
                remember("holiday"),
            ),
        ),
        Step(
            "PUT",
            "/api/holidays/{holiday_id}",
            lambda w: put(
                a, f"/api/holidays/{w['holiday']}", {"name": "Walk day 2", "startDate": "2026-07-01", "endDate": "2026-07-02"}
            ),
        ),
        Step("DELETE", "/api/holidays/{holiday_id}", lambda w: a.delete(f"/api/holidays/{w['holiday']}")),
        Step(
            "POST", "/api/holidays/import-public", lambda w: a.post("/api/holidays/import-public", {"state": "VIC", "year": 2027})
        ),
        Step(
            "POST",
            "/api/replan/propose",
            lambda w: a.post("/api/replan/propose", {"holidayId": w["snap_holiday"]}),
            records=False,
        ),
        Step("POST", "/api/replan/apply", replan_apply),
        Step(
            "POST",
            "/api/calendar-feeds",
            then(lambda w: a.post("/api/calendar-feeds", {"teacherId": w["teacher"]}), remember("feed")),
            records=False,
        ),
        Step("DELETE", "/api/calendar-feeds/{feed_id}", lambda w: a.delete(f"/api/calendar-feeds/{w['feed']}"), records=False),
        Step("DELETE", "/api/timetables/{session_id}", lambda w: a.delete(f"/api/timetables/{w['session']}")),
        Step(
            "DELETE",
            "/api/block-groups/{block_group_id}/schedule",
            lambda w: a.delete(f"/api/block-groups/{w['group']}/schedule"),
        ),
        Step(
            "DELETE",
            "/api/block-groups/{block_group_id}/study-plans/{study_plan_id}",
            lambda w: a.delete(f"/api/block-groups/{w['group']}/study-plans/{w['plan']}"),
        ),
        Step(
            "DELETE",
            "/api/teacher-units/{teacher_id}/{unit_id}",
            lambda w: a.delete(f"/api/teacher-units/{w['teacher']}/{w['unit']}"),
        ),
        Step("DELETE", "/api/block-groups/{block_group_id}", lambda w: a.delete(f"/api/block-groups/{w['group']}")),
        Step("DELETE", "/api/teachers/{teacher_id}", lambda w: a.delete(f"/api/teachers/{w['teacher']}")),
        Step("DELETE", "/api/rooms/{room_id}", lambda w: a.delete(f"/api/rooms/{w['room']}")),
        Step("DELETE", "/api/units/{unit_id}", lambda w: a.delete(f"/api/units/{w['spare_unit']}")),
        Step("DELETE", "/api/courses/{course_id}", lambda w: a.delete(f"/api/courses/{w['spare_course']}")),
        # Displays
        Step(
            "POST",
            "/api/display-links",
            then(lambda w: a.post("/api/display-links", {"name": "Walk board", "groupBy": "room"}), remember("link")),
        ),
        Step(
            "PUT",
            "/api/display-links/{link_id}",
            lambda w: a.put(f"/api/display-links/{w['link']}", {"name": "Walk board 2", "groupBy": "room"}),
        ),
        Step("DELETE", "/api/display-links/{link_id}", lambda w: a.delete(f"/api/display-links/{w['link']}")),
        # Organization and users
        Step("PUT", "/api/organization", lambda w: put(a, "/api/organization", {"name": "Walk Institute", "domain": org.domain})),
        Step("PUT", "/api/organization/sso", lambda w: a.put("/api/organization/sso", SSO)),
        Step("DELETE", "/api/organization/sso", lambda w: a.delete("/api/organization/sso")),
        Step(
            "POST",
            "/api/admin/users",
            then(
                lambda w: a.post(
                    "/api/admin/users",
                    {"firstName": "New", "lastName": "Comer", "email": "walk.newcomer@example.edu.au", "role": "user"},
                ),
                remember("newcomer"),
            ),
        ),
        Step(
            "POST",
            "/api/admin/users/{user_id}/invitation",
            then(lambda w: a.post(f"/api/admin/users/{w['newcomer']}/invitation"), remember("invitation", "invitationLink")),
            records=False,
        ),
        Step(
            "POST",
            "/api/auth/first-time-login",
            lambda w: ApiClient().post("/api/auth/first-time-login", {"token": w["invitation"].split("token=", 1)[1]}),
            records=False,
        ),
        Step("POST", "/api/auth/setup-password", setup_password),
        Step("DELETE", "/api/admin/users/{user_id}", lambda w: a.delete(f"/api/admin/users/{w['newcomer']}")),
        Step("PUT", "/api/auth/profile", lambda w: put(member, "/api/auth/profile", {"firstName": "Mel", "lastName": "Walker"})),
        Step(
            "PUT",
            "/api/auth/settings",
            lambda w: member.put("/api/auth/settings", {"theme": "dark", "preferences": {}}),
            records=False,
        ),
        Step(
            "POST",
            "/api/auth/reauthenticate",
            lambda w: member.post("/api/auth/reauthenticate", {"password": f.PASSWORD}),
            records=False,
        ),
        Step("POST", "/api/auth/enable-totp", enable_totp),
        Step("POST", "/api/auth/reset-totp", lambda w: member.post("/api/auth/reset-totp")),
        Step("POST", "/api/auth/export-data", lambda w: member.post("/api/auth/export-data"), records=False),
        Step(
            "POST",
            "/api/auth/passkeys/register/begin",
            lambda w: a.confirm_identity().post("/api/auth/passkeys/register/begin"),
            records=False,
        ),
        Step(
            "POST",
            "/api/auth/passkeys/authenticate/begin",
            lambda w: ApiClient().post("/api/auth/passkeys/authenticate/begin"),
            records=False,
        ),
        Step("DELETE", "/api/auth/passkeys/{passkey_id}", passkey_delete, records=False),
        Step(
            "POST",
            "/api/auth/sso/discover",
            lambda w: ApiClient().post("/api/auth/sso/discover", {"email": "someone@example.edu.au"}),
            records=False,
        ),
        Step(
            "POST",
            "/api/auth/login",
            lambda w: ApiClient().post("/api/auth/login", {"email": w["spare_user"], "password": f.PASSWORD}),
            records=False,
        ),
        Step("POST", "/api/auth/logout", lambda w: ApiClient(admin_user).post("/api/auth/logout"), records=False),
        Step(
            "POST",
            "/api/auth/change-password",
            lambda w: ApiClient(_fresh(w["spare_user_row"])).post(
                "/api/auth/change-password",
                {"currentPassword": f.PASSWORD, "newPassword": "Walk$Changed2026", "confirmPassword": "Walk$Changed2026"},
            ),
            records=False,
        ),
        Step(
            "PUT",
            "/api/auth/change-password",
            lambda w: ApiClient(_fresh(w["spare_user_row"])).put(
                "/api/auth/change-password",
                {"currentPassword": "Walk$Changed2026", "newPassword": "Walk$Changed2027", "confirmPassword": "Walk$Changed2027"},
            ),
            records=False,
        ),
        # History
        Step("POST", "/api/activity/{activity_id}/undo", lambda w: a.post(f"/api/activity/{_course_update(org)}/undo")),
    ]


SSO = {
    "name": "Walk Entra",
    "issuerUrl": "https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0",
    "clientId": "blockplan-walk",
    "clientSecret": "walk-secret-value",
    "domains": ["walk.example.edu.au"],
    "mode": "optional",
    "createAccounts": False,
    "enabled": True,
}


def _fresh(user):
    user.refresh_from_db()  # its password changed: a session made with the old hash would be refused
    return user


class _Id:
    def __init__(self, pk):
        self.id = pk


def _first_plan_unit(plan_id) -> str:
    from project.planning.models import StudyPlanUnit

    return str(StudyPlanUnit.objects.unscoped().filter(study_plan_id=plan_id).values_list("pk", flat=True).first())


def _course_update(org) -> str:
    return str(Activity.objects.for_org(org).filter(entity="course", action="updated").latest("seq").pk)


def test_every_write_operation_of_the_schema_is_walked_or_named():
    from django.test import Client  # noqa: F401 — the walk's list is built without a database

    walked = {(s.method, s.path) for s in steps(None, None, None, None, None)}  # type: ignore[arg-type]
    assert not walked & set(NOT_WALKED)
    missing = schema_writes() - walked - set(NOT_WALKED)
    assert not missing, f"write operations neither walked nor named in NOT_WALKED: {sorted(missing)}"
    assert not walked - schema_writes(), f"walked operations the schema does not have: {sorted(walked - schema_writes())}"


def test_every_activity_of_every_write_path_reads_back(api, member_api, org, admin_user, member_user):
    spare_user = f.make_user(org, email="walk.spare@example.edu.au")
    world: dict = {
        "campus": str(f.make_campus(org).pk),
        "spare_group": str(f.make_block_group(org, code="WALK-G2").pk),
        "third_group": str(f.make_block_group(org, code="WALK-G3").pk),
        "spare_unit": str(f.make_unit(org, code="WALK-U9").pk),
        "spare_course": str(f.make_course(org, code="WALK-C9").pk),
        "spare_user": spare_user.email,
        "spare_user_row": spare_user,
    }
    # A scheduled group whose session a late holiday hits: what the re-plan walks.
    plan = f.make_study_plan(org)
    unit = f.make_unit(org, code="WALK-RP", nominal_hours=9)
    f.add_plan_unit(plan, unit, face_to_face_hours=9)
    hit = f.make_block_group(org, code="WALK-RPG", start_date=date(2026, 2, 2), preferred_days="Monday, Wednesday")
    f.assign_plan(hit, plan)
    _ok(api.post(f"/api/block-groups/{hit.pk}/schedule", {"sessionTemplates": [TEMPLATES[0]]}))
    from project.timetabling.models import TimetableSession

    world["session"] = str(TimetableSession.objects.for_org(org).filter(block_group=hit).values_list("pk", flat=True).first())
    world["snap_holiday"] = _ok(
        api.post("/api/holidays", {"name": "Snap closure", "startDate": "2026-02-04", "endDate": "2026-02-04"})
    )["id"]

    produced: list[tuple[str, Activity]] = []
    for step in steps(api, member_api, org, admin_user, member_user):
        label = f"{step.method} {step.path}"
        before = Activity.objects.for_org(org).order_by("-seq").values_list("seq", flat=True).first() or 0
        response = step.call(world)
        assert response.status_code < 300, (label, response.status_code, response.content[:1000])
        new = list(Activity.objects.for_org(org).filter(seq__gt=before).order_by("seq"))
        if step.records:
            assert new, f"{label} recorded no activity"
        else:
            assert not new, f"{label} recorded {[a.summary for a in new]}"
        produced.extend((label, a) for a in new)

    entities = set()
    for label, activity in produced:
        r = api.get(f"/api/activity/{activity.pk}")
        assert r.status_code == 200, (label, activity.summary, r.content[:1000])
        detail = r.json()
        assert detail["summary"] and detail["entity"] == activity.entity and detail["rowsTotal"] >= len(detail["changes"])
        for row in detail["changes"]:
            assert row["label"] and row["entity"] and row["change"] in {"created", "updated", "deleted"}, (label, row)
            for field in row["fields"]:
                assert isinstance(field["field"], str) and field["field"], (label, field)
                for value in (field["before"], field["after"]):
                    assert value is None or isinstance(value, str), (label, field)
        as_member = member_api.get(f"/api/activity/{activity.pk}")
        member_may = may_read(role="user", user_id=member_user.pk, entity=activity.entity, ids=activity.ids)
        assert as_member.status_code == (200 if member_may else 404), (label, activity.summary, as_member.content[:300])
        entities.add(activity.entity)
    # The walk reached the entities of every area that records.
    assert entities >= {
        "course", "unit", "room", "study_plan", "study_plan_unit", "block_group", "block_group_study_plan",
        "linked_block_group", "teacher", "teacher_unit", "teacher_leave", "timetable_session", "holiday",
        "display_link", "organization", "user",
    }  # fmt: skip
    # A room's detail shows its features as text (they once answered 500).
    room_created = next(a for _, a in produced if a.entity == "room" and a.action == "created")
    fields = {x["field"]: x["after"] for x in api.get(f"/api/activity/{room_created.pk}").json()["changes"][0]["fields"]}
    assert fields.get("features") == "Projector, Sink", fields


def _admin_rows(org) -> list:
    """One row of every model a ``TenantAdmin`` edits, dependents first (so deleting one never takes
    another that is still to be walked with it)."""
    from project.displays.models import DisplayLink
    from project.planning.models import LinkedBlockGroup, LinkedBlockGroupMember
    from project.staff.models import TeacherLeave

    course, unit, campus = f.make_course(org), f.make_unit(org), f.make_campus(org)
    plan = f.make_study_plan(org)
    group = f.make_block_group(org, course=course, campus=campus)
    teacher = f.make_teacher(org)
    linked = LinkedBlockGroup.objects.create(organization=org, name="Admin pair")
    leave = TeacherLeave.objects.create(organization=org, teacher=teacher, start_date=date(2026, 5, 4), end_date=date(2026, 5, 5))
    return [
        f.make_session(org, block_group=group, unit=unit),
        leave,
        f.qualify(teacher, unit),
        f.assign_plan(group, plan),
        LinkedBlockGroupMember.objects.create(organization=org, linked_group=linked, block_group=group),
        linked,
        f.add_plan_unit(plan, unit),
        group,
        plan,
        teacher,
        f.make_holiday(org),
        DisplayLink.objects.create(organization=org, name="Admin board", campus=campus),
        course,
        unit,
        campus,
    ]


def test_every_django_admin_write_reads_back(member_api, api, org, member_user):
    from django.contrib import admin
    from django.test import Client

    from project.core.admin import TenantAdmin
    from tests.access.admin_forms import form_fields

    staff = f.make_user(org, role="admin", is_staff=True, is_superuser=True)
    browser = Client()
    browser.force_login(staff)
    rows = _admin_rows(org)
    walked = {type(r) for r in rows}
    edited = {model for model, model_admin in admin.site._registry.items() if isinstance(model_admin, TenantAdmin)}
    assert walked == edited, f"TenantAdmin models without a row here: {edited - walked}"
    produced = []
    for row in rows:
        meta = row._meta
        base = f"/django-admin/{meta.app_label}/{meta.model_name}/{row.pk}"
        page = browser.get(f"{base}/change/")
        assert page.status_code == 200, (meta.label, page.status_code)
        before = Activity.objects.for_org(org).order_by("-seq").values_list("seq", flat=True).first() or 0
        saved = browser.post(f"{base}/change/", {**form_fields(page.content.decode()), "_save": "Save"})
        assert saved.status_code == 302, (meta.label, saved.content[:2000])
        deleted = browser.post(f"{base}/delete/", {"post": "yes"})
        assert deleted.status_code == 302, (meta.label, deleted.content[:2000])
        new = list(Activity.objects.for_org(org).filter(seq__gt=before).order_by("seq"))
        assert [a.action for a in new] == ["updated", "deleted"], (meta.label, [a.summary for a in new])
        produced.extend((meta.label, a) for a in new)
    # The accounts' own admin pages: a user's and the organization's change form.
    for path, entity in (
        (f"/django-admin/accounts/user/{member_user.pk}/change/", "user"),
        (f"/django-admin/accounts/organization/{org.pk}/change/", "organization"),
    ):
        before = Activity.objects.for_org(org).order_by("-seq").values_list("seq", flat=True).first() or 0
        fields = form_fields(browser.get(path).content.decode())
        saved = browser.post(path, {**fields, "first_name": "Melody", "name": "Admin Institute", "_save": "Save"})
        assert saved.status_code == 302, (path, saved.content[:2000])
        [new] = Activity.objects.for_org(org).filter(seq__gt=before)
        assert (new.entity, new.action) == (entity, "updated")
        produced.append((entity, new))
    org.refresh_from_db()
    assert org.name == "Admin Institute" and org.event_seq == Activity.objects.for_org(org).latest("seq").seq
    for label, activity in produced:
        r = api.get(f"/api/activity/{activity.pk}")
        assert r.status_code == 200, (label, r.content[:1000])
        assert r.json()["actorName"] == "Django admin" and r.json()["summary"]
        if activity.action == "deleted" and activity.entity != "display_link":  # links are not captured (their token)
            assert [c["change"] for c in r.json()["changes"]][:1] == ["deleted"], (label, r.json()["changes"])
        member_may = may_read(role="user", user_id=member_user.pk, entity=activity.entity, ids=activity.ids)
        assert member_api.get(f"/api/activity/{activity.pk}").status_code == (200 if member_may else 404), label
