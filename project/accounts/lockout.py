"""Brute-force protection with django-axes (issue 3).

Password sign-in goes through ``django.contrib.auth.authenticate(request=...)`` so that axes records every
failure (``axes.backends.AxesStandaloneBackend`` refuses a locked account or address). The other secrets
a visitor can guess (an authenticator code, an email address on the first-time page) record their
failures through axes' own API, :meth:`AxesProxyHandler.user_login_failed`, under the same username key
(``AXES_USERNAME_FORM_FIELD = "email"``), so every failure counts towards one lockout for
``AXES_COOLOFF_TIME``.

What is locked (issue 14, docs/adr/0005): the *pair* of account and client address, after
``AXES_FAILURE_LIMIT`` (5) failures (``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]``): one
person's typos or an attacker elsewhere cannot lock an account out of the offices it is used from, and
one user's wrong current passwords cannot lock a colleague behind the same address. Separately an
address that fails ``AXES_IP_FAILURE_LIMIT`` (50) times over all accounts within the cool-off is locked
for every account (password spraying, email probing).

A lockout answers 429 ``{"message": "Too many failed attempts. Please wait 15 minutes and try again.",
"type": "locked_out"}``, from :class:`LockedOut` in a view or from axes' middleware through
:func:`lockout_response`.
"""

from __future__ import annotations

import math

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off
from django.conf import settings
from django.http import HttpRequest, JsonResponse

from project.core.errors import DomainError


def lockout_message() -> str:
    """'Too many failed attempts. Please wait N minutes and try again.' with N from AXES_COOLOFF_TIME."""
    cool_off = get_cool_off()
    if cool_off is None:
        return "Too many failed attempts. Please contact your administrator."
    minutes = max(1, math.ceil(cool_off.total_seconds() / 60))
    unit = "minute" if minutes == 1 else "minutes"
    return f"Too many failed attempts. Please wait {minutes} {unit} and try again."


class LockedOut(DomainError):
    """429 ``locked_out``: too many failures for this account or from this address."""

    status = 429
    type = "locked_out"

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or lockout_message())


def lockout_response(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """django-axes lockout answer (``AXES_LOCKOUT_CALLABLE``) in the API error shape."""
    return JsonResponse(LockedOut().body(), status=LockedOut.status)


def credentials_for(email: str) -> dict:
    return {"email": (email or "").strip().lower()}


def address_failures(request: HttpRequest) -> int:
    """Failed attempts from the request's address within the cool-off, over every account (spraying)."""
    from axes.helpers import get_client_ip_address
    from axes.models import AccessAttempt
    from django.db.models import Sum
    from django.utils import timezone

    ip = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    if not ip:
        return 0
    rows = AccessAttempt.objects.filter(ip_address=ip)
    cool_off = get_cool_off(request)
    if cool_off is not None:
        rows = rows.filter(attempt_time__gte=timezone.now() - cool_off)
    return rows.aggregate(n=Sum("failures_since_start"))["n"] or 0


def _address_locked(request: HttpRequest) -> bool:
    return address_failures(request) >= settings.AXES_IP_FAILURE_LIMIT


def ensure_allowed(request: HttpRequest, email: str) -> None:
    """Raise :class:`LockedOut` when axes refuses this account from this address (the pair), or when
    the address has sprayed past ``AXES_IP_FAILURE_LIMIT`` failures over all accounts."""
    if not AxesProxyHandler.is_allowed(request, credentials_for(email)) or _address_locked(request):
        raise LockedOut()


def record_failure(request: HttpRequest, email: str) -> None:
    """Record one failed attempt for ``email`` and the request's address with axes.

    Raises :class:`LockedOut` when this failure reaches the limit of the pair (axes flags
    ``request.axes_locked_out``) or of the address.
    """
    AxesProxyHandler.user_login_failed(sender=__name__, credentials=credentials_for(email), request=request)
    if getattr(request, "axes_locked_out", False) or _address_locked(request):
        raise LockedOut()


def raise_if_locked_out(request: HttpRequest) -> None:
    """After ``authenticate(request=...)`` returned None: 429 if axes refused or has just locked the
    pair, or the address has reached its own limit."""
    if getattr(request, "axes_locked_out", False) or _address_locked(request):
        raise LockedOut()
