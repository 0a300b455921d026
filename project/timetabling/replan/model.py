"""The CP-SAT step of a closure's moves (see the package): the hit sessions and some later sessions of
their groups moved together, hinted with the greedy plan."""

from __future__ import annotations

import time as clock
from collections import defaultdict
from datetime import date, timedelta

from ortools.sat.python import cp_model

from project.timetabling import conflicts as cf
from project.timetabling.replan.board import Board, Bookings, Plan

LANE = 8  # later sessions of a hit session's group and time the model may shift to make room
CANDIDATES = 12  # free dates considered per movable session


def movable_sessions(board: Board) -> list[cf.Slot]:
    """The hit sessions and, for each, the next ``LANE`` sessions of its group at the same time."""
    lanes: dict = defaultdict(list)
    for s in board.slots:
        if s.status != cf.CANCELLED and s.block_group_id in board.groups:
            lanes[(s.block_group_id, s.start, s.end)].append(s)
    chosen: dict = {}
    for sid in board.hit_ids:
        hit = board.slot_of[sid]
        chosen[hit.id] = hit
        lane = sorted(
            (s for s in lanes[(hit.block_group_id, hit.start, hit.end)] if s.date > hit.date and s.id not in board.hit_ids),
            key=lambda s: s.date,
        )
        for s in lane[:LANE]:
            chosen[s.id] = s
    return sorted(chosen.values(), key=lambda s: (s.date, s.start))


def _cliques(options: list[tuple]) -> list[list]:
    """Options ``(start, end, var)`` of one resource and date: the groups of mutually overlapping ones
    (one per distinct start: the options running at that instant), each of two or more."""
    out = []
    for start in sorted({o[0] for o in options}):
        running = [v for a, b, v in options if a <= start < b]
        if len(running) > 1:
            out.append(running)
    return out


