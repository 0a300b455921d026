"""First-time login and account setup (docs/behaviour/accounts.md §2, §4; docs/behaviour/errors.md §9), claimed through
an invitation link since the hardening work (docs/adr/0005): an email alone opens nothing."""

from __future__ import annotations

import pytest

from project.accounts.models import User
from tests import factories as f
from tests.accounts.conftest import code_at
from tests.conftest import ApiClient

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Brand$NewPass2026"


@pytest.fixture
def newcomer(org):
    """A user added by an admin: no usable password, must change it; ``newcomer.token`` is the token of
    their invitation link."""
    from project.accounts import invitations

    user = User.objects.create_user(
        "newcomer@mp.edu.au",
        password=None,
        organization=org,
        first_name="New",
        last_name="Comer",
        must_change_password=True,
    )
    issued = invitations.issue(user=user, created_by=None, request=None)
    user.token = issued.link.split("token=", 1)[1]
    return user


def test_first_time_login_with_the_invitation_token(anon_api, newcomer):
    response = anon_api.post("/api/auth/first-time-login", {"email": "NewComer@mp.edu.au", "token": newcomer.token})
    assert response.status_code == 200
    body = response.json()
    assert body["requiresSetup"] is True
    assert body["userId"] == str(newcomer.pk)
    assert body["hasPassword"] is False
    assert body["message"]
    # The link alone is enough (the setup page opened from the email does not ask for the address).
    body = ApiClient().post("/api/auth/first-time-login", {"token": newcomer.token}).json()
    assert body["userId"] == str(newcomer.pk) and body["email"] == newcomer.email


def test_an_email_alone_reveals_nothing_about_a_pending_account(anon_api, newcomer, login):
    """Knowing an invited person's email gave their userId, TOTP secret and account."""
    pending = anon_api.post("/api/auth/first-time-login", {"email": newcomer.email})
    unknown = anon_api.post("/api/auth/first-time-login", {"email": "nobody@mp.edu.au"})
    assert pending.status_code == unknown.status_code == 404
    assert pending.json() == unknown.json() == {"message": "User not found. Please contact your administrator."}
    assert ApiClient().get(f"/api/auth/totp-setup/{newcomer.pk}").status_code == 404
    # Login with the pending email and any password answers exactly like a wrong password.
    pending_login = login(ApiClient(), newcomer.email, "anything")
    unknown_login = login(ApiClient(), "nobody@mp.edu.au", "anything")
    assert pending_login.status_code == unknown_login.status_code == 401
    assert pending_login.json() == unknown_login.json() == {"message": "Invalid email or password"}
    # A wrong, altered or mismatched token answers the same.
    for body in ({"token": "x" * 43}, {"token": newcomer.token[:-1]}, {"email": "other@mp.edu.au", "token": newcomer.token}):
        r = ApiClient().post("/api/auth/first-time-login", body)
        assert r.status_code == 404 and r.json() == unknown.json()


