"""Seed a large organization for benchmarks: ``seed_large_org(name=..., teachers=150, sessions=30000, year=...)``.

Reusable by anyone who needs a big tenant (reports, timetables, conflicts). Everything is written
with ``bulk_create`` in one transaction and is deterministic for a given ``seed``. Cross-organization
reads use ``Model.objects.unscoped()`` (engineering.md, Tenancy).

What it makes, for ``year`` (default: the current year):
- an organization (unique domain ``bench-<random>.edu.au``), its campus 'MAIN', an admin user
  ``admin@<domain>`` with password ``Bench$ecret123!`` (``BENCH_PASSWORD``);
- 8 courses, ``units`` units (default 96, nominal 20-120 h), 16 study plans of 6 units each;
- ``block_groups`` block groups (default 80, cohort 10-30, mostly active), each with a plan;
- ``teachers`` teachers (about 10 % inactive; maxWeeklyHours 15-30) with 4-8 qualifications each;
- the four Victorian-like term breaks of the year (term_break holidays) and two public holidays;
- with ``big_group_sessions`` (default 0), that many of the sessions in the first block group (a
  ~5,000-session timetable for ``bench/reads_bench.py``), the rest spread over the other groups;
- ``sessions`` timetable sessions spread over the weekdays of the year: 3-hour day slots and evening
  slots, each (group, unit) pair taught by one teacher, about 5 % unassigned and 3 % cancelled;
  ``term``, ``weekNumber`` and ``dayOfWeek`` filled in. Slots are drawn at random, so groups, rooms
  and teachers may be double-booked: fine for reports, not a conflict-free timetable.

``delete_org(org)`` removes such an organization again (children first). Run directly to seed the database of ``DATABASE_URL``: ``.venv/bin/python bench/seed_large.py``.
"""

from __future__ import annotations

import os
import random
import sys
import uuid
from datetime import date, time, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BENCH_PASSWORD = "Bench$ecret123!"  # noqa: S105 — the benchmark organization's known password
SLOTS = [  # (start, end) wall-clock; the last two are evening sessions
    (time(8, 30), time(11, 30)),
    (time(9, 0), time(12, 0)),
    (time(12, 30), time(15, 30)),
    (time(13, 0), time(16, 0)),
    (time(15, 0), time(18, 0)),
    (time(17, 30), time(20, 30)),
    (time(18, 0), time(21, 0)),
]


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    import django

    django.setup()


