"""Django admin base for support staff: every save or delete announces a change event (decisions.md §7)."""

from __future__ import annotations

from django.contrib import admin
from django.db import transaction

from project.core.tenancy import Ctx
from realtime.events import emit_change


class TenantAdmin(admin.ModelAdmin):
    """Admin for a tenant model. ``entity`` names it in change events."""

    entity: str = ""
    list_filter: tuple = ("organization",)

    def _emit(self, request, obj, action: str) -> None:
        org = getattr(obj, "organization", None)
        if not self.entity or org is None:
            return
        emit_change(Ctx(org=org, user=None, origin="admin"), entity=self.entity, action=action, ids=[obj.pk])

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            self._emit(request, obj, "updated" if change else "created")

    def delete_model(self, request, obj):
        with transaction.atomic():
            org, pk = getattr(obj, "organization", None), obj.pk
            super().delete_model(request, obj)
            if self.entity and org is not None:
                emit_change(Ctx(org=org, user=None, origin="admin"), entity=self.entity, action="deleted", ids=[pk])

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            rows = list(queryset.values_list("pk", "organization_id"))
            super().delete_queryset(request, queryset)
            from project.accounts.models import Organization

            by_org: dict = {}
            for pk, org_id in rows:
                by_org.setdefault(org_id, []).append(pk)
            for org in Organization.objects.filter(pk__in=by_org):
                emit_change(Ctx(org=org, origin="admin"), entity=self.entity, action="deleted", ids=by_org[org.pk])

    def save_form(self, request, form, change):
        obj = super().save_form(request, form, change)
        # New tenant rows made in the admin take the organization of the staff member when unset.
        if not change and getattr(obj, "organization_id", None) is None and getattr(request.user, "organization_id", None):
            obj.organization_id = request.user.organization_id
        return obj
