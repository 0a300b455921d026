"""The single-process channel layer (``realtime.layers.InMemoryChannelLayer``): a group send reaches every
member, copied once for the group, and a sender's later change of its dict reaches nobody."""

from __future__ import annotations

import asyncio

from realtime.layers import InMemoryChannelLayer


def test_a_group_send_reaches_every_member_with_one_copy_the_sender_cannot_change():
    async def run():
        layer = InMemoryChannelLayer()
        channels = [await layer.new_channel() for _ in range(3)]
        for channel in channels:
            await layer.group_add("org.a", channel)
        outsider = await layer.new_channel()
        message = {"type": "change.event", "event": {"seq": 1, "rows": [{"id": "s", "room": "A1"}]}}
        await layer.group_send("org.a", message)
        message["event"]["rows"][0]["room"] = "changed after the send"
        got = [await asyncio.wait_for(layer.receive(channel), 1) for channel in channels]
        assert all(m == {"type": "change.event", "event": {"seq": 1, "rows": [{"id": "s", "room": "A1"}]}} for m in got)
        assert got[0] is got[1] is got[2]  # one copy for the group
        try:
            await asyncio.wait_for(layer.receive(outsider), 0.1)
            raise AssertionError("a channel outside the group received the message")
        except TimeoutError:
            pass
        await layer.group_send("org.empty", {"type": "x"})  # no member: nothing, no error

    asyncio.run(run())
