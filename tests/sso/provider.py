"""A real OpenID provider for the single sign-on tests (ADR 0022): starts Node's certified ``oidc-provider``
(spa/e2e/support/oidc-provider.mjs, needs ``node`` on PATH and ``npm install`` in spa/) and drives it over
HTTP: dynamic client registration, accounts, fault injection, and a browserless user agent that signs in
through its interaction page. No Django here: the tests pass our server's URLs in and take its URLs out.

    provider = OidcProvider.start()
    client_id, client_secret = provider.register_client(["http://testserver/api/auth/sso/callback"])
    provider.set_account("mel", "mel@example.edu.au", name="Mel Member")
    callback_url = provider.sign_in(authorize_url, "mel@example.edu.au")  # ...?code=...&state=...
    provider.stop()

tests/sso/conftest.py offers it as the session-scoped fixture ``oidc_provider``.
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import tempfile
import threading
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote, urljoin, urlsplit

import requests

REPO_ROOT = Path(__file__).resolve().parents[2]
SCRIPT = REPO_ROOT / "spa" / "e2e" / "support" / "oidc-provider.mjs"
READY_PREFIX = "OIDC provider listening on "
START_TIMEOUT = 20.0  # seconds until the "listening" line
HTTP_TIMEOUT = 10.0  # seconds per request to the provider
MAX_HOPS = 20  # redirects and form posts of one sign-in before giving up

CLIENT_AUTH_METHOD = "client_secret_basic"  # or "client_secret_post"
FAULT_KINDS = ("expired", "wrong_signature", "wrong_audience", "wrong_audience_with_azp", "wrong_issuer", "wrong_nonce")


class OidcProviderError(RuntimeError):
    """The provider did not start, or answered something a sign-in does not expect."""


class SignInRefused(OidcProviderError):
    """The provider's login page refused the email (its text: "Unknown or disabled account")."""


class _Form(HTMLParser):
    """The first <form> of a page (its action and fields), and the text of the page's alert if any."""

    def __init__(self) -> None:
        super().__init__()
        self.action: str | None = None
        self.fields: dict[str, str] = {}
        self.hidden_only = True
        self.alert: list[str] = []
        self._in_form = self._in_alert = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "form" and self.action is None:
            self.action, self._in_form = attributes.get("action") or "", True
        elif tag == "input" and self._in_form and attributes.get("name"):
            self.fields[attributes["name"] or ""] = attributes.get("value") or ""
            self.hidden_only &= attributes.get("type") == "hidden"
        if attributes.get("role") == "alert":
            self._in_alert = True

    def handle_endtag(self, tag: str) -> None:
        self._in_alert = False
        if tag == "form":
            self._in_form = False

    def handle_data(self, data: str) -> None:
        if self._in_alert:
            self.alert.append(data.strip())


