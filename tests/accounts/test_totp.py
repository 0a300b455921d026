"""TOTP: setup QR, enable, sign in with codes computed by pyotp, replay refused, drift, reset."""

from __future__ import annotations

import base64
import io
import time
from urllib.parse import parse_qs, unquote, urlparse

import pyotp
import pytest
from PIL import Image

from project.accounts import totp
from project.accounts.models import User
from tests import factories as f
from tests.accounts.conftest import code_at
from tests.conftest import ApiClient

pytestmark = pytest.mark.django_db


def _setup(client: ApiClient, user: User) -> dict:
    response = client.get(f"/api/auth/totp-setup/{user.pk}")
    assert response.status_code == 200, response.content
    return response.json()


def _enable(client: ApiClient, user: User) -> str:
    """Load setup, enable with the current code; returns the secret."""
    secret = _setup(client, user)["manualEntryKey"]
    response = client.post("/api/auth/enable-totp", {"totpCode": code_at(secret)})
    assert response.status_code == 200, response.content
    return secret


def test_totp_setup_answers_a_256px_qr_png_of_the_otpauth_uri_and_the_key(member_api, member_user):
    body = _setup(member_api, member_user)
    assert set(body) == {"qrCodeUri", "manualEntryKey"}
    secret = body["manualEntryKey"]
    assert len(secret) == 32 and pyotp.TOTP(secret).now()  # valid base32
    prefix = "data:image/png;base64,"
    assert body["qrCodeUri"].startswith(prefix)
    image = Image.open(io.BytesIO(base64.b64decode(body["qrCodeUri"][len(prefix) :])))
    assert image.format == "PNG" and image.size == (256, 256)
    member_user.refresh_from_db()
    assert member_user.totp_secret == secret and member_user.is_totp_enabled is False
    uri = totp.provisioning_uri(secret, member_user.email)
    parsed = urlparse(uri)
    assert parsed.scheme == "otpauth" and parsed.netloc == "totp"
    assert unquote(parsed.path) == f"/Blockplan:{member_user.email}"
    assert parse_qs(parsed.query)["secret"] == [secret]
    # Each call while TOTP is off starts afresh.
    assert _setup(member_api, member_user)["manualEntryKey"] != secret


def test_qr_border_is_two_modules():
    image = Image.open(io.BytesIO(base64.b64decode(totp.qr_data_uri("otpauth://totp/x?secret=AAAA").split(",")[1])))
    pixels = image.load()
    # The first dark pixel on the diagonal starts the finder pattern, 2 modules in from the edge.
    first_dark = next(i for i in range(256) if pixels[i, i] < 128)
    import qrcode

    qr = qrcode.QRCode(border=2)
    qr.add_data("otpauth://totp/x?secret=AAAA")
    qr.make(fit=True)
    modules = qr.modules_count + 4
    assert first_dark == pytest.approx(2 * 256 / modules, abs=1.5)


def test_totp_round_trip_enable_sign_in_and_replay_refused(
    member_api, member_user, login, django_capture_on_commit_callbacks, captured_events
):
    secret = _setup(member_api, member_user)["manualEntryKey"]
    first = code_at(secret)
    with django_capture_on_commit_callbacks(execute=True):
        response = member_api.post("/api/auth/enable-totp", {"totpCode": first})
    assert response.status_code == 200
    assert response.json()["user"]["isTotpEnabled"] is True
    assert [m["event"]["entity"] for _, m in captured_events if m["type"] == "change.event"] == ["user"]
    member_api.post("/api/auth/logout")

    client = ApiClient()
    # Password alone now asks for a code, and does not sign in.
    response = login(client, member_user.email)
    assert response.json() == {"user": None, "requiresTotp": True, "requiresSetup": False, "userId": None}
    assert client.get("/api/auth/user").status_code == 401
    # The code used to enable is spent: replaying it is refused.
    replay = login(client, member_user.email, totpCode=first)
    assert replay.status_code == 401 and replay.json() == {"message": "Invalid authenticator code"}
    # The next step's code (one step of drift) signs in.
    nxt = code_at(secret, 1)
    response = login(client, member_user.email, totpCode=nxt)
    assert response.status_code == 200 and response.json()["user"]["isTotpEnabled"] is True
    assert client.get("/api/auth/user").status_code == 200
    # ...and cannot be used a second time, even in its own window.
    again = login(ApiClient(), member_user.email, totpCode=nxt)
    assert again.status_code == 401 and again.json()["message"] == "Invalid authenticator code"


def test_wrong_code_and_wrong_password_with_code(member_api, member_user, login):
    secret = _enable(member_api, member_user)
    wrong = "000000" if code_at(secret, 1) != "000000" else "111111"
    response = login(ApiClient(), member_user.email, totpCode=wrong)
    assert response.status_code == 401 and response.json()["message"] == "Invalid authenticator code"
    # A right code with a wrong password is still a wrong password.
    response = login(ApiClient(), member_user.email, "Wrong$Password123", totpCode=code_at(secret, 1))
    assert response.status_code == 401 and response.json()["message"] == "Invalid email or password"


