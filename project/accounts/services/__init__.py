"""Writes of the accounts area, one module per concern (ADR 0021): sign-in flows, TOTP, passkeys, profile, settings, organization, users.

Sign-in flows (``password_sign_in``, ``first_time_lookup``, ``totp_setup``, ``password_setup``,
``passkey_*``, ``user_sign_out``) take the ``request`` explicitly: they work on Django's session and on
axes' records of the client. Everything else takes the :class:`Ctx` resolved at the edge.

Every write that changes what other members of the organization see (a user's name, role, state,
TOTP flag; the organization) writes in one :func:`project.core.changes.org_change` unit.
"""

from project.accounts.services.common import (
    INVALID_CODE,
    INVALID_CREDENTIALS,
    MODEL_BACKEND,
    PASSKEY_AUTH_FAILED,
    PASSKEY_REGISTRATION_FAILED,
    PENDING_SETUP,
    USER_NOT_FOUND,
    LoginResult,
    password_check,
    totp_consume,
    user_sessions_end,
)
from project.accounts.services.organization import (
    organization_create,
    organization_update,
)
from project.accounts.services.profile import (
    password_change,
    profile_update,
    settings_update,
)
from project.accounts.services.second_factor import (
    passkey_authenticate_begin,
    passkey_authenticate_complete,
    passkey_delete,
    passkey_register_begin,
    passkey_register_complete,
    totp_enable,
    totp_reset,
)
from project.accounts.services.sign_in import (
    first_time_lookup,
    password_setup,
    password_sign_in,
    totp_setup,
    user_sign_out,
)
from project.accounts.services.users import (
    user_add,
    user_deactivate,
    user_reissue_invitation,
)

__all__ = [
    "INVALID_CODE",
    "INVALID_CREDENTIALS",
    "LoginResult",
    "MODEL_BACKEND",
    "PASSKEY_AUTH_FAILED",
    "PASSKEY_REGISTRATION_FAILED",
    "PENDING_SETUP",
    "USER_NOT_FOUND",
    "password_change",
    "totp_enable",
    "user_sessions_end",
    "first_time_lookup",
    "organization_create",
    "organization_update",
    "passkey_authenticate_begin",
    "passkey_authenticate_complete",
    "passkey_delete",
    "passkey_register_begin",
    "passkey_register_complete",
    "password_check",
    "profile_update",
    "totp_reset",
    "settings_update",
    "password_setup",
    "password_sign_in",
    "user_sign_out",
    "totp_consume",
    "totp_setup",
    "user_add",
    "user_deactivate",
    "user_reissue_invitation",
]
