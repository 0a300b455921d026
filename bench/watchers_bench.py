"""Benchmark: what a write costs while others watch (docs/adr/0025), on the demo organization.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_watchers .venv/bin/python bench/watchers_bench.py
    (options: --watchers 0,1,10,50 --writes 30 --gap-ms 300 --mix timetable,dashboard,display --rounds 1)

Starts ONE real daphne process (in-memory channel layer, as a single-process deployment) on the database of
``DATABASE_URL`` (created, migrated and seeded with ``manage.py seed_demo`` on first use). Watchers are
python-socketio clients that hold one SPA screen each, in turn a timetable of one block group (its list,
its conflicts, the block group and teacher choices), a dashboard (stats, workload, upcoming sessions, this
week's allocations) and a wall display (its board). They react to change events with the rules of
``spa/src/lib/liveTargets.ts`` and ``DisplayBoardPage.tsx`` (shared with the Locust scenario in
``bench/live_rules.py``): a timetable list patches in the written rows only when the change concerns it,
taking them from the event when it carries them (``rows``, ADR 0032), else fetching ``?ids=``; aggregates
refetch after a random 0..0.5 s (a wall display's 0..0.4 s), then at most once a second (ADR 0031);
dashboard panels and the display only when a date the change touched (before or after) is in their span,
the dashboard's sums of hours only for a change of a counted field. Four more screens
follow ``sessionConcerns`` and ``countChangedGroups`` of ``liveTargets.ts``: the block group list (only a
created or moved row changes its ``timetableCount``: it fetches just those groups,
``GET /api/block-groups/{id}``), the teacher list (no session figure: never), the allocation grid of the
year (an admin's; a row with a teacher in its weeks) and the reports of the year (scheduling summary,
teacher workload, load planning, block groups without timetables).

Printed:

1. requests per change per screen type, for a change the screens show (today's session of the watched
   group: its room), one they do not (a session of another group last year: its room) and a session
   moved from one group to another (what the block group list shows);
2. a write's answer time (``PUT /api/timetables/{id}``, a room change of today's session, p50 / p99 over
   ``--writes`` writes ``--gap-ms`` apart) with 0, 1, 10 and 50 watchers of the ``--mix`` screens, and
   the ratio to 0; with ``--rounds`` above 1 the watcher counts are measured in turn, round after round
   (interleaved), and the figures are over all rounds.

The machine is shared: figures move with its load; compare runs made together.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from datetime import date, timedelta
from datetime import time as time_of_day
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.live_rules import (  # noqa: E402
    COALESCE_S,
    DISPLAY_SPREAD_S,
    SPREAD_S,
    count_changed_groups,
    dashboard_span,
    hours_touched,
    schedule_of,
    touched_dates,
)
from bench.reads_bench import ensure_database, free_port, pct, start_daphne  # noqa: E402


def prepare(url: str) -> dict:
    """Migrate and seed the demo organization if needed; answer sessions, ids and cookies to use."""
    import subprocess

    ensure_database(url)
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "project.settings"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    import django

    django.setup()
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from project.accounts.models import User
    from project.planning.models import BlockGroup
    from project.timetabling.models import TimetableSession

    if not User.objects.filter(email="coordinator@demo.blockplan.edu.au").exists():
        subprocess.run([sys.executable, "manage.py", "seed_demo"], cwd=ROOT, env=env, check=True, capture_output=True)
    user = User.objects.get(email="coordinator@demo.blockplan.edu.au")
    admin = User.objects.get(email="admin@demo.blockplan.edu.au")
    org = user.organization
    engine = import_module(settings.SESSION_ENGINE)

    def cookie(user=user) -> str:
        store = engine.SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "project.core.auth.SessionUserBackend"  # as a sign-in stores it (ADR 0009)
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        return store.session_key

    with_sessions = TimetableSession.objects.for_org(org).values_list("block_group_id", flat=True).distinct()
    groups = list(BlockGroup.objects.for_org(org).filter(pk__in=with_sessions).order_by("code")[:2])
    watched, other = groups[0], groups[1]
    today = date.today()
    # The write target: a session of the watched group moved to today (what every screen shows).
    # (one with a teacher: the allocation grid counts it)
    mine = TimetableSession.objects.for_org(org).filter(block_group=watched)
    target = (mine.filter(teacher__isnull=False).order_by("actual_date").first()) or mine.order_by("actual_date").first()
    TimetableSession.objects.filter(pk=target.pk).update(actual_date=today)
    # Not shown: a session of the other group last year (no screen of this year counts it).
    theirs = TimetableSession.objects.for_org(org).filter(block_group=other).order_by("actual_date", "id")
    past = theirs.first()
    TimetableSession.objects.filter(pk=past.pk).update(actual_date=date(today.year - 1, 6, 2))
    # Moved between the two groups (each run moves it to the group it is not in), on a day both groups
    # run (two weeks after the later first week).
    both = max(watched.start_date, other.start_date) + timedelta(days=14)
    earlier = TimetableSession.objects.for_org(org).filter(
        block_group__in=[watched, other], actual_date=both, start_time=time_of_day(20)
    )  # the mover of an earlier run, in whichever group it was left
    mover = earlier.order_by("id").first() or theirs.exclude(pk=past.pk).first()
    TimetableSession.objects.filter(pk=mover.pk).update(
        actual_date=both, start_time=time_of_day(20), end_time=time_of_day(21), teacher=None
    )  # an evening hour without a teacher: the move clashes with nothing
    return {
        "org": str(org.pk),
        "watched": str(watched.pk),
        "other": str(other.pk),
        "target": str(target.pk),
        "past": str(past.pk),
        "mover": str(mover.pk),
        "cookies": [cookie() for _ in range(60)],
        "admin_cookies": [cookie(admin) for _ in range(60)],
        "display_token": _display_token(org, user),
    }


def _display_token(org, user) -> str:
    """A wall display link of the organization grouped by block group (made once)."""
    from project.displays.models import DisplayLink

    link = DisplayLink.objects.filter(organization=org, name="Bench board", revoked_at__isnull=True).first()
    if link is None:
        link = DisplayLink.objects.create(organization=org, name="Bench board", group_by="block_group", created_by=user)
    return link.token


class Watcher:
    """One SPA screen: ``kind`` is timetable, dashboard, display, groups, teachers, grid or reports."""

    def __init__(self, base: str, cookie: str, kind: str, ctx: dict, admin_cookie: str | None = None):
        self.base, self.kind, self.ctx = base, kind, ctx
        self.cookie = admin_cookie if kind == "grid" and admin_cookie else cookie
        self.requests = 0
        self.pending: dict[str, bool] = {}
        self.rows: set[str] = set()
        self.days: set[str] = set()
        self.groups: set[str] = set()
        self.grid_span: tuple[str, str] | None = None
        self.http = None
        self.sio = None
        today = date.today()
        self.year = today.year
        self.week = dashboard_span("stats", today)
        self.upcoming = dashboard_span("upcoming-sessions", today)
        self.board_date = today.isoformat()

    async def get(self, path: str):
        self.requests += 1
        async with self.http.get(self.base + path, headers={"Cookie": f"sessionid={self.cookie}"}) as r:
            return await r.json() if r.status == 200 else None

    def screens(self) -> dict[str, str]:
        g, y = self.ctx["watched"], self.year
        if self.kind == "timetable":
            return {
                "conflicts": f"/api/timetables/conflicts?blockGroupId={g}&start=2000-01-01",
                "groups": "/api/block-groups",
                "teachers": "/api/teachers",
            }
        if self.kind == "dashboard":
            start, end = self.week
            return {
                "stats": "/api/dashboard/stats",
                "workload": "/api/dashboard/teacher-workload",
                "upcoming": "/api/dashboard/upcoming-sessions",
                "allocations": f"/api/dashboard/teacher-allocations?start={start}&end={end}",
            }
        if self.kind == "groups":
            return {"list": "/api/block-groups"}
        if self.kind == "teachers":
            return {"list": "/api/teachers"}
        if self.kind == "grid":
            return {"grid": f"/api/teachers/allocation-grid?year={y}"}
        if self.kind == "reports":
            return {
                "scheduling": f"/api/reports/scheduling-summary?year={y}",
                "workload": f"/api/teachers/workload-summary?year={y}",
                "load": f"/api/reports/load-planning?year={y}",
                "without": "/api/reports/block-groups-without-timetables",
            }
        return {"board": f"/api/display/{self.ctx['display_token']}"} if self.ctx.get("display_token") else {}

    async def start(self):
        import aiohttp
        import socketio

        self.http = aiohttp.ClientSession()
        if self.kind == "timetable":
            rows = await self.get(f"/api/timetables?blockGroupId={self.ctx['watched']}")
            self.rows = {r["id"] for r in rows or []}
            self.days = {r["actualDate"] for r in rows or []}
        for path in self.screens().values():
            answer = await self.get(path)
            if self.kind == "groups":
                self.groups = {g["id"] for g in answer or []}
            if self.kind == "grid" and answer and answer.get("weeks"):
                self.grid_span = (answer["weeks"][0]["weekStart"], answer["weeks"][-1]["weekEnd"])
        self.requests = 0
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("change", self.on_change)
        await self.sio.connect(
            self.base,
            headers={"Cookie": f"sessionid={self.cookie}", "Origin": self.base},
            transports=["websocket"],
            wait_timeout=10,
        )

    def coalesce(self, name: str, path: str):
        """``createSpreadRefetch``: the first read after a random 0..spread, then at most one per second."""
        if name in self.pending:
            self.pending[name] = True
            return
        spread = DISPLAY_SPREAD_S if self.kind == "display" else SPREAD_S

        async def run():
            await asyncio.sleep(random.random() * spread)
            self.pending[name] = False  # calls while waiting are answered by this read
            await self.get(path)
            while True:
                await asyncio.sleep(COALESCE_S)
                if not self.pending.get(name):
                    break
                self.pending[name] = False
                await self.get(path)
            self.pending.pop(name, None)

        self.pending[name] = False
        asyncio.ensure_future(run())

    def concerns(self, name: str, dates: list[str] | None, event: dict) -> bool:
        # This benchmark writes session rooms only; a schedule generated or cleared (ADR 0033, followed by
        # bench/locust/monday.py) would be counted as concerning every screen.
        if dates is None or schedule_of(event) is not None:
            return True
        rows = event["sessions"] + event["before"]
        in_year = [d for d in rows if d["date"][:4] == str(self.year)]
        if self.kind == "timetable":
            if name in ("groups", "teachers"):
                return False  # choices: a session change leaves codes and names as they were
            return any(d["blockGroupId"] == self.ctx["watched"] or d["date"] in self.days for d in rows)
        if self.kind == "dashboard":
            if name == "stats" or name == "workload" or name == "allocations":
                lo, hi = self.week
            else:
                lo, hi = self.upcoming
            sums_only = name in ("stats", "workload")  # sums of hours: only a change of a counted field
            return any(lo <= d <= hi for d in dates) and (not sums_only or hours_touched(event))
        if self.kind == "display":
            return self.board_date in dates
        if self.kind in ("groups", "teachers"):
            return False  # decided in on_change (groups) or never concerned (teachers)
        if self.kind == "grid":
            span = self.grid_span
            return span is not None and any(d["teacherId"] and span[0] <= d["date"] <= span[1] for d in rows)
        if self.kind == "reports":
            if name == "without":
                return bool(count_changed_groups(event))
            if name == "workload":
                return hours_touched(event) and any(d["teacherId"] for d in in_year)
            return hours_touched(event) and bool(in_year)
        return True

    async def on_change(self, event):
        dates = touched_dates(event)
        if self.kind == "timetable":
            details = {d["id"]: d for d in (event.get("sessions") or [])}
            relevant = [
                i for i in event.get("ids", []) if i in self.rows or details.get(i, {}).get("blockGroupId") == self.ctx["watched"]
            ]
            carried = {r["id"] for r in event.get("rows") or []}  # rows the event carries (ADR 0032)
            missing = [i for i in relevant if i not in carried]
            if missing:
                await self.get(f"/api/timetables?ids={','.join(missing)}")
        if self.kind == "groups" and dates is not None and schedule_of(event) is None:
            changed = count_changed_groups(event)
            if self.groups.intersection(changed):
                for group in changed:  # just the groups whose timetableCount changed
                    await self.get(f"/api/block-groups/{group}")
            return
        for name, path in self.screens().items():
            if self.concerns(name, dates, event):
                self.coalesce(name, path)

    async def close(self):
        if self.sio is not None and self.sio.connected:
            await self.sio.disconnect()
        if self.http is not None:
            await self.http.close()


async def put_room(http, base: str, cookie: str, session_id: str, room: str, group: str | None = None) -> float:
    async with http.get(f"{base}/api/timetables/{session_id}", headers={"Cookie": f"sessionid={cookie}"}) as r:
        row = await r.json()
        csrf = r.cookies.get("csrftoken")
    body = {
        k: row[k]
        for k in (
            "blockGroupId",
            "unitId",
            "dayOfWeek",
            "startTime",
            "endTime",
            "actualDate",
            "weekNumber",
            "actualHours",
            "status",
            "teacherId",
            "notes",
        )
    }
    body["room"] = room
    if group is not None:
        body["blockGroupId"] = group
    token = csrf.value if csrf else "benchcsrftoken000000000000000000"
    headers = {"Cookie": f"sessionid={cookie}; csrftoken={token}", "X-CSRFToken": token, "Origin": base, "Referer": base + "/"}
    started = time.perf_counter()
    async with http.put(f"{base}/api/timetables/{session_id}", json=body, headers=headers) as r:
        await r.read()
        assert r.status == 200, (r.status, await r.text())
    return (time.perf_counter() - started) * 1000


KINDS = ["timetable", "dashboard", "display", "groups", "teachers", "grid", "reports"]


async def requests_per_change(base: str, ctx: dict) -> None:
    import aiohttp

    kinds = [k for k in KINDS if k != "display" or ctx.get("display_token")]
    print("requests per change per screen (one watcher of each kind; change made, then 2.5 s to settle)")
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/api/timetables/{ctx['mover']}", headers={"Cookie": f"sessionid={ctx['cookies'][-1]}"}) as r:
            in_group = (await r.json())["blockGroupId"]
        moved_to = ctx["watched"] if in_group == ctx["other"] else ctx["other"]
        for label, session_id, group in (
            ("shown (today, watched group, its room)", ctx["target"], None),
            ("not shown (last year, other group, its room)", ctx["past"], None),
            ("moved to the other group (its count)", ctx["mover"], moved_to),
        ):
            watchers = [Watcher(base, ctx["cookies"][i], kind, ctx, ctx["admin_cookies"][i]) for i, kind in enumerate(kinds)]
            for w in watchers:
                await w.start()
            await put_room(http, base, ctx["cookies"][-1], session_id, f"RQ{int(time.time()) % 100000}", group)
            await asyncio.sleep(2.5)
            print(f"  {label:48s} " + "  ".join(f"{w.kind} {w.requests}" for w in watchers))
            for w in watchers:
                await w.close()


async def write_times(base: str, ctx: dict, watchers: int, writes: int, gap_ms: int, mix: list[str]) -> list[float]:
    import aiohttp

    kinds = [k for k in mix if k != "display" or ctx.get("display_token")]
    crowd = [Watcher(base, ctx["cookies"][i], kinds[i % len(kinds)], ctx, ctx["admin_cookies"][i]) for i in range(watchers)]
    for w in crowd:
        await w.start()
    times = []
    async with aiohttp.ClientSession() as http:
        for i in range(writes):
            times.append(await put_room(http, base, ctx["cookies"][-1], ctx["target"], f"W{watchers}-{i}"))
            await asyncio.sleep(gap_ms / 1000)
    await asyncio.sleep(1.5)
    for w in crowd:
        await w.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--watchers", default="0,1,10,50")
    parser.add_argument("--writes", type=int, default=30)
    parser.add_argument("--gap-ms", type=int, default=300)
    parser.add_argument(
        "--mix", default="timetable,dashboard,display", help=f"screens of the watchers, in turn ({','.join(KINDS)})"
    )
    parser.add_argument("--rounds", type=int, default=1, help="measure the watcher counts in turn this many times (interleaved)")
    parser.add_argument("--skip-requests", action="store_true", help="only the write times")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database of the bench's own")
    ctx = prepare(url)
    port = free_port()
    proc, log = start_daphne(url, port)
    base = f"http://localhost:{port}"
    try:
        if not args.skip_requests:
            asyncio.run(requests_per_change(base, ctx))
        mix = args.mix.split(",")
        counts = [int(x) for x in args.watchers.split(",")]
        print(
            f"a write's answer (PUT /api/timetables/{{id}}, {args.writes} writes {args.gap_ms} ms apart, "
            f"watchers {'/'.join(mix)}, {args.rounds} round(s))"
        )
        times: dict[int, list[float]] = {n: [] for n in counts}
        for _ in range(args.rounds):
            for n in counts:
                times[n] += asyncio.run(write_times(base, ctx, n, args.writes, args.gap_ms, mix))
        alone = None
        for n in counts:
            p50, p99 = statistics.median(times[n]), pct(times[n], 99)
            alone = alone or p50
            print(f"  {n:3d} watchers: p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  ({p50 / alone:.2f}x alone)")
    finally:
        proc.terminate()
        proc.wait()
        Path(log.name).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
