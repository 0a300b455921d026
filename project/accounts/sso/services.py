"""Writes of single sign-on (docs/adr/0022): an organization's provider configuration, and
the sign-in by OpenID Connect (authorization code flow with PKCE, ``state`` and ``nonce``, through
Authlib: :mod:`project.accounts.sso.client`).

A sign-in is two requests of the same browser:

1. :func:`sso_sign_in_start` (``GET /api/auth/sso/start?email=``): the email's domain picks the provider;
   Authlib stores state, nonce and PKCE verifier in the session and we store beside them which provider
   and where to go after; the browser goes to the provider with ``login_hint`` (and ``prompt=none`` for
   the silent re-check).
2. :func:`sso_sign_in_complete` (``GET /api/auth/sso/callback``): the state must be one this session
   started; the code is exchanged and the ID token checked; the email must be verified (when the
   provider says), in one of the provider's domains and belong to a user of the provider's organization
   (or, with "create accounts for new staff", becomes one); then Django's login, marked as single
   sign-on for at most ``SSO_SESSION_HOURS`` (12): after that the session is over and the SPA re-checks
   silently with the provider (``prompt=none``), which refuses a user disabled there.

Every refusal is a :class:`SignInRefused` with a code; the API turns it into a redirect to
``/auth?ssoError=<code>`` where the sign-in page shows :data:`MESSAGES`.
"""

from __future__ import annotations

import logging
import re
import time
from contextlib import AbstractContextManager
from typing import Any

import requests
from authlib.common.errors import AuthlibBaseError
from authlib.integrations.base_client import OAuthError
from django.conf import settings
from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from joserfc.errors import JoseError

from project.accounts import invitations
from project.accounts.credentials import MODEL_BACKEND, PENDING_SETUP, _locked_user
from project.accounts.models import Organization, SingleSignOnDomain, SingleSignOnProvider, SingleSignOnSession, User
from project.accounts.sso import client, dns, secrets, selectors
from project.core.changes import Action, Change, org_change
from project.core.concurrency import assert_fresh
from project.core.errors import DuplicateCode, NotFound, ValidationFailed
from project.core.sockets import close_session_sockets
from project.core.tenancy import Ctx

log = logging.getLogger(__name__)

SESSION_FLOWS = "sso_flows"  # {state: {provider, next, silent, email, at}} of the flows this session started
SESSION_MARK = "sso"  # {provider, name, at} on a session signed in by single sign-on
SILENT_ERRORS = {"login_required", "interaction_required", "consent_required", "account_selection_required"}

MESSAGES = {
    "not_configured": "Single sign-on is not set up for this email address.",
    "unavailable": "The identity provider could not be reached. Please try again, or ask your administrator.",
    "state": "The sign-in could not be matched to this browser. Please start again from the sign-in page.",
    "provider": "The identity provider did not sign you in.",
    "token": "The identity provider's answer could not be verified, so you were not signed in.",
    "no_email": "The identity provider did not give an email address.",
    "unverified": "Your email address is not verified with your identity provider.",
    "domain": "Your email address is not in a domain your organization's single sign-on covers.",
    "unknown_user": "There is no Blockplan account for your email address. Ask your administrator to add you.",
    "inactive": "Your Blockplan account is deactivated. Ask your administrator.",
    "recheck": "Your single sign-on session has ended. Please sign in again.",
    "reauth": "The identity provider did not confirm it was you. Please try again.",
}


