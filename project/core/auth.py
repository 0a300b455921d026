"""Ninja auth classes: the edge where the session becomes a :class:`Ctx` (style guide §3).

- ``member_auth``: any active signed-in user of an active organization; 401 otherwise.
- ``admin_auth``: the same, with role ``admin``; a ``user`` gets 403 (decisions.md §1).
- ``public_auth``: no user needed (sign-in, first-time setup) but unsafe methods still need CSRF.

Unsafe methods (POST, PUT, PATCH, DELETE) need the ``X-CSRFToken`` header matching the ``csrftoken``
cookie; a failure answers 403 ``{"message": "CSRF verification failed"}``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.security.apikey import APIKeyCookie
from ninja.utils import check_csrf

from project.core.errors import Forbidden, Unauthorized
from project.core.tenancy import Ctx

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class CsrfFailed(Forbidden):
    type = "csrf"

    def __init__(self):
        super().__init__("CSRF verification failed")


def enforce_csrf(request: HttpRequest) -> None:
    if request.method in UNSAFE and not getattr(request, "_ninja_csrf_exempt", False):
        if check_csrf(request):
            raise CsrfFailed()


def client_origin(request: HttpRequest) -> str | None:
    value = request.headers.get("X-Client-Id")
    return value[:100] if value else None


def ctx_for_request(request: HttpRequest) -> Ctx | None:
    """The Ctx of a signed-in, active user of an active organization, else None."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    org = user.organization
    if org is None or not org.is_active:
        return None
    return Ctx(org=org, user=user, origin=client_origin(request))


class OrgAuth(APIKeyCookie):
    param_name = settings.SESSION_COOKIE_NAME

    def __init__(self, *, admin: bool = False):
        self.admin = admin
        super().__init__(csrf=False)  # checked below, after the 401 check

    def _get_key(self, request: HttpRequest) -> str | None:
        return request.COOKIES.get(self.param_name)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        ctx = ctx_for_request(request)
        if ctx is None:
            raise Unauthorized()
        enforce_csrf(request)
        if self.admin and ctx.user.role != "admin":
            raise Forbidden()
        return ctx


class PublicAuth(APIKeyCookie):
    """Admits anyone; still enforces CSRF on unsafe methods. ``request.auth`` is the Ctx or ``True``."""

    param_name = settings.SESSION_COOKIE_NAME

    def __init__(self):
        super().__init__(csrf=False)

    def _get_key(self, request: HttpRequest) -> str | None:
        return request.COOKIES.get(self.param_name)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        enforce_csrf(request)
        return ctx_for_request(request) or True


member_auth = OrgAuth()
admin_auth = OrgAuth(admin=True)
public_auth = PublicAuth()
