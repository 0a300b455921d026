"""Probes for load balancers and orchestrators (issue 20), with django-health-check.

- ``GET /healthz``: liveness, the process answers (no database, no Redis): restart the process if not.
- ``GET /readyz``: readiness, the database answers, the channel layer carries a message (Redis when
  ``REDIS_URL`` is set: without it live updates would silently stop) and every migration is applied.
  200 when all pass, 503 naming the failed check otherwise (``?format=json`` for a machine, the
  library's page for a person). Take a process out of the pool while it is not ready.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import uuid
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from health_check.base import HealthCheck
from health_check.checks import Database
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView

from project.operations import metrics


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: ``{"status": "ok"}`` while the process serves requests."""
    return JsonResponse({"status": "ok"})


@dataclasses.dataclass
class DatabaseReady(Database):
    """``SELECT 1`` on the request's own thread (its pooled connection), not on an executor thread that
    would hold a connection of its own."""

    async def run(self) -> None:
        await sync_to_async(super().run, thread_sensitive=True)()


@dataclasses.dataclass
class MigrationsApplied(HealthCheck):
    """Every migration of the code is applied (a process of a new release waits for ``migrate``)."""

    async def run(self) -> None:
        def plan() -> list:
            executor = MigrationExecutor(connection)
            return executor.migration_plan(executor.loader.graph.leaf_nodes())

        try:
            pending = await sync_to_async(plan, thread_sensitive=True)()
        except DatabaseError as e:
            raise ServiceUnavailable("Database unavailable") from e
        if pending:
            raise ServiceUnavailable(f"{len(pending)} migration(s) not applied")


@dataclasses.dataclass
class ChannelLayerCarries(HealthCheck):
    """A message sent on the channel layer comes back (Redis up, and this process can reach it)."""

    timeout = datetime.timedelta(seconds=3)

    async def run(self) -> None:
        layer = get_channel_layer()
        if layer is None:
            raise ServiceUnavailable("No channel layer configured")
        token = uuid.uuid4().hex
        try:
            channel = await layer.new_channel("readyz.")
            await layer.send(channel, {"type": "readyz.ping", "token": token})
            message = await asyncio.wait_for(layer.receive(channel), timeout=2)
        except (TimeoutError, OSError, ConnectionError) as e:
            metrics.CHANNEL_LAYER_ERRORS.labels("readyz").inc()
            raise ServiceUnavailable("Channel layer unavailable") from e
        except Exception as e:  # redis-py raises its own errors (not OSError) when Redis is down
            metrics.CHANNEL_LAYER_ERRORS.labels("readyz").inc()
            raise ServiceUnavailable("Channel layer unavailable") from e
        if message.get("token") != token:
            raise ServiceUnavailable("Channel layer returned another message")


class ReadinessView(HealthCheckView):
    """The library's view answering 503 Service Unavailable (what load balancers expect) rather than
    500 when a check fails."""

    async def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = await super().get(request, *args, **kwargs)
        if response.status_code == 500:
            response.status_code = 503
            response.reason_phrase = "Service Unavailable"
        return response


readyz = ReadinessView.as_view(checks=(DatabaseReady, ChannelLayerCarries, MigrationsApplied))
