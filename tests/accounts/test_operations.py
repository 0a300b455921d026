"""``create_organization`` (docs/behaviour/operations.md §1) and the production security check (docs/behaviour/errors.md §1)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from project.accounts.models import Organization, User
from project.catalogue.models import Campus
from tests.conftest import ApiClient

ROOT = Path(__file__).resolve().parents[2]
ADMIN_PASSWORD = "Admin$Password2026"


@pytest.mark.django_db
def test_create_organization_makes_a_campus_and_an_admin_who_can_sign_in(login, django_capture_on_commit_callbacks):
    out = StringIO()
    call_command(
        "create_organization",
        "--name",
        "Kangan Institute",
        "--domain",
        "Kangan.edu.au",
        "--admin-email",
        "Boss@Kangan.edu.au",
        "--admin-password",
        ADMIN_PASSWORD,
        stdout=out,
    )
    org = Organization.objects.get(domain="kangan.edu.au")
    assert out.getvalue().strip() == str(org.pk)
    assert org.name == "Kangan Institute" and org.is_active
    campus = Campus.objects.unscoped().get(organization=org)
    assert (campus.name, campus.abbreviation) == ("Main Campus", "MAIN")
    admin = User.objects.get(email="boss@kangan.edu.au")
    assert admin.organization == org and admin.role == "admin" and admin.is_active
    assert admin.must_change_password is False and admin.is_totp_enabled is False
    client = ApiClient()
    response = login(client, "boss@kangan.edu.au", ADMIN_PASSWORD)
    assert response.status_code == 200 and response.json()["user"]["role"] == "admin"
    assert client.get("/api/admin/users").status_code == 200


@pytest.mark.django_db
def test_create_organization_refuses_bad_input(admin_user):
    def create(*, domain: str = "x.edu.au", email: str = "a@x.edu.au", password: str = ADMIN_PASSWORD) -> None:
        call_command(
            "create_organization", "--name", "X", "--domain", domain, "--admin-email", email, "--admin-password", password
        )

    with pytest.raises(CommandError, match="Password must be at least 12 characters"):
        create(password="weak")
    with pytest.raises(CommandError, match="An organization with this domain already exists"):
        create(domain="MP.edu.au")
    with pytest.raises(CommandError, match="A user with this email already exists"):
        create(email=admin_user.email)
    with pytest.raises(CommandError, match="Please enter a valid email address"):
        create(email="nope")
    assert not Organization.objects.filter(domain="x.edu.au").exists()


def test_check_deploy_is_clean_in_production_mode():
    env = dict(os.environ, BLOCKPLAN_PRODUCTION="1", SECRET_KEY=secrets.token_urlsafe(64), EMAIL_URL="dummy://")
    env.pop("DEBUG", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_refuse_the_development_secret_key():
    env = dict(os.environ, BLOCKPLAN_PRODUCTION="1")
    env.pop("SECRET_KEY", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


def test_openapi_schema_lists_every_accounts_call():
    from project.api import api

    paths = api.get_openapi_schema()["paths"]
    expected = {
        "/api/auth/user": {"get"},
        "/api/auth/login": {"post"},
        "/api/auth/first-time-login": {"post"},
        "/api/auth/totp-setup/{user_id}": {"get"},
        "/api/auth/setup-password": {"post"},
        "/api/auth/change-password": {"post", "put"},
        "/api/auth/reset-totp": {"post"},
        "/api/auth/enable-totp": {"post"},
        "/api/auth/logout": {"post"},
        "/api/auth/passkeys/authenticate/begin": {"post"},
        "/api/auth/passkeys/authenticate/complete": {"post"},
        "/api/auth/passkeys": {"get"},
        "/api/auth/passkeys/register/begin": {"post"},
        "/api/auth/passkeys/register/complete": {"post"},
        "/api/auth/passkeys/{passkey_id}": {"delete"},
        "/api/auth/profile": {"put"},
        "/api/auth/settings": {"get", "put"},
        "/api/auth/export-data": {"post"},
        "/api/organization": {"get", "put"},
        "/api/admin/users": {"get", "post"},
        "/api/admin/users/{user_id}": {"delete"},
    }
    for path, methods in expected.items():
        assert methods <= set(paths[path]), path
    login_body = paths["/api/auth/login"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert login_body