def test_the_invitation_is_single_use_expires_and_is_replaced_by_a_reissue(anon_api, newcomer, api):
    from datetime import timedelta

    from django.utils import timezone

    from project.accounts.models import Invitation

    # Re-issued: the old link stops working, the new one works.
    r = api.post(f"/api/admin/users/{newcomer.pk}/invitation")
    assert r.status_code == 201, r.content
    new_token = r.json()["invitationLink"].split("token=", 1)[1]
    assert ApiClient().post("/api/auth/first-time-login", {"token": newcomer.token}).status_code == 404
    client = ApiClient()
    user_id = client.post("/api/auth/first-time-login", {"token": new_token}).json()["userId"]
    secret = client.get(f"/api/auth/totp-setup/{user_id}").json()["manualEntryKey"]
    done = client.post(
        "/api/auth/setup-password",
        {"userId": user_id, "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD, "totpCode": code_at(secret)},
    )
    assert done.status_code == 200
    # Used: the same link opens nothing any more, and a set-up account gets no new invitation.
    assert ApiClient().post("/api/auth/first-time-login", {"token": new_token}).status_code == 404
    assert api.post(f"/api/admin/users/{newcomer.pk}/invitation").status_code == 409
    # Expired after 7 days.
    late = User.objects.create_user("late@mp.edu.au", password=None, organization=newcomer.organization)
    token = api.post(f"/api/admin/users/{late.pk}/invitation").json()["invitationLink"].split("token=")[1]
    invitation = Invitation.objects.get(user=late, revoked_at__isnull=True)
    assert timedelta(days=6, hours=23) < invitation.expires_at - timezone.now() <= timedelta(days=7)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert ApiClient().post("/api/auth/first-time-login", {"token": token}).status_code == 404


def test_adding_a_user_answers_and_emails_the_invitation_link(
    api, other_api, org, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        r = api.post("/api/admin/users", {"firstName": "Ina", "lastName": "Vite", "email": "ina@mp.edu.au", "role": "admin"})
    assert r.status_code == 201, r.content
    body = r.json()
    link = body["invitationLink"]
    assert link.startswith("http://localhost/auth/setup?token=")
    token = link.split("token=", 1)[1]
    assert len(token) >= 43  # 256 random bits, URL-safe base64
    assert body["invitationExpiresAt"] and body["setupPending"] is True
    assert [m.to for m in mailoutbox] == [["ina@mp.edu.au"]]
    assert link in mailoutbox[0].body
    from project.accounts.models import Invitation

    assert not Invitation.objects.filter(token_hash=token).exists()  # only the hash is stored
    # Another organization's admin cannot re-issue it.
    assert other_api.post(f"/api/admin/users/{body['id']}/invitation").status_code == 404


def test_first_time_login_without_a_token_answers_the_same_for_every_email(anon_api, org, member_user, newcomer):
    """ADR 0005 amended: an account with a password answered 200 and every other email 404, which told who has
    an account. Without a token setup cannot start, so every email gets the same 404 (ADR 0005 amended)."""
    inactive = User.objects.create_user("left@mp.edu.au", password=None, organization=org, is_active=False)
    answers = [
        anon_api.post("/api/auth/first-time-login", {"email": email})
        for email in (member_user.email, "nobody@mp.edu.au", inactive.email, newcomer.email)
    ]
    assert [r.status_code for r in answers] == [404] * 4
    assert {r.content for r in answers} == {b'{"message": "User not found. Please contact your administrator."}'}


@pytest.mark.parametrize(
    "payload, message",
    [({}, "Email is required"), ({"email": ""}, "Email is required"), ({"email": "nope"}, "Invalid email address")],
)
def test_first_time_login_validation(anon_api, payload, message):
    response = anon_api.post("/api/auth/first-time-login", payload)
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": ["email"], "message": message}]


def test_full_setup_signs_in_and_enables_totp(anon_api, newcomer, login, django_capture_on_commit_callbacks, captured_events):
    user_id = anon_api.post("/api/auth/first-time-login", {"email": newcomer.email, "token": newcomer.token}).json()["userId"]
    setup = anon_api.get(f"/api/auth/totp-setup/{user_id}").json()
    secret = setup["manualEntryKey"]
    with django_capture_on_commit_callbacks(execute=True):
        response = anon_api.post(
            "/api/auth/setup-password",
            {"userId": user_id, "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD, "totpCode": code_at(secret)},
        )
    assert response.status_code == 200, response.content
    user = response.json()["user"]
    assert user["id"] == user_id and user["isTotpEnabled"] is True and user["mustChangePassword"] is False
    assert anon_api.get("/api/auth/user").json()["user"]["id"] == user_id  # signed in
    events = [m["event"] for g, m in captured_events if m["type"] == "change.event"]
    assert [(e["entity"], e["action"], e["ids"]) for e in events] == [("user", "updated", [user_id])]
    newcomer.refresh_from_db()
    assert newcomer.check_password(NEW_PASSWORD)
    # Afterwards the account is set up: a fresh browser signs in with password and a new code.
    fresh = ApiClient()
    assert fresh.post("/api/auth/first-time-login", {"email": newcomer.email}).status_code == 404  # like any email
    assert login(fresh, newcomer.email, NEW_PASSWORD).json()["requiresTotp"] is True
    assert login(fresh, newcomer.email, NEW_PASSWORD, totpCode=code_at(secret, 1)).status_code == 200
    # ...and setup can no longer be reached for this user by anyone else.
    assert ApiClient().get(f"/api/auth/totp-setup/{user_id}").status_code == 404
    again = ApiClient().post(
        "/api/auth/setup-password",
        {"userId": user_id, "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD, "totpCode": "123456"},
    )
    assert again.status_code == 404


def test_login_never_starts_the_setup_of_an_unclaimed_account(anon_api, newcomer, login):
    answer = login(anon_api, newcomer.email, "anything")
    assert answer.status_code == 401 and "userId" not in answer.json()
    assert anon_api.get(f"/api/auth/totp-setup/{newcomer.pk}").status_code == 404


def test_must_change_password_user_sets_a_new_one_after_proving_the_old(anon_api, org, login):
    user = f.make_user(org, email="rotate@mp.edu.au", must_change_password=True)
    # Without the password, setup is out of reach.
    assert ApiClient().get(f"/api/auth/totp-setup/{user.pk}").status_code == 404
    answer = login(anon_api, user.email).json()
    assert answer["requiresSetup"] is True
    secret = anon_api.get(f"/api/auth/totp-setup/{user.pk}").json()["manualEntryKey"]
    response = anon_api.post(
        "/api/auth/setup-password",
        {"userId": str(user.pk), "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD, "totpCode": code_at(secret)},
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD) and not user.must_change_password


@pytest.mark.parametrize(
    "password, messages",
    [
        ("Short$1a", ["Password must be at least 12 characters"]),
        ("NOLOWERCASE$123", ["Password must contain at least one lowercase letter"]),
        ("nouppercase$123", ["Password must contain at least one uppercase letter"]),
        ("NoNumbers$Here!", ["Password must contain at least one number"]),
        ("NoSpecial12345a", ["Password must contain at least one special character"]),
        (
            "",
            [
                "Password must be at least 12 characters",
                "Password must contain at least one lowercase letter",
                "Password must contain at least one uppercase letter",
                "Password must contain at least one number",
                "Password must contain at least one special character",
            ],
        ),
    ],
)
def test_setup_password_rules(anon_api, newcomer, password, messages):
    response = anon_api.post(
        "/api/auth/setup-password",
        {"userId": str(newcomer.pk), "password": password, "confirmPassword": password, "totpCode": "123456"},
    )
    assert response.status_code == 400
    body = response.json()
    assert body["type"] == "validation_error"
    assert body["errors"] == [{"path": ["password"], "message": m} for m in messages]


def test_setup_password_mismatch_and_code_format(anon_api, newcomer):
    response = anon_api.post(
        "/api/auth/setup-password",
        {"userId": str(newcomer.pk), "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD + "x", "totpCode": "12a"},
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"path": ["confirmPassword"], "message": "Passwords don't match"},
        {"path": ["totpCode"], "message": "TOTP code must be 6 digits"},
    ]


def test_setup_password_wrong_code_and_no_setup_loaded(anon_api, newcomer):
    anon_api.post("/api/auth/first-time-login", {"token": newcomer.token})
    payload = {"userId": str(newcomer.pk), "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD, "totpCode": "123456"}
    response = anon_api.post("/api/auth/setup-password", payload)
    assert response.status_code == 400
    assert response.json()["message"] == "Authenticator setup has not been loaded. Please scan the QR code first."
    secret = anon_api.get(f"/api/auth/totp-setup/{newcomer.pk}").json()["manualEntryKey"]
    valid = {code_at(secret, k) for k in (-1, 0, 1)}
    payload["totpCode"] = next(c for c in ("000000", "111111", "222222", "333333") if c not in valid)
    response = anon_api.post("/api/auth/setup-password", payload)
    assert response.status_code == 401 and response.json() == {"message": "Invalid authenticator code"}
    newcomer.refresh_from_db()
    assert not newcomer.has_usable_password() and not newcomer.is_totp_enabled
    assert anon_api.get("/api/auth/user").status_code == 401


def test_setup_password_unknown_user_or_a_user_with_a_password_is_404(anon_api, member_user):
    for user_id in ("00000000-0000-0000-0000-000000000000", str(member_user.pk)):
        response = anon_api.post(
            "/api/auth/setup-password",
            {"userId": user_id, "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD, "totpCode": "123456"},
        )
        assert response.status_code == 404 and response.json() == {"message": "User not found"}
    member_user.refresh_from_db()
    assert not member_user.check_password(NEW_PASSWORD)


def test_a_user_id_seen_elsewhere_opens_nothing(anon_api, newcomer):
    """Only the browser that started the setup (first-time login) may load the QR code or set the password."""
    from tests.conftest import ApiClient

    started = anon_api.post("/api/auth/first-time-login", {"token": newcomer.token}).json()
    stranger = ApiClient(None)
    assert stranger.get(f"/api/auth/totp-setup/{started['userId']}").status_code == 404
    response = stranger.post(
        "/api/auth/setup-password",
        {"userId": started["userId"], "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD, "totpCode": "123456"},
    )
    assert response.status_code == 404
    assert anon_api.get(f"/api/auth/totp-setup/{started['userId']}").status_code == 200
