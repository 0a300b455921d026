from django.contrib import admin

from project.core.admin import TenantAdmin
from project.timetabling.models import Holiday, TimetableSession


@admin.register(Holiday)
class HolidayAdmin(TenantAdmin):
    entity = "holiday"
    list_display = ("name", "type", "start_date", "end_date", "is_recurring", "is_active")
    list_filter = ("organization", "type", "year")


@admin.register(TimetableSession)
class TimetableSessionAdmin(TenantAdmin):
    entity = "timetable_session"
    list_display = ("actual_date", "start_time", "end_time", "block_group", "unit", "teacher", "room", "status")
    list_filter = ("organization", "status")
    list_select_related = ("block_group", "unit", "teacher")
    raw_id_fields = ("block_group", "unit", "teacher")
