"""Sockets of a single sign-on session (ADR 0022) behave as for password sign-in: logout and deactivation
close them, and the session's 12 hours (``SSO_SESSION_HOURS``) end them through the heartbeat. Against
real daphne processes and the real OpenID provider of tests/sso/provider.py; the browser is ``requests``."""

from __future__ import annotations

import asyncio
import os
import uuid
from urllib.parse import urlencode

import aiohttp
import pytest
import requests

from tests.realtime.conftest import Server, hook
from tests.realtime.test_displays_and_logout import _api
from tests.realtime.test_session_and_scope import connect
from tests.sso.provider import OidcProvider


@pytest.fixture(scope="module")
def idp():
    provider = OidcProvider.start()
    yield provider
    provider.stop()


async def _set_up(server: Server, idp: OidcProvider) -> dict:
    """A fresh organization using ``idp`` for its own domain, and a staff member invited to it. The client
    registered our back-channel logout URI and ``/auth`` as its post-logout redirect URI (ADR 0024)."""
    fresh = await hook(server, "seed", {})
    ada = fresh["a"]["users"]["ada"]
    tag = uuid.uuid4().hex[:8]
    domain = fresh["a"]["domain"]  # the organization's own domain: verified (docs/adr/0024)
    client_id, secret = idp.register_client(
        [f"{server.http}/api/auth/sso/callback"],
        backchannel_logout_uri=f"{server.http}/api/auth/sso/backchannel-logout",
        post_logout_redirect_uris=[f"{server.http}/auth"],
    )
    admin_session = (await hook(server, "session", {"user": ada["id"]}))["session"]
    http, headers = await _api(server, admin_session)
    async with http:
        config = {
            "name": "Test IdP",
            "issuerUrl": idp.issuer,
            "clientId": client_id,
            "clientSecret": secret,
            "domains": [domain],
            "mode": "required",
            "breakGlassUserId": ada["id"],
        }
        async with http.put("/api/organization/sso", json=config, headers=headers) as resp:
            assert resp.status == 200, await resp.text()
        staff = {"firstName": "Sam", "lastName": "Staff", "email": f"sam@{domain}", "role": "user"}
        async with http.post("/api/admin/users", json=staff, headers=headers) as resp:
            assert resp.status == 201, await resp.text()
            sam = await resp.json()
    idp.set_account(f"sam-{tag}", sam["email"])
    return {"admin_session": admin_session, "sam": sam, "client_id": client_id}


def _sso_session(server: Server, idp: OidcProvider, email: str, at_provider: requests.Session | None = None) -> str:
    """Sign in through the provider as a browser would (``at_provider``: the browser's cookies there); the
    session key our server set."""
    browser = requests.Session()
    start = browser.get(f"{server.http}/api/auth/sso/start", params={"email": email}, allow_redirects=False, timeout=10)
    assert start.status_code == 302, start.text
    callback = idp.sign_in(start.headers["Location"], email, session=at_provider)
    back = browser.get(callback, allow_redirects=False, timeout=10)
    assert back.status_code == 302 and back.headers["Location"] == "/", back.headers.get("Location")
    return browser.cookies["sessionid"]


async def _deactivate(server: Server, admin_session: str, user_id: str) -> None:
    http, headers = await _api(server, admin_session)
    async with http:
        async with http.delete(f"/api/admin/users/{user_id}", headers=headers) as resp:
            assert resp.status == 200, await resp.text()


async def test_logout_and_deactivation_close_an_sso_sessions_socket(server, idp):
    setup = await _set_up(server, idp)
    sam = setup["sam"]
    session = await asyncio.to_thread(_sso_session, server, idp, sam["email"])
    tab = await connect(server, session)
    try:
        http, headers = await _api(server, session)
        async with http:
            async with http.post("/api/auth/logout", headers=headers) as resp:
                assert resp.status == 200
        await asyncio.wait_for(tab.disconnected.wait(), 3)
        assert tab.ended == [{"reason": "logout"}]
    finally:
        await tab.close()

    session = await asyncio.to_thread(_sso_session, server, idp, sam["email"])
    tab = await connect(server, session)
    try:
        await _deactivate(server, setup["admin_session"], sam["id"])
        await asyncio.wait_for(tab.disconnected.wait(), 3)
        assert tab.ended and tab.ended[0]["reason"] in {"deactivated", "expired"}
    finally:
        await tab.close()


async def test_an_sso_session_ends_after_its_hours_and_its_socket_with_it(rt_database_url, idp):
    """``SSO_SESSION_HOURS`` at 0.002 (7.2 s) instead of 12: the socket is ended by the heartbeat when the
    session runs out, and the API answers 401 (the SPA then re-checks silently with the provider)."""
    server = Server(rt_database_url, os.environ.get("REDIS_URL"), SSO_SESSION_HOURS="0.002").start()
    try:
        setup = await _set_up(server, idp)
        session = await asyncio.to_thread(_sso_session, server, idp, setup["sam"]["email"])
        tab = await connect(server, session)
        connected_at = asyncio.get_running_loop().time()
        try:
            await asyncio.wait_for(tab.disconnected.wait(), 15)
            assert tab.ended == [{"reason": "expired"}]
            # Ended by the session's end, not at once: it lived most of its 7.2 s.
            assert asyncio.get_running_loop().time() - connected_at > 4
        finally:
            await tab.close()
        async with aiohttp.ClientSession(base_url=server.http, cookies={"sessionid": session}) as http:
            async with http.get("/api/auth/user") as resp:
                assert resp.status == 401
    finally:
        server.stop()


async def test_signing_out_at_the_provider_ends_the_session_and_closes_its_socket_within_2_s(server, idp):
    """OpenID Connect Back-Channel Logout 1.0 (ADR 0024): the staff member signs out at the provider; the
    provider POSTs a logout token to our server, which ends the session and closes its socket."""
    setup = await _set_up(server, idp)
    at_provider = requests.Session()
    session = await asyncio.to_thread(_sso_session, server, idp, setup["sam"]["email"], at_provider)
    other = await asyncio.to_thread(_sso_session, server, idp, setup["sam"]["email"])  # another browser, same sub
    tab, bystander = await connect(server, session), await connect(server, setup["admin_session"])
    try:
        end_session = idp.discovery()["end_session_endpoint"]
        query = {"client_id": setup["client_id"], "post_logout_redirect_uri": f"{server.http}/auth"}
        signed_out_at = asyncio.get_running_loop().time()
        back = await asyncio.to_thread(idp.sign_out, f"{end_session}?{urlencode(query)}", at_provider)
        assert back.startswith(f"{server.http}/auth")
        try:
            await asyncio.wait_for(tab.disconnected.wait(), 2)
        except TimeoutError:
            raise AssertionError(f"the socket stayed open; the provider said: {idp._stderr_text()[-2000:]}") from None
        assert asyncio.get_running_loop().time() - signed_out_at < 2
        assert tab.ended == [{"reason": "logout"}]
        for key in (session, other):
            async with aiohttp.ClientSession(base_url=server.http, cookies={"sessionid": key}) as http:
                async with http.get("/api/auth/user") as resp:
                    assert resp.status == 401
        assert not bystander.disconnected.is_set()  # the admin's password session lives on
    finally:
        await tab.close()
        await bystander.close()
