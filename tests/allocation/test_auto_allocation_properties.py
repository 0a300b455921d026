"""Property: over random small organizations, no proposal ever breaks a hard rule.

Pure: the problem is built in memory and the solver's answer is checked by the independent conflict
engine (``conflicts.detect``) plus the per-session rules.
"""

from datetime import date, time, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from project.timetabling import auto_allocation as aa
from project.timetabling import conflicts as cf
from project.timetabling.calendar import week_start

MON = date(2026, 5, 4)
STARTS = [time(9), time(10), time(13), time(17), time(18)]


@st.composite
def organizations(draw):
    n_teachers = draw(st.integers(1, 5))
    n_units = draw(st.integers(1, 3))
    n_groups = draw(st.integers(1, 3))
    teachers = {}
    for t in range(n_teachers):
        expiry = draw(st.sampled_from([None, MON + timedelta(days=3), MON + timedelta(days=30)]))
        teachers[f"t{t}"] = cf.TeacherFacts(
            id=f"t{t}",
            name=f"T{t}",
            max_weekly_hours=draw(st.integers(1, 12)),
            availability=draw(st.sampled_from(["day", "evening", "both"])),
            is_active=draw(st.booleans()) or t == 0,
            employment_type="fixed_term" if expiry else "ongoing",
            expiry_date=expiry,
        )
    qualified = {(t, f"u{u}") for t in teachers for u in range(n_units) if draw(st.booleans())}
    link_of = {"g0": "L1", "g1": "L1"} if n_groups > 1 and draw(st.booleans()) else {}

    def slot(i, teacher):
        day = MON + timedelta(days=draw(st.integers(0, 9)))
        start = draw(st.sampled_from(STARTS))
        length = draw(st.sampled_from([1, 2, 3]))
        end = time(min(start.hour + length, 23))
        return cf.Slot(
            f"s{i}",
            f"g{draw(st.integers(0, n_groups - 1))}",
            f"u{draw(st.integers(0, n_units - 1))}",
            teacher,
            draw(st.sampled_from(["", "A1", "B2"])),
            day,
            start,
            end,
            float(end.hour - start.hour),
            "scheduled",
            "G",
            "U",
        )

    targets = [slot(i, None) for i in range(draw(st.integers(1, 10)))]
    others = [slot(100 + i, draw(st.sampled_from(list(teachers)))) for i in range(draw(st.integers(0, 4)))]
    data = cf.ConflictData(link_of=link_of, teachers=teachers, qualified=qualified)
    return targets, others, data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(organizations())
def test_no_proposal_breaks_a_hard_rule(org):
    targets, others, data = org
    problem = aa.Problem(targets=targets, others=others, data=data, lo=week_start(MON), hi=MON + timedelta(days=13))
    aa._eligibility(problem)
    solution = aa.solve(problem, time_limit=2)
    assigned = []
    for s in targets:
        t = solution.assignment.get(s.id)
        if t is None:
            continue
        facts = data.teachers[t]
        assert (t, s.unit_id) in data.qualified
        assert facts.is_active
        assert not (facts.employment_type == "fixed_term" and facts.expiry_date and s.date > facts.expiry_date)
        evening = cf.is_evening(s.start, s.end)
        assert not (facts.availability == "day" and evening) and not (facts.availability == "evening" and not evening)
        assigned.append(cf.Slot(s.id, s.block_group_id, s.unit_id, t, s.room, s.date, s.start, s.end, s.hours, s.status))
    # Overlaps and weekly capacity, judged by the conflict engine over existing and proposed sessions:
    # no clash and no over-capacity week may involve a proposed session.
    proposed = {s.id for s in assigned}
    found = cf.detect(others + assigned, data, focus=proposed)
    broken = [c for c in found if c.type in {cf.TEACHER_DOUBLE_BOOKED, cf.TEACHER_OVER_CAPACITY}]
    assert broken == []
    # Every session left out carries a reason or lost its teachers to the others' capacity and overlaps.
    assert set(solution.assignment) <= {s.id for s in targets}
