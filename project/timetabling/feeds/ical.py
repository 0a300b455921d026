"""iCalendar (RFC 5545) feeds of timetable sessions, made with the ``icalendar`` library.

One VEVENT per session: UID ``<session id>@blockplan``, DTSTART/DTEND as wall-clock times with
``TZID`` the organization's timezone (Australia/Melbourne by default) and a VTIMEZONE for it,
SUMMARY "<unit code> <unit name>", LOCATION the room, DESCRIPTION block group, teacher and notes,
STATUS CANCELLED for cancelled sessions (CONFIRMED otherwise), DTSTAMP/LAST-MODIFIED from updatedAt.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.timetabling.models import TimetableSession

DEFAULT_TZ = "Australia/Melbourne"


def _tz(org: Organization) -> ZoneInfo:
    try:
        return ZoneInfo(getattr(org, "timezone", None) or DEFAULT_TZ)
    except Exception:
        return ZoneInfo(DEFAULT_TZ)


def build_calendar(*, org: Organization, sessions: Iterable[TimetableSession], name: str) -> bytes:
    """The ``text/calendar`` body for ``sessions`` (with unit, block_group and teacher loaded)."""
    tz = _tz(org)
    cal = Calendar()
    cal.add("prodid", "-//Blockplan//Timetable//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", tz.key)
    cal.add("refresh-interval", timedelta(hours=1), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", "PT1H")
    for s in sessions:
        ev = Event()
        ev.add("uid", f"{s.id}@blockplan")
        ev.add("dtstamp", s.updated_at)
        ev.add("last-modified", s.updated_at)
        ev.add("dtstart", datetime.combine(s.actual_date, s.start_time, tzinfo=tz))
        ev.add("dtend", datetime.combine(s.actual_date, s.end_time, tzinfo=tz))
        ev.add("summary", f"{s.unit.code} {s.unit.name}")
        if s.room:
            ev.add("location", s.room)
        lines = [f"Block group: {s.block_group.code} {s.block_group.name}"]
        lines.append(f"Teacher: {s.teacher.full_name}" if s.teacher is not None else "Teacher: unassigned")
        if s.notes:
            lines.append(s.notes)
        ev.add("description", "\n".join(lines))
        ev.add("status", "CANCELLED" if s.status == "cancelled" else "CONFIRMED")
        cal.add_component(ev)
    cal.add_missing_timezones()
    return cal.to_ical()
