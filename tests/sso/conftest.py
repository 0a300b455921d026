"""Fixtures of the single sign-on tests (issue 21): ``oidc_provider``, one real OpenID provider
(tests/sso/provider.py, Node's ``oidc-provider``) started once for the whole test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.sso.dns_server import DnsServer
from tests.sso.provider import OidcProvider


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
