"""A workbook's worker is stopped when the client gives up (real daphne, ADR 0004).

The upload is a workbook that passes every check and takes seconds of CPU to parse (400,000 cells); the
client sends it over a raw socket, waits until the server has started the worker (a child process of
daphne running ``workbook_worker.py``), and closes the connection. The worker must be gone within 2 s,
having used far less CPU than the parse needs, and the server must log why it stopped it.
"""

from __future__ import annotations

import os
import secrets
import select
import socket
import time
import uuid
from pathlib import Path

import pytest

from tests.hardening.test_hostile_workbooks import HEADERS, package, sheet
from tests.realtime.conftest import Server, hook_sync, rt_database_url  # noqa: F401 — the fixture is used below

TICKS = os.sysconf("SC_CLK_TCK")


def workers_of(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` and that run the workbook worker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"workbook_worker.py" in cmdline:
            found.append(int(entry.name))
    return found


def cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def until(condition, timeout: float, step: float = 0.02):
    """Polls ``condition`` (a process appearing in /proc, a line in a log: nothing sends an event) until it
    holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


@pytest.fixture
def upload_server(rt_database_url):  # noqa: F811 — the fixture imported above
    srv = Server(rt_database_url, None, LOG_LEVEL="INFO").start()
    yield srv
    srv.stop()


def multipart(content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.xlsx"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, boundary


def test_the_worker_stops_when_the_client_disconnects(upload_server):
    seeded = hook_sync(upload_server, "seed", {})
    session = seeded["a"]["users"]["ada"]["session"]
    row = b"<row>" + b"".join(b"<c><v>%d</v></c>" % i for i in range(20)) + b"</row>"
    content = package({"xl/worksheets/sheet1.xml": sheet(row * 20_000)})
    assert len(HEADERS) <= 20
    body, boundary = multipart(content)
    csrf = secrets.token_hex(16)
    head = (
        f"POST /api/timetables/import HTTP/1.1\r\nHost: 127.0.0.1:{upload_server.port}\r\n"
        f"Origin: {upload_server.http}\r\nCookie: sessionid={session}; csrftoken={csrf}\r\nX-CSRFToken: {csrf}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()

    client = socket.create_connection(("127.0.0.1", upload_server.port))
    client.sendall(head + body)
    workers = until(lambda: workers_of(upload_server.proc.pid), timeout=20)
    assert workers, upload_server.logs()[-2000:]
    [worker] = workers
    exited = os.pidfd_open(worker)  # readable once the worker has ended: awaited, not polled
    try:
        client.close()
        closed_at = time.monotonic()
        used_at_close = cpu_seconds(worker) or 0.0
        ready, _, _ = select.select([exited], [], [], 2)
    finally:
        os.close(exited)
    assert ready, f"worker {worker} still running 2 s after the client left"
    assert time.monotonic() - closed_at < 2
    assert used_at_close < 3  # stopped early: the whole parse takes several seconds of CPU
    logs = until(lambda: "client-gone" in upload_server.logs() and upload_server.logs(), timeout=5)
    assert logs, upload_server.logs()[-2000:]
