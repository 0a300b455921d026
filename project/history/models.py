"""Activity: one row per write that announced itself (issue 16, docs/adr/0011).

Recorded by :func:`project.history.services.record` from ``realtime.events.emit_change``, in the write's
own transaction: a rolled-back write records nothing, and every write path (API, Django admin, import,
schedule generation, allocation, holidays, settings) is covered because each emits exactly one change
event. Bulk writes are one activity with all their ids.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from project.core.models import TenantModel


class Activity(TenantModel):
    seq = models.BigIntegerField()  # the organization's change sequence number of the write's event
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    actor_label = models.CharField(max_length=200)  # the user's name, or "Django admin", "system"
    origin = models.CharField(max_length=100, blank=True, default="")
    entity = models.CharField(max_length=40)
    action = models.CharField(max_length=40)
    ids = models.JSONField(default=list)
    summary = models.CharField(max_length=300)

    class Meta:
        ordering = ["-seq"]
        indexes = [
            models.Index(fields=["organization", "-seq"]),
            models.Index(fields=["organization", "entity", "-seq"]),
            models.Index(fields=["organization", "actor", "-seq"]),
            models.Index(fields=["organization", "created_at"]),
        ]

    def __str__(self) -> str:
        return self.summary
