"""Assertions and readers shared by the API tests: validation errors (docs/behaviour/errors.md §2) and the change
events a write sends (docs/behaviour/live-events.md §4)."""

from __future__ import annotations

from typing import Any


def validation_errors(response: Any) -> dict[tuple, str]:
    """``{path: message}`` of a 400 ``validation_error`` answer (path as a tuple), after checking its
    ``type``."""
    body = response.json()
    assert body["type"] == "validation_error"
    return {tuple(e["path"]): e["message"] for e in body["errors"]}


def assert_field_error(response: Any, path: str, message: str | None) -> None:
    """A 400 ``validation_error`` answer with an error at field ``path``, saying ``message`` when given."""
    errs = validation_errors(response)
    assert (path,) in errs
    if message:
        assert errs[(path,)] == message


def error_list(response: Any) -> list[tuple[list, str]]:
    """``[(path, message)]`` of an answer's ``errors``, in order (a path may repeat)."""
    return [(e["path"], e["message"]) for e in response.json()["errors"]]


def change_events(captured: list[tuple[str, dict]]) -> list[tuple[str, str, list[str]]]:
    """``(entity, action, ids)`` of every message the ``captured_events`` fixture recorded."""
    return [(m["event"]["entity"], m["event"]["action"], m["event"]["ids"]) for _, m in captured]


def org_events(captured: list[tuple[str, dict]], org: Any) -> list[dict]:
    """The change events ``captured_events`` recorded for ``org``'s group, whole."""
    return [m["event"] for group, m in captured if group == f"org.{org.pk}" and m["type"] == "change.event"]


def assert_detail(api: Any, path: str, row: dict) -> None:
    """GET ``path`` answers ``row`` as it is, with its ``updatedAt`` as ``ETag``."""
    r = api.get(path)
    assert r.status_code == 200 and r.json() == row
    assert r.headers["ETag"] == f'"{row["updatedAt"]}"'


def assert_deleted(api: Any, committed: Any, path: str, model: Any, entity: str) -> None:
    """DELETE ``path`` (``.../<id>``) answers 204, removes the ``model`` row and sends one ``entity
    deleted`` event for it (``committed``: the fixture)."""
    row_id = path.rstrip("/").rsplit("/", 1)[1]
    with committed() as sent:
        assert api.delete(path).status_code == 204
    assert not model.objects.unscoped().filter(pk=row_id).exists()
    assert sent == [(entity, "deleted", [row_id])]
