"""The socket side of display links: ``REALTIME_DISPLAY_TOKEN_HOOK`` (see realtime.authentication)."""

from __future__ import annotations

from channels.db import database_sync_to_async

from project.core.errors import DomainError
from project.displays.selectors import display_link_get_by_token
from project.displays.services import display_link_group


@database_sync_to_async
def _grant(token: str) -> tuple[str, dict[str, object]] | None:
    try:
        link = display_link_get_by_token(token)
    except DomainError:
        return None
    return str(link.organization_id), {
        "displayLinkId": str(link.id),
        "campusId": str(link.campus_id) if link.campus_id else None,
        "groups": [display_link_group(link.id)],
    }


async def display_token_hook(token: str) -> tuple[str, dict[str, object]] | None:
    """``(org_id, grant)`` for an active link's token, else None (the socket is refused)."""
    return await _grant(token)
