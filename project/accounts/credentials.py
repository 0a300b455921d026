"""What signing in, re-authentication and single sign-on share below their services: the session's
authentication backend, the session key of users who must still set a password, the locked user row and
the one-time check of an authenticator code.

Here rather than in ``project.accounts.services`` so that ``reauth`` and ``sso`` need not import the
services package, which imports them (no import cycle between the packages of an app;
docs/engineering.md, "Boundaries"). ``project.accounts.services`` re-exports these names.
"""

from __future__ import annotations

from uuid import UUID

from django.db import transaction

from project.accounts import totp
from project.accounts.models import User

__all__ = ["MODEL_BACKEND", "PENDING_SETUP", "_locked_user", "totp_consume"]

MODEL_BACKEND = "project.core.auth.SessionUserBackend"  # user + organization in one query per request
# Users who proved their password but must still set a new one (login answered requiresSetup).
PENDING_SETUP = "pending_setup_user_ids"


def _locked_user(user_id: UUID | str) -> User:
    """The user row locked for update (``SELECT ... FOR UPDATE``), with its organization."""
    return User.objects.select_for_update(of=("self",)).select_related("organization").get(pk=user_id)


def totp_consume(user: User, code: str | None) -> bool:
    """Accept ``code`` for ``user`` once: it must match a step within one of now and be later than the
    last accepted step (no replay). Stores the step on success. Runs on the locked user row."""
    if not user.totp_secret or code is None or not totp.is_code_format(code):
        return False
    with transaction.atomic():
        row = _locked_user(user.pk)
        counter = totp.matching_counter(row.totp_secret or "", code)
        if counter is None or (row.totp_last_counter is not None and counter <= row.totp_last_counter):
            return False
        row.totp_last_counter = counter
        row.save(update_fields=["totp_last_counter"])
    user.totp_last_counter = counter
    return True
