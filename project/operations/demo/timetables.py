"""The demo's timetables: sessions generated for the demo block groups that have none yet, and teachers
allocated to them.

The generator is deliberately small and self-contained (it follows docs/behaviour/generation.md in spirit: preferred
days, templates, holidays as cancelled sessions, units in plan order); the product's scheduling service
is not used.
"""

from __future__ import annotations

import calendar as pycalendar
from datetime import date, time, timedelta
from decimal import Decimal
from typing import TYPE_CHECKING
from uuid import UUID

from django.utils import timezone

from project.catalogue.models import Unit
from project.operations.demo.content import GROUPS, GroupSpec
from project.operations.demo.sync import Stats
from project.planning.days import parse_preferred_days
from project.planning.models import BlockGroup, StudyPlan, StudyPlanUnit
from project.staff.models import Teacher, TeacherUnit
from project.timetabling.calendar import TermCalendar, holiday_by_date, holiday_spans, week_start
from project.timetabling.models import Holiday, TimetableSession

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import Organization


def session_hours(start: time, end: time) -> Decimal:
    """The hours from ``start`` to ``end``, to 2 decimals."""
    return Decimal((end.hour * 60 + end.minute - start.hour * 60 - start.minute) / 60).quantize(Decimal("0.01"))


def _plus(start: time, hours: Decimal) -> time:
    minutes = start.hour * 60 + start.minute + int(hours * 60)
    return time(minutes // 60, minutes % 60)


def add_month(day: date) -> date:
    """The same day of the next month (its last day when the month is shorter)."""
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    return day.replace(year=year, month=month, day=min(day.day, pycalendar.monthrange(year, month)[1]))


def generate_sessions(
    spec: GroupSpec, group: BlockGroup, plan_units: list[StudyPlanUnit], holidays: list[Holiday]
) -> list[TimetableSession]:
    """Sessions of one block group, unsaved: units in plan order, each for its facilitated hours, on the
    preferred days from the start date, filling the day's templates in order (a unit's last session ends
    early). A day inside an active holiday or term break gets one cancelled session per template (0 hours,
    notes naming it). Stops when the plan is delivered or at ``spec.timetable_until`` (none without one)."""
    until = spec.timetable_until
    if until is None:
        return []
    days = set(parse_preferred_days(spec.preferred_days))
    active = [h for h in holidays if h.is_active]
    closed = holiday_by_date(holiday_spans(active, spec.start, until))
    # Only breaks inside one calendar year separate terms: the summer break (December to late January)
    # would otherwise count as a break "of the year" it ends in and make February term 2.
    terms = TermCalendar(
        (h.start_date, h.end_date) for h in active if h.type == Holiday.Type.TERM_BREAK and h.start_date.year == h.end_date.year
    )
    queue: list[tuple[Unit, Decimal]] = [(pu.unit, pu.facilitated_hours) for pu in plan_units if pu.facilitated_hours > 0]
    first_week = week_start(spec.start)
    sessions: list[TimetableSession] = []
    day = spec.start
    while queue and day <= until:
        if day.isoweekday() in days:
            common = {
                "organization_id": group.organization_id,
                "block_group": group,
                "day_of_week": day.isoweekday(),
                "week_number": (week_start(day) - first_week).days // 7 + 1,
                "actual_date": day,
                "term": terms.term_of(day),
                "room": spec.room,
            }
            span = closed.get(day)
            for start, end in spec.templates:
                if span is not None:
                    kind = "Public holiday" if span.type == Holiday.Type.PUBLIC_HOLIDAY else "Term break"
                    sessions.append(
                        TimetableSession(
                            unit=queue[0][0],
                            start_time=start,
                            end_time=end,
                            actual_hours=Decimal("0"),
                            status=TimetableSession.Status.CANCELLED,
                            notes=f"{kind}: {span.name}",
                            **common,
                        )
                    )
                    continue
                if not queue:
                    break
                unit, left = queue[0]
                hours = min(session_hours(start, end), left)
                sessions.append(
                    TimetableSession(
                        unit=unit,
                        start_time=start,
                        end_time=_plus(start, hours),
                        actual_hours=hours,
                        status=spec.session_status,
                        notes="",
                        **common,
                    )
                )
                queue[0] = (unit, left - hours)
                if left - hours <= 0:
                    queue.pop(0)
        day += timedelta(days=1)
    return sessions


Bookings = dict[tuple[UUID, date], list[tuple[time, time]]]
"""(teacher id, date) -> the teacher's sessions that day as (start, end)."""


class Allocator:
    """Assigns qualified, active, available teachers to sessions without double-booking anyone or going
    over their weekly maximum; keeps one teacher per group and unit where possible."""

    def __init__(self, teachers: list[Teacher], qualified: dict[UUID, set[UUID]], busy: Bookings | None = None) -> None:
        self.teachers = sorted(teachers, key=lambda t: t.employee_id)
        self.qualified = qualified  # unit id -> set of teacher ids
        self.busy: Bookings = busy or {}
        self.week_hours: dict[tuple[UUID, date], Decimal] = {}  # (teacher id, week start) -> hours
        self.choice: dict[tuple[UUID, UUID], UUID] = {}  # (group id, unit id) -> teacher id

    def _fits(self, t: Teacher, s: TimetableSession) -> bool:
        if not t.is_active or t.pk not in self.qualified.get(s.unit_id, ()):
            return False
        if t.expiry_date is not None and s.actual_date > t.expiry_date:
            return False
        evening = s.start_time >= time(17) or s.end_time > time(17)
        if (evening and t.availability == "day") or (not evening and t.availability == "evening"):
            return False
        for a, b in self.busy.get((t.pk, s.actual_date), ()):
            if s.start_time < b and a < s.end_time:
                return False
        week = (t.pk, week_start(s.actual_date))
        return self.week_hours.get(week, Decimal("0")) + s.actual_hours <= t.max_weekly_hours

    def assign(self, s: TimetableSession) -> None:
        key = (s.block_group.pk, s.unit_id)
        preferred = self.choice.get(key)
        ordered = sorted(self.teachers, key=lambda t: (t.pk != preferred, t.employee_id))
        for t in ordered:
            if self._fits(t, s):
                s.teacher = t
                self.busy.setdefault((t.pk, s.actual_date), []).append((s.start_time, s.end_time))
                week = (t.pk, week_start(s.actual_date))
                self.week_hours[week] = self.week_hours.get(week, Decimal("0")) + s.actual_hours
                self.choice.setdefault(key, t.pk)
                return


def seed_timetables(
    org: Organization, groups: dict[str, BlockGroup], plans: dict[str, StudyPlan], holidays: list[Holiday], stats: Stats
) -> None:
    """Generate sessions for the demo groups that have a timetable and no sessions yet; set their end date
    to the last teaching day plus one month."""
    teachers = list(Teacher.objects.for_org(org))
    qualified: dict[UUID, set[UUID]] = {}
    for unit_id, teacher_id in TeacherUnit.objects.for_org(org).values_list("unit_id", "teacher_id"):
        qualified.setdefault(unit_id, set()).add(teacher_id)
    busy: Bookings = {}
    for tid, day, a, b in (
        TimetableSession.objects.for_org(org)
        .exclude(teacher=None)
        .exclude(status=TimetableSession.Status.CANCELLED)
        .values_list("teacher_id", "actual_date", "start_time", "end_time")
    ):
        busy.setdefault((tid, day), []).append((a, b))
    allocator = Allocator(teachers, qualified, busy)
    has_sessions = set(
        TimetableSession.objects.for_org(org)
        .filter(block_group__in=groups.values())
        .values_list("block_group_id", flat=True)
        .distinct()
    )
    plan_units = {
        code: list(StudyPlanUnit.objects.for_org(org).filter(study_plan=plan).select_related("unit").order_by("sequence_order"))
        for code, plan in plans.items()
    }
    created: list[TimetableSession] = []
    changed_groups: list[BlockGroup] = []
    for spec in GROUPS:
        if spec.timetable_until is None:
            continue
        group = groups[spec.code]
        sessions = generate_sessions(spec, group, plan_units[spec.course], holidays)
        teaching = [s for s in sessions if s.status != TimetableSession.Status.CANCELLED]
        end_date = add_month(teaching[-1].actual_date) if teaching else None
        if group.end_date != end_date:
            group.end_date = end_date
            group.updated_at = timezone.now()
            changed_groups.append(group)
        if group.pk in has_sessions:
            continue
        for s in teaching:
            if spec.allocate_until is None or s.actual_date <= spec.allocate_until:
                allocator.assign(s)
        created.extend(sessions)
    if created:
        TimetableSession.objects.for_org(org).bulk_create(created, batch_size=500)
    if changed_groups:
        BlockGroup.objects.for_org(org).bulk_update(changed_groups, ["end_date", "updated_at"])
    stats.add("timetable sessions", len(created), 0)
