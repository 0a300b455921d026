"""WebAuthn ceremonies with py_webauthn 3 (docs/behaviour/accounts.md §3 "Passkey login/registration").

The relying party is ``settings.WEBAUTHN_RP_ID`` (default ``localhost``) and the accepted origins are
``settings.WEBAUTHN_ORIGIN`` (a list; default ``["http://localhost:8000"]``). Challenges live in the
Django session between begin and complete, and are used once. Registration asks for a discoverable
credential (resident key) so that sign-in needs no email; the WebAuthn user handle is the user's UUID
(16 bytes, within the 1 to 64 bytes of docs/behaviour/accounts.md §5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, options_to_json_dict
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

if TYPE_CHECKING:  # pragma: no cover
    from django.contrib.sessions.backends.base import SessionBase
    from webauthn.authentication.verify_authentication_response import VerifiedAuthentication
    from webauthn.registration.verify_registration_response import VerifiedRegistration

    from project.accounts.models import User

REGISTRATION_CHALLENGE = "passkey_registration_challenge"
AUTHENTICATION_CHALLENGE = "passkey_authentication_challenge"


def rp_id() -> str:
    return getattr(settings, "WEBAUTHN_RP_ID", None) or "localhost"


def rp_name() -> str:
    return getattr(settings, "WEBAUTHN_RP_NAME", None) or "Blockplan"


def expected_origins() -> list[str]:
    origins = getattr(settings, "WEBAUTHN_ORIGIN", None) or ["http://localhost:8000"]
    return [origins] if isinstance(origins, str) else list(origins)


def store_challenge(session: SessionBase, key: str, challenge: bytes) -> None:
    session[key] = bytes_to_base64url(challenge)


def pop_challenge(session: SessionBase, key: str) -> bytes | None:
    value = session.pop(key, None)
    if not value:
        return None
    try:
        return base64url_to_bytes(value)
    except Exception:
        return None


def registration_options(*, user: User, existing_credential_ids: list[str]) -> tuple[dict[str, Any], bytes]:
    """Creation options for ``navigator.credentials.create()`` (as JSON-ready dict) and the challenge."""
    options = generate_registration_options(
        rp_id=rp_id(),
        rp_name=rp_name(),
        user_id=user.pk.bytes,
        user_name=user.email,
        user_display_name=user.full_name or user.email,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            require_resident_key=True,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(cid)) for cid in existing_credential_ids],
    )
    return options_to_json_dict(options), options.challenge


def verify_registration(*, credential: dict[str, Any], challenge: bytes) -> VerifiedRegistration:
    """``VerifiedRegistration`` or an exception (``InvalidRegistrationResponse`` or a parse error)."""
    return verify_registration_response(
        credential=credential,
        expected_challenge=challenge,
        expected_rp_id=rp_id(),
        expected_origin=expected_origins(),
        require_user_verification=False,
    )


def authentication_options() -> tuple[dict[str, Any], bytes]:
    """Request options for ``navigator.credentials.get()`` with discoverable credentials (no allow list)."""
    options = generate_authentication_options(rp_id=rp_id(), user_verification=UserVerificationRequirement.PREFERRED)
    return options_to_json_dict(options), options.challenge


def verify_authentication(
    *, credential: dict[str, Any], challenge: bytes, public_key: str, sign_count: int
) -> VerifiedAuthentication:
    """``VerifiedAuthentication`` or an exception; refuses a sign count that did not increase."""
    return verify_authentication_response(
        credential=credential,
        expected_challenge=challenge,
        expected_rp_id=rp_id(),
        expected_origin=expected_origins(),
        credential_public_key=base64url_to_bytes(public_key),
        credential_current_sign_count=sign_count,
        require_user_verification=False,
    )
