"""Brute-force protection through django-axes: password, TOTP codes and first-time lookups."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.utils import timezone

from tests import factories as f
from tests.accounts.conftest import code_at
from tests.conftest import ApiClient

pytestmark = pytest.mark.django_db

WRONG = "Wrong$Password123"
LOCKED = {"message": "Too many failed attempts. Please wait 15 minutes and try again.", "type": "locked_out"}


def _age_attempts(minutes: int) -> None:
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=minutes))


def test_repeated_wrong_passwords_lock_the_account_then_it_expires(anon_api, member_user, login, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    for _ in range(4):
        response = login(anon_api, member_user.email, WRONG)
        assert response.status_code == 401 and response.json()["message"] == "Invalid email or password"
    fifth = login(anon_api, member_user.email, WRONG)
    assert fifth.status_code == 429 and fifth.json() == LOCKED
    # Even the right password is refused while locked, with the same clear message.
    right = login(anon_api, member_user.email)
    assert right.status_code == 429 and right.json() == LOCKED
    assert anon_api.get("/api/auth/user").status_code == 401
    assert AccessAttempt.objects.filter(username=member_user.email).exists()
    # After the cool-off, the right password works again and the failures are cleared.
    _age_attempts(16)
    response = login(anon_api, member_user.email)
    assert response.status_code == 200 and response.json()["user"]["id"] == str(member_user.pk)
    assert not AccessAttempt.objects.filter(username=member_user.email).exists()


def test_lockout_is_per_account_and_address_pair(member_user, admin_user, login):
    """5 wrong passwords against an email locked that account out everywhere."""
    attacker = ApiClient()
    attacker.client.defaults["REMOTE_ADDR"] = "198.51.100.7"
    for _ in range(5):
        login(attacker, member_user.email, WRONG)
    assert login(attacker, member_user.email).status_code == 429  # the pair is locked
    office = ApiClient()
    office.client.defaults["REMOTE_ADDR"] = "203.0.113.9"
    assert login(office, member_user.email).status_code == 200  # the account still works from its office
    assert login(attacker, admin_user.email).status_code == 200  # and the address for other accounts


def test_spraying_past_the_address_limit_locks_the_address(org, login, settings):
    settings.AXES_IP_FAILURE_LIMIT = 8
    users = [f.make_user(org) for _ in range(8)]
    attacker = ApiClient()
    attacker.client.defaults["REMOTE_ADDR"] = "198.51.100.7"
    statuses = [login(attacker, user.email, WRONG).status_code for user in users]
    assert statuses == [401] * 7 + [429]
    victim = f.make_user(org)
    assert login(attacker, victim.email).status_code == 429  # the address is locked
    assert login(ApiClient(), victim.email).status_code == 200  # the victim is fine from elsewhere


def test_the_address_limit_is_much_higher_than_the_account_limit(settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_IP_FAILURE_LIMIT >= 10 * settings.AXES_FAILURE_LIMIT


def test_success_clears_earlier_failures(anon_api, member_user, login):
    for _ in range(4):
        login(anon_api, member_user.email, WRONG)
    assert login(anon_api, member_user.email).status_code == 200
    for _ in range(4):
        assert login(ApiClient(), member_user.email, WRONG).status_code == 401


def test_wrong_totp_codes_lock_the_account(member_api, member_user, login):
    secret = member_api.get(f"/api/auth/totp-setup/{member_user.pk}").json()["manualEntryKey"]
    assert member_api.post("/api/auth/enable-totp", {"totpCode": code_at(secret)}).status_code == 200
    valid = {code_at(secret, k) for k in (-1, 0, 1, 2)}
    wrong = next(c for c in ("000000", "111111", "222222", "333333", "444444") if c not in valid)
    client = ApiClient()
    for _ in range(4):
        response = login(client, member_user.email, totpCode=wrong)
        assert response.status_code == 401 and response.json()["message"] == "Invalid authenticator code"
    assert login(client, member_user.email, totpCode=wrong).status_code == 429
    assert login(client, member_user.email, totpCode=code_at(secret, 1)).status_code == 429
    _age_attempts(16)
    assert login(client, member_user.email, totpCode=code_at(secret, 1)).status_code == 200


def test_wrong_codes_on_enable_totp_lock_too(member_api, member_user):
    secret = member_api.get(f"/api/auth/totp-setup/{member_user.pk}").json()["manualEntryKey"]
    valid = {code_at(secret, k) for k in (-1, 0, 1)}
    wrong = next(c for c in ("000000", "111111", "222222", "333333") if c not in valid)
    statuses = [member_api.post("/api/auth/enable-totp", {"totpCode": wrong}).status_code for _ in range(5)]
    assert statuses == [401, 401, 401, 401, 429]
    response = member_api.post("/api/auth/enable-totp", {"totpCode": code_at(secret)})
    assert response.status_code == 429 and response.json() == LOCKED


def test_first_time_lookups_are_limited_per_address_and_never_lock_an_account(anon_api, member_user, login):
    """ADR 0005 amended: lookups without a token answer the same for every email; they count under a key of
    their own, so 5 per address then 429, and the account typed in is not touched."""
    statuses = [anon_api.post("/api/auth/first-time-login", {"email": member_user.email}).status_code for _ in range(7)]
    assert statuses == [404] * 4 + [429] * 3
    response = anon_api.post("/api/auth/first-time-login", {"email": "probe@mp.edu.au"})
    assert response.status_code == 429 and response.json() == LOCKED
    assert not AccessAttempt.objects.filter(username=member_user.email).exists()
    assert login(anon_api, member_user.email).status_code == 200  # the account signs in from here
    _age_attempts(16)
    assert anon_api.post("/api/auth/first-time-login", {"email": member_user.email}).status_code == 404


def test_unusable_invitation_tokens_count_against_the_address(anon_api, settings):
    settings.AXES_IP_FAILURE_LIMIT = 5
    for n in range(4):
        response = anon_api.post("/api/auth/first-time-login", {"email": f"probe{n}@mp.edu.au", "token": "x" * 43})
        assert response.status_code == 404
    assert anon_api.post("/api/auth/first-time-login", {"email": "probe9@mp.edu.au", "token": "y" * 43}).status_code == 429


def test_wrong_current_password_on_change_counts_too(member_api, member_user):
    payload = {"currentPassword": WRONG, "newPassword": "Another$Pass2026"}
    statuses = [member_api.put("/api/auth/change-password", payload).status_code for _ in range(5)]
    assert statuses == [400, 400, 400, 400, 429]


def test_one_users_wrong_current_passwords_do_not_lock_a_colleague(member_api, org, other_admin, login):
    """4 wrong current passwords by one user locked another organization's admin out of the
    same address."""
    payload = {"currentPassword": WRONG, "newPassword": "Another$Pass2026"}
    for _ in range(4):
        assert member_api.put("/api/auth/change-password", payload).status_code == 400
    colleague = f.make_user(org, role="admin")
    assert login(ApiClient(), colleague.email).status_code == 200
    assert login(ApiClient(), other_admin.email).status_code == 200


def test_cool_off_from_settings_changes_the_message(anon_api, member_user, login, settings):
    settings.AXES_COOLOFF_TIME = 1 / 60  # one minute
    for _ in range(5):
        response = login(anon_api, member_user.email, WRONG)
    assert response.status_code == 429
    assert response.json()["message"] == "Too many failed attempts. Please wait 1 minute and try again."
    _age_attempts(2)
    assert login(anon_api, member_user.email).status_code == 200


# ------------------------------------------------------------------ device cookies (ADR 0005 amended)

CAMPUS = "203.0.113.50"


def _browser(address: str = CAMPUS) -> ApiClient:
    client = ApiClient()
    client.client.defaults["REMOTE_ADDR"] = address
    return client


def test_one_address_an_attacker_and_a_returning_user(org, member_user, login, settings):
    """ADR 0005 amended: 50 failures by one person from a campus address locked every account behind it, and a
    correct password there got 429. Now: the attacker stays limited per account and per address; a
    returning user's browser (device cookie) signs in; a colleague's new browser is not locked by
    failures against a different account."""
    settings.AXES_IP_FAILURE_LIMIT = 12
    returning = _browser()
    first = login(returning, member_user.email)
    assert first.status_code == 200
    cookie = first.cookies["blockplan_device"]
    assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/api/"
    assert login(returning, "", "x").status_code in (400, 401)  # noise; the cookie stays
    returning.post("/api/auth/logout")

    attacker = _browser()
    # Failures against one account: that account is locked for this address after 5, the rest refused
    # without counting, so the address limit is never reached by hammering one account.
    colleague = f.make_user(org)
    statuses = [login(attacker, colleague.email, WRONG).status_code for _ in range(30)]
    assert statuses == [401] * 4 + [429] * 26
    newcomer = f.make_user(org)
    assert login(_browser(), newcomer.email).status_code == 200  # another account, another browser

    # Spraying many accounts, including the returning user's: the address is locked for browsers
    # without a device cookie, and the returning user's account too for the attacker.
    victims = [member_user] + [f.make_user(org) for _ in range(8)]
    for victim in victims:
        login(attacker, victim.email, WRONG)
    assert login(attacker, victims[-1].email).status_code == 429  # right password, attacker's browser
    assert login(_browser(), f.make_user(org).email).status_code == 429  # a new browser here: address locked
    assert login(attacker, member_user.email).status_code == 429

    # The returning user's browser is judged by its own record: it signs in.
    back = login(returning, member_user.email)
    assert back.status_code == 200 and back.json()["user"]["id"] == str(member_user.pk)
    # The same device cookie carried by the attacker's browser for another account helps nothing.
    attacker.client.cookies["blockplan_device"] = cookie.value
    assert login(attacker, victims[-1].email).status_code == 429


def test_a_device_cookie_is_bound_to_its_account_and_signed(org, member_user, login, settings):
    settings.AXES_IP_FAILURE_LIMIT = 3
    returning = _browser()
    assert login(returning, member_user.email).status_code == 200
    other = f.make_user(org)
    attacker = _browser()
    for victim in [f.make_user(org) for _ in range(3)]:
        login(attacker, victim.email, WRONG)
    # The returning browser's cookie is for member_user only: for another account the address limit applies.
    assert login(returning, other.email).status_code == 429
    assert login(returning, member_user.email).status_code == 200
    # A forged or altered cookie is no cookie.
    forged = _browser()
    value = returning.client.cookies["blockplan_device"].value
    forged.client.cookies["blockplan_device"] = value[:-2] + ("AA" if not value.endswith("AA") else "BB")
    assert login(forged, member_user.email).status_code == 429


def test_failures_from_a_trusted_browser_lock_that_device_only(member_user, login):
    returning = _browser()
    assert login(returning, member_user.email).status_code == 200
    returning.post("/api/auth/logout")
    statuses = [login(returning, member_user.email, WRONG).status_code for _ in range(5)]
    assert statuses == [401] * 4 + [429]
    response = login(returning, member_user.email)
    assert response.status_code == 429 and response.json() == LOCKED  # the device is locked
    # Neither the account nor the address: a new browser behind the same address signs in.
    assert not AccessAttempt.objects.filter(username=member_user.email).exists()
    assert login(_browser(), member_user.email).status_code == 200
    # After the cool-off the device works again.
    from project.accounts.models import TrustedDevice

    TrustedDevice.objects.update(failed_at=timezone.now() - timedelta(minutes=16))
    assert login(returning, member_user.email).status_code == 200
    # A device unused for a year is no device, and is forgotten at the account's next new device.
    TrustedDevice.objects.update(last_used_at=timezone.now() - timedelta(days=366))
    old = set(TrustedDevice.objects.values_list("pk", flat=True))
    assert len(old) == 2  # this browser's and the new browser's above
    assert login(returning, member_user.email, WRONG).status_code == 401
    assert AccessAttempt.objects.filter(username=member_user.email).count() == 1  # counted as untrusted
    assert login(returning, member_user.email).status_code == 200
    assert TrustedDevice.objects.count() == 1 and not TrustedDevice.objects.filter(pk__in=old).exists()
