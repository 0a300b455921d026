"""Locust scenarios for Blockplan (docs/benchmarks.md). Run them with ``bench/monday_bench.py``, which seeds
the large organization, writes the configuration this file reads (``MONDAY_CONFIG``: a JSON file) and
starts Locust headless; running ``locust -f bench/locust/monday.py`` by hand needs that file too.

Scenario ``monday`` ("Monday morning"): coordinators signed in (session rows as a password sign-in makes them), each with
its Socket.IO connection open (Engine.IO over a websocket, as the SPA's socket.io-client does):

- ``Coordinator`` (40 by default): browses the timetable of a block group, the block group list, the
  teacher list and the dashboard (its four calls), with 5-15 s think time; reacts to change events as
  the SPA does (``spa/src/lib/liveTargets.ts``, the shared rules in ``bench/live_rules.py``): the
  timetable patches in the written rows it shows, from the event when it carries them (``rows``), else
  fetched (``?ids=``), and after a schedule generated or cleared refetches whole when the schedule may
  change it (``scheduleConcernsList``, ADR 0033); the block group list fetches just the groups whose
  count a change moved (a created or moved session; the whole list after a schedule); each
  dashboard panel refetches when a date the change touched is in its span (the stats and the workload
  only for a change of a counted field: date, teacher, group, unit, hours, status), its first refetch
  after a random 0..0.5 s, then at most once a second;
- ``Writer`` (10): a coordinator who also writes, with 10-20 s think time: session edits (notes,
  ``PUT /api/timetables/{id}`` with ``If-Match``), allocations (``PUT /api/timetables/bulk-allocate`` of
  a few sessions), a schedule generation (clear and generate one block group) and a re-plan proposal
  (a teacher's week of leave, ``POST /api/replan/propose``);
- ``WallDisplay`` (20): a display link's board (``GET /api/display/{token}``, of this week's Monday unless
  ``--board-day today``) with its socket, refetched every 60 s and on a change of its day
  (``concernsBoard``), after a random 0..0.4 s, at most once a second.

Scenario ``reads``: ``Reader`` users in a closed loop without think time over the four lists of
``bench/reads_bench.py --clients`` (a ~400-session timetable, the 5,000-session timetable, teachers,
block groups), to reconcile Locust's figures with that bench's.

At the end it prints, per call: requests, requests/s, p50, p99, failures; reads and writes together;
and how long after each write's answer every socket had its event and every affected screen had
refetched (p50, p99, max): the "every screen showed it" figure.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import defaultdict
from datetime import date
from pathlib import Path
from urllib.parse import urlparse

import gevent
import websocket
from locust import FastHttpUser, between, constant, events, task

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench.live_rules import (  # noqa: E402
    COALESCE_S,
    DISPLAY_SPREAD_S,
    GROUP_PATCH_LIMIT,
    SPREAD_S,
    count_changed_groups,
    dashboard_span,
    hours_touched,
    schedule_concerns_list,
    schedule_of,
    touched_dates,
)

CONFIG = json.load(open(os.environ["MONDAY_CONFIG"]))  # noqa: SIM115, PTH123
SCENARIO = CONFIG.get("scenario", "monday")

samples: dict[str, list[float]] = defaultdict(list)  # call name -> response times (ms)
failures: dict[str, int] = defaultdict(int)
reasons: dict[str, set] = defaultdict(set)  # call name -> the first few distinct failures
writes: dict[str, float] = {}  # write origin -> when its answer arrived (perf_counter)
received: dict[str, list[float]] = defaultdict(list)  # write origin -> when each socket got its event
shown: dict[str, list[float]] = defaultdict(list)  # write origin -> when each affected screen had refetched
# Wall displays' events carry no origin (who wrote is not for a corridor screen): theirs are kept by seq,
# and a coordinator's socket, which sees both, says which write each seq was.
seq_origin: dict[int, str] = {}
received_seq: dict[int, list[float]] = defaultdict(list)
shown_seq: dict[int, list[float]] = defaultdict(list)


def mark_shown(tag: str | int, at: float) -> None:
    """A screen that a write (origin, or seq for a display) concerned has read what the write changed."""
    if isinstance(tag, int):
        shown_seq[tag].append(at)
    elif tag:
        shown[tag].append(at)


sockets_open = {"n": 0, "opened": 0, "failed": 0}
started = {"t": 0.0, "stopped": 0.0}


@events.request.add_listener
def _record(request_type, name, response_time, response_length, exception=None, **_kw):
    if request_type == "WS":
        return
    samples[name].append(response_time)
    if exception is not None:
        failures[name] += 1
        if len(reasons[name]) < 3:
            reasons[name].add(str(exception)[:160])


@events.test_start.add_listener
def _start(**_kw):
    started["t"] = time.perf_counter()


@events.test_stop.add_listener
def _stop(**_kw):
    started["stopped"] = time.perf_counter()  # the run time, without the shutdown after it


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


@events.quitting.add_listener
def _report(environment, **_kw):
    wall = max(1e-9, (started["stopped"] or time.perf_counter()) - started["t"])
    users = CONFIG["browsers"] + CONFIG["writers"] + CONFIG["displays"] if SCENARIO == "monday" else CONFIG["users"]
    print(f"\n{SCENARIO}: {users} users, {wall:.0f} s, host {environment.host}")
    print(f"{'call':<34} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'fails':>6}")
    groups: dict[str, list[float]] = defaultdict(list)
    for name in sorted(samples):
        values = samples[name]
        kind = name.split(" ", 1)[0]
        groups[kind].extend(values)
        print(
            f"{name:<34} {len(values):>8} {len(values) / wall:>7.1f} {pct(values, 50):>7.0f} {pct(values, 99):>7.0f} {failures[name]:>6}"
        )
    every = [v for values in samples.values() for v in values]
    for kind in sorted(groups):
        values = groups[kind]
        print(
            f"{'all ' + kind + 's':<34} {len(values):>8} {len(values) / wall:>7.1f} {pct(values, 50):>7.0f} {pct(values, 99):>7.0f}"
        )
    print(
        f"{'everything':<34} {len(every):>8} {len(every) / wall:>7.1f} {pct(every, 50):>7.0f} {pct(every, 99):>7.0f} {sum(failures.values()):>6}"
    )
    if SCENARIO == "monday":
        print(f"sockets opened {sockets_open['opened']} (failed to open: {sockets_open['failed']})")
        for seq, origin in seq_origin.items():  # the displays' deliveries and reads, by the write they were
            received[origin].extend(received_seq.get(seq, []))
            shown[origin].extend(shown_seq.get(seq, []))
        events_lag, screens_lag = [], []
        for origin, answered in writes.items():
            if received.get(origin):
                events_lag.append((max(received[origin]) - answered) * 1000)
            if shown.get(origin):
                screens_lag.append((max(shown[origin]) - answered) * 1000)
        n = len(writes)
        if events_lag:
            print(
                f"write answered -> every socket has the event (negative: before the answer): p50 {pct(events_lag, 50):.0f} ms, p99 {pct(events_lag, 99):.0f} ms, "
                f"max {max(events_lag):.0f} ms ({len(events_lag)} of {n} writes; {sum(len(v) for v in received.values())} deliveries)"
            )
        if screens_lag:
            print(
                f"write answered -> every affected screen refetched: p50 {pct(screens_lag, 50):.0f} ms, "
                f"p99 {pct(screens_lag, 99):.0f} ms, max {max(screens_lag):.0f} ms ({len(screens_lag)} writes)"
            )
    for name, found in sorted(reasons.items()):
        print(f"failures of {name}: {' | '.join(sorted(found))}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores, shared machine)")


class Socket:
    """An Engine.IO v4 websocket carrying Socket.IO, as socket.io-client with ``transports: ["websocket"]``:
    answers pings, hands ``change`` events to ``on_change`` (run in its own greenlet)."""

    def __init__(self, host: str, cookie: str, on_change, auth: dict | None = None):
        parsed = urlparse(host)
        scheme = "wss" if parsed.scheme == "https" else "ws"
        self.ws = websocket.create_connection(
            f"{scheme}://{parsed.netloc}/socket.io/?EIO=4&transport=websocket",
            origin=host,
            header=[f"Cookie: {cookie}"] if cookie else [],
            timeout=30,
        )
        opened = self.ws.recv()
        assert opened.startswith("0"), opened
        self.ws.send("40" + (json.dumps(auth) if auth else ""))
        connected = self.ws.recv()
        assert connected.startswith("40"), connected
        self.on_change = on_change
        self.closed = False
        sockets_open["n"] += 1
        sockets_open["opened"] += 1
        self.loop = gevent.spawn(self._run)

    def _run(self):
        self.ws.settimeout(None)
        while not self.closed:
            try:
                message = self.ws.recv()
            except Exception:  # noqa: BLE001 — closed at the end of the run
                return
            if message == "2":
                self.ws.send("3")
            elif message.startswith("42"):
                name, *args = json.loads(message[2:])
                if name == "change" and args:
                    now = time.perf_counter()
                    origin = args[0].get("origin") or ""
                    seq = args[0].get("seq")
                    if origin.startswith("monday-"):
                        received[origin].append(now)
                        if isinstance(seq, int):
                            seq_origin[seq] = origin
                    elif "origin" not in args[0] and isinstance(seq, int):  # a display's event
                        received_seq[seq].append(now)
                    gevent.spawn(self.on_change, args[0], origin)

    def close(self):
        self.closed = True
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001, S110
            pass
        sockets_open["n"] -= 1


_next_session = {"i": 0}


class SignedIn(FastHttpUser):
    """A signed-in coordinator: the cookies of one of the password sign-ins ``bench/monday_bench.py``
    made through the server before the run (argon2 sign-ins of every user at once would be the first
    minutes' load, not the morning's), sent as the browser sends them; then its socket."""

    abstract = True
    socket: Socket | None = None

    def sign_in(self) -> None:
        self.cookie = CONFIG["sessions"][_next_session["i"] % len(CONFIG["sessions"])]
        _next_session["i"] += 1
        self.client.client.cookiejar = None  # the cookies below, exactly: no jar adding or dropping any
        csrf = next(part.split("=", 1)[1] for part in self.cookie.split("; ") if "csrf" in part.split("=", 1)[0])
        self.auth = {"Cookie": self.cookie}
        self.headers = {**self.auth, "X-CSRFToken": csrf, "Origin": self.host}

    def cookie_header(self) -> str:
        return self.cookie

    def open_socket(self, auth: dict | None = None, cookie: bool = True) -> None:
        try:
            self.socket = Socket(self.host, self.cookie_header() if cookie else "", self.on_change, auth)
        except Exception as e:  # noqa: BLE001
            sockets_open["failed"] += 1
            events.request.fire(request_type="WS", name="socket", response_time=0, response_length=0, exception=e)

    def on_stop(self):
        if self.socket is not None:
            self.socket.close()

    def on_change(self, event: dict, origin: str) -> None:  # pragma: no cover - overridden
        pass


class Spread:
    """``createSpreadRefetch`` of the SPA, shared by the coordinators' aggregates and the wall displays."""

    pending: dict[str, bool]
    waiting: dict[str, list]

    def coalesced(self, key: str, fetch, tag: str | int, spread: float = SPREAD_S) -> None:
        """``createSpreadRefetch`` of the SPA: the first refetch of ``key`` after a random 0..``spread`` s,
        then at most one per second while changes keep coming (one trailing). Each refetch shows the
        changes (``tag``: a write's origin, or a display's seq) that arrived before it started."""
        waiting = self.waiting.setdefault(key, [])
        waiting.append(tag)
        if key in self.pending:
            self.pending[key] = True
            return
        self.pending[key] = False
        try:
            gevent.sleep(random.random() * spread)
            while True:
                self.pending[key] = False
                tags, self.waiting[key] = self.waiting[key], []
                fetch()
                done = time.perf_counter()
                for t in tags:
                    mark_shown(t, done)
                gevent.sleep(COALESCE_S)
                if not self.pending.get(key):
                    break
        finally:
            self.pending.pop(key, None)


