"""Base models shared by every app.

``TenantModel`` is the one tenancy mechanism (docs/behaviour/accounts.md §1, docs/behaviour/tenancy.md §2): every record of an
organization carries ``organization`` and is read through ``Model.objects.for_org(org)`` or
``get_in_org``. Reading without an organization must be spelled ``Model.objects.unscoped()`` so that it
can be found with grep; ``tests/core/test_tenancy_guard.py`` fails on any other ``.objects.`` use in
api, service and selector modules.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar, cast

from django.db import models, router


class RowCapture(Protocol):
    """How the writes of tracked models are captured into the write's History entry (docs/adr/0012): the
    ``history`` app registers ``project.history.tracking`` (:func:`use_row_capture`) when it is ready.
    Without a registration (or outside a write that recorded an activity) writes are Django's own; the
    write unit itself refuses to run without the history's recorder (``project.core.changes``)."""

    active: Callable[..., Any]  # (model, using) -> the tracker capturing writes of model now, or None
    tracked_update: Callable[..., int]
    tracked_bulk_update: Callable[..., Any]
    tracked_pks: Callable[..., Any]
    tracked_create: Callable[..., Any]
    tracked_delete: Callable[..., tuple[int, dict[str, int]]]
    tracked_save: Callable[..., None]


_capture: RowCapture | None = None


def use_row_capture(capture: RowCapture) -> None:
    """Register the row capture (called once by the ``history`` app in its ``AppConfig.ready()``)."""
    global _capture
    _capture = capture


def _tracker(model: type[models.Model], using: str | None) -> tuple[RowCapture, Any] | None:
    """The registered capture and its tracker of ``model``'s writes now, or None (writes are Django's own)."""
    capture = _capture
    if capture is None:
        return None
    tracker = capture.active(model, using)
    return None if tracker is None else (capture, tracker)


class HistoryTracked:
    """Mixin for tracked models (``TenantModel``, the organization): ``save()`` and ``delete()`` of an
    instance are captured inside a write that recorded an activity (``project.history.tracking``)."""

    history_tracked = True

    def _tracked_write(self, kwargs: dict[str, Any]) -> tuple[models.Model, str, tuple[RowCapture, Any] | None]:
        """This row as the Model it is (HistoryTracked is only ever mixed into one), the database a save or
        delete with ``kwargs`` writes to, and the capture of writes there (None: none)."""
        instance = cast(models.Model, self)
        using = kwargs.get("using") or router.db_for_write(type(instance), instance=instance)
        return instance, using, _tracker(type(instance), using)

    def save(self, *args: Any, **kwargs: Any) -> None:
        instance, using, found = self._tracked_write(kwargs)
        if found is None:
            return super().save(*args, **kwargs)
        capture, tracker = found
        do = lambda: super(HistoryTracked, self).save(*args, **kwargs)  # noqa: E731
        return capture.tracked_save(tracker, instance, using, do, kwargs.get("update_fields"))

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        instance, using, found = self._tracked_write(kwargs)
        if found is None:
            return super().delete(*args, **kwargs)
        capture, tracker = found
        return capture.tracked_delete(tracker, type(instance)._base_manager.db_manager(using).filter(pk=instance.pk))


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
    # (ADR 0012; the row capture the history app registers); outside one they are Django's own.

    def update(self, **kwargs: Any) -> int:
        found = _tracker(self.model, self.db)
        if found is None:
            return super().update(**kwargs)
        capture, tracker = found
        return capture.tracked_update(tracker, self, lambda: super(TenantQuerySet, self).update(**kwargs), kwargs)

    update.alters_data = True

    def bulk_update(self, objs: Iterable[_M], fields: Iterable[str], batch_size: int | None = None) -> int:
        found = _tracker(self.model, self.db)
        if found is None:
            return super().bulk_update(objs, fields, batch_size=batch_size)
        capture, tracker = found
        objs = list(objs)
        return capture.tracked_bulk_update(
            tracker,
            self.model,
            objs,
            list(fields),
            self.db,
            lambda: super(TenantQuerySet, self).bulk_update(objs, fields, batch_size=batch_size),
        )

    bulk_update.alters_data = True

    def bulk_create(self, objs: Iterable[_M], *args: Any, **kwargs: Any) -> list[_M]:
        found = _tracker(self.model, self.db)
        if found is None:
            return super().bulk_create(objs, *args, **kwargs)
        capture, tracker = found
        objs = list(objs)
        insert = lambda: super(TenantQuerySet, self).bulk_create(objs, *args, **kwargs)  # noqa: E731
        if args or kwargs.get("ignore_conflicts") or kwargs.get("update_conflicts"):  # may update existing rows
            return capture.tracked_pks(tracker, self.model, [o.pk for o in objs], self.db, insert)
        return capture.tracked_create(tracker, self.model, objs, insert)

    bulk_create.alters_data = True

    def delete(self) -> tuple[int, dict[str, int]]:
        found = _tracker(self.model, self.db)
        if found is None:
            return super().delete()
        capture, tracker = found
        return capture.tracked_delete(tracker, self)

    delete.alters_data = True


class TenantManager(models.Manager.from_queryset(TenantQuerySet)):
    def unscoped(self) -> TenantQuerySet:
        """Every organization's rows: for admin, commands and benchmarks only (grep-able on purpose)."""
        return self.get_queryset()


class TenantModel(HistoryTracked, TimeStampedModel):
    organization = models.ForeignKey("accounts.Organization", on_delete=models.CASCADE, related_name="+", editable=False)

    objects = TenantManager()

    class Meta:
        abstract = True
