"""Sign-in flows (docs/behaviour/accounts.md §4): password sign-in, the first-time lookup, authenticator set-up and first password, sign-out. They take the ``request``: they work on Django's session and on axes' records of the client."""

from __future__ import annotations

from urllib.parse import urlencode
from uuid import UUID

from django.contrib.auth import (
    authenticate,
    logout,
)
from django.db import transaction
from django.http import HttpRequest

from project.accounts import invitations, selectors, totp
from project.accounts.lockout import LOOKUP_KEY, ensure_allowed, raise_if_locked_out, record_failure
from project.accounts.models import SingleSignOnSession, User
from project.accounts.services.common import (
    INVALID_CODE,
    INVALID_CREDENTIALS,
    USER_NOT_FOUND,
    LoginResult,
    _in_setup_state,
    _locked_user,
    _mark_pending_setup,
    _org_is_usable,
    _sign_in,
    password_check,
    totp_consume,
)
from project.accounts.sso import policy as sso_policy
from project.accounts.sso import selectors as sso_selectors
from project.core.auth import client_origin, ctx_for_request
from project.core.changes import org_change
from project.core.errors import BadRequest, Conflict, NotFound, Unauthorized, ValidationFailed
from project.core.sockets import close_session_sockets
from project.core.tenancy import Ctx

# ------------------------------------------------------------------------------------------- sign-in


def password_sign_in(
    *, request: HttpRequest, email: str, password: str, totp_code: str | None = None, remember_me: bool = False
) -> LoginResult:
    """POST /api/auth/login (docs/behaviour/accounts.md §2 "Sign-in flow"; ADR 0005).

    - a user who proved a password but must set a new one: ``requiresSetup`` and ``userId``;
    - wrong password, unknown or inactive user, or a user still to claim the account through an
      invitation link: Unauthorized 'Invalid email or password' (the same answer);
    - TOTP on and no code: ``requiresTotp``; a wrong or replayed code: Unauthorized
      'Invalid authenticator code';
    - an email whose domain requires single sign-on (and is not the break-glass admin): 403
      ``sso_required`` naming the provider, before the password is checked (ADR 0022);
    - otherwise signs in (rememberMe: 30 days, else until the browser closes) and answers the user.
    Failures are recorded by axes; a locked account or address raises LockedOut (429).
    """
    email = (email or "").strip().lower()
    ensure_allowed(request, email)
    sso_policy.refuse_unless_allowed(email)  # required single sign-on: 403 sso_required (ADR 0022)
    # A user still to claim the account (no password yet) fails like a wrong password: setup starts
    # only from an invitation link (ADR 0005), so this answer says nothing about pending emails.
    user = authenticate(request=request, email=email, password=password)
    if user is None:
        raise_if_locked_out(request)
        raise Unauthorized(INVALID_CREDENTIALS)
    if not _org_is_usable(user):
        raise Unauthorized(INVALID_CREDENTIALS)
    if user.must_change_password:
        _mark_pending_setup(request, user)
        return LoginResult(requires_setup=True, user_id=str(user.pk))
    if user.is_totp_enabled:
        if not totp_code:
            return LoginResult(requires_totp=True)
        if not totp_consume(user, totp_code):
            record_failure(request, email)
            raise Unauthorized(INVALID_CODE)
    _sign_in(request, user, remember_me=remember_me)
    return LoginResult(user=user)


def first_time_lookup(*, request: HttpRequest, email: str, token: str | None = None) -> dict:
    """POST /api/auth/first-time-login: ``{requiresSetup, userId, hasPassword, message}`` (ADR 0005).

    With a valid invitation ``token`` (and ``email``, if given, matching it): requiresSetup and the
    invited user's id, and this browser session may load the authenticator setup and set the password.
    Without a token every email — with a password, unknown, inactive or still to be claimed — answers
    the same NotFound 'User not found. Please contact your administrator.' (ADR 0005 amended: no account
    oracle), counted against the address only; an unusable token answers the same, counted against the
    email given (so neither addresses nor tokens can be probed at speed).
    """
    email = (email or "").strip().lower()
    token = (token or "").strip()
    if not email and not token:
        raise ValidationFailed.field("email", "Email is required")
    ensure_allowed(request, email)
    if token:
        invitation = invitations.find_valid(token)
        if invitation is None or (email and invitation.user.email != email):
            record_failure(request, email)
            raise NotFound(USER_NOT_FOUND)
        user = invitation.user
        provider = sso_selectors.provider_get_if_required(user.email)
        if provider is not None:
            # No password or authenticator step: the invitee signs in with the provider, and that sign-in
            # uses the invitation up (docs/adr/0024). This browser is not put in setup state.
            return {
                "requiresSetup": False,
                "userId": None,
                "hasPassword": False,
                "message": f"Your organization signs in with {provider.name}. Use \u201cSign in with {provider.name}\u201d.",
                "email": user.email,
                "ssoProviderName": provider.name,
                "ssoStartUrl": "/api/auth/sso/start?" + urlencode({"email": user.email}),
            }
        _mark_pending_setup(request, user)
        return {
            "requiresSetup": True,
            "userId": str(user.pk),
            "hasPassword": False,
            "message": "Please create a password and set up two-factor authentication.",
            "email": user.email,
        }
    # Without a token setup cannot start (ADR 0005), so every email answers the same 404, whether it has
    # an account, a password or nothing (a 200 for accounts with a password told who has one).
    # The lookup counts towards the address limit only, never towards the account typed in.
    ensure_allowed(request, LOOKUP_KEY)  # 5 lookups per address, then 429: they stop counting there
    record_failure(request, LOOKUP_KEY)
    raise NotFound(USER_NOT_FOUND)


