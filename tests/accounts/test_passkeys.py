"""Passkeys: registration and sign-in verified by py_webauthn against a software ES256 authenticator."""

from __future__ import annotations

import pytest
from django.test import override_settings

from project.accounts.models import Passkey
from tests.accounts.authenticator import SoftAuthenticator
from tests.conftest import ApiClient

pytestmark = pytest.mark.django_db


def _register(client: ApiClient, authenticator: SoftAuthenticator, device_name=None):
    options = client.post("/api/auth/passkeys/register/begin").json()
    payload = {"response": authenticator.create(options)}
    if device_name is not None:
        payload["deviceName"] = device_name
    return client.post("/api/auth/passkeys/register/complete", payload)


def _authenticate(client: ApiClient, authenticator: SoftAuthenticator, **kw):
    options = client.post("/api/auth/passkeys/authenticate/begin").json()
    return client.post("/api/auth/passkeys/authenticate/complete", {"response": authenticator.get(options, **kw)})


def test_register_begin_options(member_api, member_user):
    response = member_api.post("/api/auth/passkeys/register/begin")
    assert response.status_code == 200
    options = response.json()
    assert options["rp"] == {"id": "localhost", "name": "Blockplan"}
    assert options["user"]["name"] == member_user.email
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["challenge"]
    assert {"type": "public-key", "alg": -7} in options["pubKeyCredParams"]


def test_register_then_sign_in_with_the_passkey(member_api, member_user):
    authenticator = SoftAuthenticator()
    response = _register(member_api, authenticator, device_name="Work laptop")
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["deviceName"] == "Work laptop" and created["lastUsed"] is None
    passkey = Passkey.objects.get(pk=created["id"])
    assert passkey.user == member_user and passkey.credential_id == authenticator.credential_id_b64
    assert passkey.transports == ["internal"]

    # Excluded from a second registration's options.
    options = member_api.post("/api/auth/passkeys/register/begin").json()
    assert [c["id"] for c in options["excludeCredentials"]] == [authenticator.credential_id_b64]

    browser = ApiClient()
    begin = browser.post("/api/auth/passkeys/authenticate/begin").json()
    assert begin["rpId"] == "localhost" and begin.get("allowCredentials", []) == []  # discoverable
    response = browser.post("/api/auth/passkeys/authenticate/complete", {"response": authenticator.get(begin)})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["verified"] is True and body["user"]["id"] == str(member_user.pk)
    assert browser.get("/api/auth/user").json()["user"]["email"] == member_user.email
    passkey.refresh_from_db()
    assert passkey.counter == 1 and passkey.last_used is not None

    listing = member_api.get("/api/auth/passkeys").json()
    assert listing[0]["lastUsed"] is not None
    assert set(listing[0]) == {"id", "deviceName", "createdAt", "lastUsed"}  # no key material


def test_blank_device_name_is_unknown_device(member_api):
    response = _register(member_api, SoftAuthenticator(), device_name="   ")
    assert response.json()["deviceName"] == "Unknown Device"
    response = _register(member_api, SoftAuthenticator())
    assert response.json()["deviceName"] == "Unknown Device"


