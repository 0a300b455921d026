"""Writes of the accounts area: sign-in flows, TOTP, passkeys, profile, settings, organization, users.

Sign-in flows (``sign_in_with_password``, ``first_time_lookup``, ``totp_setup``, ``setup_password``,
``passkey_*``, ``sign_out``) take the ``request`` explicitly: they work on Django's session and on
axes' records of the client. Everything else takes the :class:`Ctx` resolved at the edge.

Every write that changes what other members of the organization see (a user's name, role, state,
TOTP flag; the organization) calls :func:`realtime.events.emit_change` once inside its transaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.conf import settings as django_settings
from django.contrib.auth import (
    SESSION_KEY,
    authenticate,
    login,
    logout,
    update_session_auth_hash,
)
from django.contrib.auth.password_validation import validate_password
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

from project.accounts import invitations, selectors, totp
from project.accounts import passkeys as webauthn_rp
from project.accounts.lockout import ensure_allowed, raise_if_locked_out, record_failure
from project.accounts.models import Organization, Passkey, User
from project.core.auth import client_origin, ctx_for_request
from project.core.concurrency import assert_fresh
from project.core.errors import BadRequest, Conflict, DuplicateCode, NotFound, Unauthorized, ValidationFailed
from project.core.tenancy import Ctx
from realtime.events import close_session_sockets, close_user_sockets, emit_change, rekey_session_sockets

log = logging.getLogger(__name__)

INVALID_CREDENTIALS = "Invalid email or password"
INVALID_CODE = "Invalid authenticator code"
USER_NOT_FOUND = "User not found. Please contact your administrator."
PASSKEY_AUTH_FAILED = "Passkey authentication failed"
PASSKEY_REGISTRATION_FAILED = "Passkey registration failed"
MODEL_BACKEND = "project.core.auth.SessionUserBackend"  # user + organization in one query per request
# Users who proved their password but must still set a new one (login answered requiresSetup).
PENDING_SETUP = "pending_setup_user_ids"


@dataclass
class LoginResult:
    user: User | None = None
    requires_totp: bool = False
    requires_setup: bool = False
    user_id: str | None = None


# ------------------------------------------------------------------------------------------- helpers


def password_errors(password: str, *, path: str, user: User | None = None) -> list[dict]:
    """The §5 password rules through Django's validators: one ``{path, message}`` per broken rule."""
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


def _locked_user(user_id: UUID | str) -> User:
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


def end_user_sessions(user: User, *, keep_session_key: str | None = None, reason: str = "expired") -> int:
    """Delete every stored session of ``user`` except ``keep_session_key``, and close those sessions'
    sockets after commit (``session_ended`` ``{reason}``). Returns how many ended."""
    keys = []
    user_pk = str(user.pk)
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator(chunk_size=500):
        try:
            data = session.get_decoded()
        except Exception:  # noqa: S112 — a corrupt row is not ours to judge
            continue
        if str(data.get(SESSION_KEY)) == user_pk and session.session_key != keep_session_key:
            keys.append(session.session_key)
    if keys:
        Session.objects.filter(session_key__in=keys).delete()
        for key in keys:
            close_session_sockets(key, reason)
    return len(keys)


# ------------------------------------------------------------------------------------------- sign-in


