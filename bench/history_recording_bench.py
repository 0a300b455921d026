"""Benchmark: what recording the history costs a bulk write (docs/adr/0012).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench_recording .venv/bin/python bench/history_recording_bench.py

Seeds its own organization (the database must exist; it is migrated), then times, alternating, with the
history recorded (the activity row and the before/after capture of every row) and without it (the
activity recorder replaced by a no-op for the baseline run only):

- a 400-session schedule generation of one block group, cleared between runs: the request as a
  coordinator makes it (``POST /api/block-groups/{id}/schedule`` through Django's test client, signed
  in) and, for a closer look, the service call alone (``block_group_schedule``);
- a 2,000-session auto-allocation apply (``POST /api/timetables/auto-allocate`` with ``apply``, explicit
  assignments and version, as the SPA's "Apply" sends them), the teachers reset between runs.

Prints p50 of each and the overhead. Target: under 20% (ADR 0012). Cleans up after itself.
"""

from __future__ import annotations

import os
import statistics
import sys
from datetime import date
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import HistoryOff, setup_django, timed  # noqa: E402

setup_django("bench-recording.sqlite3")

from django.test import Client  # noqa: E402

from project.accounts.models import Organization, User  # noqa: E402
from project.catalogue.models import Unit  # noqa: E402
from project.core.tenancy import Ctx  # noqa: E402
from project.history.models import Activity, ActivityChange  # noqa: E402
from project.planning.models import BlockGroup, BlockGroupStudyPlan, StudyPlan, StudyPlanUnit  # noqa: E402
from project.staff.models import Teacher, TeacherUnit  # noqa: E402
from project.timetabling import auto_allocation as aa  # noqa: E402
from project.timetabling.models import TimetableSession  # noqa: E402
from project.timetabling.scheduling.schemas import ScheduleIn  # noqa: E402
from project.timetabling.scheduling.services import block_group_schedule, block_group_schedule_clear  # noqa: E402

RUNS = int(os.environ.get("RUNS", "7"))
DOMAIN = "bench-recording.example"


def plan_of(org, code: str, units: list, hours_each: int) -> StudyPlan:
    plan = StudyPlan.objects.for_org(org).create(organization=org, name=f"Plan {code}")
    for n, unit in enumerate(units, start=1):
        StudyPlanUnit.objects.for_org(org).create(
            organization=org, study_plan=plan, unit=unit, sequence_order=n, face_to_face_hours=Decimal(hours_each)
        )
    return plan


def group_of(org, code: str, plan: StudyPlan, days: str = "Monday, Tuesday, Wednesday, Thursday, Friday") -> BlockGroup:
    group = BlockGroup.objects.for_org(org).create(
        organization=org,
        code=code,
        name=code,
        cohort_size=20,
        start_date=date(2027, 1, 4),
        preferred_days=days,
        status=BlockGroup.Status.ACTIVE,
    )
    BlockGroupStudyPlan.objects.for_org(org).create(organization=org, block_group=group, study_plan=plan)
    return group


def request(start_date: date | None = None) -> ScheduleIn:
    return ScheduleIn.model_validate(
        {
            "sessionTemplates": [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}],
            **({"startDate": start_date.isoformat()} if start_date else {}),
        }
    )


def report(label: str, on: list[float], off: list[float]) -> None:
    p_on, p_off = statistics.median(on), statistics.median(off)
    print(
        f"{label}: with history p50 {p_on:.0f} ms, without {p_off:.0f} ms, overhead {100 * (p_on - p_off) / p_off:+.1f}% "
        "(target < 20%)"
    )


def clean() -> None:
    for org in Organization.objects.filter(domain=DOMAIN):
        TimetableSession.objects.for_org(org).delete()
        StudyPlanUnit.objects.for_org(org).delete()
        org.delete()


def main() -> None:
    clean()
    try:
        run()
    finally:
        clean()


