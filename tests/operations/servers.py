"""What the operations tests share: a private redis-server they may stop, and the requests probes send."""

from __future__ import annotations

import json
import signal
import subprocess
import time

from tests.realtime.conftest import free_port, redis_reachable

READY_BODY_KEYS = {"DatabaseReady(alias='default')", "ChannelLayerCarries()", "MigrationsApplied()"}


class PrivateRedis:
    """A redis-server of this test's own on a free port, which it may stop and start again (the shared
    Redis is never touched)."""

    def __init__(self):
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> PrivateRedis:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not redis_reachable(self.url):
            assert time.monotonic() < deadline and self.proc.poll() is None, "redis-server did not start"
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=10)
        self.proc = None


PROBES = [
    ("GET", {}),
    ("GET", {"Accept": "*/*"}),
    ("GET", {"Accept": "text/html"}),
    ("GET", {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}),  # a browser
    ("GET", {"Accept": "application/xml"}),  # nothing we offer: still the probe's answer, not 406
    ("GET", {"Accept": "application/json"}),
    ("HEAD", {}),
    ("HEAD", {"Accept": "*/*"}),
]


def assert_json_probe(answer: tuple[int, dict, bytes], method: str, status: int) -> dict | None:
    code, headers, body = answer
    assert code == status, (code, body[:300])
    assert headers["content-type"] == "application/json"
    assert "no-cache" in headers["cache-control"] and "no-store" in headers["cache-control"]
    if method == "HEAD":
        assert body == b"" and int(headers["content-length"]) > 0  # the GET's length, no body
        return None
    return json.loads(body)
