"""Brute-force protection with django-axes.

Password sign-in goes through ``django.contrib.auth.authenticate(request=...)`` so that axes records every
failure (``axes.backends.AxesStandaloneBackend`` refuses a locked account or address). The other secrets
a visitor can guess (an authenticator code, an email address on the first-time page) record their
failures through axes' own API, :meth:`AxesProxyHandler.user_login_failed`, under the same username key
(``AXES_USERNAME_FORM_FIELD = "email"``), so every failure counts towards one lockout for
``AXES_COOLOFF_TIME``.

What is locked (docs/adr/0005): the *pair* of account and client address, after
``AXES_FAILURE_LIMIT`` (5) failures (``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]``): one
person's typos or an attacker elsewhere cannot lock an account out of the offices it is used from, and
one user's wrong current passwords cannot lock a colleague behind the same address. Separately an
address that fails ``AXES_IP_FAILURE_LIMIT`` (50) times over all accounts within the cool-off is locked
for every account (password spraying, email probing).

Device cookies (docs/adr/0005, the OWASP Authentication Cheat Sheet's "device cookies"): a
successful sign-in gives the browser a signed ``blockplan_device`` cookie naming a :class:`TrustedDevice`
row bound to that account. An attempt for that account from that browser is judged by the device's own
record only (``AXES_FAILURE_LIMIT`` failures within the cool-off lock that device, not the account nor
the address): axes treats it as whitelisted (``AXES_WHITELIST_CALLABLE``) and the address limit does not
apply, so a returning user is never refused because of what others did behind the same address. Attempts
without a valid device cookie for the account (attackers, new browsers) keep the pair and address limits.

A lockout answers 429 ``{"message": "Too many failed attempts. Please wait 15 minutes and try again.",
"type": "locked_out"}``, from :class:`LockedOut` in a view or from axes' middleware through
:func:`lockout_response`.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_ip_address, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core import signing
from django.db import transaction
from django.db.models import Sum
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from project.accounts.models import TrustedDevice, User
from project.core.errors import DomainError

DEVICE_COOKIE = "blockplan_device"
DEVICE_SALT = "blockplan.accounts.device-cookie"
DEVICE_MAX_AGE = timedelta(days=365)  # a device unused for a year is forgotten
# The key first-time lookups without a token are counted under: never an account's email, so they count
# towards the address limit only (ADR 0005 amended).
LOOKUP_KEY = "first-time-lookup"
DEVICES_PER_BROWSER = 8  # accounts one browser remembers (a shared campus computer), newest kept


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


def _cool_off() -> timedelta:
    return get_cool_off() or timedelta(minutes=15)


# ------------------------------------------------------------------------------------- device cookies


def _cookie_device_ids(request: HttpRequest) -> list[uuid.UUID]:
    """The device ids of the request's ``blockplan_device`` cookie; [] when absent, forged or expired."""
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw:
        return []
    try:
        value = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    except signing.BadSignature:
        return []
    ids: list[uuid.UUID] = []
    for item in value if isinstance(value, list) else []:
        try:
            ids.append(uuid.UUID(str(item)))
        except ValueError:
            continue
    return ids[:DEVICES_PER_BROWSER]


def trusted_device(request: HttpRequest, email: str | None) -> TrustedDevice | None:
    """The device of this browser bound to the account ``email`` (signed in with it within a year), or
    None. One query per request and email (remembered on the request)."""
    email = (email or "").strip().lower()
    cache: dict[str, TrustedDevice | None] = request.__dict__.setdefault("_blockplan_devices", {})
    if email not in cache:
        ids = _cookie_device_ids(request)
        cache[email] = (
            TrustedDevice.objects.filter(pk__in=ids, user__email=email, last_used_at__gte=timezone.now() - DEVICE_MAX_AGE).first()
            if ids and email
            else None
        )
    return cache[email]


def _device_locked(device: TrustedDevice) -> bool:
    return (
        device.failures >= settings.AXES_FAILURE_LIMIT
        and device.failed_at is not None
        and device.failed_at >= timezone.now() - _cool_off()
    )


def _device_failed(device: TrustedDevice) -> None:
    """Count one failure on the device (a run older than the cool-off starts again at one)."""
    now = timezone.now()
    with transaction.atomic():
        row = TrustedDevice.objects.select_for_update().get(pk=device.pk)
        if row.failed_at is None or row.failed_at < now - _cool_off():
            row.failures, row.failed_at = 1, now
        else:
            row.failures += 1
        row.save(update_fields=["failures", "failed_at"])
    device.failures, device.failed_at = row.failures, row.failed_at


def is_trusted_client(request: HttpRequest, credentials: dict | None = None) -> bool:
    """``AXES_WHITELIST_CALLABLE``: axes neither refuses nor counts an attempt from a browser whose
    device cookie is bound to the account tried; :func:`ensure_allowed` and the failure hooks here judge
    it by the device's own record instead."""
    if request is None or not credentials:
        return False
    return trusted_device(request, credentials.get(settings.AXES_USERNAME_FORM_FIELD)) is not None


