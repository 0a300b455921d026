"""``GET /api/activity`` (issue 16): who changed what, when, newest first. Thin: parse, select, answer."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any
from uuid import UUID

from django.http import HttpRequest
from ninja import Field, Query

from project.core.responses import json_response
from project.core.routers import make_router
from project.core.schemas import CamelSchema
from project.history import selectors

router = make_router(tags=["Activity"])


class ActivityQuery(CamelSchema):
    entity: Annotated[str | None, Field(max_length=40)] = None
    id: UUID | None = None
    actor_id: UUID | None = None
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


class ActivityPageOut(CamelSchema):
    items: list[ActivityOut]
    total: int
    page: int
    page_size: int


@router.get("/activity", response=ActivityPageOut)
def activity(request: HttpRequest, filters: Query[ActivityQuery]) -> Any:
    """The organization's activity, newest first, ``pageSize`` (1-200, default 50) per ``page``. Filters:
    ``entity``, ``id`` (activities that touched that row), ``actorId``, ``start``/``end`` (days, inclusive,
    organization timezone). ``at`` is ISO 8601 in the organization's timezone. Any signed-in member."""
    ctx = request.auth
    return json_response(selectors.activity_page(
        org=ctx.org, entity=filters.entity, entity_id=filters.id, actor_id=filters.actor_id,
        start=filters.start, end=filters.end, page=filters.page, page_size=filters.page_size,
    ))
