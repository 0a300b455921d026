"""The test suite's OpenID provider itself (tests/sso/provider.py, spa/e2e/support/oidc-provider.mjs): before
the single sign-on tests trust it, these check it behaves like a real provider (discovery, registration, the
code flow with PKCE, signed ID tokens with the claims asked for) and that its switches (accounts, faults,
the record of the last authorization request) do exactly what they say. Only requests and joserfc here.

    .venv/bin/python -m pytest -q tests/sso/test_provider.py
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
import uuid
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import requests
from joserfc import jwt
from joserfc.errors import BadSignatureError, ExpiredTokenError, InvalidClaimError
from joserfc.jwk import KeySet

from tests.sso.provider import FAULT_KINDS, OidcProvider, SignInRefused

REDIRECT_URI = "http://testserver/api/auth/sso/callback"
E2E_REDIRECT_URI = "http://localhost:8765/api/auth/sso/callback"


@dataclass
class Client:
    client_id: str
    client_secret: str
    auth_method: str = "client_secret_basic"


@dataclass
class Request:
    """One authorization request made the way a relying party makes it, with what it keeps for later."""

    url: str
    state: str
    nonce: str
    code_verifier: str


@pytest.fixture
def client(oidc_provider: OidcProvider) -> Client:
    return Client(*oidc_provider.register_client([REDIRECT_URI, E2E_REDIRECT_URI]))


@pytest.fixture
def account(oidc_provider: OidcProvider) -> dict:
    """A fresh account (the provider lives for the whole session: each test its own sub and email)."""
    sub = f"user-{uuid.uuid4().hex[:12]}"
    email = f"{sub}@staff.example.edu.au"
    oidc_provider.set_account(sub, email, name="Mel Member", given_name="Mel", family_name="Member")
    return {"sub": sub, "email": email}


def authorization_request(provider: OidcProvider, client: Client, *, pkce: bool = True, **extra: str) -> Request:
    state, nonce, verifier = secrets.token_urlsafe(24), secrets.token_urlsafe(24), secrets.token_urlsafe(48)
    params = {
        "response_type": "code",
        "client_id": client.client_id,
        "redirect_uri": REDIRECT_URI,
        "scope": "openid email profile",
        "state": state,
        "nonce": nonce,
    }
    if pkce:
        digest = hashlib.sha256(verifier.encode()).digest()
        params["code_challenge"] = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
        params["code_challenge_method"] = "S256"
    params.update(extra)
    return Request(f"{provider.discovery()['authorization_endpoint']}?{urlencode(params)}", state, nonce, verifier)


def query_of(url: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}


def exchange(provider: OidcProvider, client: Client, code: str, code_verifier: str | None) -> requests.Response:
    """The relying party's back-channel token request, authenticated as the client registered."""
    data = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI}
    if code_verifier is not None:
        data["code_verifier"] = code_verifier
    auth = None
    if client.auth_method == "client_secret_post":
        data |= {"client_id": client.client_id, "client_secret": client.client_secret}
    else:
        auth = (client.client_id, client.client_secret)
    return requests.post(provider.discovery()["token_endpoint"], data=data, auth=auth, timeout=10)


def signed_in(provider: OidcProvider, client: Client, email: str, session: requests.Session | None = None) -> tuple[Request, str]:
    """A full sign-in up to the token response: (the request, the ID token)."""
    request = authorization_request(provider, client, login_hint=email)
    callback = query_of(provider.sign_in(request.url, email, session=session))
    assert callback["state"] == request.state and "code" in callback, callback
    response = exchange(provider, client, callback["code"], request.code_verifier)
    assert response.status_code == 200, response.text
    return request, response.json()["id_token"]


def provider_keys(provider: OidcProvider) -> KeySet:
    return KeySet.import_key_set(requests.get(provider.discovery()["jwks_uri"], timeout=10).json())


def verified_claims(provider: OidcProvider, id_token: str) -> dict:
    """The ID token's claims once its signature checks out against the provider's published keys."""
    return jwt.decode(id_token, provider_keys(provider), algorithms=["RS256"]).claims


def check_claims(provider: OidcProvider, client: Client, request: Request, claims: dict) -> None:
    """What a relying party checks besides the signature: issuer, audience, nonce, expiry."""
    jwt.JWTClaimsRegistry(
        iss={"essential": True, "value": provider.issuer},
        aud={"essential": True, "value": client.client_id},
        nonce={"essential": True, "value": request.nonce},
        exp={"essential": True},
    ).validate(claims)


# ------------------------------------------------------------------------------------------ discovery


