"""Request and answer schemas of the accounts API (docs/behaviour/accounts.md §1, §2, §5; docs/behaviour/errors.md §1).

Simple field rules live here as validators with the spec's messages. Rules that need every problem at
once (the password rules of docs/behaviour/accounts.md §5 through Django's password validators, "Passwords don't match") are checked
in ``services`` so that one answer lists them all.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any
from uuid import UUID

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from project.accounts import totp
from project.core.schemas import BlankToNone, CamelSchema, max_length, required

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import User

# ---------------------------------------------------------------------------------------------- helpers


def _as_text(value: Any) -> Any:
    return "" if value is None else value


Text = BeforeValidator(_as_text)  # null or absent reads as "" so that the "required" messages apply


def _checked_email(value: str | None, message: str) -> str:
    """``value`` trimmed and lower-cased when it is an email address of at most 255 characters, else
    ValueError(``message``)."""
    value = (value or "").strip().lower()
    try:
        validate_email(value)
    except DjangoValidationError:
        raise ValueError(message) from None
    if len(value) > 255:
        raise ValueError(message)
    return value


def email_format(message: str) -> AfterValidator:
    return AfterValidator(lambda value: _checked_email(value, message))


def optional_email_format(message: str) -> AfterValidator:
    """Like :func:`email_format`, but blank is allowed (the caller decides whether it is required)."""
    return AfterValidator(lambda value: "" if not (value or "").strip() else _checked_email(value, message))


def _totp_code(value: str | None) -> str | None:
    if value is not None and not totp.is_code_format(value):
        raise ValueError("TOTP code must be 6 digits")
    return value


TotpCode = AfterValidator(_totp_code)


def one_of(choices: tuple[str, ...], message: str) -> AfterValidator:
    def check(value: Any) -> Any:
        if value is not None and value not in choices:
            raise ValueError(message)
        return value

    return AfterValidator(check)


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


Strip = AfterValidator(_strip)

# ---------------------------------------------------------------------------------------------- inputs


class InSchema(CamelSchema):
    """An input whose absent fields are validated as null under their camelCase name, so that a missing
    ``firstName`` answers ``{"path": ["firstName"], "message": "First name is required"}``."""

    @model_validator(mode="before")
    @classmethod
    def _absent_as_null(cls, data: Any) -> Any:
        data = getattr(data, "_obj", data)  # ninja hands validators a DjangoGetter around the body
        if isinstance(data, dict):
            data = dict(data)
            for name, field in cls.model_fields.items():
                alias = field.alias or name
                if alias not in data and name not in data and field.json_schema_extra is _needed_schema:
                    data[alias] = None
        return data


def _needed_schema(schema: dict) -> None:
    schema.pop("default", None)  # expected from the client, even if its absence has its own message


def Needed(default: Any = "") -> Any:
    """A field that gets its own message when absent (see :class:`InSchema`)."""
    return Field(default=default, json_schema_extra=_needed_schema)


class LoginIn(InSchema):
    """POST /api/auth/login (docs/behaviour/accounts.md §2 "Sign-in")."""

    email: Annotated[str, Text, email_format("Invalid email address")] = Needed()
    password: Annotated[str, Text, required("Password is required")] = Needed()
    totp_code: Annotated[str | None, BlankToNone, TotpCode] = None
    remember_me: bool = False


class FirstTimeLoginIn(InSchema):
    """POST /api/auth/first-time-login: ``email``, and the invitation ``token`` from the link
    ``/auth/setup?token=...`` (ADR 0005). With a token the email may be left out."""

    email: Annotated[str, Text, optional_email_format("Invalid email address")] = Needed()
    token: Annotated[str, Text, max_length(128, "Invalid invitation")] = ""


class SetupPasswordIn(InSchema):
    """POST /api/auth/setup-password. Password rules and the match are checked by the service."""

    user_id: UUID
    password: Annotated[str, Text] = ""
    confirm_password: Annotated[str, Text] = ""
    totp_code: Annotated[str, Text] = ""


class ChangePasswordIn(InSchema):
    """POST or PUT /api/auth/change-password. ``confirmPassword`` is optional (the profile dialog checks it)."""

    current_password: Annotated[str, Text] = ""
    new_password: Annotated[str, Text] = ""
    confirm_password: str | None = None


class TotpCodeIn(InSchema):
    """POST /api/auth/enable-totp."""

    totp_code: Annotated[str | None, BlankToNone, required("TOTP code must be 6 digits"), TotpCode] = Needed(None)


class ReauthIn(InSchema):
    """POST /api/auth/reauthenticate: the current password, or a code of the user's authenticator."""

    password: Annotated[str, Text, max_length(1000, "Password is incorrect")] = ""
    totp_code: Annotated[str, Text, max_length(16, "Invalid authenticator code")] = ""


