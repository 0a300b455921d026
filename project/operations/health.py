"""Probes for load balancers and orchestrators (docs/adr/0020-operations.md), with django-health-check's checks.

Both answer any ``GET`` or ``HEAD`` the way a probe sends it (no ``Accept`` header, ``*/*``, ``text/html``,
a query string or none) with a small JSON body (no body to ``HEAD``), never a template, and are never
cached; other methods are refused in JSON (405, or the CSRF check's 403 to an unsafe one without a token).

- ``/healthz``: liveness, the process answers (no database, no Redis): restart the process if not.
  Always ``200 {"status": "ok"}``.
- ``/readyz``: readiness, the database answers, the channel layer carries a message (Redis when
  ``REDIS_URL`` is set: without it live updates would silently stop) and every migration is applied.
  ``200`` when all pass, ``503`` otherwise; the body maps each check to ``"OK"`` or what failed, e.g.
  ``{"DatabaseReady(alias='default')": "OK", "ChannelLayerCarries()": "Unavailable: Channel layer
  unavailable", "MigrationsApplied()": "OK"}``. Take a process out of the pool while it is not ready.
  Each check gives up after ``READYZ_CHECK_SECONDS`` (2 s), so a probe is answered within about 3 s even
  when the database or Redis does not answer at all.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import uuid
from collections.abc import Callable

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers
from health_check.base import HealthCheck
from health_check.checks import Database
from health_check.exceptions import ServiceUnavailable

from project.operations import metrics

READYZ_CHECK_SECONDS = 2.0
PROBE_METHODS = ("GET", "HEAD")


def _probe_response(body: dict[str, str], status: int = 200) -> HttpResponse:
    response = JsonResponse(body, status=status)
    add_never_cache_headers(response)
    return response


def _wrong_method(request: HttpRequest) -> HttpResponse | None:
    if request.method in PROBE_METHODS:
        return None
    response = _probe_response({"message": "Method not allowed"}, status=405)
    response["Allow"] = ", ".join(PROBE_METHODS)
    return response


def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness: ``200 {"status": "ok"}`` to any GET or HEAD while the process serves requests."""
    return _wrong_method(request) or _probe_response({"status": "ok"})


async def _off_the_request_thread(check: Callable[[], None]) -> None:
    """Run a database check on an executor thread, closing (returning to the pool) the connection it
    used. Not on the request's own thread: while the database does not answer, a connection waits for
    the pool's ``DB_POOL_TIMEOUT`` (10 s), and a check stuck on the request's thread would hold the
    answer that long whatever its timeout; on a thread of its own the probe gets its 503 after the
    check's timeout and the thread gives up on its own later."""

    def run() -> None:
        try:
            check()
        finally:
            connection.close()

    await sync_to_async(run, thread_sensitive=False)()


@dataclasses.dataclass
class DatabaseReady(Database):
    """``SELECT 1`` on a pooled connection, given up after ``READYZ_CHECK_SECONDS``."""

    timeout = datetime.timedelta(seconds=READYZ_CHECK_SECONDS)

    async def run(self) -> None:
        await _off_the_request_thread(super().run)


@dataclasses.dataclass
class MigrationsApplied(HealthCheck):
    """Every migration of the code is applied (a process of a new release waits for ``migrate``)."""

    timeout = datetime.timedelta(seconds=READYZ_CHECK_SECONDS)

    async def run(self) -> None:
        def plan() -> list:
            executor = MigrationExecutor(connection)
            return executor.migration_plan(executor.loader.graph.leaf_nodes())

        pending: list = []

        def check() -> None:
            pending.extend(plan())

        try:
            await _off_the_request_thread(check)
        except DatabaseError as e:
            raise ServiceUnavailable("Database unavailable") from e
        if pending:
            raise ServiceUnavailable(f"{len(pending)} migration(s) not applied")


@dataclasses.dataclass
class ChannelLayerCarries(HealthCheck):
    """A message sent on the channel layer comes back (Redis up, and this process can reach it)."""

    timeout = datetime.timedelta(seconds=READYZ_CHECK_SECONDS)

    async def run(self) -> None:
        layer = get_channel_layer()
        if layer is None:
            raise ServiceUnavailable("No channel layer configured")
        token = uuid.uuid4().hex
        try:
            channel = await layer.new_channel("readyz.")
            await layer.send(channel, {"type": "readyz.ping", "token": token})
            message = await asyncio.wait_for(layer.receive(channel), timeout=READYZ_CHECK_SECONDS - 0.5)
        except (TimeoutError, OSError, ConnectionError) as e:
            metrics.CHANNEL_LAYER_ERRORS.labels("readyz").inc()
            raise ServiceUnavailable("Channel layer unavailable") from e
        except Exception as e:  # redis-py raises its own errors (not OSError) when Redis is down
            metrics.CHANNEL_LAYER_ERRORS.labels("readyz").inc()
            raise ServiceUnavailable("Channel layer unavailable") from e
        if message.get("token") != token:
            raise ServiceUnavailable("Channel layer returned another message")


READINESS_CHECKS: tuple[type[HealthCheck], ...] = (DatabaseReady, ChannelLayerCarries, MigrationsApplied)


async def readyz(request: HttpRequest) -> HttpResponse:
    """Readiness: run every check at once (each bounded by its timeout: a check that hangs counts as
    failed) and answer ``200`` or ``503`` with ``{check: "OK" | failure}``, whatever the request asks
    for. The checks' own library view is not used: it negotiates on ``Accept`` and renders an HTML
    template to ``*/*``, which is what probes send."""
    if wrong := _wrong_method(request):
        return wrong
    results = await asyncio.gather(*(check().get_result() for check in READINESS_CHECKS))
    body = {repr(r.check): "OK" if r.error is None else str(r.error) for r in results}
    return _probe_response(body, status=503 if any(r.error is not None for r in results) else 200)