class SignInRefused(Exception):
    """A single sign-on that did not sign anyone in; ``code`` is a key of :data:`MESSAGES`."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
        # Where the browser goes with the message: the sign-in page, or for a signed-in user confirming a
        # change, back to the page they came from.
        self.page = "/auth"


# ------------------------------------------------------------------------------------------ configuration


def provider_save(*, ctx: Ctx, data: dict[str, Any], if_match: str | None = None) -> SingleSignOnProvider:
    """PUT /api/organization/sso (admin): create or replace the organization's provider.

    ``data``: name, issuerUrl, clientId, clientSecret (blank keeps the stored one; required the first
    time), domains (list of email domains), mode ('optional' | 'required'), breakGlassUserId (an active
    admin of the organization; required in required mode), createAccounts, enabled.
    400 ``validation_error`` with every problem at once; 409 ``duplicate_code`` at ``domains`` for a domain
    another organization's provider covers; 412 on a stale If-Match. The secret is stored encrypted and
    never answered.
    """
    errors: list[dict] = []
    name = (data.get("name") or "").strip()
    issuer = (data.get("issuer_url") or "").strip()
    client_id = (data.get("client_id") or "").strip()
    secret = data.get("client_secret") or ""
    mode = data.get("mode") or SingleSignOnProvider.Mode.OPTIONAL
    domains = _clean_domains(data.get("domains") or [], errors)
    if not name:
        errors.append({"path": ["name"], "message": "Provider name is required"})
    problem = client.issuer_url_problem(issuer)
    if problem:
        errors.append({"path": ["issuerUrl"], "message": problem})
    if not client_id:
        errors.append({"path": ["clientId"], "message": "Client ID is required"})
    if not domains and not any(e["path"] == ["domains"] for e in errors):
        errors.append({"path": ["domains"], "message": "Add at least one email domain"})
    glass = None
    glass_id = data.get("break_glass_user_id")
    if glass_id:
        glass = User.objects.filter(pk=glass_id, organization=ctx.org, is_active=True, role=User.Role.ADMIN).first()
        if glass is None:
            errors.append({"path": ["breakGlassUserId"], "message": "Choose an active administrator of this organization"})
    elif mode == SingleSignOnProvider.Mode.REQUIRED:
        errors.append(
            {"path": ["breakGlassUserId"], "message": "Name a break-glass administrator who can still sign in with a password"}
        )
    with transaction.atomic():
        provider = SingleSignOnProvider.objects.for_org(ctx.org).select_for_update().first()
        if provider is not None:
            assert_fresh(provider, if_match)
        if provider is None and not secret:
            errors.append({"path": ["clientSecret"], "message": "Client secret is required"})
        if errors:
            raise ValidationFailed(errors)
        taken = _verified_elsewhere(ctx.org, domains)
        if taken:
            raise DuplicateCode(f"{taken[0]} is verified by another organization", field="domains")
        created = provider is None
        if created:
            provider = SingleSignOnProvider(organization=ctx.org)
        provider.name = name
        provider.issuer_url = issuer
        provider.client_id = client_id
        if secret:
            provider.client_secret_encrypted = secrets.encrypt(secret)
        provider.mode = mode
        provider.break_glass_user = glass
        provider.create_accounts = bool(data.get("create_accounts"))
        provider.enabled = bool(data.get("enabled", True))
        with org_change(
            ctx, "organization", "updated", ids=[ctx.org.pk], summary=_summary(ctx, "set up" if created else "changed")
        ):
            try:
                with transaction.atomic():
                    provider.save()
                    provider.domains.exclude(domain__in=domains).delete()
                    existing = set(provider.domains.values_list("domain", flat=True))
                    own = ctx.org.operator_domain.lower()
                    SingleSignOnDomain.objects.bulk_create(
                        [
                            SingleSignOnDomain(provider=provider, domain=d, verified_at=timezone.now() if d == own else None)
                            for d in domains
                            if d not in existing
                        ]
                    )
            except IntegrityError:  # another organization verified one of the domains in the meantime
                raise DuplicateCode("One of these domains is verified by another organization", field="domains") from None
    client.forget(provider.pk)
    return provider


def _verified_elsewhere(org: Organization, domains: list[str]) -> list[str]:
    """The ``domains`` another organization owns: verified by its single sign-on, the domain its operator
    gave at create_organization, or its domain now. Sorted. Says nothing about which organization."""
    taken = set(
        SingleSignOnDomain.objects.filter(domain__in=domains, verified_at__isnull=False)
        .exclude(provider__organization=org)
        .values_list("domain", flat=True)
    )
    others = Organization.objects.exclude(pk=org.pk)
    taken |= set(others.filter(domain__in=domains).values_list("domain", flat=True))
    taken |= set(others.filter(operator_domain__in=domains).values_list("operator_domain", flat=True))
    return sorted(taken)


def domain_verify(*, ctx: Ctx, domain: str) -> SingleSignOnDomain:
    """POST /api/organization/sso/domains/verify (admin): look up ``domain``'s TXT records and mark it
    verified when one is ``blockplan-domain-verification=<its token>`` (docs/adr/0024).

    404 when the organization's provider does not list the domain; 409 ``duplicate_code`` at ``domain``
    when another organization has it verified (nothing said about which); 400 ``validation_error`` at
    ``domain`` when the record is not (yet) there or DNS does not answer. Already verified: answered as is.
    """
    name = (domain or "").strip().lower().lstrip("@")
    provider = SingleSignOnProvider.objects.for_org(ctx.org).first()
    row = provider.domains.filter(domain=name).first() if provider is not None else None
    if row is None:
        raise NotFound("Domain not found")
    if row.verified_at is not None:
        return row
    if _verified_elsewhere(ctx.org, [name]):
        raise DuplicateCode(f"{name} is verified by another organization", field="domain")
    try:
        found = row.txt_record in dns.txt_records(name)
    except dns.LookupFailed:
        raise ValidationFailed(
            [{"path": ["domain"], "message": f"The DNS servers of {name} did not answer. Please try again later."}]
        ) from None
    if not found:
        raise ValidationFailed(
            [
                {
                    "path": ["domain"],
                    "message": f"No TXT record {row.txt_record} found at {name} yet. DNS changes can take a while to appear.",
                }
            ]
        )
    with transaction.atomic():
        row = domain_get_locked(provider, name)
        if row.verified_at is None:
            with org_change(ctx, "organization", "updated", ids=[ctx.org.pk], summary=_summary(ctx, f"verified {name} for")):
                row.verified_at = timezone.now()
                try:
                    with transaction.atomic():
                        row.save(update_fields=["verified_at"])
                except IntegrityError:  # another organization verified it in the meantime
                    raise DuplicateCode(f"{name} is verified by another organization", field="domain") from None
    client.forget(provider.pk)
    return row


def domain_get_locked(provider: SingleSignOnProvider, name: str) -> SingleSignOnDomain:
    """The provider's row for ``name``, locked for update. NotFound when it was removed meanwhile."""
    row = provider.domains.select_for_update().filter(domain=name).first()
    if row is None:
        raise NotFound("Domain not found")
    return row


