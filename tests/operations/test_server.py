"""What daphne does before Django sees a request (docs/adr/0020, ``project.operations.server``)."""

from __future__ import annotations

import http.client
import json

from tests.operations.conftest import Browser
from tests.realtime.conftest import hook_sync

BAD_MULTIPART = {
    "message": "Validation failed",
    "type": "validation_error",
    "errors": [{"path": [], "message": "The request body is not valid multipart form data"}],
}


def _post_raw(server, path: str, content_type: str, browser: Browser) -> tuple[int, str, bytes]:
    cookies = "; ".join(f"{c.name}={c.value}" for c in browser.jar)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request(
        "POST",
        path,
        body=b"--x\r\nContent-Disposition: form-data; name=file\r\n\r\nabc\r\n",
        headers={"Content-Type": content_type, "X-CSRFToken": browser.cookie("csrftoken"), "Cookie": cookies},
    )
    response = conn.getresponse()
    return response.status, response.getheader("Content-Type") or "", response.read()


def test_a_multipart_body_without_a_boundary_answers_the_json_400(project_server):
    """Twisted answered an empty text 400 and closed the connection before Django saw the request."""
    server = project_server
    visitor = Browser(server.http)
    visitor.call("GET", "/api/auth/user")
    for content_type in ("multipart/form-data", "multipart/form-data; boundary="):
        status, kind, body = _post_raw(server, "/api/auth/login", content_type, visitor)
        assert (status, kind) == (400, "application/json; charset=utf-8")
        assert json.loads(body) == BAD_MULTIPART
    # The same for an upload endpoint, signed in as an admin.
    ada = hook_sync(server, "seed", {})["a"]["users"]["ada"]
    admin = Browser(server.http).with_session(ada["session"])
    admin.call("GET", "/api/auth/user")
    status, kind, body = _post_raw(server, "/api/timetables/import", "multipart/form-data", admin)
    assert (status, kind) == (400, "application/json; charset=utf-8")
    assert json.loads(body) == BAD_MULTIPART
