"""The auto-allocation problem: its scope, its sessions and eligible teachers, and the search's limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from project.core.errors import ValidationFailed
from project.timetabling import conflicts as cf

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
    # ADR 0027: the teachers' other sessions by day and week, for the hour and day limits, and each
    # eligible (session id, teacher id)'s preference weight (UniTime's scale, negative is wanted) and reason.
    existing_day_hours: dict = field(default_factory=dict)  # (teacher id, date) -> hours
    existing_days: dict = field(default_factory=dict)  # (teacher id, monday) -> {dates taught}
    preference: dict = field(default_factory=dict)  # (session id, teacher id) -> (weight, reason)

    def week_cap(self, teacher_id: object) -> float:
        """The teacher's weekly hours limit: ``maxWeeklyHours``, or the availability's lower maximum."""
        t = self.data.teachers[teacher_id]
        per_week = t.avail.max_hours_per_week if t.avail is not None else None
        return float(t.max_weekly_hours) if per_week is None else min(float(t.max_weekly_hours), per_week)

    def day_cap(self, teacher_id: object) -> float | None:
        t = self.data.teachers[teacher_id]
        return t.avail.max_hours_per_day if t.avail is not None else None

    def days_cap(self, teacher_id: object) -> int | None:
        t = self.data.teachers[teacher_id]
        return t.avail.max_days_per_week if t.avail is not None else None
