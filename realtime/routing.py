"""Websocket routing: ``/socket.io/`` (decisions.md §7). The consumer is ``realtime.consumers``."""

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import re_path

try:
    from realtime.consumers import SocketIOConsumer
except ImportError:  # pragma: no cover - until the consumer lands
    SocketIOConsumer = None

websocket_urlpatterns = (
    [re_path(r"^socket\.io/$", SocketIOConsumer.as_asgi())] if SocketIOConsumer is not None else []
)

websocket_application = AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
