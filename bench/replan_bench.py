"""Benchmark: re-planning on the large organization (ADR 0015).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_reads_large .venv/bin/python bench/replan_bench.py [--runs N]

Uses the organization of ``bench/reads_bench.py`` (seeded on first use: 35,000 sessions, 80 block groups
sharing 41 rooms, 150 teachers). Measures, through the service functions (``project.timetabling.replan.services``,
no HTTP):

- a closure of the three consecutive days with the most sessions (about 400 sessions of every block
  group; the seed has 80): the impact, the proposal (both options, make-up and shift, ADR 0015), and the
  apply of each option, rolled back after it is timed so that the organization stays as seeded;
- the teacher with the most sessions on leave for three weeks: the proposal (re-allocation by CP-SAT)
  and the apply (rolled back).

Targets: a proposal under 5 s (both options), an apply under 2 s (the apply re-checks the final state of
every session it touches). Prints p50 of ``--runs`` (default 3) and each option's figures.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import Rollback, admin_ctx, runs_argument  # noqa: E402
from bench.reads_bench import setup  # noqa: E402

CPU: list[tuple[str, float]] = []  # (what, this process's CPU ms): the work without the wait for a core


def timed(fn, what: str = ""):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    CPU.append((what, (time.process_time() - c0) * 1000))
    return (time.perf_counter() - t0) * 1000, out


def cpu(what: str) -> str:
    values = [ms for w, ms in CPU if w == what]
    return f"{statistics.median(values):.0f}" if values else "-"


def main() -> None:
    runs = runs_argument(__doc__.splitlines()[0], 3)
    _url, org = setup(False)

    from django.db import connection, transaction

    from project.timetabling.replan import services as replan

    ctx = admin_ctx(org)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT d, (SELECT count(*) FROM timetabling_timetablesession s WHERE s.organization_id = %s "
            "AND s.status <> 'cancelled' AND s.actual_date BETWEEN d AND d + 2) AS n "
            "FROM (SELECT DISTINCT actual_date AS d FROM timetabling_timetablesession WHERE organization_id = %s) x "
            "ORDER BY n DESC, d LIMIT 1",
            [org.pk, org.pk],
        )
        start, _n = cursor.fetchone()
        cursor.execute(
            "SELECT teacher_id, min(actual_date) FROM timetabling_timetablesession WHERE organization_id = %s "
            "AND teacher_id IS NOT NULL AND status <> 'cancelled' GROUP BY teacher_id ORDER BY count(*) DESC LIMIT 1",
            [org.pk],
        )
        teacher_id, first = cursor.fetchone()

    cases = [
        ("closure of 3 days", replan.replan_change(org, start=start, end=start + timedelta(days=2))),
        ("3 weeks of leave", replan.replan_change(org, teacher_id=teacher_id, start=first, end=first + timedelta(days=20))),
    ]
    for label, change in cases:
        impact_ms, impact = [], None
        propose_ms, proposal = [], None
        apply_ms: dict[str, list[float]] = {}
        for _ in range(runs):
            ms, impact = timed(lambda change=change: replan.replan_impact(org, change))
            impact_ms.append(ms)
            ms, proposal = timed(lambda change=change: replan.replan_propose(ctx, change), f"{label} propose")
            propose_ms.append(ms)
            for option in proposal["options"]:
                try:
                    with transaction.atomic():
                        ms, _done = timed(
                            lambda proposal=proposal, option=option: replan.replan_apply(
                                ctx, proposal["id"], version=proposal["version"], option=option["key"]
                            ),
                            f"{label} apply {option['key']}",
                        )
                        apply_ms.setdefault(option["key"], []).append(ms)
                        raise Rollback
                except Rollback:
                    pass
        print(f"\n{label}: {change.description}, {change.start} to {change.end}")
        print(f"  hits {impact['sessionCount']} sessions of {impact['blockGroupCount']} block groups, {impact['hours']} hours")
        print(
            f"  impact p50 {statistics.median(impact_ms):.0f} ms; proposal p50 {statistics.median(propose_ms):.0f} ms "
            f"(target < 5,000; CPU of this process {cpu(label + ' propose')} ms, CP-SAT's two workers included)"
        )
        for option in proposal["options"]:
            f = option["figures"]
            mark = " (preselected)" if option["key"] == proposal["preselected"] else ""
            print(
                f"  {option['label']}{mark}: {f['sessionsMoved']} moved, {f['hoursMovedToOtherWeek']} h to another week, "
                f"{f['teachersChanged']} sessions with another teacher, {f['unresolved']} unresolved, "
                f"{len(f['endDatesExtended'])} end dates extended; apply p50 "
                f"{statistics.median(apply_ms[option['key']]):.0f} ms (target < 2,000; CPU of this process "
                f"{cpu(label + ' apply ' + option['key'])} ms), {runs} runs"
            )
    print(f"\nmachine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
