"""The one outbound HTTP client of the server (docs/adr/0024).

Every request the server itself makes to a URL it did not write (an identity provider's discovery
document, its keys, token, userinfo and end-session endpoints, and whatever those redirect to) goes
through :func:`session`: a ``requests.Session`` whose only transport is :class:`GuardedAdapter`.
For each request, and so for each hop of a redirect (``requests`` sends every hop through the adapter):

- the scheme must be ``https`` (``http`` too with ``SSO_ALLOW_HTTP_ISSUERS``, on outside production);
- the host is resolved once, and unless ``SSO_ALLOW_PRIVATE_ISSUERS`` (on outside production) or the host
  is named in ``OUTBOUND_ALLOWED_HOSTS`` (an operator's own identity provider on the internal network),
  every address it resolves to must be a global one: loopback, private, link-local (169.254.169.254, the
  cloud metadata address), shared, reserved and multicast addresses are refused;
- the connection is made to the address that was checked (the host name is kept for the ``Host`` header,
  TLS SNI and certificate check), so a second DNS answer cannot swap in another address (DNS rebinding);
- at most ``MAX_REDIRECTS`` redirects, ``TIMEOUT`` seconds in all and ``MAX_BYTES`` of body.

A refusal raises :class:`OutboundRefused` (a ``requests.RequestException``, so callers that already handle
network failures handle it too) before any byte is sent to the refused address.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import certifi
import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3 import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.util import Timeout

TIMEOUT = 10.0  # seconds, whole request (connect, send, every byte of the answer)
MAX_BYTES = 1_000_000  # bytes of answer body
MAX_REDIRECTS = 3
CHUNK = 64 * 1024

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class OutboundRefused(requests.RequestException):
    """The request was not sent (scheme, address) or its answer was cut off (time, size)."""


def allowed_schemes() -> tuple[str, ...]:
    return ("https", "http") if settings.SSO_ALLOW_HTTP_ISSUERS else ("https",)


def is_public(address: Address) -> bool:
    """A global unicast address (IPv4-mapped IPv6 judged by its IPv4 address)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def resolve(host: str, port: int) -> list[Address]:
    """The addresses ``host`` may be connected to, checked. Raises OutboundRefused when it does not
    resolve, or when any address is not public (unless private addresses are allowed for it)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise OutboundRefused(f"{host} does not resolve") from None
    addresses: list[Address] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise OutboundRefused(f"{host} does not resolve")
    private_ok = settings.SSO_ALLOW_PRIVATE_ISSUERS or host.lower().rstrip(".") in _allowed_hosts()
    if not private_ok and not all(is_public(a) for a in addresses):
        raise OutboundRefused(f"{host} is not a public address")
    return addresses


def _allowed_hosts() -> set[str]:
    return {h.strip().lower().rstrip(".") for h in getattr(settings, "OUTBOUND_ALLOWED_HOSTS", []) if h.strip()}


def check_url(url: str) -> list[Address]:
    """Scheme and addresses of ``url`` checked as a request to it would be; its addresses. OutboundRefused."""
    parts = urlsplit(url)
    if parts.scheme not in allowed_schemes() or not parts.hostname:
        raise OutboundRefused(f"{parts.scheme or 'no'} scheme: only {' or '.join(allowed_schemes())} URLs are fetched")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise OutboundRefused("the URL's port is not a number") from None
    return resolve(parts.hostname, port)


class GuardedAdapter(HTTPAdapter):
    """requests' transport, checked and pinned (see the module docstring). Proxies are not used."""

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: Any = True,
        cert: Any = None,
        proxies: Mapping[str, str] | None = None,
    ) -> requests.Response:
        url = request.url or ""
        parts = urlsplit(url)
        addresses = check_url(url)
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        headers = {name: value if isinstance(value, str) else value.decode("latin-1") for name, value in request.headers.items()}
        headers["Host"] = parts.netloc.rsplit("@", 1)[-1]
        deadline = time.monotonic() + TIMEOUT
        last_error: Exception | None = None
        for address in addresses:
            pool = _pool(parts.scheme, str(address), port, host)
            remaining = max(0.1, deadline - time.monotonic())
            try:
                raw = pool.urlopen(
                    request.method or "GET",
                    target,
                    body=request.body,  # type: ignore[arg-type]  # requests prepares str or bytes here
                    headers=headers,
                    redirect=False,
                    retries=False,
                    preload_content=False,
                    decode_content=False,
                    timeout=Timeout(connect=min(remaining, 5.0), read=remaining),
                )
            except Urllib3Error as err:
                last_error = err
                pool.close()
                continue
            try:
                body = _read_capped(raw, deadline)
            except Urllib3Error as err:
                raise requests.ConnectionError(f"{host}: {type(err).__name__}") from None
            finally:
                raw.release_conn()
                pool.close()
            response = self.build_response(request, raw)
            response._content = body  # noqa: SLF001 — requests' own attribute for a body already read
            return response
        raise requests.ConnectionError(f"could not connect to {host}: {type(last_error).__name__}")


def _pool(scheme: str, address: str, port: int, host: str) -> HTTPConnectionPool:
    if scheme == "https":
        return HTTPSConnectionPool(
            address,
            port,
            maxsize=1,
            cert_reqs="CERT_REQUIRED",
            ca_certs=certifi.where(),
            server_hostname=host,
            assert_hostname=host,
        )
    return HTTPConnectionPool(address, port, maxsize=1)


def _read_capped(raw: Any, deadline: float) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > deadline:
            raise OutboundRefused(f"the answer took more than {TIMEOUT:g} s")
        chunk = raw.read(CHUNK, decode_content=True)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_BYTES:
            raise OutboundRefused(f"the answer is larger than {MAX_BYTES} bytes")
        chunks.append(chunk)


def guard(http: requests.Session) -> requests.Session:
    """Route every request of ``http`` through :class:`GuardedAdapter` (also for Authlib's sessions)."""
    adapter = GuardedAdapter()
    http.mount("https://", adapter)
    http.mount("http://", adapter)
    http.trust_env = False  # no proxy from the environment: the address checked is the one connected to
    http.max_redirects = MAX_REDIRECTS
    return http


def session() -> requests.Session:
    """A new guarded ``requests.Session`` (use it as a context manager)."""
    return guard(requests.Session())
