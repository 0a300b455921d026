from __future__ import annotations

from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    """CSRF refusals in the error shape of docs/behaviour/api.md §2."""
    return JsonResponse({"message": "CSRF verification failed", "type": "csrf"}, status=403)


def spa_index(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
    """``index.html`` of the built SPA for every client route (react-router renders the screen)."""
    index = settings.SPA_DIST / "index.html"
    if not index.exists():
        return HttpResponse(
            "<!doctype html><title>Blockplan</title><p>The SPA is not built yet: run <code>./scripts/run.sh</code>.</p>",
            status=503,
        )
    response = FileResponse(index.open("rb"), content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
