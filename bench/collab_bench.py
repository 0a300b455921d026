"""Benchmark: N signed-in SPA-like clients on the large organization, one change per second (ADR 0013).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench_reads .venv/bin/python bench/collab_bench.py --clients 30 --changes 30

Uses the organization of ``bench/reads_bench.py`` (seeded on first use: 35,000 sessions, 80 block groups,
150 teachers) and ONE real daphne process. Each client signs in with a real session, opens a socket
(python-socketio) and holds three screens as the SPA does: the timetable of one block group
(``GET /api/timetables?blockGroupId=``), the dashboard stats and the block group list. It reacts to
change events with the rules of ``spa/src/lib/liveTargets.ts``: a timetable showing none of the written
rows and matching none of them does nothing; one that does fetches ``?ids=`` (whole list when a row has
conflicts); dashboard and block group list refetch at most once per 2 s (first at once, trailing).

An editor changes one session per second (its notes, through ``PUT /api/timetables/{id}``), in the block
group of one of the clients. Printed: per change, the requests of affected and of unaffected clients
(timetable reads, and the coalesced aggregate reads separately), the server's CPU seconds per change
(from /proc), and the p50/p99 from the write's answer until every affected client shows the change.
Targets: no timetable request from an unaffected client, server under half a core, p99 < 500 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.reads_bench import free_port, pct, sessions_for, setup, start_daphne  # noqa: E402

COALESCE_S = 2.0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    """One SPA-like browser: a timetable of ``group``, the dashboard and the block group list."""

    def __init__(self, base: str, cookie: str, group: str):
        self.base, self.cookie, self.group = base, cookie, group
        self.rows: dict[str, dict] = {}
        self.timetable_requests = 0
        self.aggregate_requests = 0
        self.applied: dict[int, float] = {}  # seq -> time the change was on screen
        self.pending: dict[str, bool] = {}
        self.http = None
        self.sio = None

    async def get(self, path: str):
        async with self.http.get(self.base + path, headers={"Cookie": f"sessionid={self.cookie}"}) as r:
            assert r.status == 200, (path, r.status, await r.text())
            return await r.json()

    async def start(self):
        import aiohttp
        import socketio

        self.http = aiohttp.ClientSession()
        self.rows = {r["id"]: r for r in await self.get(f"/api/timetables?blockGroupId={self.group}")}
        await self.get("/api/dashboard/stats")
        await self.get("/api/block-groups")
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("change", self.on_change)
        await self.sio.connect(
            self.base,
            headers={"Cookie": f"sessionid={self.cookie}", "Origin": self.base},
            transports=["websocket"],
            wait_timeout=10,
        )

    def coalesce(self, name: str, path: str):
        if name in self.pending:
            self.pending[name] = True
            return

        async def run():
            self.aggregate_requests += 1
            await self.get(path)
            while True:
                await asyncio.sleep(COALESCE_S)
                if not self.pending.get(name):
                    break
                self.pending[name] = False
                self.aggregate_requests += 1
                await self.get(path)
            self.pending.pop(name, None)

        self.pending[name] = False
        asyncio.ensure_future(run())

    async def on_change(self, event):
        if event.get("entity") != "timetable_session":
            return
        self.coalesce("dashboard", "/api/dashboard/stats")
        self.coalesce("block-groups", "/api/block-groups")
        details = {d["id"]: d for d in (event.get("sessions") or [])}
        relevant = [i for i in event["ids"] if i in self.rows or details.get(i, {}).get("blockGroupId") == self.group]
        if not relevant:
            return
        self.timetable_requests += 1
        fetched = await self.get("/api/timetables?ids=" + ",".join(relevant))
        if any(r["conflicts"] for r in fetched) or any(self.rows.get(i, {}).get("conflicts") for i in relevant):
            self.timetable_requests += 1
            self.rows = {r["id"]: r for r in await self.get(f"/api/timetables?blockGroupId={self.group}")}
        else:
            for r in fetched:
                self.rows[r["id"]] = r
        self.applied[event["seq"]] = time.perf_counter()

    async def close(self):
        if self.sio is not None:
            await self.sio.disconnect()
        if self.http is not None:
            await self.http.close()


async def run(port: int, pid: int, cookies: list[str], groups: list[str], editor_cookie: str, changes: int):
    import aiohttp

    base = f"http://127.0.0.1:{port}"
    clients = [Client(base, cookie, groups[i % len(groups)]) for i, cookie in enumerate(cookies)]
    for c in clients:
        await c.start()
    await asyncio.sleep(3)  # let the initial loads settle
    async with aiohttp.ClientSession() as http:
        headers = {"Cookie": f"sessionid={editor_cookie}"}
        async with http.get(base + "/api/auth/user", headers=headers) as r:
            csrf = r.cookies["csrftoken"].value
        headers = {
            "Cookie": f"sessionid={editor_cookie}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "X-Client-Id": "collab-bench",
            "Origin": base,
        }
        log = []  # (seq, group, answered at)
        tt0 = [c.timetable_requests for c in clients]
        ag0 = [c.aggregate_requests for c in clients]
        cpu0 = cpu_seconds(pid)
        t_start = time.perf_counter()
        rng = random.Random(7)
        for n in range(changes):
            tick = time.perf_counter()
            answered = None
            for _attempt in range(20):  # some seeded rows break a rule when saved (dates before the first week)
                target_client = clients[rng.randrange(len(clients))]
                candidates = [(k, v) for k, v in target_client.rows.items() if not v["conflicts"]] or list(
                    target_client.rows.items()
                )
                sid, row = rng.choice(candidates)
                body = {
                    "blockGroupId": row["blockGroupId"],
                    "unitId": row["unitId"],
                    "teacherId": row["teacherId"],
                    "startTime": row["startTime"],
                    "endTime": row["endTime"],
                    "actualDate": row["actualDate"],
                    "room": row["room"],
                    "status": row["status"],
                    "actualHours": row["actualHours"],
                    "notes": f"collab {n}",
                }
                async with http.put(f"{base}/api/timetables/{sid}", json=body, headers=headers) as r:
                    if r.status == 200:
                        answered = time.perf_counter()
                        break
                    await r.read()
            assert answered is not None, "no session could be saved"
            log.append((row["blockGroupId"], answered, sid))
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))
        await asyncio.sleep(COALESCE_S + 1)
        elapsed = time.perf_counter() - t_start
        cpu = cpu_seconds(pid) - cpu0
    # Which seq each change got: the clients of its group saw them in order; match by order per group.
    latencies = []
    affected_tt = unaffected_tt = affected_n = unaffected_n = 0
    applied_all = sorted({s for c in clients for s in c.applied})
    seq_of_change = dict(zip(range(len(log)), applied_all[-len(log) :], strict=True)) if len(applied_all) >= len(log) else {}
    for i, (group, answered, _sid) in enumerate(log):
        seq = seq_of_change.get(i)
        mine = [c for c in clients if c.group == group]
        shown = [c.applied.get(seq) for c in mine]
        if seq is not None and all(shown):
            latencies.append((max(shown) - answered) * 1000)
        affected_n += len(mine)
        unaffected_n += len(clients) - len(mine)
    tt = [c.timetable_requests - t for c, t in zip(clients, tt0, strict=True)]
    ag = [c.aggregate_requests - a for c, a in zip(clients, ag0, strict=True)]
    groups_changed = [g for g, _a, _s in log]
    for c, n in zip(clients, tt, strict=True):
        if c.group in groups_changed:
            affected_tt += n
        else:
            unaffected_tt += n
    print(
        f"clients {len(clients)}, changes {len(log)} (1/s), server CPU {cpu:.2f} s over {elapsed:.1f} s "
        f"= {cpu / elapsed:.2f} core, {cpu / len(log) * 1000:.0f} ms per change"
    )
    print(
        f"timetable requests per change: affected clients {affected_tt / max(1, len(log)):.2f} in all "
        f"({affected_tt / max(1, affected_n):.2f} per affected client), unaffected clients {unaffected_tt} in all"
    )
    print(f"coalesced aggregate requests (dashboard + block groups): {sum(ag) / len(clients) / elapsed:.2f} per client per s")
    if latencies:
        print(
            f"write answered -> every affected client shows it: p50 {statistics.median(latencies):.0f} ms, "
            f"p99 {pct(latencies, 99):.0f} ms, max {max(latencies):.0f} ms ({len(latencies)} of {len(log)} changes)"
        )
    for c in clients:
        await c.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--changes", type=int, default=30)
    args = parser.parse_args()
    url, org = setup(reseed=False)
    from project.planning.models import BlockGroup

    groups = [str(g) for g in BlockGroup.objects.for_org(org).order_by("code").values_list("id", flat=True)]
    big = max(groups, key=lambda g: BlockGroup.objects.get(pk=g).sessions.count())
    groups = [g for g in groups if g != big]  # the 5,000-session group is reads_bench's; screens here show typical groups
    cookies = sessions_for(org, args.clients + 1)
    port = free_port()
    proc, log = start_daphne(url, port)
    try:
        asyncio.run(run(port, proc.pid, cookies[1:], groups, cookies[0], args.changes))
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
