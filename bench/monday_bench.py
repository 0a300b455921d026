"""Load test with Locust, one command, headless: "Monday morning" on the large organization (docs/benchmarks.md).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench_reads [REDIS_URL=redis://127.0.0.1:6379/9] \\
        .venv/bin/python bench/monday_bench.py [--run-time 10m] [--host http://localhost:8080]
    ... bench/monday_bench.py --scenario reads --users 32 --run-time 20s   # reads_bench.py --clients' mix

Seeds (first run) or reuses the organization of ``bench/reads_bench.py`` (35,000 sessions, 80 block
groups, 150 teachers; ``--density few``: the same sizes placed to avoid conflicts, as a provider's
timetable is, instead of the random slots where most rows carry one), makes a wall-display link,
writes the configuration of ``bench/locust/monday.py`` and runs ``locust --headless`` (``locust`` is in pyproject's test extra). Without ``--host`` it starts ONE
daphne process on a free port (with ``REDIS_URL`` when set) and stops it afterwards; with ``--host`` it
loads a running deployment on the same database, e.g. the two-process cluster::

    CLUSTER_PORT=8080 scripts/cluster.sh start 2 && .venv/bin/python bench/monday_bench.py --host http://localhost:8080

Scenario ``monday``: ``--browsers`` (40) coordinators browsing with think time and ``--writers`` (10)
writing ones, all with their socket open, and ``--displays`` (20) wall displays (see the locustfile).
Prints per call requests, requests/s, p50 and p99, reads and writes together, and how long after each
write every socket had the event and every affected screen had refetched. Writes change the seeded
organization (session notes, allocations, one regenerated block group per writer): figures of later
runs are comparable, its timetable is no longer the seed's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.reads_bench import BIG, free_port, pick_reads, setup  # noqa: E402
from bench.seed_large import BENCH_PASSWORD  # noqa: E402


def configure(org, args) -> dict:
    from django.db.models import Count

    from project.accounts.models import User
    from project.displays.models import DisplayLink
    from project.planning.models import BlockGroup, BlockGroupStudyPlan
    from project.staff.models import Teacher
    from project.timetabling.calendar import week_start
    from project.timetabling.models import TimetableSession

    groups = list(
        BlockGroup.objects.for_org(org)
        .annotate(n=Count("sessions"))
        .filter(n__lt=BIG)
        .order_by("code")
        .values_list("id", flat=True)
    )
    planned = set(BlockGroupStudyPlan.objects.for_org(org).values_list("block_group_id", flat=True))
    writer_groups = [g for g in groups if g in planned and BlockGroup.objects.get(pk=g).status in ("planned", "active")]
    admin = User.objects.filter(organization=org, role="admin").order_by("created_at").first()
    link = DisplayLink.objects.for_org(org).filter(name="Monday bench", revoked_at=None).first()
    if link is None:
        link = DisplayLink.objects.create(organization=org, name="Monday bench", created_by=admin)
    first = (
        TimetableSession.objects.for_org(org).order_by("actual_date").values_list("actual_date", flat=True).first()
        or date.today()
    )
    leave_start = first + timedelta(days=(7 - first.weekday()) % 7 + 21)  # a Monday a few weeks in
    return {
        "scenario": args.scenario,
        "email": admin.email,
        "password": BENCH_PASSWORD,
        "groups": [str(g) for g in groups],
        "writer_groups": [str(g) for g in writer_groups[-args.writers :]] or [str(groups[0])],
        "writer_index": 0,
        # Sessions dated before their group's start date or shorter than half an hour are in the seed
        # (random slots) but refused when saved: writers edit the others.
        "group_starts": {str(g): s.isoformat() for g, s in BlockGroup.objects.for_org(org).values_list("id", "start_date") if s},
        "teachers": [str(t) for t in Teacher.objects.for_org(org).filter(is_active=True).values_list("id", flat=True)[:60]],
        "display_token": link.token,
        # The displays show Monday's board (``?date=``) whatever the day of the run, as on a Monday morning:
        # a generated schedule's preferred days (the seed's groups: Monday, Wednesday) then meet the boards'
        # day, where on a Friday no generation would concern a board. ``--board-day today``: the day of the run.
        "board_date": None if args.board_day == "today" else week_start(date.today()).isoformat(),
        "leave_start": leave_start.isoformat(),
        "leave_end": (leave_start + timedelta(days=4)).isoformat(),
        "browsers": args.browsers,
        "writers": args.writers,
        "displays": args.displays,
        "users": args.users,
        "reads": [[label, path] for label, (path, _) in pick_reads(org).items()],
        "sessions": [],  # filled by sign_in() once the server runs
    }


def sign_in(host: str, email: str, password: str, n: int) -> list[str]:
    """``n`` real password sign-ins through ``host`` (4 at a time), before the load starts: each user's
    cookies as a ``Cookie`` header (whatever the deployment names them; Secure ones too)."""
    import http.client
    from concurrent.futures import ThreadPoolExecutor
    from http.cookies import SimpleCookie
    from urllib.parse import urlparse

    parsed = urlparse(host)

    def one(_i: int) -> str:
        conn = http.client.HTTPConnection(parsed.hostname, parsed.port or 80, timeout=120)
        jar: dict[str, str] = {}

        def keep(response) -> None:
            for header in response.headers.get_all("Set-Cookie") or []:
                jar.update({k: m.value for k, m in SimpleCookie(header).items()})

        conn.request("GET", "/api/auth/user", headers={"Host": parsed.netloc})
        response = conn.getresponse()
        response.read()
        keep(response)
        csrf = next(v for k, v in jar.items() if "csrf" in k)
        headers = {
            "Host": parsed.netloc,
            "Origin": host,
            "Content-Type": "application/json",
            "X-CSRFToken": csrf,
            "Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()),
        }
        conn.request("POST", "/api/auth/login", body=json.dumps({"email": email, "password": password}), headers=headers)
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            sys.exit(f"sign-in through {host} answered {response.status}: {body[:300]!r}")
        keep(response)
        conn.close()
        return "; ".join(f"{k}={v}" for k, v in jar.items())

    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(one, range(n)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=("monday", "reads"), default="monday")
    parser.add_argument("--run-time", default="10m", help="Locust's --run-time (10m: the scenario; 2m for a quick run)")
    parser.add_argument("--host", default="", help="a running deployment on the same database (default: start one daphne)")
    parser.add_argument("--browsers", type=int, default=40)
    parser.add_argument("--writers", type=int, default=10)
    parser.add_argument("--displays", type=int, default=20)
    parser.add_argument("--users", type=int, default=32, help="readers of --scenario reads")
    parser.add_argument("--spawn-rate", type=float, default=10)
    parser.add_argument(
        "--board-day",
        choices=("monday", "today"),
        default="monday",
        help="the day the wall displays show: this week's Monday (default, a Monday morning) or the day of the run",
    )
    parser.add_argument(
        "--density",
        choices=("random", "few"),
        default="random",
        help="the organization's conflicts: random slots (most rows in conflict) or few (placed to avoid them)",
    )
    args = parser.parse_args()

    _url, org = setup(False, args.density)
    config = configure(org, args)
    from django.db import connections

    connections.close_all()
    proc = log = None
    host = args.host.rstrip("/")
    if not host:
        from bench.block_groups_bench import start_daphne

        port = free_port()
        proc, log = start_daphne(os.environ["DATABASE_URL"], port, os.environ.get("REDIS_URL", ""))
        host = f"http://localhost:{port}"
    users = args.browsers + args.writers + args.displays if args.scenario == "monday" else args.users
    config["sessions"] = sign_in(
        host, config["email"], config["password"], users - (args.displays if args.scenario == "monday" else 0)
    )
    with tempfile.NamedTemporaryFile("w", prefix="monday_", suffix=".json", delete=False) as f:
        json.dump(config, f)
    served = "one daphne process (started here)" if proc else host
    print(f"{args.scenario}: {users} users against {served}, run time {args.run_time}", flush=True)
    try:
        subprocess.run(
            [
                str(ROOT / ".venv" / "bin" / "locust"),
                "-f",
                str(ROOT / "bench" / "locust" / "monday.py"),
                "--headless",
                "--only-summary",
                "--loglevel",
                "WARNING",
                "-u",
                str(users),
                "-r",
                str(args.spawn_rate),
                "--run-time",
                args.run_time,
                "--stop-timeout",
                "10",
                "--host",
                host,
            ],
            cwd=ROOT,
            env={**os.environ, "MONDAY_CONFIG": f.name},
            check=False,
        )
    finally:
        os.unlink(f.name)
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=15)
            log.close()
            os.unlink(log.name)


if __name__ == "__main__":
    main()
