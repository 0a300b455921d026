"""ASGI entry point: HTTP through Django, ``/socket.io/`` websockets through Channels (docs/behaviour/live-events.md §1)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

from project.core.asgi_handler import get_asgi_application  # noqa: E402

# Django's ASGI handler with one worker-thread hop per request (project/core/asgi_handler.py, ADR 0013).
django_asgi_app = get_asgi_application()

# Load the URLconf (the whole API) now: done lazily, the first request would stall the event loop for
# seconds and drop sockets waiting on their pings.
from django.urls import get_resolver  # noqa: E402

get_resolver().url_patterns  # noqa: B018 — the property loads the URLconf (see above)

from channels.routing import ProtocolTypeRouter  # noqa: E402

from realtime.routing import websocket_application  # noqa: E402

application = ProtocolTypeRouter({"http": django_asgi_app, "websocket": websocket_application})
