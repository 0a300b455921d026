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
- ``sessions`` timetable sessions over the weekdays of the year: 3-hour day slots and evening slots
  (``SLOTS``), each (group, unit) pair taught by one teacher, about 5 % unassigned and 3 % cancelled;
  ``term``, ``weekNumber`` and ``dayOfWeek`` filled in. How they are placed is ``density``:

  - ``"random"`` (the default): slots, groups, units, rooms and the pairs' teachers (3 % of pairs an
    inactive one) are drawn at random, so groups, rooms and teachers are double-booked and most rows carry
    a conflict (~96 % at 30,000 sessions): fine for reports, not a real timetable. Other benchmarks'
    published figures rest on these rows: the same ``seed`` gives the same rows, keep its draws as they are.
  - ``"few"``: as a provider's timetable, a few per cent of rows conflicted at most. The sessions are shared
    among the groups as their open days and the rooms allow; each pair's teacher is an active one qualified
    for the unit, the least loaded for its ``maxWeeklyHours``; each session is placed greedily on the group's
    least busy open day (on or after its start date, not in a term break or public holiday) in a slot that
    fits the teacher's availability (evening as the conflict rules say: ending after 17:00), where the group,
    the teacher and one of the 41 rooms are free and the teacher's week (Monday to Sunday) stays within its
    maximum. Remote groups' sessions have no room (online). What finds no such place is placed anyway with
    the fewest rows made conflicted (~2 % of the rows at 35,000 sessions). The big group's sessions cannot
    avoid overlapping one another: they have no room and teachers of their own, so they clash only among
    themselves.

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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization
    from project.timetabling.calendar import TermCalendar
    from project.timetabling.models import TimetableSession

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BENCH_PASSWORD = "Bench$ecret123!"  # noqa: S105 — the benchmark organization's known password
SLOTS = [  # (start, end) wall-clock; the last two are evening sessions (and 15:00-18:00 for the conflict rules)
    (time(8, 30), time(11, 30)),
    (time(9, 0), time(12, 0)),
    (time(12, 30), time(15, 30)),
    (time(13, 0), time(16, 0)),
    (time(15, 0), time(18, 0)),
    (time(17, 30), time(20, 30)),
    (time(18, 0), time(21, 0)),
]


