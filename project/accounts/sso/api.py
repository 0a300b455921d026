"""The single sign-on API (docs/adr/0022). Thin: parse, call a service or selector, answer.

Sign-in (public): ``POST /api/auth/sso/discover``, ``GET /api/auth/sso/start``, ``GET /api/auth/sso/callback``
(browser navigations, answered with redirects). Configuration (admin): ``GET|PUT|DELETE /api/organization/sso``
and ``POST /api/organization/sso/test``.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from project.accounts.models import SingleSignOnProvider
from project.accounts.sso import client, selectors, services
from project.accounts.sso.schemas import (
    SsoConfigIn,
    SsoConfigOut,
    SsoDiscoverIn,
    SsoDiscoverOut,
    SsoDomainVerifyIn,
    SsoTestIn,
    SsoTestOut,
)
from project.core.auth import AuthedRequest, admin_auth, ctx_for_request, public_auth
from project.core.concurrency import if_match_header, set_etag
from project.core.routers import make_router
from project.core.schemas import MessageOut

router = make_router(tags=["single sign-on"])


def _refused(code: str, page: str = "/auth") -> HttpResponseRedirect:
    separator = "&" if "?" in page else "?"
    return HttpResponseRedirect(page + separator + urlencode({"ssoError": code}))


@router.post("/auth/sso/discover", response=SsoDiscoverOut, auth=public_auth)
def sso_discover(request: HttpRequest, payload: SsoDiscoverIn) -> dict[str, object]:
    """``{email}`` to ``{sso, providerName, startUrl, required}``: whether the sign-in page offers
    "Sign in with <providerName>" for this email. Only the provider of the email's own domain is named."""
    provider = selectors.provider_get_for_email(payload.email)
    if provider is None:
        return {"sso": False}
    query = urlencode({"email": payload.email.strip().lower()})
    required = selectors.provider_get_if_required(payload.email) is not None
    return {"sso": True, "provider_name": provider.name, "start_url": f"/api/auth/sso/start?{query}", "required": required}


@router.get("/auth/sso/start", auth=None, include_in_schema=False)
def sso_start(
    request: HttpRequest,
    email: str = "",
    next: str = "/",  # noqa: A002 — the query's name
    silent: bool = False,
    reauth: bool = False,
) -> HttpResponseRedirect:
    """302 to the email's identity provider (authorization code flow, PKCE, state, nonce, login_hint;
    ``silent``: prompt=none). ``reauth``: the signed-in user confirms a sensitive change with the provider
    (prompt=login) and comes back to ``next`` confirmed for 5 minutes (ADR 0006, 0022). 302 to
    ``/auth?ssoError=not_configured|unavailable|reauth`` when it cannot start."""
    reauth_user = None
    if reauth:
        ctx = ctx_for_request(request)
        if ctx is None:
            return _refused("reauth")
        reauth_user = ctx.member
    try:
        url = services.sso_sign_in_start(
            request=request, email=email[:255], next_path=next, silent=silent, reauth_user=reauth_user
        )
    except services.SignInRefused as refused:
        return _refused(refused.code)
    return HttpResponseRedirect(url)


@router.get("/auth/sso/callback", auth=None, include_in_schema=False)
def sso_callback(request: HttpRequest) -> HttpResponseRedirect:
    """The provider's redirect back: signs in and 302s to the path the sign-in started from; any refusal
    302s to ``/auth?ssoError=<code>`` (messages: ``project.accounts.sso.services.MESSAGES``)."""
    try:
        _user, next_path = services.sso_sign_in_complete(request=request)
    except services.SignInRefused as refused:
        services.log.info("sso.refused", extra={"code": refused.code, "detail": refused.detail})
        return _refused(refused.code, refused.page)
    return HttpResponseRedirect(next_path)


@router.post("/auth/sso/backchannel-logout", auth=None, include_in_schema=False)
def sso_backchannel_logout(request: HttpRequest) -> HttpResponse:
    """OpenID Connect Back-Channel Logout 1.0, called by the provider (no cookies, no CSRF token): the form
    field ``logout_token`` verified like an ID token ends the sessions it names and closes their sockets.
    200 with an empty body; 400 ``{"error": "invalid_request"}`` for a token that is not a valid one of a
    configured provider (§2.8). Never cached."""
    token = request.POST.get("logout_token") or ""
    try:
        if not token or len(token) > 16_000:
            raise services.LogoutTokenRefused("no logout_token")
        services.backchannel_logout_handle(logout_token=token)
    except services.LogoutTokenRefused as refused:
        services.log.info("sso.backchannel_refused", extra={"detail": str(refused)[:200]})
        response = HttpResponse(json.dumps({"error": "invalid_request"}), status=400, content_type="application/json")
    else:
        response = HttpResponse(status=200)
    response["Cache-Control"] = "no-store"
    return response


