"""Password rules of docs/behaviour/accounts.md §5, as a Django password validator (messages are the spec's)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError

if TYPE_CHECKING:  # pragma: no cover
    from project.accounts.models import User

RULES = [
    (lambda p: len(p) >= 12, "Password must be at least 12 characters"),
    (lambda p: re.search(r"[a-z]", p), "Password must contain at least one lowercase letter"),
    (lambda p: re.search(r"[A-Z]", p), "Password must contain at least one uppercase letter"),
    (lambda p: re.search(r"[0-9]", p), "Password must contain at least one number"),
    (lambda p: re.search(r"[^A-Za-z0-9]", p), "Password must contain at least one special character"),
]


def password_problems(password: str) -> list[str]:
    return [message for test, message in RULES if not test(password or "")]


class BlockplanPasswordValidator:
    def validate(self, password: str, user: User | None = None) -> None:
        problems = password_problems(password)
        if problems:
            raise ValidationError(problems)

    def get_help_text(self) -> str:
        return "At least 12 characters with uppercase, lowercase, a number and a special character."


MAX_PASSWORD_LENGTH = 128


class MaximumLengthValidator:
    """At most 128 characters (ADR 0005): a longer password is no stronger, and hashing megabytes of
    password text on every sign-in is a cheap denial of service."""

    def __init__(self, max_length: int = MAX_PASSWORD_LENGTH) -> None:
        self.max_length = max_length

    def validate(self, password: str, user: User | None = None) -> None:
        if len(password or "") > self.max_length:
            raise ValidationError(f"Password must be at most {self.max_length} characters")

    def get_help_text(self) -> str:
        return f"At most {self.max_length} characters."