def provider_delete(*, ctx: Ctx) -> None:
    """DELETE /api/organization/sso (admin): remove the provider; its users sign in with passwords again
    (those without one use their invitation or ask an admin). NotFound when none is set up."""
    with transaction.atomic():
        provider = SingleSignOnProvider.objects.for_org(ctx.org).select_for_update().first()
        if provider is None:
            raise NotFound("Single sign-on is not set up")
        with org_change(ctx, "organization", "updated", ids=[ctx.org.pk], summary=_summary(ctx, "removed")):
            provider.delete()
    client.forget(provider.pk)


def _summary(ctx: Ctx, verb: str) -> str:
    user = ctx.user
    who = (user.full_name or user.email) if user is not None else "system"
    return f"{who} {verb} single sign-on"


def _clean_domains(values: list[str], errors: list[dict]) -> list[str]:
    cleaned: list[str] = []
    for raw in values:
        domain = (raw or "").strip().lower().lstrip("@")
        if not re.fullmatch(r"(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}", domain):
            errors.append({"path": ["domains"], "message": f"{raw!s} is not an email domain such as tafe.vic.edu.au"})
            continue
        if domain not in cleaned:
            cleaned.append(domain)
    if len(cleaned) > 20:
        errors.append({"path": ["domains"], "message": "At most 20 domains"})
    return cleaned


# ------------------------------------------------------------------------------------------ sign-in


def callback_url(request: HttpRequest) -> str:
    """The redirect URI to register at the provider: ``<this site>/api/auth/sso/callback``."""
    return request.build_absolute_uri("/api/auth/sso/callback")


def _safe_next(value: str | None) -> str:
    """A path on this site to go to after signing in ("/" for anything else: no open redirect)."""
    value = value or "/"
    if not value.startswith("/") or value.startswith("//") or "\\" in value or value.startswith("/api/"):
        return "/"
    return value[:500]


