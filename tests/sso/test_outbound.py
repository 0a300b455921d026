"""The server never fetches an internal address (docs/adr/0024): the outbound client against a local HTTP
server of the test's own, under production settings (private addresses refused). The provider's host name
``localhost`` is allowed by ``OUTBOUND_ALLOWED_HOSTS`` (an operator's own identity provider); what its
discovery document or its redirects name on ``127.0.0.1`` (the same server, another host name) must never
be requested: the server logs every request it gets with its Host header."""

from __future__ import annotations

import ipaddress
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from project.core import outbound
from tests.conftest import ApiClient

CALLBACK = "http://localhost/api/auth/sso/callback"
FAKE_ID_TOKEN = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"  # {"alg":"RS256","kid":"k1"}


class LocalServer:
    """An HTTP server on 127.0.0.1 answering ``routes[path]`` = (status, headers, body); logs (host, path)."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, dict[str, str], bytes]] = {}
        self.requests: list[tuple[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                path = urlsplit(self.path).path
                server.requests.append((self.headers.get("Host", "").split(":")[0], path))
                if self.command == "POST":
                    self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, headers, body = server.routes.get(path, (404, {}, b"{}"))
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer  # noqa: N815 — http.server's method names

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, host: str, path: str) -> str:
        return f"http://{host}:{self.port}{path}"

    def json(self, path: str, body: object, status: int = 200) -> None:
        self.routes[path] = (status, {}, json.dumps(body).encode())

    def redirect(self, path: str, location: str) -> None:
        self.routes[path] = (302, {"Location": location}, b"")

    def hits(self, host: str) -> list[str]:
        return [path for h, path in self.requests if h == host]

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def local() -> Iterator[LocalServer]:
    server = LocalServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def production(settings):
    """Production's outbound rules (private addresses refused), with http kept for a server without TLS and
    ``localhost`` allowed as the operator's own provider."""
    settings.SSO_ALLOW_PRIVATE_ISSUERS = False
    settings.SSO_ALLOW_HTTP_ISSUERS = True
    settings.OUTBOUND_ALLOWED_HOSTS = ["localhost"]
    return settings


def discovery(local: LocalServer, **overrides: str) -> dict[str, str]:
    issuer = local.url("localhost", "")
    document = {
        "issuer": issuer,
        "authorization_endpoint": f"{issuer}/auth",
        "token_endpoint": f"{issuer}/token",
        "jwks_uri": f"{issuer}/jwks",
        "userinfo_endpoint": f"{issuer}/me",
        **overrides,
    }
    local.json("/.well-known/openid-configuration", document)
    local.json("/jwks", {"keys": [{"kty": "oct", "k": "c2VjcmV0", "kid": "k1"}]})
    return document


# ------------------------------------------------------------------------------------------ addresses


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.100.100.200",
        "0.0.0.0",  # noqa: S104 — an address judged, not bound
        "::1",
        "fe80::1",
        "fd00:ec2::254",
        "::ffff:127.0.0.1",
        "224.0.0.1",
    ],
)
def test_internal_and_metadata_addresses_are_not_public(address):
    assert not outbound.is_public(ipaddress.ip_address(address))


def test_public_addresses_are_public():
    assert outbound.is_public(ipaddress.ip_address("8.8.8.8"))
    assert outbound.is_public(ipaddress.ip_address("2606:4700:4700::1111"))


def test_private_literal_and_named_hosts_are_refused_before_connecting(production, local):
    for url in (local.url("127.0.0.1", "/x"), "http://169.254.169.254/latest/meta-data/", "http://[::1]/"):
        with pytest.raises(outbound.OutboundRefused), outbound.session() as http:
            http.get(url)
    with pytest.raises(outbound.requests.RequestException), outbound.session() as http:
        http.get("ftp://example.com/")
    assert local.requests == []


def test_an_allowed_host_is_fetched_and_private_addresses_pass_outside_production(settings, local):
    local.json("/ok", {"ok": True})
    settings.SSO_ALLOW_PRIVATE_ISSUERS, settings.OUTBOUND_ALLOWED_HOSTS = False, ["localhost"]
    with outbound.session() as http:
        assert http.get(local.url("localhost", "/ok")).json() == {"ok": True}
    settings.SSO_ALLOW_PRIVATE_ISSUERS = True
    with outbound.session() as http:
        assert http.get(local.url("127.0.0.1", "/ok")).json() == {"ok": True}
    assert local.hits("localhost") == ["/ok"] and local.hits("127.0.0.1") == ["/ok"]


def test_answers_are_capped_in_size(settings, local):
    settings.SSO_ALLOW_PRIVATE_ISSUERS = True
    local.routes["/big"] = (200, {}, b"x" * (outbound.MAX_BYTES + 1))
    with pytest.raises(outbound.OutboundRefused, match="larger than"), outbound.session() as http:
        http.get(local.url("127.0.0.1", "/big"))


def test_redirects_are_capped(settings, local):
    settings.SSO_ALLOW_PRIVATE_ISSUERS = True
    local.redirect("/loop", "/loop")
    with pytest.raises(outbound.requests.TooManyRedirects), outbound.session() as http:
        http.get(local.url("127.0.0.1", "/loop"))
    assert len(local.hits("127.0.0.1")) == outbound.MAX_REDIRECTS + 1


# ------------------------------------------------------------------------------------------ "Test connection"


