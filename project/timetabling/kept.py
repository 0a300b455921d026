"""What a block group's timetable depends on, and what a change of sessions touched, as keys of the kept
answers (``project.core.response_cache``, ADR 0034).

A row of a block group's timetable is the session and its conflict types. The types of a session can
only change with a session of the same block group, a session of the same teacher in the same
Monday-to-Sunday week (a clash, the day's and the week's limits, capacity) or a session in the same room
on the same date (docs/behaviour/conflicts.md §1; the neighbourhood of
``project.timetabling.conflicts.neighbourhood``); everything else a row shows or a type reads (the
unit, the block group, the teacher, qualifications, leave, availability, holidays, rooms, linked groups)
is another entity, whose every change touches everything. So the list of ``?blockGroupId=G`` depends on

- ``group:G``;
- ``teacher:T:W`` for each teacher T and week W (its Monday) of its rows;
- ``room:R:D`` for each room R (its text, trimmed and casefolded as the conflict rules compare it) and
  date D of its rows;

and a ``timetable_session`` change touches the same keys of the rows it wrote, as they were before and
as they are after (a session moved away from a teacher's week touches that week too). A schedule
generated or cleared names its rows by their dates, teachers and rooms (the event's ``schedule``), so it
touches every pair of them: more than it wrote, never less. An event that names its rows neither way
(too many rows for ``sessions``, or a change of existing rows without ``before``) touches everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from project.core.changes import GROUP_ID_ACTIONS
from project.timetabling.calendar import week_start
from project.timetabling.conflicts.rules import norm_room


def _day(value: object) -> date | None:
    if isinstance(value, date):
        return value
    if isinstance(value, str) and value:
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def group_key(block_group_id: object) -> str:
    return f"group:{block_group_id}"


def teacher_week_key(teacher_id: object, day: date) -> str:
    return f"teacher:{teacher_id}:{week_start(day).isoformat()}"


def room_date_key(room: str, day: date) -> str:
    return f"room:{room}:{day.isoformat()}"


def _row_keys(group: object, teacher: object, room: object, day: date | None) -> Iterable[str]:
    if group:
        yield group_key(group)
    if day is None:
        return
    if teacher:
        yield teacher_week_key(teacher, day)
    room_text = norm_room(room if isinstance(room, str) else None)
    if room_text:
        yield room_date_key(room_text, day)


def timetable_keys(block_group_id: object, rows: list[dict[str, Any]]) -> frozenset[str]:
    """The keys the timetable list of a block group (``rows``: ``SessionOut`` JSON objects of
    ``session_list``) depends on: the group, and its rows' teachers' weeks and rooms' dates."""
    keys = {group_key(block_group_id)}
    for r in rows:
        keys.update(_row_keys(r.get("blockGroupId"), r.get("teacherId"), r.get("room"), _day(r.get("actualDate"))))
    return frozenset(keys)


def session_change_keys(message: dict[str, Any]) -> frozenset[str] | None:
    """The keys a ``timetable_session`` change event touched (``message``: the event with its routing,
    ``sessions`` / ``before`` of :class:`project.core.changes.ChangeEventSession`, or ``schedule`` for a
    schedule generated or cleared); None when the event does not name its rows (everything)."""
    if message.get("action") in GROUP_ID_ACTIONS:
        schedule, ids = message.get("schedule"), message.get("ids") or []
        if not isinstance(schedule, dict) or len(ids) != 1:
            return None
        days = [d for d in (_day(v) for v in schedule.get("dates") or []) if d is not None]
        weeks = {week_start(d) for d in days}
        rooms = {norm_room(r) for r in schedule.get("rooms") or []} - {""}
        if schedule.get("roomIds") and not rooms:
            return None  # rooms named by record only: the rule compares their text
        return frozenset(
            [
                group_key(ids[0]),
                *(teacher_week_key(t, w) for t in schedule.get("teacherIds") or [] for w in weeks),
                *(room_date_key(r, d) for r in rooms for d in days),
            ]
        )
    after, before = message.get("sessions"), message.get("before")
    if after is None or (before is None and message.get("action") != "created"):
        return None  # the rows as written, and as they were unless new, or nothing is known
    rows = [*after, *(before or [])]
    keys: set[str] = set()
    for r in rows:
        keys.update(_row_keys(r.get("blockGroupId"), r.get("teacherId"), r.get("room"), _day(r.get("date"))))
    return frozenset(keys)
