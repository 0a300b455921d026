"""The scaled-out deployment, for real (ADR 0020): ``scripts/cluster.sh`` starts nginx (with
``deploy/nginx.conf``, the deployed file) in front of two daphne processes on PostgreSQL and Redis.

- Through the proxy, sockets land on both processes, and a write answered by either reaches every socket.
- A rolling restart (``cluster.sh restart``) under a request loop (reads and writes) and a socket fleet:
  no request fails, and every socket is back and has an event again within 3 seconds of losing its
  process (the SPA resyncs on reconnect: the seq gap rule).
- The client address behind nginx is the client's (X-Forwarded-For from the trusted proxy only).
- The probes through nginx answer JSON to every request a probe sends (no Accept header, ``*/*``,
  ``text/html``, HEAD), and with Redis stopped (the cluster's own redis-server, stopped and started again
  by the test) 503 JSON naming the channel layer, to every probe, not nginx's 502 page; ``cluster.sh
  status`` from an operator's shell without the services' addresses reports both processes ready.

Needs PostgreSQL (``.ci/run`` provides it) and the ``redis-server`` program: the cluster runs on a
redis-server of its own, never the shared one. Skipped on the embedded SQLite default, where there is
nothing to share between processes.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import subprocess
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlparse

import aiohttp
import pytest
import socketio

from tests.operations.servers import PROBES, READY_BODY_KEYS, PrivateRedis
from tests.realtime.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DB_URL = os.environ.get("DATABASE_URL", "")
PASSWORD = "Cluster-Pass-2026!"

pytestmark = pytest.mark.skipif(
    not DB_URL.startswith(("postgres://", "postgresql://")) or not shutil.which("redis-server"),
    reason="the cluster needs PostgreSQL (DATABASE_URL) and redis-server",
)


class Cluster:
    def __init__(self, db_url: str, state: Path, redis: PrivateRedis):
        self.port = free_port()
        self.app_port = free_port()
        while self.app_port in (self.port, self.port - 1) or abs(self.app_port - self.port) < 3:
            self.app_port = free_port()
        self.state = state
        self.redis = redis
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}},
            "DATABASE_URL": db_url,
            "REDIS_URL": redis.url,
            "CLUSTER_PORT": str(self.port),
            "CLUSTER_APP_PORT": str(self.app_port),
            "CLUSTER_DIR": str(state),
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "project.settings",
            "LOG_LEVEL": "WARNING",
            "EMAIL_URL": "dummy://",  # production settings need a mail choice (check --deploy, blockplan.E001)
        }

    @property
    def url(self) -> str:
        return f"http://localhost:{self.port}"

    def run(self, *args: str, timeout: float = 240) -> str:
        done = subprocess.run(
            ["scripts/cluster.sh", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout
        )
        assert done.returncode == 0, f"cluster.sh {' '.join(args)}: {done.stdout}\n{done.stderr}\n{self.logs()}"
        return done.stdout + done.stderr

    async def arun(self, *args: str) -> tuple[int, str]:
        proc = await asyncio.create_subprocess_exec(
            "scripts/cluster.sh", *args, cwd=ROOT, env=self.env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        out, _ = await proc.communicate()
        return proc.returncode, out.decode()

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in sorted(self.state.glob("*.log")))

    def app_lines(self, index: int) -> list[dict]:
        path = self.state / f"app-{index}.log"
        return [json.loads(x) for x in path.read_text(errors="replace").splitlines() if x.startswith("{")]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    import psycopg

    parsed = urlparse(DB_URL)
    name = f"bp_cluster_{secrets.token_hex(4)}"
    admin_url = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    db_url = parsed._replace(path=f"/{name}").geturl()
    redis = PrivateRedis().start()
    c = Cluster(db_url, tmp_path_factory.mktemp("cluster"), redis)
    try:
        c.run("start", "2")
        # An organization and a coordinator to sign in as (the processes share this database).
        subprocess.run(
            [
                PYTHON,
                "manage.py",
                "shell",
                "-c",
                "from project.accounts.models import Organization, User\n"
                "org = Organization.objects.create(name='Cluster TAFE', domain='cluster.example.edu.au')\n"
                f"User.objects.create_user(email='coord@cluster.example.edu.au', password='{PASSWORD}', first_name='Cory',"
                " last_name='Cluster', organization=org, role='admin', must_change_password=False)",
            ],
            cwd=ROOT,
            env=c.env,
            check=True,
            capture_output=True,
            timeout=60,
        )
        yield c
    finally:
        try:
            c.run("stop", timeout=60)
        finally:
            redis.stop()
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def sign_in(http: aiohttp.ClientSession, cluster: Cluster, forwarded_for: str | None = None) -> dict:
    """Sign in through nginx; the cookies as headers (they are Secure: a Python cookie jar would not send
    them back over plain HTTP, as browsers do for localhost)."""
    jar: dict[str, str] = {}

    def keep(resp):
        for header in resp.headers.getall("Set-Cookie", []):
            for key, morsel in SimpleCookie(header).items():
                jar[key] = morsel.value

    extra = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    async with http.get(f"{cluster.url}/api/auth/user", headers=extra) as resp:
        keep(resp)
    headers = {
        "X-CSRFToken": jar["csrftoken"],
        "Cookie": f"csrftoken={jar['csrftoken']}",
        "Origin": cluster.url,
        "Content-Type": "application/json",
        **extra,
    }
    async with http.post(
        f"{cluster.url}/api/auth/login",
        headers=headers,
        data=json.dumps({"email": "coord@cluster.example.edu.au", "password": PASSWORD}),
    ) as resp:
        assert resp.status == 200, await resp.text()
        keep(resp)
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()), "X-CSRFToken": jar["csrftoken"], "Origin": cluster.url}


class Fleet:
    """Socket.IO clients through nginx, reconnecting as the SPA's socket.io-client does (1 s delay,
    randomisation 0.5), recording when each lost and regained its connection and its change events."""

    def __init__(self, n: int):
        # One HTTP session of our own carries the session cookie on every reconnect (python-engineio
        # moves a Cookie header into a session it closes on disconnect, so a reconnect would go without).
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.clients = [
            socketio.AsyncClient(reconnection=True, reconnection_delay=1, randomization_factor=0.5, http_session=self.http)
            for _ in range(n)
        ]
        self.lost: dict[int, float] = {}  # socket -> when it lost its process (while it is away)
        self.episodes: list[tuple[int, float, float]] = []  # (socket, lost at, back at)
        self.events: dict[int, list[tuple[float, int]]] = {i: [] for i in range(n)}
        for i, c in enumerate(self.clients):
            c.on("disconnect", self._on_disconnect(i))
            c.on("connect", self._on_connect(i))
            c.on("change", self._on_change(i))

    def _on_disconnect(self, i):
        async def handler(reason=None):
            self.lost.setdefault(i, time.monotonic())

        return handler

    def _on_connect(self, i):
        async def handler():
            if i in self.lost:
                self.episodes.append((i, self.lost.pop(i), time.monotonic()))

        return handler

    def _on_change(self, i):
        async def handler(data):
            self.events[i].append((time.monotonic(), data["seq"]))

        return handler

    async def connect(self, cluster: Cluster, headers: dict):
        self.http.cookie_jar.update_cookies({k: m.value for k, m in SimpleCookie(headers["Cookie"]).items()})
        for c in self.clients:
            await c.connect(cluster.url, headers={"Origin": cluster.url}, transports=["websocket"], wait_timeout=10)

    async def close(self):
        for c in self.clients:
            await c.disconnect()
        await self.http.close()


async def sockets_per_process(cluster: Cluster, http: aiohttp.ClientSession) -> list[float]:
    out = []
    for i in (1, 2):
        async with http.get(f"http://127.0.0.1:{cluster.app_port + i - 1}/metrics") as resp:
            text = await resp.text()
        out.append(next(float(x.split()[1]) for x in text.splitlines() if x.startswith("blockplan_sockets_open ")))
    return out


async def write(http, cluster, headers, tag) -> int:
    async with http.post(
        f"{cluster.url}/api/courses", headers=headers, data=json.dumps({"code": f"CL{tag}", "name": f"Cluster course {tag}"})
    ) as resp:
        return resp.status


async def test_sockets_on_both_processes_see_a_write_answered_by_either(cluster):
    async with aiohttp.ClientSession() as http:
        headers = await sign_in(http, cluster)
        fleet = Fleet(8)
        await fleet.connect(cluster, headers)
        try:
            counts = await sockets_per_process(cluster, http)
            assert sum(counts) >= 8 and min(counts) >= 1, f"nginx spread the sockets over both processes: {counts}"
            for n in range(4):  # round robin: the writes are answered by both processes
                assert await write(http, cluster, headers, f"X{n}") == 201
            for _ in range(50):
                if all(len(e) >= 4 for e in fleet.events.values()):
                    break
                await asyncio.sleep(0.1)
            assert all(len(e) == 4 for e in fleet.events.values()), {i: len(e) for i, e in fleet.events.items()}
        finally:
            await fleet.close()
    answered_by = {line.get("route") == "/api/courses" and line.get("method") == "POST" for line in cluster.app_lines(1)}
    answered_by2 = {line.get("route") == "/api/courses" and line.get("method") == "POST" for line in cluster.app_lines(2)}
    assert True in answered_by and True in answered_by2, "each process answered some of the writes"


async def test_the_client_address_behind_nginx_is_the_clients(cluster):
    async with aiohttp.ClientSession() as http:
        # A client claiming an address: nginx appends the real one (127.0.0.1) on the right, and that is
        # the address Django believes.
        async with http.get(
            f"{cluster.url}/api/auth/user", headers={"X-Forwarded-For": "203.0.113.50", "X-Request-ID": "client-claimed"}
        ) as resp:
            request_id = resp.headers["X-Request-ID"]
    assert request_id != "client-claimed"  # nginx sets its own request id
    lines = [x for i in (1, 2) for x in cluster.app_lines(i) if x.get("request_id") == request_id]
    assert len(lines) == 1 and lines[0]["client"] == "127.0.0.1"


async def test_rolling_restart_drops_no_request_and_sockets_catch_up_within_3_seconds(cluster):
    async with aiohttp.ClientSession() as http:
        headers = await sign_in(http, cluster)
        fleet = Fleet(20)
        await fleet.connect(cluster, headers)
        failures: list[str] = []
        sent = {"get": 0, "post": 0}
        stop = asyncio.Event()

        async def reads():
            while not stop.is_set():
                try:
                    async with http.get(f"{cluster.url}/api/courses", headers=headers) as resp:
                        await resp.read()
                        if resp.status != 200:
                            failures.append(f"GET {resp.status}")
                except aiohttp.ClientError as e:
                    failures.append(f"GET {e!r}")
                sent["get"] += 1

        async def writes():
            n = 0
            while not stop.is_set():
                n += 1
                try:
                    status = await write(http, cluster, headers, f"R{n}")
                    if status != 201:
                        failures.append(f"POST {status}")
                except aiohttp.ClientError as e:
                    failures.append(f"POST {e!r}")
                sent["post"] += 1
                await asyncio.sleep(0.25)

        try:
            loops = [asyncio.create_task(reads()) for _ in range(4)] + [asyncio.create_task(writes())]
            await asyncio.sleep(1)
            started = time.monotonic()
            code, out = await cluster.arun("restart")
            assert code == 0, out
            restart_seconds = time.monotonic() - started
            await asyncio.sleep(3.5)  # the last sockets to lose a process reconnect and get an event
            stop.set()
            await asyncio.gather(*loops)
            away, episodes = dict(fleet.lost), list(fleet.episodes)  # before our own disconnects below
        finally:
            await fleet.close()
    assert not failures, f"{len(failures)} failed of {sent}: {failures[:5]}"
    assert sent["get"] > 100 and sent["post"] > 10, sent
    # Every socket lost its process at least once (each process was restarted), and each time it was
    # back, with an event after its reconnect, within 3 s.
    assert not away, f"sockets never came back: {sorted(away)}"
    assert {i for i, _, _ in episodes} == set(range(20)), "every socket lost its process at least once"
    worst = 0.0
    for i, lost, back in episodes:
        caught_up = next((t for t, _seq in fleet.events[i] if t >= back), None)
        assert caught_up is not None, f"socket {i} got no event after reconnecting"
        worst = max(worst, caught_up - lost)
    assert worst < 3.0, f"slowest socket back and caught up after {worst:.2f} s"
    print(
        f"rolling restart {restart_seconds:.1f} s, {sent['get']} reads and {sent['post']} writes, 0 failed; "
        f"{len(episodes)} reconnects, the slowest back and caught up in {worst:.2f} s"
    )


async def test_the_proxy_caches_assets_for_a_year_and_limits_bodies_as_the_api_does(cluster):
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{cluster.url}/") as resp:
            index = await resp.text()
            assert resp.status == 200 and "/assets/" in index
        asset = next(part.split('"')[0] for part in index.split('src="')[1:] if part.startswith("/assets/"))
        async with http.get(f"{cluster.url}{asset}", headers={"Accept-Encoding": "gzip"}) as resp:
            assert resp.status == 200
            assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        # Past the API's largest body (a 10 MB import, 12 MB with its envelope), nginx answers 413 in the
        # API's error shape, before any process reads it.
        async with http.post(
            f"{cluster.url}/api/timetables/import",
            data=b"x" * (13 * 1024 * 1024),
            headers={"Content-Type": "application/octet-stream"},
        ) as resp:
            assert resp.status == 413
            assert await resp.json(content_type=None) == {"message": "The request is too large"}
        # Metrics are per process, not through the proxy.
        async with http.get(f"{cluster.url}/metrics") as resp:
            assert resp.status == 404


async def probe(http: aiohttp.ClientSession, url: str, method: str, headers: dict) -> tuple[int, str, dict | None]:
    """A probe as it is sent (aiohttp adds no Accept header of its own when one is given; with none, ``*/*``)."""
    async with http.request(method, url, headers=headers, skip_auto_headers=["Accept"] if not headers else ()) as resp:
        body = await resp.read()
        assert "no-store" in resp.headers["Cache-Control"], resp.headers
        if method == "HEAD":
            assert body == b""
            return resp.status, resp.headers["Content-Type"], None
        return resp.status, resp.headers["Content-Type"], json.loads(body)


async def test_probes_through_nginx_answer_json_to_every_probe(cluster):
    async with aiohttp.ClientSession() as http:
        for method, headers in PROBES:
            for path, body in (("/healthz", {"status": "ok"}), ("/readyz", dict.fromkeys(READY_BODY_KEYS, "OK"))):
                status, content_type, got = await probe(http, f"{cluster.url}{path}", method, headers)
                assert (status, content_type) == (200, "application/json"), (path, method, headers)
                assert got in (body, None)
    # An operator's shell: no DATABASE_URL or REDIS_URL; the script remembers them and probes as a probe does.
    env = {k: v for k, v in cluster.env.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    done = subprocess.run(["scripts/cluster.sh", "status"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    processes = [line for line in done.stdout.splitlines() if line.startswith("process ")]
    assert len(processes) == 2 and all(" up, readyz 200," in line for line in processes), done.stdout


async def test_with_redis_stopped_every_probe_through_nginx_gets_503_json_naming_it(cluster):
    """Runs last: it stops the cluster's Redis (its own redis-server) and starts it again on the same port."""
    not_ready = {**dict.fromkeys(READY_BODY_KEYS, "OK"), "ChannelLayerCarries()": "Unavailable: Channel layer unavailable"}
    async with aiohttp.ClientSession() as http:
        cluster.redis.stop()
        try:
            # Repeated: a 503 must not mark the processes failed in nginx (its 502 page would follow).
            for _ in range(3):
                for method, headers in PROBES:
                    status, content_type, got = await probe(http, f"{cluster.url}/readyz", method, headers)
                    assert (status, content_type) == (503, "application/json"), (method, headers, got)
                    assert got in (not_ready, None)
            status, _, got = await probe(http, f"{cluster.url}/healthz", "GET", {})
            assert (status, got) == (200, {"status": "ok"})  # alive: a liveness probe does not restart them
        finally:
            cluster.redis.start()
        for _ in range(50):  # ready again without a restart, as soon as Redis answers
            if (await probe(http, f"{cluster.url}/readyz", "GET", {}))[0] == 200:
                break
            await asyncio.sleep(0.1)
        assert [(await probe(http, f"{cluster.url}/readyz", "GET", {}))[0] for _ in range(4)] == [200] * 4
