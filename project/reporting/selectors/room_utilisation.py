"""Room utilisation report (ADR 0019): ``GET /api/reports/room-utilisation?year=``.

For each recorded room of the organization (active or used that year): the hours of the year's
non-cancelled sessions booked in it, against the hours it is available. A room is available
``AVAILABLE_HOURS_PER_WEEK`` hours a teaching week (Monday to Friday, 08:00 to 18:00: 50 hours); the
teaching weeks of the year are its Monday-to-Sunday weeks (Mondays in the year) less those whose
weekdays are all term break or holiday. Utilisation is booked / available, one decimal. Online rooms hold
any number of classes: their hours are listed without an availability or a utilisation. Also the peak
week's hours and the average per teaching week. Then the same by room type.
Reads: 4 queries whatever the number of sessions.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from typing import TYPE_CHECKING

from django.db.models import Sum
from django.db.models.functions import TruncWeek

from project.catalogue.models import Room
from project.timetabling.calendar import holiday_by_date, holiday_spans
from project.timetabling.models import Holiday, TimetableSession

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization

AVAILABLE_HOURS_PER_WEEK = 50
TYPE_LABELS = dict(Room.Type.choices)


def teaching_weeks(org: Organization, year: int) -> int:
    """Mondays of ``year`` whose week has a weekday that is not a holiday or term break."""
    start, end = date(year, 1, 1), date(year, 12, 31)
    closed = holiday_by_date(holiday_spans(Holiday.objects.for_org(org).filter(is_active=True), start, end + timedelta(days=6)))
    monday = start + timedelta(days=(7 - start.weekday()) % 7)
    weeks = 0
    while monday <= end:
        if any(monday + timedelta(days=i) not in closed for i in range(5)):
            weeks += 1
        monday += timedelta(days=7)
    return weeks


def _pct(booked: float, available: float | None) -> float | None:
    return None if not available else round(booked / available * 100, 1)


def room_utilisation(*, org: Organization, year: int) -> dict:
    """``{year, teachingWeeks, hoursPerWeek, rooms: [{roomId, code, name, type, typeLabel, campus, capacity,
    bookedHours, availableHours, utilisationPercent, averageWeeklyHours, peakWeekHours}], byType: [{type,
    typeLabel, rooms, bookedHours, availableHours, utilisationPercent}]}``; rooms by code, types by label.
    Hours are decimal hours; ``availableHours``/``utilisationPercent`` are null for online rooms."""
    weeks = teaching_weeks(org, year)
    sessions = (
        TimetableSession.objects.for_org(org)
        .filter(actual_date__year=year, room_record__isnull=False)
        .exclude(status=TimetableSession.Status.CANCELLED)
    )
    weekly: dict = defaultdict(dict)
    for room_id, week, hours in (
        sessions.annotate(week=TruncWeek("actual_date"))
        .values("room_record_id", "week")
        .annotate(h=Sum("actual_hours"))
        .values_list("room_record_id", "week", "h")
        .order_by()
    ):
        weekly[room_id][week] = float(hours or 0)
    rooms = []
    for room in Room.objects.for_org(org).select_related("campus").order_by("code"):
        booked = round(sum(weekly[room.pk].values()), 2)
        if not room.is_active and not booked:
            continue
        online = room.type == Room.Type.ONLINE
        available = None if online else weeks * AVAILABLE_HOURS_PER_WEEK
        rooms.append(
            {
                "roomId": room.pk,
                "code": room.code,
                "name": room.name,
                "type": room.type,
                "typeLabel": TYPE_LABELS.get(room.type, room.type),
                "campus": room.campus.name if room.campus else None,
                "capacity": room.capacity,
                "bookedHours": booked,
                "availableHours": available,
                "utilisationPercent": _pct(booked, available),
                "averageWeeklyHours": round(booked / weeks, 1) if weeks else 0.0,
                "peakWeekHours": round(max(weekly[room.pk].values(), default=0.0), 2),
            }
        )
    by_type: dict = {}
    for r in rooms:
        t = by_type.setdefault(
            r["type"], {"type": r["type"], "typeLabel": r["typeLabel"], "rooms": 0, "bookedHours": 0.0, "availableHours": None}
        )
        t["rooms"] += 1
        t["bookedHours"] = round(t["bookedHours"] + r["bookedHours"], 2)
        if r["availableHours"] is not None:
            t["availableHours"] = (t["availableHours"] or 0) + r["availableHours"]
    for t in by_type.values():
        t["utilisationPercent"] = _pct(t["bookedHours"], t["availableHours"])
    return {
        "year": year,
        "teachingWeeks": weeks,
        "hoursPerWeek": AVAILABLE_HOURS_PER_WEEK,
        "rooms": rooms,
        "byType": sorted(by_type.values(), key=lambda t: t["typeLabel"]),
    }