class ReauthOut(CamelSchema):
    message: str
    valid_until: datetime


class ProfileIn(InSchema):
    """PUT /api/auth/profile: only the names change (docs/behaviour/accounts.md §8)."""

    first_name: Annotated[str, Text, Strip, max_length(100, "First name must be at most 100 characters")] = ""
    last_name: Annotated[str, Text, Strip, max_length(100, "Last name must be at most 100 characters")] = ""


THEMES = ("light", "dark", "system")
DATE_FORMATS = ("DD/MM/YYYY", "MM/DD/YYYY", "YYYY-MM-DD")
TIME_FORMATS = ("12h", "24h")
TIMEZONES = ("Australia/Melbourne", "Australia/Sydney", "Australia/Perth", "Australia/Adelaide")
LANGUAGE_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")

DEFAULT_PREFERENCES = {
    "dateFormat": "DD/MM/YYYY",
    "timeFormat": "24h",
    "timezone": "Australia/Melbourne",
    "language": "en",
    "compactView": False,
}
DEFAULT_THEME = "system"


def _language(value: str | None) -> str | None:
    if value is not None and (len(value) > 35 or not LANGUAGE_RE.match(value)):
        raise ValueError("Language must be a language code such as en")
    return value


class PreferencesIn(InSchema):
    """User preferences (docs/behaviour/accounts.md §8 "User settings"); absent fields keep their saved or default value."""

    date_format: Annotated[str | None, one_of(DATE_FORMATS, "Date format must be DD/MM/YYYY, MM/DD/YYYY or YYYY-MM-DD")] = None
    time_format: Annotated[str | None, one_of(TIME_FORMATS, "Time format must be 12h or 24h")] = None
    timezone: Annotated[str | None, one_of(TIMEZONES, "Timezone must be one of " + ", ".join(TIMEZONES))] = None
    language: Annotated[str | None, AfterValidator(_language)] = None
    compact_view: bool | None = None


class SettingsIn(InSchema):
    """PUT /api/auth/settings."""

    theme: Annotated[str | None, one_of(THEMES, "Theme must be light, dark or system")] = None
    preferences: PreferencesIn | None = None


class OrganizationIn(InSchema):
    """PUT /api/organization (docs/behaviour/accounts.md §9 "Organization form")."""

    name: Annotated[
        str,
        Text,
        Strip,
        required("Organization name is required"),
        max_length(255, "Organization name must be at most 255 characters"),
    ] = Needed()
    domain: Annotated[
        str, Text, Strip, required("Domain is required"), max_length(255, "Domain must be at most 255 characters")
    ] = Needed()
    address: Annotated[str, Text, Strip] = ""
    phone: Annotated[str, Text, Strip, max_length(50, "Phone must be at most 50 characters")] = ""
    website: Annotated[str, Text, Strip, max_length(255, "Website must be at most 255 characters")] = ""


