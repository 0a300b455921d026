"""Realtime benchmark (ADR 0003): fan-out latency to 500 sockets and idle sockets held by one process.

    .venv/bin/python bench/realtime_bench.py [--sockets 500] [--writes 20] [--idle 2000] [--hold 30]
        [--workers 2] [--redis redis://127.0.0.1:6379/5] [--ping-interval-ms 5000]

What it does, against real parts only:

1. Creates a database of its own (``bp_bench_<random>`` on the PostgreSQL server of ``DATABASE_URL`` when
   that is PostgreSQL, else a temporary SQLite file), migrates it, and makes one organization, one admin
   and a session (Django's SessionStore).
2. Starts one daphne process serving ``project.asgi:application`` (in-memory channel layer, or Redis with
   ``--redis``) and loads its URLconf with one GET.
3. Latency: ``--sockets`` Socket.IO websockets of that organization, held by ``--workers`` client processes
   (minimal Engine.IO v4 clients: open, ``40``, answer pings, timestamp ``42["change",..]``). Then
   ``--writes`` course creations through ``POST /api/courses`` one after another; for each write and each
   socket, the time from the write's HTTP response (and from its request) to the event's arrival.
   Reports p50 / p99 / max over all (write, socket) pairs. Negative "from response" values mean the event
   beat the HTTP response to the client.
4. Idle capacity: tops the sockets up to ``--idle``, samples the server's RSS (``/proc/<pid>/status``) at
   each step and every few seconds over ``--hold`` seconds of idling (several ping rounds at
   ``--ping-interval-ms``), then checks that every socket is still open and that one more write reaches
   all of them.

Client and server share the machine; on a small, busy machine the client processes' own scheduling is
part of the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DAPHNE = str(ROOT / ".venv" / "bin" / "daphne")


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


# --- client worker process --------------------------------------------------------------------------------


def worker_main(conn, url: str, headers: dict):
    raise_fd_limit()
    asyncio.run(_worker(conn, url, headers))


async def _worker(conn, url: str, headers: dict):
    import aiohttp

    loop = asyncio.get_running_loop()
    arrivals: list[tuple[str, float]] = []
    tasks: list[asyncio.Task] = []
    open_count = 0
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        sem = asyncio.Semaphore(25)

        async def one_socket(ready: asyncio.Future):
            nonlocal open_count
            try:
                async with sem:
                    ws = await http.ws_connect(url, headers=headers, max_msg_size=0, heartbeat=None)
                    opened = await ws.receive_str()
                    assert opened.startswith("0{"), opened
                    await ws.send_str("40")
                    while True:
                        frame = await ws.receive_str()
                        if frame.startswith("40{"):
                            break
                        if frame.startswith("44"):
                            raise RuntimeError(frame)
                        if frame == "2":
                            await ws.send_str("3")
            except Exception as exc:
                ready.set_result(repr(exc))
                return
            open_count += 1
            ready.set_result(None)
            try:
                async for msg in ws:
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    data = msg.data
                    if data == "2":
                        await ws.send_str("3")
                    elif data.startswith('42["change"'):
                        now = time.time()
                        arrivals.append((json.loads(data[2:])[1]["ids"][0], now))
            finally:
                open_count -= 1

        while True:
            cmd, arg = await loop.run_in_executor(None, conn.recv)
            if cmd == "connect":
                futures = [loop.create_future() for _ in range(arg)]
                tasks.extend(asyncio.create_task(one_socket(f)) for f in futures)
                results = await asyncio.gather(*futures)
                conn.send([r for r in results if r is not None])
            elif cmd == "collect":
                conn.send(list(arrivals))
                arrivals.clear()
            elif cmd == "count":
                conn.send(open_count)
            elif cmd == "stop":
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                conn.send("stopped")
                return


class Workers:
    def __init__(self, n: int, url: str, headers: dict):
        ctx = mp.get_context("spawn")
        self.conns = []
        self.procs = []
        for _ in range(n):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=worker_main, args=(child, url, headers), daemon=True)
            proc.start()
            self.conns.append(parent)
            self.procs.append(proc)

    def ask(self, cmd: str, args: list) -> list:
        for conn, arg in zip(self.conns, args, strict=False):
            conn.send((cmd, arg))
        return [conn.recv() for conn in self.conns]

    def connect(self, total: int) -> list[str]:
        n = len(self.conns)
        share = [total // n + (1 if i < total % n else 0) for i in range(n)]
        return [err for errs in self.ask("connect", share) for err in errs]

    def count(self) -> int:
        return sum(self.ask("count", [None] * len(self.conns)))

    def collect(self) -> list[tuple[str, float]]:
        return [a for part in self.ask("collect", [None] * len(self.conns)) for a in part]

    def stop(self):
        try:
            self.ask("stop", [None] * len(self.conns))
        finally:
            for proc in self.procs:
                proc.join(timeout=5)


# --- setup ------------------------------------------------------------------------------------------------


def make_database() -> tuple[str, callable]:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        parsed = urlparse(url)
        name = f"bp_bench_{secrets.token_hex(4)}"
        admin = parsed._replace(path="/postgres").geturl()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

        def drop():
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        return parsed._replace(path=f"/{name}").geturl(), drop
    tmp = tempfile.mkdtemp(prefix="bp_bench_")
    return f"sqlite:///{tmp}/bench.sqlite3", lambda: shutil.rmtree(tmp, ignore_errors=True)


def seed(database_url: str) -> dict:
    """One organization, an admin and a session, made with the ORM in this process."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from project.accounts.models import Organization, User

    org = Organization.objects.create(name="Bench Org", domain=f"bench-{secrets.token_hex(3)}.edu.au")
    user = User.objects.create_user(
        email=f"bench-{secrets.token_hex(3)}@bench.edu.au",
        password=None,
        organization=org,
        role="admin",
        first_name="Ben",
        last_name="Chmark",
        must_change_password=False,
    )
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    from django.db import connections

    connections.close_all()
    return {"org": str(org.pk), "user": str(user.pk), "session": store.session_key}


