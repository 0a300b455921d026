"""Closure moves of a re-plan (ADR 0015): where the sessions a closed day hits go.

:func:`closure_moves` answers the ``changes``, ``unresolved`` and ``endDatesExtended`` of a closure's
proposal (``replan.replan_propose``). Every moved session keeps its start and end time, teacher and room, so
hours per unit never change; each new date is one of its block group's preferred days, not closed nor a
holiday, with the group, the room and the teacher free at that time and the teacher not on leave.

Two steps:

1. **Greedy** (:mod:`.greedy`), in date order: each hit session takes the earliest such date before
   its group's next unit starts (the group's last unit may go up to ``SEARCH_MONTHS`` past the end
   date); when the group has no free date left before its next unit, the group's later sessions at the
   same time shift one slot each until one of them reaches a free date (:class:`.greedy.Reflow`).
2. **CP-SAT** (:mod:`.model`), with the current timetable changed by the greedy plan as its hint:
   the hit sessions and up to ``LANE`` later sessions of each hit one's group and time may move, each to
   one of its first ``CANDIDATES`` free dates (or, for those later sessions, stay). No two of them share
   a group, room or teacher at overlapping times on a date, and no session goes on or past a session of
   a unit that started after it (the unit order of the study plan). The objective, in this order:
   fewest sessions left unresolved, fewest sessions moved, least added length (days the groups' last
   teaching days move), least total delay in days. Teachers are kept (a closure changes dates, not
   who teaches), so "fewest teachers changed" is always met. The better of the two plans by that order
   is the answer; the greedy one when the solver finds nothing in ``MOVE_SECONDS``.

Why both: the greedy plan is the least added length for each session alone and a feasible start; the
model repairs what the greedy order spoils when sessions compete for the same free rooms, teachers or
dates (an early move taking the only slot a later one could use, a re-flow moving more sessions than
needed).

What both read, the closure's sessions, holidays, leave and bookings, is :mod:`.board`.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from project.timetabling import conflicts as cf
from project.timetabling.replan.board import SEARCH_MONTHS, Board, Plan
from project.timetabling.replan.change import change_row, unresolved_row
from project.timetabling.replan.greedy import greedy_plan
from project.timetabling.replan.makeup import MAKE_UP_SECONDS, make_up_plan, make_up_rest
from project.timetabling.replan.model import optimised_plan

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.planning.models import BlockGroup
    from project.timetabling.replan.change import Change

__all__ = ["MOVE_SECONDS", "SEARCH_MONTHS", "Board", "closure_moves", "make_up_moves"]

MOVE_SECONDS = 1.5  # the shift's model; with the make-up's repair (0.5 s) a proposal stays under 5 s
REFLOWED = "Moved later to make room (the unit order is kept)"


def _rank(board: Board, plan: Plan) -> tuple:
    """The objective of the package docstring, smaller is better: (unresolved, moved, added length, delay), days."""
    added: dict = {}
    for sid, day in plan.dates.items():
        gid = board.slot_of[sid].block_group_id
        added[gid] = max(added.get(gid, 0), (day - board.last_day.get(gid, day)).days)
    delay = sum((day - board.slot_of[sid].date).days for sid, day in plan.dates.items())
    return (len(plan.unresolved), len(plan.dates), sum(added.values()), delay)


# ---------------------------------------------------------------------------------------- answer


def closure_moves(
    org: Organization,
    change: Change,
    hits: list[dict],
    window: tuple[date, date],
    *,
    time_limit: float = MOVE_SECONDS,
    board: Board | None = None,
) -> tuple[list[dict], list[dict], list[dict[str, object]]]:
    """The moves that fix the sessions a closure hits (package docstring): ``(changes, unresolved,
    endDatesExtended)`` in the shapes of ``replan.replan_propose``; ``board``: the one of :func:`make_up_moves`,
    when both options are made from one reading. Reads only."""
    if not hits:
        return [], [], []
    board = board or Board(org, change, hits, window)
    plan = greedy_plan(board)
    if plan.dates or plan.unresolved:
        better = optimised_plan(board, plan, time_limit)
        if better is not None and _rank(board, better) < _rank(board, plan) and _keeps_weeks(board, better):
            plan = better
    return _answer(board, make_up_rest(board, plan), hits, REFLOWED)


def make_up_moves(
    org: Organization,
    change: Change,
    hits: list[dict],
    window: tuple[date, date],
    *,
    time_limit: float = MAKE_UP_SECONDS,
    board: Board | None = None,
) -> tuple[list[dict], list[dict], list[dict[str, object]]]:
    """The make-up option (:mod:`.makeup`): only the hit sessions move, each to its nearest free slot.
    ``(changes, unresolved, endDatesExtended)`` in the shapes of ``replan.replan_propose``. Reads only."""
    if not hits:
        return [], [], []
    board = board or Board(org, change, hits, window)
    return _answer(board, make_up_plan(board, time_limit), hits, REFLOWED)


def _answer(board: Board, plan: Plan, hits: list[dict], reflowed: str) -> tuple[list[dict], list[dict], list[dict[str, object]]]:
    """A plan as ``(changes, unresolved, endDatesExtended)`` (see :func:`closure_moves`)."""
    hit_of = {h["id"]: h for h in hits}
    changes = []
    for sid, day in sorted(plan.dates.items(), key=lambda kv: (board.slot_of[kv[0]].date, board.slot_of[kv[0]].start)):
        slot = board.slot_of[sid]
        group = board.groups[slot.block_group_id]
        original = hit_of.get(sid)
        if original is None:
            original = _as_hit(slot, group, board.teacher_names)
            why = reflowed
        elif sid in plan.made_up:
            why = f"Falls on {board.closed_name(slot.date)}; no room to shift, made up instead"
        else:
            why = f"Falls on {board.closed_name(slot.date)}"
        changes.append(
            change_row(
                original, slot.unit_code, why, day=day, teacher_id=original["teacherId"], teacher_name=original["teacherName"]
            )
        )
    unresolved = [
        unresolved_row(hit_of[sid], board.slot_of[sid].unit_code, why)
        for sid, why in sorted(plan.unresolved.items(), key=lambda kv: (board.slot_of[kv[0]].date, board.slot_of[kv[0]].start))
    ]
    new_last: dict = {}
    for sid, day in plan.dates.items():
        gid = board.slot_of[sid].block_group_id
        new_last[gid] = max(new_last.get(gid, day), day)
    extended: list[dict[str, object]] = []
    for gid, last in sorted(new_last.items(), key=lambda kv: board.groups[kv[0]].code):
        group = board.groups[gid]
        if group.end_date is not None and last > group.end_date:
            extended.append(
                {
                    "blockGroupId": gid,
                    "code": group.code,
                    "from": group.end_date,
                    "to": cf.add_months(max(last, _kept_last(board, gid, plan)), 1),
                }
            )
    return changes, unresolved, extended


def _keeps_weeks(board: Board, plan: Plan) -> bool:
    """No group that keeps one unit a week gets a week of two units it did not have."""
    return all(board.mixed_weeks(gid, plan.dates) <= board.mixed_weeks(gid, {}) for gid in board.new_week)


def _kept_last(board: Board, gid: object, plan: Plan) -> date:
    """The group's last teaching day among the sessions the plan does not move."""
    days = [s.date for s in board.slots if s.block_group_id == gid and s.status != cf.CANCELLED and s.id not in plan.dates]
    return max(days) if days else date.min


def _as_hit(slot: cf.Slot, group: BlockGroup, teacher_names: dict[object, str]) -> dict:
    """A session a re-flow moves, in the shape of ``replan.replan_hit_sessions`` rows."""
    return {
        "id": slot.id,
        "blockGroupId": slot.block_group_id,
        "blockGroupCode": group.code,
        "blockGroupName": group.name,
        "teacherId": slot.teacher_id,
        "teacherName": teacher_names.get(slot.teacher_id, "Unassigned") if slot.teacher_id else "Unassigned",
        "actualDate": slot.date,
        "startTime": slot.start,
        "endTime": slot.end,
        "actualHours": slot.hours,
    }
