"""The ASGI handler runs each request's synchronous work on a shared, bounded pool of threads
(project/core/asgi_handler.py, ADR 0013): no thread is started per request, and concurrent requests use at
most ``settings.ASGI_THREADS`` threads."""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.testing import HttpCommunicator
from django.conf import settings

from project.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


async def _get(path: str) -> dict:
    communicator = HttpCommunicator(application, "GET", path, headers=[(b"host", b"localhost")])
    return await communicator.get_response(timeout=10)


async def test_sequential_requests_start_no_thread_each(monkeypatch: pytest.MonkeyPatch) -> None:
    await _get("/api/auth/user")  # the pool's first thread may start here
    started: list[str] = []
    real_start = threading.Thread.start

    def counting_start(self: threading.Thread) -> None:
        started.append(self.name)
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", counting_start)
    requests = 3 * settings.ASGI_THREADS
    for _ in range(requests):
        response = await _get("/api/auth/user")
        assert response["status"] == 401
    # Django's own ASGIHandler (a ThreadSensitiveContext per request) starts two threads per request here
    # (its worker and the join of its shutdown). The shared pool may still grow while it does: a worker
    # marks itself idle only after the request it ran has answered, so the next request can find none idle.
    assert len(started) <= settings.ASGI_THREADS, started
    assert all(name.startswith("request") for name in started), started


async def test_concurrent_requests_use_at_most_asgi_threads() -> None:
    responses = await asyncio.gather(*(_get("/api/auth/user") for _ in range(3 * settings.ASGI_THREADS)))
    assert [r["status"] for r in responses] == [401] * (3 * settings.ASGI_THREADS)
    request_threads = [t for t in threading.enumerate() if t.name.startswith("request")]
    assert 1 <= len(request_threads) <= settings.ASGI_THREADS


async def test_a_write_does_not_queue_behind_reads() -> None:
    """Writes have threads of their own (ASGI_WRITE_THREADS, ADR 0025): with every read thread busy (after
    a change every open screen re-reads at once) a write is still answered."""
    from project.core.asgi_handler import request_executor, write_executor, write_threads

    assert write_threads() >= 1
    assert request_executor()._max_workers + write_executor()._max_workers == settings.ASGI_THREADS
    release = threading.Event()
    busy = [request_executor().submit(release.wait, 10) for _ in range(request_executor()._max_workers)]
    try:
        communicator = HttpCommunicator(
            application,
            "POST",
            "/api/auth/login",
            body=b"{}",
            headers=[(b"host", b"localhost"), (b"content-type", b"application/json")],
        )
        answer = await communicator.get_response(timeout=5)
        assert 400 <= answer["status"] < 500
        read = asyncio.ensure_future(_get("/api/auth/user"))
        await asyncio.sleep(0.2)
        assert not read.done()  # reads wait for the read threads, as before
    finally:
        release.set()
    assert (await read)["status"] == 401
    for future in busy:
        future.result()