class Screens(Spread, SignedIn):
    """The four screens a coordinator moves between, and the SPA's reaction to change events."""

    abstract = True

    def on_start(self):
        self.sign_in()
        self.my_group = random.choice(CONFIG["groups"])
        self.rows: set[str] = set()
        self.shown: list[dict] | None = None
        self.pending: dict[str, bool] = {}
        self.waiting: dict[str, list] = {}
        self.screen = "timetable"
        self.timetable()
        self.open_socket()

    def get(self, path: str, name: str) -> dict | list | None:
        with self.client.get(path, name=name, headers=self.auth, catch_response=True) as r:
            if r.status_code != 200:
                r.failure(f"{r.status_code}")
                return None
            return r.json()

    @task(4)
    def timetable(self):
        self.screen = "timetable"
        self.my_group = random.choice(CONFIG["groups"])
        self.show_timetable("read timetable of a group")

    def show_timetable(self, name: str) -> None:
        """The timetable of ``my_group``, kept as shown (its rows' ids, and the rows for a schedule's rule)."""
        rows = self.get(f"/api/timetables?blockGroupId={self.my_group}", name)
        self.shown = rows if isinstance(rows, list) else None
        self.rows = {r["id"] for r in rows or []}

    @task(2)
    def block_groups(self):
        self.screen = "block-groups"
        self.get("/api/block-groups", "read block groups")

    @task(2)
    def teachers(self):
        self.screen = "teachers"
        self.get("/api/teachers", "read teachers")

    @task(2)
    def dashboard(self):
        self.screen = "dashboard"
        self.get("/api/dashboard/stats", "read dashboard stats")
        self.get("/api/dashboard/teacher-workload", "read dashboard workload")
        self.get("/api/dashboard/upcoming-sessions", "read dashboard upcoming")

    def dashboard_concerned(self, part: str, event: dict) -> bool:
        """``applyChange``'s dashboard rule: a date touched in the panel's span (``dashboardSpan``), and for
        the sums of hours a change of a counted field."""
        dates = touched_dates(event)
        if dates is None:
            return True
        lo, hi = dashboard_span(part, date.today())
        in_span = any(lo <= d <= hi for d in dates)
        return in_span and (part == "upcoming-sessions" or hours_touched(event))

    def on_change(self, event: dict, origin: str) -> None:
        if event.get("entity") != "timetable_session":
            return
        schedule = schedule_of(event)
        if self.screen == "timetable" and schedule is not None:
            # A schedule generated or cleared (ADR 0033): the list refetches whole when it may change.
            if schedule_concerns_list({"blockGroupId": self.my_group}, self.shown, schedule):
                self.show_timetable("read timetable of a group (live)")
                mark_shown(origin, time.perf_counter())
        elif self.screen == "timetable":
            details = {d["id"]: d for d in (event.get("sessions") or [])}
            relevant = [i for i in event["ids"] if i in self.rows or details.get(i, {}).get("blockGroupId") == self.my_group]
            carried = {r["id"] for r in event.get("rows") or []}  # rows the event carries (ADR 0032)
            missing = [i for i in relevant if i not in carried]
            if relevant:
                if missing:
                    self.get("/api/timetables?ids=" + ",".join(missing), "read timetable rows (live)")
                mark_shown(origin, time.perf_counter())
        elif self.screen == "block-groups":
            # The list shows timetableCount: only a created or moved row changes it, and then the SPA fetches
            # just those groups (up to GROUP_PATCH_LIMIT); a schedule generated or cleared, or a write that
            # cannot say, refetches it.
            if touched_dates(event) is None or schedule is not None:  # a schedule: the list shows its group
                self.coalesced("block-groups", lambda: self.get("/api/block-groups", "read block groups (live)"), origin)
                return
            changed = count_changed_groups(event)
            if len(changed) > GROUP_PATCH_LIMIT:
                self.coalesced("block-groups", lambda: self.get("/api/block-groups", "read block groups (live)"), origin)
            elif changed:
                for group in changed:
                    self.get(f"/api/block-groups/{group}", "read one block group (live)")
                mark_shown(origin, time.perf_counter())
        elif self.screen == "dashboard":
            for part, label in (("stats", "stats"), ("teacher-workload", "workload"), ("upcoming-sessions", "upcoming")):
                if self.dashboard_concerned(part, event):
                    gevent.spawn(
                        self.coalesced,
                        f"dashboard-{part}",
                        lambda p=part, n=label: self.get(f"/api/dashboard/{p}", f"read dashboard {n} (live)"),
                        origin,
                    )


