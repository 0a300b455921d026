"""Solving an auto-allocation problem: a greedy start, then CP-SAT (allocated sessions, continuity, balance), stopped when it settles."""

from __future__ import annotations

import time as clock
from collections import defaultdict
from dataclasses import dataclass

from ortools.sat.python import cp_model

from project.timetabling import conflicts as cf
from project.timetabling.auto_allocation.model import (
    CENTI,
    DEFAULT_TIME_LIMIT,
    MAX_TIME_LIMIT,
    SETTLE_AFTER_SECONDS,
    SETTLE_SECONDS,
    Problem,
)
from project.timetabling.calendar import week_start

# ------------------------------------------------------------------------------------------- solving

# One point of preference weight (UniTime's scale: discouraged 1, strongly discouraged 4) costs as much as
# this many extra (teacher, day) pairs of spread (ADR 0027).
PREFERENCE_WEIGHT = 2


def _cliques(slots: list[cf.Slot]) -> list[list[cf.Slot]]:
    """Maximal sets of mutually overlapping slots of one day (interval graph cliques)."""
    out: list[list[cf.Slot]] = []
    by_day: dict = defaultdict(list)
    for s in slots:
        by_day[s.date].append(s)
    for items in by_day.values():
        if len(items) < 2:
            continue
        points = sorted({s.start for s in items})
        previous: set = set()
        for p in points:
            current = {s.id for s in items if s.start <= p < s.end}
            if len(current) > 1 and not current <= previous:
                out.append([s for s in items if s.id in current])
            previous = current
    return out


def _greedy(problem: Problem) -> dict:
    """A quick feasible assignment (continuity first, then the least loaded teacher): the solver's hint."""
    data = problem.data
    hours = dict(problem.existing_week_hours)
    day_hours = dict(problem.existing_day_hours)
    days = {k: set(v) for k, v in problem.existing_days.items()}
    preference = problem.preference
    booked: dict = defaultdict(list)
    chosen_for_key: dict = {}
    for g, u, t in problem.existing_keys:
        chosen_for_key.setdefault((g, u), t)
    result: dict = {}
    for s in sorted(problem.targets, key=lambda s: (s.date, s.start)):
        candidates = problem.eligible.get(s.id, [])
        if not candidates:
            continue
        pref = chosen_for_key.get((s.block_group_id, s.unit_id))

        def fits(t: object, s: cf.Slot = s) -> bool:  # called in this iteration only
            wk = (t, week_start(s.date))
            if hours.get(wk, 0.0) + s.hours > problem.week_cap(t) + 1e-9:
                return False
            day_cap, days_cap = problem.day_cap(t), problem.days_cap(t)
            if day_cap is not None and day_hours.get((t, s.date), 0.0) + s.hours > day_cap + 1e-9:
                return False
            if days_cap is not None and s.date not in days.get(wk, set()) and len(days.get(wk, set())) >= days_cap:
                return False
            return not any(
                cf.overlaps(o.start, o.end, s.start, s.end)
                and not cf.co_delivered(o.block_group_id, s.block_group_id, data.link_of)
                for o in booked[(t, s.date)]
            )

        ordered = sorted(
            candidates,
            key=lambda t: (t != pref, preference.get((s.id, t), (0, ""))[0], hours.get((t, week_start(s.date)), 0.0), str(t)),
        )
        for t in ordered:
            if fits(t):
                result[s.id] = t
                hours[(t, week_start(s.date))] = hours.get((t, week_start(s.date)), 0.0) + s.hours
                day_hours[(t, s.date)] = day_hours.get((t, s.date), 0.0) + s.hours
                days.setdefault((t, week_start(s.date)), set()).add(s.date)
                booked[(t, s.date)].append(s)
                chosen_for_key.setdefault((s.block_group_id, s.unit_id), t)
                break
    return result


@dataclass
class Solution:
    assignment: dict  # session id -> teacher id
    status: str
    solve_ms: float


