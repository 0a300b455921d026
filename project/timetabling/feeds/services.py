"""Calendar subscription feeds: create, revoke, and the last access of a feed's secret URL."""

from __future__ import annotations

import secrets
import uuid

from django.utils import timezone

from project.catalogue.models import Room
from project.core.errors import ValidationFailed
from project.core.tenancy import Ctx, get_in_org
from project.planning.models import BlockGroup
from project.staff.models import Teacher
from project.timetabling.models import CalendarFeed

# ---------------------------------------------------------------------------------- calendar feeds


def feed_create(
    *,
    ctx: Ctx,
    teacher_id: uuid.UUID | str | None = None,
    block_group_id: uuid.UUID | str | None = None,
    room_id: uuid.UUID | str | None = None,
) -> CalendarFeed:
    """A secret subscription URL for a teacher's, a block group's or a room's sessions (ADR 0019), owned
    by the acting user.

    Raises ValidationFailed unless exactly one target is given, NotFound for another organization's id.
    Feeds are private to their owner, so no change event is sent (no entity of docs/behaviour/live-events.md §4 shows them).
    """
    if sum(x is not None for x in (teacher_id, block_group_id, room_id)) != 1:
        raise ValidationFailed.field("teacherId", "Choose either a teacher or a block group")
    teacher = get_in_org(Teacher, ctx.org, teacher_id, "Teacher") if teacher_id is not None else None
    group = get_in_org(BlockGroup, ctx.org, block_group_id, "Block group") if block_group_id is not None else None
    room = get_in_org(Room, ctx.org, room_id, "Room") if room_id is not None else None
    return CalendarFeed.objects.for_org(ctx.org).create(
        organization=ctx.org, user=ctx.user, teacher=teacher, block_group=group, room=room, token=secrets.token_urlsafe(32)
    )


def feed_revoke(*, ctx: Ctx, feed_id: uuid.UUID | str) -> None:
    """Revoke one of the user's feeds (admins: any of the organization's); the URL then answers 404."""
    qs = CalendarFeed.objects.for_org(ctx.org).filter(revoked_at__isnull=True)
    if not ctx.is_admin:
        qs = qs.filter(user=ctx.user)
    feed = get_in_org(qs, ctx.org, feed_id, "Calendar feed")
    CalendarFeed.objects.for_org(ctx.org).filter(pk=feed.pk).update(revoked_at=timezone.now(), updated_at=timezone.now())


def feed_touch(feed: CalendarFeed) -> None:
    """Record when a calendar client last fetched the feed."""
    CalendarFeed.objects.for_org(feed.organization_id).filter(pk=feed.pk).update(last_accessed_at=timezone.now())
