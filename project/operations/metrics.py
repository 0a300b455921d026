"""Prometheus metrics of one daphne process (ADR 0020), exposed at ``/metrics``.

Each process keeps its own counters (Prometheus scrapes every process at its own address, as it
scrapes any replicated service; ``scripts/cluster.sh status`` lists them). ``/metrics`` is not public:
it answers a request from an address of ``METRICS_ALLOWED_IPS`` (default the machine itself) or one that
carries ``Authorization: Bearer <METRICS_TOKEN>``; anyone else gets 404, as if it did not exist.

The format follows the scraper's ``Accept`` header as prometheus-client's own exporters do: OpenMetrics to
Prometheus (which asks for it first), the classic text format (``text/plain; version=0.0.4``, what every
scraper reads) to a request that names neither (curl, a browser, no header), gzip when accepted.
"""

from __future__ import annotations

import gzip
import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.exposition import choose_encoder

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
    """``GET``/``HEAD /metrics``: every metric of this process in the format the ``Accept`` header asks
    for (see the module docstring); 404 ``{"message": "Not found"}`` for anyone not allowed."""
    if not allowed(request):
        return JsonResponse({"message": "Not found"}, status=404)
    encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
    body = encoder(REGISTRY)
    response = HttpResponse(content_type=content_type)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        body = gzip.compress(body, compresslevel=5)
        response["Content-Encoding"] = "gzip"
    response.content = body
    patch_vary_headers(response, ["Accept", "Accept-Encoding"])
    add_never_cache_headers(response)
    return response
