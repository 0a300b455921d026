from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.urls import path, re_path

from project.api import api
from project.core.views import spa_index
from project.operations import health, metrics

admin.site.site_header = "Blockplan support"

urlpatterns = [
    path("api/", api.urls),
    path("django-admin/", admin.site.urls),
    # Operations (ADR 0020): probes for load balancers and the Prometheus metrics (not public).
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", metrics.metrics_view, name="metrics"),
    # Every other path is a client route of the SPA (its own 404 screen included).
    re_path(r"^(?!api/|static/|django-admin/|socket\.io/|healthz$|readyz$|metrics$).*$", spa_index, name="spa"),
]


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponseBase:
    if request.path.startswith("/api/"):
        return JsonResponse({"message": "Not found"}, status=404)
    return spa_index(request)


def handler500(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"message": "Internal server error"}, status=500)
