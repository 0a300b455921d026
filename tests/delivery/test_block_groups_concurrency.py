"""Two coordinators saving the same block group with the same If-Match: exactly one wins (docs/behaviour/concurrency.md §2).

The service locks the row with ``select_for_update`` before comparing ``updatedAt``; on PostgreSQL two
concurrent PUTs therefore serialise and the second sees the first one's ``updatedAt``.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests import factories as f
from tests.conftest import ApiClient

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def test_concurrent_puts_with_the_same_if_match_one_wins(org, admin_user):
    group = f.make_block_group(org, name="Original")
    clients = [ApiClient(admin_user), ApiClient(admin_user)]
    etag = clients[0].get(f"/api/block-groups/{group.pk}").headers["ETag"]
    body = {"code": group.code, "cohortSize": 10, "startDate": "2026-02-02"}
    results: list[int] = []
    barrier = threading.Barrier(2)

    def save(client, name):
        barrier.wait()
        try:
            r = client.put(f"/api/block-groups/{group.pk}", {**body, "name": name}, headers={"If-Match": etag})
            results.append(r.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(c, n)) for c, n in zip(clients, ("First", "Second"), strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200, 412]
    group.refresh_from_db()
    assert group.name in {"First", "Second"}
