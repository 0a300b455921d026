"""Writes of the accounts area, one module per concern (ADR 0021): sign-in flows, TOTP, passkeys, profile, settings, organization, users.

Sign-in flows (``sign_in_with_password``, ``first_time_lookup``, ``totp_setup``, ``setup_password``,
``passkey_*``, ``sign_out``) take the ``request`` explicitly: they work on Django's session and on
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
    end_user_sessions,
    password_errors,
    totp_consume,
)
from project.accounts.services.organization import (
    organization_create,
    organization_update,
)
from project.accounts.services.profile import (
    change_password,
    profile_update,
    settings_update,
)
from project.accounts.services.second_factor import (
    enable_totp,
    passkey_authenticate_begin,
    passkey_authenticate_complete,
    passkey_delete,
    passkey_register_begin,
    passkey_register_complete,
    reset_totp,
)
from project.accounts.services.sign_in import (
    first_time_lookup,
    setup_password,
    sign_in_with_password,
    sign_out,
    totp_setup,
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
    "change_password",
    "enable_totp",
    "end_user_sessions",
    "first_time_lookup",
    "organization_create",
    "organization_update",
    "passkey_authenticate_begin",
    "passkey_authenticate_complete",
    "passkey_delete",
    "passkey_register_begin",
    "passkey_register_complete",
    "password_errors",
    "profile_update",
    "reset_totp",
    "settings_update",
    "setup_password",
    "sign_in_with_password",
    "sign_out",
    "totp_consume",
    "totp_setup",
    "user_add",
    "user_deactivate",
    "user_reissue_invitation",
]
