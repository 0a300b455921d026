"""The make-up option of a closure's moves (ADR 0015): only the hit sessions move, each to its
nearest free slot; nothing else changes.

A slot is a date with the session's own start and end time (its hours, teacher and room kept) that is
not closed nor a holiday, on which the group, the teacher and the room are free at that time and the
teacher is not on leave, within the group's end date plus ``SEARCH_MONTHS`` (the dates the proposal
read). The order of preference (:func:`candidates`): the hit session's own week on the group's preferred
days, then on any other weekday (Monday to Friday) of that week, nearest first (the later day on a tie);
then the later weeks, each on its preferred days first. A group generated with "start the next unit in
a new week" keeps it: a session never goes into a week that holds another unit's sessions.

Complete, not greedy-first: the hit sessions take their first free candidate in date order; when that
leaves one without a slot, again with the most constrained first; when that does too, CP-SAT assigns every hit session one of all its candidates (or none) with the
fewest unresolved first and the least preference rank then, so a session is unresolved only when every
slot it could take is taken by another hit session's make-up or none exists at all (the repair weighs
each session's first ``MODEL_CANDIDATES`` slots within ``MAKE_UP_SECONDS``).
"""

from __future__ import annotations

from datetime import date, timedelta

from ortools.sat.python import cp_model

from project.timetabling import conflicts as cf
from project.timetabling.calendar import week_start
from project.timetabling.replan.board import Board, Bookings, Plan

WEEKDAYS = frozenset({1, 2, 3, 4, 5})
MAKE_UP_SECONDS = 0.5  # the repair's budget; the shift's model has its own (``MOVE_SECONDS``)
MODEL_CANDIDATES = 40  # free slots per session the repair considers, best first


def candidates(board: Board, slot: cf.Slot) -> list[date]:
    """Every date ``slot`` could be made up on against the sessions that do not move, best first (module
    docstring); the bookings are checked by the caller."""
    preferred = board.preferred(slot)
    allowed = set(preferred) | WEEKDAYS
    own = week_start(slot.date)
    limit = board.end_limit(slot)
    out = []
    day = own
    while day <= limit:
        if day != slot.date and board.open_day(day, slot, allowed) and board.week_allows(slot, day):
            out.append(day)
        day += timedelta(days=1)

    def rank(d: date) -> tuple:
        if week_start(d) == own:
            return (0, d.isoweekday() not in preferred, abs((d - slot.date).days), d < slot.date)
        return (1, week_start(d), d.isoweekday() not in preferred, d)

    return sorted(out, key=rank)


def no_slot(board: Board, slot: cf.Slot) -> str:
    return (
        f"No free slot for a make-up class: the group, its teacher or its room is busy at "
        f"{slot.start.strftime('%H:%M')} on every open weekday until {board.end_limit(slot).isoformat()}"
    )


def make_up_plan(board: Board, time_limit: float = MAKE_UP_SECONDS) -> Plan:
    """The make-up plan of the module docstring; ``time_limit``: the repair's budget in seconds."""
    bookings = board.bookings()
    order = sorted(board.hits, key=lambda h: (h["actualDate"], h["startTime"], h["blockGroupCode"]))
    options = {
        h["id"]: [d for d in candidates(board, board.slot_of[h["id"]]) if bookings.free(board.slot_of[h["id"]], d)] for h in order
    }
    plan = _greedy(board, order, options)
    if plan.unresolved and any(options[sid] for sid in plan.unresolved):
        # The most constrained first (fewest free slots), then in date order: usually places every one.
        tight = sorted(order, key=lambda h: len(options[h["id"]]))
        second = _greedy(board, tight, options)
        if len(second.unresolved) < len(plan.unresolved):
            plan = second
    if not plan.unresolved or not any(options[sid] for sid in plan.unresolved):
        return plan
    better = _solved(board, {sid: days[:MODEL_CANDIDATES] for sid, days in options.items()}, plan, time_limit)
    return better if better is not None and len(better.unresolved) < len(plan.unresolved) else plan


