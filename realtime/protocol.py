"""Socket.IO v5 over Engine.IO v4, websocket transport only: the framing the consumer speaks.

Engine.IO v4 text frames are ``<type><data>``: ``0`` open, ``1`` close, ``2`` ping, ``3`` pong, ``4`` message,
``5`` upgrade, ``6`` noop. A Socket.IO packet rides in a ``4`` frame: ``<type>[<namespace>,][<ack id>][json]``
with ``0`` connect, ``1`` disconnect, ``2`` event, ``3`` ack, ``4`` connect error (so an event on the main
namespace is ``42["change",{...}]``).

The Socket.IO packets are encoded and decoded with python-socketio's ``socketio.packet.Packet`` (with
``binary=False``: trap 7 of docs/realtime.md, Traps handled; the class is not documented API, so pyproject pins python-socketio <6).
Engine.IO framing is one character and is done here directly, with python-engineio's packet type numbers.

Timings come from the environment so tests can shrink them:
``SOCKETIO_PING_INTERVAL_MS`` (default 25000), ``SOCKETIO_PING_TIMEOUT_MS`` (default 20000),
``SOCKETIO_MAX_PAYLOAD`` (bytes a client frame may carry, default 100000),
``SOCKETIO_CONNECT_TIMEOUT_MS`` (time to connect the namespace after the open packet, default 45000).
A Django setting of the same name wins over the environment.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from engineio import packet as eio
from socketio import packet as sio

EIO_VERSION = "4"
MAIN_NAMESPACE = "/"
UNAUTHORIZED = {"message": "unauthorized"}
INVALID_NAMESPACE = {"message": "Invalid namespace"}


def _setting_int(name: str, default: int) -> int:
    from django.conf import settings

    value = getattr(settings, name, None)
    if value is None:
        value = os.environ.get(name)
    try:
        return int(value) if value not in (None, "") else default
    except (TypeError, ValueError):
        return default


@dataclass(frozen=True)
class Timings:
    """Engine.IO heartbeat and limits, milliseconds / bytes."""

    ping_interval: int = 25000
    ping_timeout: int = 20000
    max_payload: int = 100000
    connect_timeout: int = 45000
    # How often a socket re-checks its session (one query): a backstop for a lost revoke message or an
    # expiry, so once a minute, spread over the sockets, not at every ping (ADR 0007).
    session_recheck: int = 60000

    @classmethod
    def from_settings(cls) -> Timings:
        return cls(
            ping_interval=_setting_int("SOCKETIO_PING_INTERVAL_MS", cls.ping_interval),
            ping_timeout=_setting_int("SOCKETIO_PING_TIMEOUT_MS", cls.ping_timeout),
            max_payload=_setting_int("SOCKETIO_MAX_PAYLOAD", cls.max_payload),
            connect_timeout=_setting_int("SOCKETIO_CONNECT_TIMEOUT_MS", cls.connect_timeout),
            session_recheck=_setting_int("SOCKETIO_SESSION_RECHECK_MS", cls.session_recheck),
        )


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


# --- Engine.IO frames -----------------------------------------------------------------------------------

PING = str(eio.PING)
PONG = str(eio.PONG)


def open_frame(sid: str, timings: Timings) -> str:
    """``0{"sid":..,"upgrades":[],"pingInterval":..,"pingTimeout":..,"maxPayload":..}``."""
    return str(eio.OPEN) + _dumps(
        {
            "sid": sid,
            "upgrades": [],
            "pingInterval": timings.ping_interval,
            "pingTimeout": timings.ping_timeout,
            "maxPayload": timings.max_payload,
        }
    )


def split_engine_frame(text: str) -> tuple[int, str]:
    """``(engine packet type, payload)`` of a text frame; ValueError for an empty or unknown frame."""
    if not text or not text[0].isdigit():
        raise ValueError("not an Engine.IO frame")
    kind = int(text[0])
    if kind > eio.NOOP:
        raise ValueError("unknown Engine.IO packet type")
    return kind, text[1:]


# --- Socket.IO packets (inside an Engine.IO message frame) ------------------------------------------------


def _message(packet: sio.Packet) -> str:
    return str(eio.MESSAGE) + packet.encode()


def connect_frame(sid: str, namespace: str = MAIN_NAMESPACE) -> str:
    """``40{"sid":".."}``: the namespace connect is accepted."""
    return _message(sio.Packet(sio.CONNECT, {"sid": sid}, namespace=namespace, binary=False))


def connect_error_frame(data: dict, namespace: str = MAIN_NAMESPACE) -> str:
    """``44{"message":".."}``: the namespace connect is refused (socket.io-client does not retry)."""
    return _message(sio.Packet(sio.CONNECT_ERROR, data, namespace=namespace, binary=False))


def disconnect_frame(namespace: str = MAIN_NAMESPACE) -> str:
    """``41``: the server ends the namespace session (the client reports "io server disconnect")."""
    return _message(sio.Packet(sio.DISCONNECT, namespace=namespace, binary=False))


def event_frame(event: str, data: object, namespace: str = MAIN_NAMESPACE) -> str:
    """``42["event",data]``."""
    return _message(sio.Packet(sio.EVENT, [event, data], namespace=namespace, binary=False))


def ack_frame(ack_id: int, args: list, namespace: str = MAIN_NAMESPACE) -> str:
    """``43<id>[...]``: the answer to a client event sent with an acknowledgement callback."""
    return _message(sio.Packet(sio.ACK, args, namespace=namespace, id=ack_id, binary=False))


def decode_socketio(payload: str) -> sio.Packet:
    """The Socket.IO packet of an Engine.IO message payload; ValueError when malformed."""
    if not payload or not payload[0].isdigit():
        raise ValueError("not a Socket.IO packet")
    try:
        packet = sio.Packet(encoded_packet=payload)
    except Exception as exc:  # the decoder raises assorted errors on garbage
        raise ValueError("malformed Socket.IO packet") from exc
    if packet.packet_type > sio.BINARY_ACK:
        raise ValueError("unknown Socket.IO packet type")
    return packet