@receiver(user_login_failed, dispatch_uid="blockplan-device-failure")
def _count_device_failure(sender: object, credentials: dict, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """A failed ``authenticate`` from a trusted browser counts on its device (axes skipped it)."""
    if request is None:
        return
    device = trusted_device(request, credentials.get(settings.AXES_USERNAME_FORM_FIELD))
    if device is not None:
        _device_failed(device)


@receiver(user_logged_in, dispatch_uid="blockplan-device-issue")
def _issue_device(sender: object, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    """On every successful sign-in through a request (password, passkey, single sign-on, first
    password): refresh this browser's device for ``user`` (failures cleared) or create one, and leave the
    cookie to :class:`DeviceCookieMiddleware`. Test clients' ``force_login`` (no method) gets none."""
    if request is None or not getattr(request, "method", None):
        return
    ids = _cookie_device_ids(request)
    now = timezone.now()
    recent = TrustedDevice.objects.filter(pk__in=ids, user=user, last_used_at__gte=now - DEVICE_MAX_AGE)
    device = recent.first() if ids else None
    if device is None:
        TrustedDevice.objects.filter(user=user, last_used_at__lt=now - DEVICE_MAX_AGE).delete()  # forgotten ones
        device = TrustedDevice.objects.create(user=user, last_used_at=now)
        # Proven from this address without a device: its failures for this account are forgiven. A
        # sign-in with a device forgives nothing (an attacker's count against the account stands).
        AccessAttempt.objects.filter(username=user.email, ip_address=_client_ip(request)).delete()
    else:
        TrustedDevice.objects.filter(pk=device.pk).update(last_used_at=now, failures=0, failed_at=None)
    kept = [str(i) for i in ids if i != device.pk][-(DEVICES_PER_BROWSER - 1) :]
    request._blockplan_device_cookie = signing.dumps([*kept, str(device.pk)], salt=DEVICE_SALT)  # type: ignore[attr-defined]
    request.__dict__.pop("_blockplan_devices", None)


class DeviceCookieMiddleware:
    """Sets the ``blockplan_device`` cookie chosen by a sign-in of this request: HttpOnly, SameSite=Strict,
    Secure under production settings, for a year, on ``/api/`` only (where sign-in happens)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        value = getattr(request, "_blockplan_device_cookie", None)
        if value and response.status_code < 400:
            response.set_cookie(
                DEVICE_COOKIE,
                value,
                max_age=int(DEVICE_MAX_AGE.total_seconds()),
                path="/api/",
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Strict",
            )
        return response


# ------------------------------------------------------------------------------------------- checks


def credentials_for(email: str) -> dict:
    return {"email": (email or "").strip().lower()}


def _client_ip(request: HttpRequest) -> str | None:
    return getattr(request, "axes_ip_address", None) or get_client_ip_address(request)


def address_failures(request: HttpRequest) -> int:
    """Failed attempts from the request's address within the cool-off, over every account (spraying)."""
    ip = _client_ip(request)
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
    the address has sprayed past ``AXES_IP_FAILURE_LIMIT`` failures over all accounts; from a browser
    with a device cookie for the account, only when that device is locked."""
    device = trusted_device(request, email)
    if device is not None:
        if _device_locked(device):
            raise LockedOut()
        return
    if not AxesProxyHandler.is_allowed(request, credentials_for(email)) or _address_locked(request):
        raise LockedOut()


def record_failure(request: HttpRequest, email: str) -> None:
    """Record one failed attempt for ``email`` and the request's address with axes.

    Raises :class:`LockedOut` when this failure reaches the limit of the pair (axes flags
    ``request.axes_locked_out``) or of the address; from a trusted browser the failure counts on its
    device and locks that device only.
    """
    device = trusted_device(request, email)
    if device is not None:
        _device_failed(device)
        if _device_locked(device):
            raise LockedOut()
        return
    AxesProxyHandler.user_login_failed(sender=__name__, credentials=credentials_for(email), request=request)
    if getattr(request, "axes_locked_out", False) or _address_locked(request):
        raise LockedOut()


def raise_if_locked_out(request: HttpRequest) -> None:
    """After ``authenticate(request=...)`` returned None: 429 if axes refused or has just locked the
    pair, or the address has reached its own limit; for a trusted browser, if its device is now locked
    (the failure was counted by :func:`_count_device_failure`)."""
    devices = [d for d in request.__dict__.get("_blockplan_devices", {}).values() if d is not None]
    if devices:
        if any(_device_locked(d) for d in devices):
            raise LockedOut()
        return
    if getattr(request, "axes_locked_out", False) or _address_locked(request):
        raise LockedOut()
