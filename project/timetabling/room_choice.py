"""Rooms chosen by schedule generation (ADR 0019): when a schedule request names a room type
instead of a room, each new teaching session gets a free room of that type.

:func:`candidate_rooms` are the organization's active rooms of the type, of the block group's campus
(any campus when the group has none) and seating its cohort (online rooms seat any number), smallest
first. :func:`choose_rooms` (pure) walks the planned sessions in date order and gives each one the room
its unit had last if that room is free at its time (one room per unit where it can), else the smallest
free candidate, else none. Free means no stored or already chosen session of that room overlaps it on
its date; online rooms are always free.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from typing import TYPE_CHECKING

from django.db.models import Q

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable

    from project.accounts.models import Organization
    from project.planning.models import BlockGroup


@dataclass(frozen=True)
class Candidate:
    id: object
    code: str
    online: bool


def candidate_rooms(org: Organization, group: BlockGroup, room_type: str) -> list[Candidate]:
    """Active rooms of ``room_type`` for ``group`` (campus, capacity), smallest first (1 query)."""
    from project.catalogue.models import Room

    qs = Room.objects.for_org(org).filter(is_active=True, type=room_type)
    if group.campus_id is not None:
        qs = qs.filter(Q(campus_id=group.campus_id) | Q(campus__isnull=True))
    if room_type != Room.Type.ONLINE:
        qs = qs.filter(Q(capacity__isnull=True) | Q(capacity__gte=group.cohort_size or 0))
    return [
        Candidate(pk, code, kind == Room.Type.ONLINE)
        for pk, code, kind in qs.order_by("capacity", "code").values_list("pk", "code", "type")
    ]


def room_bookings(
    org: Organization, rooms: list[Candidate], start: date, end: date, exclude_groups: Iterable[object] = ()
) -> dict:
    """``{(room id, date): [(start, end)]}`` of the stored sessions of ``rooms`` in [start, end], not
    cancelled, other than ``exclude_groups``' (a linked group shares its rooms; 1 query)."""
    from project.timetabling.models import TimetableSession

    busy: dict = {}
    if not rooms:
        return busy
    rows = (
        TimetableSession.objects.for_org(org)
        .filter(room_record_id__in=[r.id for r in rooms], actual_date__gte=start, actual_date__lte=end)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .exclude(block_group_id__in=list(exclude_groups))
        .values_list("room_record_id", "actual_date", "start_time", "end_time")
    )
    for room_id, day, a, b in rows:
        busy.setdefault((room_id, day), []).append((a, b))
    return busy


def choose_rooms(sessions: list[tuple[object, date, time, time]], rooms: list[Candidate], busy: dict) -> list[Candidate | None]:
    """For ``sessions`` as ``(unit id, date, start, end)`` in date order, the room each gets (see the
    module), or None. Pure; ``busy`` is updated with the choices."""
    last_of_unit: dict = {}
    out: list[Candidate | None] = []

    def free(room: Candidate, day: date, a: time, b: time) -> bool:
        return room.online or all(not (x < b and a < y) for x, y in busy.get((room.id, day), ()))

    for unit_id, day, a, b in sessions:
        preferred = last_of_unit.get(unit_id)
        order = ([preferred] if preferred is not None else []) + [r for r in rooms if r != preferred]
        chosen = next((r for r in order if free(r, day, a, b)), None)
        if chosen is not None:
            busy.setdefault((chosen.id, day), []).append((a, b))
            last_of_unit[unit_id] = chosen
        out.append(chosen)
    return out
