"""Django's ASGI handler with each request's synchronous work on one worker-thread hop (ADR 0013).

Django's ``ASGIHandler`` runs the middleware chain in async mode. Our chain holds synchronous-only
middleware (WhiteNoise, our own) and every view is synchronous, so a plain request crosses between the
event loop and a worker thread five times: ``request_started`` (``close_old_connections``), into the
sync middleware, back to the loop for the inner async handler, out again for the view, and once more
for ``response.close()`` (``request_finished``). Under 32 concurrent clients on one process each crossing
waits for the loop's turn; together they were about a quarter of a cached read's cost
(``bench/reads_bench.py --clients 32``, ADR 0013).

:class:`OneHopASGIHandler` loads the middleware in sync mode (as under WSGI) and runs, in one
``sync_to_async`` call on the request's own thread (``ThreadSensitiveContext``, as Django does),
``request_started``, the chain with the view, and, for a non-streaming answer whose body is already in
memory, ``response.close()`` (``request_finished``: the database connection goes back to the pool before
the bytes are sent). Streaming answers (the SPA's ``index.html`` file, WhiteNoise's static files) are closed
after sending, as Django does.

The hop goes to a pool of worker threads shared by all reads, and writes to a few threads of their own
(``ASGI_WRITE_THREADS``, 2; together ``settings.ASGI_THREADS``: ADR 0025), not to a thread made for each
request: Django's own handler enters a
``ThreadSensitiveContext`` per request, for which asgiref starts a new thread and joins it afterwards, and
that start and join were 17% of the process's CPU for a cached read (py-spy ``--gil`` under
``bench/reads_bench.py``-like load, 2026-11-26). Nothing of a request lives on after it on its thread:
``request_finished`` closes its database connections there (they go back to the psycopg pool), and a
streaming answer's connections are closed on the worker before the answer is sent, because its close runs
later on another thread. Everything else (request parsing, 400/413 on bad input, sending) is
Django's own code. Disconnects are not watched for every request (a synchronous view cannot be cancelled);
code that runs long on a request's behalf asks :func:`client_gone` for an event set when the client goes
away, and stops its own work (an upload's worker process, :mod:`project.core.workbooks`).
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.db import close_old_connections
from django.urls import set_script_prefix

if TYPE_CHECKING:  # pragma: no cover
    from django.core.handlers.asgi import ASGIRequest, _ReceiveCallback, _SendCallback
    from django.http.response import HttpResponseBase


class DisconnectWatch:
    """A request's way to learn, from its worker thread, that the client disconnected: :meth:`start` (on
    first use only) listens for ASGI's ``http.disconnect`` on the event loop and returns the event it sets."""

    def __init__(self, receive: _ReceiveCallback, loop: asyncio.AbstractEventLoop) -> None:
        self.receive, self.loop = receive, loop
        self.gone = threading.Event()
        self._listener: Future[None] | None = None

    def start(self) -> threading.Event:
        """The event set on ``http.disconnect`` (listening starts on the first call, made from the request's thread)."""
        if self._listener is None:
            self._listener = asyncio.run_coroutine_threadsafe(self._listen(), self.loop)
        return self.gone

    async def _listen(self) -> None:
        while True:
            message = await self.receive()
            if message["type"] == "http.disconnect":
                self.gone.set()
                return

    def stop(self) -> None:
        """Stop listening (the request is over)."""
        if self._listener is not None:
            self._listener.cancel()


_disconnect_watch: ContextVar[DisconnectWatch | None] = ContextVar("disconnect_watch", default=None)


def client_gone() -> threading.Event | None:
    """For code running on a request's behalf under ASGI: an event set once the client has disconnected
    (None outside an ASGI request, e.g. under the test client or in a command)."""
    watch = _disconnect_watch.get()
    return watch.start() if watch is not None else None


_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


_write_executor: ThreadPoolExecutor | None = None
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def write_threads() -> int:
    """Threads kept for writes (``ASGI_WRITE_THREADS``, default 2, at most ``ASGI_THREADS`` - 1)."""
    wanted = int(getattr(settings, "ASGI_WRITE_THREADS", 2) or 0)
    return max(0, min(wanted, settings.ASGI_THREADS - 1))


def request_executor() -> ThreadPoolExecutor:
    """The process's pool that runs reads' synchronous work: ``settings.ASGI_THREADS`` threads less the
    ones kept for writes (:func:`write_executor`), so the two together hold at most ``ASGI_THREADS``
    database connections."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=settings.ASGI_THREADS - write_threads(), thread_name_prefix="request")
        return _executor


def write_executor() -> ThreadPoolExecutor:
    """The threads kept for writes (POST, PUT, PATCH, DELETE; ADR 0025). After a change every open screen
    re-reads at once; in one queue with them, a write waited behind all those reads (50 watchers: 3x its
    time alone). Falls back to the shared pool when no thread is kept."""
    global _write_executor
    if write_threads() == 0:
        return request_executor()
    with _executor_lock:
        if _write_executor is None:
            _write_executor = ThreadPoolExecutor(max_workers=write_threads(), thread_name_prefix="write")
        return _write_executor


class OneHopASGIHandler(ASGIHandler):
    """``ASGIHandler`` with the middleware in sync mode and one thread hop per request."""

    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    def _respond(self, scope: dict[str, Any], request: ASGIRequest) -> tuple[HttpResponseBase, bool]:
        """On the worker thread: ``request_started``, the middleware chain and view, and the close of a
        non-streaming response. Returns ``(response, closed)``."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        response = self.get_response(request)
        response._handler_class = self.__class__
        if response.streaming:
            # Closed after sending, on whichever thread runs it: give this thread's connections back now.
            close_old_connections()
            return response, False
        response.close()
        return response, True

    async def handle(self, scope: dict[str, Any], receive: _ReceiveCallback, send: _SendCallback) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        created = self.create_request(scope, body_file)  # (request, None) or (None, the error response)
        if created[0] is None:
            error_response = created[1]
            body_file.close()
            await self.send_response(error_response, send)
            await sync_to_async(error_response.close)()
            return
        request = created[0]
        watch = DisconnectWatch(receive, asyncio.get_running_loop())
        token = _disconnect_watch.set(watch)
        try:
            executor = request_executor() if scope.get("method", "GET") in SAFE_METHODS else write_executor()
            response, closed = await sync_to_async(self._respond, thread_sensitive=False, executor=executor)(scope, request)
            try:
                await self.send_response(response, send)
            finally:
                if not closed:
                    await sync_to_async(response.close)()
        finally:
            watch.stop()
            _disconnect_watch.reset(token)
            body_file.close()


def get_asgi_application() -> OneHopASGIHandler:
    """Like ``django.core.asgi.get_asgi_application``: set Django up, then the handler."""
    import django

    django.setup(set_prefix=False)
    return OneHopASGIHandler()