def sso_sign_in_start(
    *, request: HttpRequest, email: str, next_path: str | None = None, silent: bool = False, reauth_user: User | None = None
) -> str:
    """The provider's authorization URL for ``email`` (GET /api/auth/sso/start).

    Stores the flow in the session (state, nonce and PKCE verifier by Authlib; provider, next path and
    silent flag by us; at most 5 flows at once). ``silent``: ``prompt=none``, for the re-check of an
    expired single sign-on session. ``reauth_user``: the signed-in user confirming their identity for a
    sensitive change (ADR 0006) with the provider instead of a password: ``prompt=login`` and
    ``max_age=0`` (the provider asks again), and the callback confirms this session instead of signing in.
    Raises SignInRefused 'not_configured' or 'unavailable'.
    """
    if reauth_user is not None:
        email = reauth_user.email
    provider = selectors.provider_get_for_email(email)
    if provider is None:
        raise SignInRefused("not_configured")
    try:
        app = client.app_for(provider)
        extra = {"login_hint": email.strip().lower()}
        if silent:
            extra["prompt"] = "none"
        if reauth_user is not None:
            extra.update(prompt="login", max_age="0")
        redirect_uri = callback_url(request)
        authorization = app.create_authorization_url(redirect_uri, **extra)
    except (client.ProviderUnavailable, requests.RequestException, ValueError, KeyError, RuntimeError) as err:
        log.warning("sso.start_failed", extra={"provider": str(provider.pk), "error": type(err).__name__})
        raise SignInRefused("unavailable", type(err).__name__) from None
    app.save_authorize_data(request, redirect_uri=redirect_uri, **authorization)
    flows = dict(list(request.session.get(SESSION_FLOWS, {}).items())[-4:])
    flows[authorization["state"]] = {
        "provider": str(provider.pk),
        "next": _safe_next(next_path),
        "silent": silent,
        "email": email.strip().lower(),
        "reauth": str(reauth_user.pk) if reauth_user is not None else None,
        "at": time.time(),
    }
    request.session[SESSION_FLOWS] = flows
    return authorization["url"]


def sso_sign_in_complete(*, request: HttpRequest) -> tuple[User, str]:
    """The callback (GET /api/auth/sso/callback?code=&state=): sign the user in; answers the user and the
    path to go to. Raises SignInRefused (code in MESSAGES) for anything short of a verified sign-in."""
    state = request.GET.get("state") or ""
    flows = request.session.get(SESSION_FLOWS, {})
    flow = flows.pop(state, None) if state else None
    request.session[SESSION_FLOWS] = flows
    if flow is None:
        raise SignInRefused("state")
    try:
        return _complete(request, flow)
    except SignInRefused as refused:
        if flow.get("reauth"):
            refused.code, refused.page = "reauth", flow.get("next") or "/"
        raise


def _complete(request: HttpRequest, flow: dict) -> tuple[User, str]:
    provider = selectors.provider_get_by_id(flow["provider"])
    if provider is None:
        raise SignInRefused("not_configured")
    error = request.GET.get("error")
    if error:
        if flow.get("silent") and error in SILENT_ERRORS:
            raise SignInRefused("recheck", error)
        raise SignInRefused("provider", error[:100])
    try:
        app = client.app_for(provider)
        metadata = app.load_server_metadata()
        # Authlib checks the audience only when told to (without it a token for another client passes when
        # it names us as ``azp``): OpenID Connect Core 3.1.3.7 wants our client id in ``aud``.
        claims_options = {
            "iss": {"essential": True, "values": [metadata["issuer"]]},
            "aud": {"essential": True, "values": [provider.client_id]},
        }
        token = app.authorize_access_token(request, claims_options=claims_options)
    except client.ProviderUnavailable as err:
        raise SignInRefused("unavailable", str(err)) from None
    except (OAuthError, AuthlibBaseError, JoseError, requests.RequestException, ValueError, KeyError, TypeError) as err:
        raise SignInRefused("token", type(err).__name__) from None
    claims = token.get("userinfo")
    if not claims:  # no ID token: OpenID Connect was not done
        raise SignInRefused("token", "no id_token")
    if not client.same_issuer(str(metadata.get("issuer", "")), provider.issuer_url):
        raise SignInRefused("token", "issuer differs from the configured issuer")
    claims = _with_userinfo(app, metadata, token, dict(claims))
    email = str(claims.get("email") or "").strip().lower()
    if not email:
        raise SignInRefused("no_email")
    if claims.get("email_verified") is False or str(claims.get("email_verified")).lower() == "false":
        raise SignInRefused("unverified")
    if selectors.email_domain(email) not in set(
        provider.domains.filter(verified_at__isnull=False).values_list("domain", flat=True)
    ):
        raise SignInRefused("domain")
    if flow.get("reauth"):
        return _confirm_identity(request, flow, email), flow.get("next") or "/"
    user = _account_for(provider, email, claims)
    if flow.get("silent") and flow.get("email") != email:
        raise SignInRefused("recheck", "another user at the provider")
    _sign_in(request, user, provider, claims, str(token.get("id_token") or ""))
    return user, flow.get("next") or "/"


