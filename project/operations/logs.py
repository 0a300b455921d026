"""Structured logs (ADR 0020): one JSON line per HTTP request and per socket connect and disconnect.

Each line carries ``request_id`` (nginx's ``X-Request-ID``, passed through, or a new one; answered in the
response's ``X-Request-ID``), ``org_id``, ``user_id``, ``route`` (the URL pattern, never the path: paths
and query strings can hold calendar-feed and display tokens), ``status``, ``duration_ms`` and
``client`` (the address behind the proxy, :mod:`project.operations.addresses`). Nothing from bodies,
cookies or headers other than those is logged: no passwords, tokens or secrets
(``tests/operations/test_operations.py`` greps for them). Other log records of the process go through
the same JSON formatter with the request id of the request that wrote them.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Callable

import structlog
from django.http import HttpRequest, HttpResponse

from project.operations import metrics
from project.operations.addresses import client_address
from project.operations.log_format import SHARED

access = structlog.get_logger("blockplan.access")
sockets = structlog.get_logger("blockplan.sockets")

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def configure() -> None:
    """Route structlog through ``logging`` (settings.LOGGING renders JSON, secrets redacted) and redact
    daphne's own access lines (:mod:`project.operations.server`). Called once at start-up."""
    from project.operations import server

    server.adapt_daphne()
    structlog.configure(
        processors=[*SHARED, structlog.processors.format_exc_info, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def request_id_from(value: str | None) -> str:
    """The proxy's request id when it is a plain token (at most 64 characters), else a new one."""
    return value if value and _REQUEST_ID.match(value) else uuid.uuid4().hex


def _route(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "static" if request.path.startswith(("/assets/", "/static/")) else "unmatched"
    if match.url_name == "spa":
        return "spa"
    return "/" + str(match.route)


class RequestLogMiddleware:
    """Outermost middleware: the client address behind the proxy, the request id, the metrics and one
    access log line per request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        request_id = request_id_from(request.headers.get("X-Request-ID"))
        request.request_id = request_id  # type: ignore[attr-defined]
        request.META["REMOTE_ADDR"] = client_address(request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"))
        structlog.contextvars.bind_contextvars(request_id=request_id)
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            response["X-Request-ID"] = request_id
            return response
        finally:
            elapsed = time.perf_counter() - started
            route = _route(request)
            metrics.REQUEST_SECONDS.labels(route, request.method or "", str(status)).observe(elapsed)
            ctx = getattr(request, "auth", None)
            org = getattr(ctx, "org", None)
            user = getattr(ctx, "user", None)
            access.info(
                "request",
                method=request.method,
                route=route,
                status=status,
                duration_ms=round(elapsed * 1000, 1),
                client=request.META.get("REMOTE_ADDR"),
                org_id=str(org.pk) if org is not None else None,
                user_id=str(user.pk) if user is not None else None,
            )
            structlog.contextvars.unbind_contextvars("request_id")


def log_socket(event: str, **fields: object) -> None:
    """One line for a socket connect or disconnect (``realtime.consumers``)."""
    sockets.info(event, **fields)


def socket_client(scope: dict) -> str | None:
    """The client address of a websocket scope, behind the proxy as for HTTP."""
    peer = (scope.get("client") or [None])[0]
    forwarded = None
    for name, value in scope.get("headers", []):
        if name == b"x-forwarded-for":
            forwarded = value.decode("latin1")
    return client_address(peer, forwarded)


def scope_request_id(scope: dict) -> str:
    for name, value in scope.get("headers", []):
        if name == b"x-request-id":
            return request_id_from(value.decode("latin1"))
    return request_id_from(None)
