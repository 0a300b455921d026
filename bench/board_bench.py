"""Benchmark: the planner board in Chromium on the 30,000-session organization (ADR 0026).

- the term view (10 weeks) of a 400-session block group (the one whose count is nearest 400, at its
  busiest term) and of the busiest block group (5,000 sessions, 960 in its busiest term): milliseconds from
  its data arriving (the body of ``GET /api/board`` read) to every card the board gave the calendar in the
  page (a day of the term view shows at most four: three sessions and "+n more" when crowded, ADR 0026);
  target < 300 ms;
- a drag over the week view of the campus (every block group, 150 teachers) in its busiest week:
  Chromium's long-task observer during the drag (down, across every day and back, up where it started,
  so nothing is written); target: no task over 50 ms.

Each figure is wall time, as the targets are; beside it, from a Chromium trace of the same run, the main
thread's CPU time (the render's, and the longest task's): on a machine shared with other work the wall
time includes the time the thread waited for a core, and the CPU time says what the page itself spent.

One command from the repository root, after ``cd spa && npm run build`` (daphne serves ``spa/dist``)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_board_bench .venv/bin/python bench/board_bench.py [--runs 3]

It seeds the large organization of ``bench/reads_bench.py`` in that database on first run (reused after),
starts one daphne process on a free port and runs ``bench/board_bench.mjs`` (playwright-core, Debian's
Chromium) against it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bp_board_bench")

TERM_WEEKS = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not (ROOT / "spa" / "dist" / "index.html").exists():
        sys.exit("build the SPA first: cd spa && npm run build")
    from bench.reads_bench import free_port, setup, start_daphne
    from bench.seed_large import BENCH_PASSWORD

    url, org = setup(reseed=False)
    from django.db.models import Count
    from django.db.models.functions import TruncWeek

    from project.accounts.models import User
    from project.catalogue.models import Campus
    from project.planning.models import BlockGroup
    from project.timetabling.models import TimetableSession

    def busiest_term(group_id):
        weeks = dict(
            TimetableSession.objects.for_org(org)
            .filter(block_group_id=group_id)
            .annotate(week=TruncWeek("actual_date"))
            .values("week")
            .annotate(n=Count("id"))
            .values_list("week", "n")
        )
        return max(sorted(weeks), key=lambda w: sum(weeks.get(w + timedelta(weeks=i), 0) for i in range(TERM_WEEKS)))

    counted = BlockGroup.objects.for_org(org).annotate(n=Count("sessions"))
    group = counted.order_by("-n").first()
    assert group is not None
    first = busiest_term(group.pk)
    group400 = min(counted, key=lambda g: (abs(g.n - 400), g.code))
    first400 = busiest_term(group400.pk)
    campus = Campus.objects.for_org(org).first()
    assert campus is not None
    busiest = (
        TimetableSession.objects.for_org(org)
        .annotate(week=TruncWeek("actual_date"))
        .values("week")
        .annotate(n=Count("id"))
        .order_by("-n")
        .values_list("week", "n")
        .first()
    )
    assert busiest is not None
    admin = User.objects.filter(organization=org, role="admin").order_by("email").first()
    assert admin is not None
    port = free_port()
    proc, log = start_daphne(url, port)
    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    try:
        base = f"http://127.0.0.1:{port}"
        env = {
            **os.environ,
            "BASE_URL": base,
            "EMAIL": admin.email,
            "PASSWORD": BENCH_PASSWORD,
            "TERM_URL": f"{base}/planner/block-group/{group.pk}?view=term&date={first:%Y-%m-%d}",
            "TERM400_URL": f"{base}/planner/block-group/{group400.pk}?view=term&date={first400:%Y-%m-%d}",
            "WEEK_URL": f"{base}/planner/campus/{campus.pk}?view=week&date={busiest[0]:%Y-%m-%d}",
            "RUNS": str(args.runs),
        }
        out = subprocess.run(
            ["node", str(ROOT / "bench" / "board_bench.mjs")], env=env, capture_output=True, text=True, timeout=900
        )
        if out.returncode != 0:
            sys.exit(f"board_bench.mjs failed:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}")
        figures = json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    renders, renders400, drags = figures["renders"], figures["renders400"], figures["drags"]
    print(f"load average before / after: {load_before} / {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")

    def term(label, rs, start):
        ms = [r["ms"] for r in rs]
        cpu = [r["cpuMs"] for r in rs]
        print(
            f"term view of {label} ({rs[0]['n']} sessions in the {TERM_WEEKS} weeks from {start:%Y-%m-%d}, "
            f"{rs[0]['cards']} cards): data to cards median {statistics.median(ms):.0f} ms, "
            f"runs {[round(x) for x in ms]}; main-thread CPU median {statistics.median(cpu):.0f} ms, "
            f"runs {[round(x) for x in cpu]} (target < 300 ms)"
        )

    term(f"{group400.code}, {group400.n} sessions", renders400, first400)
    term(f"{group.code}, {group.n} sessions (the busiest)", renders, first)
    print(
        f"drag over the campus week of {busiest[0]:%Y-%m-%d} ({drags[0]['n']} sessions): longest task per drag "
        f"{[round(d['maxMs']) for d in drags]} ms, long tasks per drag {[d['longTasks'] for d in drags]}; "
        f"longest task's CPU time per drag {[round(d['maxCpuMs']) for d in drags]} ms (target: none over 50 ms)"
    )


if __name__ == "__main__":
    main()
