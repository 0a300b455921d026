"""Teachers and their unit qualifications (docs/behaviour/teachers.md §1)."""

from django.db import models

from project.core.models import TenantModel

# The fields of a teacher's form (TeacherIn), in TeacherOut order: what a write sets, what a list reads.
TEACHER_FIELDS = (
    "employee_id",
    "first_name",
    "last_name",
    "email",
    "phone",
    "job_title",
    "employment_type",
    "expiry_date",
    "availability",
    "max_weekly_hours",
    "is_active",
    "qualifications",
)


class Teacher(TenantModel):
    class EmploymentType(models.TextChoices):
        ONGOING = "ongoing", "Ongoing"
        FIXED_TERM = "fixed_term", "Fixed term"
        SESSIONAL = "sessional", "Sessional"

    class Availability(models.TextChoices):
        DAY = "day", "Day"
        EVENING = "evening", "Evening"
        BOTH = "both", "Both"

    employee_id = models.CharField(max_length=50)
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    email = models.EmailField(max_length=255)
    phone = models.CharField(max_length=20, blank=True, default="")
    job_title = models.CharField(max_length=100, blank=True, default="")
    employment_type = models.CharField(max_length=20, choices=EmploymentType.choices, default=EmploymentType.ONGOING)
    expiry_date = models.DateField(null=True, blank=True)
    availability = models.CharField(max_length=10, choices=Availability.choices, default=Availability.DAY)
    max_weekly_hours = models.IntegerField(default=21)
    is_active = models.BooleanField(default=True)
    qualifications = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["first_name", "last_name"]
        constraints = [
            models.UniqueConstraint(fields=["organization", "employee_id"], name="teacher_employee_id_unique_per_org"),
            models.UniqueConstraint(fields=["organization", "email"], name="teacher_email_unique_per_org"),
        ]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return Teacher.name_of(self.first_name, self.last_name)

    @staticmethod
    def name_of(first: str | None, last: str | None) -> str:
        """A teacher's name as every screen shows it, from the first and last names a query read ("" for
        none): "Priya Natarajan"."""
        return f"{first or ''} {last or ''}".strip()


class TeacherUnit(TenantModel):
    """A teacher's qualification to deliver a unit of competency."""

    teacher = models.ForeignKey(Teacher, on_delete=models.CASCADE, related_name="teacher_units")
    unit = models.ForeignKey("catalogue.Unit", on_delete=models.CASCADE, related_name="teacher_units")
    proficiency_level = models.CharField(max_length=20, default="competent")

    class Meta:
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["teacher", "unit"], name="teacher_unit_once")]


class TeacherLeave(TenantModel):
    """A period a teacher is away (ADR 0015): whole days from ``start_date`` to ``end_date`` inclusive, or,
    with ``start_time`` and ``end_time``, those hours of each of those days (part-day leave). A teaching
    session of the teacher that overlaps it is a hard ``teacher_on_leave`` conflict (ADR 0014)."""

    teacher = models.ForeignKey(Teacher, on_delete=models.CASCADE, related_name="leave")
    start_date = models.DateField()
    end_date = models.DateField()
    start_time = models.TimeField(null=True, blank=True)
    end_time = models.TimeField(null=True, blank=True)
    reason = models.CharField(max_length=255, blank=True, default="")

    class Meta:
        ordering = ["start_date", "start_time", "created_at"]
        indexes = [models.Index(fields=["organization", "teacher", "start_date"], name="leave_teacher_start")]

    def __str__(self) -> str:
        return f"{self.teacher} on leave {self.start_date}..{self.end_date}"


class TeacherAvailability(TenantModel):
    """A teacher's weekly availability pattern, date-range variants, preferences, limits and campuses
    (ADR 0027; shapes in :mod:`project.staff.availability.patterns`). At most one per teacher; a teacher without
    one is available as the form's ``availability`` word says (:func:`project.staff.availability.patterns.of_word`).

    ``custom`` False: the windows are the word's (migrated or kept in step with the form), and a session
    outside them is the soft ``teacher_unavailable`` conflict as before; True once the pattern is painted,
    and then a session outside it is the hard ``teacher_outside_availability``. Hour limits in hours
    (null: none besides the form's ``maxWeeklyHours``); ``campus_ids`` empty: every campus."""

    teacher = models.OneToOneField(Teacher, on_delete=models.CASCADE, related_name="availability_profile")
    custom = models.BooleanField(default=False)
    windows = models.JSONField(default=list, blank=True)
    preferences = models.JSONField(default=list, blank=True)
    variants = models.JSONField(default=list, blank=True)
    max_hours_per_day = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    max_hours_per_week = models.DecimalField(max_digits=4, decimal_places=1, null=True, blank=True)
    max_days_per_week = models.PositiveSmallIntegerField(null=True, blank=True)
    campus_ids = models.JSONField(default=list, blank=True)
    preferred_campus = models.ForeignKey("catalogue.Campus", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    preferred_campus_level = models.CharField(max_length=20, default="preferred")

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"Availability of {self.teacher_id}"
