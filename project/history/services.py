"""Recording activities (issue 16). Called once per write by ``realtime.events.emit_change``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from project.history import tracking
from project.history.middleware import note
from project.history.models import Activity

if TYPE_CHECKING:  # pragma: no cover
    from project.core.tenancy import Ctx
    from project.timetabling.models import TimetableSession

ENTITY_LABELS = {
    "course": ("course", "courses"),
    "unit": ("unit of competency", "units of competency"),
    "study_plan": ("study plan", "study plans"),
    "study_plan_unit": ("study plan unit", "study plan units"),
    "campus": ("campus", "campuses"),
    "block_group": ("block group", "block groups"),
    "block_group_study_plan": ("block group study plan", "block group study plans"),
    "linked_block_group": ("linked block group", "linked block groups"),
    "teacher": ("teacher", "teachers"),
    "teacher_unit": ("teacher qualification", "teacher qualifications"),
    "teacher_leave": ("leave period", "leave periods"),
    "timetable_session": ("session", "sessions"),
    "holiday": ("holiday", "holidays"),
    "organization": ("organization", "organizations"),
    "user": ("user", "users"),
    "display_link": ("display link", "display links"),
    "room": ("room", "rooms"),
}
ACTION_VERBS = {
    "created": "created",
    "updated": "updated",
    "deleted": "deleted",
    "allocated": "allocated",
    "imported": "imported",
    "replanned": "re-planned",
    "signed_in": "signed in",
}


def actor_label(ctx: Ctx) -> str:
    """The user's name or email, "Django admin" for support staff's admin writes, else "system"."""
    user = ctx.user
    if user is not None:
        return (user.full_name or user.email)[:200]
    if ctx.origin == "admin":
        return "Django admin"
    return "system"


def summary_of(label: str, entity: str, action: str, ids: list[str]) -> str:
    """A one-line human summary, e.g. "Jordan Lee allocated 12 sessions" or "Ann Admin created a course"."""
    one, many = ENTITY_LABELS.get(entity, (entity.replace("_", " "), entity.replace("_", " ") + "s"))
    if entity == "timetable_session" and action == "scheduled":
        return f"{label} generated the schedule of a block group"
    if entity == "timetable_session" and action == "schedule_cleared":
        return f"{label} cleared the schedule of a block group"
    verb = ACTION_VERBS.get(action, action.replace("_", " "))
    n = len(ids)
    what = (f"an {one}" if one[0] in "aeiou" else f"a {one}") if n == 1 else f"{n} {many}"
    return f"{label} {verb} {what}"[:300]


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
