"""Re-authentication for sensitive changes (docs/adr/0006).

Registering a passkey and resetting or (re-)enabling TOTP add or replace a lasting credential, so a
copied session cookie alone must not be able to do them. They need a confirmation of their own: the
current password or an authenticator code entered for it (``POST /api/auth/reauthenticate``), valid for
this session for :data:`REAUTH_SECONDS` (5 minutes). Signing in does not count: the sign-in is what a
copied cookie carries. The confirmation is stored in the session as a UTC timestamp.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from django.contrib.auth import authenticate
from django.http import HttpRequest

from project.accounts.credentials import totp_consume
from project.accounts.lockout import ensure_allowed, raise_if_locked_out, record_failure
from project.core.errors import DomainError, ValidationFailed
from project.core.tenancy import Ctx

REAUTH_AT = "reauthenticated_at"
REAUTH_SECONDS = 5 * 60
REAUTH_MESSAGE = "Please confirm it's you: enter your password or an authenticator code."


class ReauthRequired(DomainError):
    """403 ``reauth_required``: the change needs a recent confirmation (password or code)."""

    status = 403
    type = "reauth_required"

    def __init__(self) -> None:
        super().__init__(REAUTH_MESSAGE)


def reauthenticate(*, request: HttpRequest, ctx: Ctx, password: str, totp_code: str) -> datetime:
    """POST /api/auth/reauthenticate ``{password}`` or ``{totpCode}``: mark this session confirmed for 5
    minutes; answers when the confirmation ends (UTC).

    400 at ``password`` 'Password is incorrect' or at ``totpCode`` 'Invalid authenticator code' (both
    recorded by the lockout; 429 when locked); 400 at ``password`` 'Enter your password or an
    authenticator code' when neither is given.
    """
    user = ctx.member
    if not password and not totp_code:
        raise ValidationFailed.field("password", "Enter your password or an authenticator code")
    ensure_allowed(request, user.email)
    if password:
        if authenticate(request=request, email=user.email, password=password) is None:
            raise_if_locked_out(request)
            raise ValidationFailed.field("password", "Password is incorrect")
    else:
        if not user.is_totp_enabled or not totp_consume(user, totp_code):
            record_failure(request, user.email)
            raise ValidationFailed.field("totpCode", "Invalid authenticator code")
    now = time.time()
    request.session[REAUTH_AT] = now
    return datetime.fromtimestamp(now + REAUTH_SECONDS, tz=UTC)


def require_recent(request: HttpRequest) -> None:
    """Raise :class:`ReauthRequired` unless this session confirmed the user within 5 minutes."""
    at = request.session.get(REAUTH_AT)
    if not isinstance(at, (int, float)) or not (0 <= time.time() - at <= REAUTH_SECONDS):
        raise ReauthRequired()