def test_connection_refuses_a_private_jwks_uri(production, local, api):
    discovery(local, jwks_uri=local.url("127.0.0.1", "/jwks"))
    answer = api.post("/api/organization/sso/test", {"issuerUrl": local.url("localhost", "")})
    assert answer.status_code == 200
    assert answer.json()["ok"] is False and "Refused" in answer.json()["message"]
    assert local.hits("127.0.0.1") == []
    assert local.hits("localhost") == ["/.well-known/openid-configuration"]


def test_connection_refuses_a_redirect_to_a_private_address(production, local, api):
    local.redirect("/.well-known/openid-configuration", local.url("127.0.0.1", "/.well-known/openid-configuration"))
    answer = api.post("/api/organization/sso/test", {"issuerUrl": local.url("localhost", "")})
    assert answer.json()["ok"] is False and "Refused" in answer.json()["message"]
    assert local.hits("127.0.0.1") == []
    # The metadata address: refused before any connection (no timeout waited for).
    local.redirect("/.well-known/openid-configuration", "http://169.254.169.254/latest/meta-data/")
    answer = api.post("/api/organization/sso/test", {"issuerUrl": local.url("localhost", "")})
    assert answer.json()["ok"] is False and "Refused" in answer.json()["message"]


def test_connection_refuses_a_private_issuer_in_production(production, local, api):
    discovery(local)
    answer = api.post("/api/organization/sso/test", {"issuerUrl": local.url("127.0.0.1", "")})
    assert answer.json()["ok"] is False
    assert local.requests == []


# ------------------------------------------------------------------------------------------ sign-in


@pytest.fixture
def configured(production, local, api, member_user):
    discovery(local)
    answer = api.put(
        "/api/organization/sso",
        {
            "name": "Local IdP",
            "issuerUrl": local.url("localhost", ""),
            "clientId": "client-1",
            "clientSecret": "secret-1",
            "domains": ["mp.edu.au"],
            "mode": "optional",
        },
    )
    assert answer.status_code == 200, answer.content
    return local


def callback_with_code(browser: ApiClient) -> object:
    authorize = browser.get("/api/auth/sso/start", {"email": "member@mp.edu.au"})
    assert authorize.status_code == 302, authorize.content
    state = parse_qs(urlsplit(authorize["Location"]).query)["state"][0]
    return browser.client.get("/api/auth/sso/callback", {"code": "a-code", "state": state})


def test_sign_in_never_posts_to_a_private_token_endpoint(configured):
    discovery(configured, token_endpoint=configured.url("127.0.0.1", "/token"))
    configured.json("/token", {"access_token": "a", "token_type": "Bearer", "id_token": FAKE_ID_TOKEN})
    answer = callback_with_code(ApiClient(None))
    assert answer.status_code == 302 and answer["Location"].startswith("/auth?ssoError=")
    assert configured.hits("127.0.0.1") == []


def test_sign_in_never_fetches_a_private_jwks_uri(configured):
    discovery(configured, jwks_uri=configured.url("127.0.0.1", "/jwks"))
    configured.json("/token", {"access_token": "a", "token_type": "Bearer", "id_token": FAKE_ID_TOKEN})
    answer = callback_with_code(ApiClient(None))
    assert answer.status_code == 302 and answer["Location"].startswith("/auth?ssoError=")
    assert "/token" in configured.hits("localhost")  # it got as far as the keys
    assert configured.hits("127.0.0.1") == []


def test_sign_in_never_follows_a_token_endpoint_redirect_to_a_private_address(configured):
    configured.redirect("/token", configured.url("127.0.0.1", "/token"))
    answer = callback_with_code(ApiClient(None))
    assert answer.status_code == 302 and answer["Location"].startswith("/auth?ssoError=")
    assert "/token" in configured.hits("localhost")
    assert configured.hits("127.0.0.1") == []


def test_no_server_module_fetches_urls_but_through_the_outbound_client():
    """One client for the whole project: no other module of the server opens HTTP connections itself."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    forbidden = ("requests.get(", "requests.post(", "requests.request(", "requests.Session(", "urlopen(", "import httpx",
                 "import aiohttp", "HTTPConnection", "urllib3.")  # fmt: skip
    offenders = [
        f"{path.relative_to(root)}: {word}"
        for folder in ("project", "realtime")
        for path in (root / folder).rglob("*.py")
        if path.name != "outbound.py" and "migrations" not in path.parts
        for word in forbidden
        if word in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_the_connection_goes_to_the_address_that_was_checked(production, local, monkeypatch):
    """DNS rebinding: the name resolves to a public address when checked and to 127.0.0.1 a moment later.
    The host is resolved once and the connection made to the checked address, so the internal server
    is never reached (the public address does not answer here: a connection error, within the time cap)."""
    import socket

    real = socket.getaddrinfo
    answers = iter(["1.1.1.1", "127.0.0.1", "127.0.0.1"])
    lookups: list[str] = []

    def rebinding(host, port, *args, **kwargs):
        if host != "rebind.example":
            return real(host, port, *args, **kwargs)
        address = next(answers)
        lookups.append(address)
        return real(address, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    monkeypatch.setattr(outbound, "TIMEOUT", 1.0)
    with pytest.raises(outbound.requests.RequestException), outbound.session() as http:
        http.get(f"http://rebind.example:{local.port}/x")
    assert lookups == ["1.1.1.1"]
    assert local.requests == []
