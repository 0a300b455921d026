"""Second factors: turning TOTP on and resetting it, passkeys (register, authenticate, delete)."""

from __future__ import annotations

from uuid import UUID

from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

from project.accounts import passkeys as webauthn_rp
from project.accounts import selectors
from project.accounts.lockout import ensure_allowed, record_failure
from project.accounts.models import Passkey, User
from project.accounts.services.common import (
    INVALID_CODE,
    PASSKEY_AUTH_FAILED,
    PASSKEY_REGISTRATION_FAILED,
    _locked_user,
    _org_is_usable,
    _sign_in,
    log,
    totp_consume,
)
from project.accounts.sso import policy as sso_policy
from project.core.changes import org_change
from project.core.errors import BadRequest, DuplicateCode, Unauthorized
from project.core.tenancy import Ctx

# ------------------------------------------------------------------------------------------- TOTP


def totp_enable(*, request: HttpRequest, ctx: Ctx, totp_code: str) -> User:
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
        with org_change(ctx, "user", "updated", ids=[row.pk]):
            row.save(update_fields=["is_totp_enabled", "updated_at"])
    return row


def totp_reset(*, ctx: Ctx) -> User:
    """POST /api/auth/reset-totp: TOTP off and the secret dropped; the user scans a new QR code."""
    with transaction.atomic():
        row = _locked_user(ctx.member.pk)
        row.is_totp_enabled = False
        row.totp_secret = ""
        row.totp_last_counter = None
        with org_change(ctx, "user", "updated", ids=[row.pk]):
            row.save(update_fields=["is_totp_enabled", "totp_secret", "totp_last_counter", "updated_at"])
    return row


# ------------------------------------------------------------------------------------------- passkeys


def passkey_register_begin(*, request: HttpRequest, ctx: Ctx) -> dict:
    """POST /api/auth/passkeys/register/begin: creation options; the challenge is kept in the session.
    403 ``sso_required`` for a user of a domain that requires single sign-on (not the break-glass admin)."""
    sso_policy.refuse_unless_allowed(ctx.member.email)  # required means required (docs/adr/0024)
    existing = list(ctx.member.passkeys.values_list("credential_id", flat=True))
    options, challenge = webauthn_rp.registration_options(user=ctx.member, existing_credential_ids=existing)
    webauthn_rp.store_challenge(request.session, webauthn_rp.REGISTRATION_CHALLENGE, challenge)
    return options


def passkey_register_complete(*, request: HttpRequest, ctx: Ctx, credential: dict, device_name: str | None) -> Passkey:
    """POST /api/auth/passkeys/register/complete: verify the attestation and store the passkey.

    BadRequest 'Passkey registration failed' for a response that does not verify (or no begin first);
    DuplicateCode for a credential already registered. Blank device name: 'Unknown Device'. 403
    ``sso_required`` as for begin.
    """
    sso_policy.refuse_unless_allowed(ctx.member.email)
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
        sso_policy.refuse_unless_allowed(user.email)  # required single sign-on (ADR 0022)
        passkey.counter = verified.new_sign_count
        passkey.last_used = timezone.now()
        passkey.save(update_fields=["counter", "last_used"])
    _sign_in(request, user)
    return user


def passkey_delete(*, ctx: Ctx, passkey_id: UUID | str) -> None:
    """DELETE /api/auth/passkeys/{id}: one of the signed-in user's passkeys; NotFound otherwise."""
    selectors.passkey_get(ctx.member, passkey_id).delete()
