"""The before and after state of every row a write touches (docs/adr/0012).

How it works. The write unit (``project.core.changes.org_change``, docs/adr/0028) records the write's :class:`Activity` and calls
:func:`start`, which hangs a :class:`Tracker` on the database connection, tied to the write's own
``transaction.atomic()`` block. Until that block ends, every write of a tracked model through the ORM is
captured where it happens, whatever path made it:

- ``TenantQuerySet.update / bulk_update / bulk_create / delete`` (project.core.models): the rows are read
  before (one query per call) and after (one query per call); a delete captures its cascades and the
  ``SET_NULL`` updates Django's collector makes;
- ``Model.save() / delete()`` of a tracked model (``HistoryTracked``, project.core.models).

``project.core`` imports no app: the history app registers this module as the base models' row capture
(``project.history.apps``: ``project.core.models.use_row_capture``); the base models call
:func:`active` and the ``tracked_*`` functions through it.

Each captured call becomes one :class:`ActivityChange` (one insert): the model, its field names and
``[pk, before, after]`` per row, values as JSON (``None`` for "did not exist"). A rolled-back write rolls
its changes back with it; a write outside any tracked transaction costs nothing.

Tracked: every ``TenantModel`` whose class does not set ``history_tracked = False`` (the activity itself,
display links and calendar feeds, whose tokens are secrets), and the organization's settings. Users are not
tracked (password hashes never enter the history).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeAlias, TypeVar, cast

import orjson
from django.db import connections, models, router

if TYPE_CHECKING:  # pragma: no cover
    from django.db.models.deletion import Collector
    from django.db.transaction import Atomic

T = TypeVar("T")
ModelType = type[models.Model]
AnyField: TypeAlias = "models.Field[Any, Any]"
Row = list[Any]  # one row's values as JSON (snapshot_fields order): any JSON value per field

_ATTR = "_blockplan_history_tracker"


class Activity(Protocol):
    """What the capture needs of a ``project.history.models.Activity`` row: its key, its organization and
    its ``changes`` (the related manager of ``ActivityChange``). A protocol, not an import: the models
    module is above this one (``TenantModel`` is tracked), so this module imports no model of an app
    (docs/engineering.md, "Boundaries")."""

    objects: ClassVar[Any]
    pk: Any
    organization_id: Any
    changes: Any


@dataclass
class Tracker:
    activity: Activity
    atomic: Atomic  # the write's transaction.atomic() block: the tracker lives while it is open
    position: int = 0
    refs: set[str] = field(default_factory=set)
    busy: bool = False  # inside a captured call: the ORM calls it makes itself are not captured again


def start(activity: Activity, using: str = "default") -> None:
    """Capture the rows written from now until the current atomic block ends into ``activity``."""
    conn = connections[using]
    atomic = conn.atomic_blocks[-1] if conn.atomic_blocks else None
    setattr(conn, _ATTR, Tracker(activity, atomic) if atomic is not None else None)


def is_tracked(model: ModelType) -> bool:
    return bool(getattr(model, "history_tracked", False)) and not model._meta.abstract


def active(model: ModelType, using: str | None = None) -> Tracker | None:
    """The tracker capturing writes of ``model`` now, or None."""
    if not is_tracked(model):
        return None
    conn = connections[using or router.db_for_write(model)]
    tracker = getattr(conn, _ATTR, None)
    if tracker is None or tracker.busy:
        return None
    if not any(block is tracker.atomic for block in conn.atomic_blocks):
        setattr(conn, _ATTR, None)  # its transaction ended (committed or rolled back)
        return None
    return tracker


def current(using: str = "default") -> Tracker | None:
    """The tracker of the write in progress on this connection, whatever the model (None outside one)."""
    tracker = getattr(connections[using], _ATTR, None)
    if tracker is None or not any(block is tracker.atomic for block in connections[using].atomic_blocks):
        return None
    return tracker


# ------------------------------------------------------------------------------------------ values


_FIELDS: dict[ModelType, list[AnyField]] = {}


def snapshot_fields(model: ModelType) -> list[AnyField]:
    """The concrete fields a snapshot keeps, in model order (minus ``history_exclude``)."""
    fields = _FIELDS.get(model)
    if fields is None:
        exclude = set(getattr(model, "history_exclude", ()))
        fields = _FIELDS[model] = [f for f in model._meta.concrete_fields if f.name not in exclude and f.attname not in exclude]
    return fields


def _decimals(model: ModelType) -> list[tuple[int, models.DecimalField[Any, Any]]]:
    """``[(index, field)]`` of the snapshot's decimal fields (kept as text at their places: JSON has no
    decimals, and "7.5" must compare equal to the database's 7.50)."""
    found = _DECIMALS.get(model)
    if found is None:
        found = _DECIMALS[model] = [(i, f) for i, f in enumerate(snapshot_fields(model)) if isinstance(f, models.DecimalField)]
    return found


