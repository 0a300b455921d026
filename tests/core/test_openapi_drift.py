"""The SPA's typed client is generated from spa/openapi.json; it must be the server's schema.

Regenerate with `cd spa && npm run gen:api` after changing an endpoint or a schema.
"""

import json
from pathlib import Path

from project.api import api

COMMITTED = Path(__file__).resolve().parents[2] / "spa" / "openapi.json"


def test_committed_openapi_schema_matches_the_server():
    live = json.loads(json.dumps(api.get_openapi_schema(), sort_keys=True))
    committed = json.loads(COMMITTED.read_text())
    assert committed == live, "spa/openapi.json is stale: run `cd spa && npm run gen:api` and commit it"


def test_schema_names_are_unique():
    """Two schemas of one name share one OpenAPI component, and the later silently replaces the earlier
    (a re-planning ``FiguresOut`` once rewrote auto-allocation's): every schema class name is unique."""
    from collections import Counter

    from ninja import Schema

    import project.api  # noqa: F401  (loads every router and its schemas)

    seen: list = []
    stack = list(Schema.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("project."):
            seen.append(cls)
    names = Counter(c.__name__ for c in set(seen))
    assert [n for n, k in names.items() if k > 1] == []
