"""Benchmark: read throughput and p99 through the scaled-out deployment (ADR 0020), for 1 and for 2
daphne processes behind nginx, to show how far a second process carries.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_reads_large REDIS_URL=redis://127.0.0.1:6379/9 \\
        .venv/bin/python bench/cluster_bench.py --clients 32 --seconds 20 [--mix all] [--processes 1,2]

The organization is ``bench/reads_bench.py``'s ("Reads Bench": 35,000 sessions, 150 teachers; seeded on
the first run). For each process count it starts ``scripts/cluster.sh start N`` (nginx with
``deploy/nginx.conf``, production settings, Redis for events and the kept answers), signs in
``--clients`` clients with real sessions, warms every read, then runs the closed-loop mix of
``reads_bench.py --clients`` through nginx and prints requests/s, p50 and p99, and the CPU each daphne
process and nginx used. The machine's core count bounds what the second process can add: on 2 cores
the clients, nginx and PostgreSQL share them too.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.reads_bench import choose_mix, clients_mode, free_port, get, pick_reads, sessions_for, setup  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cluster(args: list[str], env: dict) -> None:
    done = subprocess.run(["scripts/cluster.sh", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"cluster.sh {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--mix", default="all")
    parser.add_argument("--processes", default="1,2")
    args = parser.parse_args()
    redis = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/9"
    # The clients' sessions are made here and read by the cluster: one secret key for both.
    import secrets

    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    url, org = setup(False)
    reads = pick_reads(org)
    labels = choose_mix(reads, args.mix)
    cookies = sessions_for(org, args.clients)
    from django.db import connections

    connections.close_all()
    state = ROOT / "var" / "cluster-bench"
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": redis,
        "CLUSTER_DIR": str(state),
        "CLUSTER_PORT": str(port),
        "CLUSTER_APP_PORT": str(free_port() + 10),
        "CLUSTER_MIGRATE": "0",
        "ACCESS_LOG_LEVEL": "WARNING",
        "LOG_LEVEL": "ERROR",
    }
    results = {}
    for n in [int(x) for x in args.processes.split(",")]:
        cluster(["stop"], env)
        cluster(["start", str(n)], env)
        try:
            for label in reads:  # warm every process (imports, pools) and the kept answers
                for _ in range(n * 2):
                    get(http.client.HTTPConnection("127.0.0.1", port, timeout=120), reads[label][0], cookies[0])
            pids = {f"daphne {i}": int((state / f"app-{i}.pid").read_text()) for i in range(1, n + 1)}
            master = (state / "nginx.pid").read_text().strip()
            workers = subprocess.run(["pgrep", "-P", master], capture_output=True, text=True).stdout.split()
            pids.update({f"nginx worker {w}": int(w) for w in workers})
            before = {k: cpu_seconds(p) for k, p in pids.items()}
            results[n] = asyncio.run(
                clients_mode(port, cookies, reads, args.seconds, labels, served_by=f"{n} daphne process(es) behind nginx")
            )
            used = {k: (cpu_seconds(p) - before[k]) / args.seconds for k, p in pids.items()}
            print("  CPU (cores): " + ", ".join(f"{k} {v:.2f}" for k, v in used.items() if v > 0.005))
        finally:
            cluster(["stop"], env)
    if 1 in results and 2 in results:
        one, two = results[1], results[2]
        print(
            f"\na second process: {two['rps'] / one['rps']:.2f}x the requests/s "
            f"({one['rps']:.0f} -> {two['rps']:.0f}), p99 {one['p99']:.0f} -> {two['p99']:.0f} ms"
        )
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
