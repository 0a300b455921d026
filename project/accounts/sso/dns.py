"""DNS look-ups of domain verification (docs/adr/0024): the TXT records of a domain, with dnspython.

The resolver is the system's, or the one named by ``DOMAIN_VERIFICATION_NAMESERVER`` and
``DOMAIN_VERIFICATION_PORT`` (the tests run a DNS server of their own on a free port).
"""

from __future__ import annotations

import dns.exception
import dns.resolver
from django.conf import settings

LIFETIME = 5.0  # seconds for the whole look-up, retries included


class LookupFailed(Exception):
    """The DNS servers could not be asked (timeout, no server answered)."""


def _resolver() -> dns.resolver.Resolver:
    nameserver = settings.DOMAIN_VERIFICATION_NAMESERVER
    if not nameserver:
        return dns.resolver.Resolver()
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers = [nameserver]
    resolver.port = settings.DOMAIN_VERIFICATION_PORT
    return resolver


def txt_records(domain: str) -> list[str]:
    """The texts of ``domain``'s TXT records (each record's strings joined, decoded as UTF-8 with
    replacement). [] when the domain or its TXT records do not exist. LookupFailed when DNS does not answer."""
    try:
        answer = _resolver().resolve(domain, "TXT", lifetime=LIFETIME, search=False)
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return []
    except (dns.exception.Timeout, dns.resolver.NoNameservers, dns.resolver.LifetimeTimeout) as err:
        raise LookupFailed(type(err).__name__) from None
    except dns.exception.DNSException as err:  # a malformed name or answer: nothing usable
        raise LookupFailed(type(err).__name__) from None
    return [b"".join(rdata.strings).decode("utf-8", "replace") for rdata in answer]
