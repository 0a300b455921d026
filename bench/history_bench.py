"""Benchmark: reading the activity history (ADR 0011): ``GET /api/activity`` over 100,000 activities.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench_history .venv/bin/python bench/history_bench.py

Seeds one organization with 100,000 activities (bulk_create; the database must exist) and times, through
Django's test client signed in, the newest page, page 100, an entity filter and a row filter (p50 of 15).
Each activity has one captured change (its row before and after, ``refs`` naming the row it points
at), as a write records it; the row filter also searches those refs (a block group's History shows its
sessions' writes). What recording costs a write: ``bench/history_recording_bench.py``.
Target: a page under 100 ms. Cleans up after itself.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import setup_django  # noqa: E402

setup_django("bench-history.sqlite3")

from django.test import Client  # noqa: E402

from project.accounts.models import Organization, User  # noqa: E402
from project.history.models import Activity, ActivityChange  # noqa: E402

N = 100_000
ENTITIES = ["course", "unit", "block_group", "teacher", "timetable_session", "holiday"]


def main() -> None:
    Organization.objects.filter(domain="bench-history.example").delete()
    org = Organization.objects.create(name="History bench", domain="bench-history.example")
    user = User.objects.create_user("bench-history@bench-history.example", password=None, organization=org, role="admin")
    row = str(uuid.uuid4())
    t0 = time.perf_counter()
    batch, changes = [], []
    for n in range(N):
        ids = [row] if n % 1000 == 0 else [str(uuid.uuid4())]
        activity = Activity(
            organization=org,
            seq=n + 1,
            actor=user,
            actor_label="Bench User",
            origin="bench",
            entity=ENTITIES[n % len(ENTITIES)],
            action="updated",
            ids=ids,
            summary="Bench User updated a course",
            refs=str(uuid.uuid4()),
        )
        batch.append(activity)
        # Each activity captured one row (before and after), pointing at a block group: as written.
        refs = activity.refs
        values = [ids[0], "2026-11-25T01:02:03.456789+00:00", "Name before", refs]
        changes.append(
            ActivityChange(
                organization=org,
                activity=activity,
                position=1,
                model="catalogue.Course",
                fields=["id", "updated_at", "name", "block_group_id"],
                rows=f'[["{ids[0]}",{values!r},{values!r}]]'.replace("'", '"'),
            )
        )
        if len(batch) == 5000:
            Activity.objects.bulk_create(batch)
            ActivityChange.objects.bulk_create(changes)
            batch, changes = [], []
    from django.db import connection

    if connection.vendor == "postgresql":  # as autovacuum does after a bulk load (statistics, visibility map)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE history_activity")
            cursor.execute("VACUUM ANALYZE history_activitychange")
    print(f"seeded {N:,} activities in {time.perf_counter() - t0:.1f} s ({os.environ['DATABASE_URL'].split(':')[0]})")
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    for label, query in (
        ("newest page (50)", {}),
        ("page 100", {"page": 100}),
        ("entity filter", {"entity": "holiday"}),
        ("row filter (id)", {"id": row}),
    ):
        times = []
        for _ in range(15):
            t = time.perf_counter()
            r = client.get("/api/activity", query)
            times.append((time.perf_counter() - t) * 1000)
            assert r.status_code == 200, r.content
        print(
            f"GET /api/activity {label}: p50 {statistics.median(times):.1f} ms, max {max(times):.1f} ms "
            f"({r.json()['total']:,} matching) — target < 100 ms"
        )
    if os.environ.get("KEEP"):
        return
    org.delete()


if __name__ == "__main__":
    main()
