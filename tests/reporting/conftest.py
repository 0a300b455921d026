"""A small organization whose every report figure is computed by hand in the tests.

Sessions (hours = end - start unless said):

| name | date       | group | unit | teacher | time        | hours | note                      |
|------|------------|-------|------|---------|-------------|-------|---------------------------|
| s1   | 2026-03-02 | G1    | U1   | T1      | 09:00-12:00 | 3     | Monday                    |
| s2   | 2026-03-04 | G1    | U1   | T1      | 13:00-16:00 | 3     |                           |
| s3   | 2026-03-03 | G1    | U2   | T2      | 17:00-20:00 | 3     | evening (starts 17:00)    |
| s4   | 2026-08-10 | G2    | U2   | T1      | 09:00-13:00 | 4     | semester 2                |
| s5   | 2026-05-05 | G3    | U3   | T2      | 15:00-18:00 | 3     | evening (ends after 17)   |
| s6   | 2026-03-09 | G1    | U1   | T1      | 09:00-12:00 | 3     | CANCELLED: never counted  |
| s7   | 2025-12-30 | G1    | U1   | T1      | 09:00-11:00 | 2     | previous year             |
| s8   | 2026-08-11 | G2    | U3   | -       | 09:00-11:00 | 2     | unassigned                |
| s9   | 2026-09-01 | G2    | U3   | T3      | 09:00-10:00 | 1     | T3 inactive               |

Groups: G1 (course C1, cohort 20, active), G2 (course C2, cohort 15, active), G3 (no course, cohort 10,
active), G4 (course C1, planned, no session). Units: U1 40 h, U2 60 h, U3 20 h, U4 10 h (unused).
Teachers: T1 (max 20 h/week), T2 (max 10), T3 inactive (max 21), T4 active, no session (max 21).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal

import pytest

from tests import factories as f


@dataclass
class World:
    org: object
    c1: object
    c2: object
    u1: object
    u2: object
    u3: object
    u4: object
    g1: object
    g2: object
    g3: object
    g4: object
    t1: object
    t2: object
    t3: object
    t4: object
    s: dict

    def session(self, d, g, u, t, start, end, **kw):
        """A session of block group ``g``, unit ``u`` and teacher ``t`` (or None) on ``d`` from ``start`` to ``end``."""
        return f.make_session(self.org, block_group=g, unit=u, teacher=t, actual_date=d, start=start, end=end, **kw)


@pytest.fixture
def world(org) -> World:
    c1 = f.make_course(org, code="ICT30120", name="Certificate III in IT")
    c2 = f.make_course(org, code="ICT40120", name="Certificate IV in IT")
    u1 = f.make_unit(org, code="ICTICT001", name="Unit One", nominal_hours=40)
    u2 = f.make_unit(org, code="ICTICT002", name="Unit Two", nominal_hours=60)
    u3 = f.make_unit(org, code="ICTICT003", name="Unit Three", nominal_hours=20)
    u4 = f.make_unit(org, code="ICTICT004", name="Unit Four", nominal_hours=10)
    g1 = f.make_block_group(org, code="G1", name="Group One", course=c1, cohort_size=20)
    g2 = f.make_block_group(org, code="G2", name="Group Two", course=c2, cohort_size=15)
    g3 = f.make_block_group(org, code="G3", name="Group Three", course=None, cohort_size=10)
    g4 = f.make_block_group(
        org,
        code="G4",
        name="Group Four",
        course=c1,
        cohort_size=12,
        status="planned",
        start_date=date(2026, 7, 6),
        end_date=date(2026, 12, 1),
        study_mode="part_time",
        delivery_mode="remote",
    )
    t1 = f.make_teacher(org, first_name="Alice", last_name="Anders", employee_id="E001", max_weekly_hours=20)
    t2 = f.make_teacher(org, first_name="Bob", last_name="Brown", employee_id="E002", max_weekly_hours=10)
    t3 = f.make_teacher(org, first_name="Cara", last_name="Cole", employee_id="E003", is_active=False)
    t4 = f.make_teacher(org, first_name="Dan", last_name="Dunn", employee_id="E004")

    world = World(org, c1, c2, u1, u2, u3, u4, g1, g2, g3, g4, t1, t2, t3, t4, s={})
    session = world.session
    world.s.update(
        {
            "s1": session(date(2026, 3, 2), g1, u1, t1, time(9), time(12)),
            "s2": session(date(2026, 3, 4), g1, u1, t1, time(13), time(16)),
            "s3": session(date(2026, 3, 3), g1, u2, t2, time(17), time(20)),
            "s4": session(date(2026, 8, 10), g2, u2, t1, time(9), time(13)),
            "s5": session(date(2026, 5, 5), g3, u3, t2, time(15), time(18)),
            "s6": session(date(2026, 3, 9), g1, u1, t1, time(9), time(12), status="cancelled"),
            "s7": session(date(2025, 12, 30), g1, u1, t1, time(9), time(11)),
            "s8": session(date(2026, 8, 11), g2, u3, None, time(9), time(11)),
            "s9": session(date(2026, 9, 1), g2, u3, t3, time(9), time(10), actual_hours=Decimal("1")),
        }
    )
    return world
