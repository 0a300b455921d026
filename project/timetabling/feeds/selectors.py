"""Reads of calendar feeds: a user's live feeds, and the feed of a secret token (docs/adr/0030 layout)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from project.core.errors import NotFound
from project.timetabling.models import CalendarFeed

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization, User


def feed_list(*, org: Organization, user: User | None) -> list[CalendarFeed]:
    """The user's calendar feeds that are not revoked, with their teacher or block group (1 query)."""
    return list(
        CalendarFeed.objects.for_org(org)
        .filter(user=user, revoked_at__isnull=True)
        .select_related("teacher", "block_group", "room")
    )


def feed_get_by_token(token: str) -> CalendarFeed:
    """The live feed of a secret token, across organizations (the token is the credential).

    NotFound "Calendar feed not found" when the token is unknown or revoked, its owner inactive, or
    the organization inactive.
    """
    feed = (
        CalendarFeed.objects.unscoped()  # cross-organization lookup by secret token, on purpose
        .select_related("organization", "user")
        .filter(token=token[:64], revoked_at__isnull=True)
        .first()
    )
    if (
        feed is None
        or not feed.user.is_active
        or not feed.organization.is_active
        or feed.user.organization_id != feed.organization_id
    ):
        raise NotFound("Calendar feed not found")
    return feed