if SCENARIO == "monday":

    class Coordinator(Screens):
        """A coordinator browsing with think time."""

        fixed_count = CONFIG["browsers"]
        wait_time = between(5, 15)

    class Writer(Screens):
        """A coordinator who also writes: session edits, allocations, a generation, a re-plan proposal."""

        fixed_count = CONFIG["writers"]
        wait_time = between(10, 20)

        def on_start(self):
            super().on_start()
            self.n = 0
            self.mine = CONFIG["writer_groups"][CONFIG["writer_index"] % len(CONFIG["writer_groups"])]
            CONFIG["writer_index"] = CONFIG.get("writer_index", 0) + 1

        def origin(self) -> str:
            self.n += 1
            return f"monday-{id(self) % 100000}-{self.n}"

        def write(
            self, method: str, path: str, body: dict, name: str, ok: tuple = (200,), extra: dict | None = None, emits: bool = True
        ) -> dict | None:
            """One write; when it changed something (a 200 of a write that emits), its answer's time is kept
            for the convergence figure under its ``X-Client-Id``, which its change event carries."""
            origin = self.origin()
            headers = {**self.headers, "X-Client-Id": origin, **(extra or {})}
            with self.client.request(method, path, json=body, headers=headers, name=name, catch_response=True) as r:
                if r.status_code not in ok:
                    r.failure(f"{r.status_code} {r.text[:200]}")
                    return None
                r.success()  # an expected refusal (409 of a hard conflict) is an answer, not a failure
                if emits and r.status_code == 200:
                    writes[origin] = time.perf_counter()
                return r.json() if r.text else {}

        def my_sessions(self) -> list[dict]:
            """The writer's group's sessions that can be saved as they are (see ``group_starts``)."""
            rows = self.get(f"/api/timetables?blockGroupId={self.mine}", "read timetable of a group") or []
            start = CONFIG["group_starts"].get(self.mine, "")
            return [r for r in rows if r["actualDate"] >= start and r["actualHours"] >= 0.5]

        @task(6)
        def edit_session(self):
            rows = [r for r in self.my_sessions() if not r["conflicts"]]
            if not rows:
                return
            row = random.choice(rows)
            with self.client.get(
                f"/api/timetables/{row['id']}", name="read one session", headers=self.auth, catch_response=True
            ) as r:
                etag = r.headers.get("ETag")
            body = {
                k: row[k]
                for k in (
                    "blockGroupId",
                    "unitId",
                    "teacherId",
                    "startTime",
                    "endTime",
                    "actualDate",
                    "room",
                    "status",
                    "actualHours",
                )
            }
            body["notes"] = f"Monday {self.n}"
            self.write(
                "PUT", f"/api/timetables/{row['id']}", body, "write session edit", extra={"If-Match": etag} if etag else None
            )

        @task(3)
        def allocate(self):
            rows = [r for r in self.my_sessions() if r["status"] != "cancelled"]
            if not rows:
                return
            pick = random.sample(rows, min(3, len(rows)))
            teacher = pick[0]["teacherId"] or random.choice(CONFIG["teachers"])
            self.write(
                "PUT",
                "/api/timetables/bulk-allocate",
                {"sessionIds": [r["id"] for r in pick], "teacherId": teacher},
                "write allocation",
                ok=(200, 409),  # 409: a hard conflict refused, nothing written (a real answer, not a failure)
            )

        @task(1)
        def generate(self):
            self.write("DELETE", f"/api/block-groups/{self.mine}/schedule", {}, "write schedule clear")
            self.write(
                "POST",
                f"/api/block-groups/{self.mine}/schedule",
                {"sessionTemplates": [{"startTime": "09:00:00", "endTime": "15:00:00", "duration": 6}]},
                "write schedule generation",
            )

        @task(1)
        def replan(self):
            body = {"teacherId": random.choice(CONFIG["teachers"]), "start": CONFIG["leave_start"], "end": CONFIG["leave_end"]}
            self.write("POST", "/api/replan/propose", body, "write re-plan proposal", emits=False)  # computes, writes nothing

    class WallDisplay(Spread, SignedIn):
        """A wall display: its board, refetched on every change and every minute; its socket by token."""

        fixed_count = CONFIG["displays"]
        wait_time = constant(60)

        def on_start(self):
            self.auth = {}
            self.pending: dict[str, bool] = {}
            self.waiting: dict[str, list] = {}
            self.board_date: str | None = None
            self.open_socket(auth={"displayToken": CONFIG["display_token"]}, cookie=False)

        def read_board(self, name: str) -> None:
            day = CONFIG.get("board_date")  # the Monday of this week: a Monday morning's boards, whatever the day
            path = f"/api/display/{CONFIG['display_token']}" + (f"?date={day}" if day else "")
            with self.client.get(path, name=name, catch_response=True) as r:
                if r.status_code == 200:
                    self.board_date = r.json().get("date")
                else:
                    r.failure(f"{r.status_code}")

        @task
        def board(self):
            self.read_board("read wall display board")

        def on_change(self, event: dict, origin: str) -> None:
            # ``concernsBoard``: a session change only when a date it touched is the board's day.
            dates = touched_dates(event)
            if self.board_date is not None and dates is not None and self.board_date not in dates:
                return
            seq = event.get("seq")
            self.coalesced(
                "board",
                lambda: self.read_board("read wall display board (live)"),
                seq if isinstance(seq, int) else "",
                DISPLAY_SPREAD_S,
            )

else:

    class Reader(SignedIn):
        """``bench/reads_bench.py --clients``' client: the four lists round robin, no think time."""

        wait_time = constant(0)

        def on_start(self):
            self.sign_in()
            self.i = random.randrange(4)

        @task
        def read(self):
            label, path = CONFIG["reads"][self.i % len(CONFIG["reads"])]
            self.i += 1
            self.client.get(path, name=f"read {label}", headers=self.auth)
