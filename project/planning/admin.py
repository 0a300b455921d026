from django.contrib import admin

from project.core.admin import TenantAdmin
from project.planning.models import (
    BlockGroup,
    BlockGroupStudyPlan,
    LinkedBlockGroup,
    LinkedBlockGroupMember,
    StudyPlan,
    StudyPlanUnit,
)


@admin.register(StudyPlan)
class StudyPlanAdmin(TenantAdmin):
    entity = "study_plan"
    list_display = ("name", "total_nominal_hours", "is_active", "organization")
    search_fields = ("name",)


@admin.register(StudyPlanUnit)
class StudyPlanUnitAdmin(TenantAdmin):
    entity = "study_plan_unit"
    list_display = ("study_plan", "sequence_order", "unit", "year_level", "face_to_face_hours")
    list_select_related = ("study_plan", "unit")


@admin.register(BlockGroup)
class BlockGroupAdmin(TenantAdmin):
    entity = "block_group"
    list_display = ("code", "name", "status", "start_date", "end_date", "organization")
    list_filter = ("organization", "status", "study_mode")
    search_fields = ("code", "name")


@admin.register(BlockGroupStudyPlan)
class BlockGroupStudyPlanAdmin(TenantAdmin):
    entity = "block_group_study_plan"
    list_display = ("block_group", "study_plan", "created_at")


@admin.register(LinkedBlockGroup)
class LinkedBlockGroupAdmin(TenantAdmin):
    entity = "linked_block_group"
    list_display = ("name", "organization")


@admin.register(LinkedBlockGroupMember)
class LinkedBlockGroupMemberAdmin(TenantAdmin):
    entity = "linked_block_group"
    list_display = ("linked_group", "block_group")
