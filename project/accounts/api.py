"""The accounts API (docs/behaviour/accounts.md §8, docs/behaviour/errors.md §1): sign-in, TOTP, passkeys, profile, settings,
organization and user administration. Thin: parse, call one service or selector, answer.

Auth: ``public_auth`` for the sign-in calls (CSRF still enforced on unsafe methods), ``member_auth``
(the default) for the signed-in user's own calls, ``admin_auth`` for ``/admin/users`` and
``PUT /organization`` (a ``user`` gets 403 Forbidden).
"""

from __future__ import annotations

import json
from uuid import UUID

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import timezone

from project.accounts import reauth, selectors, services
from project.accounts.models import Organization, Passkey, User
from project.accounts.schemas import (
    AddedUserOut,
    AddUserIn,
    ChangePasswordIn,
    FirstTimeLoginIn,
    FirstTimeLoginOut,
    InvitationOut,
    LoginIn,
    LoginOut,
    LogoutOut,
    MessageUserOut,
    OrganizationIn,
    OrganizationOut,
    PasskeyAuthenticateCompleteIn,
    PasskeyOut,
    PasskeyRegisterCompleteIn,
    PasskeyVerifiedOut,
    ProfileIn,
    ReauthIn,
    ReauthOut,
    SettingsIn,
    SettingsOut,
    SetupPasswordIn,
    TotpCodeIn,
    TotpSetupOut,
    UserEnvelopeOut,
    UserOut,
)
from project.accounts.sso import services as sso_services
from project.core.auth import AuthedRequest, admin_auth, public_auth
from project.core.concurrency import if_match_header, set_etag
from project.core.errors import Unauthorized
from project.core.routers import make_router
from project.core.schemas import MessageOut
from project.core.tenancy import Ctx

router = make_router(tags=["accounts"])


def _ctx(request: AuthedRequest) -> Ctx:
    ctx = request.auth
    if not isinstance(ctx, Ctx):
        raise Unauthorized()
    return ctx


# ------------------------------------------------------------------------------------------- session


@router.get("/auth/user", response=UserEnvelopeOut, auth=public_auth)
def current_user(request: AuthedRequest) -> dict[str, object]:
    """The signed-in user ``{"user": {...}}``; 401 ``{"message": "Unauthorized"}`` when signed out
    (the answer still sets the ``csrftoken`` cookie). docs/behaviour/accounts.md §2."""
    return {"user": _ctx(request).user}


@router.post("/auth/login", response=LoginOut, auth=public_auth)
def login(request: HttpRequest, payload: LoginIn) -> services.LoginResult:
    """``{email, password, totpCode?, rememberMe}`` to ``{user, requiresTotp, requiresSetup, userId}``.

    401 'Invalid email or password' (unknown, inactive, wrong), 401 'Invalid authenticator code',
    429 when locked out, 400 validation (the sign-in messages of docs/behaviour/accounts.md §2).
    """
    return services.password_sign_in(
        request=request,
        email=payload.email,
        password=payload.password,
        totp_code=payload.totp_code,
        remember_me=payload.remember_me,
    )


@router.post("/auth/first-time-login", response=FirstTimeLoginOut, auth=public_auth)
def first_time_login(request: HttpRequest, payload: FirstTimeLoginIn) -> dict[str, object]:
    """``{email, token}`` to ``{requiresSetup, userId, hasPassword, message, email}``; 404 'User not found. ...'.

    Setup needs the invitation ``token`` of the link ``/auth/setup?token=...`` (ADR 0005); an
    email alone answers the same 404 for every email, account or not (ADR 0005 amended)."""
    return services.first_time_lookup(request=request, email=payload.email, token=payload.token)


@router.get("/auth/totp-setup/{uuid:user_id}", response=TotpSetupOut, auth=public_auth)
def totp_setup(request: HttpRequest, user_id: UUID) -> dict[str, object]:
    """``{qrCodeUri (PNG data URI, 256 px), manualEntryKey}`` for the signed-in user themself or a user
    in setup state; 404 'User not found' otherwise; 409 when the signed-in user's TOTP is already on."""
    return services.totp_setup(request=request, user_id=user_id)


@router.post("/auth/setup-password", response=UserEnvelopeOut, auth=public_auth)
def setup_password(request: HttpRequest, payload: SetupPasswordIn) -> dict[str, object]:
    """``{userId, password, confirmPassword, totpCode}``: first password, TOTP on, signed in.
    Answers ``{"user": {...}}``."""
    user = services.password_setup(
        request=request,
        user_id=payload.user_id,
        password=payload.password,
        confirm_password=payload.confirm_password,
        totp_code=payload.totp_code,
    )
    return {"user": user}


@router.api_operation(["POST", "PUT"], "/auth/change-password", response=MessageOut)
def change_password(request: AuthedRequest, payload: ChangePasswordIn) -> dict[str, str]:
    """``{currentPassword, newPassword, confirmPassword?}``; the user's other sessions end."""
    services.password_change(
        request=request,
        ctx=_ctx(request),
        current_password=payload.current_password,
        new_password=payload.new_password,
        confirm_password=payload.confirm_password,
    )
    return {"message": "Your password has been updated successfully."}