def test_discovery_names_the_issuer_and_the_endpoints(oidc_provider):
    document = oidc_provider.discovery()
    assert document["issuer"] == oidc_provider.issuer
    assert oidc_provider.issuer.startswith("http://127.0.0.1:")
    for endpoint in ("authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint", "userinfo_endpoint"):
        assert document[endpoint].startswith(oidc_provider.issuer), endpoint
    assert document["code_challenge_methods_supported"] == ["S256"]
    assert {"openid", "email", "profile"} <= set(document["scopes_supported"])
    assert requests.get(oidc_provider.url("/__control/health"), timeout=10).status_code == 200


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
def test_registration_accepts_http_redirect_uris_of_a_confidential_web_client(oidc_provider, method):
    client_id, client_secret = oidc_provider.register_client([REDIRECT_URI, E2E_REDIRECT_URI], method)
    assert client_id and len(client_secret) >= 32


# ------------------------------------------------------------------------------------------ the code flow


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
def test_code_flow_with_pkce_gives_a_signed_id_token_with_the_claims(oidc_provider, account, method):
    client = Client(*oidc_provider.register_client([REDIRECT_URI], method), auth_method=method)
    request = authorization_request(oidc_provider, client, login_hint=account["email"])
    callback = oidc_provider.sign_in(request.url, account["email"])
    assert callback.startswith(REDIRECT_URI + "?")
    query = query_of(callback)
    assert query["state"] == request.state and query["code"] and query["iss"] == oidc_provider.issuer

    response = exchange(oidc_provider, client, query["code"], request.code_verifier)
    assert response.status_code == 200, response.text
    tokens = response.json()
    token = jwt.decode(tokens["id_token"], provider_keys(oidc_provider), algorithms=["RS256"])
    assert token.header["alg"] == "RS256" and token.header["kid"]
    check_claims(oidc_provider, client, request, token.claims)
    claims = token.claims
    assert claims["sub"] == account["sub"]
    assert (claims["email"], claims["email_verified"]) == (account["email"], True)
    assert (claims["name"], claims["given_name"], claims["family_name"]) == ("Mel Member", "Mel", "Member")
    assert claims["exp"] > time.time() > claims["iat"] - 5

    # The code is used up.
    assert exchange(oidc_provider, client, query["code"], request.code_verifier).json()["error"] == "invalid_grant"


def test_without_a_code_challenge_the_request_is_refused(oidc_provider, client, account):
    request = authorization_request(oidc_provider, client, pkce=False)
    callback = oidc_provider.sign_in(request.url, account["email"])
    query = query_of(callback)
    assert callback.startswith(REDIRECT_URI + "?")
    assert query["error"] == "invalid_request" and "PKCE" in query["error_description"]
    assert query["state"] == request.state and "code" not in query


def test_without_the_code_verifier_the_exchange_is_refused(oidc_provider, client, account):
    request = authorization_request(oidc_provider, client)
    code = query_of(oidc_provider.sign_in(request.url, account["email"]))["code"]
    assert exchange(oidc_provider, client, code, None).json()["error"] == "invalid_grant"


def test_an_unverified_email_is_said_so(oidc_provider, client):
    sub = f"unverified-{uuid.uuid4().hex[:8]}"
    oidc_provider.set_account(sub, f"{sub}@example.edu.au", email_verified=False)
    _, id_token = signed_in(oidc_provider, client, f"{sub}@example.edu.au")
    claims = verified_claims(oidc_provider, id_token)
    assert claims["email_verified"] is False
    assert "name" not in claims  # no name given: left out, not empty


def test_the_login_page(oidc_provider, client, account):
    request = authorization_request(oidc_provider, client, login_hint=account["email"])
    session = requests.Session()
    response = session.get(request.url, timeout=10)  # follows the redirect to the interaction
    assert response.status_code == 200 and urlsplit(response.url).path.startswith("/interaction/")
    html = response.text
    assert "<title>Test Identity Provider</title>" in html
    assert '<label for="email">Email</label>' in html
    assert f'name="email" type="email" autocomplete="username" required autofocus value="{account["email"]}"' in html
    assert '<button type="submit">Continue</button>' in html

    refused = session.post(response.url, data={"email": "nobody@example.edu.au"}, allow_redirects=False, timeout=10)
    assert refused.status_code == 200 and "Unknown or disabled account" in refused.text


def test_last_authorization_records_the_request(oidc_provider, client, account):
    request = authorization_request(oidc_provider, client, login_hint=account["email"], prompt="login")
    oidc_provider.sign_in(request.url, account["email"])
    recorded = oidc_provider.last_authorization()
    assert recorded["nonce"] == request.nonce and recorded["state"] == request.state
    assert recorded["client_id"] == client.client_id and recorded["redirect_uri"] == REDIRECT_URI
    assert recorded["scope"] == "openid email profile" and recorded["code_challenge_method"] == "S256"
    assert recorded["login_hint"] == account["email"] and recorded["prompt"] == "login"
    assert recorded["code_challenge"] == query_of(request.url)["code_challenge"]


