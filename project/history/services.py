"""Phrases for the activities of writes (``sessions_phrase``); recording itself is ``project.history.recording``,
the history step of the write unit (``project.core.changes.org_change``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from project.history.recording import actor_label

__all__ = ["actor_label", "sessions_phrase"]  # actor_label is recording's, kept where callers import it

if TYPE_CHECKING:  # pragma: no cover
    from project.timetabling.models import TimetableSession


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