@router.post("/auth/reauthenticate", response=ReauthOut)
def reauthenticate(request: AuthedRequest, payload: ReauthIn) -> dict[str, object]:
    """``{password}`` or ``{totpCode}``: confirms the signed-in user for this session for 5 minutes, as
    registering a passkey and resetting or enabling TOTP require (ADR 0006). Answers
    ``{message, validUntil}`` (UTC). 400 at ``password``/``totpCode`` when wrong; 429 when locked out."""
    until = reauth.reauthenticate(request=request, ctx=_ctx(request), password=payload.password, totp_code=payload.totp_code)
    return {"message": "Confirmed.", "valid_until": until}


@router.post("/auth/enable-totp", response=MessageUserOut)
def enable_totp(request: AuthedRequest, payload: TotpCodeIn) -> dict[str, object]:
    """``{totpCode}`` of the secret from totp-setup: TOTP on. 401 'Invalid authenticator code'.
    403 ``reauth_required`` without a confirmation in the last 5 minutes (ADR 0006)."""
    reauth.require_recent(request)
    user = services.totp_enable(request=request, ctx=_ctx(request), totp_code=payload.totp_code or "")
    return {"message": "Two-factor authentication is now active.", "user": user}


@router.post("/auth/reset-totp", response=MessageUserOut)
def reset_totp(request: AuthedRequest) -> dict[str, object]:
    """TOTP off and its secret dropped; the user then loads a new QR code with totp-setup.
    403 ``reauth_required`` without a confirmation in the last 5 minutes (ADR 0006)."""
    reauth.require_recent(request)
    user = services.totp_reset(ctx=_ctx(request))
    return {"message": "Please scan the new QR code to re-enable TOTP.", "user": user}


@router.post("/auth/logout", response=LogoutOut, auth=public_auth)
def logout(request: HttpRequest) -> dict[str, str | None]:
    """End the session (and the user's sockets). Answers 200 even when already signed out.
    ``providerLogoutUrl``: for a single sign-on session whose provider offers it, where the browser goes
    to sign out at the provider too (RP-initiated logout, docs/adr/0024); else null."""
    provider_url = sso_services.provider_logout_url(request)
    services.user_sign_out(request)
    return {"message": "You have been logged out successfully.", "provider_logout_url": provider_url}


@router.get("/logout", auth=None, include_in_schema=False)
def logout_redirect(request: HttpRequest) -> HttpResponseRedirect:
    """The sidebar's sign-out link: end the session, then 302 to /auth, or for a single sign-on session
    to the provider's sign-out (which comes back to /auth; docs/adr/0024)."""
    provider_url = sso_services.provider_logout_url(request)
    services.user_sign_out(request)
    return HttpResponseRedirect(provider_url or "/auth")


# ------------------------------------------------------------------------------------------- passkeys


@router.post("/auth/passkeys/authenticate/begin", auth=public_auth)
def passkey_authenticate_begin(request: HttpRequest) -> dict[str, object]:
    """PublicKeyCredentialRequestOptions JSON (discoverable credentials: no allowCredentials)."""
    return services.passkey_authenticate_begin(request=request)


@router.post("/auth/passkeys/authenticate/complete", response=PasskeyVerifiedOut, auth=public_auth)
def passkey_authenticate_complete(request: HttpRequest, payload: PasskeyAuthenticateCompleteIn) -> dict[str, object]:
    """``{response: <assertion>}`` to ``{verified: true, user}``; 401 'Passkey authentication failed'."""
    user = services.passkey_authenticate_complete(request=request, credential=payload.response)
    return {"verified": True, "user": user}


@router.get("/auth/passkeys", response=list[PasskeyOut])
def passkey_list(request: AuthedRequest) -> list[Passkey]:
    """The signed-in user's passkeys, newest first: ``[{id, deviceName, createdAt, lastUsed}]``."""
    return list(selectors.passkey_list(_ctx(request).member))


@router.post("/auth/passkeys/register/begin")
def passkey_register_begin(request: AuthedRequest) -> dict[str, object]:
    """PublicKeyCredentialCreationOptions JSON for the signed-in user. 403 ``reauth_required`` without a
    confirmation in the last 5 minutes (ADR 0006)."""
    reauth.require_recent(request)
    return services.passkey_register_begin(request=request, ctx=_ctx(request))


@router.post("/auth/passkeys/register/complete", response={201: PasskeyOut})
def passkey_register_complete(request: AuthedRequest, payload: PasskeyRegisterCompleteIn) -> tuple[int, Passkey]:
    """``{response: <attestation>, deviceName?}`` to the new passkey (201); 400 'Passkey registration failed';
    403 ``reauth_required`` without a confirmation in the last 5 minutes (ADR 0006)."""
    reauth.require_recent(request)
    passkey = services.passkey_register_complete(
        request=request, ctx=_ctx(request), credential=payload.response, device_name=payload.device_name
    )
    return 201, passkey


