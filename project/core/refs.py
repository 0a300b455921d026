"""Tenant-scoped references: every id a request carries is resolved inside the caller's organization.

ADR 0001 (amended): one mechanism loads the rows named by a request's input. A field of an input schema
(body or query) that names another record is typed with :func:`OrgRef` (one id) or :func:`OrgRefs` (a
list of ids)::

    class SessionIn(FormIn):
        teacher_id: Annotated[UUID | None, OrgRef(Teacher, "Teacher")] = None
        session_ids: Annotated[list[UUID], OrgRefs(TimetableSession, "Timetable session")]

When Ninja validates the input it passes ``context={"request": request}``; the validator reads the
request's :class:`project.core.tenancy.Ctx` (set by the auth class, which runs first) and loads the
row(s) with ``Model.objects.for_org(ctx.org)``:

- one id: 1 query; another organization's id or an unknown id raises :class:`NotFound` "<Label> not
  found" (docs/behaviour/tenancy.md §2: 404, exactly like an unknown id, so no existence leaks).
- a list: 1 query for the whole list (not one per id); all or 404: one foreign or unknown id and the
  request answers 404 "<Label> not found" and changes nothing. Duplicates are kept as sent.
- ``None`` passes through (an optional reference left empty).

The validated value is a plain ``uuid.UUID``; while that very object lives, the row loaded for it is
kept beside it (by identity, not by value; :func:`project.core.tenancy.carry`). Services keep calling
:func:`project.core.tenancy.get_in_org` with it; that call answers the carried row without a second query when the row is of the same model and
organization (and queries as before otherwise, e.g. when a service builds the schema itself without a
request, or locks the row with ``get_locked``). Path ids (``/teachers/{uuid:teacher_id}``) are the record acted on:
services load them with ``get_in_org``/``get_locked``, the same scoped lookup.

Malformed ids are left to the field's own type (``UUID``: 400 "Validation failed"); the reference runs
after it, on a well-formed UUID only.

Two more forms of the same lookup: :func:`OrgRefsAt` for an id inside a list of objects
(``assignments: [{sessionId, teacherId}]``, one query per attribute for the whole list), and
:func:`confirm_filter_refs` for the filter ids of a cached list read, checked only when its answer is empty.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from django.db import models
from pydantic import AfterValidator, ValidationInfo

from project.core.errors import NotFound
from project.core.tenancy import carry, scoped


def _ctx_org(info: ValidationInfo) -> Any:
    """The organization of the validating request, or None (no request: a schema built in code)."""
    context = info.context if isinstance(info.context, dict) else None
    request = context.get("request") if context else None
    ctx = getattr(request, "auth", None)
    return getattr(ctx, "org", None)


def _as_uuid(value: Any) -> uuid.UUID | None:
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (ValueError, TypeError, AttributeError):
        return None


def _rows(model: type[models.Model], org: Any) -> models.QuerySet:
    """The rows of ``org``: ``for_org`` of a TenantModel, ``organization_id`` of another model that has
    one (the users of an organization)."""
    return scoped(model._default_manager.all(), org)


def resolve_one(model: type[models.Model], org: Any, value: Any, label: str) -> Any:
    """``value`` (a UUID or its text) as a UUID carrying its row of ``org``; NotFound
    "<label> not found" for another organization's id, an unknown id or a malformed one. None stays None."""
    if value is None:
        return None
    key = _as_uuid(value)
    if key is None:
        raise NotFound(f"{label} not found")
    row = _rows(model, org).filter(pk=key).first()
    if row is None:
        raise NotFound(f"{label} not found")
    return carry(key, row)


def resolve_many(model: type[models.Model], org: Any, values: Iterable[Any] | None, label: str) -> Any:
    """Every id of ``values`` as a UUID carrying its row of ``org``, in the order sent, in one query; NotFound
    "<label> not found" if any is foreign, unknown or malformed (all or nothing). None stays None."""
    if values is None:
        return None
    keys = []
    for value in values:
        key = _as_uuid(value)
        if key is None:
            raise NotFound(f"{label} not found")
        keys.append(key)
    if not keys:
        return []
    rows = {row.pk: row for row in _rows(model, org).filter(pk__in=set(keys))}
    if len(rows) != len(set(keys)):
        raise NotFound(f"{label} not found")
    return [carry(key, rows[key]) for key in keys]


def OrgRef(model: type[models.Model], label: str) -> AfterValidator:  # noqa: N802 — reads as a type in Annotated[...]
    """Annotated metadata: the field's id (a UUID or None) names a row of the caller's organization, else
    404 "<label> not found". Use after the field's own parsing (``Annotated[UUID | None, OrgRef(...)]``)."""

    def run(value: Any, info: ValidationInfo) -> Any:
        org = _ctx_org(info)
        if org is None or value is None:
            return value
        return resolve_one(model, org, value, label)

    return AfterValidator(run)


def OrgRefs(model: type[models.Model], label: str) -> AfterValidator:  # noqa: N802 — reads as a type in Annotated[...]
    """Annotated metadata: every id of the field's list names a row of the caller's organization, checked
    in one query, else 404 "<label> not found" (all or nothing). ``Annotated[list[UUID] | None, OrgRefs(...)]``."""

    def run(value: Any, info: ValidationInfo) -> Any:
        org = _ctx_org(info)
        if org is None or value is None:
            return value
        return resolve_many(model, org, value, label)

    return AfterValidator(run)


def OrgRefsAt(model: type[models.Model], label: str, attr: str) -> AfterValidator:  # noqa: N802 — reads as a type in Annotated[...]
    """Annotated metadata of a list of objects (``assignments: [{sessionId, teacherId}]``): the ``attr`` id
    of every item names a row of the caller's organization, all checked in one query, else 404 "<label>
    not found". Items whose ``attr`` is None are skipped. Stack one per id attribute."""

    def run(value: Any, info: ValidationInfo) -> Any:
        org = _ctx_org(info)
        if org is None or not value:
            return value
        items = [item for item in value if getattr(item, attr, None) is not None]
        refs = resolve_many(model, org, [getattr(item, attr) for item in items], label)
        for item, ref in zip(items, refs, strict=True):
            setattr(item, attr, ref)
        return value

    return AfterValidator(run)


def confirm_filter_refs(found: bool, org: Any, refs: Iterable[tuple[type[models.Model], Any, str]]) -> None:
    """The filter ids of a list read that is cached or counted (``GET /api/timetables?blockGroupId=``):
    ``refs`` are ``(Model, id or None, label)``. A row of ``org`` that matched a filter id proves that id
    is ``org``'s (rows only point at rows of their own organization), so only an empty answer (``found``
    False) needs the check: 1 query per given id, NotFound "<label> not found" for another
    organization's or an unknown id. A cache hit or a non-empty list costs nothing more."""
    if found:
        return
    for model, value, label in refs:
        resolve_one(model, org, value, label)
