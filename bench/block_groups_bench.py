"""Benchmark: ``GET /api/block-groups`` right after a real write, against its floor, measured from outside.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench_reads [REDIS_URL=redis://127.0.0.1:6379/9] \\
        .venv/bin/python bench/block_groups_bench.py [--runs 15] [--write course|session]

On the large organization of ``bench/reads_bench.py`` (seeded on first run: 35,000 sessions, 80 block
groups), ONE daphne process (with ``REDIS_URL`` when set, as deployed: then the answer is also kept in
Redis). Each run, interleaved so that load on the shared machine hits all figures alike:

1. a real write through the API by another signed-in user (``--write course``: ``POST /api/courses``;
   ``session``: ``PUT /api/timetables/{id}`` of one session's notes with its ``If-Match``): the
   organization's sequence moves, as for any write by anyone;
2. ``GET /api/block-groups`` (gzip, as a browser asks): the first read after that change, which builds;
3. the floor: the psycopg statement of ``reads_bench.floor_sql("block_groups")`` building the same JSON
   in PostgreSQL (checked equal to the API's answer first, rows compared by id) plus
4. the server's signed-in empty request (``GET /api/auth/user``).

Prints the p50 and p90 of each and the ratio of (2) to (3)+(4); target: within 2x.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import stop_server  # noqa: E402
from bench.reads_bench import canonical, floor_sql, free_port, get, pct, sessions_for, setup  # noqa: E402


def start_daphne(url: str, port: int, redis_url: str):
    import tempfile

    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="project.settings", LOG_LEVEL="ERROR", PYTHONPATH=str(ROOT))
    if redis_url:
        env["REDIS_URL"] = redis_url
    log = tempfile.NamedTemporaryFile(prefix="bg_bench_", suffix=".log", delete=False)
    proc = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "daphne"), "-b", "127.0.0.1", "-p", str(port), "project.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        assert proc.poll() is None, Path(log.name).read_text()[-2000:]
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return proc, log
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("daphne did not start")


class Writer:
    """Another coordinator writing through the API (session cookie, CSRF token, If-Match)."""

    def __init__(self, port: int, cookie: str, kind: str, org):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {
            "Cookie": f"sessionid={cookie}; csrftoken=benchcsrftoken0123456789abcdefgh",
            "X-CSRFToken": "benchcsrftoken0123456789abcdefgh",
            "Content-Type": "application/json",
            "Host": "localhost",
        }
        self.kind, self.n = kind, 0
        if kind == "session":
            from project.timetabling.models import TimetableSession

            self.session_id = str(TimetableSession.objects.for_org(org).order_by("id").values_list("id", flat=True)[0])

    def _call(self, method: str, path: str, body: dict, extra: dict | None = None) -> tuple[int, dict, bytes]:
        self.conn.request(method, path, body=json.dumps(body), headers={**self.headers, **(extra or {})})
        r = self.conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()

    def write(self) -> None:
        self.n += 1
        if self.kind == "course":
            status, _, body = self._call("POST", "/api/courses", {"code": f"BGB{os.getpid()}-{self.n}", "name": "Bench course"})
            assert status == 201, body[:300]
            return
        self.conn.request("GET", f"/api/timetables/{self.session_id}", headers=self.headers)
        r = self.conn.getresponse()
        session = json.loads(r.read())
        etag = r.getheader("ETag")
        payload = {
            k: session[k]
            for k in ("blockGroupId", "unitId", "teacherId", "actualDate", "startTime", "endTime", "room", "status")
            if k in session
        }
        payload["notes"] = f"bench {self.n}"
        status, _, body = self._call("PUT", f"/api/timetables/{self.session_id}", payload, {"If-Match": etag})
        assert status == 200, body[:300]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--write", choices=("course", "session"), default="course")
    args = parser.parse_args()
    url, org = setup(False)
    import psycopg

    cookies = sessions_for(org, 2)
    from django.db import connections

    connections.close_all()
    port = free_port()
    redis_url = os.environ.get("REDIS_URL", "")
    proc, log = start_daphne(url, port, redis_url)
    path = "/api/block-groups"
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        writer = Writer(port, cookies[1], args.write, org)
        sql = floor_sql("block_groups")
        with psycopg.connect(url, autocommit=True) as db:
            writer.write()
            api_json = json.loads(get(conn, path, cookies[0])[1])
            floor_json = json.loads(db.execute(sql, {"org": org.pk, "bg": None}).fetchone()[0])
            if canonical(api_json) != canonical(floor_json):
                sys.exit("the API and the floor differ")
            for _ in range(3):  # warm
                get(conn, "/api/auth/user", cookies[0])
            built, floor, empty, kept = [], [], [], []
            for _ in range(args.runs):
                writer.write()
                built.append(get(conn, path, cookies[0])[0])
                kept.append(get(conn, path, cookies[0])[0])
                t0 = time.perf_counter()
                db.execute(sql, {"org": org.pk, "bg": None}).fetchone()
                floor.append((time.perf_counter() - t0) * 1000)
                empty.append(get(conn, "/api/auth/user", cookies[0])[0])
        b50, f50, e50 = statistics.median(built), statistics.median(floor), statistics.median(empty)
        print(
            f"GET {path} after a real write ({args.write}), {len(api_json)} rows, one daphne process"
            f"{' with Redis' if redis_url else ''}, {args.runs} interleaved runs (ms):"
        )
        print(f"  first read after the change  p50 {b50:6.1f}  p90 {pct(built, 90):6.1f}")
        print(f"  floor: raw SQL + JSON        p50 {f50:6.1f}  p90 {pct(floor, 90):6.1f}")
        print(f"  floor: signed-in empty GET   p50 {e50:6.1f}  p90 {pct(empty, 90):6.1f}")
        print(f"  kept answer (no change)      p50 {statistics.median(kept):6.1f}")
        print(f"  ratio to floor (SQL + empty request): {b50 / (f50 + e50):.2f}x  (target < 2x)")
    finally:
        stop_server(proc, log)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (shared by ~8 engineers)")


if __name__ == "__main__":
    main()
