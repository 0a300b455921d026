"""Required means required (docs/adr/0024): in required mode an invitee of the domain has no password or
authenticator step and signs in with the provider (the invitation links the account), and setting up a
password, changing it or registering a passkey answers 403 ``sso_required`` for everyone of the domain
but the break-glass administrator. Against the real provider of tests/sso/provider.py."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from project.accounts.models import Invitation, SingleSignOnProvider, User
from tests import factories as f
from tests.conftest import ApiClient
from tests.sso.test_sign_in import finish, signed_in_email, start


@pytest.fixture
def required(idp, org, admin_user):
    """``org``'s provider (tests/sso/test_sign_in.py ``idp``) switched to required, Ada the break-glass admin."""
    SingleSignOnProvider.objects.for_org(org).update(mode="required", break_glass_user=admin_user)
    return idp


def invite(api: ApiClient, email: str) -> tuple[str, str]:
    answer = api.post("/api/admin/users", {"firstName": "Iva", "lastName": "Invitee", "email": email, "role": "user"})
    assert answer.status_code == 201, answer.content
    token = parse_qs(urlsplit(answer.json()["invitationLink"]).query)["token"][0]
    return answer.json()["id"], token


SETUP = {"password": "An0ther$ecretPass!", "confirmPassword": "An0ther$ecretPass!", "totpCode": "123456"}
REFUSED_TEXT = "Your organization signs in with Contoso Entra. Use \u201cSign in with Contoso Entra\u201d."


def test_a_required_domain_invitee_signs_in_with_the_provider_and_never_gets_a_password(required, api):
    user_id, token = invite(api, "iva@mp.edu.au")
    invitee = ApiClient(None)
    answer = invitee.post("/api/auth/first-time-login", {"token": token})
    assert answer.status_code == 200
    assert answer.json() == {
        "requiresSetup": False,
        "userId": None,
        "hasPassword": False,
        "message": REFUSED_TEXT,
        "email": "iva@mp.edu.au",
        "ssoProviderName": "Contoso Entra",
        "ssoStartUrl": "/api/auth/sso/start?email=iva%40mp.edu.au",
    }
    # No password or authenticator step, whatever the browser tries.
    refused = invitee.post("/api/auth/setup-password", {"userId": user_id, **SETUP})
    assert refused.status_code == 403 and refused.json()["type"] == "sso_required"
    assert invitee.get(f"/api/auth/totp-setup/{user_id}").status_code == 404  # not in setup state

    required.set_account("iva", "iva@mp.edu.au", given_name="Iva")
    browser = ApiClient(None)
    callback = finish(browser, required.sign_in(start(browser, "iva@mp.edu.au"), "iva@mp.edu.au"))
    assert callback.status_code == 302 and callback["Location"] == "/"
    assert signed_in_email(browser) == "iva@mp.edu.au"
    user = User.objects.get(pk=user_id)
    assert not user.has_usable_password() and not user.must_change_password and not user.is_totp_enabled
    assert Invitation.objects.get(user=user).used_at is not None  # the link is used up
    assert invitee.post("/api/auth/first-time-login", {"token": token}).status_code == 404


def test_a_setup_started_before_the_mode_became_required_cannot_finish(idp, api, org, admin_user):
    user_id, token = invite(api, "late@mp.edu.au")
    invitee = ApiClient(None)
    assert invitee.post("/api/auth/first-time-login", {"token": token}).json()["requiresSetup"] is True
    assert invitee.get(f"/api/auth/totp-setup/{user_id}").status_code == 200
    SingleSignOnProvider.objects.for_org(org).update(mode="required", break_glass_user=admin_user)
    refused = invitee.post("/api/auth/setup-password", {"userId": user_id, **SETUP})
    assert refused.status_code == 403
    assert refused.json() == {"message": REFUSED_TEXT, "type": "sso_required", "providerName": "Contoso Entra"}
    assert not User.objects.get(pk=user_id).has_usable_password()


def test_change_password_and_passkeys_are_refused_to_the_domain_but_not_to_the_break_glass_admin(required, admin_user, org):
    member = f.make_user(org, role="user", email="mel@mp.edu.au")  # a password from before the mode changed
    staff = ApiClient(member).confirm_identity()
    body = {"currentPassword": f.PASSWORD, "newPassword": "An0ther$ecretPass!", "confirmPassword": "An0ther$ecretPass!"}
    for method, path, payload in (
        ("post", "/api/auth/change-password", body),
        ("put", "/api/auth/change-password", body),
        ("post", "/api/auth/passkeys/register/begin", None),
        ("post", "/api/auth/passkeys/register/complete", {"response": {}}),
    ):
        answer = getattr(staff, method)(path, payload)
        assert answer.status_code == 403, (path, answer.content)
        assert answer.json()["type"] == "sso_required"
    member.refresh_from_db()
    assert member.check_password(f.PASSWORD)

    glass = ApiClient(admin_user).confirm_identity()
    assert glass.post("/api/auth/passkeys/register/begin").status_code == 200
    assert glass.post("/api/auth/change-password", body).status_code == 200


def test_optional_mode_keeps_passwords(idp, api, org):
    user_id, token = invite(api, "opt@mp.edu.au")
    assert ApiClient(None).post("/api/auth/first-time-login", {"token": token}).json()["requiresSetup"] is True
    member = f.make_user(org, role="user", email="pat@mp.edu.au")
    assert ApiClient(member).confirm_identity().post("/api/auth/passkeys/register/begin").status_code == 200
