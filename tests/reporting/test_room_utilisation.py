"""Room utilisation report (ADR 0019): hours booked per recorded room and type against 50 available hours
a teaching week; online rooms listed without a utilisation; CSV and XLSX exports; a fixed number of
queries; another organization's rooms never counted."""

from __future__ import annotations

import csv
import io
from datetime import date, time

from openpyxl import load_workbook

from project.catalogue.models import Room
from tests import factories as f


def _room(org, code, **kw):
    return Room.objects.create(organization=org, code=code, key=code.lower(), **kw)


def test_room_utilisation_by_room_and_type(api, org, other_org, django_assert_max_num_queries):
    lab = _room(
        org, "LAB1", name="Lab", type="computer_lab", capacity=20, campus=f.make_campus(org, name="City", abbreviation="CTY")
    )
    _room(org, "R2", type="classroom", capacity=30)
    online = _room(org, "Online", type="online")
    _room(org, "OLD", type="classroom", is_active=False)  # inactive and unused: not listed
    group, unit = f.make_block_group(org), f.make_unit(org)
    # Two 3-hour sessions in LAB1 in one week, one in another week, one cancelled (not counted), one in 2025.
    for day, status in (
        (date(2026, 3, 2), "scheduled"),
        (date(2026, 3, 3), "scheduled"),
        (date(2026, 3, 10), "completed"),
        (date(2026, 3, 11), "cancelled"),
        (date(2025, 3, 11), "scheduled"),
    ):
        f.make_session(org, block_group=group, unit=unit, actual_date=day, room="LAB1", room_record=lab, status=status)
    f.make_session(
        org,
        block_group=group,
        unit=unit,
        actual_date=date(2026, 3, 4),
        room="Online",
        room_record=online,
        start=time(18),
        end=time(21),
    )
    theirs = _room(other_org, "LAB1")
    f.make_session(
        other_org,
        block_group=f.make_block_group(other_org),
        unit=f.make_unit(other_org),
        room="LAB1",
        room_record=theirs,
        actual_date=date(2026, 3, 2),
    )
    # A holiday covering a whole week (Mon-Fri 6-10 April 2026) is not a teaching week.
    f.make_holiday(org, name="Autumn break", type="term_break", start_date=date(2026, 4, 6), end_date=date(2026, 4, 10))

    with django_assert_max_num_queries(12):
        body = api.get("/api/reports/room-utilisation", {"year": 2026}).json()
    assert body["teachingWeeks"] == 51 and body["hoursPerWeek"] == 50  # 52 Mondays in 2026, less one break week
    rows = {r["code"]: r for r in body["rooms"]}
    assert list(rows) == ["LAB1", "Online", "R2"]
    assert rows["LAB1"]["bookedHours"] == 9.0 and rows["LAB1"]["availableHours"] == 51 * 50
    assert rows["LAB1"]["utilisationPercent"] == round(9 / 2550 * 100, 1) and rows["LAB1"]["peakWeekHours"] == 6.0
    assert rows["LAB1"]["campus"] == "City" and rows["LAB1"]["typeLabel"] == "Computer lab"
    assert (
        rows["Online"]["bookedHours"] == 3.0
        and rows["Online"]["availableHours"] is None
        and rows["Online"]["utilisationPercent"] is None
    )
    assert rows["R2"]["bookedHours"] == 0.0 and rows["R2"]["utilisationPercent"] == 0.0
    by_type = {t["type"]: t for t in body["byType"]}
    assert by_type["computer_lab"]["rooms"] == 1 and by_type["classroom"]["availableHours"] == 2550

    csv_rows = list(
        csv.reader(io.StringIO(api.get("/api/reports/room-utilisation/export", {"format": "csv", "year": 2026}).content.decode()))
    )
    assert csv_rows[0][:6] == ["Room", "Name", "Type", "Campus", "Capacity", "Booked Hours"]
    assert csv_rows[1][0] == "LAB1" and csv_rows[1][5] == "9.0"
    assert any(r[1] == "Computer lab total" for r in csv_rows)
    xlsx = api.get("/api/reports/room-utilisation/export", {"format": "xlsx", "year": 2026})
    assert xlsx["Content-Disposition"] == 'attachment; filename="room-utilisation-2026.xlsx"'
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet.title == "Room Utilisation" and sheet["A2"].value == "LAB1" and sheet["F2"].value == 9
    assert api.get("/api/reports/room-utilisation/export", {"format": "pdf"}).status_code == 400
    assert api.get("/api/reports/room-utilisation", {"year": "soon"}).status_code == 400
