"""Helpers shared by the account writes: password rules, the locked user row, TOTP codes, ending sessions, signing in."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from uuid import UUID

from django.conf import settings as django_settings
from django.contrib.auth import (
    SESSION_KEY,
    login,
)
from django.contrib.auth.password_validation import validate_password
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest
from django.utils import timezone

# Moved below the services (docs/engineering.md, "Boundaries"); the modules of this package import them from here.
from project.accounts.credentials import MODEL_BACKEND as MODEL_BACKEND
from project.accounts.credentials import PENDING_SETUP as PENDING_SETUP
from project.accounts.credentials import _locked_user as _locked_user
from project.accounts.credentials import totp_consume as totp_consume
from project.accounts.models import User
from project.core.sockets import close_session_sockets

log = logging.getLogger(__name__)

INVALID_CREDENTIALS = "Invalid email or password"
INVALID_CODE = "Invalid authenticator code"
USER_NOT_FOUND = "User not found. Please contact your administrator."
PASSKEY_AUTH_FAILED = "Passkey authentication failed"
PASSKEY_REGISTRATION_FAILED = "Passkey registration failed"


@dataclass
class LoginResult:
    user: User | None = None
    requires_totp: bool = False
    requires_setup: bool = False
    user_id: str | None = None


# ------------------------------------------------------------------------------------------- helpers


def password_check(password: str, *, path: str, user: User | None = None) -> list[dict]:
    """The password rules (docs/behaviour/accounts.md §5) through Django's validators: one ``{path, message}`` per broken rule."""
    try:
        validate_password(password or "", user=user)
    except DjangoValidationError as err:
        return [{"path": [path], "message": message} for message in err.messages]
    return []


def _org_is_usable(user: User) -> bool:
    org = user.organization  # None without a query when there is no organization
    return org is not None and org.is_active


def _setup_eligible(user: User) -> bool:
    """Active, in an active organization, and either never given a password (added by an admin) or
    flagged ``must_change_password``."""
    if not user.is_active or not _org_is_usable(user):
        return False
    return not user.has_usable_password() or user.must_change_password


def _in_setup_state(request: HttpRequest, user: User) -> bool:
    """A user who may set a password *from this browser session*: eligible, and handed out to this
    session by first-time login or by login (``requiresSetup``). A ``userId`` alone, seen elsewhere,
    opens nothing: the setup calls only work in the browser that started the setup."""
    return _setup_eligible(user) and str(user.pk) in request.session.get(PENDING_SETUP, [])


def _mark_pending_setup(request: HttpRequest, user: User) -> None:
    pending = [uid for uid in request.session.get(PENDING_SETUP, []) if uid != str(user.pk)]
    request.session[PENDING_SETUP] = (pending + [str(user.pk)])[-5:]


def _sign_in(request: HttpRequest, user: User, *, remember_me: bool = False) -> None:
    """Django's login (new session key, last_login, axes' reset) and the cookie lifetime:
    rememberMe false ends the session with the browser, true keeps it for 30 days."""
    login(request, user, backend=MODEL_BACKEND)
    request.session.pop(PENDING_SETUP, None)
    request.session.set_expiry(django_settings.SESSION_COOKIE_AGE if remember_me else 0)


def user_sessions_end(user: User, *, keep_session_key: str | None = None, reason: str = "expired") -> int:
    """Delete every stored session of ``user`` except ``keep_session_key``, and close those sessions'
    sockets after commit (``session_ended`` ``{reason}``). Returns how many ended."""
    return user_sessions_end_many({user.pk}, keep_session_key=keep_session_key, reason=reason)


def user_sessions_end_many(
    user_ids: set[UUID] | set[str], *, keep_session_key: str | None = None, reason: str = "expired"
) -> int:
    """Delete every stored session of the users ``user_ids`` (one pass over the unexpired sessions; an
    organization's deactivation ends all its users' at once) except ``keep_session_key``, and close those
    sessions' sockets after commit (``session_ended`` ``{reason}``). Returns how many ended."""
    wanted = {str(pk) for pk in user_ids}
    if not wanted:
        return 0
    keys = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator(chunk_size=500):
        try:
            data = session.get_decoded()
        except Exception:  # noqa: S112 — a corrupt row is not ours to judge
            continue
        if str(data.get(SESSION_KEY)) in wanted and session.session_key != keep_session_key:
            keys.append(session.session_key)
    if keys:
        Session.objects.filter(session_key__in=keys).delete()
        for key in keys:
            close_session_sockets(key, reason)
    return len(keys)
