from django.contrib import admin

from project.core.admin import TenantAdmin
from project.displays.models import DisplayLink


@admin.register(DisplayLink)
class DisplayLinkAdmin(TenantAdmin):
    entity = "display_link"
    list_display = ("name", "organization", "campus", "group_by", "revoked_at", "last_seen_at")
    readonly_fields = ("token",)
