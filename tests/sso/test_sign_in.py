"""Single sign-on against a real OpenID provider (ADR 0022): Node's certified ``oidc-provider`` started by
the suite (tests/sso/provider.py), our server through Django's test client. Nothing of ours is mocked:
the provider issues real codes and signed ID tokens, and its fault switch makes it answer the bad tokens
a relying party must refuse."""

from __future__ import annotations

import logging
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import pytest
import requests

from project.accounts.models import SingleSignOnProvider, User
from project.history.models import Activity
from tests import factories as f
from tests.conftest import ApiClient

CALLBACK = "http://localhost/api/auth/sso/callback"  # the test client's host (ApiClient: HTTP_HOST=localhost)


def start(browser: ApiClient, email: str, **params) -> str:
    response = browser.get("/api/auth/sso/start", {"email": email, **params})
    assert response.status_code == 302, response.content
    return response["Location"]


def finish(browser: ApiClient, callback_url: str):
    """The browser arriving back at our callback with what the provider gave it."""
    parts = urlsplit(callback_url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == CALLBACK
    return browser.client.get(f"{parts.path}?{parts.query}")


def sign_in(idp, email: str, idp_email: str | None = None, session: requests.Session | None = None, **params):
    browser = ApiClient(None)
    authorize = start(browser, email, **params)
    answer = finish(browser, idp.sign_in(authorize, idp_email or email, session=session))
    return browser, answer


def refused(answer, code: str) -> bool:
    return answer.status_code == 302 and answer["Location"] == f"/auth?ssoError={code}"


def signed_in_email(browser: ApiClient) -> str | None:
    response = browser.get("/api/auth/user")
    return response.json()["user"]["email"] if response.status_code == 200 else None


def with_query(url: str, **changes) -> str:
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    query.update(changes)
    return urlunsplit(parts._replace(query=urlencode(query)))


# ------------------------------------------------------------------------------------------ the flow


def test_full_code_flow_signs_in_with_pkce_state_and_nonce(idp, member_user):
    member_user.is_totp_enabled, member_user.totp_secret = True, "JBSWY3DPEHPK3PXP"
    member_user.save()
    browser = ApiClient(None)
    authorize = start(browser, "Member@MP.edu.au", next="/timetables")
    parts = urlsplit(authorize)
    assert authorize.startswith(idp.issuer)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    assert query["client_id"] == idp.client_id and query["redirect_uri"] == CALLBACK
    assert query["response_type"] == "code" and set(query["scope"].split()) == {"openid", "email", "profile"}
    assert query["code_challenge_method"] == "S256" and len(query["code_challenge"]) >= 43
    assert len(query["state"]) >= 20 and len(query["nonce"]) >= 20
    assert query["login_hint"] == "member@mp.edu.au"

    answer = finish(browser, idp.sign_in(authorize, "member@mp.edu.au"))
    assert answer.status_code == 302 and answer["Location"] == "/timetables"
    # Strong authentication: signed in although the user has TOTP on, with no code asked for.
    assert signed_in_email(browser) == "member@mp.edu.au"
    assert 0 < browser.client.session.get_expiry_age() <= 12 * 3600
    activity = Activity.objects.for_org(member_user.organization).get(action="signed_in")
    assert activity.summary == "Mel Member signed in with Contoso Entra (single sign-on)"
    assert activity.actor_id == member_user.pk


def test_the_same_callback_cannot_be_used_twice(idp, member_user):
    browser = ApiClient(None)
    callback = idp.sign_in(start(browser, "member@mp.edu.au"), "member@mp.edu.au")
    assert finish(browser, callback).status_code == 302
    browser.post("/api/auth/logout")
    assert refused(finish(browser, callback), "state")
    assert signed_in_email(browser) is None


def test_wrong_state_is_refused(idp, member_user):
    browser = ApiClient(None)
    callback = idp.sign_in(start(browser, "member@mp.edu.au"), "member@mp.edu.au")
    assert refused(finish(browser, with_query(callback, state="forged-state-value-1234567890")), "state")
    assert signed_in_email(browser) is None


def test_a_callback_from_another_browser_is_refused(idp, member_user):
    """Login CSRF: a code and state made in the attacker's browser do not sign in the victim's."""
    attacker, victim = ApiClient(None), ApiClient(None)
    callback = idp.sign_in(start(attacker, "member@mp.edu.au"), "member@mp.edu.au")
    assert refused(finish(victim, callback), "state")
    assert signed_in_email(victim) is None


def test_wrong_nonce_is_refused(idp, member_user):
    """The authorization request is tampered with on its way: the provider puts another nonce in the ID token."""
    browser = ApiClient(None)
    authorize = with_query(start(browser, "member@mp.edu.au"), nonce="a-nonce-this-session-never-made")
    assert refused(finish(browser, idp.sign_in(authorize, "member@mp.edu.au")), "token")
    assert signed_in_email(browser) is None


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        ("expired", "ExpiredTokenError"),
        ("wrong_signature", "BadSignatureError"),
        ("wrong_audience", "InvalidClaimError"),
        ("wrong_audience_with_azp", "InvalidClaimError"),
        ("wrong_issuer", "InvalidClaimError"),
        ("wrong_nonce", "InvalidClaimError"),
    ],
)
def test_bad_id_tokens_are_refused(idp, member_user, fault, reason, caplog):
    caplog.set_level(logging.INFO, logger="project.accounts.sso.services")
    browser = ApiClient(None)
    callback = idp.sign_in(start(browser, "member@mp.edu.au"), "member@mp.edu.au")
    idp.inject_fault(fault)
    try:
        assert refused(finish(browser, callback), "token")
    finally:
        idp.clear_faults()
    assert [r.detail for r in caplog.records if r.getMessage() == "sso.refused"] == [reason]
    assert signed_in_email(browser) is None
    assert not Activity.objects.for_org(member_user.organization).filter(action="signed_in").exists()


