"""Base models shared by every app.

``TenantModel`` is the one tenancy mechanism (platform.md §1, decisions.md §1): every record of an
organization carries ``organization`` and is read through ``Model.objects.for_org(org)`` or
``get_in_org``. Reading without an organization must be spelled ``Model.objects.unscoped()`` so that it
can be found with grep; ``tests/core/test_tenancy_guard.py`` fails on any other ``.objects.`` use in
api, service and selector modules.
"""

from __future__ import annotations

import uuid

from django.db import models


class TimeStampedModel(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class TenantQuerySet(models.QuerySet):
    def for_org(self, org) -> "TenantQuerySet":
        """Rows of one organization. ``org`` is an Organization or its id."""
        org_id = getattr(org, "pk", org)
        return self.filter(organization_id=org_id)


class TenantManager(models.Manager.from_queryset(TenantQuerySet)):
    def unscoped(self) -> TenantQuerySet:
        """Every organization's rows: for admin, commands and benchmarks only (grep-able on purpose)."""
        return self.get_queryset()


class TenantModel(TimeStampedModel):
    organization = models.ForeignKey(
        "accounts.Organization", on_delete=models.CASCADE, related_name="+", editable=False
    )

    objects = TenantManager()

    class Meta:
        abstract = True
