"""Idempotent writes of the demo seed: rows made to exist by a stable key, written only when missing or
different, and a count of what was written."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from django.utils import timezone

from project.core.models import TenantModel

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.core.models import TenantQuerySet

M = TypeVar("M", bound=TenantModel)


@dataclass
class Stats:
    created: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)

    def add(self, label: str, created: int, updated: int) -> None:
        self.created[label] = self.created.get(label, 0) + created
        self.updated[label] = self.updated.get(label, 0) + updated


def sync(
    qs: TenantQuerySet[M],
    key: tuple[str, ...],
    rows: Iterable[Mapping[str, object]],
    *,
    org: Organization,
    stats: Stats,
    label: str,
) -> dict[tuple[object, ...], M]:
    """Make ``rows`` exist in ``qs`` (one organization's rows of a model), keyed by ``key`` fields.

    Missing rows are bulk-created; rows whose values differ are bulk-updated (``updated_at`` set); equal
    rows are left alone. Returns {key tuple: instance} for every row given.
    """
    model = qs.model
    rows = list(rows)
    existing = {tuple(getattr(o, k) for k in key): o for o in qs}
    out: dict[tuple[object, ...], M] = {}
    to_create: list[M] = []
    to_update: list[M] = []
    changed_fields: set[str] = set()
    now = timezone.now()
    for values in rows:
        k = tuple(values[f] for f in key)
        obj = existing.get(k)
        if obj is None:
            obj = model(organization=org, **values)
            to_create.append(obj)
        else:
            diff = [f for f, v in values.items() if getattr(obj, f) != v]
            if diff:
                for f in diff:
                    setattr(obj, f, values[f])
                obj.updated_at = now
                changed_fields.update(diff)
                to_update.append(obj)
        out[k] = obj
    if to_create:
        model.objects.bulk_create(to_create, batch_size=500)
    if to_update:
        model.objects.bulk_update(to_update, sorted(changed_fields | {"updated_at"}), batch_size=500)
    stats.add(label, len(to_create), len(to_update))
    return out


def sync_by(
    qs: TenantQuerySet[M], field: str, rows: Iterable[Mapping[str, object]], *, org: Organization, stats: Stats, label: str
) -> dict[str, M]:
    """:func:`sync` of rows keyed by one text field (a code, name, abbreviation or employee ID), answering
    ``{that value: instance}``."""
    return {str(k[0]): obj for k, obj in sync(qs, (field,), rows, org=org, stats=stats, label=label).items()}
