from django.contrib import admin

from project.core.admin import TenantAdmin
from project.staff.models import Teacher, TeacherLeave, TeacherUnit


@admin.register(Teacher)
class TeacherAdmin(TenantAdmin):
    entity = "teacher"
    list_display = ("employee_id", "first_name", "last_name", "employment_type", "max_weekly_hours", "is_active")
    list_filter = ("organization", "is_active", "employment_type")
    search_fields = ("employee_id", "first_name", "last_name", "email")


@admin.register(TeacherUnit)
class TeacherUnitAdmin(TenantAdmin):
    entity = "teacher_unit"
    list_display = ("teacher", "unit", "proficiency_level")
    list_select_related = ("teacher", "unit")


@admin.register(TeacherLeave)
class TeacherLeaveAdmin(TenantAdmin):
    entity = "teacher_leave"
    list_display = ("teacher", "start_date", "end_date", "start_time", "end_time", "reason")
    list_select_related = ("teacher",)
