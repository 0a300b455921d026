"""Real servers for the realtime tests: a database of their own, daphne processes, Redis when asked.

pytest-django's test database is invisible to another process, so the session creates its own:
``bp_rt_<random>`` on the PostgreSQL server of ``DATABASE_URL`` when that is PostgreSQL, else a temporary
SQLite file, migrated by ``manage.py migrate`` in a subprocess and dropped at the end.

Servers run ``tests.realtime.testapp:application`` (the project's ASGI app plus test hooks that write
through the foundation's change helper inside the server process) with short Engine.IO timings, so a
silent client is dropped within about two seconds.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

import aiohttp
import pytest
import socketio

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DAPHNE = str(ROOT / ".venv" / "bin" / "daphne")  # full venv path: the recorded pid is the server's (trap 12)
PING_INTERVAL_MS = 1000
PING_TIMEOUT_MS = 1000
DEFAULT_REDIS = "redis://127.0.0.1:6379/5"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_reachable(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def base_env(database_url: str, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="project.settings",
        DATABASE_URL=database_url,
        ALLOWED_HOSTS="localhost,127.0.0.1",
        PYTHONPATH=str(ROOT),
        LOG_LEVEL="ERROR",
    )
    env.update({k: str(v) for k, v in extra.items() if v is not None})
    return env


@pytest.fixture(scope="session")
def rt_database_url():
    """A migrated database of this session's own (see module docstring)."""
    url = os.environ.get("DATABASE_URL", "")
    tmpdir = None
    admin = None
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        parsed = urlparse(url)
        name = f"bp_rt_{secrets.token_hex(4)}"
        admin_url = parsed._replace(path="/postgres").geturl()
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        admin = (admin_url, name)
        db_url = parsed._replace(path=f"/{name}").geturl()
    else:
        tmpdir = tempfile.mkdtemp(prefix="bp_rt_")
        db_url = f"sqlite:///{tmpdir}/rt.sqlite3"
    try:
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "--noinput", "-v0", "--skip-checks"],
            cwd=ROOT,
            env=base_env(db_url),
            check=True,
            timeout=180,
        )
        yield db_url
    finally:
        if admin is not None:
            import psycopg

            with psycopg.connect(admin[0], autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{admin[1]}" WITH (FORCE)')
        if tmpdir is not None:
            shutil.rmtree(tmpdir, ignore_errors=True)


class Server:
    """One daphne process on a free port."""

    def __init__(self, database_url: str, redis_url: str | None = None, **env):
        self.port = free_port()
        self.redis_url = redis_url
        self.env = base_env(
            database_url,
            REDIS_URL=redis_url,
            SOCKETIO_PING_INTERVAL_MS=env.pop("ping_interval", PING_INTERVAL_MS),
            SOCKETIO_PING_TIMEOUT_MS=env.pop("ping_timeout", PING_TIMEOUT_MS),
            SOCKETIO_SESSION_RECHECK_MS=env.pop("session_recheck", 1000),
            **env,
        )
        self.log = tempfile.NamedTemporaryFile(prefix="daphne_", suffix=".log", delete=False)
        self.proc = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return f"http://localhost:{self.port}"

    def start(self) -> Server:
        return self.launch().wait()

    def launch(self) -> Server:
        self.proc = subprocess.Popen(
            [DAPHNE, "-b", "127.0.0.1", "-p", str(self.port), "tests.realtime.testapp:application"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        return self

    def wait(self) -> Server:
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited: {Path(self.log.name).read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("daphne did not start")

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        os.unlink(self.log.name)

    def logs(self) -> str:
        return Path(self.log.name).read_text(errors="replace")


@pytest.fixture(scope="session")
def server(rt_database_url):
    """The realtime server, with the channel layer the environment asks for (``REDIS_URL`` or in-memory)."""
    srv = Server(rt_database_url, os.environ.get("REDIS_URL")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def seeded(server):
    """Org a (ada admin, mel member, ina inactive) and org b (bob), each user with a session key."""
    return hook_sync(server, "seed", {})


def hook_sync(server: Server, name: str, body: dict) -> dict:
    import urllib.request

    req = urllib.request.Request(  # noqa: S310 — the test's own http:// server
        f"{server.http}/__rt__/{name}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=20) as resp:  # noqa: S310 — the test's own http:// server
        return json.loads(resp.read())


async def hook(server: Server, name: str, body: dict) -> dict:
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{server.http}/__rt__/{name}", json=body) as resp:
            data = await resp.json()
            assert resp.status == 200, data
            return data


class PyClient:
    """python-socketio's AsyncClient, recording ``change`` and ``presence`` events and disconnects."""

    def __init__(self):
        self.sio = socketio.AsyncClient(reconnection=False)
        self.changes: asyncio.Queue = asyncio.Queue()
        self.presence: asyncio.Queue = asyncio.Queue()
        self.disconnected = asyncio.Event()
        self.disconnect_reason = None
        self.sio.on("change", self._on_change)
        self.sio.on("presence", self._on_presence)
        self.sio.on("disconnect", self._on_disconnect)

    async def _on_change(self, data):
        await self.changes.put(data)

    async def _on_presence(self, data):
        await self.presence.put(data)

    async def _on_disconnect(self, reason=None):
        self.disconnect_reason = reason
        self.disconnected.set()

    async def connect(self, server: Server, session: str | None, origin: str | None = "default"):
        headers = {}
        if session:
            headers["Cookie"] = f"sessionid={session}"
        if origin == "default":
            origin = server.origin
        if origin:
            headers["Origin"] = origin
        await self.sio.connect(server.http, headers=headers, transports=["websocket"], wait_timeout=5)
        return self

    async def next_change(self, timeout: float = 5.0) -> dict:
        return await asyncio.wait_for(self.changes.get(), timeout)

    async def no_change(self, within: float = 0.5) -> None:
        try:
            got = await asyncio.wait_for(self.changes.get(), within)
        except TimeoutError:
            return
        raise AssertionError(f"unexpected change event {got}")

    async def presence_where(self, predicate, timeout: float = 5.0) -> dict:
        """The next ``presence`` payload satisfying ``predicate`` (earlier ones are skipped)."""

        async def wait():
            while True:
                data = await self.presence.get()
                if predicate(data):
                    return data

        return await asyncio.wait_for(wait(), timeout)

    async def close(self):
        if self.sio.connected:
            await self.sio.disconnect()


@pytest.fixture
async def clients():
    """A factory of connected PyClients, all disconnected at the end of the test."""
    made: list[PyClient] = []

    async def make(server, session, origin="default"):
        client = PyClient()
        made.append(client)
        return await client.connect(server, session, origin)

    yield make
    for client in made:
        try:
            await client.close()
        except Exception:  # noqa: S110 — closing a client that may already be gone
            pass


def find_socketio_client_node_path() -> str | None:
    """NODE_PATH holding socket.io-client: the SPA's node_modules first, else a scratch /tmp/sio copy."""
    for candidate in (ROOT / "spa" / "node_modules", Path("/tmp/sio/node_modules")):
        if (candidate / "socket.io-client" / "package.json").exists():
            return str(candidate)
    return None


NODE = shutil.which("node")


async def start_node_client(script: Path, config: dict) -> asyncio.subprocess.Process:
    """Run a socket.io-client script of tests/realtime/node with its ``RT_CLIENT`` configuration
    (``{url, cookie, origin, ...}``); stdin, stdout and stderr are pipes (JSON lines both ways)."""
    env = {**os.environ, "NODE_PATH": find_socketio_client_node_path() or "", "RT_CLIENT": json.dumps(config)}
    return await asyncio.create_subprocess_exec(
        NODE or "node",
        str(script),
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
