"""Benchmark: reconnect and catch-up after a server restart (docs/adr/0025), with the SPA's socket client.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_watchers .venv/bin/python bench/reconnect_bench.py --restarts 10

On the demo organization of ``bench/watchers_bench.py`` (seeded on first use), ONE daphne process and a
Node client with socket.io-client and the SPA's reconnection options (``RECONNECT_OPTIONS`` of
``spa/src/lib/socket.ts``: 250 ms first retry, at most 1 s, randomisation 0.3). Each round stops the
server, adds a course directly in the database (the change made while the screen was offline), starts the
server again and notes when it answers (its port accepts). Printed, median and worst over the rounds:

- reconnect: from the server answering again to the client's ``connect``;
- catch-up: from the server answering again to the client's re-read (it re-reads on every reconnect, as
  the SPA does) showing the course added while it was down.

The machine is shared: figures move with its load.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.reads_bench import free_port, start_daphne  # noqa: E402
from bench.watchers_bench import prepare  # noqa: E402

CLIENT = r"""
const { io } = require("socket.io-client");
const [base, cookie] = process.argv.slice(1); // node -e: argv[0] is node itself
const s = io(base, { path: "/socket.io/", transports: ["websocket"], extraHeaders: { Cookie: `sessionid=${cookie}`, Origin: base },
  reconnectionDelay: 250, reconnectionDelayMax: 1000, randomizationFactor: 0.3 });
s.on("connect", async () => {
  console.log(JSON.stringify({ event: "connect", at: Date.now() }));
  const r = await fetch(`${base}/api/courses`, { headers: { Cookie: `sessionid=${cookie}` } });
  const codes = (await r.json()).map((c) => c.code);
  console.log(JSON.stringify({ event: "read", at: Date.now(), codes }));
});
"""


def wait_port(port: int) -> float:
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.05):
                return time.time()
        except OSError:
            time.sleep(0.005)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--restarts", type=int, default=10)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database of the bench's own")
    ctx = prepare(url)
    from project.accounts.models import Organization
    from project.catalogue.models import Course

    org = Organization.objects.get(pk=ctx["org"])
    port = free_port()
    proc, log = start_daphne(url, port)
    base = f"http://localhost:{port}"
    env = {**os.environ, "NODE_PATH": str(ROOT / "spa" / "node_modules")}
    client = subprocess.Popen(["node", "-e", CLIENT, base, ctx["cookies"][0]], env=env, stdout=subprocess.PIPE, text=True)

    def next_line(kind: str) -> dict:
        while True:
            line = client.stdout.readline()
            if not line:
                raise RuntimeError("the client ended")
            data = json.loads(line)
            if data["event"] == kind:
                return data

    reconnects, catchups = [], []
    try:
        next_line("read")
        for i in range(args.restarts):
            proc.terminate()
            proc.wait()
            code = f"RCN{int(time.time() * 1000) % 10_000_000}{i}"
            Course.objects.create(organization=org, code=code, name=f"Offline course {code}")
            proc, log = start_daphne(url, port)
            up = wait_port(port)
            connected = next_line("connect")["at"] / 1000
            read = next_line("read")
            while code not in read["codes"]:  # a read that started before the course was there: the next one
                read = next_line("read")
            reconnects.append((connected - up) * 1000)
            catchups.append((read["at"] / 1000 - up) * 1000)
            print(f"  restart {i + 1}: reconnect {reconnects[-1]:6.0f} ms  catch-up {catchups[-1]:6.0f} ms")
        print(
            f"reconnect after the server answers: median {statistics.median(reconnects):.0f} ms, worst {max(reconnects):.0f} ms; "
            f"caught up: median {statistics.median(catchups):.0f} ms, worst {max(catchups):.0f} ms ({args.restarts} restarts)"
        )
    finally:
        client.terminate()
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
