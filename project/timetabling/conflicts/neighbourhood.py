"""The stored sessions that can share a conflict with given ones, in one index-backed query (:func:`load_neighbourhood`; ADR 0009): same group or room on their dates, same teacher in their weeks."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, TypeAlias
from uuid import UUID

from project.timetabling.calendar import week_start
from project.timetabling.conflicts.loading import (
    _SLOT_KINDS,
    _converter,
    converted_slot,
    load_neighbours,
    native_slot,
)
from project.timetabling.conflicts.rules import (
    Slot,
    norm_room,
)

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

# {"group" | "room" | "teacher": [(block group id | room casefolded | teacher id, lo, hi)]}
Keys: TypeAlias = dict[str, list[tuple[object, date, date]]]

# ------------------------------------------------------------------------------------ neighbourhood

# Above this many (resource, date) pairs the neighbourhood is most of the organization's sessions of the
# range anyway: one date-range read of every session is cheaper than the pair joins.
NEIGHBOURHOOD_MAX_PAIRS = 20000


def _date_runs(days: Iterable[date], gap: int = 1) -> list[tuple[date, date]]:
    """Sorted ``days`` merged into inclusive runs ``[(lo, hi)]``; days at most ``gap`` apart join a run."""
    runs: list[list[date]] = []
    for d in sorted(set(days)):
        if runs and (d - runs[-1][1]).days <= gap:
            runs[-1][1] = d
        else:
            runs.append([d, d])
    return [(lo, hi) for lo, hi in runs]


def neighbourhood_keys(slots: Iterable[Slot]) -> Keys:
    """What can share a conflict with ``slots`` (docs/behaviour/conflicts.md §1), as index-ready date runs per key.

    ``{"group": [(block_group_id, lo, hi)], "room": [(room_casefolded, lo, hi)], "teacher":
    [(teacher_id, lo, hi)]}``, inclusive dates. A clash needs the same block group, teacher or room on
    the same date (runs of consecutive dates); weekly capacity needs the teacher's whole Monday-to-Sunday
    weeks (runs of consecutive weeks). Co-delivery (linked groups) and holidays are read separately.
    Cancelled slots count too (an edit may uncancel).
    """
    groups: defaultdict[object, set[date]] = defaultdict(set)
    rooms: defaultdict[str, set[date]] = defaultdict(set)
    weeks: defaultdict[object, set[date]] = defaultdict(set)
    for s in slots:
        groups[s.block_group_id].add(s.date)
        room = norm_room(s.room)
        if room:
            rooms[room].add(s.date)
        if s.teacher_id is not None:
            weeks[s.teacher_id].add(week_start(s.date))
    return {
        "group": [(k, lo, hi) for k, days in groups.items() for lo, hi in _date_runs(days)],
        "room": [(k, lo, hi) for k, days in rooms.items() for lo, hi in _date_runs(days)],
        "teacher": [(k, lo, hi + timedelta(days=6)) for k, mondays in weeks.items() for lo, hi in _date_runs(mondays, gap=7)],
    }


def _text_of(convert: Callable[[Any], Any]) -> Callable[[Any], str | None]:
    """``convert`` then the canonical text of the UUID it gives (None stays None), memoised."""
    memo: dict[Any, str | None] = {}

    def run(value: Any) -> str | None:
        try:
            return memo[value]
        except KeyError:
            parsed = convert(value)
            out = memo[value] = None if parsed is None else str(parsed)
            return out

    return run


def _neighbourhood_sql(
    vendor: str, org_id: UUID, keys: Keys, codes: bool = True, text_ids: bool = False
) -> tuple[str, list[str | UUID | list[object]]]:
    """One UNION read of the sessions matching ``keys``: each part walks its list of (key, lo, hi)
    runs and range-scans the session index of that key for each (``session_group_date``,
    ``session_room_lower_date``, ``session_teacher_date``). PostgreSQL passes each list as three arrays
    (``unnest`` with a LATERAL index scan per run); SQLite as one JSON text (``json_each``, nested loop)."""
    import json as _json

    from project.catalogue.models import Unit
    from project.planning.models import BlockGroup
    from project.timetabling.models import TimetableSession

    t, g, u = TimetableSession._meta.db_table, BlockGroup._meta.db_table, Unit._meta.db_table
    ids = (
        "s.id::text, s.block_group_id::text, s.unit_id::text, s.teacher_id::text"
        if text_ids and vendor == "postgresql"
        else "s.id, s.block_group_id, s.unit_id, s.teacher_id"
    )
    cols = f"{ids}, s.room, s.actual_date, s.start_time, s.end_time, s.actual_hours, s.status, " + (
        "bg.code, un.code" if codes else "'', ''"
    )
    joins = f" JOIN {g} bg ON bg.id = s.block_group_id JOIN {u} un ON un.id = s.unit_id" if codes else ""
    column = {"group": "s.block_group_id", "room": "LOWER(s.room)", "teacher": "s.teacher_id"}
    parts: list[str] = []
    params: list[str | UUID | list[object]] = []  # text, the organization's id, PostgreSQL arrays
    for kind, runs in keys.items():
        if not runs:
            continue
        if vendor == "postgresql":
            cast = "text" if kind == "room" else "uuid"
            parts.append(
                f"SELECT {cols} FROM unnest(%s::{cast}[], %s::date[], %s::date[]) AS p(k, lo, hi) "  # noqa: S608 — fixed columns and casts; values are parameters
                f"CROSS JOIN LATERAL (SELECT * FROM {t} s WHERE s.organization_id = %s AND {column[kind]} = p.k "
                f"AND s.actual_date BETWEEN p.lo AND p.hi OFFSET 0) s" + joins  # OFFSET 0: one index scan per run
            )
            params += [[r[0] for r in runs], [r[1] for r in runs], [r[2] for r in runs], org_id]
        else:
            parts.append(
                f"SELECT {cols} FROM json_each(%s) AS p JOIN {t} s ON s.organization_id = %s "  # noqa: S608 — fixed columns and table; values are parameters
                f"AND {column[kind]} = json_extract(p.value, '$[0]') "
                "AND s.actual_date BETWEEN json_extract(p.value, '$[1]') AND json_extract(p.value, '$[2]')" + joins
            )
            params += [
                _json.dumps([[k if kind == "room" else _hex(k), lo.isoformat(), hi.isoformat()] for k, lo, hi in runs]),
                org_id.hex,
            ]
    # UNION ALL: a session found by several parts comes once per part; the callers keep the first (cheaper
    # in Python than PostgreSQL hashing every row to deduplicate).
    return " UNION ALL ".join(parts), params


def _hex(key: object) -> str:
    """A UUID (or its text) as SQLite stores it: 32 hex digits."""
    return key.hex if isinstance(key, UUID) else str(key).replace("-", "")


def load_neighbourhood(
    org: Organization,
    slots: list[Slot],
    exclude_ids: Iterable[object] = (),
    *,
    codes: bool = True,
    complete_group: object = None,
    text_ids: bool = False,
) -> list[Slot]:
    """Stored sessions that can share a conflict with ``slots`` (1 query, index-backed).

    Same block group or (case-insensitive) room on one of their dates, same teacher in one of their
    weeks (see :func:`neighbourhood_keys`); never the rest of the organization. Deduplicated by id,
    ``exclude_ids`` left out. A very large neighbourhood (more than ``NEIGHBOURHOOD_MAX_PAIRS`` runs)
    is read as the date range of the slots' weeks instead and pruned to the same pairs in Python.
    ``codes=False`` leaves the block group and unit codes blank (only messages use them).
    ``complete_group``: see :func:`types_by_session` (its group-date runs are skipped).
    ``text_ids``: every id of the answer (session, block group, unit, teacher) is its canonical text
    (``str(uuid)``), and ``slots``/``exclude_ids``/``complete_group`` are given as text too.
    """
    from django.db import connection

    if not slots:
        return []
    keys = neighbourhood_keys(slots)
    if complete_group is not None:  # the caller holds every session of this group on these dates
        keys["group"] = [r for r in keys["group"] if r[0] != complete_group]
    if not any(keys.values()):
        return []
    exclude = set(exclude_ids)
    if sum(len(v) for v in keys.values()) > NEIGHBOURHOOD_MAX_PAIRS:
        # Most of the range is neighbourhood: read the range once, keep the slots sharing a key in Python.
        groups = {(s.block_group_id, s.date) for s in slots}
        rooms = {(norm_room(s.room), s.date) for s in slots if norm_room(s.room)}
        weeks = {(s.teacher_id, week_start(s.date)) for s in slots if s.teacher_id is not None}
        teachers = {t for t, _ in weeks}
        out_: list[Slot] = []
        for s in load_neighbours(org, slots, exclude_ids=exclude):
            if (
                (s.block_group_id, s.date) in groups
                or (s.room and (norm_room(s.room), s.date) in rooms)
                or (s.teacher_id in teachers and (s.teacher_id, week_start(s.date)) in weeks)
            ):
                out_.append(s)
        return out_
    sql, params = _neighbourhood_sql(connection.vendor, org.pk, keys, codes, text_ids)
    if connection.vendor == "postgresql":  # native values: no conversion
        native: dict[object, Slot] = {}
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            for r in cursor.fetchall():
                if r[0] in native or r[0] in exclude:
                    continue
                native[r[0]] = native_slot(r)
        return list(native.values())
    conv = [_converter(k) for k in _SLOT_KINDS]
    if text_ids:  # the ids of the session, block group, unit and teacher
        conv[:4] = [_text_of(c) for c in conv[:4]]
    c_id = conv[0]
    out: dict[object, Slot] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for r in cursor.fetchall():
            sid = c_id(r[0])
            if sid in out or sid in exclude:
                continue
            out[sid] = converted_slot(sid, r, conv)
    return list(out.values())