def solve(problem: Problem, time_limit: float = DEFAULT_TIME_LIMIT) -> Solution:
    """The CP-SAT model of the module docstring. Pure: no database access."""
    started = clock.perf_counter()
    data = problem.data
    model = cp_model.CpModel()
    x: dict = {}
    for s in problem.targets:
        for t in problem.eligible.get(s.id, []):
            x[(s.id, t)] = model.new_bool_var("")
    if not x:
        return Solution({}, "OPTIMAL", (clock.perf_counter() - started) * 1000)

    by_session: dict = defaultdict(list)
    by_teacher: dict = defaultdict(list)
    for (sid, t), var in x.items():
        by_session[sid].append(var)
        by_teacher[t].append(sid)
    for vars_ in by_session.values():
        model.add_at_most_one(vars_)

    slot_of = {s.id: s for s in problem.targets}
    hint = _greedy(problem)
    # Auxiliary variables with the x variables they are the "any of" of, so the hint can be complete:
    # CP-SAT takes a complete, feasible hint as its first solution at once; with the auxiliaries left
    # out it searched from scratch and, on a loaded machine, had not allocated every session by the time
    # limit (continuity then fell back to the greedy start's 5-8%, ADR 0013).
    any_of: list[tuple] = []

    # No teacher in two overlapping sessions (co-delivered sessions of a linked group may share one).
    for clique in _cliques([s for s in problem.targets if problem.eligible.get(s.id)]):
        teachers = set()
        for s in clique:
            teachers.update(problem.eligible[s.id])
        for t in teachers:
            parts: dict = defaultdict(list)
            for s in clique:
                if (s.id, t) in x:
                    link = data.link_of.get(s.block_group_id)
                    parts[("link", link) if link is not None else ("solo", s.id)].append(x[(s.id, t)])
            if sum(len(p) for p in parts.values()) < 2:
                continue
            terms = []
            for p in parts.values():
                if len(p) == 1:
                    terms.append(p[0])
                else:
                    u = model.new_bool_var("")
                    for v in p:
                        model.add_implication(v, u)
                    terms.append(u)
                    any_of.append((u, p))
            model.add_at_most_one(terms)

    # Weekly capacity, and the highest utilisation (percent) for the balance goal.
    week_vars: dict = defaultdict(list)
    for (sid, t), var in x.items():
        s = slot_of[sid]
        week_vars[(t, week_start(s.date))].append((var, int(round(s.hours * CENTI))))
    peak = model.new_int_var(0, 1000, "peak")
    hinted_x = {var: hint.get(sid) == t for (sid, t), var in x.items()}
    peak_hint = 0
    for (t, monday), items in week_vars.items():
        existing = int(round(problem.existing_week_hours.get((t, monday), 0.0) * CENTI))
        cap = int(round(problem.week_cap(t) * CENTI))
        load = sum(c * v for v, c in items)
        model.add(load + existing <= cap)
        # peak * cap >= 100 * (existing + load)
        model.add(peak * cap >= 100 * (existing + load))
        if cap > 0:
            hinted_load = existing + sum(c for v, c in items if hinted_x[v])
            peak_hint = max(peak_hint, -((-100 * hinted_load) // cap))

    # Continuity: distinct teachers per (block group, unit).
    z_terms = []
    key_teachers: dict = defaultdict(lambda: defaultdict(list))
    for (sid, t), var in x.items():
        s = slot_of[sid]
        key_teachers[(s.block_group_id, s.unit_id)][t].append(var)
    for (g, u), teachers in key_teachers.items():
        for t, vars_ in teachers.items():
            if (g, u, t) in problem.existing_keys:
                continue  # already teaches this unit to this group: free
            z = model.new_bool_var("")
            for v in vars_:
                model.add_implication(v, z)
            z_terms.append(z)
            any_of.append((z, vars_))

    # Spread: (teacher, day) pairs used.
    day_vars: dict = defaultdict(list)
    day_loads: dict = defaultdict(list)
    for (sid, t), var in x.items():
        day_vars[(t, slot_of[sid].date)].append(var)
        day_loads[(t, slot_of[sid].date)].append((var, int(round(slot_of[sid].hours * CENTI))))
    w_terms = []
    w_of: dict = {}
    for key, vars_ in day_vars.items():
        w = model.new_bool_var("")
        for v in vars_:
            model.add_implication(v, w)
        w_terms.append(w)
        w_of[key] = w
        any_of.append((w, vars_))

    # The availability limits (ADR 0027): hours a day, and days a week (a day counts once any session
    # of it is the teacher's: the spread variable of that (teacher, day)).
    week_days: dict = defaultdict(list)
    for (t, day), w in w_of.items():
        day_cap = problem.day_cap(t)
        if day_cap is not None:
            existing = int(round(problem.existing_day_hours.get((t, day), 0.0) * CENTI))
            model.add(sum(c * v for v, c in day_loads[(t, day)]) + existing <= int(round(day_cap * CENTI)))
        if problem.days_cap(t) is not None:
            week_days[(t, week_start(day))].append((day, w))
    for (t, monday), items in week_days.items():
        taught = problem.existing_days.get((t, monday), set())
        new_days = [w for day, w in items if day not in taught]
        if new_days:  # a week already at (or over) its days keeps to the days it has
            model.add(sum(new_days) <= max(0, int(problem.days_cap(t) or 0) - len(taught)))

    # Preferences (ADR 0027): each assignment's weight on UniTime's scale, shifted so that the session's
    # most wanted teacher costs 0; weighed with spread in the last goal (a point of preference = 2 days).
    pref_terms: list = []
    pref_range = 0
    for s in problem.targets:
        options = [(problem.preference.get((s.id, t), (0, ""))[0], x[(s.id, t)]) for t in problem.eligible.get(s.id, [])]
        if not options:
            continue
        low = min(w for w, _v in options)
        high = max(w for w, _v in options)
        pref_range += high - low
        pref_terms.extend((w - low) * v for w, v in options if w != low)

    w3 = 1
    w2 = PREFERENCE_WEIGHT * pref_range + len(w_terms) + 1
    w1 = w2 * 1001 + 1
    big = w1 * (len(z_terms) + 1)
    model.maximize(
        big * sum(x.values()) - w1 * sum(z_terms) - w2 * peak - w3 * (PREFERENCE_WEIGHT * sum(pref_terms) + sum(w_terms))
    )

    for var, on in hinted_x.items():
        model.add_hint(var, 1 if on else 0)
    for aux, vars_ in any_of:
        model.add_hint(aux, 1 if any(hinted_x[v] for v in vars_) else 0)
    model.add_hint(peak, min(1000, peak_hint))

    solver = cp_model.CpSolver()
    # The limit covers building the model too: the solver gets what is left of it.
    remaining = min(float(time_limit), MAX_TIME_LIMIT) - (clock.perf_counter() - started)
    solver.parameters.max_time_in_seconds = max(0.5, remaining)
    solver.parameters.num_search_workers = 2
    settle = _Settle(solver, big, w1)
    status = settle.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        # The greedy hint satisfies every constraint, so this only happens on a timeout before search.
        return Solution(hint, "FEASIBLE", (clock.perf_counter() - started) * 1000)
    assignment = {sid: t for (sid, t), var in x.items() if solver.value(var)}
    name = "OPTIMAL" if status == cp_model.OPTIMAL else "FEASIBLE"
    if status != cp_model.OPTIMAL and _rank(problem, hint) > _rank(problem, assignment):
        # Cut short (a busy machine), the search may not have reached the greedy start: keep the better.
        assignment = hint
    return Solution(assignment, name, (clock.perf_counter() - started) * 1000)


class _Settle(cp_model.CpSolverSolutionCallback):
    """Stops the search when sessions allocated and continuity have not improved for SETTLE_SECONDS.

    The objective is ``big * allocated - w1 * new_pairs - (less than w1)``, so each solution's first two
    goals are read back from its objective value. A watcher thread calls ``StopSearch`` (thread-safe in
    CP-SAT) when the quiet window has passed; solutions alone cannot, as none may come."""

    def __init__(self, solver: cp_model.CpSolver, big: int, w1: int) -> None:
        super().__init__()
        self.solver, self.big, self.w1 = solver, big, w1
        self.best: tuple | None = None
        self.last_gain = clock.perf_counter()

    def on_solution_callback(self) -> None:
        objective = int(round(self.objective_value))
        allocated = -((-objective) // self.big)  # ceil: the rest is below big
        new_pairs = (self.big * allocated - objective) // self.w1
        key = (allocated, -new_pairs)
        if self.best is None or key > self.best:
            self.best = key
            self.last_gain = clock.perf_counter()

    def solve(self, model: cp_model.CpModel) -> cp_model.CpSolverStatus:
        import threading

        done = threading.Event()
        began = clock.perf_counter()

        def watch() -> None:
            while not done.wait(0.1):
                now = clock.perf_counter()
                if now - began >= SETTLE_AFTER_SECONDS and now - self.last_gain >= SETTLE_SECONDS:
                    self.solver.StopSearch()
                    return

        watcher = threading.Thread(target=watch, name="allocation-settle", daemon=True)
        watcher.start()
        try:
            return self.solver.solve(model, self)
        finally:
            done.set()
            watcher.join()


def _rank(problem: Problem, assignment: dict) -> tuple:
    """The first two goals of the objective, larger is better: sessions allocated, then continuity
    (fewer teachers new to a (block group, unit))."""
    slot_of = {s.id: s for s in problem.targets}
    pairs = {(slot_of[sid].block_group_id, slot_of[sid].unit_id, t) for sid, t in assignment.items()} - problem.existing_keys
    return (len(assignment), -len(pairs))
