"""Administrators' user management: add (with an invitation), re-issue an invitation, deactivate."""

from __future__ import annotations

from uuid import UUID

from django.db import IntegrityError, transaction
from django.http import HttpRequest

from project.accounts import invitations, selectors
from project.accounts.models import User
from project.accounts.services.common import _locked_user
from project.core.changes import org_change
from project.core.errors import BadRequest, Conflict, DuplicateCode
from project.core.tenancy import Ctx

# ------------------------------------------------------------------------------------------- users


def user_add(
    *, ctx: Ctx, first_name: str, last_name: str, email: str, role: str, request: HttpRequest | None = None
) -> tuple[User, invitations.IssuedInvitation]:
    """POST /api/admin/users (admin): a member of ``ctx.org`` with no usable password and
    ``mustChangePassword``, and their invitation (link shown to the admin and emailed; ADR 0005).
    Emails are unique across the product: DuplicateCode 409 at ``email``."""
    email = email.strip().lower()
    if User.objects.filter(email=email).exists():
        raise DuplicateCode("A user with this email already exists", field="email")
    try:
        with org_change(ctx, "user", "created") as change:
            user = User.objects.create_user(
                email,
                password=None,
                organization=ctx.org,
                role=role,
                first_name=first_name,
                last_name=last_name,
                is_active=True,
                must_change_password=True,
            )
            user.organization = ctx.org
            change.ids = [user.pk]
            issued = invitations.issue(user=user, created_by=ctx.user, request=request)
    except IntegrityError:
        raise DuplicateCode("A user with this email already exists", field="email") from None
    return user, issued


def user_reissue_invitation(*, ctx: Ctx, user_id: UUID | str, request: HttpRequest | None = None) -> invitations.IssuedInvitation:
    """POST /api/admin/users/{id}/invitation (admin): a new invitation link for a user of ``ctx.org``
    who has not set up the account yet; earlier links stop working. NotFound for another
    organization's user; Conflict when the account is already set up; BadRequest for an inactive user."""
    target = selectors.user_get(ctx.org, user_id)
    if target.has_usable_password():
        raise Conflict("This user has already set up their account")
    if not target.is_active:
        raise BadRequest("This user is inactive")
    with transaction.atomic():
        return invitations.issue(user=target, created_by=ctx.user, request=request)


def user_deactivate(*, ctx: Ctx, user_id: UUID | str) -> User:
    """DELETE /api/admin/users/{id} (admin): the user becomes inactive; the save ends their sessions and
    closes their sockets (:mod:`project.accounts.access`, as for any other path). NotFound for another organization's user; BadRequest for oneself."""
    target = selectors.user_get(ctx.org, user_id)
    if target.pk == ctx.member.pk:
        raise BadRequest("You cannot deactivate your own account")
    with transaction.atomic():
        row = _locked_user(target.pk)
        row.is_active = False
        with org_change(ctx, "user", "updated", ids=[row.pk]):
            row.save(update_fields=["is_active", "updated_at"])  # ends their sessions and sockets (project.accounts.access)
    return row