class OidcProvider:
    """One running provider process (see the module docstring)."""

    def __init__(self, process: subprocess.Popen[str], issuer: str, stderr: IO[str]) -> None:
        self.process = process
        self.issuer = issuer
        self._stderr = stderr
        self.stderr_text = ""  # what the process wrote to stderr, read when it stops
        self.http = requests.Session()  # for the control API and registration; never the user agent's

    # ------------------------------------------------------------------------------------ lifecycle

    @classmethod
    def start(cls, timeout: float = START_TIMEOUT) -> OidcProvider:
        """Launch the node script on a free port and wait (at most ``timeout`` seconds) for its
        "listening" line. Raises OidcProviderError with the script's stderr when it does not come."""
        node = shutil.which("node")
        if node is None:
            raise OidcProviderError("node is not on PATH: the OpenID provider of the tests needs Node.js")
        stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # closed by stop()
        process = subprocess.Popen(
            [node, str(SCRIPT), "--port", "0"],
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
        lines: queue.Queue[str | None] = queue.Queue()
        assert process.stdout is not None
        # Reads stdout for the whole life of the process, so a chatty provider never fills the pipe.
        threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:  # timed out, or stdout closed (the process ended)
                provider = cls(process, "", stderr)
                status = "it exited" if process.poll() is not None else f"no listening line within {timeout:g} s"
                provider.stop()  # first, so that stderr is complete
                raise OidcProviderError(
                    f"the OpenID provider did not start ({status}, exit code {process.returncode}):\n{provider.stderr_text}"
                )
            if line.startswith(READY_PREFIX):
                return cls(process, line[len(READY_PREFIX) :].strip(), stderr)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it has not ended within 10 seconds."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.http.close()
        self.stderr_text = self._stderr_text()
        if not self._stderr.closed:
            self._stderr.close()

    def __enter__(self) -> OidcProvider:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _stderr_text(self) -> str:
        if self._stderr.closed:
            return ""
        self._stderr.flush()
        self._stderr.seek(0)
        return self._stderr.read()

    # ------------------------------------------------------------------------------------ set-up

    def url(self, path: str) -> str:
        return f"{self.issuer}{path}"

    def discovery(self) -> dict[str, Any]:
        return self._json("GET", "/.well-known/openid-configuration")

    def register_client(
        self, redirect_uris: list[str], token_endpoint_auth_method: str = CLIENT_AUTH_METHOD, **metadata: Any
    ) -> tuple[str, str]:
        """RFC 7591 registration of a confidential web client for the code flow: (client_id, client_secret).
        ``metadata``: more client metadata, e.g. ``post_logout_redirect_uris=[...]``, ``backchannel_logout_uri``."""
        body = self._json(
            "POST",
            "/reg",
            json={
                "redirect_uris": redirect_uris,
                "token_endpoint_auth_method": token_endpoint_auth_method,
                "grant_types": ["authorization_code"],
                "response_types": ["code"],
                **metadata,
            },
            expect=201,
        )
        return body["client_id"], body["client_secret"]

    def set_account(
        self,
        sub: str,
        email: str,
        *,
        email_verified: bool = True,
        name: str = "",
        given_name: str = "",
        family_name: str = "",
        disabled: bool = False,
        email_in_userinfo_only: bool = False,
    ) -> None:
        """Create or replace the account ``sub`` (empty names are left out of the claims). With
        ``email_in_userinfo_only`` the ID token carries no ``email``/``email_verified``: only userinfo has them."""
        account = {
            "email": email,
            "email_verified": email_verified,
            "name": name,
            "given_name": given_name,
            "family_name": family_name,
            "disabled": disabled,
            "emailInUserinfoOnly": email_in_userinfo_only,
        }
        self._json("PUT", f"/__control/accounts/{quote(sub, safe='')}", json=account, expect=204)

    def inject_fault(self, kind: str) -> None:
        """Spoil the ID token of the next successful token response (one-shot); ``kind`` in FAULT_KINDS."""
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault {kind!r}: one of {', '.join(FAULT_KINDS)}")
        self._json("POST", "/__control/faults", json={"idToken": kind}, expect=204)

    def clear_faults(self) -> None:
        self._json("DELETE", "/__control/faults", expect=204)

    def logout_token(self, client_id: str, *, sub: str = "", sid: str = "", fault: str = "") -> str:
        """A back-channel logout token for ``client_id`` signed with the provider's key (``fault`` spoils it:
        wrong_audience, wrong_issuer, expired, nonce, no_event, wrong_signature)."""
        body = {"clientId": client_id, "sub": sub, "sid": sid, "fault": fault}
        return self._json("POST", "/__control/logout-token", json=body)["logoutToken"]

    def sign_out(self, end_session_url: str, session: requests.Session) -> str:
        """Play the browser at the provider's end-session endpoint (its sign-out page confirms by itself): the
        URL it sends the browser to afterwards (the relying party's post-logout redirect URI)."""
        return self._browse(end_session_url, session, None)

    def last_authorization(self) -> dict[str, str]:
        """The parameters of the latest request to the authorization endpoint ({} before any)."""
        return self._json("GET", "/__control/last-authorization")

    # ------------------------------------------------------------------------------------ user agent

    def sign_in(self, authorize_url: str, email: str, session: requests.Session | None = None) -> str:
        """Play the browser: open ``authorize_url``, follow the provider's redirects, submit its login form
        with ``email``, and return the first URL that leaves the provider (the relying party's redirect_uri
        with code and state, or with an error) without requesting it. Pass a ``session`` to keep the
        provider's cookies (its sign-in session) for a later silent re-authentication.
        Raises SignInRefused when the login page refuses the email."""
        return self._browse(authorize_url, session or requests.Session(), email)

    def authorize_silently(self, authorize_url: str, session: requests.Session) -> str:
        """Like sign_in without a form (e.g. prompt=none): the relying-party URL the provider sends the
        browser to, success or error. Raises OidcProviderError if the provider shows a page instead."""
        return self._browse(authorize_url, session, None)

    def _browse(self, url: str, session: requests.Session, email: str | None) -> str:
        """Follow redirects within the provider; fill in its login form once (when ``email`` is given) and
        submit the forms of hidden fields that a browser's script would submit by itself (oidc-provider
        ends the previous sign-in that way when another account signs in); stop at the first redirect
        that leaves the provider."""
        response = session.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT)
        submitted = False
        for _ in range(MAX_HOPS):
            if response.is_redirect:
                location = urljoin(response.url, response.headers["Location"])
                if not self._on_provider(location):
                    return location
                response = session.get(location, allow_redirects=False, timeout=HTTP_TIMEOUT)
                continue
            form = _Form()
            form.feed(response.text if response.status_code == 200 else "")
            action = urljoin(response.url, form.action) if form.action is not None else ""
            if "email" in form.fields and submitted and form.alert:
                raise SignInRefused(f"the provider refused {email!r}: {' '.join(form.alert)}")
            if "email" in form.fields and email is not None and not submitted and self._on_provider(action):
                response = session.post(action, data={**form.fields, "email": email}, allow_redirects=False, timeout=HTTP_TIMEOUT)
                submitted = True
                continue
            if form.fields and form.hidden_only and self._on_provider(action):
                response = session.post(action, data=form.fields, allow_redirects=False, timeout=HTTP_TIMEOUT)
                continue
            raise OidcProviderError(
                f"unexpected answer from the provider to {response.url} (HTTP {response.status_code}):\n{response.text[:2000]}"
            )
        raise OidcProviderError(f"no way out of the provider after {MAX_HOPS} steps (last: {response.url})")

    def _on_provider(self, url: str) -> bool:
        ours, theirs = urlsplit(self.issuer), urlsplit(url)
        return (ours.scheme, ours.netloc) == (theirs.scheme, theirs.netloc)

    # ------------------------------------------------------------------------------------ HTTP

    def _json(self, method: str, path: str, *, json: Any = None, expect: int = 200) -> Any:
        response = self.http.request(method, self.url(path), json=json, timeout=HTTP_TIMEOUT)
        if response.status_code != expect:
            raise OidcProviderError(f"{method} {path}: HTTP {response.status_code} {response.text[:2000]}")
        return response.json() if response.content else None


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)
