"""The greedy step of a closure's moves (see the package): the earliest free date per hit session, in date
order, and the re-flow of a group's later sessions when it has none before its next unit."""

from __future__ import annotations

from datetime import date, timedelta
from itertools import pairwise

from project.timetabling import conflicts as cf
from project.timetabling.replan.board import Board, Bookings, Plan


class Reflow:
    """Re-flow of one block group's sessions of one time: when a hit session has no free day before its
    group's next unit starts, it takes the next date of the sessions at its time, each of those the next
    one's, until one of them can take a free date; the sessions after it keep theirs. Refused (None) when
    a date cannot be found before the limit or the group's unit order would be broken."""

    def __init__(self, board: Board, bookings: Bookings, plan: Plan) -> None:
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
        if ok and self.board.mixed_weeks(group_id, {**self.plan.dates, **moves}) > self.board.mixed_weeks(
            group_id, self.plan.dates
        ):
            ok = False  # the group keeps one unit a week
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


def greedy_plan(board: Board) -> Plan:
    """Earliest free date per hit session, in date order; a re-flow where the group is full (see the package)."""
    bookings = board.bookings()
    plan = Plan()
    reflow = Reflow(board, bookings, plan)
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
