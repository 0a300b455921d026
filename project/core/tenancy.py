"""Request context and organization-scoped lookups (docs/engineering.md, Rules: Tenancy; docs/engineering.md, Layout).

The organization is resolved once at the edge (``project.core.auth``) into a :class:`Ctx`; services
receive it and never read ``request.user`` themselves.
"""

from __future__ import annotations

import uuid
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from django.db import models

from project.core.errors import NotFound

if TYPE_CHECKING:  # pragma: no cover
    # Types only, never run: Ctx names the accounts app's models so that mypy checks every use of
    # ctx.org and ctx.user in the apps. The contract "project.core imports no app" ignores exactly this
    # import (.importlinter); at run time core resolves the model through TENANT_MODEL.
    from project.accounts.models import Organization as OrganizationModel
    from project.accounts.models import User
    from project.core.models import TenantModel

TENANT_MODEL = "accounts.Organization"
"""The organization model, as an ``app_label.Model`` reference (the way Django names a swappable model):
``project.core`` imports no app (docs/engineering.md, "Boundaries"); it resolves the model at call time
with :func:`tenant_model` (``TenantModel.organization`` names the same reference)."""


def tenant_model() -> type[OrganizationModel]:
    """The organization model class (``TENANT_MODEL``), from Django's app registry (apps must be ready)."""
    from django.apps import apps

    return cast("type[OrganizationModel]", apps.get_model(TENANT_MODEL))


class Organization(Protocol):
    """What ``project.core`` reads of an organization (an instance of ``TENANT_MODEL``)."""

    @property
    def pk(self) -> Any: ...
    @property
    def timezone(self) -> str: ...
    @property
    def event_seq(self) -> int: ...
    @property
    def is_active(self) -> bool: ...


M = TypeVar("M", bound=models.Model)
T = TypeVar("T", bound="TenantModel")


@dataclass(frozen=True)
class Ctx:
    """Who acts, for which organization, from which browser tab.

    org: the signed-in user's organization. user: the acting user (None for system jobs).
    origin: the ``X-Client-Id`` header of the request, echoed in change events (docs/behaviour/live-events.md §6).
    """

    org: OrganizationModel
    user: User | None = None
    origin: str | None = None

    @property
    def org_id(self) -> uuid.UUID:
        return self.org.pk

    @property
    def member(self) -> User:
        """The acting user of a signed-in request (what the auth classes guarantee). A context without a
        user reaching code that needs one raises :class:`project.core.errors.Unauthorized` (401) rather
        than acting as nobody."""
        if self.user is None:
            from project.core.errors import Unauthorized

            raise Unauthorized()
        return self.user

    @property
    def is_admin(self) -> bool:
        return bool(self.user is not None and self.user.role == "admin")

    @classmethod
    def system(cls, org: OrganizationModel) -> Ctx:
        return cls(org=org, user=None, origin=None)


def scoped(model_or_qs: Any, org: Organization | uuid.UUID) -> models.QuerySet:
    """The queryset of ``model_or_qs`` limited to ``org``."""
    if isinstance(model_or_qs, models.QuerySet):
        return (
            model_or_qs.for_org(org)
            if hasattr(model_or_qs, "for_org")
            else model_or_qs.filter(organization_id=getattr(org, "pk", org))
        )
    return model_or_qs.objects.for_org(org)


# The rows validation loaded, by the identity of the UUID object it returned: {id(uuid): (weakref, row)}.
# A plain uuid.UUID goes on everywhere (JSON, orjson, events, pickles); while that very object lives,
# get_in_org can answer its row without a second query. An entry goes with its UUID object.
_carried: dict[int, tuple[weakref.ref, models.Model]] = {}


def carry(key: uuid.UUID, row: models.Model) -> uuid.UUID:
    """A fresh UUID object equal to ``key`` that carries ``row`` (see :func:`carried_row`).

    ``project.core.refs`` carries the rows it validated; the registry lives here, beside its reader
    :func:`get_in_org`, so that ``tenancy`` never imports ``refs`` (docs/engineering.md, "Boundaries")."""
    value = uuid.UUID(int=key.int)
    ident = id(value)

    def forget(_ref: weakref.ref) -> None:
        _carried.pop(ident, None)

    _carried[ident] = (weakref.ref(value, forget), row)
    return value


def carried_row(model: type[models.Model], org: Any, pk: object) -> Any:
    """The row an ``OrgRef``/``OrgRefs`` value (``project.core.refs``) carries when it is of ``model`` and
    ``org`` (so :func:`get_in_org` needs no second query), else None."""
    entry = _carried.get(id(pk))
    if entry is None or entry[0]() is not pk:
        return None
    row = entry[1]
    if type(row) is not model:
        return None
    org_id = getattr(org, "pk", org)
    return row if getattr(row, "organization_id", None) == org_id else None


def get_in_org(model_or_qs: Any, org: Organization | uuid.UUID, pk: object, label: str | None = None) -> Any:
    """One row of ``org`` by primary key, or :class:`NotFound` ("<Label> not found").

    Another organization's id, an unknown id and a malformed id all give the same 404, so no
    existence leaks across tenants (docs/behaviour/tenancy.md §2). An input id an ``OrgRef`` field already
    resolved in ``org`` (``project.core.refs``) answers its carried row without a second query.
    """
    if isinstance(model_or_qs, type):
        row = carried_row(model_or_qs, org, pk)
        if row is not None:
            return row
    qs = scoped(model_or_qs, org)
    name = label or qs.model._meta.verbose_name.capitalize()
    try:
        key = pk if isinstance(pk, uuid.UUID) else uuid.UUID(str(pk))
    except (ValueError, TypeError, AttributeError):
        raise NotFound(f"{name} not found") from None
    try:
        return qs.get(pk=key)
    except qs.model.DoesNotExist:
        raise NotFound(f"{name} not found") from None


def get_locked(model: type[T], ctx: Ctx, pk: object, label: str) -> T:
    """:func:`get_in_org` of ``ctx.org`` with the row locked (``SELECT ... FOR UPDATE``) until the write's
    transaction ends: what a service reads before it changes or deletes the row. NotFound "<label> not
    found" as :func:`get_in_org`."""
    return get_in_org(model.objects.for_org(ctx.org).select_for_update(), ctx.org, pk, label)
