"""Sign-out both ways (docs/adr/0024) against the real provider of tests/sso/provider.py: signing out of
Blockplan sends the browser to the provider's end-session endpoint (RP-initiated logout, with
``id_token_hint`` and the registered ``post_logout_redirect_uri``), and a back-channel logout token from the
provider ends the sessions it names. (The sockets of such a session: tests/realtime/test_sso_sockets.py.)"""

from __future__ import annotations

import base64
import json
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from project.accounts.models import SingleSignOnProvider, SingleSignOnSession
from tests import factories as f
from tests.conftest import ApiClient
from tests.sso.conftest import SSO_CALLBACK
from tests.sso.test_sign_in import finish, signed_in_email, start

POST_LOGOUT = "http://localhost/auth"


@pytest.fixture
def logout_idp(oidc_provider, api):
    """``org`` signing in with a client that registered our post-logout redirect URI."""
    client_id, secret = oidc_provider.register_client([SSO_CALLBACK], post_logout_redirect_uris=[POST_LOGOUT])
    oidc_provider.set_account("mel", "member@mp.edu.au", given_name="Mel")
    config = {"name": "Contoso Entra", "issuerUrl": oidc_provider.issuer, "clientId": client_id, "clientSecret": secret}
    answer = api.put("/api/organization/sso", {**config, "domains": ["mp.edu.au"]})
    assert answer.status_code == 200, answer.content
    assert answer.json()["postLogoutRedirectUri"] == POST_LOGOUT
    assert answer.json()["backchannelLogoutUri"] == "http://localhost/api/auth/sso/backchannel-logout"
    oidc_provider.client_id = client_id
    return oidc_provider


def sso_browser(idp, at_provider: requests.Session) -> ApiClient:
    browser = ApiClient(None)
    answer = finish(browser, idp.sign_in(start(browser, "member@mp.edu.au"), "member@mp.edu.au", session=at_provider))
    assert answer.status_code == 302 and signed_in_email(browser) == "member@mp.edu.au"
    return browser


def jwt_claims(token: str) -> dict:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def silently_signed_in_at_provider(idp, at_provider: requests.Session) -> bool:
    """Whether the provider still has a session for this browser: a prompt=none authorization answers."""
    browser = ApiClient(None)
    back = idp.authorize_silently(start(browser, "member@mp.edu.au", silent="1"), at_provider)
    return "error=" not in urlsplit(back).query


def test_signing_out_sends_the_browser_to_the_providers_end_session_and_back(logout_idp, member_user):
    at_provider = requests.Session()
    browser = sso_browser(logout_idp, at_provider)
    assert silently_signed_in_at_provider(logout_idp, at_provider)

    answer = browser.post("/api/auth/logout")
    assert answer.status_code == 200
    url = answer.json()["providerLogoutUrl"]
    end_session = logout_idp.discovery()["end_session_endpoint"]
    assert url.startswith(end_session + "?")
    query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
    assert query["post_logout_redirect_uri"] == POST_LOGOUT and query["client_id"] == logout_idp.client_id
    hint = jwt_claims(query["id_token_hint"])
    assert hint["aud"] == logout_idp.client_id and hint["sub"] == "mel" and hint["iss"] == logout_idp.issuer
    assert signed_in_email(browser) is None  # signed out of Blockplan at once, whatever the provider does
    assert not SingleSignOnSession.objects.exists()  # nothing left for a back-channel logout to end

    # The browser follows: the provider signs it out and sends it back to our sign-in page.
    back = urlsplit(logout_idp.sign_out(url, at_provider))
    assert f"{back.scheme}://{back.netloc}{back.path}" == POST_LOGOUT
    assert not silently_signed_in_at_provider(logout_idp, at_provider)


def test_the_sign_out_link_redirects_to_the_provider_and_a_password_session_does_not(logout_idp, member_user, admin_user):
    browser = sso_browser(logout_idp, requests.Session())
    answer = browser.client.get("/api/logout")
    assert answer.status_code == 302 and answer["Location"].startswith(logout_idp.discovery()["end_session_endpoint"])
    assert signed_in_email(browser) is None

    password = ApiClient(None)
    assert password.post("/api/auth/login", {"email": admin_user.email, "password": f.PASSWORD}).status_code == 200
    assert password.post("/api/auth/logout").json() == {
        "message": "You have been logged out successfully.",
        "providerLogoutUrl": None,
    }


def backchannel(token: str):
    """The provider's POST: form-encoded, no cookies, no CSRF token."""
    return ApiClient(None).client.post("/api/auth/sso/backchannel-logout", {"logout_token": token})


def test_a_back_channel_logout_by_sub_ends_every_session_of_that_user(logout_idp, member_user, admin_user):
    first, second = sso_browser(logout_idp, requests.Session()), sso_browser(logout_idp, requests.Session())
    password = ApiClient(admin_user)
    assert SingleSignOnSession.objects.filter(sub="mel").count() == 2

    answer = backchannel(logout_idp.logout_token(logout_idp.client_id, sub="mel"))
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    assert signed_in_email(first) is None and signed_in_email(second) is None
    assert signed_in_email(password) == admin_user.email  # nobody else's session
    assert not SingleSignOnSession.objects.filter(sub="mel").exists()


def test_a_back_channel_logout_by_sid_ends_only_that_provider_session(logout_idp, member_user, org):
    browser = sso_browser(logout_idp, requests.Session())
    other = sso_browser(logout_idp, requests.Session())
    SingleSignOnSession.objects.filter(session_key=browser.client.session.session_key).update(sid="sid-1")
    SingleSignOnSession.objects.filter(session_key=other.client.session.session_key).update(sid="sid-2")
    assert backchannel(logout_idp.logout_token(logout_idp.client_id, sub="mel", sid="sid-1")).status_code == 200
    assert signed_in_email(browser) is None
    assert signed_in_email(other) == "member@mp.edu.au"


@pytest.mark.parametrize("fault", ["wrong_audience", "wrong_issuer", "expired", "nonce", "no_event", "wrong_signature"])
def test_a_spoiled_logout_token_is_refused_and_ends_nothing(logout_idp, member_user, fault):
    browser = sso_browser(logout_idp, requests.Session())
    answer = backchannel(logout_idp.logout_token(logout_idp.client_id, sub="mel", fault=fault))
    assert answer.status_code == 400
    assert answer.json() == {"error": "invalid_request"}
    assert signed_in_email(browser) == "member@mp.edu.au"


def test_logout_tokens_without_sub_or_sid_or_of_a_disabled_provider_are_refused(logout_idp, member_user, org):
    browser = sso_browser(logout_idp, requests.Session())
    assert backchannel(logout_idp.logout_token(logout_idp.client_id)).status_code == 400
    for junk in ("", "not-a-jwt", "a.b.c", "x" * 20_000):
        assert backchannel(junk).status_code == 400
    SingleSignOnProvider.objects.for_org(org).update(enabled=False)
    assert backchannel(logout_idp.logout_token(logout_idp.client_id, sub="mel")).status_code == 400
    assert signed_in_email(browser) == "member@mp.edu.au"
