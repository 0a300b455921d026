from datetime import date

from project.planning.days import parse_preferred_days
from project.timetabling.calendar import TermCalendar, holiday_by_date, holiday_spans, semester_of, week_start


def test_preferred_days_forms():
    assert parse_preferred_days("Monday, Wednesday") == [1, 3]
    assert parse_preferred_days("mon wed") == [1, 3]
    assert parse_preferred_days("1,3") == [1, 3]
    assert parse_preferred_days("0 7 sun") == [7]
    assert parse_preferred_days("FRIDAY;tue") == [2, 5]
    assert parse_preferred_days("whenever") == []
    assert parse_preferred_days("") == []


def test_terms_from_breaks_and_quarters():
    breaks = [
        (date(2026, 4, 4), date(2026, 4, 19)),
        (date(2026, 6, 27), date(2026, 7, 12)),
        (date(2026, 9, 19), date(2026, 10, 4)),
    ]
    cal = TermCalendar(breaks)
    assert cal.term_of(date(2026, 2, 2)) == 1
    assert cal.term_of(date(2026, 4, 20)) == 2
    assert cal.term_of(date(2026, 7, 13)) == 3
    assert cal.term_of(date(2026, 12, 1)) == 4
    assert cal.term_of(date(2027, 5, 1)) == 2  # no breaks in 2027: quarters


def test_summer_break_spanning_new_year_does_not_end_term_one():
    breaks = [(date(2026, 12, 19), date(2027, 1, 27)), (date(2027, 4, 3), date(2027, 4, 18))]
    cal = TermCalendar(breaks)
    assert cal.term_of(date(2027, 2, 1)) == 1
    assert cal.term_of(date(2027, 4, 19)) == 2
    assert cal.term_of(date(2026, 12, 30)) == 1  # 2026 has only the December break, which has not ended
    assert semester_of(date(2026, 6, 30)) == 1 and semester_of(date(2026, 7, 1)) == 2
    assert week_start(date(2026, 3, 5)) == date(2026, 3, 2)


def test_recurring_holiday_repeats():
    class H:
        name, type, is_recurring = "Christmas Day", "public_holiday", True
        start_date = end_date = date(2024, 12, 25)

    days = holiday_by_date(holiday_spans([H()], date(2026, 1, 1), date(2027, 12, 31)))
    assert date(2026, 12, 25) in days and date(2027, 12, 25) in days