class AddUserIn(InSchema):
    """POST /api/admin/users (docs/behaviour/accounts.md §9 "Add user")."""

    first_name: Annotated[
        str, Text, Strip, required("First name is required"), max_length(100, "First name must be at most 100 characters")
    ] = Needed()
    last_name: Annotated[
        str, Text, Strip, required("Last name is required"), max_length(100, "Last name must be at most 100 characters")
    ] = Needed()
    email: Annotated[str, Text, email_format("Please enter a valid email address")] = Needed()
    role: Annotated[str, Text, one_of(("admin", "user"), "Role must be admin or user")] = "user"


class PasskeyRegisterCompleteIn(InSchema):
    """POST /api/auth/passkeys/register/complete: the browser's registration result and a device name."""

    response: dict[str, Any]
    device_name: Annotated[str | None, BlankToNone, Strip, max_length(100, "Device name must be at most 100 characters")] = None


class PasskeyAuthenticateCompleteIn(InSchema):
    """POST /api/auth/passkeys/authenticate/complete: the browser's assertion."""

    response: dict[str, Any]


# ---------------------------------------------------------------------------------------------- answers


class UserOut(CamelSchema):
    """A user as every call answers it; never the password hash nor the TOTP secret."""

    id: UUID
    email: str
    first_name: str
    last_name: str
    organization_id: UUID | None
    organization_name: str | None = None
    role: str
    is_active: bool
    must_change_password: bool
    is_totp_enabled: bool
    last_login: datetime | None
    settings: dict | None = None
    created_at: datetime
    updated_at: datetime
    setup_pending: bool = False  # added by an admin and not claimed yet (an invitation can be re-issued)

    @staticmethod
    def resolve_organization_name(obj: User) -> str | None:
        org = getattr(obj, "organization", None)
        return org.name if org is not None else None

    @staticmethod
    def resolve_setup_pending(obj: User) -> bool:
        has_usable = getattr(obj, "has_usable_password", None)
        return bool(has_usable is not None and not has_usable())


class AddedUserOut(UserOut):
    """POST /api/admin/users: the new user and their invitation link (ADR 0005)."""

    invitation_link: str
    invitation_expires_at: datetime


class UserEnvelopeOut(CamelSchema):
    user: UserOut


class LoginOut(CamelSchema):
    user: UserOut | None = None
    requires_totp: bool = False
    requires_setup: bool = False
    user_id: str | None = None


class FirstTimeLoginOut(CamelSchema):
    requires_setup: bool
    user_id: str | None = None
    has_password: bool
    message: str
    email: str | None = None  # the invited user's email, answered to a valid invitation token
    # For an invitee whose domain requires single sign-on (docs/adr/0024): no setup, sign in with this.
    sso_provider_name: str | None = None
    sso_start_url: str | None = None


class LogoutOut(CamelSchema):
    """POST /api/auth/logout. ``providerLogoutUrl``: go there to sign out at the identity provider too
    (a single sign-on session whose provider offers it, docs/adr/0024); null otherwise."""

    message: str
    provider_logout_url: str | None = None


class InvitationOut(CamelSchema):
    """An invitation link as the admin sees it once (ADR 0005); ``expiresAt`` in UTC."""

    invitation_link: str
    invitation_expires_at: datetime


class TotpSetupOut(CamelSchema):
    qr_code_uri: str
    manual_entry_key: str


class MessageUserOut(CamelSchema):
    message: str
    user: UserOut


class PasskeyOut(CamelSchema):
    id: UUID
    device_name: str
    created_at: datetime
    last_used: datetime | None = None


class PasskeyVerifiedOut(CamelSchema):
    verified: bool
    user: UserOut


class PreferencesOut(CamelSchema):
    date_format: str
    time_format: str
    timezone: str
    language: str
    compact_view: bool


class SettingsOut(CamelSchema):
    theme: str
    preferences: PreferencesOut
    updated_at: datetime


class OrganizationOut(CamelSchema):
    id: UUID
    name: str
    domain: str
    is_active: bool
    address: str
    phone: str
    website: str
    timezone: str
    created_at: datetime
    updated_at: datetime
