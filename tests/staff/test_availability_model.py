"""The three words of the teacher form migrate to weekly patterns; the pure availability rules (ADR 0027)."""

from __future__ import annotations

import importlib
from datetime import date, time

import pytest
from django.apps import apps

from project.staff.availability import patterns as av
from project.staff.models import TeacherAvailability
from tests import factories as f

migration = importlib.import_module("project.staff.migrations.0003_teacher_availability")


@pytest.mark.django_db
def test_the_three_words_migrate_to_weekly_patterns(org):
    day = f.make_teacher(org, availability="day")
    evening = f.make_teacher(org, availability="evening")
    both = f.make_teacher(org, availability="both")
    migration.words_to_patterns(apps, None)
    rows = {r.teacher_id: r for r in TeacherAvailability.objects.for_org(org)}
    assert rows[day.pk].windows == [{"weekday": d, "start": "08:00", "end": "17:00"} for d in range(5)]
    assert rows[evening.pk].windows == [{"weekday": d, "start": "17:00", "end": "22:00"} for d in range(5)]
    assert rows[both.pk].windows == [{"weekday": d, "start": "08:00", "end": "22:00"} for d in range(5)]
    assert not any(r.custom for r in rows.values())
    assert all(r.organization_id == org.pk for r in rows.values())
    # The migrated day pattern says what the word said: Monday 09:00-12:00 yes, 18:00-21:00 and Saturday no.
    facts = av.from_row(
        custom=False,
        windows=rows[day.pk].windows,
        preferences=[],
        variants=[],
        max_hours_per_day=None,
        max_hours_per_week=None,
        max_days_per_week=None,
        campus_ids=[],
        preferred_campus_id=None,
        preferred_campus_level="preferred",
    )
    monday, saturday = date(2027, 3, 1), date(2027, 3, 6)
    assert facts.available(monday, time(9), time(12))
    assert not facts.available(monday, time(18), time(21))
    assert not facts.available(saturday, time(9), time(12))


def test_words_round_trip_through_patterns():
    for word in ("day", "evening", "both"):
        assert av.derive_word(av.word_windows(word)) == word


def test_touching_windows_join_and_prohibited_removes_time():
    mon = date(2027, 3, 1)
    a = av.Availability(
        custom=True,
        windows=(av.Window(0, time(8), time(12)), av.Window(0, time(12), time(17))),
        preferences=(av.Window(0, time(15), time(17), av.PROHIBITED),),
    )
    assert a.available(mon, time(10), time(14))
    assert not a.available(mon, time(14), time(16))
    assert not a.available(mon, time(7), time(9))


def test_a_date_range_variant_replaces_the_weekly_pattern():
    a = av.Availability(
        custom=True,
        windows=(av.Window(0, time(8), time(17)),),
        variants=(av.Variant("Term 3", date(2027, 7, 12), date(2027, 9, 17), (av.Window(2, time(8), time(17)),)),),
    )
    assert a.available(date(2027, 3, 1), time(9), time(12))  # a Monday outside the term
    assert not a.available(date(2027, 7, 12), time(9), time(12))  # a Monday in term 3
    assert a.available(date(2027, 7, 14), time(9), time(12))  # a Wednesday in term 3


def test_preferences_weigh_and_explain():
    a = av.Availability(
        custom=True, windows=av.word_windows("day"), preferences=(av.Window(4, time(12), time(17), av.DISCOURAGED),)
    )
    friday, monday = date(2027, 3, 5), date(2027, 3, 1)
    assert a.preference(friday, time(13), time(16)) == (1, "avoids Friday afternoons")
    assert a.preference(monday, time(13), time(16)) == (0, "")
