"""Recording activities (ADR 0012). Called once per write by ``realtime.events.emit_change``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from project.history import tracking
from project.history.middleware import note
from project.history.models import Activity
from project.history.summaries import summary_of

if TYPE_CHECKING:  # pragma: no cover
    from project.core.tenancy import Ctx
    from project.timetabling.models import TimetableSession


def actor_label(ctx: Ctx) -> str:
    """The user's name or email, "Django admin" for support staff's admin writes, else "system"."""
    user = ctx.user
    if user is not None:
        return (user.full_name or user.email)[:200]
    if ctx.origin == "admin":
        return "Django admin"
    return "system"


def _day(d: date) -> str:
    """ "Mon 30 Nov" (the year when it is not the current one is left to the row's own date column)."""
    return f"{d:%a} {d.day} {d:%b}"


def sessions_phrase(sessions: Sequence[TimetableSession]) -> str:
    """What a change to ``sessions`` (with their block group and unit loaded) touched, in a few words
    (ADR 0018): "2 sessions of 22603VIC-2026-S2-FT, Mon 30 Nov", "a session of ICTSAS432 in GRP-1, Tue 1
    Dec", "5 sessions of GRP-1 and GRP-2, Mon 30 Nov to Fri 4 Dec"."""
    if not sessions:
        return "no sessions"
    groups = sorted({s.block_group.code for s in sessions})
    dates = sorted({s.actual_date for s in sessions if s.actual_date})
    when = "" if not dates else f", {_day(dates[0])}" if len(dates) == 1 else f", {_day(dates[0])} to {_day(dates[-1])}"
    of = (
        groups[0]
        if len(groups) == 1
        else f"{', '.join(groups[:-1])} and {groups[-1]}"
        if len(groups) <= 3
        else f"{len(groups)} block groups"
    )
    if len(sessions) == 1:
        return f"a session of {sessions[0].unit.code} in {of}{when}"
    return f"{len(sessions)} sessions of {of}{when}"


def record(ctx: Ctx, event: dict, *, summary: str | None = None, undo_of: Activity | None = None) -> Activity:
    """One activity for the change event being emitted, in the caller's transaction; the rows the write
    then touches until its transaction block ends are captured into it (project.history.tracking)."""
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
