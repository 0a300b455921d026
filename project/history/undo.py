"""Undo and redo of an activity (docs/adr/0012): ``POST /api/activity/{id}/undo``.

An activity's captured rows (project.history.tracking) are merged per row: the state before its first
capture and after its last. Undo, in one transaction that is itself a write (one activity "undo of ...",
one change event):

1. refuses (409 ``conflict_state``) when the activity was already undone, when it touched nothing that
   can be restored (users, display links), or when any of its rows is no longer as the activity left it;
   the answer names the later activity that changed it (``blockedBy``) so that it can be undone first;
2. refuses too when removing a row the activity created would take other rows with it (sessions added
   to a block group since it was created) or is protected (a unit now timetabled);
3. restores: rows it created are deleted (through the ORM, so cascades are captured), rows it deleted
   are inserted again with the same id, ``created_at`` and relations, rows it updated get their earlier
   values back (``updated_at`` is now: an ETag taken before the undo is stale, never valid again).

The undo's own activity captures what it wrote, so undoing it (redo) is the same operation; a redo
clears the ``undone_by`` of the original, which can then be undone again.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID
from zoneinfo import ZoneInfo

from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError, Q
from django.db.models.deletion import RestrictedError
from django.utils import timezone

from project.core.errors import Conflict, Forbidden
from project.core.tenancy import Ctx, get_in_org
from project.history import tracking
from project.history.models import Activity, ActivityChange
from project.history.selectors import NOT_UNDOABLE, RowChange, merged_changes
from project.history.services import actor_label
from project.history.tracking import Row
from project.history.visibility import may_undo_entity

if TYPE_CHECKING:  # pragma: no cover
    from project.core.models import TenantModel, TimeStampedModel

INVERSE_ACTION = {"created": "deleted", "deleted": "created", "scheduled": "schedule_cleared", "schedule_cleared": "scheduled"}
COMPARE_SKIP = {"updated_at"}
ADMIN_ONLY_UNDO = "Only an administrator can undo this change."
ALREADY_UNDONE = "This change has already been undone."
NOTHING = "This change has nothing that can be undone."


def _comparable(fields: list[str], values: Row | None) -> dict[str, Any] | None:
    if values is None:
        return None
    return {name: v for name, v in zip(fields, values, strict=True) if name not in COMPARE_SKIP}


def _blocked(activity: Activity, pks: list[str], reason: str) -> Conflict:
    """409 naming the newest later activity that touched any of ``pks`` (when one did)."""
    touched = Q()
    for pk in pks[:50]:
        touched |= Q(rows__contains=pk)
    hit = (
        ActivityChange.objects.for_org(activity.organization_id)
        .filter(touched, activity__seq__gt=activity.seq)
        .select_related("activity")
        .order_by("-activity__seq")
        .first()
    )
    later = hit.activity if hit is not None else None
    if later is None:
        return Conflict(f"{reason} It was changed since, so it cannot be undone.")
    tz = ZoneInfo(activity.organization.timezone or "Australia/Melbourne")
    when = later.created_at.astimezone(tz)
    return Conflict(
        f"{reason} A later change touched the same records: “{later.summary}” ({_shown(when)}). Undo that first.",
        blockedBy={"id": str(later.id), "seq": later.seq, "summary": later.summary, "at": when.isoformat(timespec="seconds")},
    )


def _shown(moment: datetime) -> str:
    """ "26 Nov 2026, 12:20 am": as the History panels show times."""
    return f"{moment.day} {moment:%b %Y}, {moment.hour % 12 or 12}:{moment:%M} {'am' if moment.hour < 12 else 'pm'}"


def undo(*, ctx: Ctx, activity_id: UUID) -> Activity:
    """Undo (or, for an undo, redo) one activity of ``ctx.org``; returns the new activity.

    Raises NotFound (another organization's or unknown id), Forbidden (a member undoing someone else's
    change: only admins may; or a change only an administrator may make, for anyone not an administrator
    at undo time: :func:`project.history.visibility.may_undo_entity`), Conflict (409: already undone, nothing to undo, a later change in the way,
    or rows that would be lost with it).
    """
    from project.core.changes import org_change

    activity = get_in_org(Activity, ctx.org, activity_id, "Activity")
    role = ctx.user.role if ctx.user is not None else None
    if ctx.user is not None and not may_undo_entity(role=role, entity=activity.entity):
        # Judged by the role now, not when the change was made: a demoted admin's own room (docs/adr/0023).
        raise Forbidden(ADMIN_ONLY_UNDO)
    if not ctx.is_admin and (ctx.user is None or activity.actor_id != ctx.user.pk):
        raise Forbidden("You can undo only your own changes. An administrator can undo anyone's.")
    if activity.entity in NOT_UNDOABLE:
        raise Conflict(NOT_UNDOABLE[activity.entity])
    label = actor_label(ctx)
    if activity.undo_of_id:  # undoing an undo is a redo of what it undid
        summary = f"{label} redid: {activity.summary.split(': ', 1)[-1]}"
    else:
        summary = f"{label} undid: {activity.summary}"
    with org_change(
        ctx,
        activity.entity,
        INVERSE_ACTION.get(activity.action, activity.action),
        ids=activity.ids,
        summary=summary,
        undo_of=activity,
    ) as change:
        # The unit locks the organization's writers first, then the rows: the restored rows are captured
        # into the new activity.
        new = change.activity
        activity = Activity.objects.for_org(ctx.org).select_for_update().get(pk=activity.pk)
        if activity.undone_by_id is not None:
            raise Conflict(ALREADY_UNDONE)
        changes = merged_changes(activity)
        if not changes:
            raise Conflict(NOTHING)
        _check_current(activity, changes)
        try:
            with transaction.atomic():
                _restore(ctx, activity, changes)
                connection.check_constraints()
        except (IntegrityError, ProtectedError, RestrictedError):
            raise Conflict(
                "This change cannot be undone: a record it would bring back clashes with one created since "
                "(for example the same code). Rename or remove that record first."
            ) from None
        Activity.objects.for_org(ctx.org).filter(pk=activity.pk).update(undone_by=new)
        if activity.undo_of_id:  # a redo: the original is in effect again and can be undone again
            Activity.objects.for_org(ctx.org).filter(pk=activity.undo_of_id).update(undone_by=None)
    new.refresh_from_db()
    return new


def _check_current(activity: Activity, changes: Mapping[tuple[str, str], RowChange]) -> None:
    """409 unless every row is exactly as the activity left it."""
    by_model: dict[type[TimeStampedModel], list[RowChange]] = {}
    for change in changes.values():
        by_model.setdefault(change.model, []).append(change)
    changed: list[str] = []
    for model, items in by_model.items():
        current = tracking.read_rows(model, [c.pk for c in items])
        fields_now = [f.attname for f in tracking.snapshot_fields(model)]
        for c in items:
            now = current.get(c.pk)
            if _comparable(fields_now, tracking.as_stored(now)) != _comparable(c.fields, c.after):
                changed.append(c.pk)
    if changed:
        raise _blocked(activity, changed, "Some of the records of this change are no longer as it left them.")


def _dependency_order(models_: list[type[TimeStampedModel]]) -> list[type[TimeStampedModel]]:
    """Models with parents before children (for inserts)."""
    ordered: list[type[TimeStampedModel]] = []
    pending = list(dict.fromkeys(models_))
    while pending:
        for m in pending:
            parents = {f.related_model for f in m._meta.concrete_fields if f.is_relation and f.related_model is not m}
            if not (parents & set(pending)):
                ordered.append(m)
                pending.remove(m)
                break
        else:  # a cycle: constraints are deferred to the end of the transaction anyway
            ordered.extend(pending)
            break
    return ordered


def _restore(ctx: Ctx, activity: Activity, changes: Mapping[tuple[str, str], RowChange]) -> None:
    tracker = tracking.current()  # the undo's own activity, started by its write unit
    if tracker is None:  # pragma: no cover - the caller's write unit has just started it
        raise RuntimeError("an undo records into its own activity")
    created: dict[type[TimeStampedModel], list[RowChange]] = {}
    deleted: dict[type[TimeStampedModel], list[tuple[RowChange, Row]]] = {}  # with the row as it was
    updated: dict[type[TimeStampedModel], list[tuple[RowChange, Row, Row]]] = {}  # with the rows before and after
    for c in changes.values():
        if c.before is None and c.after is None:
            continue
        if c.before is None:
            created.setdefault(c.model, []).append(c)
        elif c.after is None:
            deleted.setdefault(c.model, []).append((c, c.before))
        else:
            updated.setdefault(c.model, []).append((c, c.before, c.after))

    # 1. Rows the activity created go, unless they would take other rows with them (rows it touched
    # itself are restored below anyway).
    mine = {(c.model, c.pk) for c in changes.values()}
    for model in reversed(_dependency_order(list(created))):
        pks = [c.pk for c in created[model]]
        try:
            doomed = tracking.collect_delete(model, pks)
        except (ProtectedError, RestrictedError) as exc:
            blockers = [
                str(o.pk) for o in list(getattr(exc, "protected_objects", None) or getattr(exc, "restricted_objects", []))[:50]
            ]
            raise _blocked(activity, blockers or pks, "Records created by this change are in use now.") from None
        others = [pk for m, items in doomed.items() for pk in items if (m, pk) not in mine]
        if others:
            raise _blocked(activity, others, "Records were added to what this change created.")
        # Rows an activity created are its organization's own (TenantModel): the Organization row itself is
        # only ever updated by an activity, never created.
        cast("type[TenantModel]", model).objects.for_org(ctx.org).filter(pk__in=pks).delete()

    # 2. Rows it deleted come back, parents first, with their ids and creation times.
    for model in _dependency_order(list(deleted)):
        items = deleted[model]
        objs = [_instance(model, c.fields, before) for c, before in items]
        created_at = [o.created_at for o in objs]
        model._base_manager.bulk_create(objs)  # auto_now_add stamps created_at: put the original back
        for o, stamp in zip(objs, created_at, strict=True):
            o.created_at = stamp
        model._base_manager.bulk_update(objs, ["created_at"], batch_size=500)
        tracking.add_created(tracker, model, objs)

    # 3. Rows it updated get their earlier values back: only the fields it changed (the rows are as it
    # left them, checked above), one UPDATE per set of values (a bulk allocation undone is one UPDATE).
    now = timezone.now()
    for model, changed in updated.items():
        by_name = {f.attname: f for f in model._meta.concrete_fields}
        groups: dict[tuple[tuple[str, Any], ...], list[str]] = {}
        for c, before, after in changed:
            diff = tuple(
                (name, b)
                for name, b, a in zip(c.fields, before, after, strict=True)
                if b != a and name in by_name and name not in ("created_at", "updated_at")
            )
            groups.setdefault(diff, []).append(c.pk)
        for diff, pks in groups.items():
            values = {name: tracking.decode(by_name[name], b) for name, b in diff}
            values["updated_at"] = now
            qs = model._base_manager.filter(pk__in=pks)
            tracking.tracked_update(tracker, qs, partial(qs.update, **values), values)


def _instance(model: type[TimeStampedModel], fields: list[str], values: Row) -> TimeStampedModel:
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    kwargs: dict[str, Any] = {}
    for name, value in zip(fields, values, strict=True):
        f = by_attname.get(name)
        if f is not None:
            kwargs[name] = tracking.decode(f, value)
    return model(**kwargs)
