"""Schemas of the single sign-on API (ADR 0022). The client secret is write-only: no answer has it."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

from pydantic import Field

from project.accounts.models import User
from project.core.refs import OrgRef
from project.core.schemas import CamelSchema, FormIn


class SsoDiscoverIn(FormIn):
    email: str = Field(default="", max_length=255)


class SsoDiscoverOut(CamelSchema):
    """``sso`` true when the email's domain signs in with an identity provider; then the button's
    ``providerName``, the ``startUrl`` to navigate to, and ``required`` (password sign-in refused)."""

    sso: bool
    provider_name: str | None = None
    start_url: str | None = None
    required: bool = False


class SsoConfigIn(FormIn):
    name: str = Field(default="", max_length=100)
    issuer_url: str = Field(default="", max_length=500)
    client_id: str = Field(default="", max_length=255)
    client_secret: str | None = Field(default=None, max_length=2000)  # blank keeps the stored secret
    domains: list[str] = Field(default_factory=list, max_length=50)
    mode: Literal["optional", "required"] = "optional"
    break_glass_user_id: Annotated[UUID | None, OrgRef(User, "User")] = None
    create_accounts: bool = False
    enabled: bool = True


class SsoDomainOut(CamelSchema):
    """A listed domain: ``verified`` once its TXT record was found (or it is the organization's own
    domain); until then the record to publish: a TXT record at ``recordName`` with text ``recordValue``."""

    domain: str
    verified: bool
    verified_at: datetime | None = None
    record_name: str
    record_value: str


class SsoDomainVerifyIn(FormIn):
    domain: str = Field(default="", max_length=255)


class SsoConfigOut(CamelSchema):
    """The organization's provider. ``configured`` false (and the rest empty) until one is saved.
    ``redirectUri``: what to register at the provider. ``hasClientSecret`` only says one is stored."""

    configured: bool
    name: str = ""
    issuer_url: str = ""
    client_id: str = ""
    has_client_secret: bool = False
    domains: list[str] = []
    domain_states: list[SsoDomainOut] = []
    mode: str = "optional"
    break_glass_user_id: UUID | None = None
    create_accounts: bool = False
    enabled: bool = False
    redirect_uri: str
    post_logout_redirect_uri: str = ""  # register as the post-logout redirect URI (RP-initiated logout)
    backchannel_logout_uri: str = ""  # register as the back-channel logout URI
    updated_at: datetime | None = None


class SsoTestIn(FormIn):
    issuer_url: str = Field(default="", max_length=500)


class SsoTestOut(CamelSchema):
    """What "Test connection" found at the issuer's discovery document."""

    ok: bool
    message: str
    issuer: str | None = None
    authorization_endpoint: str | None = None
    token_endpoint: str | None = None
    userinfo_endpoint: str | None = None
    jwks_uri: str | None = None
    signing_key_count: int = 0
    scopes_supported: list[str] = []
