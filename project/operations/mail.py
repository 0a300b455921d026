"""Email without secrets on the console, and no production run without a mail server (docs/adr/0020).

- :class:`RedactingConsoleBackend` is the default backend when no SMTP server is configured: it prints
  each message's headers and plain text with every token redacted (:func:`log_format.redact_text`), so an
  invitation link is never printed in clear into the process's output.
- The deploy check ``blockplan.E001`` (``manage.py check --deploy``) is an Error under
  ``BLOCKPLAN_PRODUCTION=1`` while the console (or a file or memory) backend is in effect: set
  ``EMAIL_URL`` (``smtp://…``, or ``dummy://`` to send nothing on purpose) or ``EMAIL_HOST``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core import checks
from django.core.mail import EmailMessage
from django.core.mail.backends.console import EmailBackend as ConsoleBackend

from project.operations.log_format import redact_text

# Backends that write messages somewhere readable instead of delivering them.
_NOT_DELIVERING = {
    "project.operations.mail.RedactingConsoleBackend",
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
}


class RedactingConsoleBackend(ConsoleBackend):
    """Django's console backend, printing ``Subject``/``From``/``To`` and the plain-text body with secrets
    redacted (never the encoded MIME body, which could carry a link in base64)."""

    def write_message(self, message: EmailMessage) -> None:
        lines = [
            f"Subject: {message.subject}",
            f"From: {message.from_email}",
            f"To: {', '.join(message.to)}",
            "",
            redact_text(str(message.body)),
        ]
        self.stream.write(redact_text("\n".join(lines)) + "\n")
        self.stream.write("-" * 79 + "\n")


@checks.register(checks.Tags.security, deploy=True)
def mail_server_configured(app_configs: Sequence[Any] | None = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """``blockplan.E001`` under production settings while no SMTP server is configured."""
    if not getattr(settings, "PRODUCTION", False) or settings.EMAIL_BACKEND not in _NOT_DELIVERING:
        return []
    return [
        checks.Error(
            "No mail server is configured: invitation emails would only be printed to the console.",
            hint="Set EMAIL_URL (smtp+tls://user:pass@host:587, or dummy:// to send no email on purpose) or EMAIL_HOST.",
            id="blockplan.E001",
        )
    ]