def _greedy(board: Board, order: list[dict], options: dict) -> Plan:
    """Each hit session of ``order`` takes its first candidate still free."""
    bookings = board.bookings()
    plan = Plan()
    placed_weeks: dict = {}  # (group, week) -> units a make-up put there (one unit a week)
    for h in order:
        slot = board.slot_of[h["id"]]
        for d in options[h["id"]]:
            key = (slot.block_group_id, week_start(d))
            if bookings.free(slot, d) and (
                slot.block_group_id not in board.new_week or placed_weeks.get(key, {slot.unit_id}) == {slot.unit_id}
            ):
                bookings.book(slot, d)
                plan.dates[slot.id] = d
                placed_weeks.setdefault(key, set()).add(slot.unit_id)
                break
        else:
            plan.unresolved[slot.id] = no_slot(board, slot)
    return plan


def _solved(board: Board, options: dict, greedy: Plan, time_limit: float) -> Plan | None:
    """CP-SAT over the hit sessions' first ``MODEL_CANDIDATES`` free slots, hinted with the greedy plan:
    fewest unresolved, then least rank (module docstring)."""
    from collections import defaultdict

    from project.timetabling.replan.model import _cliques

    fixed = Bookings([], set(), board.data.online_rooms)
    model = cp_model.CpModel()
    x: dict = {}
    none: dict = {}
    per_resource: dict = defaultdict(list)
    per_week: dict = defaultdict(list)  # (group, week) -> [(unit, var)] of groups that keep one unit a week
    for sid, days in options.items():
        slot = board.slot_of[sid]
        none[sid] = model.new_bool_var("")
        for d in days:
            var = x[(sid, d)] = model.new_bool_var("")
            for key in fixed.keys(slot):
                per_resource[(*key, d)].append((slot.start, slot.end, var))
            if slot.block_group_id in board.new_week:
                per_week[(slot.block_group_id, week_start(d))].append((slot.unit_id, var))
        model.add_exactly_one([none[sid], *(x[(sid, d)] for d in days)])
    for opts in per_resource.values():
        if len(opts) > 1:
            for clique in _cliques(opts):
                model.add_at_most_one(clique)
    for entries in per_week.values():
        for unit_a, a in entries:
            for unit_b, b in entries:
                if unit_a != unit_b:
                    model.add_bool_or([a.Not(), b.Not()])
    for (sid, d), var in x.items():
        model.add_hint(var, 1 if greedy.dates.get(sid) == d else 0)
    for sid, var in none.items():
        model.add_hint(var, 1 if sid in greedy.unresolved or greedy.dates.get(sid) not in options[sid] else 0)
    cost = sum(rank * x[(sid, d)] for sid, days in options.items() for rank, d in enumerate(days))
    big = 1 + sum(len(days) for days in options.values()) ** 2
    model.minimize(big * sum(none.values()) + cost)
    solver = cp_model.CpSolver()
    solver.parameters.num_search_workers = 2
    solver.parameters.max_time_in_seconds = time_limit
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    plan = Plan()
    for (sid, d), var in x.items():
        if solver.value(var):
            plan.dates[sid] = d
    for sid, var in none.items():
        if solver.value(var):
            plan.unresolved[sid] = no_slot(board, board.slot_of[sid])
    return plan


def make_up_rest(board: Board, plan: Plan) -> Plan:
    """``plan`` (the shift's) with each hit session it leaves unresolved made up on its first free slot
    (:func:`candidates`) around the sessions the plan moves, so that the shift, too, gives up on a session
    only when no slot exists. Changes ``plan`` and answers it; the sessions made up are in ``made_up``."""
    if not plan.unresolved:
        return plan
    bookings = board.bookings()  # every session but the hit ones, where they are
    for sid, day in plan.dates.items():
        slot = board.slot_of[sid]
        if sid not in board.hit_ids:
            bookings.book(slot, slot.date, add=False)  # a re-flowed session leaves its date
        bookings.book(slot, day)
    weeks = dict(board.week_units)
    for sid, day in plan.dates.items():
        slot = board.slot_of[sid]
        if slot.block_group_id in board.new_week:
            weeks.setdefault((slot.block_group_id, week_start(day)), set()).add(slot.unit_id)
    for sid in sorted(plan.unresolved, key=lambda i: (board.slot_of[i].date, board.slot_of[i].start)):
        slot = board.slot_of[sid]
        for d in candidates(board, slot):
            key = (slot.block_group_id, week_start(d))
            if bookings.free(slot, d) and (slot.block_group_id not in board.new_week or weeks.get(key, set()) <= {slot.unit_id}):
                bookings.book(slot, d)
                weeks.setdefault(key, set()).add(slot.unit_id)
                plan.dates[sid] = d
                plan.made_up.add(sid)
                del plan.unresolved[sid]
                break
    return plan