def _config(request: HttpRequest, provider: SingleSignOnProvider | None) -> dict[str, object]:
    redirect = services.callback_url(request)
    uris = {
        "post_logout_redirect_uri": services.post_logout_url(request),
        "backchannel_logout_uri": services.backchannel_logout_url(request),
    }
    if provider is None:
        return {"configured": False, "redirect_uri": redirect, **uris}
    return {
        **uris,
        "configured": True,
        "name": provider.name,
        "issuer_url": provider.issuer_url,
        "client_id": provider.client_id,
        "has_client_secret": bool(provider.client_secret_encrypted),
        "domains": selectors.domain_list(provider),
        "domain_states": selectors.domain_state_list(provider),
        "mode": provider.mode,
        "break_glass_user_id": provider.break_glass_user_id,
        "create_accounts": provider.create_accounts,
        "enabled": provider.enabled,
        "redirect_uri": redirect,
        "updated_at": provider.updated_at,
    }


@router.get("/organization/sso", response=SsoConfigOut, auth=admin_auth)
def sso_config_get(request: AuthedRequest, response: HttpResponse) -> dict[str, object]:
    """Admin only. The organization's identity provider, without its secret (``hasClientSecret``), with an
    ETag; ``configured`` false when none is set up. ``redirectUri`` is what to register at the provider."""
    provider = selectors.provider_get(request.auth)
    if provider is not None:
        set_etag(response, provider)
    return _config(request, provider)


@router.put("/organization/sso", response=SsoConfigOut, auth=admin_auth)
def sso_config_put(request: AuthedRequest, payload: SsoConfigIn, response: HttpResponse) -> dict[str, object]:
    """Admin only. ``{name, issuerUrl, clientId, clientSecret?, domains, mode, breakGlassUserId?,
    createAccounts, enabled}``; 400 with every problem, 409 at ``domains`` for a domain another
    organization covers, 412 on a stale If-Match."""
    services.provider_save(ctx=request.auth, data=payload.model_dump(), if_match=if_match_header(request))
    provider = selectors.provider_get(request.auth)
    if provider is not None:  # (just saved)
        set_etag(response, provider)
    return _config(request, provider)


@router.post("/organization/sso/domains/verify", response=SsoConfigOut, auth=admin_auth)
def sso_domain_verify(request: AuthedRequest, payload: SsoDomainVerifyIn, response: HttpResponse) -> dict[str, object]:
    """Admin only. "Verify now": ``{domain}`` (one the provider lists) is verified when its TXT record
    ``blockplan-domain-verification=<token>`` is found (docs/adr/0024); answers the configuration with
    each domain's state. 400 at ``domain`` when the record is not there (yet), 404 for a domain not
    listed, 409 when another organization has it verified."""
    services.domain_verify(ctx=request.auth, domain=payload.domain)
    provider = selectors.provider_get(request.auth)
    if provider is not None:
        set_etag(response, provider)
    return _config(request, provider)


@router.delete("/organization/sso", response=MessageOut, auth=admin_auth)
def sso_config_delete(request: AuthedRequest) -> dict[str, str]:
    """Admin only. Remove single sign-on; 404 when none is set up."""
    services.provider_delete(ctx=request.auth)
    return {"message": "Single sign-on removed"}


@router.post("/organization/sso/test", response=SsoTestOut, auth=admin_auth)
def sso_config_test(request: AuthedRequest, payload: SsoTestIn) -> dict[str, object]:
    """Admin only. "Test connection": ``{issuerUrl}`` to what its discovery document and keys say
    (``ok`` false with a message for an unreachable or wrong issuer; never a 5xx for the provider's faults)."""
    report = client.test_connection(payload.issuer_url.strip())
    meta = report.metadata
    scopes = meta.get("scopes_supported")
    return {
        "ok": report.ok,
        "message": report.message,
        "issuer": meta.get("issuer"),
        "authorization_endpoint": meta.get("authorization_endpoint"),
        "token_endpoint": meta.get("token_endpoint"),
        "userinfo_endpoint": meta.get("userinfo_endpoint"),
        "jwks_uri": meta.get("jwks_uri"),
        "signing_key_count": report.key_count,
        "scopes_supported": [str(s) for s in scopes] if isinstance(scopes, list) else [],
    }
