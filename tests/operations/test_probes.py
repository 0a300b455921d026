"""Operational endpoints and scripts called the way operators and monitors call them (docs/adr/0020-operations.md).

Each is called as the caller really does, not as the code prefers:

- ``/healthz`` and ``/readyz`` on a real daphne process, as probes send them: no ``Accept`` header
  (Kubernetes, curl without options), ``Accept: */*`` (curl, load balancers), ``Accept: text/html`` (a
  browser, some uptime monitors), an unusual type, and ``HEAD``; then with Redis stopped (a private
  ``redis-server`` this test starts and stops) and with the database down (a closed port): 503 with the
  JSON naming the failed check, never a 500 or a template;
- ``/metrics`` as Prometheus scrapes it (its ``Accept`` and ``Accept-Encoding`` headers) and ``HEAD``;
- ``manage.py trim_activity`` as cron runs it: an empty environment but for the database, another working
  directory, no terminal;
- ``scripts/backup.sh`` as the README documents it: no file argument, called by its path from elsewhere.

Through nginx (``scripts/cluster.sh``) the probes are tested in ``test_cluster.py``. Needs PostgreSQL.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import secrets
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.operations.servers import PROBES, READY_BODY_KEYS, PrivateRedis, assert_json_probe
from tests.realtime.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
DAPHNE = str(ROOT / ".venv" / "bin" / "daphne")
DB_URL = os.environ.get("DATABASE_URL", "")
PROMETHEUS_ACCEPT = (
    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
    "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
)

pytestmark = pytest.mark.skipif(
    not DB_URL.startswith(("postgres://", "postgresql://")), reason="the probes are tested on PostgreSQL (DATABASE_URL)"
)


def _env(database_url: str, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(DJANGO_SETTINGS_MODULE="project.settings", DATABASE_URL=database_url, PYTHONPATH=str(ROOT), LOG_LEVEL="ERROR")
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def database():
    """A migrated database of this module's own (the daphne processes cannot see pytest's)."""
    import psycopg

    parsed = urlparse(DB_URL)
    name = f"bp_probes_{secrets.token_hex(4)}"
    admin_url = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = parsed._replace(path=f"/{name}").geturl()
    try:
        subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=_env(url), check=True, timeout=300)
        yield url
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Daphne:
    """The project's ASGI application in one daphne process, as ``scripts/run.sh`` starts it."""

    def __init__(self, database_url: str, redis_url: str, **extra: str):
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="probes_daphne_", suffix=".log", delete=False)
        self.proc = subprocess.Popen(
            [DAPHNE, "-b", "127.0.0.1", "-p", str(self.port), "project.asgi:application"],
            cwd=ROOT,
            env=_env(database_url, REDIS_URL=redis_url, **extra),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, f"daphne exited: {self.logs()}"
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"daphne did not answer: {self.logs()}"
            time.sleep(0.1)

    def request(self, method: str, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
        """One request with exactly these headers (http.client adds only Host and Accept-Encoding)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            conn.request(method, path, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
        finally:
            conn.close()

    def logs(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        os.unlink(self.log.name)


@pytest.fixture(scope="module")
def redis():
    r = PrivateRedis().start()
    yield r
    r.stop()


@pytest.fixture(scope="module")
def server(database, redis):
    srv = Daphne(database, redis.url)
    yield srv
    srv.stop()


@pytest.mark.parametrize(("method", "headers"), PROBES)
def test_probes_answer_json_to_any_get_or_head(server, method, headers):
    assert assert_json_probe(server.request(method, "/healthz", headers), method, 200) in ({"status": "ok"}, None)
    ready = assert_json_probe(server.request(method, "/readyz", headers), method, 200)
    assert ready is None or ready == dict.fromkeys(READY_BODY_KEYS, "OK")


def test_probes_refuse_other_methods_in_json(server):
    code, headers, body = server.request("OPTIONS", "/readyz")
    assert code == 405 and headers["allow"] == "GET, HEAD" and json.loads(body) == {"message": "Method not allowed"}
    code, _, body = server.request("POST", "/healthz")  # no CSRF token: refused before the view, in JSON too
    assert code == 403 and "message" in json.loads(body)


def test_readyz_answers_503_naming_redis_while_it_is_stopped_and_200_when_it_is_back(database):
    redis = PrivateRedis().start()
    srv = Daphne(database, redis.url)
    try:
        assert srv.request("GET", "/readyz")[0] == 200
        redis.stop()
        for method, headers in PROBES:
            started = time.monotonic()
            ready = assert_json_probe(srv.request(method, "/readyz", headers), method, 503)
            assert time.monotonic() - started < 4, "a probe is answered within its timeout"
            if ready is not None:
                assert ready == {
                    "DatabaseReady(alias='default')": "OK",
                    "ChannelLayerCarries()": "Unavailable: Channel layer unavailable",
                    "MigrationsApplied()": "OK",
                }
        assert assert_json_probe(srv.request("GET", "/healthz"), "GET", 200) == {"status": "ok"}  # alive: no restart
        redis.start()  # the same port again: ready without restarting the process
        assert assert_json_probe(srv.request("GET", "/readyz"), "GET", 200) == dict.fromkeys(READY_BODY_KEYS, "OK")
        assert "Traceback" not in srv.logs()
    finally:
        srv.stop()
        redis.stop()


def test_readyz_answers_503_naming_the_database_while_it_is_down(redis):
    closed = f"postgres://postgres@127.0.0.1:{free_port()}/blockplan"  # nothing listens there
    srv = Daphne(closed, redis.url)  # the pool's default wait for a connection (10 s) is longer than a probe's
    try:
        for method, headers in PROBES[:3] + PROBES[6:7]:
            started = time.monotonic()
            ready = assert_json_probe(srv.request(method, "/readyz", headers), method, 503)
            assert time.monotonic() - started < 4, "a probe is answered within its timeout"
            if ready is not None:
                assert set(ready) == READY_BODY_KEYS and ready["ChannelLayerCarries()"] == "OK"
                assert ready["DatabaseReady(alias='default')"].startswith("Unavailable: ")
                assert ready["MigrationsApplied()"].startswith("Unavailable: ")
        assert assert_json_probe(srv.request("HEAD", "/healthz"), "HEAD", 200) is None
    finally:
        srv.stop()


def test_metrics_answer_a_prometheus_scrape_curl_and_head(server):
    """Prometheus asks for OpenMetrics first and gzip: it gets both. curl, a browser or a scraper naming no
    format gets the classic text format every scraper reads. HEAD: the headers only."""
    server.request("GET", "/readyz")
    code, headers, body = server.request("GET", "/metrics", {"Accept": PROMETHEUS_ACCEPT, "Accept-Encoding": "gzip"})
    assert code == 200 and headers["content-type"].startswith("application/openmetrics-text; version=1.0.0")
    assert headers["content-encoding"] == "gzip"
    text = gzip.decompress(body).decode()
    assert 'blockplan_http_request_duration_seconds_count{method="GET",route="/readyz",status="200"}' in text
    assert text.endswith("# EOF\n")  # OpenMetrics' required end
    for accept in ({}, {"Accept": "*/*"}, {"Accept": "text/html"}):
        code, headers, body = server.request("GET", "/metrics", accept)
        assert code == 200 and headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8", accept
        assert "content-encoding" not in headers and b"# TYPE blockplan_sockets_open gauge" in body
    code, headers, body = server.request("HEAD", "/metrics", {"Accept": PROMETHEUS_ACCEPT})
    assert code == 200 and body == b"" and headers["content-type"].startswith("application/openmetrics-text")
    code, headers, body = server.request("GET", "/metrics", {"X-Forwarded-For": "203.0.113.9"})
    assert code == 200  # no trusted proxy here: the peer (this machine) counts, not what a client claims


def test_trim_activity_runs_from_cron(database, tmp_path):
    """As a crontab line runs it: an empty environment but the database, a working directory elsewhere,
    no terminal on any stream; it deletes and says so on standard output (cron mails it)."""
    setup = (
        "from datetime import timedelta\n"
        "from django.utils import timezone\n"
        "from project.accounts.models import Organization\n"
        "from project.history.models import Activity\n"
        "org = Organization.objects.create(name='Cron TAFE', domain='cron.example.edu.au')\n"
        "old = Activity.objects.unscoped().create(organization=org, seq=1, actor_label='system', entity='course',"
        " action='updated', summary='old')\n"
        "Activity.objects.unscoped().filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=500))\n"
        "Activity.objects.unscoped().create(organization=org, seq=2, actor_label='system', entity='course',"
        " action='updated', summary='new')\n"
    )
    subprocess.run([PYTHON, "manage.py", "shell", "-c", setup], cwd=ROOT, env=_env(database), check=True, timeout=120)
    cron_env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "SHELL": "/bin/sh", "DATABASE_URL": database}
    done = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), "trim_activity"],
        cwd=tmp_path,
        env=cron_env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Deleted 1 activities older than 400 days."
    again = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), "trim_activity", "--days", "0"],
        cwd=tmp_path,
        env=cron_env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode != 0 and "--days must be at least 1" in again.stderr  # cron mails the failure


def test_backup_as_documented_without_a_file_from_another_directory(database, tmp_path):
    """``scripts/backup.sh`` with no argument, by its full path from another directory with cron's PATH:
    a dump under the repository's ``var/backups/`` readable by its owner only, its path on stdout."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DATABASE_URL": database}
    done = subprocess.run(
        [str(ROOT / "scripts" / "backup.sh")],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    made = ROOT / done.stdout.strip()
    try:
        assert made.parent == ROOT / "var" / "backups" and made.name.startswith("blockplan-") and made.suffix == ".dump"
        assert oct(made.stat().st_mode & 0o777) == "0o600"
        listing = subprocess.run(["pg_restore", "--list", str(made)], capture_output=True, text=True, check=True).stdout
        assert "TABLE DATA public timetabling_timetablesession" in listing
    finally:
        made.unlink(missing_ok=True)
