"""Helpers for the accounts tests: TOTP codes computed by pyotp for a given time step."""

from __future__ import annotations

import time

import pyotp
import pytest

from tests.conftest import ApiClient
from tests.factories import PASSWORD


def code_at(secret: str, offset_steps: int = 0) -> str:
    """The code of ``secret`` for the current 30 s step plus ``offset_steps``."""
    totp = pyotp.TOTP(secret)
    return totp.at(time.time() + offset_steps * totp.interval)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Argon2 is the configured hasher (test_security.py checks it); the other tests hash with MD5 so
    that the suite stays fast. Every password check still runs through Django's hashers."""
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.Argon2PasswordHasher",
    ]


@pytest.fixture
def login():
    """``login(client, email, password=PASSWORD, **extra)`` posts to /api/auth/login."""

    def do(client: ApiClient, email: str, password: str = PASSWORD, **extra):
        return client.post("/api/auth/login", {"email": email, "password": password, **extra})

    return do


@pytest.fixture
def member_api(member_user):
    """Signed in as the member, who has just confirmed their identity (ADR 0006), as the profile page
    does before a passkey or authenticator change. tests/accounts/test_reauth.py covers the refusal."""
    return ApiClient(member_user).confirm_identity()
