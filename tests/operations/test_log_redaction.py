"""No secrets in logs (docs/adr/0020): a real daphne server with the project's logging, a
realistic run (sign-in, an invitation emailed by the console backend, a display link, a calendar feed,
refused methods and unknown tokens in paths), and every line of its output searched for
each secret the run handled. Each kind of line is also shown to be there, redacted, so the test fails
if the lines simply stopped being written."""

from __future__ import annotations

import secrets

import pytest

from tests import factories as f
from tests.operations.conftest import Browser
from tests.realtime.conftest import Server, hook_sync


def _email_of(server: Server, session: str) -> str:
    return Browser(server.http).with_session(session).json("GET", "/api/auth/user")["user"]["email"]


def test_a_full_run_writes_no_secret_to_the_log(project_server):
    server = project_server
    ada = hook_sync(server, "seed", {})["a"]["users"]["ada"]
    email = _email_of(server, ada["session"])
    hook_sync(server, "password", {"user": ada["id"], "password": f.PASSWORD})
    admin = Browser(server.http)
    admin.call("GET", "/api/auth/user")  # the CSRF cookie
    admin.json("POST", "/api/auth/login", {"email": email, "password": f.PASSWORD})
    assert admin.cookie("sessionid") and admin.cookie("blockplan_device")

    # An invitation: answered to the admin, emailed through the console backend into the same output.
    invited = admin.json(
        "POST",
        "/api/admin/users",
        {"firstName": "Ivy", "lastName": "Invited", "email": "ivy@example.edu.au", "role": "user"},
        201,
    )
    invitation_token = invited["invitationLink"].split("token=", 1)[1]
    visitor = Browser(server.http)
    visitor.call("GET", "/api/auth/user")
    visitor.call("GET", f"/auth/setup?token={invitation_token}")  # the SPA route (503 when the SPA is not built)
    visitor.json("POST", "/api/auth/first-time-login", {"token": invitation_token})
    assert visitor.call("POST", "/api/auth/first-time-login", {"token": invitation_token + "x"})[0] == 404

    # A display link and a calendar feed, used, called with refused methods and mistyped.
    display = admin.json("POST", "/api/display-links", {"name": "Foyer"}, 201)["token"]
    teacher = admin.json(
        "POST",
        "/api/teachers",
        {"employeeId": "T900", "firstName": "Tess", "lastName": "Teacher", "email": "tess@example.edu.au"},
        201,
    )
    feed = admin.json("POST", "/api/calendar-feeds", {"teacherId": teacher["id"]}, 201)["token"]
    screen = Browser(server.http)
    assert screen.call("GET", f"/api/display/{display}")[0] == 200
    screen.call("GET", f"/display/{display}")  # the SPA's board page
    assert screen.call("GET", f"/api/calendar-feeds/{feed}.ics")[0] == 200
    refused = [
        screen.call("POST", f"/api/display/{display}", {})[0],
        screen.call("DELETE", f"/api/calendar-feeds/{feed}.ics")[0],
        screen.call("GET", f"/api/display/{display[:-1]}")[0],
        screen.call("GET", f"/api/calendar-feeds/{feed[:-1]}.ics")[0],
        screen.call("POST", f"/api/calendar-feeds/{feed}.ics", raw=b"{not json")[0],
    ]
    assert refused == [405, 405, 404, 404, 405]
    assert screen.call("GET", f"/api/display/{display}", headers={"Host": "evil.example"})[0] == 400  # DisallowedHost
    log = server.logs()
    handled = {
        "password": f.PASSWORD,
        "invitation token": invitation_token,
        "display token": display,
        "display token prefix": display[:-1],
        "feed token": feed,
        "feed token prefix": feed[:-1],
        "admin session": admin.cookie("sessionid"),
        "visitor session": visitor.cookie("sessionid"),
        "csrf token": admin.cookie("csrftoken"),
        "device cookie": admin.cookie("blockplan_device"),
        "seeded session": ada["session"],
    }
    leaked = [name for name, value in handled.items() if value and value in log]
    assert leaked == [], log[-4000:]
    # The lines are there, redacted: the invitation email, Django's request lines, the access log.
    assert "Subject: Your Blockplan account at" in log  # the console backend printed the invitation
    assert f"{server.http}/auth/setup?token=[redacted]" in log
    assert '"GET /auth/setup?token=[redacted]"' in log  # daphne's own access line
    assert "Method Not Allowed: /api/display/[redacted]" in log
    assert "Method Not Allowed: /api/calendar-feeds/[redacted].ics" in log
    assert "Not Found: /api/display/[redacted]" in log
    assert "Bad Request: /api/display/[redacted]" in log
    assert '"logger": "blockplan.access"' in log and '"route": "/api/display/<slug:token>"' in log


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("Bad Request: /api/display/{t}", "Bad Request: /api/display/[redacted]"),
        ("GET /socket.io/?EIO=4&transport=polling&sid=Ab3dE", "GET /socket.io/?EIO=4&transport=polling&sid=[redacted]"),
        ("Cookie: sessionid=abc; csrftoken=def", "Cookie: sessionid=[redacted]; csrftoken=[redacted]"),
        ("could not email {t} to ivy", "could not email [redacted] to ivy"),
        # ids, request ids and long names in tracebacks stay readable
        ("user 0b6a43b2-45c4-4ed4-a1a5-0f0f0c0b8f11 req 8065a19a2c6b450eab7101d7fc16604f", None),
        ('File "tests/accounts/test_a_device_cookie_is_bound_to_its_account.py", line 3', None),
    ],
)
def test_redact_text(line, kept):
    from project.operations.log_format import redact_text

    token = secrets.token_urlsafe(32)
    line = line.replace("{t}", token)
    assert redact_text(line) == (kept if kept is not None else line)
    assert token not in redact_text(line)
