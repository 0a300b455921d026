"""schemathesis over the OpenAPI schema (ADR 0004): generated requests to every operation, signed in as an
organization admin with a valid CSRF token, never answer a 5xx, and every error answer is JSON.

The schema is ``spa/openapi.json`` (the drift test keeps it equal to the live ``/api/openapi.json``).
Each generated case is prepared with ``requests`` (so bodies, multipart and query strings are exactly what
schemathesis generated) and sent through Django's test client into the app, inside the test's
transaction. A bounded, derandomized run (a few cases per operation, the same every time) keeps the
suite fast and deterministic; the long run against a live server is a documented command
(bench/README.md).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import pytest
import requests
import schemathesis
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import HealthCheck, settings

from tests import factories as f

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "4"))  # per operation; raise it for a long run
STATUSES: list[int] = []
schema = schemathesis.openapi.from_path(str(django_settings.BASE_DIR / "spa" / "openapi.json"))


@pytest.fixture
def signed_in(org, admin_user):
    """A signed-in admin's client and CSRF token, with a little of everything for ids to resolve against."""
    f.make_session(org, block_group=f.make_block_group(org), unit=f.make_unit(org), week_number=3)
    f.make_teacher(org)
    client = Client(HTTP_HOST="localhost")
    client.force_login(admin_user)
    client.get("/api/auth/user")
    return client, client.cookies["csrftoken"].value


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
def test_no_generated_request_gets_a_server_error(case, signed_in):
    client, csrf = signed_in
    kwargs = case.as_transport_kwargs(base_url="http://localhost")
    kwargs.pop("cookies", None)
    prepared = requests.Request(**kwargs).prepare()
    url = urlsplit(prepared.url)
    path = url.path + (f"?{url.query}" if url.query else "")
    headers = {k: v for k, v in prepared.headers.items() if k.lower() not in ("content-type", "content-length", "cookie")}
    headers.update({"X-CSRFToken": csrf, "X-Client-Id": "schemathesis"})
    body = prepared.body or b""
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    response = client.generic(
        case.method,
        path,
        body,
        content_type=prepared.headers.get("Content-Type", "application/octet-stream"),
        headers=headers,
    )
    where = f"{case.method} {path}"
    STATUSES.append(response.status_code)
    assert response.status_code < 500, f"{where}: {response.status_code} {response.content[:300]!r}"
    if response.status_code >= 400:
        assert response["Content-Type"].startswith("application/json"), f"{where}: {response['Content-Type']}"


def test_the_run_was_signed_in_and_reached_the_endpoints():
    """Runs after the generated cases (same module, defined last): most answers were not refusals of the
    session or CSRF, so the run exercised the endpoints' own validation and domain rules."""
    if not STATUSES:
        pytest.skip("run with the generated cases")
    refused = sum(1 for s in STATUSES if s in (401, 403))
    assert refused < len(STATUSES) / 4, f"{refused} of {len(STATUSES)} answers were 401/403"
    assert any(200 <= s < 300 for s in STATUSES)
