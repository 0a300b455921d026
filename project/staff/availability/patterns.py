"""A teacher's availability and time preferences, pure (no database): ADR 0027.

Shapes (the JSON stored on :class:`project.staff.models.TeacherAvailability` and answered by
``GET /api/teachers/{id}/availability``; times are wall-clock ``"HH:MM"`` in the organization's timezone,
weekdays 0 = Monday .. 6 = Sunday):

- window ``{"weekday": 0, "start": "08:00", "end": "17:00"}``: the teacher can teach then;
- preference ``{"weekday": 4, "start": "12:00", "end": "17:00", "level": "discouraged"}``: how much they
  would rather (not) teach then, on UniTime's scale (:data:`LEVELS`); ``prohibited`` equals unavailable;
- variant ``{"name": "Term 3", "startDate": "2027-07-12", "endDate": "2027-09-17", "windows": [...]}``:
  the windows that replace the weekly pattern on the dates of that range (inclusive).

The three words of the teacher form migrate to patterns (:func:`word_windows`): day is Monday to Friday
08:00-17:00, evening Monday to Friday 17:00-22:00, both the union.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, time
from typing import Any

# UniTime's preference scale: level -> weight (negative is wanted). Prohibited is a hard "unavailable".
STRONGLY_PREFERRED = "strongly_preferred"
PREFERRED = "preferred"
NEUTRAL = "neutral"
DISCOURAGED = "discouraged"
STRONGLY_DISCOURAGED = "strongly_discouraged"
PROHIBITED = "prohibited"
LEVELS: dict[str, int] = {STRONGLY_PREFERRED: -4, PREFERRED: -1, NEUTRAL: 0, DISCOURAGED: 1, STRONGLY_DISCOURAGED: 4}
ALL_LEVELS = (*LEVELS, PROHIBITED)
LEVEL_WORDS = {
    STRONGLY_PREFERRED: "strongly prefers",
    PREFERRED: "prefers",
    NEUTRAL: "has no preference for",
    DISCOURAGED: "avoids",
    STRONGLY_DISCOURAGED: "strongly avoids",
    PROHIBITED: "cannot teach",
}
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
SHORT_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")

DAY_FROM, EVENING_FROM, EVENING_TO = time(8, 0), time(17, 0), time(22, 0)
WEEKDAYS = range(5)


@dataclass(frozen=True, slots=True)
class Window:
    """A weekday's span ``[start, end)``; ``level`` is None for an available window."""

    weekday: int
    start: time
    end: time
    level: str | None = None

    def covers(self, start: time, end: time) -> bool:
        return self.start <= start and end <= self.end

    def overlaps(self, start: time, end: time) -> bool:
        return self.start < end and start < self.end

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"weekday": self.weekday, "start": hm(self.start), "end": hm(self.end)}
        if self.level is not None:
            out["level"] = self.level
        return out


@dataclass(frozen=True, slots=True)
class Variant:
    """The windows replacing the weekly pattern from ``start_date`` to ``end_date`` inclusive."""

    name: str
    start_date: date
    end_date: date
    windows: tuple[Window, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "startDate": self.start_date.isoformat(),
            "endDate": self.end_date.isoformat(),
            "windows": [w.to_dict() for w in self.windows],
        }


@dataclass(slots=True)
class Availability:
    """What the conflict engine and auto-allocation read of one teacher (hours are floats).

    ``custom`` False: the pattern is the one the teacher form's word gives (the windows are then the
    soft ``teacher_unavailable`` rule of docs/behaviour/conflicts.md §4, not a hard one); True once the pattern is
    painted (``PUT /api/teachers/{id}/availability``). Limits are None when not set; ``campus_ids``
    empty means every campus."""

    custom: bool = False
    windows: tuple[Window, ...] = ()
    preferences: tuple[Window, ...] = ()
    variants: tuple[Variant, ...] = ()
    max_hours_per_day: float | None = None
    max_hours_per_week: float | None = None
    max_days_per_week: int | None = None
    campus_ids: frozenset = field(default_factory=frozenset)
    preferred_campus_id: object | None = None
    preferred_campus_level: str = PREFERRED

    def windows_on(self, day: date) -> tuple[Window, ...]:
        """The available windows of ``day``: a variant's covering it, else the weekly pattern's."""
        weekday = day.weekday()
        source = self.windows
        for v in self.variants:
            if v.start_date <= day <= v.end_date:
                source = v.windows
                break
        return tuple(w for w in source if w.weekday == weekday)

    def available(self, day: date, start: time, end: time) -> bool:
        """True when ``[start, end)`` on ``day`` lies inside one available window (touching windows
        join) and overlaps no prohibited preference."""
        weekday = day.weekday()
        if any(p.level == PROHIBITED and p.weekday == weekday and p.overlaps(start, end) for p in self.preferences):
            return False
        return _covered(self.windows_on(day), start, end)

    def preference(self, day: date, start: time, end: time, campus_id: object | None = None) -> tuple[int, str]:
        """``(weight, reason)`` of teaching ``[start, end)`` on ``day`` at ``campus_id``: the sum of the
        weights (:data:`LEVELS`) of the overlapping preference windows, minus the preferred campus's
        weight when the campus is it; reason names the strongest window ("avoids Friday afternoons"),
        empty when the weight is 0."""
        weekday = day.weekday()
        weight, reason, strongest = 0, "", 0
        for p in self.preferences:
            if p.level in LEVELS and p.weekday == weekday and p.overlaps(start, end):
                w = LEVELS[p.level]
                weight += w
                if abs(w) > abs(strongest):
                    strongest, reason = w, describe(p)
        if campus_id is not None and self.preferred_campus_id is not None and campus_id == self.preferred_campus_id:
            w = LEVELS.get(self.preferred_campus_level, 0)
            weight += w
            if not reason and w:
                reason = f"{LEVEL_WORDS[self.preferred_campus_level]} this campus"
        return weight, reason

    def teaches_at(self, campus_id: object | None) -> bool:
        return not self.campus_ids or campus_id is None or campus_id in self.campus_ids


