"""Shared fixtures: two organizations, an admin and a member in each, and a JSON API client that
behaves like the SPA (session cookie, CSRF header from the cookie, X-Client-Id)."""

from __future__ import annotations

import json as jsonlib
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.test import Client

from tests import factories as f


class ApiClient:
    """Thin JSON wrapper over Django's test client with CSRF checks enforced, as in production."""

    def __init__(self, user=None, client_id: str | None = "test-tab"):
        self.client = Client(enforce_csrf_checks=True, HTTP_HOST="localhost")
        self.client_id = client_id
        if user is not None:
            self.client.force_login(user)
        # Any GET under /api/ sets the csrftoken cookie (docs/behaviour/api.md §2).
        self.client.get("/api/auth/user")

    def confirm_identity(self, password: str | None = None):
        """POST /api/auth/reauthenticate with the password (ADR 0006): this session may then register a
        passkey or reset/enable TOTP for 5 minutes."""
        from tests.factories import PASSWORD

        response = self.post("/api/auth/reauthenticate", {"password": password or PASSWORD})
        assert response.status_code == 200, response.content
        return self

    @property
    def csrf(self) -> str:
        cookie = self.client.cookies.get("csrftoken")
        return cookie.value if cookie else ""

    def _headers(self, headers: dict | None) -> dict:
        h = {"X-CSRFToken": self.csrf}
        if self.client_id:
            h["X-Client-Id"] = self.client_id
        h.update(headers or {})
        return h

    def get(self, path: str, params: dict | None = None, headers: dict | None = None):
        return self.client.get(path, params or {}, headers=headers or {})

    def post(self, path: str, json=None, headers: dict | None = None, **kw):
        if "data" in kw:  # multipart
            return self.client.post(path, kw.pop("data"), headers=self._headers(headers), **kw)
        body = "" if json is None else jsonlib.dumps(json)
        return self.client.post(path, body, content_type="application/json", headers=self._headers(headers))

    def put(self, path: str, json=None, headers: dict | None = None):
        body = "" if json is None else jsonlib.dumps(json)
        return self.client.put(path, body, content_type="application/json", headers=self._headers(headers))

    def delete(self, path: str, headers: dict | None = None):
        return self.client.delete(path, headers=self._headers(headers))


@pytest.fixture(autouse=True)
def _fast_password_hashing(request, settings):
    """Argon2 costs ~0.3 s a hash; tests use a fast hasher unless marked ``real_hasher``."""
    if request.node.get_closest_marker("real_hasher") is None:
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Every test client builds a handler; let whitenoise look files up per request instead of scanning
    # the SPA build and every app's static files each time.
    settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture
def org(db):
    return f.make_org(name="Melbourne Polytechnic Demo", domain="mp.edu.au")


@pytest.fixture
def other_org(db):
    return f.make_org(name="Other Institute", domain="other.edu.au")


@pytest.fixture
def admin_user(org):
    return f.make_user(org, role="admin", email="admin@mp.edu.au", first_name="Ada", last_name="Admin")


@pytest.fixture
def member_user(org):
    return f.make_user(org, role="user", email="member@mp.edu.au", first_name="Mel", last_name="Member")


@pytest.fixture
def other_admin(other_org):
    return f.make_user(other_org, role="admin", email="admin@other.edu.au")


@pytest.fixture
def api(admin_user):
    """Signed in as the admin of ``org``."""
    return ApiClient(admin_user)


@pytest.fixture
def member_api(member_user):
    return ApiClient(member_user)


@pytest.fixture
def other_api(other_admin):
    """Signed in as the admin of ``other_org``."""
    return ApiClient(other_admin)


@pytest.fixture
def anon_api(db):
    return ApiClient(None)


@pytest.fixture
def ctx(org, admin_user):
    from project.core.tenancy import Ctx

    return Ctx(org=org, user=admin_user, origin="test-tab")


@pytest.fixture
def captured_events(monkeypatch):
    """Every message the change helper sends after commit: list of (group, message). Each change event
    must be one of the model (``project.core.changes.ChangeEvent``, docs/adr/0028): one that is not
    fails the test that sent it."""
    sent: list[tuple[str, dict]] = []
    from project.core.changes import ChangeEvent
    from realtime import events

    real_send = events._send

    def record(group, message):
        if message.get("type") == events.CHANGE_EVENT:
            ChangeEvent.model_validate({k: v for k, v in message["event"].items() if k != "campusIds"})
        sent.append((group, message))
        real_send(group, message)

    monkeypatch.setattr(events, "_send", record)
    return sent


@pytest.fixture
def committed(captured_events, django_capture_on_commit_callbacks):
    """``with committed() as sent:`` runs a write with its on-commit callbacks executed; ``sent`` then
    holds the ``(entity, action, ids)`` of the change events that write sent (earlier ones are cleared)."""
    from tests.checks import change_events

    @contextmanager
    def block() -> Iterator[list]:
        captured_events.clear()
        sent: list = []
        with django_capture_on_commit_callbacks(execute=True):
            yield sent
        sent.extend(change_events(captured_events))

    return block


def pytest_configure(config):
    """No persistent connections inside the test process (ADR 0009): connections opened by worker
    threads (``database_sync_to_async`` in the socket tests) would outlive their tests and keep the test
    database from being dropped. Servers started as subprocesses keep the production setting."""
    from django.conf import settings

    for db in settings.DATABASES.values():
        db["CONN_MAX_AGE"] = 0
        # Nor a connection pool (ADR 0009, second amendment): a pooled connection still checked out by a
        # worker thread at the end of the run keeps the test database from being dropped. The daphne
        # processes of tests/realtime and the browser tests run with the pool.
        db.get("OPTIONS", {}).pop("pool", None)
