"""Reading the activity history (issue 16): ``GET /api/activity``."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db.models import TextField
from django.db.models.functions import Cast

from project.history.models import Activity

MAX_PAGE_SIZE = 200


def activity_page(*, org, entity: str | None = None, entity_id: str | None = None, actor_id=None,
                  start: date | None = None, end: date | None = None, page: int = 1, page_size: int = 50) -> dict:
    """``{items: [{id, seq, at, actorId, actorName, origin, entity, action, ids, summary}], total, page,
    pageSize}``, newest first. ``start``/``end`` are days (inclusive) in the organization's timezone; ``at``
    is ISO 8601 in that timezone. ``entity_id`` keeps activities that touched that row. Two queries."""
    tz = ZoneInfo(org.timezone or "Australia/Melbourne")
    qs = Activity.objects.for_org(org)
    if entity:
        qs = qs.filter(entity=entity)
    if entity_id:
        # The ids as JSON text hold the UUID's text exactly when the row was touched (works on SQLite too).
        qs = qs.annotate(ids_text=Cast("ids", TextField())).filter(ids_text__contains=str(entity_id))
    if actor_id:
        qs = qs.filter(actor_id=actor_id)
    if start:
        qs = qs.filter(created_at__gte=datetime.combine(start, time.min, tzinfo=tz))
    if end:
        qs = qs.filter(created_at__lt=datetime.combine(end + timedelta(days=1), time.min, tzinfo=tz))
    total = qs.count()
    offset = (page - 1) * page_size
    rows = qs.order_by("-seq").values(
        "id", "seq", "created_at", "actor_id", "actor_label", "origin", "entity", "action", "ids", "summary"
    )[offset: offset + page_size]
    items = [
        {
            "id": str(r["id"]),
            "seq": r["seq"],
            "at": r["created_at"].astimezone(tz).isoformat(timespec="seconds"),
            "actorId": str(r["actor_id"]) if r["actor_id"] else None,
            "actorName": r["actor_label"],
            "origin": r["origin"] or None,
            "entity": r["entity"],
            "action": r["action"],
            "ids": r["ids"],
            "summary": r["summary"],
        }
        for r in rows
    ]
    return {"items": items, "total": total, "page": page, "pageSize": page_size}