_DECIMALS: dict[ModelType, list[tuple[int, models.DecimalField[Any, Any]]]] = {}


def normal(model: ModelType, values: Iterable[Any]) -> Row:
    """A row of values as a snapshot holds it: Python values orjson writes as ``encode`` would (UUIDs,
    dates, times, datetimes as ISO text), decimals already text. Cheap: only decimals are touched."""
    row = list(values)
    for i, f in _decimals(model):
        row[i] = encode(f, row[i])
    return row


def as_stored(row: Row | None) -> Row | None:
    """A row as it reads back from the history (JSON types), to compare with a stored one."""
    return None if row is None else orjson.loads(orjson.dumps(row))


def encode(f: AnyField, value: object) -> Any:
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


def decode(f: AnyField, value: Any) -> Any:
    """The Python value of a snapshot value for field ``f``."""
    if value is None:
        return None
    if isinstance(f, models.JSONField):
        return value
    return f.to_python(value)


def read_rows(model: ModelType, pks: Iterable[object], using: str | None = None) -> dict[str, Row]:
    """``{pk text: [encoded values in snapshot_fields order]}`` of the rows of ``pks`` that exist (one
    query per 2,000 ids)."""
    out: dict[str, Row] = {}
    pks = list(pks)
    manager = model._base_manager.db_manager(using) if using else model._base_manager
    for i in range(0, len(pks), 2000):
        out.update(read_rows_of(manager.filter(pk__in=pks[i : i + 2000])))
    return out


def add(tracker: Tracker, model: ModelType, before: Mapping[str, Row | None], after: Mapping[str, Row | None]) -> None:
    """Store one captured write: rows present in ``before`` or ``after`` (absent = did not exist)."""
    pks = list(dict.fromkeys([*before, *after]))
    _store(tracker, model, [[pk, before.get(pk), after.get(pk)] for pk in pks if before.get(pk) != after.get(pk)])


def _store(tracker: Tracker, model: ModelType, rows: list[list[Any]]) -> None:
    if not rows:
        return
    tracker.position += 1
    fields = snapshot_fields(model)
    relations = [i for i, f in enumerate(fields) if f.is_relation and f.attname != "organization_id"]
    pointed: set[object] = set()
    for _pk, b, a in rows:
        for values in (b, a):
            if values is not None:
                pointed.update(values[i] for i in relations if values[i] is not None)
    org_id = tracker.activity.organization_id
    # The rows themselves too: a session made by a schedule generation (whose ids are the block group's)
    # finds that generation in its own History.
    refs = {str(r) for r in pointed} | {pk for pk, _b, _a in rows}
    updates: dict[str, str] = {}
    named = _named_summary(tracker, model, fields, rows)
    if named is not None:
        tracker.activity.summary = updates["summary"] = named
    if not refs <= tracker.refs:  # one UPDATE when the write reaches records it did not point at yet
        tracker.refs |= refs
        updates["refs"] = " ".join(sorted(tracker.refs))
    if updates:  # a write's first capture always updates refs: the summary rides along, no query of its own
        type(tracker.activity).objects.for_org(org_id).filter(pk=tracker.activity.pk).update(**updates)
    tracker.activity.changes.create(
        organization_id=org_id,
        position=tracker.position,
        model=model._meta.label,
        fields=[f.attname for f in fields],
        rows=orjson.dumps(rows).decode(),
    )


FEW = 3  # a write of at most this many records names each of them in its summary


def _row_name(fields: list[AnyField], before: Row | None, after: Row | None) -> str:
    """A captured row's code, else its name, else its first and last name ("" when it has none)."""
    values = dict(zip([f.attname for f in fields], after if after is not None else before or [], strict=False))
    return str(
        values.get("code")
        or values.get("name")
        or " ".join(str(values.get(n) or "") for n in ("first_name", "last_name")).strip()
    )


