"""Closure moves of a re-plan (issue 17, ADR 0015): where the sessions a closed day hits go.

:func:`closure_moves` answers the ``changes``, ``unresolved`` and ``endDatesExtended`` of a closure's
proposal (``replan.propose``). Every moved session keeps its start and end time, teacher and room, so
hours per unit never change; each new date is one of its block group's preferred days, not closed nor a
holiday, with the group, the room and the teacher free at that time and the teacher not on leave.

Two steps:

1. **Greedy** (:class:`_Greedy`), in date order: each hit session takes the earliest such date before
   its group's next unit starts (the group's last unit may go up to ``SEARCH_MONTHS`` past the end
   date); when the group has no free date left before its next unit, the group's later sessions at the
   same time shift one slot each until one of them reaches a free date (:class:`_Reflow`).
2. **CP-SAT** (:func:`_optimise`), with the current timetable changed by the greedy plan as its hint:
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
"""

from __future__ import annotations

import time as clock
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import pairwise
from typing import TYPE_CHECKING

from django.db.models import Max, Min
from ortools.sat.python import cp_model

from project.timetabling import conflicts as cf
from project.timetabling.models import TimetableSession

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.planning.models import BlockGroup
    from project.timetabling.replan import Change

SEARCH_MONTHS = 3  # how far past a block group's end date a moved session may go (the end then extends)
LANE = 8  # later sessions of a hit session's group and time the model may shift to make room
CANDIDATES = 12  # free dates considered per movable session
MOVE_SECONDS = 3.0
REFLOWED = "Moved later to make room (the unit order is kept)"


@dataclass
class Plan:
    """Where sessions go: ``dates`` (session id -> new date) and the hit sessions left where they are
    (``unresolved``: session id -> reason)."""

    dates: dict = field(default_factory=dict)
    unresolved: dict = field(default_factory=dict)


class _Board:
    """What a closure's moves read (4-5 queries): the sessions of the window, holidays, teachers' leave,
    the block groups hit, each group's unit first dates and last teaching day."""

    def __init__(self, org: Organization, change: Change, hits: list[dict], window: tuple[date, date]) -> None:
        from project.planning.days import parse_preferred_days
        from project.planning.models import BlockGroup

        self.change, self.hits = change, hits
        self.hit_ids = {s["id"] for s in hits}
        group_ids = {s["blockGroupId"] for s in hits}
        self.groups = {g.pk: g for g in BlockGroup.objects.for_org(org).filter(pk__in=group_ids)}
        self.days = {gid: set(parse_preferred_days(g.preferred_days)) for gid, g in self.groups.items()}
        lo, hi = window
        self.horizon = hi  # nothing moves past what was read
        self.slots = cf.load_slots(org, lo, hi)
        self.slot_of = {s.id: s for s in self.slots}
        self.data = cf.load_data(org, lo, hi, None)
        self.closed: set = set()
        for a, b in change.spans:
            day = a
            while day <= b:
                self.closed.add(day)
                day += timedelta(days=1)
        # The group's whole timetable (not only the window) orders its units and gives its last day.
        self.units_first: dict = {}  # (group, unit) -> first date
        self.last_day: dict = {}  # group -> last teaching day
        for gid, unit_id, first, last in (
            TimetableSession.objects.for_org(org)
            .filter(block_group_id__in=group_ids)
            .exclude(status=TimetableSession.Status.CANCELLED)
            .values("block_group_id", "unit_id")
            .annotate(first=Min("actual_date"), last=Max("actual_date"))
            .values_list("block_group_id", "unit_id", "first", "last")
        ):
            self.units_first[(gid, unit_id)] = first
            self.last_day[gid] = max(self.last_day.get(gid, last), last)
        self.teacher_names = {tid: t.name for tid, t in self.data.teachers.items()}

    def preferred(self, slot: cf.Slot) -> set:
        return self.days.get(slot.block_group_id) or {slot.date.isoweekday()}

    def end_limit(self, slot: cf.Slot) -> date:
        """The latest date a session of the group may move to: the end date (or its own date when the group
        has none) plus ``SEARCH_MONTHS``, within the dates read."""
        return min(self.horizon, cf.add_months(self.groups[slot.block_group_id].end_date or slot.date, SEARCH_MONTHS))

    def next_unit(self, slot: cf.Slot) -> date | None:
        """The first date of the earliest unit of the group that starts after ``slot``'s date."""
        later = [d for (g, u), d in self.units_first.items() if g == slot.block_group_id and u != slot.unit_id and d > slot.date]
        return min(later) if later else None

    def limit(self, slot: cf.Slot) -> date:
        following = self.next_unit(slot)
        return following - timedelta(days=1) if following else self.end_limit(slot)

    def open_day(self, day: date, slot: cf.Slot) -> bool:
        """A preferred day of the group, not closed nor a holiday, the teacher not on leave at its time."""
        if day.isoweekday() not in self.preferred(slot) or day in self.closed or day in self.data.holidays:
            return False
        if slot.teacher_id is not None and any(
            span.covers(day, slot.start, slot.end) for span in self.data.leave.get(slot.teacher_id, ())
        ):
            return False
        return True

    def closed_name(self, day: date) -> str:
        return self.data.holidays[day].name if day in self.data.holidays else self.change.description

    def no_slot(self, slot: cf.Slot) -> str:
        following = self.next_unit(slot)
        if following:
            return f"No free slot on the group's preferred days before the next unit starts on {following.isoformat()}"
        return f"No free slot on the group's preferred days until {self.limit(slot).isoformat()}"


