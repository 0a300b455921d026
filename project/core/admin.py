"""Django admin base for support staff: every save or delete announces a change event (docs/behaviour/live-events.md §4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from django.contrib import admin
from django.db import transaction
from django.forms import ModelForm
from django.http import HttpRequest

from project.core.tenancy import Ctx
from realtime.events import emit_change

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from django.db.models import QuerySet

    from project.core.models import TenantModel


class TenantAdmin(admin.ModelAdmin):
    """Admin for a tenant model. ``entity`` names it in change events."""

    entity: str = ""
    list_filter: ClassVar[tuple[str, ...]] = ("organization",)

    def _emit(self, request: HttpRequest, obj: TenantModel, action: str) -> None:
        org = getattr(obj, "organization", None)
        if not self.entity or org is None:
            return
        emit_change(Ctx(org=org, user=None, origin="admin"), entity=self.entity, action=action, ids=[obj.pk])

    # Each write emits first, then writes: the rows it writes are captured into its activity (ADR 0012).

    def save_model(self, request: HttpRequest, obj: TenantModel, form: ModelForm[TenantModel], change: bool) -> None:
        with transaction.atomic():
            self._emit(request, obj, "updated" if change else "created")
            super().save_model(request, obj, form, change)

    def delete_model(self, request: HttpRequest, obj: TenantModel) -> None:
        with transaction.atomic():
            self._emit(request, obj, "deleted")
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[TenantModel]) -> None:
        from project.accounts.models import Organization

        with transaction.atomic():
            by_org: dict[UUID, list[UUID]] = {}
            for pk, org_id in queryset.values_list("pk", "organization_id"):
                by_org.setdefault(org_id, []).append(pk)
            for org in Organization.objects.filter(pk__in=by_org):  # one write (activity, event) per organization
                with transaction.atomic():
                    emit_change(Ctx(org=org, origin="admin"), entity=self.entity, action="deleted", ids=by_org[org.pk])
                    super().delete_queryset(request, queryset.filter(pk__in=by_org[org.pk]))

    def save_form(self, request: HttpRequest, form: ModelForm[TenantModel], change: bool) -> TenantModel:
        obj = super().save_form(request, form, change)
        # New tenant rows made in the admin take the organization of the staff member when unset.
        staff_org_id = getattr(request.user, "organization_id", None)
        if not change and getattr(obj, "organization_id", None) is None and staff_org_id:
            obj.organization_id = staff_org_id
        return obj
