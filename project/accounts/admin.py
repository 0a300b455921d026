from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from project.accounts.models import Organization, Passkey, User


@admin.register(Organization)
class OrganizationAdmin(admin.ModelAdmin):
    list_display = ("name", "domain", "is_active", "timezone")
    search_fields = ("name", "domain")


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


@admin.register(Passkey)
class PasskeyAdmin(admin.ModelAdmin):
    list_display = ("device_name", "user", "created_at", "last_used", "counter")
    search_fields = ("user__email", "device_name")
