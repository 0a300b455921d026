"""The Socket.IO endpoint at ``/socket.io/`` (docs/behaviour/live-events.md §1; framing in :mod:`realtime.protocol`).

One consumer per websocket, speaking Socket.IO v5 over Engine.IO v4 on the websocket transport only:

1. Handshake. The query must say ``EIO=4&transport=websocket`` (otherwise the handshake is refused). The
   server accepts and sends the open packet ``0{"sid","upgrades":[],"pingInterval","pingTimeout",
   "maxPayload"}``.
2. Heartbeat. Every ``pingInterval`` ms the server sends ``2``; a client that does not answer ``3`` within
   ``pingTimeout`` ms is dropped. Each answered ping also re-joins the socket's groups (channels-redis forgets
   members after ``group_expiry``: trap 3 of docs/realtime.md, Traps handled) and refreshes its presence entry.
3. Namespace connect ``40`` (main namespace only). The socket is authenticated by the first
   authenticator that claims it (:data:`realtime.authentication.AUTHENTICATORS`): a display token hook (for wall displays, later)
   or the session cookie (Channels' cookie and session middleware, Django's ``get_user``). The Origin header must match
   ``ALLOWED_HOSTS``. An anonymous, inactive or foreign-origin socket gets ``44{"message":"unauthorized"}``
   and the websocket is closed a second later; a good one joins ``org.<id>`` and ``user.<id>`` and gets
   ``40{"sid"}`` and then one ``presence`` event with the current viewers.
4. Events. Layer message ``change.event`` → ``42["change",{entity, action, ids, seq, actorId, origin, at}]``;
   ``presence.viewers`` → ``42["presence",{"viewers":[...]}]``; ``session.revoke`` (logout, deactivation)
   → ``41`` and close. The client may emit ``presence`` (see :mod:`realtime.presence`), with or without an
   acknowledgement (answered ``43<id>[{"ok":true}]`` or ``[{"ok":false,"message":...}]``).
5. ``41`` or ``1`` from the client, or a frame over ``maxPayload``, closes the websocket.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from socketio import packet as sio

from project.core.sockets import org_group, session_group, user_group
from project.operations import logs as ops_logs
from project.operations import metrics as ops_metrics
from realtime import presence, protocol, watch
from realtime.authentication import (
    Principal,
    _session_still_valid,
    authenticate,
    origin_allowed,
)
from realtime.scoping import event_for

log = logging.getLogger(__name__)


class SocketIOConsumer(AsyncWebsocketConsumer):
    """One Engine.IO websocket session and its main-namespace Socket.IO session."""

    CLOSE_GRACE = 1.0  # seconds between a connect error and closing the websocket

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Run the handler, without channels' ``aclose_old_connections()`` before each message.

        channels 4.2+ hops to the database thread before *every* message (each pong, each change event) to
        close stale connections: with hundreds of sockets that serialises the whole fan-out on one thread.
        This consumer touches the database only through ``database_sync_to_async``, which closes old
        connections itself, so the hop is skipped.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        if query.get("EIO") != [protocol.EIO_VERSION] or query.get("transport") != ["websocket"]:
            await self.close()  # before accept: the handshake is refused (HTTP 403)
            return
        self.timings = protocol.Timings.from_settings()
        self.sid = secrets.token_urlsafe(15)
        self.principal: Principal | None = None
        self.groups_joined: list[str] = []
        self.presence_path: str | None = None
        self.presence_version = 0
        self.closing = False
        self._pong = asyncio.Event()
        await self.accept()
        await self.send(protocol.open_frame(self.sid, self.timings))
        self._heartbeat = asyncio.create_task(self._run_heartbeat())

    # Engine.IO ------------------------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        if text_data is None:  # binary frames carry attachments, which no event here accepts
            if bytes_data is not None and len(bytes_data) > self.timings.max_payload:
                await self._close()
            return
        if len(text_data) > self.timings.max_payload:
            await self._close()
            return
        try:
            kind, payload = protocol.split_engine_frame(text_data)
        except ValueError:
            await self._close()
            return
        if kind == 3:  # pong
            self._pong.set()
        elif kind == 4:  # message
            await self._on_socketio(payload)
        elif kind == 1:  # close
            await self._close()
        elif kind == 2:  # a ping from the client (probe): answer it
            await self.send(protocol.PONG + payload)

    async def _run_heartbeat(self) -> None:
        interval = self.timings.ping_interval / 1000
        timeout = self.timings.ping_timeout / 1000
        deadline = asyncio.get_running_loop().time() + self.timings.connect_timeout / 1000
        try:
            while not self.closing:
                await asyncio.sleep(interval)
                if self.principal is None and asyncio.get_running_loop().time() > deadline:
                    await self._close()  # never connected the namespace
                    return
                self._pong.clear()
                await self.send(protocol.PING)
                try:
                    await asyncio.wait_for(self._pong.wait(), timeout)
                except TimeoutError:
                    log.info("socket %s missed a pong: dropped", self.sid)
                    await self._close()
                    return
                await self._refresh()
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("heartbeat of socket %s failed", self.sid)
            await self._close()

    async def _refresh(self) -> None:
        """Re-check that the socket's session is still valid (once per ``session_recheck``; ended elsewhere:
        ``session_ended`` and close),
        re-join the groups (so ``group_expiry`` never ages a wall display out) and keep presence alive."""
        principal = self.principal
        now = asyncio.get_running_loop().time()
        due = getattr(self, "_session_check_at", None)
        if due is None:  # the first check at a random point of the period: sockets do not check together
            due = self._session_check_at = now + self.timings.session_recheck / 1000 * random.uniform(0.5, 1.0)  # noqa: S311 — jitter of a timer, not a secret
        if principal is not None and principal.session_key and principal.user_id and now >= due:
            self._session_check_at = now + self.timings.session_recheck / 1000
            try:
                state = await _session_still_valid(self.scope, principal.session_key, principal.user_id, principal.role)
            except Exception:  # the database is unreachable: keep the socket, check again at the next ping
                log.exception("session re-check of socket %s failed", self.sid)
                state = "ok"
            if state == "ended":
                await self._end_session("expired")
                return
            if state == "role":  # the client reconnects at once, scoped by its new role
                await self.send(protocol.disconnect_frame())
                await self._leave()
                await self._close()
                return
        try:
            for group in self.groups_joined:
                await self.channel_layer.group_add(group, self.channel_name)
        except Exception:  # Redis is down: keep the socket; realtime.watch re-joins when it is back
            ops_metrics.CHANNEL_LAYER_ERRORS.labels("group_add").inc()
            log.warning("socket %s could not re-join its groups", self.sid)
        if self.principal is not None and self.presence_path is not None:
            ttl = self._presence_ttl()
            try:
                pruned = await presence.get_store().touch(self.principal.org_id, self.channel_name, ttl)
            except Exception:
                log.exception("presence refresh failed")
            else:
                if pruned:
                    presence.schedule_broadcast(self.principal.org_id, self.channel_layer)

    def _presence_ttl(self) -> float:
        return (self.timings.ping_interval + self.timings.ping_timeout) / 1000 * 2 + 5

    async def _close(self) -> None:
        if not self.closing:
            self.closing = True
            await self.close()

    async def disconnect(self, code: int) -> None:
        self.closing = True
        fields = getattr(self, "_log_fields", None)
        if fields is not None:  # counted once, however the socket ended
            self._log_fields = None
            ops_metrics.SOCKETS_OPEN.dec()
            ops_logs.log_socket("socket_disconnect", **fields, code=code, duration_s=round(time.monotonic() - self._opened_at, 1))
        heartbeat = getattr(self, "_heartbeat", None)
        if heartbeat is not None and heartbeat is not asyncio.current_task():
            heartbeat.cancel()
        await self._leave()

    async def _leave(self) -> None:
        principal = getattr(self, "principal", None)
        watch.unregister(self)
        for group in getattr(self, "groups_joined", []):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:
                ops_metrics.CHANNEL_LAYER_ERRORS.labels("group_discard").inc()
                log.exception("group_discard %s failed", group)
        self.groups_joined = []
        if principal is not None and self.presence_path is not None:
            self.presence_path = None
            try:
                await presence.get_store().remove(principal.org_id, self.channel_name)
                presence.schedule_broadcast(principal.org_id, self.channel_layer)
            except Exception:
                log.exception("presence removal failed")
        self.principal = None

    # Socket.IO ------------------------------------------------------------------------------------------

    async def _on_socketio(self, payload: str) -> None:
        try:
            packet = protocol.decode_socketio(payload)
        except ValueError:
            await self._close()
            return
        namespace = packet.namespace or protocol.MAIN_NAMESPACE
        if packet.packet_type == sio.CONNECT:
            await self._on_connect(namespace, packet.data)
        elif namespace != protocol.MAIN_NAMESPACE:
            return
        elif packet.packet_type == sio.DISCONNECT:
            await self._leave()
            await self._close()
        elif packet.packet_type == sio.EVENT and self.principal is not None:
            await self._on_event(packet)
        # ACK, BINARY_* and events before the namespace connect are ignored.

    async def _on_connect(self, namespace: str, payload: Any) -> None:  # the CONNECT packet's JSON data
        if namespace != protocol.MAIN_NAMESPACE:
            await self.send(protocol.connect_error_frame(protocol.INVALID_NAMESPACE, namespace))
            return
        if self.principal is not None:  # already connected: answer again
            await self.send(protocol.connect_frame(self.sid))
            return
        principal = None
        if origin_allowed(self.scope):
            try:
                principal = await authenticate(self.scope, payload)
            except Exception:
                # e.g. the database is down: close the transport so the client retries with back-off (a
                # connect error would stop it for good)
                log.exception("authenticating socket %s failed", self.sid)
                await self._close()
                return
        if principal is None:
            await self.send(protocol.connect_error_frame(protocol.UNAUTHORIZED))
            asyncio.get_running_loop().call_later(self.CLOSE_GRACE, lambda: asyncio.ensure_future(self._close()))
            return
        self.principal = principal
        groups = [org_group(principal.org_id)]
        if principal.user_id is not None:
            groups.append(user_group(principal.user_id))
        if principal.session_key:
            groups.append(session_group(principal.session_key))  # closed by logout of this browser only
        if isinstance(principal.scope, dict):  # e.g. a display link's own group, closed on revocation
            groups.extend(principal.scope.get("groups", []))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = groups
        await watch.register(self)  # renewed groups after a Redis loss; "seq" when behind (realtime/watch.py)
        await self.send(protocol.connect_frame(self.sid))
        self._opened_at = time.monotonic()
        self._log_fields = {
            "sid": self.sid,
            "org_id": str(principal.org_id),
            "user_id": str(principal.user_id) if principal.user_id is not None else None,
            "display": principal.user_id is None,
            "client": ops_logs.socket_client(self.scope),
            "request_id": ops_logs.scope_request_id(self.scope),
        }
        ops_metrics.SOCKETS_OPEN.inc()
        ops_metrics.SOCKET_CONNECTS.inc()
        ops_logs.log_socket("socket_connect", **self._log_fields)
        if principal.user_id is not None:
            try:
                version, viewers = await presence.get_store().snapshot(principal.org_id)
            except Exception:  # presence is best effort; the next broadcast brings the list
                log.exception("presence snapshot failed")
            else:
                await self._send_presence(version, viewers)

    async def _on_event(self, packet: sio.Packet) -> None:
        data = packet.data if isinstance(packet.data, list) else []
        name = data[0] if data else None
        result: dict[str, object] = {"ok": False, "message": "Unknown event"}
        if name == watch.SEQ_EVENT and self.principal is not None:
            try:
                result = await watch.answer_seq(self)
            except Exception:
                log.exception("seq answer failed")
                result = {"ok": False, "message": "Unavailable"}
        elif name == "presence" and self.principal is not None and self.principal.user_id is not None:
            try:
                result = await self._set_presence(data[1] if len(data) > 1 else None)
            except Exception:
                log.exception("presence update failed")
                result = {"ok": False, "message": "Presence is unavailable"}
        if packet.id is not None:
            await self.send(protocol.ack_frame(packet.id, [result]))

    async def _set_presence(self, data: object) -> dict[str, object]:
        try:
            path = presence.normalise_location(data)
        except ValueError as exc:
            return {"ok": False, "message": str(exc)}
        principal = self.principal
        if principal is None or principal.user_id is None:  # _on_event asks for signed-in users only
            return {"ok": False, "message": "Unknown event"}
        store = presence.get_store()
        if path == self.presence_path:
            return {"ok": True}
        if path is None:
            await store.remove(principal.org_id, self.channel_name)
        else:
            entry = presence.viewer_entry(user_id=principal.user_id, name=principal.name, initials=principal.initials, path=path)
            await store.set(principal.org_id, self.channel_name, entry, self._presence_ttl())
        self.presence_path = path
        presence.schedule_broadcast(principal.org_id, self.channel_layer)
        return {"ok": True}

    async def _send_presence(self, version: int, viewers: list[dict[str, str]]) -> None:
        if version < self.presence_version:
            return  # an older list than one already sent (two processes raced)
        self.presence_version = version
        await self.send(protocol.event_frame("presence", {"viewers": viewers}))
        ops_metrics.EVENTS_SENT.labels("presence").inc()

    # Channel layer messages ------------------------------------------------------------------------------

    async def change_event(self, message: dict[str, Any]) -> None:
        """``change.event`` from :func:`realtime.events.send_change` (the write unit's transport) → event ``change``, as this socket may
        see it (:func:`realtime.scoping.event_for`: a display gets only its board's events, without the
        actor; a non-admin gets no admin-only entities)."""
        if self.principal is not None and not self.closing:
            watch.saw(self, message["event"])
            event = event_for(self.principal, message["event"])
            if event is not None:
                await self.send(protocol.event_frame("change", event))
                ops_metrics.EVENTS_SENT.labels("change").inc()

    async def presence_viewers(self, message: dict[str, Any]) -> None:
        """``presence.viewers`` from :mod:`realtime.presence` → event ``presence``."""
        if self.principal is not None and self.principal.user_id is not None and not self.closing:
            await self._send_presence(message.get("version", 0), message.get("viewers", []))

    async def session_rekey(self, message: dict[str, Any]) -> None:
        """``session.rekey`` (the browser session got a new key: a password change there): follow it."""
        principal = self.principal
        if principal is None or self.closing or not principal.session_key:
            return
        from dataclasses import replace

        old_group = session_group(principal.session_key)
        new_group = message.get("group")
        if not new_group:
            return
        self.principal = replace(principal, session_key=message.get("key"))
        await self.channel_layer.group_add(new_group, self.channel_name)
        await self.channel_layer.group_discard(old_group, self.channel_name)
        self.groups_joined = [new_group if g == old_group else g for g in self.groups_joined]

    async def access_changed(self, message: dict[str, Any]) -> None:
        """``access.changed`` (the user's role changed, :func:`realtime.events.rescope_user_sockets`): later
        events are scoped by the new role (:func:`realtime.scoping.event_for`), and the client is told
        ``access_changed`` ``{role}`` so that it can re-read what it may do. No group is admin-only today:
        scoping is per event, so nothing is left or joined (docs/adr/0023)."""
        principal = self.principal
        role = message.get("role")
        if principal is None or self.closing or principal.kind != "session" or not isinstance(role, str):
            return
        from dataclasses import replace

        self.principal = replace(principal, role=role)
        await self.send(protocol.event_frame("access_changed", {"role": role}))

    async def session_revoke(self, message: dict[str, Any]) -> None:
        """``session.revoke`` (logout of this browser, a password change elsewhere, deactivation, a revoked
        display link) → ``session_ended`` ``{reason}`` when a session ended, then ``41`` and close; the
        client does not reconnect."""
        await self._end_session(message.get("reason"))

    async def _end_session(self, reason: str | None) -> None:
        if self.closing:
            return
        if self.principal is not None:
            if reason and self.principal.kind == "session":
                await self.send(protocol.event_frame("session_ended", {"reason": reason}))
            await self.send(protocol.disconnect_frame())
        await self._leave()
        await self._close()
