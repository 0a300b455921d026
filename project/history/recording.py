"""Recording a write's activity: the history step of the write unit (``project.core.changes.org_change``).

Not a service: it runs inside the unit's transaction, never on its own. The history app registers this
module as the unit's recorder (``project.history.apps``: ``project.core.changes.use_recorder``), and the
unit calls :func:`record` once per write, before the write's body, so that the rows the body writes are captured
into the activity (``project.history.tracking``, docs/adr/0012).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from project.history import tracking
from project.history.middleware import note
from project.history.models import Activity
from project.history.summaries import summary_of

if TYPE_CHECKING:  # pragma: no cover
    from project.core.tenancy import Ctx


def actor_label(ctx: Ctx) -> str:
    """The user's name or email, "Django admin" for support staff's admin writes, else "system"."""
    user = ctx.user
    if user is not None:
        return (user.full_name or user.email)[:200]
    if ctx.origin == "admin":
        return "Django admin"
    return "system"


def record(ctx: Ctx, event: dict, *, summary: str | None = None, undo_of: Activity | None = None) -> Activity:
    """One activity for the change event ``event`` (``{entity, action, ids, seq}``), in the caller's
    transaction; the rows the write then touches until that transaction block ends are captured into it
    (project.history.tracking). ``summary``: the sentence History shows (at most 300 characters; by default
    one made from the entity, action and ids). ``undo_of``: the activity an undo reverses."""
    label = actor_label(ctx)
    activity = Activity.objects.for_org(ctx.org).create(
        organization=ctx.org,
        seq=event["seq"],
        actor=ctx.user if ctx.user is not None and ctx.user.pk else None,
        actor_label=label,
        origin=(ctx.origin or "")[:100],
        entity=event["entity"],
        action=event["action"],
        ids=event["ids"],
        summary=(summary or summary_of(label, event["entity"], event["action"], event["ids"]))[:300],
        undo_of=undo_of,
    )
    tracking.start(activity)
    note(activity.pk)  # the answer's X-Activity-Id (middleware), for the SPA's "Undo" toast
    return activity


def set_ids(ctx: Ctx, activity: Activity, ids: list[str], *, summary: str | None = None) -> None:
    """The write's body named its rows after the activity was recorded (a row whose key the database
    gives): store them, and the default summary made from them when the write gave none (one query)."""
    fields: dict[str, object] = {"ids": ids}
    if summary is None:
        fields["summary"] = summary_of(activity.actor_label, activity.entity, activity.action, ids)[:300]
    Activity.objects.for_org(ctx.org).filter(pk=activity.pk).update(**fields)
    activity.ids = ids
