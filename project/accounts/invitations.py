"""Invitation links: how a user added by an admin claims the account (docs/adr/0005).

Before, anyone who knew an invited person's email could run first-time setup for them. Now creating a
user (``POST /api/admin/users``, the admin page) issues a single-use invitation: a random token of 256
bits, of which only the SHA-256 is stored, valid for ``INVITATION_VALID_DAYS`` (7) days. The admin sees
the link ``<base>/auth/setup?token=<token>`` in the answer and can re-issue it
(``POST /api/admin/users/{id}/invitation``, which revokes the earlier ones); it is also emailed through
Django's email framework after the transaction commits. First-time setup needs a valid token; finishing
setup marks the invitation used.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from project.accounts.models import Invitation, User

log = logging.getLogger(__name__)

TOKEN_BYTES = 32  # 256 bits, URL-safe base64: 43 characters
MAX_TOKEN_LENGTH = 128


@dataclass(frozen=True)
class IssuedInvitation:
    """What the admin is shown once: the link (holding the token) and when it stops working (UTC)."""

    link: str
    expires_at: datetime


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def base_url(request: HttpRequest | None) -> str:
    """``BLOCKPLAN_BASE_URL``, else the scheme and host the admin's request came to."""
    if settings.BLOCKPLAN_BASE_URL:
        return settings.BLOCKPLAN_BASE_URL
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return "http://localhost:8000"


def issue(*, user: User, created_by: User | None, request: HttpRequest | None) -> IssuedInvitation:
    """Revoke ``user``'s open invitations and make a new one; email the link after commit.

    Runs inside the caller's transaction (the user's creation, or a re-issue)."""
    now = timezone.now()
    Invitation.objects.filter(user=user, used_at__isnull=True, revoked_at__isnull=True).update(revoked_at=now)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    expires_at = now + timedelta(days=settings.INVITATION_VALID_DAYS)
    Invitation.objects.create(user=user, token_hash=token_hash(token), created_by=created_by, expires_at=expires_at)
    link = f"{base_url(request)}/auth/setup?token={token}"
    inviter = (created_by.full_name or created_by.email) if created_by is not None else "Your administrator"
    org_name = user.organization.name if user.organization is not None else "Blockplan"
    transaction.on_commit(lambda: _send(user.email, inviter, org_name, link, expires_at))
    return IssuedInvitation(link=link, expires_at=expires_at)


def _send(email: str, inviter: str, org_name: str, link: str, expires_at: datetime) -> None:
    """Email the link; a mail server error is logged (the admin still has the link to copy)."""
    days = settings.INVITATION_VALID_DAYS
    body = (
        f"{inviter} has invited you to {org_name} on Blockplan.\n\n"
        f"Open this link to create your password and set up two-factor authentication:\n\n{link}\n\n"
        f"The link works once and expires in {days} days ({expires_at:%d %B %Y}). "
        "If it has expired, ask your administrator for a new one."
    )
    try:
        send_mail(f"Your Blockplan account at {org_name}", body, None, [email])
    except Exception:  # noqa: BLE001 - delivery is best effort; the link is shown to the admin
        log.exception("could not email the invitation to %s", email)


def find_valid(token: str | None) -> Invitation | None:
    """The open invitation of ``token`` (not used, not revoked, not expired, user active in an active
    organization and still to set up), else None. Never says which of these failed."""
    token = (token or "").strip()
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    invitation = (
        Invitation.objects.select_related("user", "user__organization")
        .filter(token_hash=token_hash(token), used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now())
        .first()
    )
    if invitation is None:
        return None
    user = invitation.user
    org = user.organization
    if not user.is_active or org is None or not org.is_active or user.has_usable_password():
        return None
    return invitation


def mark_used(user: User) -> None:
    """Close every open invitation of ``user`` (setup completed)."""
    Invitation.objects.filter(user=user, used_at__isnull=True, revoked_at__isnull=True).update(used_at=timezone.now())
