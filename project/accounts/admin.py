from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db import transaction
from django.http import HttpRequest

from project.accounts.models import Organization, Passkey, User
from project.core.tenancy import Ctx
from realtime.events import emit_change


def _announce(org: Organization | None, entity: str, action: str, pk: object) -> None:
    """A support staff write is a change of the organization like any other (docs/behaviour/live-events.md): one
    change event and one activity by "Django admin". Access itself ends through the model's hooks
    (project.accounts.access), whatever path saved it."""
    if org is not None:
        emit_change(Ctx(org=org, user=None, origin="admin"), entity=entity, action=action, ids=[pk])


@admin.register(Organization)
class OrganizationAdmin(admin.ModelAdmin):
    list_display = ("name", "domain", "is_active", "timezone")
    search_fields = ("name", "domain")

    def save_model(self, request: HttpRequest, obj: Organization, form: Any, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            return
        with transaction.atomic():
            # First (it locks the organization's writers and raises its sequence), then the row: captured
            # into the activity. The form's copy must not write back the sequence it read.
            _announce(obj, "organization", "updated", obj.pk)
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
        with transaction.atomic():
            _announce(obj.organization, "user", "updated" if change else "created", obj.pk)
            super().save_model(request, obj, form, change)


@admin.register(Passkey)
class PasskeyAdmin(admin.ModelAdmin):
    list_display = ("device_name", "user", "created_at", "last_used", "counter")
    search_fields = ("user__email", "device_name")
