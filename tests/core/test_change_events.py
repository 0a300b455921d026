"""The change helper sends after commit, once, to the organization's group only (docs/behaviour/live-events.md §3).

Runs against the configured channel layer: in-memory by default, Redis when REDIS_URL is set.
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from project.core.tenancy import Ctx
from realtime.events import emit_change, org_group
from tests import factories as f

pytestmark = pytest.mark.django_db(transaction=True)


async def _receive(layer, channel, timeout=1.0):
    try:
        return await asyncio.wait_for(layer.receive(channel), timeout)
    except TimeoutError:
        return None


async def _listen(*orgs):
    layer = get_channel_layer()
    channels = []
    for org in orgs:
        channel = await layer.new_channel()
        await layer.group_add(org_group(org.pk), channel)
        channels.append(channel)
    return layer, channels


async def test_event_is_sent_only_after_commit(captured_events):
    org_a, org_b = await sync_to_async(f.make_org)(), await sync_to_async(f.make_org)()
    layer, (chan_a, chan_b) = await _listen(org_a, org_b)

    def write():
        with transaction.atomic():
            course = f.make_course(org_a)
            event = emit_change(Ctx(org=org_a, origin="tab-1"), entity="course", action="created", ids=[course.pk])
            sent_inside = len(captured_events)
        return course, event, sent_inside

    course, event, sent_inside = await sync_to_async(write)()
    assert sent_inside == 0  # nothing left before the commit
    message = await _receive(layer, chan_a)
    assert message is not None
    assert message["type"] == "change.event"
    assert message["event"] == event
    assert message["event"]["ids"] == [str(course.pk)]
    assert message["event"]["origin"] == "tab-1"
    assert message["event"]["seq"] == 1
    # Never to another organization.
    assert await _receive(layer, chan_b, 0.3) is None


async def test_rolled_back_transaction_sends_nothing_and_keeps_seq(captured_events):
    org_a = await sync_to_async(f.make_org)()
    layer, (chan_a,) = await _listen(org_a)

    class Boom(Exception):
        pass

    def write():
        with pytest.raises(Boom):
            with transaction.atomic():
                emit_change(Ctx(org=org_a), entity="course", action="created", ids=["x"])
                raise Boom()
        org_a.refresh_from_db()
        return org_a.event_seq

    assert await sync_to_async(write)() == 0
    assert captured_events == []
    assert await _receive(layer, chan_a, 0.3) is None


async def test_seq_rises_by_one_per_committed_event():
    org_a = await sync_to_async(f.make_org)()
    layer, (chan_a,) = await _listen(org_a)

    def write():
        for _ in range(3):
            with transaction.atomic():
                emit_change(Ctx(org=org_a), entity="unit", action="updated", ids=["u"])

    await sync_to_async(write)()
    seqs = [(await _receive(layer, chan_a))["event"]["seq"] for _ in range(3)]
    assert seqs == [1, 2, 3]


def test_unknown_entity_or_action_is_refused():
    org = f.make_org()
    with pytest.raises(ValueError):
        emit_change(Ctx(org=org), entity="spaceship", action="created", ids=[])
    with pytest.raises(ValueError):
        emit_change(Ctx(org=org), entity="course", action="exploded", ids=[])
