"""``GET /api/activity`` (ADR 0011): who changed what, when, newest first. Thin: parse, select, answer."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any
from uuid import UUID

from ninja import Field, Query

from project.accounts.models import User
from project.core.auth import AuthedRequest
from project.core.refs import OrgRef
from project.core.responses import json_response
from project.core.routers import make_router
from project.core.schemas import CamelSchema, ErrorOut
from project.history import selectors, undo

router = make_router(tags=["Activity"])


class ActivityQuery(CamelSchema):
    entity: Annotated[str | None, Field(max_length=40)] = None
    id: UUID | None = None
    actor_id: Annotated[UUID | None, OrgRef(User, "User")] = None
    start: date | None = None
    end: date | None = None
    page: Annotated[int, Field(ge=1, le=100000)] = 1
    page_size: Annotated[int, Field(ge=1, le=selectors.MAX_PAGE_SIZE)] = 50


class ActivityOut(CamelSchema):
    id: UUID
    seq: int
    at: str
    actor_id: UUID | None = None
    actor_name: str
    origin: str | None = None
    entity: str
    action: str
    ids: list[str]
    summary: str
    undo_of_id: UUID | None = None
    undone_by_id: UUID | None = None
    can_undo: bool = False


class ActivityPageOut(CamelSchema):
    items: list[ActivityOut]
    total: int
    page: int
    page_size: int


@router.get("/activity", response=ActivityPageOut)
def activity(request: AuthedRequest, filters: Query[ActivityQuery]) -> Any:
    """The organization's activity, newest first, ``pageSize`` (1-200, default 50) per ``page``. Filters:
    ``entity``, ``id`` (activities that touched that row), ``actorId``, ``start``/``end`` (days, inclusive,
    organization timezone). ``at`` is ISO 8601 in the organization's timezone. Any signed-in member."""
    ctx = request.auth
    return json_response(
        selectors.activity_list(
            org=ctx.org,
            entity=filters.entity,
            entity_id=filters.id,
            actor_id=filters.actor_id,
            start=filters.start,
            end=filters.end,
            page=filters.page,
            page_size=filters.page_size,
            user=ctx.user,
        )
    )


class FieldChangeOut(CamelSchema):
    field: str
    before: str | None = None
    after: str | None = None


class RowChangeOut(CamelSchema):
    entity: str
    id: str
    label: str
    change: str
    fields: list[FieldChangeOut]


class ActivityDetailOut(ActivityOut):
    changes: list[RowChangeOut]
    rows_total: int


@router.get("/activity/{uuid:activity_id}", response={200: ActivityDetailOut, 404: ErrorOut})
def activity_detail(request: AuthedRequest, activity_id: UUID) -> Any:
    """One activity and what it changed, row by row and field by field (at most 200 rows; ``rowsTotal``
    counts them all), values readable (related records by code or name). Any signed-in member; 404 for
    another organization's activity (ADR 0011)."""
    ctx = request.auth
    return json_response(selectors.activity_detail(org=ctx.org, activity_id=activity_id, user=ctx.user))


@router.post("/activity/{uuid:activity_id}/undo", response={201: ActivityOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut})
def undo_activity(request: AuthedRequest, activity_id: UUID) -> Any:
    """Undo an activity (an undo's undo is a redo): restores the rows it touched in one transaction, as a
    new activity with one change event, answered with 201. 403 when a member undoes someone else's
    change (admins may undo anyone's); 404 for an unknown or another organization's id; 409
    ``conflict_state`` when it was already undone, cannot be undone, or a later change touched the same
    rows (``blockedBy`` {id, seq, summary, at} names it). docs/adr/0012."""
    ctx = request.auth
    new = undo.undo(ctx=ctx, activity_id=activity_id)
    return json_response(selectors.activity_item(org=ctx.org, activity=new, user=ctx.user), status=201)
