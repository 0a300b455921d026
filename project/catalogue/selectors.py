"""Reads of courses, units of competency and campuses (docs/behaviour/units-and-courses.md §2). Every list is one query."""

from __future__ import annotations

from datetime import date, time
from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet

from project.catalogue.models import Campus, Course, Room, Unit
from project.core.tenancy import get_in_org

if TYPE_CHECKING:  # pragma: no cover
    from uuid import UUID

    from project.accounts.models import Organization


def course_list(*, org: Organization) -> QuerySet[Course]:
    """The organization's courses ordered by code."""
    return Course.objects.for_org(org).order_by("code")


def course_get(*, org: Organization, course_id: UUID | str) -> Course:
    """One course of ``org``; NotFound "Course not found" otherwise."""
    return get_in_org(Course, org, course_id, "Course")


def unit_list(*, org: Organization, search: str | None = None, course_id: UUID | str | None = None) -> QuerySet[Unit]:
    """The organization's units of competency ordered by code; with ``search``, those whose code or name
    contains it (any case); with ``course_id``, those in a study plan assigned to a block group of that
    course (an unknown or another organization's course: none)."""
    qs = Unit.objects.for_org(org).order_by("code")
    if search and search.strip():
        term = search.strip()
        qs = qs.filter(Q(code__icontains=term) | Q(name__icontains=term))
    if course_id is not None:
        from project.planning.models import StudyPlanUnit

        in_course = (
            StudyPlanUnit.objects.for_org(org)
            .filter(study_plan__block_group_links__block_group__course_id=course_id)
            .values("unit_id")
        )
        qs = qs.filter(pk__in=in_course)
    return qs


def unit_get(*, org: Organization, unit_id: UUID | str) -> Unit:
    """One unit of ``org``; NotFound "Unit not found" otherwise."""
    return get_in_org(Unit, org, unit_id, "Unit")


def campus_list(*, org: Organization) -> QuerySet[Campus]:
    """Active campuses of the organization ordered by name (choices of the block group form)."""
    return Campus.objects.for_org(org).filter(is_active=True).order_by("name")


def campus_get(*, org: Organization, campus_id: UUID | str) -> Campus:
    """One campus of ``org`` (active or not); NotFound "Campus not found" otherwise."""
    return get_in_org(Campus, org, campus_id, "Campus")


def room_list(
    *, org: Organization, campus_id: UUID | str | None = None, type: str | None = None, active: bool | None = None
) -> QuerySet[Room]:
    """The organization's rooms by code, with their campus and how many sessions name them
    (``session_count``); filtered by campus, type and active when given. One query."""
    from django.db.models import Count

    qs = Room.objects.for_org(org).select_related("campus").annotate(session_count=Count("sessions")).order_by("code")
    if campus_id is not None:
        qs = qs.filter(campus_id=campus_id)
    if type:
        qs = qs.filter(type=type)
    if active is not None:
        qs = qs.filter(is_active=active)
    return qs


def room_get(*, org: Organization, room_id: UUID | str) -> Room:
    """One room of ``org``; NotFound "Room not found" otherwise."""
    from django.db.models import Count

    qs = Room.objects.for_org(org).select_related("campus").annotate(session_count=Count("sessions"))
    return get_in_org(qs, org, room_id, "Room")


def room_availability(
    *, org: Organization, day: date, start: time, end: time, exclude_session_id: UUID | str | None = None
) -> list[dict]:
    """Which active rooms are free on ``day`` from ``start`` to ``end`` (wall-clock times; the room
    pickers): ``[{roomId, code, free, bookedBy}]`` by code; ``bookedBy`` names the first overlapping
    session ("ICT30120-A ICTICT214 09:00-12:00"). Online rooms are always free. A session being edited
    (``exclude_session_id``) does not block its own room. 2 queries."""
    from project.timetabling.models import TimetableSession

    busy: dict = {}
    rows = (
        TimetableSession.objects.for_org(org)
        .filter(actual_date=day, room_record__isnull=False, start_time__lt=end, end_time__gt=start)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .order_by("start_time")
        .values_list("room_record_id", "block_group__code", "unit__code", "start_time", "end_time", "id")
    )
    for room_id, group, unit, a, b, sid in rows:
        if exclude_session_id is not None and str(sid) == str(exclude_session_id):
            continue
        busy.setdefault(room_id, f"{group} {unit} {a:%H:%M}-{b:%H:%M}")
    return _room_states(org, busy)


def _room_states(org: Organization, booked_by: dict, busy_for: dict | None = None) -> list[dict]:
    """The active rooms by code, each ``{roomId, code, free, bookedBy}`` (and ``busyFor`` when counts are
    given): free unless ``booked_by`` names a booking of it; online rooms are always free. 1 query."""
    out = []
    for room in Room.objects.for_org(org).filter(is_active=True).order_by("code").only("id", "code", "type"):
        online = room.type == Room.Type.ONLINE
        booked = None if online else booked_by.get(room.pk)
        row = {"roomId": room.pk, "code": room.code, "free": booked is None, "bookedBy": booked}
        if busy_for is not None:
            row["busyFor"] = 0 if online else busy_for.get(room.pk, 0)
        out.append(row)
    return out


def room_availability_for_sessions(*, org: Organization, session_ids: list) -> list[dict]:
    """Which active rooms are free at the times of every listed session (the bulk "Set Room"
    picker): ``[{roomId, code, free, bookedBy, busyFor}]`` by code. ``busyFor`` counts the listed sessions
    a room is booked against by another session (the listed ones never block each other's room: moving
    them together is the point); ``bookedBy`` names the first such booking. Online rooms are always
    free. Ids not of the organization are ignored. 3 queries, whatever the number of sessions.
    """
    from project.timetabling.conflicts import overlaps
    from project.timetabling.models import TimetableSession

    wanted = {str(i) for i in session_ids}
    chosen = list(
        TimetableSession.objects.for_org(org)
        .filter(id__in=list(wanted))
        .exclude(status=TimetableSession.Status.CANCELLED)
        .values_list("id", "actual_date", "start_time", "end_time")
    )
    by_day: dict = {}
    for sid, day, a, b in chosen:
        by_day.setdefault(day, []).append((a, b, sid))
    busy: dict = {}  # room id -> the chosen session ids it is booked against
    first: dict = {}  # room id -> its first such booking
    if by_day:
        # Only the bookings that overlap a chosen session's day window, not every session of those days.
        windows = Q()
        for day, spans in by_day.items():
            windows |= Q(actual_date=day, start_time__lt=max(b for _, b, _ in spans), end_time__gt=min(a for a, _, _ in spans))
        rows = (
            TimetableSession.objects.for_org(org)
            .filter(windows, room_record__isnull=False)
            .exclude(status=TimetableSession.Status.CANCELLED)
            .exclude(id__in=[sid for sid, *_ in chosen])
            .order_by("actual_date", "start_time")
            .values_list("room_record_id", "block_group__code", "unit__code", "actual_date", "start_time", "end_time")
        )
        for room_id, group, unit, day, a, b in rows:
            for start, end, sid in by_day[day]:
                if overlaps(a, b, start, end):
                    against = busy.get(room_id)
                    if against is None:  # the room's first booking: named once (rows come in date and time order)
                        against = busy[room_id] = set()
                        first[room_id] = f"{group} {unit} {day:%d/%m} {a:%H:%M}-{b:%H:%M}"
                    against.add(sid)
    return _room_states(org, first, {room_id: len(ids) for room_id, ids in busy.items()})