def _named_summary(tracker: Tracker, model: ModelType, fields: list[AnyField], rows: list[list[Any]]) -> str | None:
    """The activity's generic summary with its records named, from the write's first capture when that
    capture is exactly the activity's records (ADR 0018): one record ("Ann Admin created a room" → "Ann
    Admin created room CBD-9.99") or a few, up to ``FEW`` ("Ann Admin imported 2 holidays" → "Ann Admin
    imported holidays Easter Monday and Anzac Day", in the order of the activity's ids). None when the
    summary is not the generic one, the capture is not of the records themselves or one has no code or
    name."""
    from project.history.summaries import ENTITY_LABELS, summary_of

    activity = tracker.activity
    ids = [str(i) for i in activity.ids or []]
    if tracker.position != 1 or not 1 <= len(ids) <= FEW or len(rows) != len(ids):
        return None
    if model._meta.model_name != activity.entity.replace("_", ""):
        return None
    named = {str(pk): _row_name(fields, before, after) for pk, before, after in rows}
    if set(named) != set(ids) or not all(named.values()):
        return None
    generic = summary_of(activity.actor_label, activity.entity, activity.action, activity.ids)
    if activity.summary != generic:
        return None
    one, many = ENTITY_LABELS.get(activity.entity, (activity.entity.replace("_", " "), ""))
    if len(ids) == 1:
        what = f"an {one}" if one[0] in "aeiou" else f"a {one}"
        label, names = one, named[ids[0]]
    else:
        what = f"{len(ids)} {many}"
        label, names = many, ", ".join(named[i] for i in ids[:-1]) + f" and {named[ids[-1]]}"
    if not many and len(ids) > 1 or not generic.endswith(f" {what}"):
        return None
    return f"{generic[: -len(what)]}{label} {names}"[:300]


def memory_rows(model: ModelType, objs: Sequence[models.Model]) -> dict[str, Row]:
    """``{pk text: row}`` of instances just written, from memory (no query), as ``normal`` rows; dates
    and times typed as text are parsed first, as the database stored them."""
    fields = snapshot_fields(model)
    names = [f.attname for f in fields]
    moments = [(i, f) for i, f in enumerate(fields) if isinstance(f, (models.DateField, models.TimeField))]
    out: dict[str, Row] = {}
    pk_index = names.index(model._meta.pk.attname)
    for obj in objs:
        values = obj.__dict__
        row = normal(model, [values[n] if n in values else getattr(obj, n) for n in names])
        for i, f in moments:
            if isinstance(row[i], str):
                row[i] = f.to_python(row[i])
        out[str(row[pk_index])] = row
    return out


def add_created(tracker: Tracker, model: ModelType, objs: Sequence[models.Model]) -> None:
    """Store rows just inserted, from their instances."""
    _store(tracker, model, [[pk, None, row] for pk, row in memory_rows(model, objs).items()])


# ------------------------------------------------------------------------------------- capturing


def _run(tracker: Tracker, do: Callable[[], T]) -> T:
    tracker.busy = True
    try:
        return do()
    finally:
        tracker.busy = False


def tracked_update(
    tracker: Tracker, qs: models.QuerySet[models.Model, Any], do: Callable[[], int], values: dict[str, Any]
) -> int:
    """Run ``do()`` (``qs.update(**values)``), capturing those rows before and after. Plain values give
    the after state without a second read; expressions (``F("x") + 1``) are read back."""
    model = qs.model
    before = read_rows_of(qs)
    result = _run(tracker, do)
    if any(hasattr(v, "resolve_expression") for v in values.values()):
        after = read_rows(model, list(before), qs.db)
    else:
        after = _patched(model, before, [(pk, values) for pk in before])
    add(tracker, model, before, after)
    return result


def tracked_bulk_update(
    tracker: Tracker,
    model: ModelType,
    objs: Sequence[models.Model],
    fields: Iterable[str],
    using: str | None,
    do: Callable[[], T],
) -> T:
    """Run ``do()`` (``bulk_update(objs, fields)``), capturing the rows: before from the database (one
    read), after as the database holds them then, the read values with ``fields`` taken from ``objs``."""
    before = read_rows(model, [o.pk for o in objs], using)
    result = _run(tracker, do)
    # bulk_update() accepts concrete fields only (never a reverse relation), so each one is a Field.
    names = [cast(AnyField, model._meta.get_field(name)).attname for name in fields]
    add(tracker, model, before, _patched(model, before, [(str(o.pk), {n: getattr(o, n) for n in names}) for o in objs]))
    return result


def _patched(
    model: ModelType, before: Mapping[str, Row | None], changes: Iterable[tuple[str, Mapping[str, object]]]
) -> dict[str, Row]:
    """``before`` rows with new values (by attribute or field name) put in, as ``normal`` rows."""
    fields = snapshot_fields(model)
    index: dict[str, int] = {}
    for i, f in enumerate(fields):
        index[f.attname] = index[f.name] = i
    out: dict[str, Row] = {}
    for pk, values in changes:
        row = before.get(pk)
        if row is None:
            continue
        row = list(row)
        for name, value in values.items():
            at = index.get(name)
            if at is None:
                continue
            f = fields[at]
            if hasattr(value, "pk") and f.is_relation:
                value = value.pk
            elif value is not None and not f.is_relation:
                value = f.to_python(value)
            row[at] = encode(f, value) if isinstance(f, models.DecimalField) else value
        out[pk] = row
    return out