def sign_in_with_password(
    *, request: HttpRequest, email: str, password: str, totp_code: str | None = None, remember_me: bool = False
) -> LoginResult:
    """POST /api/auth/login (platform.md §4 "Sign-in flow"; ADR 0005).

    - a user who proved a password but must set a new one: ``requiresSetup`` and ``userId``;
    - wrong password, unknown or inactive user, or a user still to claim the account through an
      invitation link: Unauthorized 'Invalid email or password' (the same answer);
    - TOTP on and no code: ``requiresTotp``; a wrong or replayed code: Unauthorized
      'Invalid authenticator code';
    - otherwise signs in (rememberMe: 30 days, else until the browser closes) and answers the user.
    Failures are recorded by axes; a locked account or address raises LockedOut (429).
    """
    email = (email or "").strip().lower()
    ensure_allowed(request, email)
    # A user still to claim the account (no password yet) fails like a wrong password: setup starts
    # only from an invitation link (issue 14), so this answer says nothing about pending emails.
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
    Without a token an account that already has a password answers ``hasPassword``; any other email —
    unknown, inactive, or still to be claimed — and any unusable token answer NotFound
    'User not found. Please contact your administrator.', recorded as a failed attempt by axes (so
    neither addresses nor tokens can be probed at speed).
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
        _mark_pending_setup(request, user)
        return {
            "requiresSetup": True,
            "userId": str(user.pk),
            "hasPassword": False,
            "message": "Please create a password and set up two-factor authentication.",
            "email": user.email,
        }
    found = selectors.user_by_email(email)
    if found is None or not found.is_active or not _org_is_usable(found) or not found.has_usable_password():
        record_failure(request, email)
        raise NotFound(USER_NOT_FOUND)
    return {
        "requiresSetup": False,
        "userId": None,
        "hasPassword": True,
        "message": "Account already set up. Please sign in with your password.",
    }


def _setup_target(request: HttpRequest, user_id: UUID | str) -> User:
    """The user whose authenticator may be set up by this request, else NotFound 'User not found'.

    The signed-in user themself, or a user in setup state (no password yet); a signed-in caller never
    reaches another organization's user.
    """
    ctx = ctx_for_request(request)
    user = selectors.user_by_id(user_id)
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


def setup_password(*, request: HttpRequest, user_id: UUID | str, password: str, confirm_password: str, totp_code: str) -> User:
    """POST /api/auth/setup-password: set the first password, turn TOTP on, sign in.

    Validation (400): the §5 password rules at ``password``, 'Passwords don't match' at
    ``confirmPassword``, 'TOTP code must be 6 digits' at ``totpCode``. NotFound for a user not in setup
    state; BadRequest when the authenticator setup was never loaded; Unauthorized 'Invalid authenticator
    code' (recorded by axes) for a wrong code.
    """
    target = selectors.user_by_id(user_id)
    errors = password_errors(password, path="password", user=target if target is not None else None)
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
        row.set_password(password)
        row.must_change_password = False
        row.is_totp_enabled = True
        row.save()
        invitations.mark_used(row)
        if row.organization is None:  # a setup is only ever offered to a member of an organization
            raise NotFound(USER_NOT_FOUND)
        emit_change(
            Ctx(org=row.organization, user=row, origin=client_origin(request)), entity="user", action="updated", ids=[row.pk]
        )
    _sign_in(request, row)
    return row


def sign_out(request: HttpRequest) -> None:
    """POST /api/auth/logout and GET /api/logout: end the session and close the sockets of this browser
    session only (``session_ended`` ``{"reason": "logout"}``); the user's other browsers stay signed in
    and live (issue 14)."""
    session_key = request.session.session_key
    logout(request)
    close_session_sockets(session_key, "logout")


# ------------------------------------------------------------------------------------------- TOTP


def enable_totp(*, request: HttpRequest, ctx: Ctx, totp_code: str) -> User:
    """POST /api/auth/enable-totp ``{totpCode}``: turn TOTP on with a code of the stored secret.

    BadRequest when already on or never set up; Unauthorized 'Invalid authenticator code' (recorded by
    axes) for a wrong or replayed code.
    """
    user = ctx.member
    if user.is_totp_enabled:
        raise BadRequest("Two-factor authentication is already enabled")
    if not user.totp_secret:
        raise BadRequest("Authenticator setup has not been loaded. Please scan the QR code first.")
    ensure_allowed(request, user.email)
    if not totp_consume(user, totp_code):
        record_failure(request, user.email)
        raise Unauthorized(INVALID_CODE)
    with transaction.atomic():
        row = _locked_user(user.pk)
        row.is_totp_enabled = True
        row.save(update_fields=["is_totp_enabled", "updated_at"])
        emit_change(ctx, entity="user", action="updated", ids=[row.pk])
    return row


