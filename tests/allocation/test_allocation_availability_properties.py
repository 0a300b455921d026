"""Property (ADR 0027): over random small organizations with painted availability, limits, campuses and
preferences, no proposal puts a teacher outside their availability or beyond a limit.

Pure: the problem is built in memory and the solver's answer is judged by the conflict engine
(``conflicts.detect``): no availability, campus or limit conflict may involve a proposed session unless
the teacher's existing sessions already broke that limit on that day or week.
"""

from datetime import date, time, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from project.staff.availability import patterns as av
from project.timetabling import auto_allocation as aa
from project.timetabling import conflicts as cf
from project.timetabling.calendar import week_start

MON = date(2026, 5, 4)
STARTS = [time(8), time(9), time(10), time(13), time(15), time(17), time(18)]
CAMPUSES = ["c0", "c1"]


@st.composite
def windows(draw):
    out = []
    for day in draw(st.sets(st.integers(0, 6), max_size=5)):
        start = draw(st.sampled_from([time(7), time(8), time(9), time(12), time(17)]))
        end = draw(st.sampled_from([t for t in (time(12), time(13), time(17), time(21), time(22)) if t > start]))
        out.append(av.Window(day, start, end))
    return tuple(out)


@st.composite
def availability(draw):
    prefs = tuple(
        av.Window(draw(st.integers(0, 6)), time(h), time(h + 4), draw(st.sampled_from(av.ALL_LEVELS)))
        for h in draw(st.lists(st.sampled_from([8, 12, 17]), max_size=3))
    )
    variants = ()
    if draw(st.booleans()):
        variants = (av.Variant("Term", MON + timedelta(days=7), MON + timedelta(days=20), draw(windows())),)
    return av.Availability(
        custom=draw(st.booleans()),
        windows=draw(windows()),
        preferences=prefs,
        variants=variants,
        max_hours_per_day=draw(st.sampled_from([None, 2.0, 3.0, 5.0, 7.5])),
        max_hours_per_week=draw(st.sampled_from([None, 3.0, 6.0, 10.0])),
        max_days_per_week=draw(st.sampled_from([None, 1, 2, 3])),
        campus_ids=frozenset(draw(st.sets(st.sampled_from(CAMPUSES)))),
        preferred_campus_id=draw(st.sampled_from([None, *CAMPUSES])),
        preferred_campus_level=draw(st.sampled_from(list(av.LEVELS))),
    )


@st.composite
def organizations(draw):
    n_teachers = draw(st.integers(1, 5))
    n_units = draw(st.integers(1, 2))
    n_groups = draw(st.integers(1, 3))
    teachers = {
        f"t{t}": cf.TeacherFacts(
            id=f"t{t}",
            name=f"T{t}",
            max_weekly_hours=draw(st.integers(3, 20)),
            availability=draw(st.sampled_from(["day", "evening", "both"])),
            is_active=True,
            employment_type="ongoing",
            expiry_date=None,
            avail=draw(availability()),
        )
        for t in range(n_teachers)
    }
    qualified = {(t, f"u{u}") for t in teachers for u in range(n_units) if draw(st.booleans()) or t == "t0"}
    groups = {f"g{g}": (20, draw(st.sampled_from(CAMPUSES)), "Campus") for g in range(n_groups)}
    link_of = {"g0": "L1", "g1": "L1"} if n_groups > 1 and draw(st.booleans()) else {}

    def slot(i, teacher):
        day = MON + timedelta(days=draw(st.integers(0, 13)))
        start = draw(st.sampled_from(STARTS))
        length = draw(st.sampled_from([1, 2, 3]))
        end = time(min(start.hour + length, 23))
        return cf.Slot(
            f"s{i}",
            f"g{draw(st.integers(0, n_groups - 1))}",
            f"u{draw(st.integers(0, n_units - 1))}",
            teacher,
            "",
            day,
            start,
            end,
            float(end.hour - start.hour),
            "scheduled",
            "G",
            "U",
        )

    targets = [slot(i, None) for i in range(draw(st.integers(1, 12)))]
    others = [slot(100 + i, draw(st.sampled_from(list(teachers)))) for i in range(draw(st.integers(0, 5)))]
    data = cf.ConflictData(link_of=link_of, teachers=teachers, qualified=qualified, groups=groups)
    return targets, others, data


RULES = {cf.TEACHER_OUTSIDE_AVAILABILITY, cf.TEACHER_OTHER_CAMPUS, cf.TEACHER_DOUBLE_BOOKED, cf.TEACHER_OVER_CAPACITY}


def _limit_keys(conflicts, teacher_of):
    return {(c.type, c.date, teacher_of[c.session_ids[0]]) for c in conflicts if c.type in cf.LIMIT_TYPES}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(organizations())
def test_no_proposal_leaves_availability_or_breaks_a_limit(org):
    targets, others, data = org
    problem = aa.Problem(targets=targets, others=others, data=data, lo=week_start(MON), hi=MON + timedelta(days=20))
    aa._eligibility(problem)
    solution = aa.solve(problem, time_limit=2)
    assigned = [
        s.with_ids(s.id, s.block_group_id, s.unit_id, solution.assignment[s.id]) for s in targets if s.id in solution.assignment
    ]
    for s in assigned:
        facts = data.teachers[s.teacher_id]
        if facts.avail.custom:
            assert facts.avail.available(s.date, s.start, s.end)
        assert facts.avail.teaches_at(data.groups[s.block_group_id][1])
    proposed = {s.id for s in assigned}
    found = cf.detect(others + assigned, data, focus=proposed)
    assert [c for c in found if c.type in RULES] == []
    teacher_of = {s.id: s.teacher_id for s in others + assigned}
    already = _limit_keys(cf.detect(others, data), teacher_of)
    assert _limit_keys(found, teacher_of) <= already
