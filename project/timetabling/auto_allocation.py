"""Automatic teacher allocation with OR-Tools CP-SAT, and ranked recommendations (issue 10).

``propose(ctx, scope, time_limit)`` assigns teachers to the unassigned, non-cancelled sessions of a
scope (session ids, a block group, or a date range) and answers a proposal; ``apply_proposal`` writes
one all-or-nothing; ``recommend(ctx, session_id)`` ranks every teacher of the organization for one
session with the rules met or broken.

Hard rules (a proposal never breaks one; checked independently by ``conflicts.detect`` in the tests):

- the teacher holds a qualification for the session's unit;
- the teacher is active, and within contract (a fixed-term teacher's ``expiryDate`` is on or after
  the session date);
- the teacher is not on leave at the session's time (issue 17, ``teacher_on_leave``);
- the teacher is available (a day-only teacher takes no evening session, an evening-only teacher no
  day session; evening = starts at or after 17:00 or ends after 17:00, ``conflicts.is_evening``);
- the teacher is never in two overlapping sessions, existing ones included, unless both sessions'
  block groups are in one linked group (co-delivered);
- the teacher's hours in every week (Monday to Sunday) stay within ``maxWeeklyHours`` (each session's
  ``actualHours`` counts; co-delivered sessions are not merged, which can only under-fill a week).

Soft goals, in priority order (weights make the order strict):

1. allocate as many sessions as possible;
2. continuity: one teacher for all sessions of a unit in a block group (a teacher who already teaches
   that unit to that group costs nothing);
3. balance: the lowest highest weekly utilisation (percent of ``maxWeeklyHours``);
4. the least spread: the fewest (teacher, day) pairs, so a teacher's classes sit on fewer days.

The solve has a time limit (default 8 s, at most 30 s) and stops before it when it is done (issue 15):
at optimality, or when allocation and continuity have not improved for
``SETTLE_SECONDS`` (3 s) once the search has run ``SETTLE_AFTER_SECONDS`` (2 s). The best solution found
is returned with the solver status (OPTIMAL or FEASIBLE). A greedy pass seeds the solver with a hint so a
feasible answer exists from the start.

Staleness: a proposal carries ``version``, a digest of the sessions of the organization in the
scope's weeks (ids, teachers, update times) and of the teachers and qualifications. Applying a
proposal whose version no longer matches raises ``StaleWrite`` (412) and writes nothing.
"""

from __future__ import annotations

import hashlib
import time as clock
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db import transaction
from django.db.models import Count, Max, Min, Q
from django.utils import timezone
from ortools.sat.python import cp_model

from project.core.errors import BadRequest, NotFound, StaleWrite, ValidationFailed
from project.core.tenancy import Ctx, get_in_org
from project.staff.models import Teacher, TeacherUnit
from project.timetabling import conflicts as cf
from project.timetabling.calendar import week_start
from project.timetabling.models import TimetableSession
from realtime.events import emit_change

DEFAULT_TIME_LIMIT = 8.0
MAX_TIME_LIMIT = 30.0
# The search stops when the first two goals (sessions allocated, continuity) have not improved for this
# long, once it has run SETTLE_AFTER_SECONDS (bench/allocation_bench.py, docs/benchmarks.md: the later
# gains are balance and spread refinements, or a rare continuity point at a doubled wait).
SETTLE_SECONDS = 3.0
SETTLE_AFTER_SECONDS = 2.0
MAX_RANGE_DAYS = 400
CENTI = 100  # hours are modelled in hundredths


@dataclass
class Scope:
    """Which sessions to allocate: explicit ids, a block group, and/or a date range (inclusive)."""

    session_ids: list | None = None
    block_group_id: object | None = None
    start: date | None = None
    end: date | None = None

    def validate(self) -> None:
        if not self.session_ids and self.block_group_id is None and not (self.start and self.end):
            raise ValidationFailed.field("scope", "Choose sessions, a block group, or a start and end date")
        if (self.start is None) != (self.end is None):
            raise ValidationFailed.field("end" if self.end is None else "start", "Both start and end dates are needed")
        if self.start and self.end:
            if self.end < self.start:
                raise ValidationFailed.field("end", "End date must be on or after start date")
            if (self.end - self.start).days > MAX_RANGE_DAYS:
                raise ValidationFailed.field("end", f"A date range covers at most {MAX_RANGE_DAYS} days")


