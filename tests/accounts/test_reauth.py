"""Re-authentication for sensitive changes (ADR 0006): a copied session cookie alone cannot add
a lasting credential. Registering a passkey and resetting or enabling TOTP need the password or an
authenticator code entered for it within the last 5 minutes; the sign-in itself does not count."""

from __future__ import annotations

import time

import pytest

from project.accounts.reauth import REAUTH_AT
from tests.accounts.conftest import code_at
from tests.conftest import ApiClient
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

SENSITIVE = [
    ("POST", "/api/auth/passkeys/register/begin", None),
    ("POST", "/api/auth/passkeys/register/complete", {"response": {"id": "x"}}),
    ("POST", "/api/auth/reset-totp", None),
    ("POST", "/api/auth/enable-totp", {"totpCode": "123456"}),
]
REFUSED = {"message": "Please confirm it's you: enter your password or an authenticator code.", "type": "reauth_required"}


def signed_in(user, login) -> ApiClient:
    """A browser that signed in with the password (as a copied cookie of it would be)."""
    client = ApiClient()
    assert login(client, user.email).status_code == 200
    return client


def test_a_fresh_sign_in_alone_cannot_change_credentials(member_user, login):
    client = signed_in(member_user, login)
    for method, path, body in SENSITIVE:
        assert method == "POST"
        response = client.post(path, body)
        assert response.status_code == 403, (path, response.content)
        assert response.json() == REFUSED
    member_user.refresh_from_db()
    assert member_user.passkeys.count() == 0


def test_the_password_confirms_for_five_minutes(member_user, login):
    client = signed_in(member_user, login)
    response = client.post("/api/auth/reauthenticate", {"password": PASSWORD})
    assert response.status_code == 200
    assert response.json()["validUntil"]
    assert client.post("/api/auth/passkeys/register/begin").status_code == 200
    # Six minutes later the confirmation is gone.
    session = client.client.session
    session[REAUTH_AT] = time.time() - 6 * 60
    session.save()
    assert client.post("/api/auth/passkeys/register/begin").json() == REFUSED


def test_an_authenticator_code_confirms_too(member_user, login):
    # Turn TOTP on first (confirmed by password), then confirm a fresh session by code.
    setup = ApiClient(member_user).confirm_identity()
    secret = setup.get(f"/api/auth/totp-setup/{member_user.pk}").json()["manualEntryKey"]
    assert setup.post("/api/auth/enable-totp", {"totpCode": code_at(secret)}).status_code == 200
    client = ApiClient(member_user)
    assert client.post("/api/auth/reset-totp").status_code == 403
    assert client.post("/api/auth/reauthenticate", {"totpCode": code_at(secret, 1)}).status_code == 200
    assert client.post("/api/auth/reset-totp").status_code == 200


def test_a_wrong_confirmation_is_refused_and_counted(member_user, login):
    client = signed_in(member_user, login)
    response = client.post("/api/auth/reauthenticate", {"password": "Wrong$Password1"})
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": ["password"], "message": "Password is incorrect"}]
    response = client.post("/api/auth/reauthenticate", {"totpCode": "123456"})
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": ["totpCode"], "message": "Invalid authenticator code"}]
    response = client.post("/api/auth/reauthenticate", {})
    assert response.status_code == 400
    assert client.post("/api/auth/reset-totp").status_code == 403
    assert ApiClient().post("/api/auth/reauthenticate", {"password": PASSWORD}).status_code == 401
