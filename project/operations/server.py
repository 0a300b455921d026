"""Two adjustments of daphne, the HTTP server, made at start-up however it was started (scripts, the
Dockerfile, tests), because they happen before our application sees the request (docs/adr/0020):

- daphne writes an NCSA access line per request and socket to standard output, outside ``logging``, with
  the full path and query string (display and feed tokens, invitation links, socket ids): its request
  field goes through :func:`project.operations.log_format.redact_text` (docs/adr/0020).
- Twisted, under daphne, parses every ``multipart/form-data`` POST body itself (daphne never uses the
  result) and answers a body it cannot parse, such as one without a boundary, with an empty text 400 and
  a closed connection. Turning that parse off hands the body to Django, which answers the JSON 400 of
  docs/behaviour/errors.md §1 ("The request body is not valid multipart form data"), and spares parsing every upload
  twice.
"""

from __future__ import annotations

from typing import Any

from project.operations.log_format import redact_text


def adapt_daphne() -> None:
    """Install both adjustments once (idempotent); nothing when daphne is not installed."""
    try:
        from daphne.access import AccessLogGenerator
        from daphne.http_protocol import WebRequest
    except ImportError:  # pragma: no cover — daphne is a dependency
        return
    if getattr(WebRequest, "blockplan_adapted", False):
        return
    write_entry = AccessLogGenerator.write_entry
    init = WebRequest.__init__

    def redacted_entry(self: AccessLogGenerator, host: str, date: object, request: str, *args: Any, **kwargs: Any) -> None:
        write_entry(self, host, date, redact_text(str(request)), *args, **kwargs)

    def request_init(self: WebRequest, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self._parsePOSTFormSubmission = False

    AccessLogGenerator.write_entry = redacted_entry
    WebRequest.__init__ = request_init
    WebRequest.blockplan_adapted = True
