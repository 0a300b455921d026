"""``X-Activity-Id`` on a write's answer (ADR 0011): the activity the request recorded, so that the SPA's
success toast can offer "Undo" for exactly that write. Absent when the request recorded none or failed."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from uuid import UUID

from django.http import HttpRequest, HttpResponse

HEADER = "X-Activity-Id"
_recorded: ContextVar[dict | None] = ContextVar("blockplan_recorded_activity", default=None)
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def note(activity_id: UUID | str) -> None:
    """Remember the activity a write of the current request recorded (the last one wins)."""
    holder = _recorded.get()
    if holder is not None:
        holder["id"] = str(activity_id)


class ActivityHeaderMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in UNSAFE or not request.path.startswith("/api/"):
            return self.get_response(request)
        holder: dict = {}
        token = _recorded.set(holder)  # a dict shared with the view's thread: its writes are seen here
        try:
            response = self.get_response(request)
        finally:
            _recorded.reset(token)
        if holder.get("id") and response.status_code < 400:
            response[HEADER] = holder["id"]
        return response