def hm(t: time) -> str:
    return f"{t.hour:02d}:{t.minute:02d}"


def part_of_day(start: time, end: time) -> str:
    """ "mornings" (ends by 12:00), "afternoons" (starts at 12:00 or later, ends by 17:00), "evenings"
    (starts at 17:00 or later), else the times."""
    if end <= time(12, 0):
        return "mornings"
    if start >= EVENING_FROM:
        return "evenings"
    if start >= time(12, 0) and end <= EVENING_FROM:
        return "afternoons"
    if start <= DAY_FROM and end >= EVENING_FROM:
        return ""
    return f"{hm(start)}-{hm(end)}"


def describe(p: Window) -> str:
    """A preference in words: "avoids Friday afternoons", "prefers Mondays"."""
    part = part_of_day(p.start, p.end)
    day = DAY_NAMES[p.weekday]
    verb = LEVEL_WORDS.get(p.level or NEUTRAL, "")
    return f"{verb} {day} {part}" if part else f"{verb} {day}s"


def _covered(windows: Iterable[Window], start: time, end: time) -> bool:
    """True when the union of ``windows`` covers ``[start, end)``."""
    at = start
    for w in sorted(windows, key=lambda w: w.start):
        if w.start > at:
            break
        if w.end > at:
            at = w.end
        if at >= end:
            return True
    return at >= end


def word_windows(word: str) -> tuple[Window, ...]:
    """The weekly pattern of the teacher form's word: day Mon-Fri 08:00-17:00, evening Mon-Fri
    17:00-22:00, both the union (one window 08:00-22:00 per day)."""
    spans = {"day": (DAY_FROM, EVENING_FROM), "evening": (EVENING_FROM, EVENING_TO), "both": (DAY_FROM, EVENING_TO)}
    start, end = spans.get(word, spans["day"])
    return tuple(Window(d, start, end) for d in WEEKDAYS)


def derive_word(windows: Iterable[Window]) -> str:
    """The form's word for a pattern: "day" when every window ends by 17:00, "evening" when every window
    starts at 17:00 or later, else "both" (also for an empty pattern: nothing to say it is day only)."""
    items = list(windows)
    if items and all(w.end <= EVENING_FROM for w in items):
        return "day"
    if items and all(w.start >= EVENING_FROM for w in items):
        return "evening"
    return "both"


# --------------------------------------------------------------------------------------- from JSON


def _time(text: str) -> time:
    return time.fromisoformat(text)


def window_of(d: Mapping[str, Any]) -> Window:
    return Window(int(d["weekday"]), _time(d["start"]), _time(d["end"]), d.get("level"))


def from_row(
    *,
    custom: bool,
    windows: list,
    preferences: list,
    variants: list,
    max_hours_per_day: Any,
    max_hours_per_week: Any,
    max_days_per_week: int | None,
    campus_ids: list,
    preferred_campus_id: object | None,
    preferred_campus_level: str,
) -> Availability:
    """An :class:`Availability` from the stored row's values (JSON lists as stored; decimals or None).

    Any: the hour limits come as ``Decimal``, float or None depending on the database driver."""
    import uuid

    return Availability(
        custom=custom,
        windows=tuple(window_of(w) for w in windows or ()),
        preferences=tuple(window_of(p) for p in preferences or ()),
        variants=tuple(
            Variant(
                v.get("name", ""),
                date.fromisoformat(v["startDate"]),
                date.fromisoformat(v["endDate"]),
                tuple(window_of(w) for w in v.get("windows", ())),
            )
            for v in variants or ()
        ),
        max_hours_per_day=float(max_hours_per_day) if max_hours_per_day is not None else None,
        max_hours_per_week=float(max_hours_per_week) if max_hours_per_week is not None else None,
        max_days_per_week=max_days_per_week,
        campus_ids=frozenset(uuid.UUID(str(c)) for c in campus_ids or ()),
        preferred_campus_id=preferred_campus_id,
        preferred_campus_level=preferred_campus_level or PREFERRED,
    )


def of_word(word: str) -> Availability:
    """The availability of a teacher without a stored pattern: the word's windows, no limits."""
    return Availability(custom=False, windows=word_windows(word))