def optimised_plan(board: Board, greedy: Plan, time_limit: float) -> Plan | None:
    """The CP-SAT model of the package docstring, hinted with ``greedy``; None when it finds no plan."""
    started = clock.perf_counter()
    movable = movable_sessions(board)
    moving = {s.id for s in movable}
    fixed = Bookings(board.slots, moving, board.data.online_rooms)
    base = min(s.date for s in movable).toordinal()
    model = cp_model.CpModel()
    x: dict = {}  # (session id, date) -> var; a kept date is an option of the sessions not hit
    unresolved: dict = {}  # hit session id -> var
    date_expr: dict = {}  # session id -> linear expression of its day (offset from base)
    # Order: no session on or past a session of a unit of its group that started after it. Against the
    # sessions that stay, that is a last date (``bound``); among those that may move, a constraint below.
    kept_first: dict = defaultdict(dict)  # group -> unit -> first date of its sessions that stay
    for s in board.slots:
        if s.status != cf.CANCELLED and s.block_group_id in board.groups and s.id not in moving:
            units = kept_first[s.block_group_id]
            units[s.unit_id] = min(units.get(s.unit_id, s.date), s.date)

    def bound(s: cf.Slot) -> date:
        limit = board.end_limit(s)
        gid = s.block_group_id
        for unit_id, first in kept_first[gid].items():
            if unit_id != s.unit_id and board.units_first.get((gid, unit_id), first) > s.date:
                limit = min(limit, first - timedelta(days=1))
        return limit

    max_delay = 1
    top: dict = {}  # group -> latest option (offset)
    for s in movable:
        options: list = []
        limit = bound(s)
        hinted = greedy.dates.get(s.id)
        day = s.date + timedelta(days=1)
        while day <= limit and len(options) < CANDIDATES:
            if board.open_day(day, s) and fixed.free(s, day):
                options.append(day)
            day += timedelta(days=1)
        if (
            hinted is not None
            and hinted not in options
            and hinted <= limit
            and board.open_day(hinted, s)
            and fixed.free(s, hinted)
        ):
            options.append(hinted)
        for day in options:
            x[(s.id, day)] = model.new_bool_var("")
        if options:
            max_delay += (max(options) - s.date).days
            top[s.block_group_id] = max(top.get(s.block_group_id, 0), max(options).toordinal() - base)
        if s.id in board.hit_ids:
            unresolved[s.id] = model.new_bool_var("")
            rest = unresolved[s.id]
        else:
            x[(s.id, s.date)] = model.new_bool_var("")
            rest = x[(s.id, s.date)]
        choices = [x[(s.id, d)] for d in options] + [rest]
        model.add_exactly_one(choices)
        date_expr[s.id] = sum((d.toordinal() - base) * x[(s.id, d)] for d in options) + (s.date.toordinal() - base) * rest

    # No group, teacher or room twice at overlapping times on a date. Sessions that keep their dates may
    # already share one (a clash the re-plan did not make and does not judge): only a move is limited.
    per_resource: dict = defaultdict(list)
    kept = set()
    for (sid, day), var in x.items():
        s = board.slot_of[sid]
        if day == s.date:
            kept.add(var.Index())
        for key in fixed.keys(s):
            per_resource[(*key, day)].append((s.start, s.end, var))
    for options in per_resource.values():
        if len(options) > 1:
            for clique in _cliques(options):
                stays = [v for v in clique if v.Index() in kept]
                moves = [v for v in clique if v.Index() not in kept]
                if len(stays) <= 1:
                    model.add_at_most_one(clique)
                elif moves:
                    for v in stays:
                        model.add_at_most_one([*moves, v])

    # Unit order among the sessions that may move.
    by_group: dict = defaultdict(list)
    for s in movable:
        by_group[s.block_group_id].append(s)
    for gid, sessions in by_group.items():
        for a in sessions:
            for b in sessions:
                if a.unit_id != b.unit_id and board.units_first.get((gid, b.unit_id), b.date) > a.date:
                    model.add(date_expr[a.id] < date_expr[b.id])

    # Objective: unresolved, moved, added length, delay (package docstring).
    moved_terms = [1 - v for (sid, day), v in x.items() if day == board.slot_of[sid].date and sid not in board.hit_ids]
    moved_terms += [1 - v for v in unresolved.values()]
    delay_terms = []
    for (sid, day), var in x.items():
        shift = (day - board.slot_of[sid].date).days
        if shift:
            delay_terms.append(shift * var)
    added_terms = []
    last_vars: dict = {}
    for gid, sessions in by_group.items():
        floor = board.last_day.get(gid, max(s.date for s in sessions)).toordinal() - base
        last = model.new_int_var(floor, max(floor, top.get(gid, floor)), "")
        for s in sessions:
            model.add(last >= date_expr[s.id])
        last_vars[gid] = (last, floor)
        added_terms.append(last - floor)
    # Two solves rather than one weighted sum, which would need weights past the doubles' exact range:
    # first the fewest unresolved, then the fewest moved; then, with that kept, added length and delay.
    first = (len(movable) + 1) * sum(unresolved.values()) + sum(moved_terms)
    second = max_delay * sum(added_terms) + sum(delay_terms)
    variables = [*x.values(), *unresolved.values(), *(last for last, _floor in last_vars.values())]

    # Hint: the current timetable changed by the greedy plan.
    for (sid, day), var in x.items():
        model.add_hint(var, 1 if greedy.dates.get(sid, board.slot_of[sid].date) == day and sid not in greedy.unresolved else 0)
    for sid, var in unresolved.items():
        model.add_hint(var, 1 if sid in greedy.unresolved or (sid, greedy.dates.get(sid)) not in x else 0)
    for gid, (last, floor) in last_vars.items():
        days = [greedy.dates[s.id].toordinal() - base for s in by_group[gid] if s.id in greedy.dates]
        model.add_hint(last, max([floor] + days))

    deadline = started + time_limit
    solver = cp_model.CpSolver()
    solver.parameters.num_search_workers = 2
    model.minimize(first)
    solver.parameters.max_time_in_seconds = max(0.3, (deadline - clock.perf_counter()) * 0.6)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    values = {v.Index(): solver.value(v) for v in variables}
    model.clear_hints()
    for v in variables:
        model.add_hint(v, values[v.Index()])
    model.add(first <= int(round(solver.objective_value)))
    model.minimize(second)
    solver.parameters.max_time_in_seconds = max(0.3, deadline - clock.perf_counter())
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        values = {v.Index(): solver.value(v) for v in variables}
    plan = Plan()
    for (sid, day), var in x.items():
        if values[var.Index()] and day != board.slot_of[sid].date:
            plan.dates[sid] = day
    for sid, var in unresolved.items():
        if values[var.Index()]:
            plan.unresolved[sid] = greedy.unresolved.get(sid) or board.no_slot(board.slot_of[sid])
    return plan
