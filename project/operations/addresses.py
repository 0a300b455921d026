"""The client's address behind the proxy (ADR 0020).

nginx appends the address it received a request from to ``X-Forwarded-For``. That header is believed
only when the request came from a trusted proxy (``TRUSTED_PROXIES``, comma-separated addresses or
networks, default none: the embedded single process has no proxy), and then the client is the address
``PROXY_HOPS`` places from the right (default 1: nginx alone; 2 with a load balancer in front of nginx
that appends too). A client can put anything in the header, but not on its right, so counting hops from
the right cannot be fooled, even by a client on the proxy's own machine. Lockout (django-axes reads
``REMOTE_ADDR``) and the logs both see that address.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in spec)


def _trusted(address: str, networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_address(peer: str | None, forwarded_for: str | None) -> str | None:
    """The client's address: ``peer`` (the TCP peer), or, when ``peer`` is a trusted proxy, the address
    ``PROXY_HOPS`` places from the right of ``forwarded_for`` (``peer`` when the header is missing, too
    short or not an address there)."""
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    if not peer or not forwarded_for or not networks or not _trusted(peer, networks):
        return peer
    hops = [h.strip().strip("[]") for h in forwarded_for.split(",")]
    count = max(1, int(settings.PROXY_HOPS))
    if len(hops) < count:
        return peer
    candidate = hops[-count]
    try:
        ipaddress.ip_address(candidate)
    except ValueError:
        return peer
    return candidate
