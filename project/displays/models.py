"""Display links for wall displays: a long random token granting read-only access to one
scope's sessions of the day (a campus, or the whole organization)."""

import secrets

from django.db import models

from project.core.models import TenantModel


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 43 characters, 256 bits


class DisplayLink(TenantModel):
    history_tracked = False  # its token is a secret; a revoked link is never brought back by an undo

    class GroupBy(models.TextChoices):
        ROOM = "room", "Room"
        BLOCK_GROUP = "block_group", "Block group"

    name = models.CharField(max_length=100)
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    campus = models.ForeignKey(
        "catalogue.Campus", on_delete=models.CASCADE, null=True, blank=True, related_name="display_links"
    )  # None: the whole organization
    group_by = models.CharField(max_length=20, choices=GroupBy.choices, default=GroupBy.ROOM)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey("accounts.User", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    last_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
