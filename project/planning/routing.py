"""The routing details of ``block_group`` change events, registered with the write unit by this app
(``project.core.changes.use_routing``, docs/adr/0028): the campuses of the written block groups, for
campus-scoped wall displays."""

from __future__ import annotations

from typing import Any

from project.planning.models import BlockGroup


def block_group_routing(ids: list[str], action: str) -> tuple[list[Any], None]:
    """The campus keys of the block groups ``ids`` (one query) and no ``sessions``. ValidationError for
    ids that are not UUIDs."""
    return list(BlockGroup.objects.unscoped().filter(id__in=ids).values_list("campus_id", flat=True)), None
