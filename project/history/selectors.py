"""Reading the activity history (ADR 0011): ``GET /api/activity``."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import orjson
from django.apps import apps
from django.db.models import Q, TextField
from django.db.models.functions import Cast

from project.core.errors import NotFound
from project.core.tenancy import get_in_org
from project.history.models import Activity, ActivityChange
from project.history.tracking import Row
from project.history.visibility import may_read, may_undo_entity, readable_filter

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from django.db.models import Model

    from project.accounts.models import Organization, User
    from project.core.models import TimeStampedModel

MAX_PAGE_SIZE = 200
# Entities whose activities cannot be undone, with the reason (409); read here (``canUndo``) and by the undo.
NOT_UNDOABLE = {
    "user": "Changes to users cannot be undone. Edit the user instead.",
    "display_link": "Display links cannot be undone. Create a new link instead.",
}


class RowChange:
    """One row an activity touched: its model, key, field names and values before its first capture and
    after its last (``None``: did not exist). The undo (``project.history.undo``) restores ``before``."""

    __slots__ = ("model", "pk", "fields", "before", "after")

    def __init__(self, model: type[TimeStampedModel], pk: str, fields: list[str], before: Row | None, after: Row | None) -> None:
        self.model, self.pk, self.fields, self.before, self.after = model, pk, fields, before, after


def merged_changes(activity: Activity) -> OrderedDict[tuple[str, str], RowChange]:
    """Every row the activity touched: the state before its first capture and after its last."""
    out: OrderedDict[tuple[str, str], RowChange] = OrderedDict()
    for change in ActivityChange.objects.for_org(activity.organization_id).filter(activity=activity).order_by("position"):
        model = apps.get_model(change.model)
        for pk, before, after in change.row_list():
            key = (change.model, pk)
            if key in out:
                out[key].after = after
            else:
                out[key] = RowChange(model, pk, change.fields, before, after)
    return out


def activity_list(
    *,
    org: Organization,
    entity: str | None = None,
    entity_id: UUID | str | None = None,
    actor_id: UUID | str | None = None,
    start: date | None = None,
    end: date | None = None,
    page: int = 1,
    page_size: int = 50,
    user: User | None = None,
) -> dict[str, object]:
    """``{items: [{id, seq, at, actorId, actorName, origin, entity, action, ids, summary}], total, page,
        pageSize}``, newest first; each item also ``undoOfId``, ``undoneById`` and ``canUndo`` (for ``user``). ``start``/``end`` are days (inclusive) in the organization's timezone; ``at``
        is ISO 8601 in that timezone. ``entity_id`` keeps activities that touched that row or rows pointing
    at it. Only what ``user`` may read (:mod:`project.history.visibility`: a member sees no admin-only
    activity; no user: everything, for system callers). Three queries."""
    tz = ZoneInfo(org.timezone or "Australia/Melbourne")
    qs = Activity.objects.for_org(org)
    if user is not None:
        qs = qs.filter(readable_filter(role=user.role, user_id=user.pk))
    if entity:
        qs = qs.filter(entity=entity)
    if entity_id:
        # The ids as JSON text hold the UUID's text exactly when the row was touched (works on SQLite too).
        # ... or that touched rows pointing at it (a block group's sessions, a teacher's allocations).
        qs = qs.annotate(ids_text=Cast("ids", TextField())).filter(
            Q(ids_text__contains=str(entity_id)) | Q(refs__contains=str(entity_id))
        )
    if actor_id:
        qs = qs.filter(actor_id=actor_id)
    if start:
        qs = qs.filter(created_at__gte=datetime.combine(start, time.min, tzinfo=tz))
    if end:
        qs = qs.filter(created_at__lt=datetime.combine(end + timedelta(days=1), time.min, tzinfo=tz))
    total = qs.count()
    offset = (page - 1) * page_size
    rows = list(qs.order_by("-seq").values(*FIELDS)[offset : offset + page_size])
    # Which of this page's activities captured rows (undoable): one indexed query for the page only.
    with_changes = set(
        ActivityChange.objects.for_org(org)
        .filter(activity_id__in=[r["id"] for r in rows])
        .values_list("activity_id", flat=True)
        .distinct()
    )
    for r in rows:
        r["has_changes"] = r["id"] in with_changes
    items = [_item(r, tz, user) for r in rows]
    return {"items": items, "total": total, "page": page, "pageSize": page_size}


FIELDS = (
    "id",
    "seq",
    "created_at",
    "actor_id",
    "actor_label",
    "origin",
    "entity",
    "action",
    "ids",
    "summary",
    "undo_of_id",
    "undone_by_id",
)


def _item(r: dict[str, Any], tz: ZoneInfo, user: User | None) -> dict[str, object]:
    role = getattr(user, "role", None)
    mine = user is not None and (role == "admin" or r["actor_id"] == user.pk) and may_undo_entity(role=role, entity=r["entity"])
    return {
        "id": str(r["id"]),
        "seq": r["seq"],
        "at": r["created_at"].astimezone(tz).isoformat(timespec="seconds"),
        "actorId": str(r["actor_id"]) if r["actor_id"] else None,
        "actorName": r["actor_label"],
        "origin": r["origin"] or None,
        "entity": r["entity"],
        "action": r["action"],
        "ids": r["ids"],
        "summary": r["summary"],
        "undoOfId": str(r["undo_of_id"]) if r["undo_of_id"] else None,
        "undoneById": str(r["undone_by_id"]) if r["undone_by_id"] else None,
        # Whether this user may try: an undo can still be refused (409) when a later change is in the way.
        "canUndo": bool(mine and r["has_changes"] and r["undone_by_id"] is None and r["entity"] not in NOT_UNDOABLE),
    }


MAX_DETAIL_ROWS = 200


def activity_item(*, org: Organization, activity: Activity, user: User | None = None) -> dict[str, object]:
    """One activity as the list shows it (``ActivityOut``), for ``user``: one query (whether it captured rows)."""
    r = {name: getattr(activity, name) for name in FIELDS}
    r["has_changes"] = ActivityChange.objects.for_org(org).filter(activity=activity).exists()
    return _item(r, ZoneInfo(org.timezone or "Australia/Melbourne"), user)


def activity_detail(*, org: Organization, activity_id: UUID | str, user: User | None = None) -> dict[str, object]:
    """One activity with what it changed, readable: ``changes: [{entity, id, label, change: created |
    updated | deleted, fields: [{field, before, after}]}]`` (at most 200 rows; ``rowsTotal`` counts all).
    Field values are shown as stored (dates ISO, times HH:MM:SS, hours as decimals); secrets are never
    captured. Raises NotFound, also for an activity ``user`` may not read (a member and an admin-only
    activity: :func:`project.history.visibility.may_read`)."""
    activity = get_in_org(Activity, org, activity_id, "Activity")
    if user is not None and not may_read(role=user.role, user_id=user.pk, entity=activity.entity, ids=activity.ids):
        raise NotFound("Activity not found")
    out = activity_item(org=org, activity=activity, user=user)
    changes = list(merged_changes(activity).values())
    names_of = _related_labels(changes[:MAX_DETAIL_ROWS])
    rows: list[dict[str, object]] = []
    for c in changes[:MAX_DETAIL_ROWS]:
        model = c.model
        verbose = {f.attname: str(f.verbose_name) for f in model._meta.concrete_fields}
        before = dict(zip(c.fields, c.before, strict=True)) if c.before is not None else {}
        after = dict(zip(c.fields, c.after, strict=True)) if c.after is not None else {}
        kind = "created" if c.before is None else "deleted" if c.after is None else "updated"
        shown = after or before
        names = [n for n in c.fields if n not in HIDDEN_FIELDS and (kind != "updated" or before.get(n) != after.get(n))]
        rows.append(
            {
                "entity": str(model._meta.verbose_name).title(),
                "id": c.pk,
                "label": str(shown.get("code") or shown.get("name") or shown.get("actual_date") or c.pk),
                "change": kind,
                "fields": [
                    {
                        "field": verbose.get(n, n),
                        "before": _shown_value(before.get(n), names_of),
                        "after": _shown_value(after.get(n), names_of),
                    }
                    for n in names
                ],
            }
        )
    out["changes"] = rows
    out["rowsTotal"] = len(changes)
    return out


def _related_labels(changes: Sequence[RowChange]) -> dict[object, str]:
    """``{id text: readable name}`` for the related rows the changes point at (a teacher's name, a unit's
    code): one query per related model."""
    wanted: dict[type[Model], set[Any]] = {}
    for c in changes:
        relations = {
            f.attname: f.related_model for f in c.model._meta.concrete_fields if f.is_relation and f.related_model is not None
        }
        for values in (c.before, c.after):
            if values is None:
                continue
            for name, value in zip(c.fields, values, strict=True):
                if value is not None and name in relations and name != "organization_id":
                    wanted.setdefault(relations[name], set()).add(value)
    out: dict[object, str] = {}  # looked up with any snapshot value: only the ids' text is found
    for model, ids in wanted.items():
        names = {f.name for f in model._meta.concrete_fields}
        label = next((n for n in ("code", "full_name", "name", "email") if n in names), None)
        if label is None:
            continue
        for pk, text in model._base_manager.filter(pk__in=list(ids)).values_list("pk", label):
            out[str(pk)] = text
    return out


HIDDEN_FIELDS = {"id", "organization_id", "created_at", "updated_at"}


def _shown_value(value: object, names_of: dict[object, str]) -> str | None:
    """A captured value as the detail shows it: a related row's name for its id, a list (a room's
    features) as its items joined by ", ", an object as compact JSON, anything else as :func:`_text`."""
    if isinstance(value, str) and value in names_of:
        return names_of[value]
    if isinstance(value, list):
        return ", ".join(t for t in (_text(v) for v in value) if t is not None)
    if isinstance(value, dict):
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    return _text(value)


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "Yes" if value else "No"
    return str(value)