@dataclass
class Problem:
    """Everything the solver and the figures need, loaded in a fixed number of queries."""

    targets: list[cf.Slot]
    others: list[cf.Slot]  # every other session of the organization in the scope's weeks
    data: cf.ConflictData
    lo: date
    hi: date
    eligible: dict = field(default_factory=dict)  # session id -> [teacher id]
    reasons: dict = field(default_factory=dict)  # session id -> why nobody is eligible
    existing_week_hours: dict = field(default_factory=dict)  # (teacher id, monday) -> hours
    existing_keys: set = field(default_factory=set)  # {(group id, unit id, teacher id)} already taught


# ------------------------------------------------------------------------------------------ loading


def _target_queryset(ctx: Ctx, scope: Scope):
    qs = TimetableSession.objects.for_org(ctx.org).filter(teacher__isnull=True).exclude(status=TimetableSession.Status.CANCELLED)
    if scope.session_ids:
        qs = qs.filter(id__in=scope.session_ids)
    if scope.block_group_id is not None:
        from project.planning.models import BlockGroup

        # A foreign or unknown block group is a 404 like every other id (issue 14), not an empty scope.
        get_in_org(BlockGroup, ctx.org, scope.block_group_id, "Block group")
        qs = qs.filter(block_group_id=scope.block_group_id)
    if scope.start and scope.end:
        qs = qs.filter(actual_date__gte=scope.start, actual_date__lte=scope.end)
    return qs


