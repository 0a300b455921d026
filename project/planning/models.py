"""Study plans and their units, block groups (cohorts) and linked block groups (docs/behaviour/block-groups.md §5)."""

from decimal import Decimal

from django.db import models

from project.core.models import TenantModel


def hours_field() -> models.DecimalField:
    """An hours column of a study plan unit: up to 9,999.99 hours, 0 by default."""
    return models.DecimalField(max_digits=6, decimal_places=2, default=Decimal("0"))


ACTUAL_HOUR_FIELDS = (
    "face_to_face_hours",
    "facilitated_e_learning_hours",
    "work_integrated_learning_hours",
    "in_class_assessment_hours",
)
BALANCE_HOUR_FIELDS = (
    "structured_learning_hours",
    "work_integrated_learning_balance_hours",
    "cumulative_assessment_hours",
)
# Hours that need a timetabled class (docs/behaviour/hours.md §5): work-integrated learning is at the workplace.
FACILITATED_HOUR_FIELDS = (
    "face_to_face_hours",
    "facilitated_e_learning_hours",
    "in_class_assessment_hours",
)


class StudyPlan(TenantModel):
    name = models.CharField(max_length=255)
    description = models.TextField(blank=True, default="")
    total_nominal_hours = models.IntegerField(default=0)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class StudyPlanUnit(TenantModel):
    study_plan = models.ForeignKey(StudyPlan, on_delete=models.CASCADE, related_name="plan_units")
    unit = models.ForeignKey("catalogue.Unit", on_delete=models.PROTECT, related_name="plan_units")
    sequence_order = models.IntegerField(default=1)
    year_level = models.SmallIntegerField(default=1)
    face_to_face_hours = hours_field()
    facilitated_e_learning_hours = hours_field()
    work_integrated_learning_hours = hours_field()
    in_class_assessment_hours = hours_field()
    structured_learning_hours = hours_field()
    work_integrated_learning_balance_hours = hours_field()
    cumulative_assessment_hours = hours_field()
    is_cluster = models.BooleanField(default=False)
    cluster_group = models.CharField(max_length=50, blank=True, default="")

    class Meta:
        ordering = ["study_plan", "sequence_order"]
        constraints = [models.UniqueConstraint(fields=["study_plan", "unit"], name="study_plan_unit_once")]

    @property
    def actual_hours(self) -> Decimal:
        return sum((getattr(self, f) for f in ACTUAL_HOUR_FIELDS), Decimal("0"))

    @property
    def self_directed_hours(self) -> Decimal:
        return sum((getattr(self, f) for f in BALANCE_HOUR_FIELDS), Decimal("0"))

    @property
    def facilitated_hours(self) -> Decimal:
        return sum((getattr(self, f) for f in FACILITATED_HOUR_FIELDS), Decimal("0"))


class BlockGroup(TenantModel):
    """A cohort of students timetabled together."""

    class DeliveryMode(models.TextChoices):
        ON_CAMPUS = "on_campus", "On Campus"
        REMOTE = "remote", "Remote"

    class StudyMode(models.TextChoices):
        FULL_TIME = "full_time", "Full Time"
        PART_TIME = "part_time", "Part Time"

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        ACTIVE = "active", "Active"
        CONSOLIDATED = "consolidated", "Consolidated"
        COMPLETED = "completed", "Completed"

    code = models.CharField(max_length=50)
    name = models.CharField(max_length=255)
    course = models.ForeignKey("catalogue.Course", on_delete=models.PROTECT, related_name="block_groups", null=True, blank=True)
    campus = models.ForeignKey("catalogue.Campus", on_delete=models.PROTECT, related_name="block_groups", null=True, blank=True)
    delivery_mode = models.CharField(max_length=20, choices=DeliveryMode.choices, default=DeliveryMode.ON_CAMPUS)
    study_mode = models.CharField(max_length=20, choices=StudyMode.choices, default=StudyMode.FULL_TIME)
    cohort_size = models.IntegerField()
    start_date = models.DateField()
    end_date = models.DateField(null=True, blank=True)
    preferred_days = models.CharField(max_length=255, blank=True, default="")  # free text, as entered
    session_duration = models.DecimalField(max_digits=4, decimal_places=2, default=Decimal("3"))  # hours
    sessions_per_day = models.IntegerField(default=2)
    # The room type schedule generation chooses rooms of when a request names neither a room nor
    # a type ("" for none; the values of catalogue.Room.Type).
    preferred_room_type = models.CharField(max_length=20, blank=True, default="")
    # What the last schedule generation was asked for, so that re-plans and a regeneration keep
    # it (ADR 0015): one unit a week, and the session templates, JSON text of ``[{startTime, endTime,
    # duration}]`` ("" for none; text, not a JSON field, so that the history's row diffs stay hashable).
    start_next_unit_in_new_week = models.BooleanField(default=False)
    session_templates = models.TextField(blank=True, default="")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)

    class Meta:
        ordering = ["code"]
        constraints = [models.UniqueConstraint(fields=["organization", "code"], name="block_group_code_unique_per_org")]
        indexes = [models.Index(fields=["organization", "status"])]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class BlockGroupStudyPlan(TenantModel):
    block_group = models.ForeignKey(BlockGroup, on_delete=models.CASCADE, related_name="plan_links")
    study_plan = models.ForeignKey(StudyPlan, on_delete=models.CASCADE, related_name="block_group_links")

    class Meta:
        ordering = ["created_at"]  # assignment order drives schedule generation
        constraints = [models.UniqueConstraint(fields=["block_group", "study_plan"], name="block_group_plan_once")]


class LinkedBlockGroup(TenantModel):
    """Block groups delivered together (co-delivered: one teacher, one room, no double-booking)."""

    name = models.CharField(max_length=255)
    description = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class LinkedBlockGroupMember(TenantModel):
    linked_group = models.ForeignKey(LinkedBlockGroup, on_delete=models.CASCADE, related_name="members")
    # OneToOne: a block group is in at most one linked group.
    block_group = models.OneToOneField(BlockGroup, on_delete=models.CASCADE, related_name="link_membership")

    class Meta:
        ordering = ["created_at"]
