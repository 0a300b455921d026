"""Password sign-in, the current user, logout and CSRF (docs/behaviour/accounts.md §2, §5; docs/behaviour/api.md §2)."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session

from project.accounts.models import User
from tests import factories as f
from tests.conftest import ApiClient
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_current_user_signed_out_is_401_and_sets_csrf_cookie(anon_api):
    response = anon_api.get("/api/auth/user")
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthorized"}
    assert anon_api.csrf  # the 401 answer sets csrftoken so the SPA can sign in next


def test_current_user_signed_in(api, admin_user, org):
    response = api.get("/api/auth/user")
    assert response.status_code == 200
    user = response.json()["user"]
    assert user["id"] == str(admin_user.pk)
    assert user["email"] == "admin@mp.edu.au"
    assert user["firstName"] == "Ada" and user["lastName"] == "Admin"
    assert user["organizationId"] == str(org.pk)
    assert user["organizationName"] == org.name
    assert user["role"] == "admin"
    assert user["isActive"] is True
    assert user["mustChangePassword"] is False
    assert user["isTotpEnabled"] is False
    assert "lastLogin" in user
    for secret in ("password", "totpSecret", "totp_secret", "passwordHash"):
        assert secret not in user


def test_login_success_signs_in_and_answers_user(anon_api, admin_user, login):
    response = login(anon_api, "Admin@MP.edu.au")  # emails are case-insensitive
    assert response.status_code == 200
    body = response.json()
    assert body["requiresTotp"] is False and body["requiresSetup"] is False and body["userId"] is None
    assert body["user"]["email"] == "admin@mp.edu.au"
    assert body["user"]["lastLogin"] is not None
    me = anon_api.get("/api/auth/user")
    assert me.status_code == 200 and me.json()["user"]["id"] == str(admin_user.pk)


def test_remember_me_false_is_a_browser_session(anon_api, admin_user, login):
    response = login(anon_api, admin_user.email, rememberMe=False)
    assert response.status_code == 200
    cookie = anon_api.client.cookies["sessionid"]
    assert cookie["max-age"] == "" and cookie["expires"] == ""  # ends with the browser


def test_remember_me_true_lasts_30_days(anon_api, admin_user, login):
    response = login(anon_api, admin_user.email, rememberMe=True)
    assert response.status_code == 200
    cookie = anon_api.client.cookies["sessionid"]
    assert int(cookie["max-age"]) == 30 * 24 * 3600


def test_wrong_password_unknown_email_and_inactive_user_get_the_same_answer(anon_api, member_user, login):
    member_user_inactive = f.make_user(member_user.organization, email="gone@mp.edu.au", is_active=False)
    answers = [
        login(anon_api, member_user.email, "Wrong$Password123"),
        login(anon_api, "nobody@mp.edu.au"),
        login(anon_api, member_user_inactive.email),  # the right password of an inactive user
    ]
    for response in answers:
        assert response.status_code == 401
        assert response.json() == {"message": "Invalid email or password"}
    assert anon_api.get("/api/auth/user").status_code == 401


def test_user_of_an_inactive_organization_cannot_sign_in(anon_api, member_user, login):
    org = member_user.organization
    org.is_active = False
    org.save()
    response = login(anon_api, member_user.email)
    assert response.status_code == 401
    assert response.json()["message"] == "Invalid email or password"


@pytest.mark.parametrize(
    "payload, path, message",
    [
        ({"email": "not-an-email", "password": "x"}, ["email"], "Invalid email address"),
        ({"password": "x"}, ["email"], "Invalid email address"),
        ({"email": "a@b.co", "password": ""}, ["password"], "Password is required"),
        ({"email": "a@b.co"}, ["password"], "Password is required"),
        ({"email": "a@b.co", "password": "x", "totpCode": "12345"}, ["totpCode"], "TOTP code must be 6 digits"),
        ({"email": "a@b.co", "password": "x", "totpCode": "12345a"}, ["totpCode"], "TOTP code must be 6 digits"),
        ({"email": "a@b.co", "password": "x", "totpCode": "1234567"}, ["totpCode"], "TOTP code must be 6 digits"),
    ],
)
def test_login_validation_messages(anon_api, payload, path, message):
    response = anon_api.post("/api/auth/login", payload)
    assert response.status_code == 400
    body = response.json()
    assert body["message"] == "Validation failed" and body["type"] == "validation_error"
    assert {"path": path, "message": message} in body["errors"]


@pytest.mark.parametrize("body", ["not json", "[1,2]", '{"email": 5, "password": []}', '{"rememberMe": "maybe"}'])
def test_malformed_login_bodies_are_400_never_500(anon_api, body):
    response = anon_api.client.post(
        "/api/auth/login", body, content_type="application/json", headers={"X-CSRFToken": anon_api.csrf}
    )
    assert response.status_code == 400


def test_login_without_csrf_header_is_refused(anon_api, admin_user):
    response = anon_api.client.post(
        "/api/auth/login", {"email": admin_user.email, "password": PASSWORD}, content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["message"] == "CSRF verification failed"


def test_user_added_by_admin_is_refused_like_a_wrong_password(anon_api, org, login):
    """The hardening work (ADR 0005): setup starts from the invitation link only; login says nothing about a
    pending email and gives out no userId."""
    User.objects.create_user("new@mp.edu.au", password=None, organization=org, must_change_password=True)
    response = login(anon_api, "new@mp.edu.au", "Whatever$12345")
    assert response.status_code == 401
    assert response.json() == {"message": "Invalid email or password"}
    assert anon_api.get("/api/auth/user").status_code == 401  # not signed in


def test_must_change_password_with_a_password_gets_requires_setup(anon_api, org, login):
    user = f.make_user(org, email="reset@mp.edu.au", must_change_password=True)
    response = login(anon_api, user.email)
    assert response.json()["requiresSetup"] is True and response.json()["userId"] == str(user.pk)
    assert anon_api.get("/api/auth/user").status_code == 401
    # ...but only with the right password.
    wrong = login(ApiClient(), user.email, "Wrong$Password123")
    assert wrong.status_code == 401


def test_logout_post_ends_the_session_and_closes_sockets(api, admin_user, captured_events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/api/auth/logout")
    assert response.status_code == 200
    assert response.json()["message"] == "You have been logged out successfully."
    assert api.get("/api/auth/user").status_code == 401
    # Only this browser session's sockets close (ADR 0007): its session group, with the reason.
    assert [(g[:8], m) for g, m in captured_events if m["type"] == "session.revoke"] == [
        ("session.", {"type": "session.revoke", "reason": "logout"})
    ]


def test_logout_get_redirects_to_auth(api, admin_user, captured_events, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.get("/api/logout")
    assert response.status_code == 302
    assert response["Location"] == "/auth"
    assert api.get("/api/auth/user").status_code == 401
    # Only this browser session's sockets close (ADR 0007): its session group, with the reason.
    assert [(g[:8], m) for g, m in captured_events if m["type"] == "session.revoke"] == [
        ("session.", {"type": "session.revoke", "reason": "logout"})
    ]


def test_logout_when_signed_out_is_harmless(anon_api):
    assert anon_api.post("/api/auth/logout").status_code == 200
    assert anon_api.get("/api/logout").status_code == 302


def test_logout_needs_csrf(api):
    response = api.client.post("/api/auth/logout")
    assert response.status_code == 403
    assert api.get("/api/auth/user").status_code == 200


def test_login_replaces_the_session_key(anon_api, admin_user, login):
    anon_api.post("/api/auth/first-time-login", {"email": admin_user.email})  # an anonymous session exists
    before = anon_api.client.cookies.get("sessionid")
    before = before.value if before else None
    login(anon_api, admin_user.email)
    after = anon_api.client.cookies["sessionid"].value
    assert after and after != before
    assert Session.objects.filter(session_key=after).exists()