@router.delete("/auth/passkeys/{uuid:passkey_id}", response=MessageOut)
def passkey_delete(request: AuthedRequest, passkey_id: UUID) -> dict[str, str]:
    """Delete one of the signed-in user's passkeys; 404 'Passkey not found'."""
    services.passkey_delete(ctx=_ctx(request), passkey_id=passkey_id)
    return {"message": "Passkey deleted"}


# ------------------------------------------------------------------------------------------- profile


@router.put("/auth/profile", response=UserOut)
def profile_update(request: AuthedRequest, payload: ProfileIn) -> User:
    """``{firstName, lastName}`` (anything else is ignored) to the updated user. 412 on a stale If-Match."""
    return services.profile_update(
        ctx=_ctx(request),
        first_name=payload.first_name,
        last_name=payload.last_name,
        if_match=if_match_header(request),
    )


@router.get("/auth/settings", response=SettingsOut)
def settings_get(request: AuthedRequest) -> dict[str, object]:
    """``{theme, preferences: {dateFormat, timeFormat, timezone, language, compactView}, updatedAt}``;
    404 'Settings not found' until first saved (the SPA then applies the defaults of docs/behaviour/accounts.md §8)."""
    return selectors.settings_get(_ctx(request).member)


@router.put("/auth/settings", response=SettingsOut)
def settings_put(request: AuthedRequest, payload: SettingsIn) -> dict[str, object]:
    """``{theme?, preferences?}`` merged over the saved settings; 400 for a value outside the choices."""
    preferences = payload.preferences.model_dump(by_alias=True) if payload.preferences else None
    return services.settings_update(
        ctx=_ctx(request), theme=payload.theme, preferences=preferences, if_match=if_match_header(request)
    )


@router.post("/auth/export-data")
def export_data(request: AuthedRequest) -> HttpResponse:
    """A JSON file download ``blockplan-export-YYYY-MM-DD.json`` of the user's account, settings,
    passkeys (no secrets) and the organization's records."""
    data = selectors.user_data_export(_ctx(request))
    response = HttpResponse(json.dumps(data, cls=DjangoJSONEncoder, indent=2), content_type="application/json; charset=utf-8")
    name = f"blockplan-export-{timezone.localdate().isoformat()}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# ------------------------------------------------------------------------------------------- organization


@router.get("/organization", response=OrganizationOut)
def organization_get(request: AuthedRequest, response: HttpResponse) -> Organization:
    """The signed-in user's organization, with an ETag."""
    org = _ctx(request).org
    set_etag(response, org)
    return org


@router.put("/organization", response=OrganizationOut, auth=admin_auth)
def organization_put(request: AuthedRequest, payload: OrganizationIn, response: HttpResponse) -> Organization:
    """Admin only. ``{name, domain, address?, phone?, website?}``; 409 for a domain in use; 412 stale."""
    org = services.organization_update(ctx=_ctx(request), data=payload.model_dump(), if_match=if_match_header(request))
    set_etag(response, org)
    return org


@router.get("/admin/users", response=list[UserOut], auth=admin_auth)
def admin_user_list(request: AuthedRequest) -> list[User]:
    """Admin only. The organization's users (active and inactive), by name."""
    return list(selectors.user_list(_ctx(request).org))


@router.post("/admin/users", response={201: AddedUserOut}, auth=admin_auth)
def admin_user_add(request: AuthedRequest, payload: AddUserIn) -> tuple[int, User]:
    """Admin only. ``{firstName, lastName, email, role}`` to the new user with ``invitationLink`` and
    ``invitationExpiresAt`` (UTC, 7 days) (201); the link is also emailed (ADR 0005). 409 for an email
    in use."""
    user, issued = services.user_add(
        ctx=_ctx(request),
        first_name=payload.first_name,
        last_name=payload.last_name,
        email=payload.email,
        role=payload.role,
        request=request,
    )
    # The answer is the user with its invitation (UserAddOut reads these two attributes).
    user.invitation_link, user.invitation_expires_at = issued.link, issued.expires_at  # type: ignore[attr-defined]
    return 201, user


@router.post("/admin/users/{uuid:user_id}/invitation", response={201: InvitationOut}, auth=admin_auth)
def admin_user_invitation(request: AuthedRequest, user_id: UUID) -> tuple[int, dict[str, object]]:
    """Admin only. Re-issue the invitation of a user who has not set up the account: a new link (the
    earlier ones stop working), also emailed. 404 for another organization's user, 409 when the account
    is already set up, 400 for an inactive user."""
    issued = services.user_reissue_invitation(ctx=_ctx(request), user_id=user_id, request=request)
    return 201, {"invitation_link": issued.link, "invitation_expires_at": issued.expires_at}


@router.delete("/admin/users/{uuid:user_id}", response=UserOut, auth=admin_auth)
def admin_user_deactivate(request: AuthedRequest, user_id: UUID) -> User:
    """Admin only. Deactivate a user of the organization (answers it, ``isActive`` false); 400 for
    oneself; 404 'User not found' for another organization's id."""
    return services.user_deactivate(ctx=_ctx(request), user_id=user_id)