def test_unverified_email_is_refused(idp, member_user):
    idp.set_account("mel", "member@mp.edu.au", email_verified=False)
    browser, answer = sign_in(idp, "member@mp.edu.au")
    assert refused(answer, "unverified")
    assert signed_in_email(browser) is None


def test_an_email_outside_the_providers_domains_is_refused(idp, member_user, other_admin):
    """The provider vouches for an address in another organization's domain: never that organization's user."""
    idp.set_account("intruder", "admin@other.edu.au")
    browser, answer = sign_in(idp, "member@mp.edu.au", idp_email="admin@other.edu.au")
    assert refused(answer, "domain")
    assert signed_in_email(browser) is None


def test_unknown_staff_are_refused_unless_accounts_are_created(idp, api, org):
    idp.set_account("newbie", "new.staff@mp.edu.au", given_name="Nina", family_name="New")
    browser, answer = sign_in(idp, "new.staff@mp.edu.au")
    assert refused(answer, "unknown_user")
    assert not User.objects.filter(email="new.staff@mp.edu.au").exists()

    SingleSignOnProvider.objects.for_org(org).update(create_accounts=True)
    browser, answer = sign_in(idp, "new.staff@mp.edu.au")
    assert answer.status_code == 302 and answer["Location"] == "/"
    user = User.objects.get(email="new.staff@mp.edu.au")
    assert (user.organization_id, user.role, user.first_name, user.last_name) == (org.pk, "user", "Nina", "New")
    assert not user.has_usable_password()
    assert signed_in_email(browser) == "new.staff@mp.edu.au"


def test_a_user_of_another_organization_in_the_domain_is_not_signed_in(idp, other_org):
    f.make_user(other_org, role="user", email="stray@mp.edu.au")
    idp.set_account("stray", "stray@mp.edu.au")
    browser, answer = sign_in(idp, "stray@mp.edu.au")
    assert refused(answer, "unknown_user")
    assert signed_in_email(browser) is None


def test_a_deactivated_user_is_refused(idp, member_user):
    member_user.is_active = False
    member_user.save()
    browser, answer = sign_in(idp, "member@mp.edu.au")
    assert refused(answer, "inactive")


def test_an_invited_user_signs_in_without_setting_a_password(idp, api, org):
    response = api.post("/api/admin/users", {"firstName": "Ivy", "lastName": "Invited", "email": "ivy@mp.edu.au", "role": "user"})
    assert response.status_code == 201, response.content
    idp.set_account("ivy", "ivy@mp.edu.au")
    browser, answer = sign_in(idp, "ivy@mp.edu.au")
    assert answer.status_code == 302 and answer["Location"] == "/"
    user = signed_in_user(browser)
    assert user["email"] == "ivy@mp.edu.au" and user["mustChangePassword"] is False
    # The invitation link is used up: it no longer opens a password setup.
    link = response.json()["invitationLink"]
    token = parse_qs(urlsplit(link).query)["token"][0]
    assert ApiClient(None).post("/api/auth/first-time-login", {"token": token}).status_code == 404


def signed_in_user(browser: ApiClient) -> dict:
    response = browser.get("/api/auth/user")
    assert response.status_code == 200, response.content
    return response.json()["user"]


def test_a_provider_that_cannot_be_reached_is_reported(api, org, member_user):
    response = api.put(
        "/api/organization/sso",
        {
            "name": "Gone",
            "issuerUrl": "http://127.0.0.1:9",
            "clientId": "x",
            "clientSecret": "y",
            "domains": ["mp.edu.au"],
            "mode": "optional",
        },
    )
    assert response.status_code == 200, response.content
    browser = ApiClient(None)
    answer = browser.get("/api/auth/sso/start", {"email": "member@mp.edu.au"})
    assert refused(answer, "unavailable")


