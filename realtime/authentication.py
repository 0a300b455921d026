"""Who is on the other end of a socket (docs/behaviour/live-events.md §2): the Origin check, and the authenticators that
turn a namespace connect into a :class:`Principal` — a display token (wall displays, through the hook
``REALTIME_DISPLAY_TOKEN_HOOK`` registers) or the session cookie. Used by :mod:`realtime.consumers`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlparse

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils.module_loading import import_string

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Principal:
    """Who is on the other end of a socket.

    org_id: the organization whose events it receives. user_id: the signed-in user (None for a display).
    kind: ``"session"`` or ``"display"``. scope: what an alternative authenticator grants (e.g. a display's
    timetable), opaque here.
    """

    org_id: str
    user_id: str | None = None
    name: str = ""
    initials: str = ""
    kind: str = "session"
    scope: Any = field(default=None, compare=False)
    role: str = ""  # the user's role ("admin" or "user"); "" for a display
    session_key: str | None = field(default=None, compare=False, repr=False)


Authenticator = Callable[[dict, Any], Awaitable["Principal | None"]]
"""``async (asgi_scope, connect_payload) -> Principal | None``; raise :class:`Refused` to refuse outright."""


class Refused(Exception):
    """An authenticator claims the socket and refuses it (no later authenticator is tried)."""


# --- Origin ------------------------------------------------------------------------------------------------


def _header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            try:
                return value.decode("latin1")
            except UnicodeDecodeError:
                return None
    return None


def _default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


def _served_origin(scope: dict) -> tuple[str, int] | None:
    """The scheme and port this socket was reached at, as the browser sees them: ``https`` behind a
    proxy that says so (``SECURE_PROXY_SSL_HEADER``) or on ``wss``, and the port of the Host header."""
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        header_name = proxy[0].removeprefix("HTTP_").lower().replace("_", "-").encode("latin1")
        if (_header(scope, header_name) or "").split(",")[0].strip() == proxy[1]:
            scheme = "https"
    host = _header(scope, b"host")
    if not host:
        return None
    try:
        port = urlparse(f"//{host}").port
    except ValueError:
        return None
    return scheme, port or _default_port(scheme)


def origin_allowed(scope: dict) -> bool:
    """The Origin header names this server: its scheme, a host of ``ALLOWED_HOSTS`` and the port the socket
    was reached at (the host alone let ``http://localhost:9999`` through), or exactly one of
    ``CSRF_TRUSTED_ORIGINS`` / ``WEBAUTHN_ORIGIN``. No Origin header is refused too (Node clients must
    send one: trap 5 of docs/realtime.md, Traps handled)."""
    from django.http.request import validate_host

    raw = _header(scope, b"origin")
    if not raw:
        return False
    trusted = {o.rstrip("/") for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    webauthn = getattr(settings, "WEBAUTHN_ORIGIN", None) or []
    for value in [webauthn] if isinstance(webauthn, str) else webauthn:
        trusted.add(str(value).rstrip("/"))
    if raw.rstrip("/") in trusted:
        return True
    try:
        origin = urlparse(raw)
        origin_port = origin.port or _default_port(origin.scheme)
    except ValueError:
        return False
    if origin.scheme not in ("http", "https") or not origin.hostname:
        return False
    served = _served_origin(scope)
    if served is None:
        return False
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = ["localhost", "127.0.0.1", "[::1]"]
    host = origin.hostname if ":" not in origin.hostname else f"[{origin.hostname}]"
    return validate_host(host, allowed) and (origin.scheme, origin_port) == served


# --- Authenticators --------------------------------------------------------------------------------------


def initials_of(first: str, last: str, fallback: str) -> str:
    letters = "".join(part[:1] for part in (first.strip(), last.strip()) if part)
    return (letters or fallback[:1] or "?").upper()


@database_sync_to_async
def _session_principal(scope: dict) -> Principal | None:
    """One trip to the database thread: the session, its user (Django's ``get_user``: backend and session
    hash checked, so a password change ends the session) and the user's organization."""
    from types import SimpleNamespace

    from django.contrib.auth import get_user

    user = scope.get("user")
    if user is None and "session" in scope:
        user = get_user(SimpleNamespace(session=scope["session"]))
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    org = user.organization
    if org is None or not org.is_active:
        return None
    session = scope.get("session")
    return Principal(
        org_id=str(org.pk),
        user_id=str(user.pk),
        name=user.full_name or user.email,
        initials=initials_of(user.first_name, user.last_name, user.email),
        role=user.role,
        session_key=getattr(session, "session_key", None),
    )


@database_sync_to_async
def _session_still_valid(scope: dict, session_key: str | None, user_id: str, role: str = "") -> str:
    """What the heartbeat learns of a socket's session, in at most two queries: ``"ended"`` when the session
    row is gone, expired or of another user (logout, a password change elsewhere and deactivation delete
    it: ``user_sessions_end``), or the user or their organization is no longer active; ``"role"`` when the
    user's role is no longer ``role`` (the socket closes and the client reconnects with the new one);
    else ``"ok"``. The user's row is read too, so a change the save hooks never saw (``QuerySet.update()``
    from a shell, SQL) still ends or re-scopes the socket within one ``session_recheck`` (ADR 0023)."""
    from django.contrib.auth import SESSION_KEY

    from project.accounts.models import User

    session = scope.get("session")
    if session is None or not session_key:
        return "ok"  # an outer AuthMiddleware's user: nothing to re-check here
    fresh = session.__class__(session_key=session_key)
    data = fresh.load()  # {} when missing or expired (one query on the database backends)
    if str(data.get(SESSION_KEY)) != str(user_id):
        return "ended"
    row = User.objects.filter(pk=user_id, is_active=True, organization__is_active=True).values("role").first()
    if row is None:
        return "ended"
    if role and row["role"] != role:
        return "role"
    return "ok"


async def session_authenticator(scope: dict, payload: Any) -> Principal | None:
    """The session cookie's user: active, of an active organization.

    The session comes from Channels' ``CookieMiddleware`` + ``SessionMiddleware`` (lazy: no database work
    before the handshake is accepted). The user is resolved here, at the namespace connect, rather than by
    Channels' ``AuthMiddleware``, which loads it before the consumer runs: under load that delayed the
    handshake past daphne's 5 s ``websocket_connect_timeout`` and cost a second thread hop for the
    organization. A ``scope["user"]`` set by an outer ``AuthMiddleware`` is still honoured.
    """
    return await _session_principal(scope)


def display_token(scope: dict, payload: Any) -> str | None:
    """A ``displayToken`` from the connect payload (``auth`` option) or the query string."""
    if isinstance(payload, dict) and isinstance(payload.get("displayToken"), str):
        return payload["displayToken"]
    values = parse_qs(scope.get("query_string", b"").decode("latin1")).get("displayToken")
    return values[0] if values else None


DisplayTokenHook = Callable[[str], Awaitable["tuple[str, Any] | None"]]
_display_hook: DisplayTokenHook | None = None


def register_display_token_hook(hook: DisplayTokenHook | None) -> None:
    """Plug in wall displays: ``async hook(token) -> (org_id, scope) | None``.

    Also configurable as ``settings.REALTIME_DISPLAY_TOKEN_HOOK = "dotted.path"``. Until one is registered a
    socket presenting a display token is refused.
    """
    global _display_hook
    _display_hook = hook


def _current_display_hook() -> DisplayTokenHook | None:
    if _display_hook is not None:
        return _display_hook
    path = getattr(settings, "REALTIME_DISPLAY_TOKEN_HOOK", None)
    return import_string(path) if path else None


async def display_token_authenticator(scope: dict, payload: Any) -> Principal | None:
    """Claims a socket that presents a display token; a bad token (or no hook yet) is refused."""
    token = display_token(scope, payload)
    if token is None:
        return None
    hook = _current_display_hook()
    granted = await hook(token) if hook is not None else None
    if not granted:
        raise Refused()
    org_id, grant = granted
    return Principal(org_id=str(org_id), kind="display", name="Display", initials="D", scope=grant)


AUTHENTICATORS: list[Authenticator] = [display_token_authenticator, session_authenticator]


async def authenticate(scope: dict, payload: Any) -> Principal | None:
    """The first authenticator's principal, or None (refused)."""
    for authenticator in AUTHENTICATORS:
        try:
            principal = await authenticator(scope, payload)
        except Refused:
            return None
        if principal is not None:
            return principal
    return None


# --- The consumer ----------------------------------------------------------------------------------------
