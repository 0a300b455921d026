from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db import transaction
from django.http import HttpRequest

from project.accounts.models import Organization, Passkey, User
from project.core.changes import Action, Entity, org_change
from project.core.tenancy import Ctx


def _admin_change(org: Organization | None, entity: Entity, action: Action, pk: object) -> AbstractContextManager[object]:
    """A support staff write is a change of the organization like any other (docs/behaviour/live-events.md): the write
    unit, with one change event and one activity by "Django admin" (a plain transaction for a user of no
    organization). Access itself ends through the model's hooks (project.accounts.access), whatever path
    saved it."""
    if org is None:
        return transaction.atomic()
    return org_change(Ctx(org=org, user=None, origin="admin"), entity, action, ids=[pk])


@admin.register(Organization)
class OrganizationAdmin(admin.ModelAdmin):
    list_display = ("name", "domain", "is_active", "timezone")
    search_fields = ("name", "domain")

    def save_model(self, request: HttpRequest, obj: Organization, form: Any, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            return
        with _admin_change(obj, "organization", "updated", obj.pk):
            # The unit has raised the sequence: the form's copy must not write back the one it read.
            obj.event_seq = Organization.objects.filter(pk=obj.pk).values_list("event_seq", flat=True).get()
            super().save_model(request, obj, form, change)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    ordering = ("email",)
    list_display = ("email", "first_name", "last_name", "organization", "role", "is_active", "is_totp_enabled")
    list_filter = ("organization", "role", "is_active")
    search_fields = ("email", "first_name", "last_name")
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        ("Person", {"fields": ("first_name", "last_name", "organization", "role")}),
        ("State", {"fields": ("is_active", "must_change_password", "is_totp_enabled", "is_staff", "is_superuser")}),
        ("Dates", {"fields": ("last_login",)}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "organization", "role", "password1", "password2")}),)
    filter_horizontal = ()

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        with _admin_change(obj.organization, "user", "updated" if change else "created", obj.pk):
            super().save_model(request, obj, form, change)


@admin.register(Passkey)
class PasskeyAdmin(admin.ModelAdmin):
    list_display = ("device_name", "user", "created_at", "last_used", "counter")
    search_fields = ("user__email", "device_name")
