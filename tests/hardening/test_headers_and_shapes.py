"""Headers and policies (ADR 0004): a Content-Security-Policy and X-Frame-Options on every response,
the SPA's index included (WhiteNoise serves it); Swagger UI from our own static files; every answer
under /api/ is JSON in the documented shape, a wrong method and an unreadable multipart body included."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    out = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.mark.parametrize(
    "path", ["/", "/login", "/block-groups/123", "/api/docs", "/api/auth/user", "/api/nope", "/django-admin/login/"]
)
def test_every_response_carries_csp_and_frame_options(path):
    r = Client(HTTP_HOST="localhost").get(path)
    assert r["X-Frame-Options"] == "DENY"
    csp = directives(r)
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]  # no inline or remote scripts
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["object-src"] == ["'none'"]


def test_swagger_ui_is_served_from_our_static_files():
    r = Client(HTTP_HOST="localhost").get("/api/docs")
    assert r.status_code == 200
    html = r.content.decode()
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', html)
    styles = re.findall(r'<link[^>]*href="([^"]+)"', html)
    assert scripts and all(src.startswith("/static/ninja/") for src in scripts), scripts
    assert all(href.startswith("/static/") for href in styles), styles
    # No inline script would run under script-src 'self': only the JSON settings block is inline.
    inline = re.findall(r"<script(?![^>]*src=)([^>]*)>", html)
    assert all('type="application/json"' in attrs for attrs in inline), inline


@pytest.mark.parametrize(
    "method,path",
    [
        ("DELETE", "/api/auth/login"),
        ("PUT", "/api/courses"),
        ("PATCH", "/api/teachers"),
        ("POST", "/api/auth/user"),
    ],
)
def test_wrong_method_is_a_json_405(api, method, path):
    r = api.client.generic(method, path, b"{}", content_type="application/json", headers=api._headers(None))
    assert r.status_code == 405
    assert r["Content-Type"] == "application/json"
    assert r.json() == {"message": "Method not allowed"}
    assert r["Allow"]


def test_unreadable_multipart_to_the_import_is_a_json_400(api):
    body = b'--B\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\n\r\nxx'  # never closed
    r = api.client.generic(
        "POST", "/api/timetables/import", body, content_type="multipart/form-data; boundary=B", headers=api._headers(None)
    )
    assert r.status_code == 400
    body = r.json()
    assert body["type"] == "validation_error" and body["errors"][0]["path"] in (["file"], [])


def test_a_bad_host_under_api_is_json():
    r = Client(HTTP_HOST="evil.example").get("/api/auth/user")
    assert r.status_code == 400
    assert r.json()["type"] == "validation_error"
