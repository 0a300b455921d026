"""Request context and organization-scoped lookups (style guide §2 and §3).

The organization is resolved once at the edge (``project.core.auth``) into a :class:`Ctx`; services
receive it and never read ``request.user`` themselves.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import models

from project.core.errors import NotFound

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization, User
    from project.core.models import TenantModel

M = TypeVar("M", bound=models.Model)
T = TypeVar("T", bound="TenantModel")


@dataclass(frozen=True)
class Ctx:
    """Who acts, for which organization, from which browser tab.

    org: the signed-in user's organization. user: the acting user (None for system jobs).
    origin: the ``X-Client-Id`` header of the request, echoed in change events (decisions.md §7).
    """

    org: Organization
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
    def system(cls, org: Organization) -> Ctx:
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


def get_in_org(model_or_qs: Any, org: Organization | uuid.UUID, pk: object, label: str | None = None) -> Any:
    """One row of ``org`` by primary key, or :class:`NotFound` ("<Label> not found").

    Another organization's id, an unknown id and a malformed id all give the same 404, so no
    existence leaks across tenants (decisions.md §1). An input id an ``OrgRef`` field already
    resolved in ``org`` (``project.core.refs``) answers its carried row without a second query.
    """
    if isinstance(model_or_qs, type):
        from project.core.refs import carried_row

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
