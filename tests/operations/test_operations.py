"""Operations (ADR 0020): probes, metrics, the access log and the client address behind the proxy.

The scaled-out deployment itself (nginx, several daphne processes, rolling restarts) is tested in
``test_cluster.py``; backups in ``test_backup.py``."""

from __future__ import annotations

import io
import json
import logging

import pytest
from channels.layers import channel_layers
from django.test import override_settings

from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def access_lines():
    """The JSON lines the access logger writes during the test, parsed."""
    logger = logging.getLogger("blockplan.access")
    formatter = logging.getLogger("blockplan.access").handlers[0].formatter
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(formatter)
    logger.addHandler(handler)

    def read() -> list[dict]:
        return [json.loads(line) for line in buffer.getvalue().splitlines() if line.strip()]

    read.raw = buffer  # type: ignore[attr-defined]
    yield read
    logger.removeHandler(handler)


def test_healthz_answers_without_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


def test_readyz_checks_database_channel_layer_and_migrations(client):
    r = client.get("/readyz", {"format": "json"})
    assert r.status_code == 200, r.content
    assert set(r.json()) == {"DatabaseReady(alias='default')", "ChannelLayerCarries()", "MigrationsApplied()"}
    assert set(r.json().values()) == {"OK"}
    assert "no-cache" in r["Cache-Control"]


def test_readyz_fails_when_the_channel_layer_is_unreachable(client):
    broken = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:1/0", "socket_connect_timeout": 0.5}]},
        }
    }
    channel_layers.backends.clear()
    try:
        with override_settings(CHANNEL_LAYERS=broken):
            channel_layers.backends.clear()
            r = client.get("/readyz", {"format": "json"})
    finally:
        channel_layers.backends.clear()
    assert r.status_code == 503
    assert r.json()["ChannelLayerCarries()"] == "Unavailable: Channel layer unavailable"
    assert r.json()["DatabaseReady(alias='default')"] == "OK"


def test_request_id_is_passed_through_or_made(client, access_lines):
    r = client.get("/api/auth/user", HTTP_X_REQUEST_ID="abc-123")
    assert r["X-Request-ID"] == "abc-123"
    made = client.get("/api/auth/user", HTTP_X_REQUEST_ID='no spaces; or quotes"')
    assert len(made["X-Request-ID"]) == 32 and made["X-Request-ID"] != "abc-123"
    lines = access_lines()
    assert [(x["request_id"], x["route"], x["status"]) for x in lines] == [
        ("abc-123", "/api/auth/user", 401),
        (made["X-Request-ID"], "/api/auth/user", 401),
    ]


def test_one_json_line_per_request_with_organization_user_route_status_and_duration(api, org, admin_user, access_lines):
    course = f.make_course(org, code="LOG1")
    r = api.get(f"/api/courses/{course.pk}")
    assert r.status_code == 200
    (line,) = access_lines()
    assert line["event"] == "request" and line["logger"] == "blockplan.access" and line["level"] == "info"
    assert line["route"] == "/api/courses/<uuidstr:course_id>" and line["method"] == "GET" and line["status"] == 200
    assert line["org_id"] == str(org.pk) and line["user_id"] == str(admin_user.pk)
    assert isinstance(line["duration_ms"], float) and line["timestamp"].endswith("Z")
    assert str(course.pk) not in access_lines.raw.getvalue()  # the pattern, never the path


@override_settings(TRUSTED_PROXIES=["127.0.0.1", "10.0.0.0/8"])
def test_forwarded_for_is_believed_only_from_a_trusted_proxy(client, access_lines, settings):
    # nginx appended the real client on the right; whatever the client put on the left is ignored.
    client.get("/api/auth/user", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9", REMOTE_ADDR="127.0.0.1")
    client.get("/api/auth/user", HTTP_X_FORWARDED_FOR="203.0.113.9", REMOTE_ADDR="198.51.100.7")  # not a proxy
    client.get("/api/auth/user", HTTP_X_FORWARDED_FOR="garbage", REMOTE_ADDR="127.0.0.1")
    settings.PROXY_HOPS = 2  # a load balancer in front of nginx appended too
    client.get("/api/auth/user", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9, 10.1.2.3", REMOTE_ADDR="10.0.0.5")
    client.get("/api/auth/user", HTTP_X_FORWARDED_FOR="10.1.2.3", REMOTE_ADDR="10.0.0.5")  # too short: the peer
    assert [x["client"] for x in access_lines()] == ["203.0.113.9", "198.51.100.7", "127.0.0.1", "203.0.113.9", "10.0.0.5"]


@override_settings(TRUSTED_PROXIES=["127.0.0.1"], AXES_FAILURE_LIMIT=3)
def test_lockout_counts_the_client_behind_the_proxy_not_the_proxy(client, org, admin_user):
    """Three wrong passwords from one client behind nginx lock that client out of the account; another
    client behind the same nginx still signs in."""
    from axes.handlers.proxy import AxesProxyHandler

    AxesProxyHandler.implementation = None  # pick up AXES_FAILURE_LIMIT
    body = {"email": admin_user.email, "password": "wrong-password"}
    for _ in range(3):
        r = client.post("/api/auth/login", body, content_type="application/json", HTTP_X_FORWARDED_FOR="203.0.113.9")
        assert r.status_code in (401, 429)
    locked = client.post(
        "/api/auth/login", {**body, "password": f.PASSWORD}, content_type="application/json", HTTP_X_FORWARDED_FOR="203.0.113.9"
    )
    assert locked.status_code == 429
    other = client.post(
        "/api/auth/login", {**body, "password": f.PASSWORD}, content_type="application/json", HTTP_X_FORWARDED_FOR="203.0.113.10"
    )
    assert other.status_code == 200, other.content
    AxesProxyHandler.implementation = None


def test_metrics_are_not_public(client, settings):
    client.get("/api/auth/user")
    local = client.get("/metrics")  # the test client's address is 127.0.0.1: allowed by default
    assert local.status_code == 200
    body = local.content.decode()
    assert 'blockplan_http_request_duration_seconds_count{method="GET",route="/api/auth/user",status="401"}' in body
    for name in ("blockplan_sockets_open", "blockplan_socket_events_sent_total", "blockplan_channel_layer_errors_total"):
        assert f"# TYPE {name}" in body
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 404
    settings.METRICS_TOKEN = "s3cret-metrics-token"
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer s3cret-metrics-token").status_code == 200


def test_no_password_token_or_secret_reaches_the_logs(client, api, org, admin_user, access_lines):
    """Sign in with a password, use a calendar feed's secret URL, a display link's token and the session
    and CSRF cookies: none of them appears in any log line."""
    password = f.PASSWORD
    r = client.post("/api/auth/login", {"email": admin_user.email, "password": password}, content_type="application/json")
    assert r.status_code == 200, r.content
    session_cookie = client.cookies["sessionid"].value
    teacher = f.make_teacher(org)
    feed = api.post("/api/calendar-feeds", {"teacherId": str(teacher.pk)}).json()
    assert client.get(f"/api/calendar-feeds/{feed['token']}.ics").status_code == 200
    link = api.post("/api/display-links", {"name": "Foyer"}).json()
    assert link.get("token"), link
    assert client.get(f"/api/display/{link['token']}").status_code == 200
    secrets = [password, feed["token"], session_cookie, link["token"], api.csrf, api.client.cookies["sessionid"].value]
    text = access_lines.raw.getvalue()
    assert len(access_lines()) >= 4
    assert all(secrets)
    for secret in secrets:
        assert secret not in text
