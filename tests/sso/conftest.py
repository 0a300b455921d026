"""Fixtures of the single sign-on tests (issue 21): ``oidc_provider``, one real OpenID provider
(tests/sso/provider.py, Node's ``oidc-provider``) started once for the whole test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.sso.provider import OidcProvider


@pytest.fixture(scope="session")
def oidc_provider() -> Iterator[OidcProvider]:
    provider = OidcProvider.start()
    try:
        yield provider
    finally:
        provider.stop()
