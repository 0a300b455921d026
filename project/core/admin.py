"""Django admin base for support staff: every save or delete announces a change event (docs/behaviour/live-events.md §4)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, ClassVar

from django.contrib import admin
from django.db import transaction
from django.forms import ModelForm
from django.http import HttpRequest

from project.core.changes import Action, Entity, org_change
from project.core.tenancy import Ctx, tenant_model

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from django.db.models import QuerySet

    from project.core.models import TenantModel


class TenantAdmin(admin.ModelAdmin):
    """Admin for a tenant model. ``entity`` names it in change events."""

    entity: Entity | None = None
    list_filter: ClassVar[tuple[str, ...]] = ("organization",)

    def _change(self, obj: TenantModel, action: Action) -> AbstractContextManager[object]:
        """The write unit of one admin write (its rows are captured into an activity by "Django admin"),
        or a plain transaction for a model that is not announced."""
        org, entity = getattr(obj, "organization", None), self.entity
        if entity is None or org is None:
            return transaction.atomic()
        return org_change(Ctx(org=org, user=None, origin="admin"), entity, action, ids=[obj.pk])

    def save_model(self, request: HttpRequest, obj: TenantModel, form: ModelForm[TenantModel], change: bool) -> None:
        with self._change(obj, "updated" if change else "created"):
            super().save_model(request, obj, form, change)

    def delete_model(self, request: HttpRequest, obj: TenantModel) -> None:
        with self._change(obj, "deleted"):
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[TenantModel]) -> None:
        organizations = tenant_model()._default_manager
        with transaction.atomic():
            by_org: dict[UUID, list[UUID]] = {}
            for pk, org_id in queryset.values_list("pk", "organization_id"):
                by_org.setdefault(org_id, []).append(pk)
            entity = self.entity
            for org in organizations.filter(pk__in=by_org):  # one write (activity, event) per organization
                if entity is None:
                    super().delete_queryset(request, queryset.filter(pk__in=by_org[org.pk]))
                    continue
                with org_change(Ctx(org=org, origin="admin"), entity, "deleted", ids=by_org[org.pk]):
                    super().delete_queryset(request, queryset.filter(pk__in=by_org[org.pk]))

    def save_form(self, request: HttpRequest, form: ModelForm[TenantModel], change: bool) -> TenantModel:
        obj = super().save_form(request, form, change)
        # New tenant rows made in the admin take the organization of the staff member when unset.
        staff_org_id = getattr(request.user, "organization_id", None)
        if not change and getattr(obj, "organization_id", None) is None and staff_org_id:
            obj.organization_id = staff_org_id
        return obj
