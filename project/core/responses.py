"""JSON answers shared by the API: the encoder every answer uses, and ``json_response`` for large lists.

``json_response`` writes data that already has the camelCase shape of the declared response schema
straight to JSON, skipping a second validation of every row (timetable lists, reports). The tests pin
those shapes against the schemas.
"""

from __future__ import annotations

import json
from datetime import datetime

from django.http import HttpResponse
from ninja.responses import NinjaJSONEncoder


class PreciseJSONEncoder(NinjaJSONEncoder):
    """Datetimes keep their microseconds (Django's encoder cuts them to milliseconds), so an answer's
    ``updatedAt`` sent back as ``If-Match`` equals the stored value (decisions.md §6)."""

    def default(self, o):
        if isinstance(o, datetime):
            return o.isoformat()  # the same text as the ETag (project.core.concurrency.etag_for)
        return super().default(o)


def json_response(data, status: int = 200) -> HttpResponse:
    return HttpResponse(
        json.dumps(data, cls=PreciseJSONEncoder, separators=(",", ":")), content_type="application/json", status=status
    )