class _Bookings:
    """Who is busy when: (kind, key, date) -> [(start, end)] for the group ("g"), teacher ("t") and room
    ("r") of the sessions booked."""

    def __init__(self, slots: Iterable[cf.Slot], exclude: set[object], online: frozenset[str] = frozenset()) -> None:
        self.busy: dict = defaultdict(list)
        self.online = online  # online rooms never clash (issue 19)
        for s in slots:
            if s.status != cf.CANCELLED and s.id not in exclude:
                self.book(s, s.date)

    def keys(self, slot: cf.Slot) -> list[tuple[str, object]]:
        room = cf.norm_room(slot.room)
        if room in self.online:
            room = ""
        return [k for k in (("g", slot.block_group_id), ("t", slot.teacher_id), ("r", room)) if k[1]]

    def book(self, slot: cf.Slot, day: date, add: bool = True) -> None:
        for kind, key in self.keys(slot):
            if add:
                self.busy[(kind, key, day)].append((slot.start, slot.end))
            else:
                self.busy[(kind, key, day)].remove((slot.start, slot.end))

    def free(self, slot: cf.Slot, day: date) -> bool:
        return not any(cf.overlaps(a, b, slot.start, slot.end) for k in self.keys(slot) for a, b in self.busy.get((*k, day), ()))


# ---------------------------------------------------------------------------------------- greedy


class _Reflow:
    """Re-flow of one block group's sessions of one time: when a hit session has no free day before its
    group's next unit starts, it takes the next date of the sessions at its time, each of those the next
    one's, until one of them can take a free date; the sessions after it keep theirs. Refused (None) when
    a date cannot be found before the limit or the group's unit order would be broken."""

    def __init__(self, board: _Board, bookings: _Bookings, plan: Plan) -> None:
        self.board, self.bookings, self.plan = board, bookings, plan

    def _date(self, s: cf.Slot) -> date:
        return self.plan.dates.get(s.id, s.date)

    def _group_sessions(self, group_id: object) -> list[cf.Slot]:
        return [s for s in self.board.slots if s.block_group_id == group_id and s.status != cf.CANCELLED]

    def _inversions(self, group_id: object, moves: dict[object, date]) -> int:
        first = self.board.units_first
        rank = lambda s: first.get((group_id, s.unit_id), s.date)  # noqa: E731
        seq = sorted(self._group_sessions(group_id), key=lambda s: (moves.get(s.id, self._date(s)), s.start))
        return sum(1 for a, b in pairwise(seq) if rank(b) < rank(a))

    def plan_for(self, hit: cf.Slot, limit: date) -> list[tuple[cf.Slot, date]] | None:
        group_id = hit.block_group_id
        lane = sorted(
            (
                s
                for s in self._group_sessions(group_id)
                if s.id != hit.id
                and s.start == hit.start
                and s.end == hit.end
                and self._date(s) > hit.date
                and s.id not in self.board.hit_ids
            ),
            key=self._date,
        )
        chain = [hit, *lane]
        for s in lane:  # they may move: they do not block themselves
            self.bookings.book(s, self._date(s), add=False)
        moves: dict = {}
        day = hit.date + timedelta(days=1)
        ok = True
        for s in chain:
            if s is not hit and day <= self._date(s):
                break  # the one before landed before its date: it stays, and so do the ones after it
            while day <= limit and not (self.board.open_day(day, s) and self.bookings.free(s, day)):
                day += timedelta(days=1)
            if day > limit:
                ok = False
                break
            moves[s.id] = day
            self.bookings.book(s, day)
            day += timedelta(days=1)
        if ok and self._inversions(group_id, moves) > self._inversions(group_id, {}):
            ok = False
        if not ok:
            for s in chain:
                if s.id in moves:
                    self.bookings.book(s, moves[s.id], add=False)
            for s in lane:
                self.bookings.book(s, self._date(s))
            return None
        for s in lane:
            if s.id not in moves:
                self.bookings.book(s, self._date(s))
        by_id = {s.id: s for s in chain}
        return [(by_id[i], d) for i, d in moves.items()]


