"""Display links (admin, organization page) and the public board of a token."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal
from uuid import UUID

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from pydantic import Field

from project.catalogue.models import Campus
from project.core.auth import AuthedRequest, admin_auth
from project.core.refs import OrgRef
from project.core.routers import make_router
from project.core.schemas import CamelSchema, in_date_range, max_length, required
from project.displays import selectors, services
from project.displays.models import DisplayLink

router = make_router(tags=["displays"])


class DisplayLinkIn(CamelSchema):
    name: Annotated[
        str | None,
        Field(default=None, validate_default=True),
        required("Name is required"),
        max_length(100, "Name must be at most 100 characters"),
    ]
    campus_id: Annotated[UUID | None, OrgRef(Campus, "Campus")] = None
    group_by: Literal["room", "block_group"] = "room"


class CampusRef(CamelSchema):
    id: UUID
    name: str


class DisplayLinkOut(CamelSchema):
    id: UUID
    name: str
    token: str
    url: str
    campus: CampusRef | None
    group_by: str
    is_active: bool
    revoked_at: dt.datetime | None
    last_seen_at: dt.datetime | None
    created_at: dt.datetime
    updated_at: dt.datetime

    @staticmethod
    def resolve_url(obj: DisplayLink) -> str:
        return f"/display/{obj.token}"


class BoardRef(CamelSchema):
    code: str
    name: str


class BoardSessionOut(CamelSchema):
    id: UUID
    start_time: str
    end_time: str
    room: str
    room_name: str | None = None
    room_capacity: int | None = None
    status: str
    unit: BoardRef
    block_group: BoardRef
    teacher_name: str | None


class BoardOut(CamelSchema):
    name: str
    organization_name: str
    timezone: str
    campus: CampusRef | None
    group_by: str
    date: dt.date
    server_time: str
    sessions: list[BoardSessionOut]


@router.get("/display-links", response=list[DisplayLinkOut], auth=admin_auth)
def list_links(request: AuthedRequest) -> QuerySet[DisplayLink]:
    """The organization's display links (admin only; 403 for a user)."""
    return selectors.display_link_list(ctx=request.auth)


@router.post("/display-links", response={201: DisplayLinkOut}, auth=admin_auth)
def create_link(request: AuthedRequest, payload: DisplayLinkIn) -> tuple[int, DisplayLink]:
    """A new link scoped to a campus (``campusId``) or the whole organization; 404 for another org's campus."""
    return 201, services.display_link_create(
        ctx=request.auth, name=payload.name, campus_id=payload.campus_id, group_by=payload.group_by
    )


@router.put("/display-links/{uuid:link_id}", response=DisplayLinkOut, auth=admin_auth)
def update_link(request: AuthedRequest, link_id: UUID, payload: DisplayLinkIn) -> DisplayLink:
    return services.display_link_update(
        ctx=request.auth, link_id=link_id, name=payload.name, campus_id=payload.campus_id, group_by=payload.group_by
    )


@router.delete("/display-links/{uuid:link_id}", response=DisplayLinkOut, auth=admin_auth)
def revoke_link(request: AuthedRequest, link_id: UUID) -> DisplayLink:
    """Revoke: the token stops working at once and open boards are disconnected."""
    return services.display_link_revoke(ctx=request.auth, link_id=link_id)


@router.get("/display/{slug:token}", response=BoardOut, auth=None)
def display_board(request: HttpRequest, token: str, date: Annotated[dt.date | None, in_date_range()] = None) -> HttpResponse:
    """The board of a display token: today's sessions of its scope in the organization's timezone.

    No session needed: the token is the credential, and it is accepted here (and by the socket) only.
    404 unknown token (a token is URL-safe base64: any other text in the path is a 404 too); 410
    ``revoked``; 400 for a ``date`` outside years 2000-2100.
    """
    # Written straight to JSON in the shape of ``BoardOut`` (pinned by tests/displays): every display reads
    # the same kept sessions after a change, and validating them again for each cost most of a read.
    return HttpResponse(selectors.display_board_json(token, date), content_type="application/json")
