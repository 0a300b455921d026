"""Writes of display links. Admin only; every write announces ``display_link``."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction
from django.utils import timezone

from project.catalogue.models import Campus
from project.core.changes import org_change
from project.core.sockets import close_group_sockets
from project.core.tenancy import Ctx, get_in_org
from project.displays.models import DisplayLink


def display_link_group(link_id: UUID | str) -> str:
    """The channel-layer group of a display link's open boards (closed on revocation)."""
    return f"display.{link_id}"


def display_link_create(*, ctx: Ctx, name: str, campus_id: UUID | str | None = None, group_by: str = "room") -> DisplayLink:
    """A new display link with a fresh 256-bit token. campus_id None: the whole organization."""
    with transaction.atomic():
        campus = get_in_org(Campus, ctx.org, campus_id, "Campus") if campus_id else None
        with org_change(ctx, "display_link", "created") as change:
            link = DisplayLink.objects.for_org(ctx.org).create(
                organization=ctx.org, name=name.strip(), campus=campus, group_by=group_by, created_by=ctx.user
            )
            change.ids = [link.id]
    return link


def display_link_update(
    *, ctx: Ctx, link_id: UUID | str, name: str, campus_id: UUID | str | None = None, group_by: str = "room"
) -> DisplayLink:
    """Rename or rescope a link; open boards pick the change up through the change event."""
    with transaction.atomic():
        link = get_in_org(DisplayLink.objects.for_org(ctx.org).select_for_update(), ctx.org, link_id, "Display link")
        link.name = name.strip()
        link.campus = get_in_org(Campus, ctx.org, campus_id, "Campus") if campus_id else None
        link.group_by = group_by
        with org_change(ctx, "display_link", "updated", ids=[link.id]):
            link.save()
    return link


def display_link_revoke(*, ctx: Ctx, link_id: UUID | str) -> DisplayLink:
    """Revoke a link at once: its token stops working and its open boards' sockets are closed."""
    with transaction.atomic():
        link = get_in_org(DisplayLink.objects.for_org(ctx.org).select_for_update(), ctx.org, link_id, "Display link")
        with org_change(ctx, "display_link", "deleted", ids=[link.id]):
            if link.revoked_at is None:
                link.revoked_at = timezone.now()
                link.save(update_fields=["revoked_at", "updated_at"])
            close_group_sockets(display_link_group(link.id))
    return link
