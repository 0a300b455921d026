"""Fixtures of the single sign-on tests (ADR 0022): ``oidc_provider``, one real OpenID provider
(tests/sso/provider.py, Node's ``oidc-provider``) started once for the whole test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.sso.dns_server import DnsServer
from tests.sso.provider import OidcProvider

SSO_CALLBACK = "http://localhost/api/auth/sso/callback"  # the test client's host (ApiClient: HTTP_HOST=localhost)


@pytest.fixture(scope="session")
def oidc_provider() -> Iterator[OidcProvider]:
    provider = OidcProvider.start()
    try:
        yield provider
    finally:
        provider.stop()


@pytest.fixture
def dns_server(settings) -> Iterator[DnsServer]:
    """A DNS server of the test's own (tests/sso/dns_server.py), the one domain verification asks."""
    with DnsServer() as server:
        settings.DOMAIN_VERIFICATION_NAMESERVER, settings.DOMAIN_VERIFICATION_PORT = "127.0.0.1", server.port
        yield server


@pytest.fixture
def idp(oidc_provider, api):
    """The provider with a client registered for our callback, and ``org`` (mp.edu.au) set up to use it."""
    client_id, client_secret = oidc_provider.register_client([SSO_CALLBACK])
    oidc_provider.set_account("mel", "member@mp.edu.au", name="Mel Member", given_name="Mel", family_name="Member")
    response = api.put(
        "/api/organization/sso",
        {
            "name": "Contoso Entra",
            "issuerUrl": oidc_provider.issuer,
            "clientId": client_id,
            "clientSecret": client_secret,
            "domains": ["mp.edu.au"],
            "mode": "optional",
            "createAccounts": False,
            "enabled": True,
        },
    )
    assert response.status_code == 200, response.content
    oidc_provider.client_id, oidc_provider.client_secret = client_id, client_secret
    return oidc_provider