def _version(ctx: Ctx, lo: date, hi: date, target_ids: list) -> str:
    """Digest of what a proposal depends on (3 queries)."""
    sessions = (
        TimetableSession.objects.for_org(ctx.org)
        .filter(actual_date__gte=lo, actual_date__lte=hi)
        .aggregate(n=Count("id"), last=Max("updated_at"), assigned=Count("teacher_id"))
    )
    teachers = Teacher.objects.for_org(ctx.org).aggregate(n=Count("id"), last=Max("updated_at"))
    quals = TeacherUnit.objects.for_org(ctx.org).aggregate(n=Count("id"), last=Max("updated_at"))
    text = "|".join(
        [
            lo.isoformat(),
            hi.isoformat(),
            ",".join(sorted(str(i) for i in target_ids)),
            str(sessions),
            str(teachers),
            str(quals),
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def load_problem(ctx: Ctx, scope: Scope) -> Problem:
    """Targets, the other sessions of their weeks, teachers and qualifications (about 6 queries)."""
    scope.validate()
    target_ids = list(_target_queryset(ctx, scope).values_list("id", flat=True)[:20000])
    if scope.session_ids:
        known = set(TimetableSession.objects.for_org(ctx.org).filter(id__in=scope.session_ids).values_list("id", flat=True))
        missing = [str(i) for i in scope.session_ids if i not in known]
        if missing:
            raise NotFound("Timetable session not found")
    return _problem_of(ctx, target_ids)


def reallocation_problem(ctx: Ctx, session_ids: list, extra_leave: dict | None = None) -> Problem:
    """The problem of giving other teachers to sessions that have one (re-planning around a teacher's
    leave, issue 17): the sessions become targets without their teacher; the rest is as in
    :func:`load_problem` (the teacher on leave is not eligible where the leave covers a session).
    ``extra_leave`` ``{teacher id: [LeaveSpan]}``: leave not saved yet (a proposed change)."""
    return _problem_of(ctx, list(session_ids), clear_teachers=True, extra_leave=extra_leave)


def _problem_of(ctx: Ctx, target_ids: list, clear_teachers: bool = False, extra_leave: dict | None = None) -> Problem:
    if not target_ids:
        return Problem([], [], cf.ConflictData(), date.today(), date.today())
    dates = (
        TimetableSession.objects.for_org(ctx.org)
        .filter(id__in=target_ids)
        .aggregate(lo=Min("actual_date"), hi=Max("actual_date"))
    )
    lo, hi = week_start(dates["lo"]), week_start(dates["hi"]) + timedelta(days=6)
    slots = cf.load_slots(ctx.org, lo, hi)
    ids = set(target_ids)
    targets = [s for s in slots if s.id in ids]
    if clear_teachers:
        for s in targets:
            s.teacher_id = None
    others = [s for s in slots if s.id not in ids]
    data = cf.load_data(ctx.org, lo, hi, None)
    for teacher_id, spans in (extra_leave or {}).items():
        data.leave.setdefault(teacher_id, []).extend(spans)
    problem = Problem(targets=targets, others=others, data=data, lo=lo, hi=hi)
    _existing_keys(ctx, problem)
    _eligibility(problem)
    return problem


def _existing_keys(ctx: Ctx, problem: Problem) -> None:
    """Which teachers already teach each (block group, unit) of the targets, at any date (1 query)."""
    groups = {s.block_group_id for s in problem.targets}
    units = {s.unit_id for s in problem.targets}
    rows = (
        TimetableSession.objects.for_org(ctx.org)
        .filter(block_group_id__in=groups, unit_id__in=units, teacher__isnull=False)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .values_list("block_group_id", "unit_id", "teacher_id")
        .distinct()
    )
    problem.existing_keys = set(rows)


def _available(t: cf.TeacherFacts, s: cf.Slot) -> bool:
    evening = cf.is_evening(s.start, s.end)
    return not ((t.availability == "day" and evening) or (t.availability == "evening" and not evening))


def _in_contract(t: cf.TeacherFacts, day: date) -> bool:
    return not (t.employment_type == "fixed_term" and t.expiry_date is not None and day > t.expiry_date)


def _eligibility(problem: Problem) -> None:
    """Per target: the teachers who meet every per-session hard rule, or the reason nobody does."""
    data = problem.data
    busy: dict = defaultdict(list)  # (teacher, date) -> existing slots
    for s in problem.others:
        if s.teacher_id is None or s.status == cf.CANCELLED:
            continue
        busy[(s.teacher_id, s.date)].append(s)
        key = (s.teacher_id, week_start(s.date))
        problem.existing_week_hours[key] = problem.existing_week_hours.get(key, 0.0) + s.hours
    by_unit: dict = defaultdict(list)
    for teacher_id, unit_id in data.qualified:
        by_unit[unit_id].append(teacher_id)
    for s in problem.targets:
        qualified = [data.teachers[t] for t in by_unit.get(s.unit_id, []) if t in data.teachers]
        stage = [t for t in qualified if t.is_active and _in_contract(t, s.date)]
        present = [t for t in stage if data.leave_of(t.id, s) is None]
        available = [t for t in present if _available(t, s)]
        free = [
            t
            for t in available
            if not any(
                cf.overlaps(o.start, o.end, s.start, s.end)
                and not cf.co_delivered(o.block_group_id, s.block_group_id, data.link_of)
                for o in busy.get((t.id, s.date), [])
            )
        ]
        roomy = [
            t
            for t in free
            if problem.existing_week_hours.get((t.id, week_start(s.date)), 0.0) + s.hours <= t.max_weekly_hours + 1e-9
        ]
        problem.eligible[s.id] = sorted((t.id for t in roomy), key=str)
        if not qualified:
            problem.reasons[s.id] = f"No teacher holds a qualification for unit {s.unit_code}"
        elif not stage:
            problem.reasons[s.id] = f"Every teacher qualified for {s.unit_code} is inactive or past their contract end"
        elif not present:
            problem.reasons[s.id] = f"Every teacher qualified for {s.unit_code} is on leave on {s.date.isoformat()}"
        elif not available:
            kind = "evening" if cf.is_evening(s.start, s.end) else "day"
            problem.reasons[s.id] = f"No teacher qualified for {s.unit_code} is available for {kind} sessions"
        elif not free:
            problem.reasons[s.id] = f"Every teacher qualified for {s.unit_code} is already teaching at this time"
        elif not roomy:
            problem.reasons[s.id] = f"Every teacher qualified for {s.unit_code} would exceed their maximum weekly hours"


# ------------------------------------------------------------------------------------------- solving


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

        def fits(t, s=s) -> bool:  # called in this iteration only
            facts = data.teachers[t]
            wk = (t, week_start(s.date))
            if hours.get(wk, 0.0) + s.hours > facts.max_weekly_hours + 1e-9:
                return False
            return not any(
                cf.overlaps(o.start, o.end, s.start, s.end)
                and not cf.co_delivered(o.block_group_id, s.block_group_id, data.link_of)
                for o in booked[(t, s.date)]
            )

        ordered = sorted(candidates, key=lambda t: (t != pref, hours.get((t, week_start(s.date)), 0.0), str(t)))
        for t in ordered:
            if fits(t):
                result[s.id] = t
                hours[(t, week_start(s.date))] = hours.get((t, week_start(s.date)), 0.0) + s.hours
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
    # limit (continuity then fell back to the greedy start's 5-8%, issue 15).
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
        facts = data.teachers[t]
        existing = int(round(problem.existing_week_hours.get((t, monday), 0.0) * CENTI))
        cap = facts.max_weekly_hours * CENTI
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
    for (sid, t), var in x.items():
        day_vars[(t, slot_of[sid].date)].append(var)
    w_terms = []
    for vars_ in day_vars.values():
        w = model.new_bool_var("")
        for v in vars_:
            model.add_implication(v, w)
        w_terms.append(w)
        any_of.append((w, vars_))

    w3 = 1
    w2 = len(w_terms) + 1
    w1 = w2 * 1001 + 1
    big = w1 * (len(z_terms) + 1)
    model.maximize(big * sum(x.values()) - w1 * sum(z_terms) - w2 * peak - w3 * sum(w_terms))

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

    def solve(self, model: cp_model.CpModel):
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


# ------------------------------------------------------------------------------------------ figures


def figures(problem: Problem, assignment: dict) -> dict:
    """Continuity %, highest and mean weekly utilisation % over the scope, for an assignment.

    continuityPercent: of the (block group, unit) pairs of the targets that have any allocated
    session in the scope's weeks, the share taught by exactly one teacher. Utilisation: hours / max
    weekly hours x 100 of each active teacher in each week of the scope that holds a target session;
    highest is the maximum, mean the average over those teacher-weeks.
    """
    data = problem.data
    keys = {(s.block_group_id, s.unit_id) for s in problem.targets}
    teachers_of: dict = defaultdict(set)
    hours: dict = defaultdict(float)
    for s in problem.others:
        if s.status == cf.CANCELLED or s.teacher_id is None:
            continue
        hours[(s.teacher_id, week_start(s.date))] += s.hours
        if (s.block_group_id, s.unit_id) in keys:
            teachers_of[(s.block_group_id, s.unit_id)].add(s.teacher_id)
    for s in problem.targets:
        t = assignment.get(s.id)
        if t is None:
            continue
        hours[(t, week_start(s.date))] += s.hours
        teachers_of[(s.block_group_id, s.unit_id)].add(t)
    served = [k for k in keys if teachers_of.get(k)]
    continuity = round(100.0 * sum(1 for k in served if len(teachers_of[k]) == 1) / len(served), 1) if served else 0.0
    weeks = {week_start(s.date) for s in problem.targets}
    utils = []
    for t in data.teachers.values():
        if not t.is_active or t.max_weekly_hours <= 0:
            continue
        for monday in weeks:
            utils.append(100.0 * hours.get((t.id, monday), 0.0) / t.max_weekly_hours)
    return {
        "continuityPercent": continuity,
        "highestUtilisation": round(max(utils), 1) if utils else 0.0,
        "meanUtilisation": round(sum(utils) / len(utils), 1) if utils else 0.0,
    }


def _describe(problem: Problem, solution: Solution, version: str, applied: bool) -> dict:
    data = problem.data
    assignments = []
    per_teacher: dict = defaultdict(lambda: {"sessions": 0, "hours": 0.0})
    for s in sorted(problem.targets, key=lambda s: (s.date, s.start, s.group_code)):
        t = solution.assignment.get(s.id)
        if t is None:
            continue
        facts = data.teachers[t]
        assignments.append(
            {
                "sessionId": str(s.id),
                "teacherId": str(t),
                "teacherName": facts.name,
                "date": s.date.isoformat(),
                "startTime": s.start.strftime("%H:%M:%S"),
                "endTime": s.end.strftime("%H:%M:%S"),
                "unitCode": s.unit_code,
                "blockGroupCode": s.group_code,
                "hours": s.hours,
            }
        )
        per_teacher[t]["sessions"] += 1
        per_teacher[t]["hours"] += s.hours
    unassignable = []
    for s in sorted(problem.targets, key=lambda s: (s.date, s.start, s.group_code)):
        if s.id in solution.assignment:
            continue
        reason = problem.reasons.get(s.id) or (
            f"Every teacher qualified for {s.unit_code} is needed elsewhere or would exceed their maximum weekly hours"
        )
        unassignable.append(
            {
                "sessionId": str(s.id),
                "date": s.date.isoformat(),
                "startTime": s.start.strftime("%H:%M:%S"),
                "endTime": s.end.strftime("%H:%M:%S"),
                "unitCode": s.unit_code,
                "blockGroupCode": s.group_code,
                "reason": reason,
            }
        )
    return {
        "applied": applied,
        "version": version,
        "status": solution.status,
        "solveMs": round(solution.solve_ms, 1),
        "sessionsInScope": len(problem.targets),
        "assignments": assignments,
        "unassignable": unassignable,
        "perTeacher": sorted(
            (
                {
                    "teacherId": str(t),
                    "teacherName": data.teachers[t].name,
                    "sessions": v["sessions"],
                    "hours": round(v["hours"], 2),
                }
                for t, v in per_teacher.items()
            ),
            key=lambda r: (-r["hours"], r["teacherName"]),
        ),
        "before": figures(problem, {}),
        "after": figures(problem, solution.assignment),
    }


# -------------------------------------------------------------------------------------------- entry


def propose(ctx: Ctx, scope: Scope, *, time_limit: float = DEFAULT_TIME_LIMIT) -> dict:
    """A proposal for the scope; nothing is written. See the module docstring for the answer's fields."""
    problem = load_problem(ctx, scope)
    version = _version(ctx, problem.lo, problem.hi, [s.id for s in problem.targets])
    return _describe(problem, solve(problem, time_limit), version, applied=False)


def apply_proposal(
    ctx: Ctx, scope: Scope, *, version: str | None, assignments: list[tuple] | None, time_limit: float = DEFAULT_TIME_LIMIT
) -> dict:
    """Write a proposal all-or-nothing with one change event (entity timetable_session, action allocated).

    With ``assignments`` [(session id, teacher id)] and ``version`` from an earlier proposal: refused
    with StaleWrite (412) when anything it depended on changed, and with BadRequest when an assignment
    is not one a proposal could make. Without ``assignments``: solves and writes in one go.
    """
    with transaction.atomic():
        problem = load_problem(ctx, scope)
        current = _version(ctx, problem.lo, problem.hi, [s.id for s in problem.targets])
        if assignments is not None:
            if not version or version != current:
                raise StaleWrite("The timetable changed since this proposal was made. Make a new proposal and try again.")
            chosen = {}
            for sid, tid in assignments:
                if tid not in problem.eligible.get(sid, []):
                    raise BadRequest("An assignment in the proposal is no longer possible. Make a new proposal.")
                chosen[sid] = tid
            solution = Solution(chosen, "APPLIED", 0.0)
            if not _respects_capacity_and_overlap(problem, chosen):
                raise BadRequest("The proposal breaks a capacity or overlap rule. Make a new proposal.")
        else:
            solution = solve(problem, time_limit)
        if solution.assignment:
            locked = {
                s.id: s
                for s in TimetableSession.objects.for_org(ctx.org).select_for_update().filter(id__in=list(solution.assignment))
            }
            # First in the write (issue 16): the rows written after it are captured into its activity.
            emit_change(ctx, entity="timetable_session", action="allocated", ids=list(solution.assignment))
            rows = []
            now = timezone.now()
            for sid, tid in solution.assignment.items():
                row = locked[sid]
                if row.teacher_id is not None:
                    raise StaleWrite("The timetable changed since this proposal was made. Make a new proposal and try again.")
                row.teacher_id = tid
                row.updated_at = now
                rows.append(row)
            TimetableSession.objects.for_org(ctx.org).bulk_update(rows, ["teacher", "updated_at"])
        new_version = _version(ctx, problem.lo, problem.hi, [s.id for s in problem.targets])
        return _describe(problem, solution, new_version, applied=True)


def _respects_capacity_and_overlap(problem: Problem, chosen: dict) -> bool:
    slots = []
    for s in problem.targets:
        t = chosen.get(s.id)
        if t is not None:
            slots.append(
                cf.Slot(
                    s.id,
                    s.block_group_id,
                    s.unit_id,
                    t,
                    s.room,
                    s.date,
                    s.start,
                    s.end,
                    s.hours,
                    s.status,
                    s.group_code,
                    s.unit_code,
                )
            )
    found = cf.detect(problem.others + slots, problem.data, focus={s.id for s in slots})
    bad = {cf.TEACHER_DOUBLE_BOOKED, cf.TEACHER_OVER_CAPACITY}
    return not any(c.type in bad for c in found)


# ---------------------------------------------------------------------------------- recommendations


def recommend(ctx: Ctx, session_id) -> dict:
    """Every teacher of the organization ranked for one session (about 6 queries).

    Answer: ``{"sessionId", "recommendations": [{"teacherId", "teacherName", "rank", "eligible",
    "rules": [{"rule", "met", "message"}], "weekHours", "maxWeeklyHours", "utilisationAfter",
    "continuity"}]}``. Rules: qualified, active, contract, not_on_leave, available, no_clash, capacity
    (all hard for allocation); ``continuity`` says the teacher already teaches this unit to this block group.
    Ranking: teachers meeting every rule first, then by rules met, continuity, and the lowest
    utilisation the session would bring.
    """
    session = get_in_org(TimetableSession.objects.select_related("unit", "block_group"), ctx.org, session_id, "Timetable session")
    monday = week_start(session.actual_date)
    sunday = monday + timedelta(days=6)
    data = cf.load_data(ctx.org, monday, sunday, None)
    week = cf.load_slots(ctx.org, monday, sunday, Q(teacher__isnull=False))
    continuing = set(
        TimetableSession.objects.for_org(ctx.org)
        .filter(block_group_id=session.block_group_id, unit_id=session.unit_id, teacher__isnull=False)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .values_list("teacher_id", flat=True)
        .distinct()
    )
    target = cf.Slot.of(session)
    hours: dict = defaultdict(float)
    same_day: dict = defaultdict(list)
    for s in week:
        if s.id == session.id or s.status == cf.CANCELLED:
            continue
        hours[s.teacher_id] += s.hours
        if s.date == target.date:
            same_day[s.teacher_id].append(s)
    evening = cf.is_evening(target.start, target.end)
    rows = []
    for t in data.teachers.values():
        clash = next(
            (
                o
                for o in same_day.get(t.id, [])
                if cf.overlaps(o.start, o.end, target.start, target.end)
                and not cf.co_delivered(o.block_group_id, target.block_group_id, data.link_of)
            ),
            None,
        )
        after = hours.get(t.id, 0.0) + target.hours
        rules = [
            {
                "rule": "qualified",
                "met": (t.id, target.unit_id) in data.qualified,
                "message": f"Qualified for {session.unit.code}"
                if (t.id, target.unit_id) in data.qualified
                else f"Holds no qualification for {session.unit.code}",
            },
            {"rule": "active", "met": t.is_active, "message": "Active" if t.is_active else "Inactive"},
            {
                "rule": "contract",
                "met": _in_contract(t, target.date),
                "message": "Within contract"
                if _in_contract(t, target.date)
                else f"Contract ended on {t.expiry_date.isoformat() if t.expiry_date else ''}",
            },
            {
                "rule": "not_on_leave",
                "met": (leave := data.leave_of(t.id, target)) is None,
                "message": "Not on leave"
                if leave is None
                else (
                    f"On leave {leave.start_date.isoformat()} to {leave.end_date.isoformat()}"
                    + (f" ({leave.reason})" if leave.reason else "")
                ),
            },
            {
                "rule": "available",
                "met": _available(t, target),
                "message": f"Available for {'evening' if evening else 'day'} sessions"
                if _available(t, target)
                else f"Available for {t.availability} sessions only",
            },
            {
                "rule": "no_clash",
                "met": clash is None,
                "message": "Free at this time"
                if clash is None
                else f"Already teaching {clash.group_code} {clash.start.strftime('%H:%M')}-{clash.end.strftime('%H:%M')}",
            },
            {
                "rule": "capacity",
                "met": after <= t.max_weekly_hours + 1e-9,
                "message": f"{after:g} of {t.max_weekly_hours} hours this week",
            },
        ]
        met = sum(1 for r in rules if r["met"])
        util = round(100.0 * after / t.max_weekly_hours, 1) if t.max_weekly_hours else 0.0
        rows.append(
            {
                "teacherId": str(t.id),
                "teacherName": t.name,
                "eligible": met == len(rules),
                "rules": rules,
                "weekHours": round(hours.get(t.id, 0.0), 2),
                "maxWeeklyHours": t.max_weekly_hours,
                "utilisationAfter": util,
                "continuity": t.id in continuing,
                "_met": met,
            }
        )
    rows.sort(key=lambda r: (not r["eligible"], -r["_met"], not r["continuity"], r["utilisationAfter"], r["teacherName"]))
    for i, r in enumerate(rows, 1):
        r["rank"] = i
        del r["_met"]
    return {"sessionId": str(session.id), "recommendations": rows}