def test_an_issuer_other_than_the_configured_one_is_refused(idp, org, member_user, caplog):
    """Configured by another name than the one the provider gives itself (an issuer mix-up)."""
    caplog.set_level(logging.INFO, logger="project.accounts.sso.services")
    browser = ApiClient(None)
    callback = idp.sign_in(start(browser, "member@mp.edu.au"), "member@mp.edu.au")
    SingleSignOnProvider.objects.for_org(org).update(issuer_url=idp.issuer.replace("127.0.0.1", "localhost"))
    assert refused(finish(browser, callback), "token")
    assert [r.detail for r in caplog.records if r.getMessage() == "sso.refused"] == ["issuer differs from the configured issuer"]
    assert signed_in_email(browser) is None


def test_an_error_from_the_provider_is_refused(idp, member_user):
    browser = ApiClient(None)
    state = parse_qs(urlsplit(start(browser, "member@mp.edu.au")).query)["state"][0]
    answer = browser.client.get("/api/auth/sso/callback", {"error": "access_denied", "state": state})
    assert refused(answer, "provider")


def test_next_never_leaves_the_site(idp, member_user):
    for target in ("https://evil.example/", "//evil.example", "/api/auth/logout"):
        browser, answer = sign_in(idp, "member@mp.edu.au", next=target)
        assert answer["Location"] == "/", target


# ------------------------------------------------------------------------------------------ leavers


def test_a_user_disabled_at_the_provider_cannot_sign_in_again(idp, member_user):
    """Signed in with SSO; the session runs out (12 hours); the silent re-check (prompt=none) brings a
    user still enabled straight back, and refuses one the provider disabled meanwhile."""
    session = requests.Session()
    browser, answer = sign_in(idp, "member@mp.edu.au", session=session)
    assert signed_in_email(browser) == "member@mp.edu.au"

    session_store = browser.client.session  # a new store on each access: keep one
    session_store.set_expiry(-1)  # the 12 hours are over
    session_store.save()
    assert browser.get("/api/auth/user").status_code == 401

    authorize = start(browser, "member@mp.edu.au", silent="1")
    assert parse_qs(urlsplit(authorize).query)["prompt"] == ["none"]
    assert finish(browser, idp.authorize_silently(authorize, session)).status_code == 302
    assert signed_in_email(browser) == "member@mp.edu.au"

    idp.set_account("mel", "member@mp.edu.au", disabled=True)
    browser.post("/api/auth/logout")
    authorize = start(browser, "member@mp.edu.au", silent="1")
    assert refused(finish(browser, idp.authorize_silently(authorize, session)), "recheck")
    assert signed_in_email(browser) is None
    with pytest.raises(Exception, match="Unknown or disabled account"):
        sign_in(idp, "member@mp.edu.au")


def test_logout_and_deactivation_end_sso_sessions(idp, api, member_user):
    browser, _ = sign_in(idp, "member@mp.edu.au")
    assert api.delete(f"/api/admin/users/{member_user.pk}").status_code == 200
    assert browser.get("/api/auth/user").status_code == 401

    member_user.is_active = True
    member_user.save()
    browser, _ = sign_in(idp, "member@mp.edu.au")
    assert browser.post("/api/auth/logout").status_code == 200
    assert browser.get("/api/auth/user").status_code == 401


# ------------------------------------------------------------------------------------------ required mode


def make_required(api, org, break_glass) -> None:
    provider = SingleSignOnProvider.objects.for_org(org).get()
    response = api.put(
        "/api/organization/sso",
        {
            "name": provider.name,
            "issuerUrl": provider.issuer_url,
            "clientId": provider.client_id,
            "domains": ["mp.edu.au"],
            "mode": "required",
            "breakGlassUserId": str(break_glass.pk),
        },
    )
    assert response.status_code == 200, response.content


def test_required_mode_refuses_passwords_except_the_break_glass_admin(idp, api, org, admin_user, member_user):
    password = {"email": "member@mp.edu.au", "password": f.PASSWORD, "rememberMe": False}
    assert ApiClient(None).post("/api/auth/login", password).status_code == 200
    make_required(api, org, admin_user)

    response = ApiClient(None).post("/api/auth/login", password)
    assert response.status_code == 403
    assert response.json() == {
        "message": "Your organization signs in with Contoso Entra. Use \u201cSign in with Contoso Entra\u201d.",
        "type": "sso_required",
        "providerName": "Contoso Entra",
    }
    # A wrong password gets the same answer: nothing is checked, nothing counts towards a lockout.
    assert ApiClient(None).post("/api/auth/login", {**password, "password": "wrong"}).status_code == 403
    admin = ApiClient(None).post("/api/auth/login", {"email": "admin@mp.edu.au", "password": f.PASSWORD, "rememberMe": False})
    assert admin.status_code == 200, admin.content
    # Single sign-on still works for everyone.
    browser, answer = sign_in(idp, "member@mp.edu.au")
    assert signed_in_email(browser) == "member@mp.edu.au"