def reset_totp(*, ctx: Ctx) -> User:
    """POST /api/auth/reset-totp: TOTP off and the secret dropped; the user scans a new QR code."""
    with transaction.atomic():
        row = _locked_user(ctx.member.pk)
        row.is_totp_enabled = False
        row.totp_secret = ""
        row.totp_last_counter = None
        row.save(update_fields=["is_totp_enabled", "totp_secret", "totp_last_counter", "updated_at"])
        emit_change(ctx, entity="user", action="updated", ids=[row.pk])
    return row


# ------------------------------------------------------------------------------------------- passkeys


def passkey_register_begin(*, request: HttpRequest, ctx: Ctx) -> dict:
    """POST /api/auth/passkeys/register/begin: creation options; the challenge is kept in the session."""
    existing = list(ctx.member.passkeys.values_list("credential_id", flat=True))
    options, challenge = webauthn_rp.registration_options(user=ctx.member, existing_credential_ids=existing)
    webauthn_rp.store_challenge(request.session, webauthn_rp.REGISTRATION_CHALLENGE, challenge)
    return options


def passkey_register_complete(*, request: HttpRequest, ctx: Ctx, credential: dict, device_name: str | None) -> Passkey:
    """POST /api/auth/passkeys/register/complete: verify the attestation and store the passkey.

    BadRequest 'Passkey registration failed' for a response that does not verify (or no begin first);
    DuplicateCode for a credential already registered. Blank device name: 'Unknown Device'.
    """
    challenge = webauthn_rp.pop_challenge(request.session, webauthn_rp.REGISTRATION_CHALLENGE)
    if challenge is None:
        raise BadRequest("Passkey registration was not started. Please try again.")
    try:
        verified = webauthn_rp.verify_registration(credential=credential, challenge=challenge)
    except Exception as exc:  # InvalidRegistrationResponse, or a malformed browser result
        log.info("passkey registration refused: %s", exc)
        raise BadRequest(PASSKEY_REGISTRATION_FAILED) from None
    credential_id = bytes_to_base64url(verified.credential_id)
    if len(credential_id) > 255:
        raise BadRequest(PASSKEY_REGISTRATION_FAILED)
    transports = (credential.get("response") or {}).get("transports") if isinstance(credential, dict) else None
    transports = [t for t in transports if isinstance(t, str)][:10] if isinstance(transports, list) else []
    try:
        with transaction.atomic():
            return Passkey.objects.create(
                user=ctx.member,
                credential_id=credential_id,
                public_key=bytes_to_base64url(verified.credential_public_key),
                counter=verified.sign_count,
                device_name=(device_name or "").strip()[:100] or "Unknown Device",
                transports=transports,
            )
    except IntegrityError:
        raise DuplicateCode("This passkey is already registered", field="response") from None


def passkey_authenticate_begin(*, request: HttpRequest) -> dict:
    """POST /api/auth/passkeys/authenticate/begin: request options for a discoverable credential."""
    options, challenge = webauthn_rp.authentication_options()
    webauthn_rp.store_challenge(request.session, webauthn_rp.AUTHENTICATION_CHALLENGE, challenge)
    return options


