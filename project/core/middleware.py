from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token


class ApiCsrfCookieMiddleware:
    """Every ``GET /api/...`` answer sets the ``csrftoken`` cookie, 401s included (docs/behaviour/api.md §2)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and request.path.startswith("/api/"):
            if "CSRF_COOKIE" in request.META:
                # What get_token does for a client that has the cookie, without masking a token nobody
                # reads (32 urandom calls a request: 5% of a busy process, ADR 0013): CsrfViewMiddleware
                # sends the same cookie again on the answer.
                request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
            else:
                get_token(request)  # a new secret, sent as the cookie
        return self.get_response(request)


class ApiJsonErrorsMiddleware:
    """Every error answer under ``/api/`` is JSON in the shape of docs/behaviour/errors.md §1 (ADR 0004).

    Ninja's own errors already are; this catches what is produced before or beside it: a wrong method
    (ninja answers ``405 Method not allowed`` as text), Django's ``400 Bad Request`` page (an unreadable
    multipart body or a bad Host found by a middleware), and any other non-JSON 4xx/5xx. The status and
    the ``Allow`` header are kept; the body becomes ``{"message": ...}`` (a 400 also carries
    ``type: validation_error`` and ``errors: [{path: [], message}]``).
    """

    MESSAGES = {
        400: "Bad request",
        403: "Forbidden",
        404: "Not found",
        405: "Method not allowed",
        413: "The request body is too large",
    }

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            request.path.startswith("/api/")
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            return self._as_json(response)
        return response

    def _as_json(self, response: HttpResponse) -> HttpResponse:
        from http.client import responses as reasons

        from django.http import JsonResponse

        status = response.status_code
        message = self.MESSAGES.get(status) or reasons.get(status, "Error")
        body: dict[str, object] = {"message": message}
        if status == 400:
            body.update({"type": "validation_error", "errors": [{"path": [], "message": message}]})
        json_response = JsonResponse(body, status=status)
        for header in ("Allow", "Retry-After"):
            if header in response:
                json_response[header] = response[header]
        return json_response
