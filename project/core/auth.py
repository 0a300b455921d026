"""Ninja auth classes: the edge where the session becomes a :class:`Ctx` (docs/engineering.md, Layout).

- ``member_auth``: any active signed-in user of an active organization; 401 otherwise.
- ``admin_auth``: the same, with role ``admin``; a ``user`` gets 403 (docs/behaviour/api.md §3).
- ``public_auth``: no user needed (sign-in, first-time setup) but unsafe methods still need CSRF.

Unsafe methods (POST, PUT, PATCH, DELETE) need the ``X-CSRFToken`` header matching the ``csrftoken``
cookie; a failure answers 403 ``{"message": "CSRF verification failed"}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest
from ninja.security.apikey import APIKeyCookie
from ninja.utils import check_csrf

from project.core.errors import Forbidden, Unauthorized
from project.core.tenancy import Ctx

if TYPE_CHECKING:  # pragma: no cover
    from django.contrib.auth.models import _User as User  # (stubs only) the AUTH_USER_MODEL, accounts.User

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class AuthedRequest(HttpRequest):
    """A request admitted by ``member_auth`` or ``admin_auth``: Ninja has set ``auth`` to its :class:`Ctx`.
    Routers annotate ``request`` with it so that type checkers know ``request.auth.org``."""

    auth: Ctx


class CsrfFailed(Forbidden):
    type = "csrf"

    def __init__(self) -> None:
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


class SessionUserBackend(ModelBackend):
    """The session backend: loads a signed-in user and their organization in one query.

    Sign-in stores this backend in the session (``project.accounts.services``); Django's ``get_user``
    then calls :meth:`get_user` once per request (and once per socket connection), and ``user.organization``
    is already loaded, so :func:`ctx_for_request` costs no second query. Passwords are not checked here:
    :meth:`authenticate` declines at once and ``ModelBackend`` (next in ``AUTHENTICATION_BACKENDS``)
    does it, so a wrong password is hashed once. Sessions stored with ``ModelBackend`` stay valid.
    """

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: object
    ) -> None:
        return None

    def get_user(self, user_id: object) -> User | None:
        from django.core.exceptions import ValidationError

        try:
            user = _user_loader().load(user_id)
        except (ValidationError, ValueError, TypeError):
            return None
        return user if user is not None and self.user_can_authenticate(user) else None


class _UserLoader:
    """``User.objects.select_related("organization").get(pk=...)`` compiled once, run many times.

    Every signed-in request loads its user with the organization. Building, compiling and hydrating that
    queryset was half the CPU of a cached list read (py-spy under ``bench/reads_bench.py --clients 32``, ADR 0013). This runs the SQL Django compiled for it, converts the row with the compiler's
    own converters and builds the instances as Django's ``ModelIterable`` does (``from_db`` and the
    select_related populators): the same objects, one query.
    """

    def __init__(self, alias: str):
        from django.contrib.auth import get_user_model
        from django.db.models.query import get_related_populators

        self.model = model = get_user_model()
        self.alias = alias
        placeholder = model._meta.pk.to_python("00000000-0000-0000-0000-000000000000")
        compiler = (
            model._default_manager.db_manager(alias)
            .select_related("organization")
            .filter(pk=placeholder)
            .order_by()
            .query.get_compiler(using=alias)
        )
        self.sql, params = compiler.as_sql()
        if len(params) != 1:  # pragma: no cover - a model change that adds filters (e.g. a default manager)
            raise RuntimeError(f"unexpected parameters for the user query: {params!r}")
        select, klass_info = compiler.select, compiler.klass_info
        self.compiler = compiler
        self.converters = compiler.get_converters([s[0] for s in select])
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, alias)

    def load(self, user_id: object) -> User | None:
        """The user with ``organization`` loaded, or None. Raises ValidationError/ValueError/TypeError
        for an id that is not one."""
        from django.db import connections

        connection = connections[self.alias]
        pk = self.model._meta.pk.get_db_prep_value(self.model._meta.pk.to_python(user_id), connection)
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        if self.converters:
            row = next(iter(self.compiler.apply_converters([row], self.converters)))
        user = self.model.from_db(self.alias, self.init_list, row[self.start : self.end])
        for populator in self.populators:
            populator.populate(row, user)
        return user


_user_loaders: dict[str, _UserLoader] = {}


def _user_loader() -> _UserLoader:
    from django.contrib.auth import get_user_model
    from django.db import router

    alias = router.db_for_read(get_user_model())
    loader = _user_loaders.get(alias)
    if loader is None:
        loader = _user_loaders[alias] = _UserLoader(alias)
    return loader


SESSION_BACKEND = "project.core.auth.SessionUserBackend"


class OrgAuth(APIKeyCookie):
    param_name = settings.SESSION_COOKIE_NAME

    def __init__(self, *, admin: bool = False) -> None:
        self.admin = admin
        super().__init__(csrf=False)  # checked below, after the 401 check

    def _get_key(self, request: HttpRequest) -> str | None:
        return request.COOKIES.get(self.param_name)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        ctx = ctx_for_request(request)
        if ctx is None:
            raise Unauthorized()
        enforce_csrf(request)
        if self.admin and not ctx.is_admin:
            raise Forbidden()
        return ctx


class PublicAuth(APIKeyCookie):
    """Admits anyone; still enforces CSRF on unsafe methods. ``request.auth`` is the Ctx or ``True``."""

    param_name = settings.SESSION_COOKIE_NAME

    def __init__(self) -> None:
        super().__init__(csrf=False)

    def _get_key(self, request: HttpRequest) -> str | None:
        return request.COOKIES.get(self.param_name)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        enforce_csrf(request)
        return ctx_for_request(request) or True


member_auth = OrgAuth()
admin_auth = OrgAuth(admin=True)
public_auth = PublicAuth()
