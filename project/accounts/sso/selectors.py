"""Reads of single sign-on (ADR 0022): a domain's provider across organizations (the sign-in page knows
only the email), and an organization's own configuration."""

from __future__ import annotations

from project.accounts.models import SingleSignOnDomain, SingleSignOnProvider
from project.core.tenancy import Ctx


def email_domain(email: str) -> str:
    """The lower-case domain of ``email`` ("" when there is none)."""
    _, at, domain = (email or "").strip().lower().rpartition("@")
    return domain if at else ""


def provider_get_for_email(email: str) -> SingleSignOnProvider | None:
    """The enabled provider of an active organization covering ``email``'s domain, or None. One query.

    Across organizations on purpose: before sign-in only the email is known. Only a verified domain counts
    (docs/adr/0024), and a domain is verified by at most one organization (a partial unique constraint), so
    no other organization's configuration can answer.
    """
    domain = email_domain(email)
    if not domain:
        return None
    row = (
        SingleSignOnDomain.objects.select_related("provider__organization", "provider__break_glass_user")
        .filter(domain=domain, verified_at__isnull=False, provider__enabled=True, provider__organization__is_active=True)
        .first()
    )
    return row.provider if row is not None else None


def provider_get_by_id(provider_id: str) -> SingleSignOnProvider | None:
    """An enabled provider by id (the one a sign-in in progress started with), with its organization."""
    return (
        SingleSignOnProvider.objects.unscoped()
        .select_related("organization")
        .filter(pk=provider_id, enabled=True, organization__is_active=True)
        .first()
    )


def provider_get(ctx: Ctx) -> SingleSignOnProvider | None:
    """The organization's provider (enabled or not) with its domains, or None."""
    return SingleSignOnProvider.objects.for_org(ctx.org).select_related("break_glass_user").prefetch_related("domains").first()


def domain_list(provider: SingleSignOnProvider) -> list[str]:
    """Every domain the provider lists, verified or not, sorted."""
    return sorted(d.domain for d in provider.domains.all())


def domain_state_list(provider: SingleSignOnProvider) -> list[dict[str, object]]:
    """Each listed domain with its verification state and the TXT record that verifies it:
    ``{domain, verified, verified_at, record_name, record_value}``, sorted by domain."""
    return [
        {
            "domain": d.domain,
            "verified": d.verified_at is not None,
            "verified_at": d.verified_at,
            "record_name": d.domain,
            "record_value": d.txt_record,
        }
        for d in sorted(provider.domains.all(), key=lambda d: d.domain)
    ]


def provider_get_if_required(email: str) -> SingleSignOnProvider | None:
    """The provider when password and passkey sign-in are refused for ``email``: its domain's provider is
    in required mode and ``email`` is not its break-glass admin. Else None."""
    provider = provider_get_for_email(email)
    if provider is None or provider.mode != SingleSignOnProvider.Mode.REQUIRED:
        return None
    glass = provider.break_glass_user
    if glass is not None and glass.email == (email or "").strip().lower():
        return None
    return provider


def provider_get_for_client(issuer: str, client_ids: list[str]) -> SingleSignOnProvider | None:
    """The enabled provider whose client id is one of ``client_ids`` and whose issuer URL is ``issuer``
    (forgiving a trailing slash), or None: whose keys check a back-channel logout token (docs/adr/0024).
    Across organizations on purpose: the provider, not a signed-in user, calls."""
    rows = (
        SingleSignOnProvider.objects.unscoped()
        .select_related("organization")
        .filter(client_id__in=[c for c in client_ids if c][:10], enabled=True, organization__is_active=True)
    )
    wanted = issuer.rstrip("/")
    return next((p for p in rows if p.issuer_url.rstrip("/") == wanted), None)
