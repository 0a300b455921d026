"""Courses, units of competency and campuses (delivery.md §3)."""

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
        constraints = [
            models.UniqueConstraint(fields=["organization", "code"], name="course_code_unique_per_org")
        ]

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
        constraints = [
            models.UniqueConstraint(fields=["organization", "code"], name="unit_code_unique_per_org")
        ]

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
            models.UniqueConstraint(
                fields=["organization", "abbreviation"], name="campus_abbreviation_unique_per_org"
            )
        ]

    def __str__(self) -> str:
        return self.name