# ------------------------------------------------------------------------------------------ accounts


def test_a_disabled_account_cannot_sign_in_and_fails_the_silent_recheck(oidc_provider, client, account):
    session = requests.Session()
    signed_in(oidc_provider, client, account["email"], session=session)

    # The provider's session lets a prompt=none request through without any page...
    silent = authorization_request(oidc_provider, client, prompt="none")
    query = query_of(oidc_provider.authorize_silently(silent.url, session))
    assert query["state"] == silent.state and "code" in query
    assert verified_claims(oidc_provider, exchange(oidc_provider, client, query["code"], silent.code_verifier).json()["id_token"])

    # ...until the account is disabled: the silent request then ends at the relying party with an error,
    oidc_provider.set_account(account["sub"], account["email"], disabled=True)
    silent = authorization_request(oidc_provider, client, prompt="none")
    query = query_of(oidc_provider.authorize_silently(silent.url, session))
    assert query["error"] == "login_required" and query["state"] == silent.state and "code" not in query

    # and the login page refuses it.
    with pytest.raises(SignInRefused, match="Unknown or disabled account"):
        oidc_provider.sign_in(authorization_request(oidc_provider, client).url, account["email"])
    with pytest.raises(SignInRefused, match="Unknown or disabled account"):
        oidc_provider.sign_in(authorization_request(oidc_provider, client).url, "never-heard-of@example.edu.au")

    # The same browser can still sign in as someone else, and, enabled again, as the account.
    other = f"other-{uuid.uuid4().hex[:8]}@example.edu.au"
    oidc_provider.set_account(other, other)
    request, id_token = signed_in(oidc_provider, client, other, session=session)
    assert verified_claims(oidc_provider, id_token)["sub"] == other
    oidc_provider.set_account(account["sub"], account["email"])
    request, id_token = signed_in(oidc_provider, client, account["email"], session=requests.Session())
    assert verified_claims(oidc_provider, id_token)["sub"] == account["sub"]


# ------------------------------------------------------------------------------------------ faults


def test_every_fault_spoils_exactly_one_id_token(oidc_provider, client, account):
    for kind in FAULT_KINDS:
        oidc_provider.inject_fault(kind)
        request, spoiled = signed_in(oidc_provider, client, account["email"])
        check_fault(oidc_provider, client, request, spoiled, kind)

        request, normal = signed_in(oidc_provider, client, account["email"])
        check_claims(oidc_provider, client, request, verified_claims(oidc_provider, normal))


def check_fault(provider: OidcProvider, client: Client, request: Request, id_token: str, kind: str) -> None:
    keys = provider_keys(provider)
    if kind == "wrong_signature":
        # Same kid as the provider's key, so a relying party picks that key, and the signature fails.
        header = json.loads(base64.urlsafe_b64decode(id_token.split(".")[0] + "=="))
        assert header["kid"] in {key.kid for key in keys}
        with pytest.raises(BadSignatureError):
            jwt.decode(id_token, keys, algorithms=["RS256"])
        return
    claims = jwt.decode(id_token, keys, algorithms=["RS256"]).claims  # the provider's own signature
    expected_error, spoiled = {
        "expired": (ExpiredTokenError, lambda c: c["exp"] <= time.time() - 3500 and c["iat"] < c["exp"]),
        "wrong_audience": (InvalidClaimError, lambda c: c["aud"] == "someone-else"),
        "wrong_audience_with_azp": (InvalidClaimError, lambda c: c["aud"] == "someone-else" and c["azp"] == client.client_id),
        "wrong_issuer": (InvalidClaimError, lambda c: c["iss"] == "http://evil.example"),
        "wrong_nonce": (InvalidClaimError, lambda c: c["nonce"] == "not-the-nonce"),
    }[kind]
    assert spoiled(claims), (kind, claims)
    with pytest.raises(expected_error):
        check_claims(provider, client, request, claims)


def test_clearing_a_fault_leaves_the_next_id_token_alone(oidc_provider, client, account):
    oidc_provider.inject_fault("wrong_issuer")
    oidc_provider.clear_faults()
    request, id_token = signed_in(oidc_provider, client, account["email"])
    check_claims(oidc_provider, client, request, verified_claims(oidc_provider, id_token))


def test_unknown_faults_are_refused(oidc_provider):
    with pytest.raises(ValueError, match="unknown fault"):
        oidc_provider.inject_fault("sloppy")
    response = requests.post(oidc_provider.url("/__control/faults"), json={"idToken": "sloppy"}, timeout=10)
    assert response.status_code == 400
