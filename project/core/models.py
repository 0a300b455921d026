"""Base models shared by every app.

``TenantModel`` is the one tenancy mechanism (docs/behaviour/accounts.md §1, docs/behaviour/tenancy.md §2): every record of an
organization carries ``organization`` and is read through ``Model.objects.for_org(org)`` or
``get_in_org``. Reading without an organization must be spelled ``Model.objects.unscoped()`` so that it
can be found with grep; ``tests/core/test_tenancy_guard.py`` fails on any other ``.objects.`` use in
api, service and selector modules.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any, TypeVar

from django.db import models

from project.history import tracking


class TimeStampedModel(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


_M = TypeVar("_M", bound=models.Model)


class TenantQuerySet(models.QuerySet[_M]):
    def for_org(self, org: models.Model | uuid.UUID) -> TenantQuerySet[_M]:
        """Rows of one organization. ``org`` is an Organization (any model row: its ``pk``) or its id.

        Typed without importing ``project.accounts.models``, which builds on this module (no import cycle,
        docs/engineering.md, "Boundaries")."""
        org_id = getattr(org, "pk", org)
        return self.filter(organization_id=org_id)

    # Writes inside a write that recorded an activity capture their rows' before and after states
    # (ADR 0012; project.history.tracking); outside one they are Django's own.

    def update(self, **kwargs: Any) -> int:
        tracker = tracking.active(self.model, self.db)
        if tracker is None:
            return super().update(**kwargs)
        return tracking.tracked_update(tracker, self, lambda: super(TenantQuerySet, self).update(**kwargs), kwargs)

    update.alters_data = True

    def bulk_update(self, objs: Iterable[_M], fields: Iterable[str], batch_size: int | None = None) -> int:
        tracker = tracking.active(self.model, self.db)
        if tracker is None:
            return super().bulk_update(objs, fields, batch_size=batch_size)
        objs = list(objs)
        return tracking.tracked_bulk_update(
            tracker,
            self.model,
            objs,
            list(fields),
            self.db,
            lambda: super(TenantQuerySet, self).bulk_update(objs, fields, batch_size=batch_size),
        )

    bulk_update.alters_data = True

    def bulk_create(self, objs: Iterable[_M], *args: Any, **kwargs: Any) -> list[_M]:
        tracker = tracking.active(self.model, self.db)
        if tracker is None:
            return super().bulk_create(objs, *args, **kwargs)
        objs = list(objs)
        insert = lambda: super(TenantQuerySet, self).bulk_create(objs, *args, **kwargs)  # noqa: E731
        if args or kwargs.get("ignore_conflicts") or kwargs.get("update_conflicts"):  # may update existing rows
            return tracking.tracked_pks(tracker, self.model, [o.pk for o in objs], self.db, insert)
        return tracking.tracked_create(tracker, self.model, objs, insert)

    bulk_create.alters_data = True

    def delete(self) -> tuple[int, dict[str, int]]:
        tracker = tracking.active(self.model, self.db)
        if tracker is None:
            return super().delete()
        return tracking.tracked_delete(tracker, self)

    delete.alters_data = True


class TenantManager(models.Manager.from_queryset(TenantQuerySet)):
    def unscoped(self) -> TenantQuerySet:
        """Every organization's rows: for admin, commands and benchmarks only (grep-able on purpose)."""
        return self.get_queryset()


class TenantModel(tracking.HistoryTracked, TimeStampedModel):
    organization = models.ForeignKey("accounts.Organization", on_delete=models.CASCADE, related_name="+", editable=False)

    objects = TenantManager()

    class Meta:
        abstract = True