def _with_userinfo(app: Any, metadata: dict, token: dict, claims: dict) -> dict:
    """The ID token's claims, completed from the userinfo endpoint (OpenID Connect Core 5.3) when they lack
    ``email`` or ``email_verified`` and the provider has one: a provider may give the email only there.
    The userinfo answer counts only for the same ``sub`` (Core 5.3.2); what the ID token says wins.
    SignInRefused 'unavailable' when userinfo cannot be read, 'token' for another subject."""
    if ("email" in claims and "email_verified" in claims) or not metadata.get("userinfo_endpoint"):
        return claims
    try:
        info = app.userinfo(token=token)
    except (OAuthError, AuthlibBaseError, requests.RequestException, ValueError) as err:
        raise SignInRefused("unavailable", f"userinfo: {type(err).__name__}") from None
    if not isinstance(info, dict) or str(info.get("sub") or "") != str(claims.get("sub") or ""):
        raise SignInRefused("token", "userinfo is about another subject")
    for name in ("email", "email_verified", "given_name", "family_name"):
        if name not in claims and name in info:
            claims[name] = info[name]
    return claims


def _confirm_identity(request: HttpRequest, flow: dict, email: str) -> User:
    """The provider signed in again the user of this session: the session is confirmed for sensitive
    changes for 5 minutes (ADR 0006), as the password would. SignInRefused 'reauth' when the provider
    signed in someone else or this browser's session is no longer that user's."""
    from project.accounts.reauth import REAUTH_AT

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or str(user.pk) != flow["reauth"] or user.email != email:
        raise SignInRefused("reauth")
    request.session[REAUTH_AT] = time.time()
    return user


def _account_for(provider: SingleSignOnProvider, email: str, claims: dict) -> User:
    """The user of ``provider``'s organization with ``email``; created (role user) when the admin turned
    on "create accounts for new staff". SignInRefused 'unknown_user' or 'inactive'."""
    org = provider.organization
    user = User.objects.select_related("organization").filter(email=email).first()
    if user is None:
        if not provider.create_accounts:
            raise SignInRefused("unknown_user")
        with transaction.atomic():
            try:
                user = User.objects.create_user(
                    email,
                    organization=org,
                    role=User.Role.USER,
                    first_name=str(claims.get("given_name") or "")[:100],
                    last_name=str(claims.get("family_name") or "")[:100],
                    must_change_password=False,
                )
            except IntegrityError:  # the same person's second tab won the race
                raise SignInRefused("unknown_user") from None
            # The account is the actor of its own creation: it exists before its change is recorded.
            with _sso_change(org, user, "created", f"{email} was added by single sign-on ({provider.name})"):
                pass
        return user
    if user.organization_id != org.pk:
        raise SignInRefused("unknown_user")  # the same answer as no account: nothing said about others
    if not user.is_active:
        raise SignInRefused("inactive")
    return user


def _sso_change(org: Organization, user: User, action: Action, summary: str) -> AbstractContextManager[Change]:
    """The write unit of a change to the user's account, acted by the user (origin ``sso``)."""
    return org_change(Ctx(org=org, user=user, origin="sso"), "user", action, ids=[user.pk], summary=summary[:300])