def passkey_authenticate_complete(*, request: HttpRequest, credential: dict) -> User:
    """POST /api/auth/passkeys/authenticate/complete: verify the assertion, update the sign count and
    last use, sign in. Unauthorized 'Passkey authentication failed' for an unknown passkey, a bad
    signature, a sign count that did not increase, a user handle of someone else, or an inactive user."""
    challenge = webauthn_rp.pop_challenge(request.session, webauthn_rp.AUTHENTICATION_CHALLENGE)
    if challenge is None:
        raise BadRequest("Passkey authentication was not started. Please try again.")
    credential_id = credential.get("id") or credential.get("rawId") if isinstance(credential, dict) else None
    if not isinstance(credential_id, str) or not credential_id or len(credential_id) > 255:
        raise Unauthorized(PASSKEY_AUTH_FAILED)
    with transaction.atomic():
        passkey = (
            Passkey.objects.select_for_update(of=("self",))
            .select_related("user__organization")
            .filter(credential_id=credential_id)
            .first()
        )
        if passkey is None:
            raise Unauthorized(PASSKEY_AUTH_FAILED)
        user = passkey.user
        user_handle = (credential.get("response") or {}).get("userHandle")
        if user_handle:
            try:
                if base64url_to_bytes(user_handle) != user.pk.bytes:
                    raise Unauthorized(PASSKEY_AUTH_FAILED)
            except (ValueError, TypeError):
                raise Unauthorized(PASSKEY_AUTH_FAILED) from None
        try:
            verified = webauthn_rp.verify_authentication(
                credential=credential, challenge=challenge, public_key=passkey.public_key, sign_count=passkey.counter
            )
        except Exception as exc:  # InvalidAuthenticationResponse, or a malformed browser result
            log.info("passkey authentication refused: %s", exc)
            raise Unauthorized(PASSKEY_AUTH_FAILED) from None
        if not user.is_active or not _org_is_usable(user):
            raise Unauthorized(PASSKEY_AUTH_FAILED)
        passkey.counter = verified.new_sign_count
        passkey.last_used = timezone.now()
        passkey.save(update_fields=["counter", "last_used"])
    _sign_in(request, user)
    return user


def passkey_delete(*, ctx: Ctx, passkey_id: UUID | str) -> None:
    """DELETE /api/auth/passkeys/{id}: one of the signed-in user's passkeys; NotFound otherwise."""
    selectors.user_passkey(ctx.member, passkey_id).delete()


# ------------------------------------------------------------------------------------------- profile


def profile_update(*, ctx: Ctx, first_name: str, last_name: str, if_match: str | None = None) -> User:
    """PUT /api/auth/profile: first and last name only. StaleWrite on a stale If-Match."""
    with transaction.atomic():
        row = _locked_user(ctx.member.pk)
        assert_fresh(row, if_match)
        row.first_name = first_name
        row.last_name = last_name
        row.save(update_fields=["first_name", "last_name", "updated_at"])
        emit_change(ctx, entity="user", action="updated", ids=[row.pk])
    return row


def change_password(
    *, request: HttpRequest, ctx: Ctx, current_password: str, new_password: str, confirm_password: str | None
) -> None:
    """POST/PUT /api/auth/change-password: check the current password (through axes), apply the §5
    rules, end the user's other sessions and keep this one.

    400 'Current password is required' / 'Current password is incorrect' at ``currentPassword``, the
    password rules at ``newPassword``, "Passwords don't match" at ``confirmPassword``; 429 when locked.
    """
    user = ctx.member
    errors = []
    if not current_password:
        errors.append({"path": ["currentPassword"], "message": "Current password is required"})
    errors += password_errors(new_password, path="newPassword", user=user)
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
        end_user_sessions(row, keep_session_key=request.session.session_key, reason="password_changed")
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
        current = selectors.full_settings(row.settings)
        if theme is not None:
            current["theme"] = theme
        for key, value in (preferences or {}).items():
            if value is not None and key in current["preferences"]:
                current["preferences"][key] = value
        row.settings = current
        row.save(update_fields=["settings", "updated_at"])
    return selectors.settings_of(row)


# ------------------------------------------------------------------------------------------- organization


def organization_update(*, ctx: Ctx, data: dict[str, Any], if_match: str | None = None) -> Organization:
    """PUT /api/organization (admin): name, domain, address, phone, website.

    The domain is stored lower case and is unique: DuplicateCode 409 at ``domain``. StaleWrite on a
    stale If-Match.
    """
    domain = data["domain"].strip().lower()
    try:
        with transaction.atomic():
            org = Organization.objects.select_for_update().get(pk=ctx.org.pk)
            assert_fresh(org, if_match)
            if Organization.objects.filter(domain__iexact=domain).exclude(pk=org.pk).exists():
                raise DuplicateCode("An organization with this domain already exists", field="domain")
            org.name = data["name"]
            org.domain = domain
            org.address = data.get("address") or ""
            org.phone = data.get("phone") or ""
            org.website = data.get("website") or ""
            emit_change(ctx, entity="organization", action="updated", ids=[org.pk])
            # Only these fields: the instance's event_seq is older than the one emit_change just raised.
            org.save(update_fields=["name", "domain", "address", "phone", "website", "updated_at"])
    except IntegrityError:
        raise DuplicateCode("An organization with this domain already exists", field="domain") from None
    return org


