"""Reads of display links and the board a link shows."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING
from uuid import UUID
from zoneinfo import ZoneInfo

from django.db.models import QuerySet
from django.utils import timezone

from project.core.errors import DomainError, NotFound
from project.core.response_cache import kept_value
from project.core.responses import json_dumps
from project.core.tenancy import Ctx
from project.displays.models import DisplayLink
from project.staff.models import Teacher
from project.timetabling.models import TimetableSession
from project.timetabling.selectors import SESSION_NAME_FIELDS

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization


class LinkRevoked(DomainError):
    """410: the display link existed and was revoked (the board says so)."""

    status = 410
    type = "revoked"


def display_link_list(*, ctx: Ctx) -> QuerySet[DisplayLink]:
    """The organization's display links, active first then by name (2 queries with campuses)."""
    return DisplayLink.objects.for_org(ctx.org).select_related("campus").order_by("revoked_at", "name")


def display_link_get_by_token(token: str) -> DisplayLink:
    """The link of a token, across organizations (the token is the only credential).

    Raises NotFound for an unknown token and LinkRevoked (410) for a revoked one.
    """
    link = (
        DisplayLink.objects.unscoped()
        .select_related("organization", "campus")
        .filter(token=token, organization__is_active=True)
        .first()
        if token and len(token) <= 64
        else None
    )
    if link is None:
        raise NotFound("Display link not found")
    if link.revoked_at is not None:
        raise LinkRevoked("This display link has been revoked")
    return link


def organization_today(org: Organization) -> tuple[date, datetime]:
    tz = ZoneInfo(org.timezone or "Australia/Melbourne")
    now = timezone.now().astimezone(tz)
    return now.date(), now


LAST_SEEN_EVERY = timedelta(seconds=60)


def display_board_json(token: str, day: date | None = None) -> bytes:
    """Today's sessions of a link's scope, in the organization's timezone, as the JSON of ``BoardOut``.

    Answer: ``{"name", "organizationName", "timezone", "campus": {id, name} | None, "groupBy",
    "date", "serverTime", "sessions": [{id, startTime, endTime, room, roomName, roomCapacity, status, unit {code, name},
    blockGroup {code, name}, teacherName | None}]}``; sessions ordered by start time then room.
    Raises ``NotFound`` (unknown token) or ``DomainError`` 410 ``revoked`` (``display_link_get_by_token``).

    One query for the link; the sessions' JSON of a (day, campus scope) is built once per change of the
    organization for every display showing them, whichever process it asks (``kept_value``, ADR 0025
    and 0034: after a change each open display asks at once) and spliced into each display's own head (its name, the time): twenty displays
    after a change cost one build, not twenty validations of the same sessions (docs/benchmarks.md).
    ``last_seen_at`` is written at most once a minute per link.
    """
    link = display_link_get_by_token(token)
    org = link.organization
    today, now = organization_today(org)
    day = day or today
    sessions = kept_value(
        org,
        "display-board",
        {"day": day.isoformat(), "campus": str(link.campus_id or "")},
        lambda: json_dumps(_board_sessions(org, day, link.campus_id)),
        shared=True,  # one build per change for every process of a cluster (ADR 0034)
    )
    seen = timezone.now()
    if link.last_seen_at is None or seen - link.last_seen_at >= LAST_SEEN_EVERY:
        DisplayLink.objects.for_org(org).filter(pk=link.pk).update(last_seen_at=seen)
    head = json_dumps(
        {
            "name": link.name,
            "organizationName": org.name,
            "timezone": org.timezone,
            "campus": {"id": str(link.campus.id), "name": link.campus.name} if link.campus else None,
            "groupBy": link.group_by,
            "date": day.isoformat(),
            "serverTime": now.isoformat(timespec="seconds"),
        }
    )
    return head[:-1] + b',"sessions":' + sessions + b"}"


def _board_sessions(org: Organization, day: date, campus_id: UUID | None) -> list[dict]:
    """The board's sessions of ``day`` (of the campus's block groups when ``campus_id``), one query.

    Read as plain values, not model instances: a provider's Monday is hundreds of sessions, and this is
    the build every open display waits for right after a change (docs/benchmarks.md)."""
    qs = (
        TimetableSession.objects.for_org(org)
        .filter(actual_date=day)
        .order_by("start_time", "room", "block_group__code")
        .values_list(
            "id",
            "start_time",
            "end_time",
            "room",
            "room_record__name",
            "room_record__capacity",
            "status",
            *SESSION_NAME_FIELDS,
        )
    )
    if campus_id is not None:
        qs = qs.filter(block_group__campus_id=campus_id)
    return [
        {
            "id": str(sid),
            "startTime": start.strftime("%H:%M:%S"),
            "endTime": end.strftime("%H:%M:%S"),
            "room": room,
            # The room record's name and seats, for a board grouped by room.
            "roomName": room_name,
            "roomCapacity": room_capacity,
            "status": status,
            "unit": {"code": unit_code, "name": unit_name},
            "blockGroup": {"code": group_code, "name": group_name},
            "teacherName": Teacher.name_of(first, last) if first is not None else None,
        }
        for sid, start, end, room, room_name, room_capacity, status, unit_code, unit_name, group_code, group_name, first, last in qs
    ]
