"""The OpenID Connect relying party, per organization, on Authlib (docs/adr/0022).

Authlib's Django client does the protocol: the authorization URL with ``state``, ``nonce`` and PKCE
(S256), the state kept in the Django session, the code exchange, and the ID token's signature (the
provider's JWKS, refetched once on an unknown ``kid``) and claims (issuer from discovery, audience =
our client id, expiry and issued-at with 120 s leeway, nonce). Blockplan adds only what is ours: one
client per organization's provider, built from its stored configuration, and the discovery check of
"Test connection".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from authlib.integrations.django_client import DjangoIntegration, DjangoOAuth2App
from authlib.integrations.requests_client import OAuth2Session
from django.conf import settings

from project.accounts.models import SingleSignOnProvider
from project.accounts.sso import secrets
from project.core import outbound

SCOPES = "openid email profile"
HTTP_TIMEOUT = 10  # seconds, for discovery, keys and the token exchange
# Authlib keeps a flow's state in the session under "_state_<name>_<state>"; one name for every provider
# (the provider of a flow is kept beside it, see services.sso_sign_in_start).
STATE_NAMESPACE = "sso"
REQUIRED_METADATA = ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri")


class ProviderUnavailable(Exception):
    """The provider's discovery document or keys could not be read, or its secret no longer decrypts."""


def discovery_url(issuer_url: str) -> str:
    """``<issuer>/.well-known/openid-configuration`` (OpenID Connect Discovery 1.0 §4)."""
    return issuer_url.rstrip("/") + "/.well-known/openid-configuration"


def same_issuer(a: str, b: str) -> bool:
    """Issuers compared as Discovery §4.3 requires, forgiving only a trailing slash."""
    return a.rstrip("/") == b.rstrip("/")


def issuer_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be an issuer URL, or None. https only, unless ``SSO_ALLOW_HTTP_ISSUERS`` (on
    outside production, for a provider on this machine); no query or fragment; and, unless
    ``SSO_ALLOW_PRIVATE_ISSUERS`` (the same default), a host on the public internet: the server fetches
    this URL for an admin, who must not be able to make it probe the provider's own network (SSRF)."""
    parts = urlsplit(url)
    allowed = ("https", "http") if settings.SSO_ALLOW_HTTP_ISSUERS else ("https",)
    if parts.scheme not in allowed or not parts.netloc or not parts.hostname:
        return "Enter the issuer URL, starting with https://"
    if parts.query or parts.fragment:
        return "The issuer URL has no query or fragment"
    if not settings.SSO_ALLOW_PRIVATE_ISSUERS:
        try:
            outbound.check_url(url)
        except outbound.OutboundRefused:
            return "The issuer URL must be a public address of the identity provider"
    return None


class GuardedOAuth2Session(OAuth2Session):
    """Authlib's HTTP session with every request (discovery, keys, token, userinfo, and each redirect)
    through the project's outbound client (:mod:`project.core.outbound`): no internal address is fetched."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        outbound.guard(self)


class GuardedOAuth2App(DjangoOAuth2App):
    client_cls = GuardedOAuth2Session


# Built clients, per provider and configuration version: discovery and keys are fetched once per process
# and configuration (Authlib keeps them on the client), not on every sign-in.
_apps: dict[str, tuple[object, DjangoOAuth2App]] = {}


def app_for(provider: SingleSignOnProvider) -> DjangoOAuth2App:
    """Authlib's client for ``provider``. ProviderUnavailable when its secret cannot be decrypted."""
    key = str(provider.pk)
    version = (provider.updated_at, provider.issuer_url, provider.client_id, provider.client_secret_encrypted)
    cached = _apps.get(key)
    if cached is not None and cached[0] == version:
        return cached[1]
    secret = secrets.decrypt(provider.client_secret_encrypted)
    if secret is None:
        raise ProviderUnavailable("The client secret can no longer be read: save it again on the Organization page.")
    app = GuardedOAuth2App(
        DjangoIntegration(STATE_NAMESPACE),
        name=STATE_NAMESPACE,
        client_id=provider.client_id,
        client_secret=secret,
        server_metadata_url=discovery_url(provider.issuer_url),
        client_kwargs={"scope": SCOPES, "code_challenge_method": "S256", "timeout": HTTP_TIMEOUT},
    )
    _apps[key] = (version, app)
    return app


def forget(provider_id: object) -> None:
    """Drop the cached client of a provider (after its configuration changed or it was removed)."""
    _apps.pop(str(provider_id), None)


@dataclass
class DiscoveryReport:
    ok: bool
    message: str
    metadata: dict[str, Any]
    key_count: int = 0


def test_connection(issuer_url: str) -> DiscoveryReport:
    """ "Test connection": fetch the discovery document of ``issuer_url`` and its keys and say what was found.

    Never raises for the provider's faults: unreachable, not JSON, missing endpoints, an ``issuer`` other
    than the URL (a mix-up the sign-in would refuse) or no signing keys give ``ok`` False and a message.
    """
    problem = issuer_url_problem(issuer_url)
    if problem:
        return DiscoveryReport(False, problem, {})
    url = discovery_url(issuer_url)
    with outbound.session() as http:
        return _discover(http, issuer_url, url)


def _discover(http: requests.Session, issuer_url: str, url: str) -> DiscoveryReport:
    """The checks of :func:`test_connection` with the outbound session ``http``."""
    try:
        response = http.get(url, timeout=HTTP_TIMEOUT, headers={"Accept": "application/json"})
    except outbound.OutboundRefused as err:
        return DiscoveryReport(False, f"Refused to fetch {url}: {err}", {})
    except requests.RequestException as err:
        return DiscoveryReport(False, f"Could not reach {url}: {type(err).__name__}", {})
    if response.status_code != 200:
        return DiscoveryReport(False, f"{url} answered HTTP {response.status_code}", {})
    try:
        metadata = response.json()
    except ValueError:
        return DiscoveryReport(False, f"{url} did not answer a JSON discovery document", {})
    if not isinstance(metadata, dict):
        return DiscoveryReport(False, f"{url} did not answer a JSON discovery document", {})
    missing = [name for name in REQUIRED_METADATA if not metadata.get(name)]
    if missing:
        return DiscoveryReport(False, f"The discovery document lacks {', '.join(missing)}", metadata)
    if not same_issuer(str(metadata["issuer"]), issuer_url):
        return DiscoveryReport(False, f"The provider names its issuer {metadata['issuer']}: use that as the issuer URL", metadata)
    try:
        keys = http.get(str(metadata["jwks_uri"]), timeout=HTTP_TIMEOUT).json().get("keys") or []
    except outbound.OutboundRefused as err:
        return DiscoveryReport(False, f"Refused to fetch the provider's signing keys (jwks_uri): {err}", metadata)
    except (requests.RequestException, ValueError, AttributeError):
        return DiscoveryReport(False, "The provider's signing keys (jwks_uri) could not be read", metadata)
    if not keys:
        return DiscoveryReport(False, "The provider publishes no signing keys", metadata, 0)
    return DiscoveryReport(True, f"Found {metadata['issuer']} with {len(keys)} signing key(s).", metadata, len(keys))
