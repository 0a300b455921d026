"""Typed domain errors. ``project.api`` maps each to the response shapes of docs/behaviour/errors.md §1 in one place."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    status: int = 400
    type: str | None = None

    def __init__(self, message: str, *, errors: list[dict] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors
        self.extra = extra

    def body(self) -> dict:
        body: dict[str, Any] = {"message": self.message}
        if self.type:
            body["type"] = self.type
        if self.errors is not None:
            body["errors"] = self.errors
        body.update(self.extra)
        return body


class ValidationFailed(DomainError):
    """400 ``validation_error`` with ``errors: [{path, message}]``."""

    status = 400
    type = "validation_error"

    def __init__(self, errors: list[dict] | str, message: str = "Validation failed", **extra: Any) -> None:
        if isinstance(errors, str):
            errors = [{"path": [], "message": errors}]
        super().__init__(message, errors=errors, **extra)

    @classmethod
    def field(cls, path: str | list, message: str) -> ValidationFailed:
        path_list = path if isinstance(path, list) else [path]
        return cls([{"path": path_list, "message": message}], message=message)


class BadRequest(DomainError):
    """400 with a plain message (a rule of the domain, not a field)."""

    status = 400


class Unauthorized(DomainError):
    status = 401

    def __init__(self, message: str = "Unauthorized", **extra: Any) -> None:
        super().__init__(message, **extra)


class Forbidden(DomainError):
    status = 403

    def __init__(self, message: str = "Forbidden", **extra: Any) -> None:
        super().__init__(message, **extra)


class NotFound(DomainError):
    status = 404


class Conflict(DomainError):
    status = 409
    type = "conflict_state"


class DuplicateCode(DomainError):
    """409 ``duplicate_code`` with a field error on ``field`` (default ``code``)."""

    status = 409
    type = "duplicate_code"

    def __init__(self, message: str, field: str = "code") -> None:
        super().__init__(message, errors=[{"path": [field], "message": message}])


class SchedulingConflict(DomainError):
    """409 ``conflict`` carrying the hard conflicts (docs/behaviour/conflicts.md §4)."""

    status = 409
    type = "conflict"

    def __init__(self, message: str, conflicts: list[dict]) -> None:
        super().__init__(message, conflicts=conflicts)


class StaleWrite(DomainError):
    """412 ``stale``: the record changed since the client read it (docs/behaviour/concurrency.md §2)."""

    status = 412
    type = "stale"

    def __init__(
        self, message: str = "This record was changed by someone else. The latest version has been loaded.", **extra: Any
    ) -> None:
        super().__init__(message, **extra)
