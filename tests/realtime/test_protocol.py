"""The framing and presence rules on their own (no server): exact wire strings and edge cases."""

from __future__ import annotations

import asyncio

import pytest

from realtime import presence, protocol
from realtime.authentication import initials_of


def test_frames_are_socketio_v5_over_engineio_v4():
    timings = protocol.Timings(ping_interval=25000, ping_timeout=20000, max_payload=100000)
    assert protocol.open_frame("abc", timings) == (
        '0{"sid":"abc","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":100000}'
    )
    assert protocol.connect_frame("s1") == '40{"sid":"s1"}'
    assert protocol.connect_error_frame(protocol.UNAUTHORIZED) == '44{"message":"unauthorized"}'
    assert protocol.connect_error_frame(protocol.INVALID_NAMESPACE, "/x") == '44/x,{"message":"Invalid namespace"}'
    assert protocol.disconnect_frame() == "41"
    assert protocol.event_frame("change", {"ids": ["a"], "seq": 3}) == '42["change",{"ids":["a"],"seq":3}]'
    assert protocol.ack_frame(7, [{"ok": True}]) == '437[{"ok":true}]'
    # bytes in the data never turn an event into a binary packet (trap 11): only JSON text is sent
    assert protocol.event_frame("presence", {"viewers": []}).startswith("42")
    assert (protocol.PING, protocol.PONG) == ("2", "3")


def test_decoding_client_frames():
    assert protocol.split_engine_frame("3") == (3, "")
    assert protocol.split_engine_frame('40{"token":"x"}') == (4, '0{"token":"x"}')
    packet = protocol.decode_socketio('212["presence",{"path":"/a"}]')
    assert (packet.packet_type, packet.id, packet.data) == (2, 12, ["presence", {"path": "/a"}])
    for bad in ("", "x", "7"):
        with pytest.raises(ValueError):
            protocol.split_engine_frame(bad)
    with pytest.raises(ValueError):
        protocol.decode_socketio("9")
    with pytest.raises(ValueError):
        protocol.decode_socketio('2["unterminated')


def test_timings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("SOCKETIO_PING_INTERVAL_MS", "1500")
    monkeypatch.setenv("SOCKETIO_PING_TIMEOUT_MS", "700")
    monkeypatch.setenv("SOCKETIO_MAX_PAYLOAD", "junk")
    timings = protocol.Timings.from_settings()
    assert (timings.ping_interval, timings.ping_timeout, timings.max_payload) == (1500, 700, 100000)


@pytest.mark.parametrize(
    "payload, path",
    [
        ({"path": "/block-groups/1"}, "/block-groups/1"),
        ({"view": "timetables", "id": "t9"}, "/timetables/t9"),
        ({"view": "/timetables/", "id": 4}, "/timetables/4"),
        ({"view": "dashboard"}, "/dashboard"),
        ({"path": None}, None),
        ({}, None),
        (None, None),
    ],
)
def test_presence_locations(payload, path):
    assert presence.normalise_location(payload) == path


@pytest.mark.parametrize(
    "payload", [{"path": "relative"}, {"path": 5}, {"path": "/" + "x" * 400}, {"path": "/a\nb"}, ["/a"], {"view": 3}]
)
def test_malformed_presence_locations(payload):
    with pytest.raises(ValueError):
        presence.normalise_location(payload)


def test_initials():
    assert initials_of("Ada", "Admin", "a@x") == "AA"
    assert initials_of("", "", "zed@x") == "Z"
    assert initials_of("cher", "", "c@x") == "C"


def test_memory_store_expires_and_dedupes():
    async def run():
        store = presence.MemoryPresenceStore()
        entry = presence.viewer_entry(user_id="u1", name="Ada Admin", initials="AA", path="/a")
        await store.set("org", "chan-1", entry, ttl=60)
        await store.set("org", "chan-2", entry, ttl=60)  # a second tab of the same user on the same path
        await store.set("org", "chan-3", {**entry, "userId": "u2", "name": "Bo"}, ttl=0.05)
        v1, viewers = await store.snapshot("org")
        assert [v["userId"] for v in viewers] == ["u1", "u2"]
        await asyncio.sleep(0.1)
        assert await store.touch("org", "chan-1", ttl=60) is True  # chan-3 expired and was pruned
        v2, viewers = await store.snapshot("org")
        assert v2 > v1 and viewers == [entry]
        assert await store.remove("org", "chan-1") and await store.remove("org", "chan-2")
        assert (await store.snapshot("other-org"))[1] == []

    asyncio.run(run())
