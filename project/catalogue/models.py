"""Courses, units of competency and campuses (docs/behaviour/units-and-courses.md §2)."""

from typing import Any

from django.db import models

from project.core.models import TenantModel


class Course(TenantModel):
    class Level(models.TextChoices):
        CERTIFICATE_III = "certificate_iii", "Certificate III"
        CERTIFICATE_IV = "certificate_iv", "Certificate IV"
        DIPLOMA = "diploma", "Diploma"

    code = models.CharField(max_length=20)
    name = models.CharField(max_length=255)
    level = models.CharField(max_length=20, choices=Level.choices, default=Level.CERTIFICATE_III)
    description = models.TextField(blank=True, default="")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["code"]
        constraints = [models.UniqueConstraint(fields=["organization", "code"], name="course_code_unique_per_org")]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class Unit(TenantModel):
    """A unit of competency with its nominal hours."""

    code = models.CharField(max_length=20)
    name = models.CharField(max_length=255)
    description = models.TextField(blank=True, default="")
    nominal_hours = models.IntegerField()
    is_core = models.BooleanField(default=True)
    prerequisites = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["code"]
        verbose_name = "unit of competency"
        verbose_name_plural = "units of competency"
        constraints = [models.UniqueConstraint(fields=["organization", "code"], name="unit_code_unique_per_org")]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class Campus(TenantModel):
    abbreviation = models.CharField(max_length=10)
    name = models.CharField(max_length=255)
    address = models.TextField(blank=True, default="")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "campuses"
        constraints = [
            models.UniqueConstraint(fields=["organization", "abbreviation"], name="campus_abbreviation_unique_per_org")
        ]

    def __str__(self) -> str:
        return self.name


def room_key(text: str | None) -> str:
    """How a room is matched (ADR 0019): case and spacing ignored ("CBD-3.12", "cbd 3.12" and "CBD_3.12"
    are one room): lower case without whitespace, hyphens or underscores."""
    return "".join(ch for ch in (text or "").casefold() if not ch.isspace() and ch not in "-_")


class Room(TenantModel):
    """A teaching space of a campus (ADR 0019): its code is what a session's ``room`` says."""

    class Type(models.TextChoices):
        CLASSROOM = "classroom", "Classroom"
        COMPUTER_LAB = "computer_lab", "Computer lab"
        WORKSHOP = "workshop", "Workshop"
        KITCHEN = "kitchen", "Kitchen"
        ONLINE = "online", "Online"
        OTHER = "other", "Other"

    campus = models.ForeignKey(Campus, on_delete=models.PROTECT, related_name="rooms", null=True, blank=True)
    code = models.CharField(max_length=50)
    # The matching key of ``code`` (room_key), unique per organization: two spellings are one room.
    key = models.CharField(max_length=50, editable=False)
    name = models.CharField(max_length=255, blank=True, default="")
    capacity = models.PositiveIntegerField(null=True, blank=True)  # none for online rooms
    type = models.CharField(max_length=20, choices=Type.choices, default=Type.CLASSROOM)
    features = models.JSONField(default=list, blank=True)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["code"]
        constraints = [models.UniqueConstraint(fields=["organization", "key"], name="room_key_unique_per_org")]

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.key = room_key(self.code)
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return self.code
