"""Websocket routing: ``/socket.io/`` (docs/behaviour/live-events.md §1). The consumer is ``realtime.consumers``.

The Origin check is done by the consumer at the namespace connect (same rule as channels'
``AllowedHostsOriginValidator``: the Origin must match ``ALLOWED_HOSTS``) so that a foreign or missing
Origin gets the Socket.IO connect error ``{"message": "unauthorized"}`` of docs/behaviour/live-events.md §2, which
socket.io-client does not retry, instead of a handshake rejection that it would retry forever.
Channels' ``CookieMiddleware`` and ``SessionMiddleware`` give the consumer a lazy ``scope["session"]``; the
consumer resolves the user from it at the namespace connect, in one database trip with the organization
(see ``realtime.authentication.session_authenticator`` for why not ``AuthMiddleware``).
"""

from channels.routing import URLRouter
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.urls import re_path

from realtime.consumers import SocketIOConsumer

websocket_urlpatterns = [re_path(r"^socket\.io/$", SocketIOConsumer.as_asgi())]

websocket_application = CookieMiddleware(SessionMiddleware(URLRouter(websocket_urlpatterns)))