def run() -> None:
    org = Organization.objects.create(name="Recording bench", domain=DOMAIN)
    user = User.objects.create_user(
        f"bench@{DOMAIN}", password=None, organization=org, role="admin", first_name="Bench", last_name="User"
    )
    ctx = Ctx(org=org, user=user, origin="bench")
    units = [
        Unit.objects.for_org(org).create(organization=org, code=f"BU{n:03}", name=f"Bench unit {n}", nominal_hours=120)
        for n in range(10)
    ]

    # 1. Schedule generation: 10 units x 120 h in 3-hour sessions = 400 sessions.
    big = group_of(org, "BENCH-400", plan_of(org, "400", units, 120))
    client = Client(HTTP_HOST="localhost", enforce_csrf_checks=False)
    client.force_login(user)
    body = {"sessionTemplates": [{"startTime": "09:00:00", "endTime": "12:00:00", "duration": 3}]}

    def by_request():
        r = client.post(f"/api/block-groups/{big.id}/schedule", body, content_type="application/json")
        assert r.status_code == 200 and r.json()["sessionsCreated"] == 400, r.content

    def by_service():
        block_group_schedule(ctx=ctx, block_group_id=big.id, data=request())

    print(
        "schedule generation of 400 sessions, cleared between runs, "
        f"{RUNS} runs each ({os.environ['DATABASE_URL'].split(':')[0]}):"
    )
    for label, generate in (
        ("  POST /api/block-groups/{id}/schedule", by_request),
        ("  block_group_schedule() alone", by_service),
    ):
        on, off = [], []
        for run in range(RUNS):
            for mode, sink in (("on", on), ("off", off)) if run % 2 == 0 else (("off", off), ("on", on)):
                if mode == "off":
                    with HistoryOff():
                        sink.append(timed(generate))
                else:
                    sink.append(timed(generate))
                with HistoryOff():
                    block_group_schedule_clear(ctx=ctx, block_group_id=big.id)
        report(label, on, off)

    # 2. Auto-allocation apply: 10 groups x 200 sessions, one qualified teacher per group.
    teachers, groups = [], []
    plan = plan_of(org, "200", units[:5], 120)
    for g in range(10):
        group = group_of(org, f"BENCH-AA-{g}", plan)
        with HistoryOff():
            block_group_schedule(ctx=ctx, block_group_id=group.id, data=request())
        groups.append(group)
        teacher = Teacher.objects.for_org(org).create(
            organization=org,
            employee_id=f"BT{g}",
            first_name="Teacher",
            last_name=f"{g}",
            email=f"t{g}@{DOMAIN}",
            availability="both",
            max_weekly_hours=40,
        )
        for unit in units[:5]:
            TeacherUnit.objects.for_org(org).create(organization=org, teacher=teacher, unit=unit)
        teachers.append(teacher)
    ids = [str(g.id) for g in groups]
    sessions = list(TimetableSession.objects.for_org(org).filter(block_group_id__in=ids).values_list("id", "block_group_id"))
    teacher_of = {g.id: t.id for g, t in zip(groups, teachers, strict=False)}
    assignments = [(sid, teacher_of[gid]) for sid, gid in sessions]
    scope = aa.Scope(session_ids=[sid for sid, _g in sessions])
    problem = aa.load_problem(ctx, scope)
    on, off = [], []
    for run in range(RUNS):
        for mode, sink in (("on", on), ("off", off)) if run % 2 == 0 else (("off", off), ("on", on)):
            version = aa._version(ctx, problem.lo, problem.hi, [s.id for s in problem.targets])  # as a proposal gives it

            def apply(version=version):
                r = client.post(
                    "/api/timetables/auto-allocate",
                    {
                        "sessionIds": [str(sid) for sid, _g in sessions],
                        "apply": True,
                        "version": version,
                        "assignments": [{"sessionId": str(s), "teacherId": str(t)} for s, t in assignments],
                    },
                    content_type="application/json",
                )
                assert r.status_code == 200, r.content[:500]
                result = r.json()
                assert result["applied"] and len(result["assignments"]) == len(sessions), "every session allocated"

            if mode == "off":
                with HistoryOff():
                    sink.append(timed(apply))
            else:
                sink.append(timed(apply))
            TimetableSession.objects.for_org(org).filter(block_group_id__in=ids).update(teacher=None)
    print(f"auto-allocation apply of {len(sessions)} sessions, {RUNS} runs each:")
    report("  POST /api/timetables/auto-allocate (apply)", on, off)
    changes = ActivityChange.objects.for_org(org).count()
    print(
        f"recorded {Activity.objects.for_org(org).count()} activities, {changes} captured writes "
        f"({os.environ['DATABASE_URL'].split(':')[0]})"
    )


if __name__ == "__main__":
    main()