def test_device_name_too_long(member_api):
    authenticator = SoftAuthenticator()
    options = member_api.post("/api/auth/passkeys/register/begin").json()
    response = member_api.post(
        "/api/auth/passkeys/register/complete", {"response": authenticator.create(options), "deviceName": "x" * 101}
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": ["deviceName"], "message": "Device name must be at most 100 characters"}]


def test_sign_count_that_does_not_increase_is_refused(member_api, member_user):
    authenticator = SoftAuthenticator()
    _register(member_api, authenticator)
    assert _authenticate(ApiClient(), authenticator).status_code == 200  # count 1
    assert _authenticate(ApiClient(), authenticator).status_code == 200  # count 2
    cloned = ApiClient()
    response = _authenticate(cloned, authenticator, sign_count=2)  # a clone replays count 2
    assert response.status_code == 401 and response.json() == {"message": "Passkey authentication failed"}
    assert cloned.get("/api/auth/user").status_code == 401
    assert Passkey.objects.get(user=member_user).counter == 2


def test_assertion_for_another_challenge_or_origin_is_refused(member_api):
    authenticator = SoftAuthenticator()
    _register(member_api, authenticator)
    browser = ApiClient()
    stale = browser.post("/api/auth/passkeys/authenticate/begin").json()
    browser.post("/api/auth/passkeys/authenticate/begin")  # a newer challenge replaces it
    response = browser.post("/api/auth/passkeys/authenticate/complete", {"response": authenticator.get(stale)})
    assert response.status_code == 401
    # A phishing origin.
    response = _authenticate(ApiClient(), authenticator, origin="http://evil.example")
    assert response.status_code == 401 and response.json()["message"] == "Passkey authentication failed"


def test_unknown_passkey_and_forged_signature_are_refused(member_api):
    registered = SoftAuthenticator()
    _register(member_api, registered)
    stranger = SoftAuthenticator()
    stranger.user_handle = registered.user_handle
    assert _authenticate(ApiClient(), stranger).status_code == 401  # unknown credential
    forger = SoftAuthenticator()
    forger.credential_id = registered.credential_id  # right id, wrong private key
    forger.user_handle = registered.user_handle
    forger.sign_count = 5
    response = _authenticate(ApiClient(), forger)
    assert response.status_code == 401 and response.json()["message"] == "Passkey authentication failed"


def test_complete_without_begin_and_malformed_responses(member_api, anon_api):
    response = anon_api.post("/api/auth/passkeys/authenticate/complete", {"response": {"id": "abc"}})
    assert response.status_code == 400
    assert response.json()["message"] == "Passkey authentication was not started. Please try again."
    anon_api.post("/api/auth/passkeys/authenticate/begin")
    response = anon_api.post("/api/auth/passkeys/authenticate/complete", {"response": {"id": "abc", "junk": 1}})
    assert response.status_code == 401
    response = member_api.post("/api/auth/passkeys/register/complete", {"response": {"id": "x"}})
    assert response.status_code == 400
    assert response.json()["message"] == "Passkey registration was not started. Please try again."
    member_api.post("/api/auth/passkeys/register/begin")
    response = member_api.post("/api/auth/passkeys/register/complete", {"response": {"id": "x", "rawId": "y"}})
    assert response.status_code == 400 and response.json()["message"] == "Passkey registration failed"
    assert anon_api.post("/api/auth/passkeys/authenticate/complete", {}).status_code == 400


def test_registration_for_a_foreign_origin_is_refused(member_api):
    authenticator = SoftAuthenticator()
    options = member_api.post("/api/auth/passkeys/register/begin").json()
    response = member_api.post(
        "/api/auth/passkeys/register/complete", {"response": authenticator.create(options, origin="http://evil.example")}
    )
    assert response.status_code == 400 and response.json()["message"] == "Passkey registration failed"
    assert not Passkey.objects.exists()


def test_relying_party_from_settings(member_api, member_user):
    with override_settings(
        WEBAUTHN_RP_ID="blockplan.example", WEBAUTHN_ORIGIN=["https://blockplan.example", "http://localhost:8000"]
    ):
        authenticator = SoftAuthenticator(origin="https://blockplan.example", rp_id="blockplan.example")
        response = _register(member_api, authenticator)
        assert response.status_code == 201
        assert _authenticate(ApiClient(), authenticator).status_code == 200


def test_inactive_user_cannot_sign_in_with_a_passkey(member_api, member_user):
    authenticator = SoftAuthenticator()
    _register(member_api, authenticator)
    member_user.is_active = False
    member_user.save()
    assert _authenticate(ApiClient(), authenticator).status_code == 401


def test_list_and_delete_only_ones_own_passkeys(member_api, api, member_user):
    mine = _register(member_api, SoftAuthenticator(), device_name="Phone").json()
    admins = _register(api.confirm_identity(), SoftAuthenticator(), device_name="Admin key").json()
    listing = member_api.get("/api/auth/passkeys")
    assert listing.status_code == 200
    assert [p["deviceName"] for p in listing.json()] == ["Phone"]
    # Another user's passkey reads as not found.
    response = member_api.delete(f"/api/auth/passkeys/{admins['id']}")
    assert response.status_code == 404 and response.json() == {"message": "Passkey not found"}
    assert Passkey.objects.filter(pk=admins["id"]).exists()
    response = member_api.delete(f"/api/auth/passkeys/{mine['id']}")
    assert response.status_code == 200 and response.json() == {"message": "Passkey deleted"}
    assert member_api.get("/api/auth/passkeys").json() == []


def test_passkey_management_needs_a_signed_in_user(anon_api):
    assert anon_api.get("/api/auth/passkeys").status_code == 401
    assert anon_api.post("/api/auth/passkeys/register/begin").status_code == 401
    assert anon_api.post("/api/auth/passkeys/register/complete", {"response": {}}).status_code == 401
    assert anon_api.delete("/api/auth/passkeys/00000000-0000-0000-0000-000000000000").status_code == 401
