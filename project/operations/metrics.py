"""Prometheus metrics of one daphne process (issue 20), exposed at ``/metrics``.

Each process keeps its own counters (Prometheus scrapes every process at its own address, as it
scrapes any replicated service; ``scripts/cluster.sh status`` lists them). ``/metrics`` is not public:
it answers a request from an address of ``METRICS_ALLOWED_IPS`` (default the machine itself) or one that
carries ``Authorization: Bearer <METRICS_TOKEN>``; anyone else gets 404, as if it did not exist.
"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

REQUEST_SECONDS = Histogram(
    "blockplan_http_request_duration_seconds",
    "Time to answer an HTTP request, by route pattern, method and status.",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
SOCKETS_OPEN = Gauge("blockplan_sockets_open", "Socket.IO connections signed in on this process.")
SOCKET_CONNECTS = Counter("blockplan_socket_connects_total", "Socket.IO connections signed in.")
EVENTS_SENT = Counter("blockplan_socket_events_sent_total", "Events sent to sockets, by event name.", ["event"])
CHANNEL_LAYER_ERRORS = Counter(
    "blockplan_channel_layer_errors_total", "Failed channel layer (Redis) operations, by operation.", ["operation"]
)


def allowed(request: HttpRequest) -> bool:
    """Whether ``request`` may read the metrics (an allowed address or the bearer token)."""
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    if token and given.startswith("Bearer ") and hmac.compare_digest(given[7:].strip(), token):
        return True
    return request.META.get("REMOTE_ADDR") in settings.METRICS_ALLOWED_IPS


def metrics_view(request: HttpRequest) -> HttpResponse:
    """``GET /metrics``: the Prometheus text format; 404 for anyone not allowed."""
    if not allowed(request):
        return JsonResponse({"message": "Not found"}, status=404)
    return HttpResponse(generate_latest(), content_type=CONTENT_TYPE_LATEST)
