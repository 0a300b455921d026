"""Activity: one row per write that announced itself (docs/adr/0011).

Recorded by :func:`project.history.recording.record` from the write unit ``project.core.changes.org_change``, in the write's
own transaction: a rolled-back write records nothing, and every write path (API, Django admin, import,
schedule generation, allocation, holidays, settings) is covered because each emits exactly one change
event. Bulk writes are one activity with all their ids.
"""

from __future__ import annotations

import orjson
from django.conf import settings
from django.db import models

from project.core.models import TenantModel


class Activity(TenantModel):
    history_tracked = False

    seq = models.BigIntegerField()  # the organization's change sequence number of the write's event
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    actor_label = models.CharField(max_length=200)  # the user's name, or "Django admin", "system"
    origin = models.CharField(max_length=100, blank=True, default="")
    entity = models.CharField(max_length=40)
    action = models.CharField(max_length=40)
    ids = models.JSONField(default=list)
    # The ids of the touched rows and of what they point at (a session's block group, unit and teacher),
    # space-separated: the History of a block group or a teacher shows its sessions' writes, and a
    # generated session finds its generation. Grown as rows are captured.
    refs = models.TextField(blank=True, default="")
    summary = models.CharField(max_length=300)
    # Undo (ADR 0012): the activity this one reverses, and the activity that reversed this one (cleared
    # again by a redo, the undo of that undo).
    undo_of = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    undone_by = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

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


class ActivityChange(TenantModel):
    """The rows one ORM call of a write touched (project.history.tracking): ``fields`` are the model's
    attribute names, ``rows`` JSON text of ``[[pk, before | null, after | null], ...]`` with values in that
    order (null before: created; null after: deleted). Text, written
    with orjson: a 2,000-row capture costs one INSERT and no Python JSON encoding."""

    history_tracked = False

    activity = models.ForeignKey(Activity, on_delete=models.CASCADE, related_name="changes")
    position = models.PositiveIntegerField()
    model = models.CharField(max_length=100)
    fields = models.JSONField(default=list)
    rows = models.TextField(default="[]")

    def row_list(self) -> list:
        return orjson.loads(self.rows)

    class Meta:
        ordering = ["activity", "position"]
        indexes = [models.Index(fields=["activity", "position"])]

    def __str__(self) -> str:
        return f"{self.model} x{len(self.rows)}"
