"""The project's ASGI application plus a few test-only HTTP hooks under ``/__rt__/``, served by a real
daphne process in the realtime tests (never mounted in the product).

The hooks make writes happen *inside the server process*, which is what the in-memory channel layer of the
single-process default needs (a write from another process could not reach its sockets). Each runs the
foundation's own helpers (``emit_change``, ``close_user_sockets``) exactly as a write service does:

- ``POST /__rt__/seed``: two organizations with users and signed-in sessions (Django's SessionStore);
- ``POST /__rt__/session`` ``{"user"}``: a new session for a user;
- ``POST /__rt__/emit`` ``{"org", "entity", "action", "ids", "actor"?, "origin"?, "rollback"?}``: one
  transaction calling ``emit_change`` (rolled back when asked);
- ``POST /__rt__/revoke`` ``{"user", "deactivate"?}``: ``close_user_sockets`` (and ``is_active=False``);
- ``POST /__rt__/password`` ``{"user", "password"}``; ``POST /__rt__/end_session`` ``{"session"}``.

It also plugs a stand-in display-token hook into the consumer (``rt-display:<org id>``), to show the
authenticator hook point that wall displays will use.
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

from asgiref.sync import sync_to_async  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from project.asgi import application as project_application  # noqa: E402

# Load the URLconf (the whole API, ortools and pandas included: seconds of imports) before serving. Done
# lazily by the first HTTP request it stalls the event loop long enough to drop sockets on the tests'
# one-second pings.
get_resolver().url_patterns  # noqa: B018 — the property loads the URLconf now, not at the first request


class _Rollback(Exception):
    pass


def _session_for(user) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def seed(body):
    import uuid

    from project.accounts.models import Organization, User

    tag = uuid.uuid4().hex[:8]
    out = {}
    for key, name, users in (
        (
            "a",
            "Realtime Org A",
            [
                ("ada", "Ada", "Admin", "admin", True),
                ("mel", "Mel", "Member", "user", True),
                ("ina", "Ina", "Inactive", "user", False),
                ("sam", "Sam", "Staff", "admin", True),
            ],
        ),
        ("b", "Realtime Org B", [("bob", "Bob", "Other", "admin", True)]),
    ):
        org = Organization.objects.create(name=name, domain=f"{key}-{tag}.example.edu.au")
        out[key] = {"id": str(org.pk), "domain": org.domain, "users": {}}
        for ukey, first, last, role, active in users:
            user = User.objects.create_user(
                email=f"{ukey}-{tag}@example.edu.au",
                password=None,
                first_name=first,
                last_name=last,
                organization=org,
                role=role,
                must_change_password=False,
                # sam is support staff: the Django admin is a write path that emits change events
                is_staff=ukey == "sam",
                is_superuser=ukey == "sam",
            )
            session = _session_for(user)  # made while active: the session itself is valid
            if not active:
                User.objects.filter(pk=user.pk).update(is_active=False)
            out[key]["users"][ukey] = {"id": str(user.pk), "session": session, "name": f"{first} {last}"}
    return out


def session(body):
    from project.accounts.models import User

    return {"session": _session_for(User.objects.get(pk=body["user"]))}


def emit(body):
    from django.db import transaction

    from project.accounts.models import Organization, User
    from project.core.tenancy import Ctx
    from realtime.events import emit_change

    org = Organization.objects.get(pk=body["org"])
    actor = User.objects.get(pk=body["actor"]) if body.get("actor") else None
    ctx = Ctx(org=org, user=actor, origin=body.get("origin"))
    try:
        with transaction.atomic():
            event = emit_change(ctx, entity=body["entity"], action=body["action"], ids=body.get("ids", []))
            if body.get("rollback"):
                raise _Rollback()
    except _Rollback:
        return {"rolledBack": True}
    return {"event": event}


def bump_seq(body):
    """``{"org"}``: raise the organization's seq without sending the event (an event lost on the way)."""
    from django.db.models import F

    from project.accounts.models import Organization

    Organization.objects.filter(pk=body["org"]).update(event_seq=F("event_seq") + 1)
    return {"seq": Organization.objects.values_list("event_seq", flat=True).get(pk=body["org"])}


def password(body):
    """``{"user", "password"}``: set the user's password (sessions made afterwards carry its hash)."""
    from project.accounts.models import User

    user = User.objects.get(pk=body["user"])
    user.set_password(body["password"])
    user.save(update_fields=["password"])
    return {"ok": True}


def end_session(body):
    """``{"session"}``: delete the session row behind the socket's back (no revoke message is sent)."""
    from django.contrib.sessions.models import Session

    Session.objects.filter(session_key=body["session"]).delete()
    return {"ok": True}


def bulk_update_user(body):
    """``{"user", "fields"}``: ``QuerySet.update()`` of the user, as a shell or a script would make it: no
    ``save()``, so no save hook runs and no message is sent to the user's sockets."""
    from project.accounts.models import User

    User.objects.filter(pk=body["user"]).update(**body["fields"])
    return {"ok": True}


def scope_fixture(body):
    """``{"org"}``: two campuses with a block group, a session and a display link each, plus a link for the
    whole organization."""
    from project.accounts.models import Organization
    from project.displays.models import DisplayLink
    from tests.factories import make_block_group, make_campus, make_session, make_unit

    org = Organization.objects.get(pk=body["org"])
    unit = make_unit(org)
    out = {"campuses": {}, "links": {}}
    for key in ("north", "south"):
        campus = make_campus(org)
        group = make_block_group(org, campus=campus)
        session = make_session(org, block_group=group, unit=unit)
        link = DisplayLink.objects.create(organization=org, name=f"Board {key}", campus=campus)
        out["campuses"][key] = {"id": str(campus.pk), "blockGroup": str(group.pk), "session": str(session.pk)}
        out["links"][key] = {"id": str(link.pk), "token": link.token}
    link = DisplayLink.objects.create(organization=org, name="Board all")
    out["links"]["all"] = {"id": str(link.pk), "token": link.token}
    return out


def revoke(body):
    from django.db import transaction

    from project.accounts.models import User
    from realtime.events import close_user_sockets

    with transaction.atomic():
        if body.get("deactivate"):
            User.objects.filter(pk=body["user"]).update(is_active=False)
        close_user_sockets(body["user"])
    return {"ok": True}


async def display_token_hook(token: str):
    """``rt-display:<org id>`` is a valid token of that organization (the hook-point test); any other token
    goes to the product's real hook (display links, ``project.displays.realtime``)."""
    prefix = "rt-display:"
    if token.startswith(prefix):
        return token[len(prefix) :], {"timetable": None}
    from project.displays.realtime import display_token_hook as real_hook

    return await real_hook(token)


from realtime.authentication import register_display_token_hook  # noqa: E402

register_display_token_hook(display_token_hook)

HOOKS = {
    "/__rt__/bump_seq": bump_seq,
    "/__rt__/seed": seed,
    "/__rt__/session": session,
    "/__rt__/emit": emit,
    "/__rt__/revoke": revoke,
    "/__rt__/password": password,
    "/__rt__/end_session": end_session,
    "/__rt__/bulk_update_user": bulk_update_user,
    "/__rt__/scope_fixture": scope_fixture,
}


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["path"] in HOOKS:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        try:
            result, status = await sync_to_async(HOOKS[scope["path"]])(json.loads(body or b"{}")), 200
        except Exception as exc:  # report to the test rather than hang it
            result, status = {"error": repr(exc)}, 500
        payload = json.dumps(result).encode()
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": payload})
        return
    await project_application(scope, receive, send)
