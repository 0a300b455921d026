from django.contrib import admin

from project.catalogue.models import Campus, Course, Unit
from project.core.admin import TenantAdmin


@admin.register(Course)
class CourseAdmin(TenantAdmin):
    entity = "course"
    list_display = ("code", "name", "level", "is_active", "organization")
    search_fields = ("code", "name")


@admin.register(Unit)
class UnitAdmin(TenantAdmin):
    entity = "unit"
    list_display = ("code", "name", "nominal_hours", "is_core", "organization")
    search_fields = ("code", "name")


@admin.register(Campus)
class CampusAdmin(TenantAdmin):
    entity = "campus"
    list_display = ("abbreviation", "name", "is_active", "organization")
    search_fields = ("abbreviation", "name")