def organization_create(*, name: str, domain: str, admin_email: str, admin_password: str) -> tuple[Organization, User]:
    """``manage.py create_organization`` (decisions.md §8): the organization, its campus 'Main Campus'
    ('MAIN') and an active admin who can sign in at once with ``admin_password`` (no TOTP yet).

    ValidationFailed for a blank name or domain, a bad email or a password breaking the §5 rules;
    DuplicateCode for a domain or email already taken.
    """
    from django.core.validators import validate_email

    from project.catalogue.models import Campus

    name, domain, email = (name or "").strip(), (domain or "").strip().lower(), (admin_email or "").strip().lower()
    errors = []
    if not name:
        errors.append({"path": ["name"], "message": "Organization name is required"})
    if not domain:
        errors.append({"path": ["domain"], "message": "Domain is required"})
    try:
        validate_email(email)
    except DjangoValidationError:
        errors.append({"path": ["adminEmail"], "message": "Please enter a valid email address"})
    errors += password_errors(admin_password, path="adminPassword")
    if errors:
        raise ValidationFailed(errors)
    if Organization.objects.filter(domain__iexact=domain).exists():
        raise DuplicateCode("An organization with this domain already exists", field="domain")
    if User.objects.filter(email=email).exists():
        raise DuplicateCode("A user with this email already exists", field="email")
    with transaction.atomic():
        org = Organization.objects.create(name=name, domain=domain)
        Campus(organization=org, name="Main Campus", abbreviation="MAIN").save()
        admin = User.objects.create_user(
            email,
            password=admin_password,
            organization=org,
            role=User.Role.ADMIN,
            is_active=True,
            must_change_password=False,
        )
        emit_change(Ctx.system(org), entity="organization", action="created", ids=[org.pk])
    return org, admin


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
        with transaction.atomic():
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
            issued = invitations.issue(user=user, created_by=ctx.user, request=request)
            emit_change(ctx, entity="user", action="created", ids=[user.pk])
    except IntegrityError:
        raise DuplicateCode("A user with this email already exists", field="email") from None
    return user, issued


def user_reissue_invitation(*, ctx: Ctx, user_id: UUID | str, request: HttpRequest | None = None) -> invitations.IssuedInvitation:
    """POST /api/admin/users/{id}/invitation (admin): a new invitation link for a user of ``ctx.org``
    who has not set up the account yet; earlier links stop working. NotFound for another
    organization's user; Conflict when the account is already set up; BadRequest for an inactive user."""
    target = selectors.org_user(ctx.org, user_id)
    if target.has_usable_password():
        raise Conflict("This user has already set up their account")
    if not target.is_active:
        raise BadRequest("This user is inactive")
    with transaction.atomic():
        return invitations.issue(user=target, created_by=ctx.user, request=request)


def user_deactivate(*, ctx: Ctx, user_id: UUID | str) -> User:
    """DELETE /api/admin/users/{id} (admin): the user becomes inactive, their sessions end and their
    sockets close. NotFound for another organization's user; BadRequest for oneself."""
    target = selectors.org_user(ctx.org, user_id)
    if target.pk == ctx.member.pk:
        raise BadRequest("You cannot deactivate your own account")
    with transaction.atomic():
        row = _locked_user(target.pk)
        row.is_active = False
        row.save(update_fields=["is_active", "updated_at"])
        end_user_sessions(row, reason="deactivated")
        close_user_sockets(row.pk, "deactivated")
        emit_change(ctx, entity="user", action="updated", ids=[row.pk])
    return row