# --- the run ----------------------------------------------------------------------------------------------


async def write_course(http, base: str, csrf: str, n: int) -> tuple[str, float, float]:
    body = {"code": f"B{n:05d}", "name": f"Bench course {n}", "level": "certificate_iii", "description": "", "isActive": True}
    headers = {"X-CSRFToken": csrf, "X-Client-Id": "bench", "Origin": base, "Referer": base + "/"}
    t0 = time.time()
    async with http.post(f"{base}/api/courses", json=body, headers=headers) as resp:
        data = await resp.json()
        t1 = time.time()
        if resp.status != 201:
            raise RuntimeError(f"POST /api/courses answered {resp.status}: {data}")
    return data["id"], t0, t1


async def http_session_and_csrf(base: str, session_key: str):
    import aiohttp

    jar = aiohttp.CookieJar(unsafe=True)
    http = aiohttp.ClientSession(cookie_jar=jar)
    http.cookie_jar.update_cookies({"sessionid": session_key})
    async with http.get(f"{base}/api/courses") as resp:  # loads the URLconf and sets csrftoken
        if resp.status != 200:
            raise RuntimeError(f"GET /api/courses answered {resp.status}")
    return http, {c.key: c.value for c in jar}["csrftoken"]


def summarise(label: str, values_ms: list[float]) -> str:
    return (
        f"{label}: n={len(values_ms)} p50={pct(values_ms, 50):.1f} ms p99={pct(values_ms, 99):.1f} ms max={max(values_ms):.1f} ms"
    )


def require_aiohttp() -> None:
    """Fail early with the set-up step instead of a traceback in a worker process."""
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        sys.exit(
            "realtime_bench needs aiohttp (pyproject's test extra): run scripts/setup.sh --test "
            "(./scripts/test.sh does) or .venv/bin/pip install 'aiohttp>=3.9'"
        )