def test_required_mode_does_not_touch_other_domains(idp, api, org, admin_user, other_admin):
    make_required(api, org, admin_user)
    response = ApiClient(None).post(
        "/api/auth/login", {"email": "admin@other.edu.au", "password": f.PASSWORD, "rememberMe": False}
    )
    assert response.status_code == 200, response.content


# ------------------------------------------------------------------------------------------ the secret


def test_the_client_secret_never_appears_in_answers_or_logs(idp, api, org, member_user, caplog, capfd):
    secret = idp.client_secret
    caplog.set_level(logging.DEBUG)
    answers = [
        api.get("/api/organization/sso"),
        api.put(
            "/api/organization/sso",
            {
                "name": "Contoso Entra",
                "issuerUrl": idp.issuer,
                "clientId": idp.client_id,
                "clientSecret": secret,
                "domains": ["mp.edu.au"],
                "mode": "optional",
            },
        ),
        api.post("/api/organization/sso/test", {"issuerUrl": idp.issuer}),
        api.get("/api/activity"),
        api.get("/api/organization"),
        api.post("/api/auth/export-data"),
        ApiClient(None).post("/api/auth/sso/discover", {"email": "member@mp.edu.au"}),
    ]
    browser, answer = sign_in(idp, "member@mp.edu.au")
    answers += [answer, browser.get("/api/auth/user")]
    for response in answers:
        assert response.status_code in (200, 302), response.content
        assert secret not in response.content.decode()
    assert api.get("/api/organization/sso").json()["hasClientSecret"] is True
    stored = SingleSignOnProvider.objects.for_org(org).get().client_secret_encrypted
    assert secret not in stored
    out, err = capfd.readouterr()
    assert secret not in out + err + caplog.text
    # The check read real output: the calls to the provider (discovery, keys, the token exchange) were logged.
    assert any(record.name.startswith("urllib3") for record in caplog.records)


# ------------------------------------------------------------------------------------------ re-authentication


def test_a_sensitive_change_is_confirmed_with_the_provider(idp, member_user):
    """ADR 0006 asks for a recent confirmation before a passkey is registered; a user who signs in with
    single sign-on confirms with the provider (prompt=login), not with a password they may not have."""
    browser = ApiClient(member_user)
    assert browser.post("/api/auth/passkeys/register/begin").status_code == 403
    authorize = start(browser, "ignored@elsewhere.example", reauth="1", next="/profile")
    query = parse_qs(urlsplit(authorize).query)
    assert query["prompt"] == ["login"] and query["max_age"] == ["0"] and query["login_hint"] == ["member@mp.edu.au"]
    answer = finish(browser, idp.sign_in(authorize, "member@mp.edu.au"))
    assert answer.status_code == 302 and answer["Location"] == "/profile"
    assert browser.post("/api/auth/passkeys/register/begin").status_code == 200
    assert not Activity.objects.for_org(member_user.organization).filter(action="signed_in").exists()


def test_a_confirmation_by_someone_else_is_refused(idp, api, member_user):
    idp.set_account("ada", "admin@mp.edu.au")
    browser = ApiClient(member_user)
    authorize = start(browser, "", reauth="1", next="/profile")
    answer = finish(browser, idp.sign_in(authorize, "admin@mp.edu.au"))
    assert answer.status_code == 302 and answer["Location"] == "/profile?ssoError=reauth"
    assert signed_in_email(browser) == "member@mp.edu.au"  # still the member, still unconfirmed
    assert browser.post("/api/auth/passkeys/register/begin").status_code == 403


def test_confirming_needs_a_signed_in_user(idp):
    answer = ApiClient(None).get("/api/auth/sso/start", {"reauth": "1"})
    assert refused(answer, "reauth")


def test_email_and_its_verification_are_read_from_userinfo_when_the_id_token_lacks_them(idp, member_user):
    """OpenID Connect Core 5.3 (docs/adr/0024): the provider gives ``email`` only at the userinfo endpoint."""
    idp.set_account("mel", "member@mp.edu.au", email_in_userinfo_only=True)
    browser, answer = sign_in(idp, "member@mp.edu.au")
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert signed_in_email(browser) == "member@mp.edu.au"
    # ... and email_verified from there too: false there is refused.
    idp.set_account("mel", "member@mp.edu.au", email_verified=False, email_in_userinfo_only=True)
    browser, answer = sign_in(idp, "member@mp.edu.au")
    assert refused(answer, "unverified")
    assert signed_in_email(browser) is None
