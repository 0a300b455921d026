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