def test_codes_more_than_one_step_away_are_refused():
    secret = pyotp.random_base32()
    now = time.time()
    assert totp.matching_counter(secret, pyotp.TOTP(secret).at(now - 30), for_time=now) is not None
    assert totp.matching_counter(secret, pyotp.TOTP(secret).at(now + 30), for_time=now) is not None
    assert totp.matching_counter(secret, pyotp.TOTP(secret).at(now - 90), for_time=now) is None
    assert totp.matching_counter(secret, pyotp.TOTP(secret).at(now + 90), for_time=now) is None


def test_enable_totp_errors(member_api, member_user):
    # Never set up.
    response = member_api.post("/api/auth/enable-totp", {"totpCode": "123456"})
    assert response.status_code == 400
    assert response.json()["message"] == "Authenticator setup has not been loaded. Please scan the QR code first."
    # Bad format.
    response = member_api.post("/api/auth/enable-totp", {"totpCode": "12"})
    assert response.status_code == 400
    assert response.json()["errors"] == [{"path": ["totpCode"], "message": "TOTP code must be 6 digits"}]
    response = member_api.post("/api/auth/enable-totp", {})
    assert response.json()["errors"] == [{"path": ["totpCode"], "message": "TOTP code must be 6 digits"}]
    secret = _setup(member_api, member_user)["manualEntryKey"]
    wrong = (
        "000000"
        if code_at(secret) != "000000" and code_at(secret, -1) != "000000" and code_at(secret, 1) != "000000"
        else "999999"
    )
    response = member_api.post("/api/auth/enable-totp", {"totpCode": wrong})
    assert response.status_code == 401 and response.json() == {"message": "Invalid authenticator code"}
    member_user.refresh_from_db()
    assert member_user.is_totp_enabled is False
    assert member_api.post("/api/auth/enable-totp", {"totpCode": code_at(secret)}).status_code == 200
    # Already on: enable is refused, and the setup (which would show the secret again) too.
    response = member_api.post("/api/auth/enable-totp", {"totpCode": code_at(secret, 1)})
    assert response.status_code == 400 and response.json()["message"] == "Two-factor authentication is already enabled"
    response = member_api.get(f"/api/auth/totp-setup/{member_user.pk}")
    assert response.status_code == 409


def test_reset_totp_turns_it_off_and_a_new_secret_is_needed(member_api, member_user, login):
    old = _enable(member_api, member_user)
    response = member_api.post("/api/auth/reset-totp")
    assert response.status_code == 200
    assert response.json()["message"] == "Please scan the new QR code to re-enable TOTP."
    assert response.json()["user"]["isTotpEnabled"] is False
    member_user.refresh_from_db()
    assert member_user.totp_secret == "" and member_user.is_totp_enabled is False
    # Password alone signs in again.
    assert login(ApiClient(), member_user.email).json()["user"] is not None
    # Re-enable with a new secret; the old one's codes no longer work.
    new = _setup(member_api, member_user)["manualEntryKey"]
    assert new != old
    response = member_api.post("/api/auth/enable-totp", {"totpCode": code_at(old, 1)})
    assert response.status_code == 401
    assert member_api.post("/api/auth/enable-totp", {"totpCode": code_at(new)}).status_code == 200


def test_totp_calls_need_a_signed_in_user(anon_api, member_user):
    assert anon_api.post("/api/auth/enable-totp", {"totpCode": "123456"}).status_code == 401
    assert anon_api.post("/api/auth/reset-totp").status_code == 401


def test_totp_setup_of_someone_else_is_404(member_api, admin_user, other_admin):
    for user in (admin_user, other_admin):
        response = member_api.get(f"/api/auth/totp-setup/{user.pk}")
        assert response.status_code == 404 and response.json() == {"message": "User not found"}
    assert member_api.get("/api/auth/totp-setup/00000000-0000-0000-0000-000000000000").status_code == 404
    assert member_api.get("/api/auth/totp-setup/not-a-uuid").status_code == 404


def test_totp_setup_anonymous_only_for_users_in_setup_state(anon_api, org, member_user):
    assert anon_api.get(f"/api/auth/totp-setup/{member_user.pk}").status_code == 404  # has a password
    newcomer = User.objects.create_user("new@mp.edu.au", password=None, organization=org)
    assert anon_api.get(f"/api/auth/totp-setup/{newcomer.pk}").status_code == 404  # setup not started here
    anon_api.post("/api/auth/first-time-login", {"email": "new@mp.edu.au"})
    assert anon_api.get(f"/api/auth/totp-setup/{newcomer.pk}").status_code == 404  # an email opens nothing
    from project.accounts import invitations

    token = invitations.issue(user=newcomer, created_by=None, request=None).link.split("token=")[1]
    anon_api.post("/api/auth/first-time-login", {"token": token})
    assert anon_api.get(f"/api/auth/totp-setup/{newcomer.pk}").status_code == 200
    newcomer.is_active = False
    newcomer.save()
    assert anon_api.get(f"/api/auth/totp-setup/{newcomer.pk}").status_code == 404


def test_signed_in_user_cannot_set_up_another_organizations_newcomer(api, other_org):
    theirs = User.objects.create_user("new@other.edu.au", password=None, organization=other_org)
    assert api.get(f"/api/auth/totp-setup/{theirs.pk}").status_code == 404
    same_org = User.objects.create_user("new2@mp.edu.au", password=None, organization=f.make_org())
    assert api.get(f"/api/auth/totp-setup/{same_org.pk}").status_code == 404