def _sign_in(request: HttpRequest, user: User, provider: SingleSignOnProvider, claims: dict, id_token: str) -> None:
    """Django's login (new session key), marked as single sign-on and ending after SSO_SESSION_HOURS.
    Counts as strong authentication: no TOTP prompt. An invited user's pending invitation is used up,
    and no first password is asked for. Recorded in the history. The ID token is kept in the session (the
    ``id_token_hint`` of the sign-out at the provider) and the provider's ``sub``/``sid`` beside the
    session key (what a back-channel logout names)."""
    org = provider.organization
    with transaction.atomic():
        row = _locked_user(user.pk)
        with _sso_change(
            org, row, "signed_in", f"{(row.full_name or row.email)} signed in with {provider.name} (single sign-on)"
        ):
            if row.must_change_password and not row.has_usable_password():
                row.must_change_password = False
                row.save(update_fields=["must_change_password"])
            invitations.mark_used(row)
    login(request, row, backend=MODEL_BACKEND)
    request.session.pop(PENDING_SETUP, None)
    request.session[SESSION_MARK] = {
        "provider": str(provider.pk),
        "name": provider.name,
        "at": time.time(),
        "id_token": id_token if len(id_token) <= 8000 else "",
    }
    request.session.set_expiry(int(settings.SSO_SESSION_HOURS * 3600))
    if not request.session.session_key:
        request.session.save()
    SingleSignOnSession.objects.create(
        provider=provider,
        session_key=request.session.session_key or "",
        sub=str(claims.get("sub") or "")[:255],
        sid=str(claims.get("sid") or "")[:255],
    )


# ------------------------------------------------------------------------------------------ sign-out

BACKCHANNEL_EVENT = "http://schemas.openid.net/event/backchannel-logout"
LOGOUT_TOKEN_LEEWAY = 120  # seconds of clock skew accepted on iat/exp


def post_logout_url(request: HttpRequest) -> str:
    """Where the provider sends the browser after signing out there: ``<this site>/auth`` (register it as
    a post-logout redirect URI)."""
    return request.build_absolute_uri("/auth")


def backchannel_logout_url(request: HttpRequest) -> str:
    """The back-channel logout URI to register at the provider: ``<this site>/api/auth/sso/backchannel-logout``."""
    return request.build_absolute_uri("/api/auth/sso/backchannel-logout")


def provider_logout_url(request: HttpRequest) -> str | None:
    """For a session signed in by single sign-on whose provider offers an ``end_session_endpoint``: the URL
    that signs the browser out there too (OpenID Connect RP-Initiated Logout 1.0, with ``id_token_hint``,
    ``client_id`` and ``post_logout_redirect_uri``). None otherwise, or when the provider cannot be read
    (the Blockplan session ends either way). Call before the session ends."""
    mark = request.session.get(SESSION_MARK) or {}
    provider = selectors.provider_get_by_id(mark["provider"]) if mark.get("provider") else None
    if provider is None:
        return None
    try:
        app = client.app_for(provider)
        metadata = app.load_server_metadata()
        if not metadata.get("end_session_endpoint"):
            return None
        extra = {"client_id": provider.client_id}
        result = app.create_logout_url(
            post_logout_redirect_uri=post_logout_url(request), id_token_hint=mark.get("id_token") or None, **extra
        )
    except (client.ProviderUnavailable, requests.RequestException, ValueError, KeyError, RuntimeError) as err:
        log.warning("sso.logout_url_failed", extra={"provider": str(provider.pk), "error": type(err).__name__})
        return None
    return str(result["url"])


class LogoutTokenRefused(Exception):
    """A back-channel logout token that is not a valid one of a configured provider."""


