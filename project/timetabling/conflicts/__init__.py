"""One conflict engine, one module per concern (ADR 0021): :mod:`.rules` (pure), :mod:`.loading` and
:mod:`.neighbourhood` (database reads), :mod:`.checks` (entry points). One conflict engine for timetable sessions (docs/behaviour/conflicts.md §5).

Used by session create/update and bulk allocation (refuse new hard conflicts, return soft ones as
warnings), by the list of ``GET /api/timetables`` (conflict types per row) and by
``GET /api/timetables/conflicts``. The auto-allocation work reuses the pure parts.

Pure building blocks (no database):

- :func:`overlaps` ``(a_start, a_end, b_start, b_end) -> bool``: half-open intervals, touching ends do
  not overlap (09:00-12:00 and 12:00-15:00 are fine).
- :func:`is_evening` ``(start, end) -> bool``: starts at or after 17:00 or ends after 17:00.
- :func:`co_delivered` ``(group_a, group_b, link_of) -> bool``: two different block groups of one linked
  group (they share teacher and room without conflict).
- :class:`Slot`: the facts of one session the engine needs (wall-clock ``datetime.time`` and
  ``datetime.date``, hours as float).
- :class:`ConflictData`: linked groups, holidays by date, teacher facts, qualifications.
- :func:`detect` ``(slots, data, focus=None) -> list[Conflict]``: every conflict among ``slots``;
  with ``focus`` (a set of session ids) only the conflicts that involve one of them. One sweep per
  (date, teacher), (date, group) and (date, room) bucket, so it is O(n log n) for n slots.
- :func:`detect_types` ``(slots, data, focus) -> {focus id: set of types}``: the same rules for list
  rows, without a Conflict object per clashing pair.

Database helpers (a fixed number of queries each):

- :func:`linked_groups` ``(org) -> {block_group_id: linked_group_id}`` (1 query).
- :func:`load_data` ``(org, start, end, teacher_ids) -> ConflictData`` (5 queries, leave included).
- :func:`load_slots` ``(org, start, end, q=None, exclude_ids=()) -> list[Slot]`` (1 query).
- :func:`check_changes` ``(org, proposed, originals) -> (new_hard, soft)``: what a write would add.
- :func:`types_by_session` ``(org, slots) -> {session_id: [type, ...]}``: for list rows.
- :func:`load_neighbourhood` ``(org, slots, exclude_ids=()) -> list[Slot]``: the stored sessions that
  can share a conflict with ``slots`` (same group or room on their dates, same teacher in their weeks),
  1 index-backed query; never the whole organization.
- :func:`scan` ``(org, start, end, block_group_id=None, teacher_id=None) -> list[Conflict]``.

Cancelled sessions never conflict. Rooms are compared trimmed and case-insensitively; an empty room
never conflicts. A conflict of two sessions of one block group is ``group_double_booked`` only (the
same group's clash is not also reported as a teacher or room clash).
"""

from project.timetabling.conflicts.checks import (
    check_changes,
    scan,
    types_by_session,
)
from project.timetabling.conflicts.loading import (
    linked_groups,
    load_data,
    load_holidays,
    load_neighbours,
    load_rooms,
    load_slots,
)
from project.timetabling.conflicts.neighbourhood import (
    NEIGHBOURHOOD_MAX_PAIRS,
    load_neighbourhood,
    neighbourhood_keys,
)
from project.timetabling.conflicts.rules import (
    CANCELLED,
    EVENING_FROM,
    GROUP_DOUBLE_BOOKED,
    HARD,
    HOLIDAY,
    LIMIT_TYPES,
    ROOM_DOUBLE_BOOKED,
    ROOM_OTHER_CAMPUS,
    ROOM_OVER_CAPACITY,
    SEVERITY,
    SOFT,
    TEACHER_CONTRACT_EXPIRED,
    TEACHER_DOUBLE_BOOKED,
    TEACHER_INACTIVE,
    TEACHER_ON_LEAVE,
    TEACHER_OTHER_CAMPUS,
    TEACHER_OUTSIDE_AVAILABILITY,
    TEACHER_OVER_CAPACITY,
    TEACHER_OVER_DAILY_HOURS,
    TEACHER_OVER_DAYS,
    TEACHER_OVER_WEEKLY_HOURS,
    TEACHER_UNAVAILABLE,
    TEACHER_UNQUALIFIED,
    Conflict,
    ConflictData,
    LeaveSpan,
    RoomFacts,
    Slot,
    TeacherFacts,
    add_months,
    co_delivered,
    detect,
    detect_types,
    hard,
    is_evening,
    norm_room,
    overlaps,
    soft,
)

__all__ = [
    "CANCELLED",
    "Conflict",
    "ConflictData",
    "EVENING_FROM",
    "GROUP_DOUBLE_BOOKED",
    "HARD",
    "HOLIDAY",
    "LeaveSpan",
    "NEIGHBOURHOOD_MAX_PAIRS",
    "ROOM_DOUBLE_BOOKED",
    "ROOM_OTHER_CAMPUS",
    "ROOM_OVER_CAPACITY",
    "RoomFacts",
    "SEVERITY",
    "SOFT",
    "Slot",
    "TEACHER_CONTRACT_EXPIRED",
    "TEACHER_DOUBLE_BOOKED",
    "TEACHER_INACTIVE",
    "TEACHER_ON_LEAVE",
    "TEACHER_OVER_CAPACITY",
    "TEACHER_UNAVAILABLE",
    "LIMIT_TYPES",
    "TEACHER_OTHER_CAMPUS",
    "TEACHER_OVER_DAYS",
    "TEACHER_OVER_WEEKLY_HOURS",
    "TEACHER_OVER_DAILY_HOURS",
    "TEACHER_OUTSIDE_AVAILABILITY",
    "TEACHER_UNQUALIFIED",
    "TeacherFacts",
    "add_months",
    "check_changes",
    "co_delivered",
    "detect",
    "detect_types",
    "hard",
    "is_evening",
    "linked_groups",
    "load_data",
    "load_holidays",
    "load_neighbourhood",
    "load_neighbours",
    "load_rooms",
    "load_slots",
    "neighbourhood_keys",
    "norm_room",
    "overlaps",
    "scan",
    "soft",
    "types_by_session",
]
