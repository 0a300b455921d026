"""Required single sign-on (ADR 0022): password and passkey sign-in refused for the provider's domains,
except for the organization's break-glass administrator."""

from __future__ import annotations

from project.accounts.sso import selectors
from project.core.errors import DomainError


class SsoRequired(DomainError):
    """403 ``sso_required``: this email signs in with its organization's identity provider only."""

    status = 403
    type = "sso_required"


def refuse_unless_allowed(email: str) -> None:
    """Raise :class:`SsoRequired` when ``email``'s domain requires single sign-on and it is not the
    break-glass administrator. The answer names the provider (the sign-in page shows it anyway)."""
    provider = selectors.provider_get_if_required(email)
    if provider is not None:
        raise SsoRequired(
            f"Your organization signs in with {provider.name}. Use \u201cSign in with {provider.name}\u201d.",
            providerName=provider.name,
        )
