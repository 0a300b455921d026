"""The one NinjaAPI of Blockplan, served under ``/api/`` with OpenAPI docs at ``/api/docs``.

Routers live in each app's ``api.py`` (thin: parse, call one service or selector, answer). Domain
errors and validation failures become the JSON shapes of docs/behaviour/errors.md §2 here, and only here.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import TYPE_CHECKING, Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent, TooManyFilesSent
from django.db import DataError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.http.request import RawPostDataException
from django.utils.datastructures import MultiValueDict
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, AuthorizationError, HttpError, ValidationError
from ninja.openapi.schema import REF_TEMPLATE, OpenAPISchema
from ninja.parser import Parser
from ninja.renderers import JSONRenderer
from pydantic import BaseModel

from project.core.auth import member_auth
from project.core.changes import ChangeEvent, HiddenChangeEvent
from project.core.errors import DomainError, ValidationFailed
from project.core.responses import PreciseJSONEncoder
from project.core.schemas import NUL_MESSAGE, SURROGATE_MESSAGE

if TYPE_CHECKING:
    from ninja.operation import Operation

log = logging.getLogger(__name__)


class BlockplanRenderer(JSONRenderer):
    encoder_class = PreciseJSONEncoder


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a valid JSON number")


def _text_problem(text: str) -> str | None:
    """Why a decoded string cannot be stored, or None: a NUL character (PostgreSQL cannot hold it) or a
    lone UTF-16 surrogate (``"\\ud800"`` in JSON decodes to text that is not valid Unicode and cannot be
    encoded as UTF-8 for the database)."""
    if "\x00" in text:
        return NUL_MESSAGE
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return SURROGATE_MESSAGE
    return None


def _bad_text_paths(value: Any, path: list) -> list[dict]:
    """``[{path, message}]`` for every string (value or object key) in decoded JSON that cannot be stored."""
    found: list[dict] = []
    if isinstance(value, str):
        problem = _text_problem(value)
        if problem:
            found.append({"path": path, "message": problem})
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = _text_problem(key) if isinstance(key, str) else None
            if problem:
                found.append({"path": [*path, key], "message": problem})  # reported once, whatever the value holds
            else:
                found.extend(_bad_text_paths(item, [*path, key]))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_bad_text_paths(item, [*path, index]))
    return found


class BlockplanParser(Parser):
    """Request bodies and query strings are checked once here, before any schema or query sees them.

    - A body that is not JSON (malformed, not UTF-8, ``NaN``/``Infinity``, a number too long to read)
      is a 400 ``validation_error`` with path ``[]``.
    - A NUL character or a lone UTF-16 surrogate (``"\\ud800"``) in any string, object key or query value
      is a 400 at its path: PostgreSQL cannot store or even compare such text (it would be a 500), and
      no field of the API needs it (docs/behaviour/errors.md §8 "No request, however malformed, yields a 500").
    """

    def parse_body(self, request: HttpRequest) -> Any:
        try:
            data = json.loads(request.body, parse_constant=_reject_constant)
        except (ValueError, UnicodeDecodeError, RecursionError):
            # ninja wraps whatever this raises in HttpError(400); on_http_error unwraps it.
            raise ValidationFailed("The request body is not valid JSON") from None
        errors = _bad_text_paths(data, [])
        if errors:
            raise ValidationFailed(errors)
        return data

    def parse_querydict(self, data: MultiValueDict[str, str], list_fields: list[str], request: HttpRequest) -> dict:
        bad = []
        for key, values in data.lists():
            problems = [_text_problem(v) for v in values if isinstance(v, str)]
            problem = next((p for p in problems if p), None)
            if problem:
                bad.append({"path": [key], "message": problem})
        if bad:
            raise ValidationFailed(bad)
        return super().parse_querydict(data, list_fields, request)


SOCKET_SCHEMAS: tuple[type[BaseModel], ...] = (ChangeEvent, HiddenChangeEvent)
"""What the server sends outside HTTP answers (the socket's ``change`` event, docs/realtime.md): published
as components of the OpenAPI schema, so that the SPA's generated types carry them (docs/adr/0028)."""


class BlockplanAPI(NinjaAPI):
    def get_openapi_operation_id(self, operation: Operation) -> str:
        """``<module>_<function>`` with dots as underscores, as ninja names it, where ``<module>`` is the
        router module's ``OPERATION_ID_MODULE`` when it sets one: a router moved to another module keeps
        the operation ids the generated client and the published schema know (docs/adr/0030)."""
        view = operation.view_func
        module = getattr(sys.modules.get(view.__module__), "OPERATION_ID_MODULE", view.__module__)
        return f"{module}_{view.__name__}".replace(".", "_")

    def get_openapi_schema(self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None) -> OpenAPISchema:
        """Ninja's schema of the routes, plus :data:`SOCKET_SCHEMAS` (and the models they use) under
        ``components.schemas`` by their class names. No path changes."""
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for model in SOCKET_SCHEMAS:
            found = model.model_json_schema(by_alias=True, ref_template=REF_TEMPLATE, mode="serialization")
            for name, definition in found.pop("$defs", {}).items():
                components[name] = definition
            components[model.__name__] = found
        return schema


api = BlockplanAPI(
    renderer=BlockplanRenderer(),
    parser=BlockplanParser(),
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
            message = message[len(_PREFIX) :]
        if err.get("type") == "missing":
            message = "Required"
        items.append({"path": [p for p in loc], "message": message})
    return items


@api.exception_handler(DomainError)
def on_domain_error(request: HttpRequest, exc: DomainError) -> HttpResponse:
    return api.create_response(request, exc.body(), status=exc.status)


@api.exception_handler(ValidationError)
def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = _validation_errors(exc)
    message = "Validation failed"
    return api.create_response(request, {"message": message, "type": "validation_error", "errors": errors}, status=400)


@api.exception_handler(AuthenticationError)
def on_authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return api.create_response(request, {"message": "Unauthorized"}, status=401)


@api.exception_handler(AuthorizationError)
def on_authorization_error(request: HttpRequest, exc: AuthorizationError) -> HttpResponse:
    return api.create_response(request, {"message": "Forbidden"}, status=403)


@api.exception_handler(HttpError)
def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    # ninja turns anything the parser raises into HttpError(400, "Cannot parse request body"): answer
    # the parser's own error instead.
    cause = exc.__cause__
    if isinstance(cause, DomainError):
        return on_domain_error(request, cause)
    if exc.status_code == 400:
        return _bad_input(request, str(exc.message))
    return api.create_response(request, {"message": str(exc.message)}, status=exc.status_code)


def _bad_input(request: HttpRequest, message: str, path: list | None = None) -> HttpResponse:
    """A 400 ``validation_error`` about the request as a whole (path ``[]``) or one field."""
    return on_domain_error(request, ValidationFailed([{"path": path or [], "message": message}]))


@api.exception_handler(MultiPartParserError)
def on_bad_multipart(request: HttpRequest, exc: MultiPartParserError) -> HttpResponse:
    """A multipart body Django cannot read (no boundary, truncated): raised by the CSRF check's read
    of ``request.POST`` or by a File/Form parameter."""
    return _bad_input(request, "The request body is not valid multipart form data")


@api.exception_handler(RawPostDataException)
def on_form_body_for_json(request: HttpRequest, exc: RawPostDataException) -> HttpResponse:
    """A form or multipart body sent to a call that reads JSON: the CSRF check already consumed it as a
    form, so ninja cannot read it again."""
    return _bad_input(request, "The request body must be JSON (Content-Type: application/json)")


@api.exception_handler(SuspiciousOperation)
def on_suspicious_request(request: HttpRequest, exc: SuspiciousOperation) -> HttpResponse:
    """Django's request limits (DATA_UPLOAD_MAX_MEMORY_SIZE, ..._NUMBER_FIELDS, ..._NUMBER_FILES)."""
    if isinstance(exc, RequestDataTooBig):
        message = "The request body is too large"
    elif isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        message = "The request has too many fields"
    else:
        message = "The request could not be read"
    return _bad_input(request, message)


@api.exception_handler(DataError)
def on_data_error(request: HttpRequest, exc: DataError) -> HttpResponse:
    """Safety net: the database refused a value (out of range for its column, text it cannot hold).
    Inputs are validated before they reach the database, so this is a missed validation: logged with
    its traceback, answered as a 400. Writes run in ``transaction.atomic()`` so nothing was kept."""
    log.warning("Database refused a value of %s %s", request.method, request.path, exc_info=exc)
    return _bad_input(request, "A value is out of range or contains characters that cannot be stored")


@api.exception_handler(OverflowError)
def on_overflow(request: HttpRequest, exc: OverflowError) -> HttpResponse:
    """Safety net: date or number arithmetic out of Python's range (a date past year 9999, a huge
    count). Inputs are bounded by their schemas; logged like :func:`on_data_error`."""
    log.warning("Overflow in %s %s", request.method, request.path, exc_info=exc)
    return _bad_input(request, "A date or number is out of range")


@api.exception_handler(Http404)
def on_404(request: HttpRequest, exc: Http404) -> HttpResponse:
    return api.create_response(request, {"message": str(exc) or "Not found"}, status=404)


def _register_routers() -> None:
    from project.accounts.api import router as accounts_router
    from project.accounts.sso.api import router as sso_router
    from project.catalogue.api import router as catalogue_router
    from project.displays.api import router as displays_router
    from project.history.api import router as history_router
    from project.planning.api import router as planning_router
    from project.reporting.api import router as reporting_router
    from project.staff.api import router as staff_router
    from project.staff.availability.api import router as availability_router
    from project.staff.leave.api import router as leave_router
    from project.timetabling.api import router as timetabling_router
    from project.timetabling.auto_allocation.api import router as auto_allocation_router
    from project.timetabling.board.api import router as board_router
    from project.timetabling.feeds.api import router as feeds_router
    from project.timetabling.holidays.api import router as holiday_router
    from project.timetabling.replan.api import router as replan_router
    from project.timetabling.scheduling.api import router as scheduling_router

    # Reporting first: its fixed paths (/teachers/workload-summary) sit beside /teachers/{id}.
    for router in (
        accounts_router,
        sso_router,
        reporting_router,
        catalogue_router,
        planning_router,
        staff_router,
        leave_router,
        availability_router,
        auto_allocation_router,
        scheduling_router,
        timetabling_router,
        feeds_router,
        holiday_router,
        replan_router,
        board_router,
        displays_router,
        history_router,
    ):
        api.add_router("/", router)


_register_routers()