def seed_large_org(
    name: str = "Bench Institute",
    teachers: int = 150,
    sessions: int = 30000,
    year: int | None = None,
    *,
    units: int = 96,
    block_groups: int = 80,
    seed: int = 42,
    big_group_sessions: int = 0,
):
    """Create and return a large organization (see module docstring). Needs Django set up."""
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from project.accounts.models import Organization, User
    from project.catalogue.models import Campus, Course, Room, Unit, room_key
    from project.planning.models import BlockGroup, BlockGroupStudyPlan, StudyPlan, StudyPlanUnit
    from project.staff.models import Teacher, TeacherUnit
    from project.timetabling.calendar import TermCalendar, week_start
    from project.timetabling.models import Holiday, TimetableSession

    rng = random.Random(seed)
    year = year or date.today().year
    tag = uuid.uuid4().hex[:8]
    with transaction.atomic():
        org = Organization.objects.create(name=name, domain=f"bench-{tag}.edu.au")
        campus = Campus(organization=org, name="Main Campus", abbreviation="MAIN")
        Campus.objects.bulk_create([campus])
        # The 41 shared rooms as records (ADR 0019), as a provider's data is after migration 0005.
        rooms = {
            f"R{n}": Room(organization=org, code=f"R{n}", key=room_key(f"R{n}"), name=f"Room {n}", campus=campus, capacity=30)
            for n in range(100, 141)
        }
        Room.objects.bulk_create(rooms.values())
        User.objects.create(
            email=f"admin@{org.domain}",
            first_name="Bench",
            last_name="Admin",
            organization=org,
            role="admin",
            must_change_password=False,
            password=make_password(BENCH_PASSWORD),
        )

        courses = [
            Course(
                organization=org,
                code=f"ICT{30100 + i * 10}",
                name=f"Certificate {i + 1} in Information Technology",
                level=("certificate_iii", "certificate_iv", "diploma")[i % 3],
            )
            for i in range(8)
        ]
        Course.objects.bulk_create(courses)
        unit_rows = [
            Unit(
                organization=org,
                code=f"ICTBEN{i:03d}",
                name=f"Benchmark unit {i}",
                nominal_hours=rng.choice([20, 30, 40, 50, 60, 80, 120]),
                is_core=i % 3 != 0,
            )
            for i in range(units)
        ]
        Unit.objects.bulk_create(unit_rows)

        plans = [StudyPlan(organization=org, name=f"Plan {i}", total_nominal_hours=300) for i in range(16)]
        StudyPlan.objects.bulk_create(plans)
        plan_units = []
        for plan in plans:
            for seq, unit in enumerate(rng.sample(unit_rows, 6), 1):
                f2f = Decimal(unit.nominal_hours) * Decimal("0.7")
                plan_units.append(
                    StudyPlanUnit(
                        organization=org,
                        study_plan=plan,
                        unit=unit,
                        sequence_order=seq,
                        face_to_face_hours=f2f.quantize(Decimal("0.01")),
                        facilitated_e_learning_hours=Decimal(unit.nominal_hours) * Decimal("0.2"),
                    )
                )
        StudyPlanUnit.objects.bulk_create(plan_units)

        statuses = ["active"] * 7 + ["planned", "consolidated", "completed"]
        groups = [
            BlockGroup(
                organization=org,
                code=f"BG{year % 100:02d}-{i:03d}",
                name=f"Cohort {i:03d}",
                course=courses[i % len(courses)] if i % 10 else None,
                campus=campus,
                delivery_mode="on_campus" if i % 4 else "remote",
                study_mode="full_time" if i % 3 else "part_time",
                cohort_size=rng.randint(10, 30),
                start_date=date(year, 1 + i % 6, 1),
                preferred_days="Monday, Wednesday",
                status=rng.choice(statuses),
            )
            for i in range(block_groups)
        ]
        BlockGroup.objects.bulk_create(groups)
        links = [
            BlockGroupStudyPlan(organization=org, block_group=g, study_plan=plans[i % len(plans)]) for i, g in enumerate(groups)
        ]
        BlockGroupStudyPlan.objects.bulk_create(links)

        staff = [
            Teacher(
                organization=org,
                employee_id=f"EMP{i:05d}",
                first_name=f"Teacher{i:03d}",
                last_name=rng.choice(["Nguyen", "Smith", "Singh", "Brown", "Wilson", "Taylor", "Chen"]),
                email=f"teacher{i}@{org.domain}",
                max_weekly_hours=rng.choice([15, 18, 21, 21, 24, 30]),
                availability=rng.choice(["day", "evening", "both"]),
                is_active=rng.random() > 0.1,
            )
            for i in range(teachers)
        ]
        Teacher.objects.bulk_create(staff)
        quals = []
        for t in staff:
            for unit in rng.sample(unit_rows, rng.randint(4, 8)):
                quals.append(TeacherUnit(organization=org, teacher=t, unit=unit))
        TeacherUnit.objects.bulk_create(quals)

        breaks = [
            (date(year, 4, 4), date(year, 4, 19)),
            (date(year, 6, 27), date(year, 7, 12)),
            (date(year, 9, 19), date(year, 10, 4)),
            (date(year, 12, 19), date(year, 12, 31)),
        ]
        holidays = [
            Holiday(organization=org, name=f"Term {i + 1} break", type="term_break", start_date=s, end_date=e, year=year)
            for i, (s, e) in enumerate(breaks)
        ] + [
            Holiday(organization=org, name="Australia Day", start_date=date(year, 1, 26), end_date=date(year, 1, 26), year=year),
            Holiday(organization=org, name="Labour Day", start_date=date(year, 3, 9), end_date=date(year, 3, 9), year=year),
        ]
        Holiday.objects.bulk_create(holidays)
        calendar = TermCalendar(breaks)

        weekdays = []
        day = date(year, 1, 1)
        while day.year == year:
            if day.isoweekday() <= 5:
                weekdays.append(day)
            day += timedelta(days=1)
        group_units = {
            g.pk: [pu.unit for pu in plan_units if pu.study_plan_id == plans[i % len(plans)].pk] for i, g in enumerate(groups)
        }
        active_staff = [t for t in staff if t.is_active] or staff
        # Each (group, unit) pair has its teacher (3 % of pairs an inactive one), as a coordinator allocates.
        pair_teacher = {
            (g.pk, u.pk): rng.choice(active_staff if rng.random() < 0.97 else staff) for g in groups for u in group_units[g.pk]
        }
        rows = []
        for n in range(sessions):
            day = weekdays[n % len(weekdays)]
            # The first ``big_group_sessions`` sessions (spread over the year) go to the first group.
            group = (
                groups[0]
                if n < big_group_sessions
                else groups[1 + rng.randrange(len(groups) - 1)]
                if big_group_sessions
                else groups[rng.randrange(len(groups))]
            )
            if n < big_group_sessions:
                day = weekdays[(n * 7) % len(weekdays)]
            unit = rng.choice(group_units[group.pk])
            start, end = rng.choice(SLOTS)
            status = "cancelled" if rng.random() < 0.03 else rng.choice(["scheduled", "scheduled", "confirmed", "completed"])
            teacher = None if rng.random() < 0.05 else pair_teacher[(group.pk, unit.pk)]
            rows.append(
                TimetableSession(
                    organization=org,
                    block_group=group,
                    unit=unit,
                    teacher=teacher,
                    day_of_week=day.isoweekday(),
                    start_time=start,
                    end_time=end,
                    room=(code := f"R{rng.randint(100, 140)}"),
                    room_record=rooms[code],
                    week_number=(week_start(day) - week_start(date(year, 1, 1))).days // 7 + 1,
                    actual_date=day,
                    term=calendar.term_of(day),
                    actual_hours=Decimal(0) if status == "cancelled" else Decimal(3),
                    status=status,
                )
            )
        TimetableSession.objects.bulk_create(rows, batch_size=2000)
    return org


