"""A user's own profile, password and settings."""

from __future__ import annotations

from django.contrib.auth import (
    authenticate,
    update_session_auth_hash,
)
from django.db import transaction
from django.http import HttpRequest

from project.accounts import selectors
from project.accounts.lockout import ensure_allowed, raise_if_locked_out
from project.accounts.models import User
from project.accounts.services.common import (
    _locked_user,
    password_check,
    user_sessions_end,
)
from project.accounts.sso import policy as sso_policy
from project.core.changes import org_change
from project.core.concurrency import assert_fresh
from project.core.errors import ValidationFailed
from project.core.sockets import rekey_session_sockets
from project.core.tenancy import Ctx

# ------------------------------------------------------------------------------------------- profile


def profile_update(*, ctx: Ctx, first_name: str, last_name: str, if_match: str | None = None) -> User:
    """PUT /api/auth/profile: first and last name only. StaleWrite on a stale If-Match."""
    with transaction.atomic():
        row = _locked_user(ctx.member.pk)
        assert_fresh(row, if_match)
        row.first_name = first_name
        row.last_name = last_name
        with org_change(ctx, "user", "updated", ids=[row.pk]):
            row.save(update_fields=["first_name", "last_name", "updated_at"])
    return row


def password_change(
    *, request: HttpRequest, ctx: Ctx, current_password: str, new_password: str, confirm_password: str | None
) -> None:
    """POST/PUT /api/auth/change-password: check the current password (through axes), apply the password
    rules (docs/behaviour/accounts.md §5), end the user's other sessions and keep this one.

    400 'Current password is required' / 'Current password is incorrect' at ``currentPassword``, the
    password rules at ``newPassword``, "Passwords don't match" at ``confirmPassword``; 429 when locked;
    403 ``sso_required`` for a user of a domain that requires single sign-on (not the break-glass admin).
    """
    user = ctx.member
    sso_policy.refuse_unless_allowed(user.email)  # required means required (docs/adr/0024)
    errors = []
    if not current_password:
        errors.append({"path": ["currentPassword"], "message": "Current password is required"})
    errors += password_check(new_password, path="newPassword", user=user)
    if confirm_password is not None and confirm_password != new_password:
        errors.append({"path": ["confirmPassword"], "message": "Passwords don't match"})
    if errors:
        raise ValidationFailed(errors)
    ensure_allowed(request, user.email)
    if authenticate(request=request, email=user.email, password=current_password) is None:
        raise_if_locked_out(request)
        raise ValidationFailed.field("currentPassword", "Current password is incorrect")
    with transaction.atomic():
        row = _locked_user(user.pk)
        row.set_password(new_password)
        row.must_change_password = False
        row.save()
        user_sessions_end(row, keep_session_key=request.session.session_key, reason="password_changed")
    old_key = request.session.session_key
    update_session_auth_hash(request, row)  # cycles this browser's session key
    request.session.save()  # stored now, before this browser's sockets follow the new key
    rekey_session_sockets(old_key, request.session.session_key)


def settings_update(*, ctx: Ctx, theme: str | None, preferences: dict | None, if_match: str | None = None) -> dict:
    """PUT /api/auth/settings: merge the given theme and preferences over the saved ones (or the
    defaults) and store them; answers ``{theme, preferences, updatedAt}``."""
    with transaction.atomic():
        row = _locked_user(ctx.member.pk)
        assert_fresh(row, if_match)
        current = selectors.settings_with_defaults(row.settings)
        if theme is not None:
            current["theme"] = theme
        for key, value in (preferences or {}).items():
            if value is not None and key in current["preferences"]:
                current["preferences"][key] = value
        row.settings = current
        row.save(update_fields=["settings", "updated_at"])
    return selectors.settings_get(row)