def read_rows_of(qs: models.QuerySet[models.Model, Any]) -> dict[str, Row]:
    """``read_rows`` of the rows a queryset selects (one query)."""
    model = qs.model
    names = [f.attname for f in snapshot_fields(model)]
    pk_index = names.index(model._meta.pk.attname)
    return {str(row[pk_index]): normal(model, row) for row in qs.order_by().values_list(*names)}


def tracked_pks(tracker: Tracker, model: ModelType, pks: Iterable[object], using: str | None, do: Callable[[], T]) -> T:
    """Run ``do()`` (a write of the rows ``pks``: a save, an upserting bulk create), capturing them."""
    before = read_rows(model, pks, using)
    result = _run(tracker, do)
    add(tracker, model, before, read_rows(model, pks, using))
    return result


def tracked_create(tracker: Tracker, model: ModelType, objs: Sequence[models.Model], do: Callable[[], T]) -> T:
    """Run ``do()`` (a bulk INSERT of ``objs``), capturing the new rows from memory: no query (the
    budget: history adds under 20% to a 400-session schedule generation)."""
    result = _run(tracker, do)
    add_created(tracker, model, objs)
    return result


def tracked_delete(tracker: Tracker, qs: models.QuerySet[models.Model, Any]) -> tuple[int, dict[str, int]]:
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
    deleted, nulled = _collected(collector)
    before_deleted = {m: read_rows(m, pks, del_query.db) for m, pks in deleted.items()}
    before_nulled = {m: read_rows(m, pks, del_query.db) for m, pks in nulled.items()}

    result = _run(tracker, collector.delete)
    qs._result_cache = None

    for model, rows in before_deleted.items():
        add(tracker, model, rows, {})
    for model, rows in before_nulled.items():
        add(tracker, model, rows, read_rows(model, list(rows), del_query.db))
    return result


def collect_delete(model: ModelType, pks: Iterable[object], using: str = "default") -> dict[ModelType, set[str]]:
    """Every tracked row a delete of ``pks`` would remove or set to NULL: ``{model: {pk text}}``.
    Raises Django's ProtectedError / RestrictedError when it is not allowed."""
    from django.db.models.deletion import Collector

    collector = Collector(using=using)
    collector.collect(model._base_manager.db_manager(using).filter(pk__in=pks))
    out: dict[ModelType, set[str]] = {}
    for found in _collected(collector):
        for m, pks_of in found.items():
            out.setdefault(m, set()).update(str(p) for p in pks_of)
    return out


def _collected(collector: Collector) -> tuple[dict[ModelType, set[Any]], dict[ModelType, set[Any]]]:
    """The tracked rows a collected delete removes and those it sets to NULL: two ``{model: {pk}}``."""
    deleted: dict[ModelType, set[Any]] = {}
    for model, instances in collector.data.items():
        if is_tracked(model):
            deleted.setdefault(model, set()).update(obj.pk for obj in instances)
    for fast in collector.fast_deletes:
        if is_tracked(fast.model):
            deleted.setdefault(fast.model, set()).update(fast.order_by().values_list("pk", flat=True))
    nulled: dict[ModelType, set[Any]] = {}
    for (f, _value), batches in collector.field_updates.items():
        if not is_tracked(f.model):
            continue
        for objs in batches:
            pks = objs.order_by().values_list("pk", flat=True) if isinstance(objs, models.QuerySet) else [o.pk for o in objs]
            nulled.setdefault(f.model, set()).update(pks)
    return deleted, nulled


def tracked_save(
    tracker: Tracker, instance: models.Model, using: str, do: Callable[[], None], update_fields: Iterable[str] | None
) -> None:
    """Run ``do()`` (``instance.save()`` to the database ``using``), capturing the row: before from the
    database (none for a new row), after from the instance (only ``update_fields`` when given)."""
    model = type(instance)
    before = {} if instance._state.adding else read_rows(model, [instance.pk], using)
    result = _run(tracker, do)
    if update_fields is not None and before:  # only these were written: the rest is as it was read
        written = [model._meta.get_field(n) for n in update_fields]
        names = {f.attname for f in written if isinstance(f, models.Field)}  # (save takes concrete fields only)
        after = _patched(model, before, [(str(instance.pk), {n: getattr(instance, n) for n in names})])
        add(tracker, model, before, after)
    else:  # every field was written from the instance
        _store(tracker, model, [[pk, before.get(pk), row] for pk, row in memory_rows(model, [instance]).items()])
    return result


# The mixin lives with the base models (project.core.models, which call this module through the capture
# registered in project.history.apps); its old name here stays for the migrations that name it as a base.
from project.core.models import HistoryTracked as HistoryTracked  # noqa: E402
