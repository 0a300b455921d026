"""A real daphne serving the project (with the realtime tests' hooks) for the operations tests that need
what happens before Django sees a request: daphne's own access lines and its request parsing."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.request

import pytest

from tests.realtime.conftest import Server, rt_database_url  # noqa: F401 — a fixture, used below


class Browser:
    """urllib with a cookie jar, sending the CSRF token as the SPA does (docs/behaviour/api.md §2)."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def with_session(self, session: str) -> Browser:
        """This browser carrying the session cookie ``session`` (a seeded user's)."""
        cookie = http.cookiejar.Cookie(
            0, "sessionid", session, None, False, "127.0.0.1", False, False, "/", True, False, None, False, None, None, {}
        )
        self.jar.set_cookie(cookie)
        return self

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "") or ""

    def call(
        self, method: str, path: str, body: object = None, headers: dict | None = None, raw: bytes | None = None
    ) -> tuple[int, bytes]:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        h = {"X-CSRFToken": self.cookie("csrftoken"), "Content-Type": "application/json", **(headers or {})}
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)  # noqa: S310 — the test's own http:// server
        try:
            with self.opener.open(req, timeout=30) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()

    def json(self, method: str, path: str, body: object = None, expect: int = 200) -> dict:
        status, content = self.call(method, path, body)
        assert status == expect, (method, path, status, content[:500])
        return json.loads(content)


@pytest.fixture
def project_server(rt_database_url):  # noqa: F811 — the imported fixture
    """The project's server writing INFO and up (more lines than production's WARNING) through the
    project's log formatter, with the default console mail backend."""
    srv = Server(rt_database_url, None, LOG_LEVEL="INFO", EMAIL_URL="", EMAIL_HOST="", PYTHONUNBUFFERED="1").start()
    yield srv
    srv.stop()