def _greedy(board: _Board) -> Plan:
    """Earliest free date per hit session, in date order; a re-flow where the group is full (see module)."""
    bookings = _Bookings(board.slots, board.hit_ids, board.data.online_rooms)
    plan = Plan()
    reflow = _Reflow(board, bookings, plan)
    for s in sorted(board.hits, key=lambda h: (h["actualDate"], h["startTime"], h["blockGroupCode"])):
        if s["id"] in plan.dates:
            continue  # moved by an earlier re-flow of its group
        slot = board.slot_of[s["id"]]
        limit = board.limit(slot)
        found = None
        day = slot.date + timedelta(days=1)
        while day <= limit:
            if board.open_day(day, slot) and bookings.free(slot, day):
                found = day
                break
            day += timedelta(days=1)
        if found is None and board.next_unit(slot) is not None:
            chain = reflow.plan_for(slot, board.end_limit(slot))
            if chain:
                for moved, day in chain:
                    plan.dates[moved.id] = day
                continue
        if found is None:
            plan.unresolved[slot.id] = board.no_slot(slot)
            continue
        bookings.book(slot, found)
        plan.dates[slot.id] = found
    return plan


# ---------------------------------------------------------------------------------------- CP-SAT


def _rank(board: _Board, plan: Plan) -> tuple:
    """The objective of the module, smaller is better: (unresolved, moved, added length, delay), days."""
    added: dict = {}
    for sid, day in plan.dates.items():
        gid = board.slot_of[sid].block_group_id
        added[gid] = max(added.get(gid, 0), (day - board.last_day.get(gid, day)).days)
    delay = sum((day - board.slot_of[sid].date).days for sid, day in plan.dates.items())
    return (len(plan.unresolved), len(plan.dates), sum(added.values()), delay)


def _movable(board: _Board) -> list[cf.Slot]:
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


def _optimise(board: _Board, greedy: Plan, time_limit: float) -> Plan | None:
    """The CP-SAT model of the module docstring, hinted with ``greedy``; None when it finds no plan."""
    started = clock.perf_counter()
    movable = _movable(board)
    moving = {s.id for s in movable}
    fixed = _Bookings(board.slots, moving, board.data.online_rooms)
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

    # Objective: unresolved, moved, added length, delay (module docstring).
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


# ---------------------------------------------------------------------------------------- answer


def closure_moves(
    org: Organization, change: Change, hits: list[dict], window: tuple[date, date], *, time_limit: float = MOVE_SECONDS
) -> tuple[list[dict], list[dict], list[dict[str, object]]]:
    """The moves that fix the sessions a closure hits (module docstring): ``(changes, unresolved,
    endDatesExtended)`` in the shapes of ``replan.propose``. Reads only."""
    from project.timetabling.replan import change_row, unresolved_row

    if not hits:
        return [], [], []
    board = _Board(org, change, hits, window)
    plan = _greedy(board)
    if plan.dates or plan.unresolved:
        better = _optimise(board, plan, time_limit)
        if better is not None and _rank(board, better) < _rank(board, plan):
            plan = better
    hit_of = {h["id"]: h for h in hits}
    changes = []
    for sid, day in sorted(plan.dates.items(), key=lambda kv: (board.slot_of[kv[0]].date, board.slot_of[kv[0]].start)):
        slot = board.slot_of[sid]
        group = board.groups[slot.block_group_id]
        original = hit_of.get(sid)
        if original is None:
            original = _as_hit(slot, group, board.teacher_names)
            why = REFLOWED
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


def _kept_last(board: _Board, gid: object, plan: Plan) -> date:
    """The group's last teaching day among the sessions the plan does not move."""
    days = [s.date for s in board.slots if s.block_group_id == gid and s.status != cf.CANCELLED and s.id not in plan.dates]
    return max(days) if days else date.min


def _as_hit(slot: cf.Slot, group: BlockGroup, teacher_names: dict[object, str]) -> dict:
    """A session a re-flow moves, in the shape of ``replan.hit_sessions`` rows."""
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