def backchannel_logout_handle(*, logout_token: str) -> int:
    """POST /api/auth/sso/backchannel-logout (OpenID Connect Back-Channel Logout 1.0): verify
    ``logout_token`` as an ID token (signature by the provider's keys, ``iss`` the provider's issuer,
    ``aud`` our client id, ``iat`` within 120 s of skew, ``exp`` if present not past; plus §2.6: the
    back-channel logout event, ``sid`` or ``sub``, no ``nonce``), then end the sessions it names (``sid``:
    that provider session's; else every session of ``sub``) and close their sockets (reason ``logout``).
    Answers how many sessions ended. LogoutTokenRefused for anything else."""
    from joserfc import jwt
    from joserfc.jwk import KeySet

    issuer, audiences = _unverified_iss_aud(logout_token)
    provider = selectors.provider_get_for_client(issuer, audiences)
    if provider is None:
        raise LogoutTokenRefused("no provider for this issuer and audience")
    try:
        app = client.app_for(provider)
        metadata = app.load_server_metadata()
        algorithms = [
            a
            for a in metadata.get("id_token_signing_alg_values_supported") or ["RS256"]
            if a != "none" and not a.startswith("HS")
        ]
        keys = app.fetch_jwk_set()
        if _kid(logout_token) not in {k.get("kid") for k in keys.get("keys", []) if isinstance(k, dict)}:
            # A key we do not know yet: read the keys again, once. (Only then: a token that merely fails its
            # signature never makes us fetch from the provider again.)
            keys = app.fetch_jwk_set(force=True)
        token = jwt.decode(logout_token, KeySet.import_key_set(keys), algorithms=algorithms)
        jwt.JWTClaimsRegistry(
            leeway=LOGOUT_TOKEN_LEEWAY,
            iss={"essential": True, "value": metadata["issuer"]},
            aud={"essential": True, "value": provider.client_id},
            iat={"essential": True},
        ).validate(token.claims)
    except (client.ProviderUnavailable, requests.RequestException, JoseError, ValueError, KeyError, TypeError) as err:
        raise LogoutTokenRefused(type(err).__name__) from None
    claims = token.claims
    events = claims.get("events")
    if not isinstance(events, dict) or BACKCHANNEL_EVENT not in events or "nonce" in claims:
        raise LogoutTokenRefused("not a logout token")
    sub, sid = str(claims.get("sub") or ""), str(claims.get("sid") or "")
    if not sub and not sid:
        raise LogoutTokenRefused("neither sub nor sid")
    return _end_sso_sessions(provider, sub=sub, sid=sid)


def _kid(token: str) -> str | None:
    """The ``kid`` of a JWS compact token's header (None when it has none or is not one)."""
    from joserfc import jws

    try:
        kid = jws.extract_compact(token.encode("ascii")).headers().get("kid")
    except (JoseError, ValueError, TypeError, UnicodeError):
        return None
    return str(kid) if kid is not None else None


def _unverified_iss_aud(token: str) -> tuple[str, list[str]]:
    """``iss`` and ``aud`` of a JWS compact token before its signature is checked (joserfc's
    ``extract_compact``): only to choose whose keys check it."""
    import json

    from joserfc import jws

    try:
        claims = json.loads(jws.extract_compact(token.encode("ascii")).payload)
    except (JoseError, ValueError, TypeError, UnicodeError):
        raise LogoutTokenRefused("not a JWT") from None
    if not isinstance(claims, dict):
        raise LogoutTokenRefused("not a JWT")
    aud = claims.get("aud")
    audiences = [str(a) for a in aud] if isinstance(aud, list) else [str(aud or "")]
    return str(claims.get("iss") or ""), audiences


def _end_sso_sessions(provider: SingleSignOnProvider, *, sub: str, sid: str) -> int:
    """Delete the Django sessions a back-channel logout names and close their sockets (after commit)."""
    from django.contrib.sessions.models import Session

    rows = provider.sessions.all()
    rows = rows.filter(sid=sid) if sid else rows.filter(sub=sub)
    if sid and sub:  # a session recorded without a sid (the ID token had none) is found by its sub
        rows = provider.sessions.filter(sid=sid) | provider.sessions.filter(sid="", sub=sub)
    keys = list(rows.values_list("session_key", flat=True))
    with transaction.atomic():
        Session.objects.filter(session_key__in=keys).delete()
        provider.sessions.filter(session_key__in=keys).delete()
        for key in keys:
            close_session_sockets(key, "logout")
    log.info("sso.backchannel_logout_handle", extra={"provider": str(provider.pk), "sessions": len(keys)})
    return len(keys)
