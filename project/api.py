"""The one NinjaAPI of Blockplan, served under ``/api/`` with OpenAPI docs at ``/api/docs``.

Routers live in each app's ``api.py`` (thin: parse, call one service or selector, answer). Domain
errors and validation failures become the JSON shapes of decisions.md §1 here, and only here.
"""

from __future__ import annotations

import logging

from datetime import datetime

from django.http import Http404, HttpRequest
from ninja import NinjaAPI
from ninja.renderers import JSONRenderer
from ninja.responses import NinjaJSONEncoder
from ninja.errors import AuthenticationError, AuthorizationError, HttpError, ValidationError

from project.core.auth import member_auth
from project.core.errors import DomainError

log = logging.getLogger(__name__)

class PreciseJSONEncoder(NinjaJSONEncoder):
    """Datetimes keep their microseconds (Django's encoder cuts them to milliseconds), so an answer's
    ``updatedAt`` sent back as ``If-Match`` equals the stored value (decisions.md §6)."""

    def default(self, o):
        if isinstance(o, datetime):
            return o.isoformat()  # the same text as the ETag (project.core.concurrency.etag_for)
        return super().default(o)


class BlockplanRenderer(JSONRenderer):
    encoder_class = PreciseJSONEncoder


api = NinjaAPI(
    renderer=BlockplanRenderer(),
    title="Blockplan API",
    version="1.0.0",
    description="Timetabling and course planning for vocational training providers.",
    docs_url="/docs",
    auth=member_auth,
    urls_namespace="api",
)

_PREFIX = "Value error, "


def _validation_errors(exc: ValidationError) -> list[dict]:
    items = []
    for err in exc.errors:
        loc = list(err.get("loc", ()))
        # Drop ninja's parameter source and parameter name: ["body", "payload", "cohortSize"] -> ["cohortSize"].
        if loc and loc[0] in {"body", "query", "path", "header", "cookie", "form", "file"}:
            loc = loc[1:]
            if len(loc) > 1 and isinstance(loc[0], str) and loc[0] in {"payload", "data", "body", "filters", "params", "query"}:
                loc = loc[1:]
        message = str(err.get("msg", "Invalid value"))
        if message.startswith(_PREFIX):
            message = message[len(_PREFIX):]
        if err.get("type") == "missing":
            message = "Required"
        items.append({"path": [p for p in loc], "message": message})
    return items


@api.exception_handler(DomainError)
def on_domain_error(request: HttpRequest, exc: DomainError):
    return api.create_response(request, exc.body(), status=exc.status)


@api.exception_handler(ValidationError)
def on_validation_error(request: HttpRequest, exc: ValidationError):
    errors = _validation_errors(exc)
    message = "Validation failed"
    return api.create_response(
        request, {"message": message, "type": "validation_error", "errors": errors}, status=400
    )


@api.exception_handler(AuthenticationError)
def on_authentication_error(request: HttpRequest, exc: AuthenticationError):
    return api.create_response(request, {"message": "Unauthorized"}, status=401)


@api.exception_handler(AuthorizationError)
def on_authorization_error(request: HttpRequest, exc: AuthorizationError):
    return api.create_response(request, {"message": "Forbidden"}, status=403)


@api.exception_handler(HttpError)
def on_http_error(request: HttpRequest, exc: HttpError):
    return api.create_response(request, {"message": str(exc.message)}, status=exc.status_code)


@api.exception_handler(Http404)
def on_404(request: HttpRequest, exc: Http404):
    return api.create_response(request, {"message": str(exc) or "Not found"}, status=404)


def _register_routers() -> None:
    from project.accounts.api import router as accounts_router
    from project.catalogue.api import router as catalogue_router
    from project.displays.api import router as displays_router
    from project.planning.api import router as planning_router
    from project.reporting.api import router as reporting_router
    from project.staff.api import router as staff_router
    from project.timetabling.api import router as timetabling_router
    from project.timetabling.auto_allocation_api import router as auto_allocation_router
    from project.timetabling.holiday_api import router as holiday_router

    # Reporting first: its fixed paths (/teachers/workload-summary) sit beside /teachers/{id}.
    for router in (
        accounts_router,
        reporting_router,
        catalogue_router,
        planning_router,
        staff_router,
        auto_allocation_router,
        timetabling_router,
        holiday_router,
        displays_router,
    ):
        api.add_router("/", router)


_register_routers()
