"""Profile, change password, settings and data export (docs/behaviour/accounts.md §8)."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.contrib.sessions.models import Session

from project.accounts.models import User
from tests import factories as f
from tests.accounts.authenticator import SoftAuthenticator
from tests.conftest import ApiClient
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "Fresh$Password2026"


# ---------------------------------------------------------------------------------------------- profile


def test_profile_update_changes_only_the_names(member_api, member_user, django_capture_on_commit_callbacks, captured_events):
    with django_capture_on_commit_callbacks(execute=True):
        response = member_api.put(
            "/api/auth/profile",
            {"firstName": " Melanie ", "lastName": "Ng", "email": "evil@x.com", "role": "admin", "isActive": False},
        )
    assert response.status_code == 200
    body = response.json()
    assert body["firstName"] == "Melanie" and body["lastName"] == "Ng"
    assert body["email"] == "member@mp.edu.au" and body["role"] == "user" and body["isActive"] is True
    member_user.refresh_from_db()
    assert (member_user.first_name, member_user.email, member_user.role) == ("Melanie", "member@mp.edu.au", "user")
    events = [m["event"] for _, m in captured_events if m["type"] == "change.event"]
    assert [(e["entity"], e["action"], e["ids"], e["origin"]) for e in events] == [
        ("user", "updated", [str(member_user.pk)], "test-tab")
    ]


def test_profile_names_may_be_blank_but_not_too_long(member_api):
    assert member_api.put("/api/auth/profile", {"firstName": "", "lastName": ""}).json()["firstName"] == ""
    response = member_api.put("/api/auth/profile", {"firstName": "x" * 101, "lastName": "y" * 101})
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"path": ["firstName"], "message": "First name must be at most 100 characters"},
        {"path": ["lastName"], "message": "Last name must be at most 100 characters"},
    ]


def test_profile_stale_if_match_is_412(member_api, member_user):
    stale = member_user.updated_at.isoformat()
    assert (
        member_api.put("/api/auth/profile", {"firstName": "A", "lastName": "B"}, headers={"If-Match": stale}).status_code == 200
    )
    response = member_api.put("/api/auth/profile", {"firstName": "C", "lastName": "D"}, headers={"If-Match": stale})
    assert response.status_code == 412 and response.json()["type"] == "stale"
    member_user.refresh_from_db()
    assert member_user.first_name == "A"


def test_profile_needs_sign_in(anon_api):
    assert anon_api.put("/api/auth/profile", {"firstName": "A", "lastName": "B"}).status_code == 401


# ---------------------------------------------------------------------------------------------- password


@pytest.mark.parametrize("method", ["post", "put"])
def test_change_password_keeps_this_session_and_ends_the_others(member_user, login, method):
    this = ApiClient()
    other = ApiClient()
    assert login(this, member_user.email).status_code == 200
    assert login(other, member_user.email).status_code == 200
    bystander = ApiClient(f.make_user(member_user.organization))  # someone else's session survives
    response = getattr(this, method)(
        "/api/auth/change-password", {"currentPassword": PASSWORD, "newPassword": NEW, "confirmPassword": NEW}
    )
    assert response.status_code == 200, response.content
    assert response.json()["message"] == "Your password has been updated successfully."
    assert this.get("/api/auth/user").status_code == 200
    assert other.get("/api/auth/user").status_code == 401
    assert bystander.get("/api/auth/user").status_code == 200
    assert Session.objects.count() >= 2
    member_user.refresh_from_db()
    assert member_user.check_password(NEW)
    assert login(ApiClient(), member_user.email, NEW).status_code == 200
    assert login(ApiClient(), member_user.email, PASSWORD).status_code == 401


def test_change_password_wrong_current(member_api, member_user):
    response = member_api.put("/api/auth/change-password", {"currentPassword": "Nope$12345678", "newPassword": NEW})
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": ["currentPassword"], "message": "Current password is incorrect"}]
    member_user.refresh_from_db()
    assert member_user.check_password(PASSWORD)


def test_change_password_validation(member_api):
    response = member_api.post("/api/auth/change-password", {"newPassword": "short", "confirmPassword": "other"})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors[0] == {"path": ["currentPassword"], "message": "Current password is required"}
    assert {"path": ["newPassword"], "message": "Password must be at least 12 characters"} in errors
    assert {"path": ["newPassword"], "message": "Password must contain at least one uppercase letter"} in errors
    assert {"path": ["newPassword"], "message": "Password must contain at least one number"} in errors
    assert {"path": ["newPassword"], "message": "Password must contain at least one special character"} in errors
    assert errors[-1] == {"path": ["confirmPassword"], "message": "Passwords don't match"}


def test_change_password_needs_sign_in_and_csrf(anon_api, member_api):
    assert anon_api.post("/api/auth/change-password", {"currentPassword": PASSWORD, "newPassword": NEW}).status_code == 401
    response = member_api.client.post(
        "/api/auth/change-password",
        json.dumps({"currentPassword": PASSWORD, "newPassword": NEW}),
        content_type="application/json",
    )
    assert response.status_code == 403


def test_passwords_are_hashed_with_argon2(member_user, settings):
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.Argon2PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
    user = User.objects.create_user("argon@mp.edu.au", password=PASSWORD, organization=member_user.organization)
    assert user.password.startswith("argon2$")


# ---------------------------------------------------------------------------------------------- settings


def test_settings_404_until_saved_then_round_trip(member_api):
    response = member_api.get("/api/auth/settings")
    assert response.status_code == 404 and response.json() == {"message": "Settings not found"}
    payload = {
        "theme": "dark",
        "preferences": {
            "dateFormat": "YYYY-MM-DD",
            "timeFormat": "12h",
            "timezone": "Australia/Perth",
            "language": "en",
            "compactView": True,
        },
    }
    response = member_api.put("/api/auth/settings", payload)
    assert response.status_code == 200
    assert {k: response.json()[k] for k in ("theme", "preferences")} == payload
    got = member_api.get("/api/auth/settings").json()
    assert got["theme"] == "dark" and got["preferences"] == payload["preferences"] and got["updatedAt"]
    assert member_api.get("/api/auth/user").json()["user"]["settings"]["theme"] == "dark"


def test_settings_partial_save_uses_defaults(member_api):
    response = member_api.put("/api/auth/settings", {"preferences": {"compactView": True}})
    assert response.status_code == 200
    assert response.json()["theme"] == "system"
    assert response.json()["preferences"] == {
        "dateFormat": "DD/MM/YYYY",
        "timeFormat": "24h",
        "timezone": "Australia/Melbourne",
        "language": "en",
        "compactView": True,
    }
    response = member_api.put("/api/auth/settings", {"theme": "light"})
    assert response.json()["preferences"]["compactView"] is True  # kept


@pytest.mark.parametrize(
    "payload, path, message",
    [
        ({"theme": "neon"}, ["theme"], "Theme must be light, dark or system"),
        (
            {"preferences": {"dateFormat": "D/M/Y"}},
            ["preferences", "dateFormat"],
            "Date format must be DD/MM/YYYY, MM/DD/YYYY or YYYY-MM-DD",
        ),
        ({"preferences": {"timeFormat": "25h"}}, ["preferences", "timeFormat"], "Time format must be 12h or 24h"),
        (
            {"preferences": {"timezone": "Europe/London"}},
            ["preferences", "timezone"],
            "Timezone must be one of Australia/Melbourne, Australia/Sydney, Australia/Perth, Australia/Adelaide",
        ),
        ({"preferences": {"language": "<script>"}}, ["preferences", "language"], "Language must be a language code such as en"),
    ],
)
def test_settings_validation(member_api, payload, path, message):
    response = member_api.put("/api/auth/settings", payload)
    assert response.status_code == 400
    assert {"path": path, "message": message} in response.json()["errors"]
    assert member_api.get("/api/auth/settings").status_code == 404  # nothing saved


def test_settings_need_sign_in(anon_api):
    assert anon_api.get("/api/auth/settings").status_code == 401
    assert anon_api.put("/api/auth/settings", {"theme": "dark"}).status_code == 401


# ---------------------------------------------------------------------------------------------- export


def test_export_data_is_a_json_download_without_secrets(member_api, member_user, org, other_org):
    member_api.put("/api/auth/settings", {"theme": "dark"})
    options = member_api.post("/api/auth/passkeys/register/begin").json()
    member_api.post(
        "/api/auth/passkeys/register/complete", {"response": SoftAuthenticator().create(options), "deviceName": "Key"}
    )
    User.objects.filter(pk=member_user.pk).update(totp_secret="SECRETSECRETSECRETSECRETSECRET22")
    course = f.make_course(org, code="ICT30120")
    unit = f.make_unit(org, code="ICTICT101")
    plan = f.make_study_plan(org)
    f.add_plan_unit(plan, unit)
    group = f.make_block_group(org, code="BG-1")
    teacher = f.make_teacher(org)
    f.make_session(org, block_group=group, unit=unit)
    f.make_holiday(org)
    f.make_course(other_org, code="THEIRS1")

    response = member_api.post("/api/auth/export-data")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="blockplan-export-{date.today().isoformat()}.json"'
    raw = response.content.decode()
    data = json.loads(raw)
    assert data["user"]["email"] == member_user.email
    assert data["settings"]["theme"] == "dark"
    assert [p["deviceName"] for p in data["passkeys"]] == ["Key"]
    assert data["organization"]["id"] == str(org.pk)
    assert [c["code"] for c in data["courses"]] == [course.code]
    assert [u["code"] for u in data["units"]] == ["ICTICT101"]
    assert len(data["studyPlans"]) == 1 and len(data["studyPlanUnits"]) == 1
    assert [g["code"] for g in data["blockGroups"]] == ["BG-1"]
    assert [t["id"] for t in data["teachers"]] == [str(teacher.pk)]
    assert len(data["sessions"]) == 1 and data["sessions"][0]["actualDate"] == "2026-03-02"
    assert [h["name"] for h in data["holidays"]] == ["Labour Day"]
    for secret in ("SECRETSECRET", member_user.password, "publicKey", "credentialId", "totpSecret", "THEIRS1"):
        assert secret not in raw


def test_export_needs_sign_in(anon_api):
    assert anon_api.post("/api/auth/export-data").status_code == 401