def delete_org(org) -> None:
    """Delete an organization and all its rows, children first (courses, units, campuses are protected)."""
    from django.db import transaction

    from project.catalogue.models import Campus, Course, Room, Unit
    from project.planning.models import (
        BlockGroup,
        BlockGroupStudyPlan,
        LinkedBlockGroup,
        LinkedBlockGroupMember,
        StudyPlan,
        StudyPlanUnit,
    )
    from project.staff.models import Teacher, TeacherUnit
    from project.timetabling.models import Holiday, TimetableSession

    with transaction.atomic():
        for model in (
            TimetableSession,
            Holiday,
            TeacherUnit,
            Teacher,
            LinkedBlockGroupMember,
            LinkedBlockGroup,
            BlockGroupStudyPlan,
            StudyPlanUnit,
            BlockGroup,
            StudyPlan,
            Unit,
            Course,
            Room,
            Campus,
        ):
            model.objects.unscoped().filter(organization=org).delete()
        org.users.all().delete()
        org.delete()


def main() -> None:
    _setup_django()
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", default="Bench Institute")
    parser.add_argument("--teachers", type=int, default=150)
    parser.add_argument("--sessions", type=int, default=30000)
    parser.add_argument("--year", type=int, default=None)
    args = parser.parse_args()
    org = seed_large_org(name=args.name, teachers=args.teachers, sessions=args.sessions, year=args.year)
    from project.timetabling.models import TimetableSession

    count = TimetableSession.objects.unscoped().filter(organization=org).count()
    print(f"seeded {org.name} ({org.pk}) domain {org.domain}: {count} sessions; admin@{org.domain} / {BENCH_PASSWORD}")


if __name__ == "__main__":
    main()
