"""The before and after state of every row a write touches (issue 16, docs/adr/0012).

How it works. ``realtime.events.emit_change`` records the write's :class:`Activity` and calls
:func:`start`, which hangs a :class:`Tracker` on the database connection, tied to the write's own
``transaction.atomic()`` block. Until that block ends, every write of a tracked model through the ORM is
captured where it happens, whatever path made it:

- ``TenantQuerySet.update / bulk_update / bulk_create / delete`` (project.core.models): the rows are read
  before (one query per call) and after (one query per call); a delete captures its cascades and the
  ``SET_NULL`` updates Django's collector makes;
- ``Model.save() / delete()`` of a tracked model (``HistoryTracked``).

Each captured call becomes one :class:`ActivityChange` (one insert): the model, its field names and
``[pk, before, after]`` per row, values as JSON (``None`` for "did not exist"). A rolled-back write rolls
its changes back with it; a write outside any tracked transaction costs nothing.

Tracked: every ``TenantModel`` whose class does not set ``history_tracked = False`` (the activity itself,
display links and calendar feeds, whose tokens are secrets), and the organization's settings. Users are not
tracked (password hashes never enter the history).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any, Iterable

from django.db import connections, models, router

_ATTR = "_blockplan_history_tracker"


@dataclass
class Tracker:
    activity: Any
    atomic: Any  # the write's transaction.atomic() block: the tracker lives while it is open
    position: int = 0
    refs: set = field(default_factory=set)


def start(activity, using: str = "default") -> None:
    """Capture the rows written from now until the current atomic block ends into ``activity``."""
    conn = connections[using]
    atomic = conn.atomic_blocks[-1] if conn.atomic_blocks else None
    setattr(conn, _ATTR, Tracker(activity, atomic) if atomic is not None else None)


def is_tracked(model) -> bool:
    return bool(getattr(model, "history_tracked", False)) and not model._meta.abstract


def active(model, using: str | None = None) -> Tracker | None:
    """The tracker capturing writes of ``model`` now, or None."""
    if not is_tracked(model):
        return None
    conn = connections[using or router.db_for_write(model)]
    tracker = getattr(conn, _ATTR, None)
    if tracker is None:
        return None
    if not any(block is tracker.atomic for block in conn.atomic_blocks):
        setattr(conn, _ATTR, None)  # its transaction ended (committed or rolled back)
        return None
    return tracker


def stop(using: str = "default") -> None:
    setattr(connections[using], _ATTR, None)


# ------------------------------------------------------------------------------------------ values


def snapshot_fields(model) -> list:
    """The concrete fields a snapshot keeps, in model order (minus ``history_exclude``)."""
    exclude = set(getattr(model, "history_exclude", ()))
    return [f for f in model._meta.concrete_fields if f.name not in exclude and f.attname not in exclude]


def encode(f, value) -> Any:
    """A field value as JSON: UUIDs, dates, times and decimals as text (decimals at the field's places)."""
    if value is None:
        return None
    if isinstance(f, models.DecimalField):
        value = Decimal(str(value)).quantize(Decimal(1).scaleb(-f.decimal_places))
        return str(value)
    if isinstance(value, (bool, int, float, str, list, dict)):
        return value
    if isinstance(value, (uuid.UUID, Decimal)):
        return str(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    return str(value)


def decode(f, value) -> Any:
    """The Python value of a snapshot value for field ``f``."""
    if value is None:
        return None
    if isinstance(f, models.JSONField):
        return value
    return f.to_python(value)


def read_rows(model, pks: Iterable, using: str | None = None) -> dict[str, list]:
    """``{pk text: [encoded values in snapshot_fields order]}`` of the rows of ``pks`` that exist (one
    query per 2,000 ids)."""
    fields = snapshot_fields(model)
    names = [f.attname for f in fields]
    pk_name = model._meta.pk.attname
    out: dict[str, list] = {}
    pks = list(pks)
    manager = model._base_manager.db_manager(using) if using else model._base_manager
    for i in range(0, len(pks), 2000):
        chunk = pks[i: i + 2000]
        for row in manager.filter(pk__in=chunk).values(*names):
            out[str(row[pk_name])] = [encode(f, row[f.attname]) for f in fields]
    return out


def add(tracker: Tracker, model, before: dict[str, list | None], after: dict[str, list | None]) -> None:
    """Store one captured write: rows present in ``before`` or ``after`` (absent = did not exist)."""
    from project.history.models import ActivityChange

    pks = list(dict.fromkeys([*before, *after]))
    rows = [[pk, before.get(pk), after.get(pk)] for pk in pks if before.get(pk) != after.get(pk)]
    if not rows:
        return
    tracker.position += 1
    fields = snapshot_fields(model)
    relations = [i for i, f in enumerate(fields) if f.is_relation and f.attname != "organization_id"]
    refs = set()
    for _pk, b, a in rows:
        for values in (b, a):
            if values is not None:
                refs.update(values[i] for i in relations if values[i] is not None)
    if not refs <= tracker.refs:
        tracker.refs |= refs
        type(tracker.activity).objects.for_org(tracker.activity.organization_id).filter(pk=tracker.activity.pk).update(
            refs=sorted(tracker.refs)
        )
    ActivityChange.objects.for_org(tracker.activity.organization_id).create(
        organization_id=tracker.activity.organization_id,
        activity=tracker.activity,
        position=tracker.position,
        model=model._meta.label,
        fields=[f.attname for f in fields],
        rows=rows,
    )


# ------------------------------------------------------------------------------------- capturing


def tracked_update(tracker: Tracker, qs, do) -> Any:
    """Run ``do()`` (an UPDATE of the rows of ``qs``), capturing those rows before and after."""
    model = qs.model
    pk_name = model._meta.pk.attname
    pks = list(qs.order_by().values_list(pk_name, flat=True))
    before = read_rows(model, pks, qs.db)
    result = do()
    add(tracker, model, before, read_rows(model, pks, qs.db))
    return result


def tracked_pks(tracker: Tracker, model, pks: list, using: str | None, do) -> Any:
    """Run ``do()`` (a write of the rows ``pks``: bulk create or update, a save), capturing them."""
    before = read_rows(model, pks, using)
    result = do()
    add(tracker, model, before, read_rows(model, pks, using))
    return result


def tracked_delete(tracker: Tracker, qs) -> tuple[int, dict]:
    """QuerySet.delete() with capture: the rows deleted (the cascades included) and the rows Django's
    collector sets to NULL, before and after. Same answer as ``QuerySet.delete``."""
    from django.db.models.deletion import Collector

    del_query = qs._chain()
    del_query._for_write = True
    del_query.query.select_for_update = False
    del_query.query.select_related = False
    del_query.query.clear_ordering(force=True)
    collector = Collector(using=del_query.db, origin=qs)
    collector.collect(del_query)

    deleted: dict = {}
    for model, instances in collector.data.items():
        if is_tracked(model):
            deleted.setdefault(model, set()).update(obj.pk for obj in instances)
    for fast in collector.fast_deletes:
        if is_tracked(fast.model):
            deleted.setdefault(fast.model, set()).update(fast.order_by().values_list("pk", flat=True))
    nulled: dict = {}
    for (f, _value), batches in collector.field_updates.items():
        if not is_tracked(f.model):
            continue
        for objs in batches:
            if isinstance(objs, models.QuerySet):
                nulled.setdefault(f.model, set()).update(objs.order_by().values_list("pk", flat=True))
            else:
                nulled.setdefault(f.model, set()).update(o.pk for o in objs)
    before_deleted = {m: read_rows(m, pks, del_query.db) for m, pks in deleted.items()}
    before_nulled = {m: read_rows(m, pks, del_query.db) for m, pks in nulled.items()}

    result = collector.delete()
    qs._result_cache = None

    for model, rows in before_deleted.items():
        add(tracker, model, rows, {})
    for model, rows in before_nulled.items():
        add(tracker, model, rows, read_rows(model, list(rows), del_query.db))
    return result


def collect_delete(model, pks: list, using: str = "default") -> dict:
    """Every tracked row a delete of ``pks`` would remove or set to NULL: ``{model: {pk text}}``.
    Raises Django's ProtectedError / RestrictedError when it is not allowed."""
    from django.db.models.deletion import Collector

    collector = Collector(using=using)
    collector.collect(model._base_manager.db_manager(using).filter(pk__in=pks))
    out: dict = {}
    for m, instances in collector.data.items():
        if is_tracked(m):
            out.setdefault(m, set()).update(str(o.pk) for o in instances)
    for fast in collector.fast_deletes:
        if is_tracked(fast.model):
            out.setdefault(fast.model, set()).update(str(p) for p in fast.order_by().values_list("pk", flat=True))
    for (f, _value), batches in collector.field_updates.items():
        if not is_tracked(f.model):
            continue
        for objs in batches:
            pks_of = (
                objs.order_by().values_list("pk", flat=True) if isinstance(objs, models.QuerySet) else [o.pk for o in objs]
            )
            out.setdefault(f.model, set()).update(str(p) for p in pks_of)
    return out


class HistoryTracked:
    """Mixin for tracked models: ``save()`` and ``delete()`` of an instance are captured."""

    history_tracked = True

    def save(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        using = kwargs.get("using") or router.db_for_write(type(self), instance=self)
        tracker = active(type(self), using)
        if tracker is None:
            return super().save(*args, **kwargs)  # type: ignore[misc]
        model = type(self)
        before = {} if self._state.adding else read_rows(model, [self.pk], using)
        result = super().save(*args, **kwargs)  # type: ignore[misc]
        add(tracker, model, before, read_rows(model, [self.pk], using))
        return result

    def delete(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        using = kwargs.get("using") or router.db_for_write(type(self), instance=self)
        tracker = active(type(self), using)
        if tracker is None:
            return super().delete(*args, **kwargs)  # type: ignore[misc]
        return tracked_delete(tracker, type(self)._base_manager.db_manager(using).filter(pk=self.pk))
