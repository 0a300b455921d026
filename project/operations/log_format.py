"""The processors of every log line (read by settings.LOGGING, so it imports nothing of Django).

Every line, from structlog or from plain ``logging`` (Django's "Bad Request: /path" and "Method Not
Allowed" lines, axes, daphne, tracebacks), passes :func:`redact_secrets` last, before it is rendered:
tokens in links and paths (invitation links, display and calendar-feed tokens, socket ids, session and
CSRF cookies, passwords and codes in query strings) and any long random-looking string become
``[redacted]`` (docs/adr/0020, "No secrets in logs").
"""

import re
from collections.abc import Mapping, MutableMapping
from typing import Any

import structlog

REDACTED = "[redacted]"

# name=value pairs in query strings, cookies and form bodies whose value is a secret.
_SECRET_PARAMS = re.compile(
    r"(?i)\b(token|t|sid|key|secret|password|passwd|code|totp_?code|state|nonce|sessionid|csrftoken|"
    r"csrfmiddlewaretoken|blockplan_device|access_token|id_token|refresh_token|client_secret)=([^&\s;,'\"<>]+)"
)
# Path segments that are tokens (the display board, calendar feeds, the invitation route of the SPA).
_SECRET_PATHS = re.compile(
    r"(/(?:api/)?(?:display|displays|calendar-feeds|feeds|invitations?)/)([^/?#\s'\"<>]+?)(\.ics)?(?=[/?#\s'\"<>]|$)"
)
# Any other run of URL-safe characters long enough to be a random token (256-bit tokens are 43
# characters, session keys 32), unless it is a UUID or plain hexadecimal (ids, request ids) or reads as
# a single-case identifier (a Python name in a traceback).
_LONG_RUN = re.compile(r"(?<![A-Za-z0-9_\-])[A-Za-z0-9_\-]{24,}(?![A-Za-z0-9_\-])")
_ID_LIKE = re.compile(r"^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$")

# Fields written by our own processors, which hold no secret and must stay readable.
_SAFE_KEYS = frozenset({"timestamp", "level", "logger", "request_id", "org_id", "user_id", "route", "method", "status"})


def _looks_random(run: str) -> bool:
    if _ID_LIKE.match(run):
        return False
    classes = sum(1 for test in (str.islower, str.isupper, str.isdigit) if any(test(ch) for ch in run))
    return classes >= 2


def redact_text(text: str) -> str:
    """``text`` with every secret-looking part replaced by ``[redacted]`` (idempotent)."""
    text = _SECRET_PARAMS.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    text = _SECRET_PATHS.sub(lambda m: f"{m.group(1)}{REDACTED}{m.group(3) or ''}", text)
    return _LONG_RUN.sub(lambda m: REDACTED if _looks_random(m.group(0)) else m.group(0), text)


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return {k: _redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact_value(v) for v in value]
    if isinstance(value, int | float | bool) or value is None:
        return value
    return redact_text(str(value))


def redact_secrets(logger: object, method_name: str, event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: every value of the line through :func:`redact_text` (after the exception is
    formatted, before rendering)."""
    for key, value in list(event_dict.items()):
        if key in _SAFE_KEYS or key.startswith("_"):
            continue
        event_dict[key] = _redact_value(value)
    return event_dict


# Shared by structlog's own loggers and by plain ``logging`` records (the formatter's ``foreign_pre_chain``).
SHARED: list = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]
