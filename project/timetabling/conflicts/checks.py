"""The engine's entry points for writes and lists: :func:`check_changes` (what a write would add), :func:`types_by_session` (list rows), :func:`scan` (the conflicts of a range)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING
from uuid import UUID

from django.db.models import Q

from project.timetabling.calendar import week_start
from project.timetabling.conflicts.loading import (
    _week_range,
    load_data,
    load_slots,
)
from project.timetabling.conflicts.neighbourhood import (
    load_neighbourhood,
)
from project.timetabling.conflicts.rules import (
    Conflict,
    ConflictData,
    Slot,
    detect,
    detect_types,
    hard,
    soft,
)

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization


def check_changes(
    org: Organization, proposed: list[Slot], originals: Sequence[Slot] = ()
) -> tuple[list[Conflict], list[Conflict]]:
    """What writing ``proposed`` (new or changed sessions) would add (docs/behaviour/conflicts.md §1).

    originals: the stored versions of changed sessions (empty for creates). Returns
    ``(new_hard, soft)``: hard conflicts involving a proposed session that did not exist before the
    change (a clash that was already there does not block an unrelated edit), and every soft conflict
    involving a proposed session (the write's ``warnings``). 6 queries whatever the size.
    """
    if not proposed:
        return [], []
    ids = {s.id for s in proposed}
    everything = list(proposed) + list(originals)
    others = load_neighbourhood(org, everything, exclude_ids=ids)
    lo, hi = _week_range(s.date for s in everything)
    teacher_ids = {s.teacher_id for s in everything if s.teacher_id is not None}
    data = load_data(org, lo, hi, teacher_ids)
    after = detect(others + list(proposed), data, focus=ids)
    before_keys = {c.key for c in hard(detect(others + list(originals), data, focus=ids))} if originals else set()
    new_hard = [c for c in hard(after) if c.key not in before_keys]
    return new_hard, soft(after)


def types_by_session(
    org: Organization, slots: list[Slot], *, complete_group: UUID | str | None = None
) -> dict[object, list[str]]:
    """``{session_id: sorted list of conflict types}`` for ``slots`` (the rows of a list), 5 queries.

    Reads only the slots' neighbourhood (:func:`load_neighbourhood`: their block groups and rooms on
    their dates, their teachers in their weeks), so a 400-row list costs its own neighbours, not the
    organization. The answer equals a scan of every stored session restricted to ``slots``.
    ``complete_group``: a block group id whose every session on the slots' dates is among ``slots``
    (the list of ``?blockGroupId=``); its sessions are not read again.
    """
    if not slots:
        return {}
    # The engine runs on ids as text: a str caches its hash, a UUID computes it in Python at every
    # dict or set lookup (hundreds of thousands of them for a 5,000-session list, a third of the sweep).
    original: dict[object, object] = {}
    text_slots: list[Slot] = []
    memo: dict[object, str | None] = {None: None}

    def text(value: object) -> str | None:
        try:
            return memo[value]
        except KeyError:
            out = memo[value] = str(value)
            return out

    for s in slots:
        sid = str(s.id)
        original[sid] = s.id
        text_slots.append(s.with_ids(sid, text(s.block_group_id), text(s.unit_id), text(s.teacher_id)))
    others = load_neighbourhood(
        org,
        text_slots,
        codes=False,
        complete_group=None if complete_group is None else str(complete_group),
        text_ids=True,
    )
    merged = {s.id: s for s in others}
    merged.update({s.id: s for s in text_slots})
    lo, hi = _week_range(s.date for s in text_slots)
    teacher_ids = {s.teacher_id for s in slots if s.teacher_id is not None}
    data = _with_text_keys(load_data(org, lo, hi, teacher_ids))
    found = detect_types(merged.values(), data, focus=set(original))
    return {original[k]: sorted(v) for k, v in found.items()}


def _with_text_keys(data: ConflictData) -> ConflictData:
    """``data`` keyed by the text of its ids (for slots whose ids are text, see :func:`types_by_session`)."""
    return ConflictData(
        link_of={str(k): v for k, v in data.link_of.items()},
        holidays=data.holidays,
        teachers={str(k): v for k, v in data.teachers.items()},
        qualified={(str(t), str(u)) for t, u in data.qualified},
        leave={str(k): v for k, v in data.leave.items()},
        rooms=data.rooms,
        groups={str(k): v for k, v in data.groups.items()},
    )


def scan(
    org: Organization, start: date, end: date, *, block_group_id: UUID | str | None = None, teacher_id: UUID | str | None = None
) -> list[Conflict]:
    """Every conflict touching a session dated within [start, end] (of the group / teacher when given).

    Without a filter, loads the organization's sessions of the surrounding weeks in one query and sweeps
    them (5 queries in all); with one, the group's or teacher's sessions and their neighbourhood
    (:func:`load_neighbourhood`, 6 queries). Conflicts are sorted by date then type.
    """
    lo, hi = week_start(start), week_start(end) + timedelta(days=6)
    if block_group_id is not None or teacher_id is not None:
        # One group's or teacher's conflicts: its sessions of the range and their neighbourhood only.
        q = Q(block_group_id=block_group_id) if block_group_id is not None else Q()
        if teacher_id is not None:
            q &= Q(teacher_id=teacher_id)
        mine = load_slots(org, start, end, q)
        if not mine:
            return []
        focus = {s.id for s in mine}
        merged = {s.id: s for s in load_neighbourhood(org, mine)}
        merged.update((s.id, s) for s in mine)
        teacher_ids = {s.teacher_id for s in mine if s.teacher_id is not None}
        data = load_data(org, lo, hi, teacher_ids)
        return detect(merged.values(), data, focus=focus)
    slots = load_slots(org, lo, hi)
    focus = {
        s.id
        for s in slots
        if start <= s.date <= end
        and (block_group_id is None or s.block_group_id == block_group_id)
        and (teacher_id is None or s.teacher_id == teacher_id)
    }
    if not focus:
        return []
    data = load_data(org, lo, hi, None)
    # Every loaded session in focus (the usual whole-range scan): skip the per-session focus checks.
    return detect(slots, data, focus=None if len(focus) == len(slots) else focus)
