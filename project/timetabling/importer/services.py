"""Import of sessions from a spreadsheet (POST /api/timetables/import), all or nothing."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db import transaction

from project.catalogue.models import Room, Unit, room_key
from project.core.changes import org_change
from project.core.tenancy import Ctx
from project.planning.models import BlockGroup
from project.timetabling.calendar import TermCalendar
from project.timetabling.models import TimetableSession
from project.timetabling.scheduling import plan as sch

if TYPE_CHECKING:  # pragma: no cover
    from django.core.files.uploadedfile import UploadedFile

# ----------------------------------------------------------------------------------------- import


def session_import(*, ctx: Ctx, upload: UploadedFile | None) -> dict:
    """Import sessions from an .xlsx/.xls upload (POST /api/timetables/import), all or nothing.

    Every row is validated first (importer.read_rows raises ValidationFailed with row-level errors);
    missing block groups and units are created by code. Returns stats {sessions_created,
    block_groups_created: [codes], units_created: [codes]}. One ``imported`` event with the session ids.
    """
    from project.timetabling import importer

    rows = importer.read_upload(upload)
    org = ctx.org
    parsed = importer.validate_rows(org, rows)
    with transaction.atomic():
        groups = {g.code.casefold(): g for g in BlockGroup.objects.for_org(org).filter(code__in={r.group_code for r in parsed})}
        units = {u.code.casefold(): u for u in Unit.objects.for_org(org).filter(code__in={r.unit_code for r in parsed})}
        # Codes are matched case-insensitively; fall back to a wider read for differently-cased codes.
        if len(groups) < len({r.group_code.casefold() for r in parsed}):
            groups = {g.code.casefold(): g for g in BlockGroup.objects.for_org(org)}
        if len(units) < len({r.unit_code.casefold() for r in parsed}):
            units = {u.code.casefold(): u for u in Unit.objects.for_org(org)}
        new_groups, new_units = [], []
        for r in parsed:
            key = r.group_code.casefold()
            if key not in groups:
                mine = [x for x in parsed if x.group_code.casefold() == key]
                g = BlockGroup(
                    organization=org,
                    code=r.group_code,
                    name=next((x.group_name for x in mine if x.group_name), r.group_code),
                    cohort_size=1,
                    start_date=min(x.date for x in mine),
                    preferred_days=", ".join(
                        sorted({x.date.strftime("%A") for x in mine}, key=lambda n: importer.DAY_NAMES.index(n))
                    ),
                )
                groups[key] = g
                new_groups.append(g)
            ukey = r.unit_code.casefold()
            if ukey not in units:
                mine = [x for x in parsed if x.unit_code.casefold() == ukey]
                total = sum((x.hours for x in mine), Decimal("0"))
                u = Unit(
                    organization=org,
                    code=r.unit_code,
                    name=next((x.unit_name for x in mine if x.unit_name), r.unit_code),
                    nominal_hours=max(1, int(total.to_integral_value(rounding="ROUND_CEILING"))),
                )
                units[ukey] = u
                new_units.append(u)
        terms = TermCalendar.for_org(org)
        rooms = {key: (code, pk) for key, code, pk in Room.objects.for_org(org).values_list("key", "code", "pk")}
        sessions = []
        for r in parsed:
            g = groups[r.group_code.casefold()]
            week = r.week_number or max(1, sch.week_number(r.date, g.start_date))
            room_text, room_record_id = rooms.get(room_key(r.room), (r.room, None)) if r.room else ("", None)
            sessions.append(
                TimetableSession(
                    id=uuid.uuid4(),
                    organization=org,
                    block_group=g,
                    unit=units[r.unit_code.casefold()],
                    teacher_id=r.teacher_id,
                    day_of_week=r.date.isoweekday(),
                    start_time=r.start,
                    end_time=r.end,
                    room=room_text,
                    room_record_id=room_record_id,
                    week_number=week,
                    actual_date=r.date,
                    term=terms.term_of(r.date),
                    actual_hours=r.hours,
                    status=r.status,
                    notes=r.notes,
                )
            )
        with org_change(ctx, "timetable_session", "imported", ids=[s.id for s in sessions]):
            BlockGroup.objects.for_org(org).bulk_create(new_groups)
            Unit.objects.for_org(org).bulk_create(new_units)
            TimetableSession.objects.for_org(org).bulk_create(sessions, batch_size=500)
    return {
        "sessions_created": len(sessions),
        "block_groups_created": [g.code for g in new_groups],
        "units_created": [u.code for u in new_units],
    }
