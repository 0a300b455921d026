"""Optimistic concurrency with ``updatedAt`` (docs/behaviour/concurrency.md §1).

A detail GET answers ``ETag: "<updatedAt ISO 8601>"``; a PUT carrying ``If-Match`` whose value no longer
matches the row's ``updated_at`` raises :class:`StaleWrite` (412) before anything is written. The SPA
may send either the ETag or the record's ``updatedAt`` value.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, TypeVar

from django.http import HttpRequest, HttpResponse

from project.core.errors import StaleWrite

Row = TypeVar("Row", bound="Stamped")


class Stamped(Protocol):
    """A row whose ``updated_at`` is its version (every tenant model, users, organizations)."""

    @property
    def updated_at(self) -> datetime: ...


def etag_for(instance: Stamped) -> str:
    return f'"{instance.updated_at.isoformat()}"'


def set_etag(response: HttpResponse, instance: Stamped) -> None:
    response["ETag"] = etag_for(instance)


def with_etag(response: HttpResponse, instance: Row) -> Row:
    """``instance`` after sending its ``ETag`` on ``response``: what a detail GET or a PUT answers."""
    set_etag(response, instance)
    return instance


def if_match_header(request: HttpRequest) -> str | None:
    value = request.headers.get("If-Match")
    return value.strip() if value and value.strip() else None


def _parse(value: str) -> datetime | None:
    text = value.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def assert_fresh(instance: Stamped, if_match: str | None) -> None:
    """Raise :class:`StaleWrite` when ``if_match`` is given and differs from ``instance.updated_at``.

    ``*`` matches anything. Call it on a row locked with ``select_for_update`` inside the write's
    transaction so that two concurrent PUTs cannot both pass.
    """
    if not if_match or if_match.strip() == "*":
        return
    current = instance.updated_at
    for candidate in if_match.split(","):
        parsed = _parse(candidate)
        if parsed is None:
            continue
        if parsed == current:
            return
        # JSON answers may carry updatedAt to the millisecond (Django's encoder): compare at that precision.
        if parsed.microsecond % 1000 == 0 and parsed == current.replace(microsecond=current.microsecond // 1000 * 1000):
            return
    raise StaleWrite()