def main():
    require_aiohttp()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=500)
    parser.add_argument("--writes", type=int, default=20)
    parser.add_argument("--gap", type=float, default=0.3, help="seconds between writes")
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--hold", type=float, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--redis", default=None, help="REDIS_URL for the server (default: in-memory layer)")
    parser.add_argument("--ping-interval-ms", type=int, default=5000)
    parser.add_argument("--ping-timeout-ms", type=int, default=20000)
    args = parser.parse_args()
    raise_fd_limit()

    database_url, drop = make_database()
    server = None
    workers = None
    try:
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "project.settings",
            "ALLOWED_HOSTS": "localhost,127.0.0.1",
            "LOG_LEVEL": "ERROR",
            "SOCKETIO_PING_INTERVAL_MS": str(args.ping_interval_ms),
            "SOCKETIO_PING_TIMEOUT_MS": str(args.ping_timeout_ms),
        }
        env.pop("REDIS_URL", None)
        if args.redis:
            env["REDIS_URL"] = args.redis
        subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v0", "--skip-checks"], cwd=ROOT, env=env, check=True)
        ids = seed(database_url)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        command = [DAPHNE, "-b", "127.0.0.1", "-p", str(port), "project.asgi:application"]
        if os.environ.get("BENCH_PROFILE"):  # cProfile the server into this file (written on SIGTERM exit)
            command = [PYTHON, "-m", "cProfile", "-o", os.environ["BENCH_PROFILE"]] + command
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=raise_fd_limit,
        )
        deadline = time.time() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError as e:
                if time.time() > deadline or server.poll() is not None:
                    raise RuntimeError("daphne did not start") from e
                time.sleep(0.2)
        layer = f"Redis ({args.redis})" if args.redis else "in-memory"
        print(f"server: daphne pid {server.pid}, {layer} channel layer, database {database_url.split('?')[0]}")
        print(
            f"        pingInterval {args.ping_interval_ms} ms, pingTimeout {args.ping_timeout_ms} ms; "
            f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
        )

        async def prepare():
            return await http_session_and_csrf(base, ids["session"])

        loop = asyncio.new_event_loop()
        http, csrf = loop.run_until_complete(prepare())
        baseline = rss_mb(server.pid)

        ws_url = f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket"
        headers = {"Cookie": f"sessionid={ids['session']}", "Origin": f"http://localhost:{port}"}
        workers = Workers(args.workers, ws_url, headers)

        # 1. latency --------------------------------------------------------------------------------------
        t = time.time()
        errors = workers.connect(args.sockets)
        took = time.time() - t
        open_now = workers.count()
        print(
            f"\nlatency: {open_now} sockets of one organization connected in {took:.1f} s "
            f"({open_now / took:.0f}/s), {len(errors)} failed {errors[:2]}"
        )
        writes = []
        cpu_before = cpu_seconds(server.pid)
        for n in range(args.writes):
            writes.append(loop.run_until_complete(write_course(http, base, csrf, n)))
            time.sleep(args.gap)
        time.sleep(1.0)
        cpu_per_write = (cpu_seconds(server.pid) - cpu_before) / max(1, args.writes) * 1000
        arrivals = workers.collect()
        by_id: dict[str, list[float]] = {}
        for course_id, at in arrivals:
            by_id.setdefault(course_id, []).append(at)
        from_response, from_request, missing = [], [], 0
        for course_id, t0, t1 in writes:
            got = by_id.get(course_id, [])
            missing += open_now - len(got)
            from_response += [(at - t1) * 1000 for at in got]
            from_request += [(at - t0) * 1000 for at in got]
        last_socket = [(max(by_id.get(cid, [t1])) - t1) * 1000 for cid, _, t1 in writes]
        print(f"  {args.writes} writes (POST /api/courses) x {open_now} sockets; missing deliveries: {missing}")
        print("  " + summarise("from write response to event", from_response))
        print("  " + summarise("from write request  to event", from_request))
        print(
            f"  last socket per write (from response): median {statistics.median(last_socket):.1f} ms, "
            f"max {max(last_socket):.1f} ms"
        )
        print(
            f"  server CPU per write incl. its fan-out and {args.gap:.1f} s of idle pings: {cpu_per_write:.0f} ms "
            f"(the wall-clock figures above stretch by how much CPU the server actually got)"
        )
        print(f"  server RSS: {baseline:.0f} MB before sockets, {rss_mb(server.pid):.0f} MB with {open_now}")

        # 2. idle capacity -------------------------------------------------------------------------------
        print(f"\nidle: topping up to {args.idle} sockets")
        samples = []
        step = 500
        current = open_now
        while current < args.idle:
            add = min(step, args.idle - current)
            t = time.time()
            errs = workers.connect(add)
            current = workers.count()
            samples.append((current, rss_mb(server.pid)))
            print(
                f"  {current:5d} sockets  RSS {samples[-1][1]:6.0f} MB  (+{add} in {time.time() - t:.1f} s, "
                f"{len(errs)} failed{': ' + errs[0][:80] if errs else ''})"
            )
        start_rss = rss_mb(server.pid)
        hold_samples = []
        t_end = time.time() + args.hold
        while time.time() < t_end:
            time.sleep(min(5, max(0.1, t_end - time.time())))
            hold_samples.append(rss_mb(server.pid))
        still = workers.count()
        print(
            f"  held {args.hold:.0f} s idle ({args.hold * 1000 / args.ping_interval_ms:.0f} ping rounds): "
            f"RSS {start_rss:.0f} MB -> {hold_samples[-1]:.0f} MB "
            f"(min {min(hold_samples):.0f}, max {max(hold_samples):.0f}); {still} sockets still open"
        )
        if samples and current > open_now:
            per = (samples[-1][1] - baseline) / max(1, current) * 1024
            print(f"  about {per:.0f} KB per socket (RSS above the no-socket baseline)")
        workers.collect()
        cid, t0, t1 = loop.run_until_complete(write_course(http, base, csrf, 99999))
        time.sleep(3)
        got = [at for c, at in workers.collect() if c == cid]
        print(
            f"  one write after the hold reached {len(got)}/{still} sockets; "
            f"last after {(max(got) - t1) * 1000 if got else float('nan'):.0f} ms"
        )
        loop.run_until_complete(http.close())
    finally:
        if workers is not None:
            try:
                workers.stop()
            except Exception:  # noqa: S110 — closing a client that may already be gone
                pass
        if server is not None and server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: S110 — closing a client that may already be gone
            pass
        drop()


if __name__ == "__main__":
    main()