DENSITIES = ("random", "few")


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
    density: str = "random",
) -> Organization:
    """Create and return a large organization (see module docstring). Needs Django set up."""
    if density not in DENSITIES:
        raise ValueError(f"density must be one of {', '.join(DENSITIES)}, not {density!r}")
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from project.accounts.models import Organization, User
    from project.catalogue.models import Campus, Course, Room, Unit, room_key
    from project.planning.models import BlockGroup, BlockGroupStudyPlan, StudyPlan, StudyPlanUnit
    from project.staff.models import Teacher, TeacherUnit
    from project.timetabling.calendar import TermCalendar
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
        closed = {h.start_date + timedelta(days=k) for h in holidays for k in range((h.end_date - h.start_date).days + 1)}

        weekdays = []
        day = date(year, 1, 1)
        while day.year == year:
            if day.isoweekday() <= 5:
                weekdays.append(day)
            day += timedelta(days=1)
        group_units = {
            g.pk: [pu.unit for pu in plan_units if pu.study_plan_id == plans[i % len(plans)].pk] for i, g in enumerate(groups)
        }
        if density == "few":
            rows = _few_rows(
                rng,
                org,
                groups=groups,
                group_units=group_units,
                staff=staff,
                qualified={(q.teacher_id, q.unit_id) for q in quals},
                rooms=list(rooms.values()),
                days=[d for d in weekdays if d not in closed],
                calendar=calendar,
                sessions=sessions,
                big_group_sessions=big_group_sessions,
                year=year,
            )
        else:
            active_staff = [t for t in staff if t.is_active] or staff
            # Each (group, unit) pair has its teacher (3 % of pairs an inactive one), as a coordinator allocates.
            pair_teacher = {
                (g.pk, u.pk): rng.choice(active_staff if rng.random() < 0.97 else staff)
                for g in groups
                for u in group_units[g.pk]
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
                room = rooms[f"R{rng.randint(100, 140)}"]
                rows.append(_session(org, calendar, year, group, unit, teacher, day, (start, end), room, status))
        TimetableSession.objects.bulk_create(rows, batch_size=2000)
    return org


# ------------------------------------------------------------------------------------- density "few"

SESSION_HOURS = 3
# The slots by index in the order a session tries them. Evening is the conflict rules' ``is_evening``
# (15:00-18:00 ends after 17:00, so it is one). At most three sessions fit a day without an overlap. An
# evening-only teacher tries 18:00-21:00, then 15:00-18:00 (the two fit one evening), 17:30-20:30 last; a
# session of any time the day slots first, 15:00-18:00 last (it overlaps both afternoon slots).
_DAY_ORDER = (0, 1, 2, 3)
_EVENING_ORDER = (6, 4, 5)
_ANY_ORDER = (0, 1, 2, 3, 5, 6, 4)
_CLASHING = tuple(
    tuple(j for j, (s2, e2) in enumerate(SLOTS) if s1 < e2 and s2 < e1) for s1, e1 in SLOTS
)  # each slot's overlapping slots, itself included


def _slot_order(availability: str | None) -> tuple[int, ...]:
    """The slots a teacher of ``availability`` may take without a ``teacher_unavailable`` (None: any)."""
    from project.timetabling.conflicts import is_evening

    if availability == "day":
        return tuple(i for i in _DAY_ORDER if not is_evening(*SLOTS[i]))
    if availability == "evening":
        return tuple(i for i in _EVENING_ORDER if is_evening(*SLOTS[i]))
    return _ANY_ORDER


def _shares(total: int, weights: list[float]) -> list[int]:
    """``total`` split in proportion to ``weights`` (largest remainders; all equal when the weights are 0)."""
    if not weights:
        return []
    weight_sum = sum(weights)
    if weight_sum <= 0:
        weights, weight_sum = [1.0] * len(weights), float(len(weights))
    exact = [total * w / weight_sum for w in weights]
    out = [int(x) for x in exact]
    for k in sorted(range(len(exact)), key=lambda k: out[k] - exact[k])[: total - sum(out)]:
        out[k] += 1
    return out


def _few_rows(
    rng: random.Random,
    org: Organization,
    *,
    groups: list[Any],
    group_units: dict[Any, list[Any]],
    staff: list[Any],
    qualified: set[tuple[Any, Any]],
    rooms: list[Any],
    days: list[date],
    calendar: TermCalendar,
    sessions: int,
    big_group_sessions: int,
    year: int,
) -> list[TimetableSession]:
    """The ``sessions`` rows of density "few" (module docstring): placed greedily, one at a time, on the
    least busy open day of the group where the group, a room and the teacher are free and the teacher's
    week has room; what finds no such place is placed with the fewest rules broken.

    Occupancy is kept in memory: ``group_busy[(group, day)]`` the group's slot indices that day,
    ``teacher_busy`` and ``room_busy[(day, slot)]`` the teachers and rooms booked in a slot, and
    ``week_hours[(teacher, monday)]``."""
    from project.timetabling.calendar import week_start

    big: Any = groups[0] if big_group_sessions and groups else None
    big_count = min(big_group_sessions, sessions) if big is not None else 0
    others = [g for g in groups if g is not big]
    open_days = {g.pk: [d for d in days if d >= g.start_date] or days for g in groups}
    roomed = {g.pk: g.delivery_mode != "remote" for g in groups}  # remote cohorts meet online: no room

    # Sessions per group in proportion to what the group can hold without a clash: three sessions a day
    # (no more fit without an overlap), on-campus ones no more than their share of the rooms' three a day.
    room_day = 3 * len(rooms)
    on_campus_active = {d: sum(1 for g in others if roomed[g.pk] and g.start_date <= d) for d in days}
    weights = [
        sum(min(3.0, room_day / on_campus_active[d]) if on_campus_active[d] else 3.0 for d in open_days[g.pk])
        if roomed[g.pk]
        else 3.0 * len(open_days[g.pk])
        for g in others
    ]
    counts = dict(zip([g.pk for g in others], _shares(sessions - big_count, weights), strict=True))
    if big is not None:
        counts[big.pk] = big_count

    # Each (group, unit) pair's teacher: active, qualified, the least loaded for its maximum hours (an
    # unqualified one when none is). The big group's pairs choose first, and their teachers (whose weeks are
    # over any maximum) teach no other group unless they alone hold a unit.
    active = [t for t in staff if t.is_active] or staff
    by_unit = {u.pk: [t for t in active if (t.pk, u.pk) in qualified] for us in group_units.values() for u in us}
    hours: dict[Any, float] = {t.pk: 0.0 for t in staff}  # planned hours a week
    reserved: set[Any] = set()
    pair_teacher: dict[tuple[Any, Any], Any] = {}
    pair_count: dict[tuple[Any, Any], int] = {}
    for g in groups:
        units = group_units[g.pk]
        for k, n in enumerate(_shares(counts[g.pk], [1.0] * len(units))):
            pair_count[(g.pk, units[k].pk)] = n
    # A pair's load is its hours a week over the group's weeks (groups start in different months).
    weeks_of = {g.pk: len({week_start(d) for d in open_days[g.pk]}) for g in groups}
    order = sorted(pair_count, key=lambda p: (p[0] != (big.pk if big is not None else None), -pair_count[p] / weeks_of[p[0]]))
    for gpk, upk in order:
        pool = [t for t in by_unit[upk] if t.pk not in reserved] or by_unit[upk] or [t for t in active if t.pk not in reserved]
        teacher = min(pool, key=lambda t: (hours[t.pk] / max(t.max_weekly_hours, 1), t.availability != "both", t.employee_id))
        pair_teacher[(gpk, upk)] = teacher
        hours[teacher.pk] += SESSION_HOURS * pair_count[(gpk, upk)] / weeks_of[gpk]
        if big is not None and gpk == big.pk:
            reserved.add(teacher.pk)

    group_busy: dict[tuple[Any, date], set[int]] = {}
    teacher_busy: dict[tuple[date, int], set[Any]] = {}
    room_busy: dict[tuple[date, int], set[Any]] = {}
    week_hours: dict[tuple[Any, date], float] = {}
    load: dict[date, int] = dict.fromkeys(days, 0)
    monday = {d: week_start(d) for d in days}
    room_order = list(rooms)

    def free_room(day: date, slot: int) -> Any | None:
        busy = [room_busy.get((day, j), ()) for j in _CLASHING[slot]]
        for room in room_order:
            if not any(room.pk in b for b in busy):
                return room
        return None

    def find(group: Any, teacher: Any | None, *, weekly: str, available: bool, rooms_free: bool, group_free: bool) -> Any:
        """(day, slot, room) on the group's least busy day under the rules asked for, or None."""
        slots = _slot_order(teacher.availability if teacher is not None and available else None)
        needs_room = roomed[group.pk]
        for day in sorted(open_days[group.pk], key=load.__getitem__):
            taken = group_busy.get((group.pk, day), set())
            if group_free and len(taken) >= 3:
                continue
            if teacher is not None and weekly != "any":
                booked = week_hours.get((teacher.pk, monday[day]), 0.0)
                if weekly == "within" and booked + SESSION_HOURS > teacher.max_weekly_hours:
                    continue
                if weekly == "over" and booked <= teacher.max_weekly_hours:  # only a week already over
                    continue
            for slot in slots:
                clashing = _CLASHING[slot]
                if group_free and any(j in taken for j in clashing):
                    continue
                if teacher is not None and any(teacher.pk in teacher_busy.get((day, j), ()) for j in clashing):
                    continue
                room = free_room(day, slot) if needs_room else None
                if needs_room and room is None:
                    if rooms_free:
                        continue
                    room = room_order[rng.randrange(len(room_order))]
                return day, slot, room
        return None

    # The sessions: each group's units taken in turn, the groups interleaved so that all fill alike.
    # The pairs of evening-only teachers first (a group fits one or two evening sessions a day), then those
    # of day-only teachers, then the rest.
    phase = {"evening": 0, "day": 1}
    queue: list[tuple[int, float, int, Any, Any]] = []
    for gi, g in enumerate(groups):
        units = group_units[g.pk]
        for k in range(counts[g.pk]):
            unit = units[k % len(units)]
            first = -1 if g is big else phase.get(pair_teacher[(g.pk, unit.pk)].availability, 2)
            queue.append((first, k / max(counts[g.pk], 1), gi, g, unit))
    queue.sort(key=lambda q: q[:3])
    rows: list[TimetableSession] = []
    for entry in queue:
        group, unit = entry[3], entry[4]
        status = "cancelled" if rng.random() < 0.03 else rng.choice(["scheduled", "scheduled", "confirmed", "completed"])
        teacher = None if rng.random() < 0.05 else pair_teacher[(group.pk, unit.pk)]
        if group is big:
            # ~5,000 sessions of one group overlap one another whatever happens: spread over its days and
            # slots, roomless, taught by teachers of its own, so they clash only with themselves.
            n = len(rows)
            day = open_days[group.pk][(n * 7) % len(open_days[group.pk])]
            slots = _slot_order(teacher.availability if teacher is not None else None)
            place: Any = (day, slots[(n // 7) % len(slots)], None)
        elif status == "cancelled":  # a cancelled session never conflicts: any free time of the group
            place = find(group, None, weekly="any", available=False, rooms_free=False, group_free=True)
            place = place or (open_days[group.pk][rng.randrange(len(open_days[group.pk]))], 0, None)
            place = (place[0], place[1], None if not roomed[group.pk] else place[2])
        else:
            place = None
            # Every rule first; then in a week of the teacher already over the maximum (one more row of it),
            # outside the teacher's availability (this row), over the teacher's week (the week's rows), in a
            # booked room, and last (no free time of the group left) anywhere.
            for relax in range(6):
                place = find(
                    group,
                    teacher,
                    weekly=("within", "over", "within", "any", "any", "any")[relax],
                    available=relax < 2,
                    rooms_free=relax < 4,
                    group_free=relax < 5,
                )
                if place is not None:
                    break
        day, slot, room = place
        start, end = SLOTS[slot]
        if status != "cancelled":
            group_busy.setdefault((group.pk, day), set()).add(slot)
            load[day] += 1
            if teacher is not None:
                teacher_busy.setdefault((day, slot), set()).add(teacher.pk)
                week_hours[(teacher.pk, monday[day])] = week_hours.get((teacher.pk, monday[day]), 0.0) + SESSION_HOURS
            if room is not None:
                room_busy.setdefault((day, slot), set()).add(room.pk)
        rows.append(_session(org, calendar, year, group, unit, teacher, day, (start, end), room, status))
    return rows


def _session(
    org: Organization,
    calendar: TermCalendar,
    year: int,
    group: Any,
    unit: Any,
    teacher: Any,
    day: date,
    slot: tuple[time, time],
    room: Any,
    status: str,
) -> TimetableSession:
    """One seeded session of ``SESSION_HOURS`` (0 when cancelled) on ``day`` at ``slot`` (start, end), in
    ``room`` (a Room record, or None: online): its weekday, week of the year (Monday to Sunday weeks from
    the one holding 1 January) and term filled in."""
    from project.timetabling.calendar import week_start
    from project.timetabling.models import TimetableSession

    start, end = slot
    return TimetableSession(
        organization=org,
        block_group=group,
        unit=unit,
        teacher=teacher,
        day_of_week=day.isoweekday(),
        start_time=start,
        end_time=end,
        room=room.code if room is not None else "",
        room_record=room,
        week_number=(week_start(day) - week_start(date(year, 1, 1))).days // 7 + 1,
        actual_date=day,
        term=calendar.term_of(day),
        actual_hours=Decimal(0) if status == "cancelled" else Decimal(SESSION_HOURS),
        status=status,
    )


def delete_org(org: Organization) -> None:
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
    parser.add_argument("--density", choices=DENSITIES, default="random", help="random slots, or few conflicts")
    args = parser.parse_args()
    org = seed_large_org(name=args.name, teachers=args.teachers, sessions=args.sessions, year=args.year, density=args.density)
    from project.timetabling.models import TimetableSession

    count = TimetableSession.objects.unscoped().filter(organization=org).count()
    print(f"seeded {org.name} ({org.pk}) domain {org.domain}: {count} sessions; admin@{org.domain} / {BENCH_PASSWORD}")


if __name__ == "__main__":
    main()