def _setup_target(request: HttpRequest, user_id: UUID | str) -> User:
    """The user whose authenticator may be set up by this request, else NotFound 'User not found'.

    The signed-in user themself, or a user in setup state (no password yet); a signed-in caller never
    reaches another organization's user.
    """
    ctx = ctx_for_request(request)
    user = selectors.user_get_by_id(user_id)
    if user is None:
        raise NotFound("User not found")
    if ctx is not None and ctx.user is not None and ctx.user.pk == user.pk:
        return user
    if ctx is not None and ctx.org.pk != user.organization_id:
        raise NotFound("User not found")
    if _in_setup_state(request, user):
        return user
    raise NotFound("User not found")


def totp_setup(*, request: HttpRequest, user_id: UUID | str) -> dict:
    """GET /api/auth/totp-setup/{userId}: ``{qrCodeUri, manualEntryKey}``.

    Stores a new secret while TOTP is not enabled (each call starts afresh, so only the last QR code
    shown works). A signed-in user whose TOTP is already on gets Conflict: reset it first.
    """
    user = _setup_target(request, user_id)
    in_setup = _in_setup_state(request, user)
    if user.is_totp_enabled and not in_setup:
        raise Conflict("Two-factor authentication is already enabled. Reset it to set up a new authenticator.")
    with transaction.atomic():
        row = _locked_user(user.pk)
        row.totp_secret = totp.new_secret()
        row.totp_last_counter = None
        row.save(update_fields=["totp_secret", "totp_last_counter"])
    uri = totp.provisioning_uri(row.totp_secret, row.email)
    return {"qrCodeUri": totp.qr_data_uri(uri), "manualEntryKey": row.totp_secret}


def password_setup(*, request: HttpRequest, user_id: UUID | str, password: str, confirm_password: str, totp_code: str) -> User:
    """POST /api/auth/setup-password: set the first password, turn TOTP on, sign in.

    Validation (400): the password rules (docs/behaviour/accounts.md §5) at ``password``, 'Passwords don't match' at
    ``confirmPassword``, 'TOTP code must be 6 digits' at ``totpCode``. NotFound for a user not in setup
    state; BadRequest when the authenticator setup was never loaded; Unauthorized 'Invalid authenticator
    code' (recorded by axes) for a wrong code. 403 ``sso_required`` for a user of a domain that
    requires single sign-on (not the break-glass admin).
    """
    target = selectors.user_get_by_id(user_id)
    if target is not None:
        # Required means required (docs/adr/0024): the invitee of a required domain signs in with the
        # provider and never gets a password, even with a setup started before the mode changed.
        sso_policy.refuse_unless_allowed(target.email)
    errors = password_check(password, path="password", user=target if target is not None else None)
    if password != confirm_password:
        errors.append({"path": ["confirmPassword"], "message": "Passwords don't match"})
    if not totp.is_code_format(totp_code):
        errors.append({"path": ["totpCode"], "message": "TOTP code must be 6 digits"})
    if errors:
        raise ValidationFailed(errors)
    user = _setup_target(request, user_id)
    if not _in_setup_state(request, user) and user.has_usable_password():
        raise NotFound("User not found")
    ensure_allowed(request, user.email)
    if not user.totp_secret:
        raise BadRequest("Authenticator setup has not been loaded. Please scan the QR code first.")
    if not totp_consume(user, totp_code):
        record_failure(request, user.email)
        raise Unauthorized(INVALID_CODE)
    with transaction.atomic():
        row = _locked_user(user.pk)
        if row.organization is None:  # a setup is only ever offered to a member of an organization
            raise NotFound(USER_NOT_FOUND)
        with org_change(Ctx(org=row.organization, user=row, origin=client_origin(request)), "user", "updated", ids=[row.pk]):
            row.set_password(password)
            row.must_change_password = False
            row.is_totp_enabled = True
            row.save()
            invitations.mark_used(row)
    _sign_in(request, row)
    return row


def user_sign_out(request: HttpRequest) -> None:
    """POST /api/auth/logout and GET /api/logout: end the session and close the sockets of this browser
    session only (``session_ended`` ``{"reason": "logout"}``); the user's other browsers stay signed in
    and live (ADR 0004)."""
    session_key = request.session.session_key
    logout(request)
    close_session_sockets(session_key, "logout")
    if session_key:  # a back-channel logout has nothing left to end here (docs/adr/0024)
        SingleSignOnSession.objects.filter(session_key=session_key).delete()
