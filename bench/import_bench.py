"""Benchmark: another organization's reads while hostile workbooks are uploaded (ADR 0004).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bp_bench_imports .venv/bin/python bench/import_bench.py
    ... bench/import_bench.py --seconds 20 --uploaders 4 --readers 2 [--no-at-limit]

PostgreSQL only. The reading organization is the large one of ``bench/reads_bench.py`` ("Reads Bench":
30,000 sessions plus a 5,000-session block group, seeded with ``bench/seed_large.py`` on the first run
into the database of ``DATABASE_URL``, reused afterwards); the uploads come from a second, small
organization's admin. ONE real daphne process (``project.asgi:application``) serves both.

Phases of ``--seconds`` each, every figure over HTTP as a browser asks (the first two alternated
``--rounds`` times and pooled, so that the machine's other load falls on both alike):

1. alone: ``--readers`` clients of the large organization read in turn the timetable of a ~400-session
   block group, the teachers and the block groups (each answer built after a change, then kept:
   ``project/core/response_cache.py``); p50 and p99;
2. the same reads while ``--uploaders`` clients of the other organization upload hostile workbooks
   one after another (the corpus of ``tests/hardening/test_hostile_workbooks.py``: a sheet outside
   ``xl/worksheets/``, huge shared strings and styles, deep XML, entity expansion, a zip bomb, a million
   blank or sparse rows...): reads p50/p99, uploads answered (all must be 400) and their p50;
3. (unless ``--no-at-limit``) the same with uploads of the largest workbook the checks accept (20,000
   rows of 20 cells, read in full by the worker, then refused for its rows' contents): the worst an
   upload within the limits costs.

For each phase: the server's CPU seconds (daphne and the workers it reaped) per second of the phase.
Target: read p99 with hostile uploads within 2x of p99 alone. The machine is shared (2 cores, several
engineers' tests and servers at once): the load average is printed; compare phases of one run.
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import stop_server  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bp_bench_imports"
ATTACKER_ORG = "Import Bench Uploads"


def server_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and of its children it has reaped (the workbook workers)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def attacker_sessions(n: int) -> list[str]:
    """``n`` session keys of the upload organization's admin (the organization made on first use)."""
    from bench.reads_bench import sessions_for
    from project.accounts.models import Organization, User

    org = Organization.objects.filter(name=ATTACKER_ORG).first()
    if org is None:
        org = Organization.objects.create(name=ATTACKER_ORG, domain=f"uploads-{uuid.uuid4().hex[:8]}.example.edu.au")
        User.objects.create_user(
            email=f"admin@{org.domain}", password=None, first_name="Up", last_name="Loader", organization=org, role="admin"
        )
    return sessions_for(org, n)


def hostile_corpus(only: str | None) -> list[tuple[str, bytes]]:
    """The test corpus's workbooks (those whose name contains ``only``, when given)."""
    from tests.hardening.test_hostile_workbooks import CORPUS

    return [(name, build()) for name, (build, _message, _refusal) in CORPUS.items() if not only or only in name]


def at_limit_workbook() -> bytes:
    from tests.hardening.test_hostile_workbooks import package, sheet

    row = b"<row>" + b"".join(b"<c><v>%d</v></c>" % i for i in range(20)) + b"</row>"
    return package({"xl/worksheets/sheet1.xml": sheet(row * 20_000)})


def multipart(content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload.xlsx"\r\n\r\n'.encode()
    return head + content + f"\r\n--{boundary}--\r\n".encode(), boundary


class Phase:
    """Readers (and uploaders) running until ``stop``; their latencies in ms."""

    def __init__(self, port: int, seconds: float) -> None:
        self.port, self.stop = port, time.perf_counter() + seconds
        self.reads: list[float] = []
        self.uploads: list[float] = []
        self.upload_status: dict[int, int] = {}
        self.lock = threading.Lock()

    def reader(self, cookie: str, paths: list[str], offset: int) -> None:
        from bench.reads_bench import get

        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        n = offset
        while time.perf_counter() < self.stop:
            elapsed, _ = get(conn, paths[n % len(paths)], cookie)
            n += 1
            with self.lock:
                self.reads.append(elapsed)
        conn.close()

    def uploader(self, cookie: str, bodies: list[tuple[bytes, str]], offset: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        csrf = secrets.token_hex(16)
        n = offset
        while time.perf_counter() < self.stop:
            body, boundary = bodies[n % len(bodies)]
            n += 1
            headers = {
                "Host": "localhost",
                "Origin": "http://localhost",
                "Cookie": f"sessionid={cookie}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "Content-Type": f"multipart/form-data; boundary={boundary}",
            }
            t0 = time.perf_counter()
            try:
                conn.request("POST", "/api/timetables/import", body=body, headers=headers)
                response = conn.getresponse()
                response.read()
            except (http.client.RemoteDisconnected, ConnectionError):
                conn.close()
                continue
            with self.lock:
                self.uploads.append((time.perf_counter() - t0) * 1000)
                self.upload_status[response.status] = self.upload_status.get(response.status, 0) + 1
        conn.close()


def run_phase(label: str, port: int, pid: int, seconds: float, readers: list[str], paths: list[str], uploads=None) -> dict:
    from bench.reads_bench import pct

    phase = Phase(port, seconds)
    threads = [threading.Thread(target=phase.reader, args=(c, paths, i)) for i, c in enumerate(readers)]
    if uploads is not None:
        cookies, bodies = uploads
        threads += [threading.Thread(target=phase.uploader, args=(c, bodies, i)) for i, c in enumerate(cookies)]
    cpu0, t0 = server_cpu(pid), time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    cpu = (server_cpu(pid) - cpu0) / wall
    line = f"{label:<44} reads n={len(phase.reads):<5} p50 {pct(phase.reads, 50):>6.1f} ms  p99 {pct(phase.reads, 99):>7.1f} ms"
    if uploads is not None:
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(phase.upload_status.items()))
        up50 = pct(phase.uploads, 50) if phase.uploads else float("nan")
        line += f"  | uploads {len(phase.uploads)} ({statuses}) p50 {up50:.0f} ms"
    print(line + f"  | server {cpu:.2f} CPU s/s", flush=True)
    return {"reads": phase.reads, "statuses": phase.upload_status}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--uploaders", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3, help="alternated alone / hostile phases")
    parser.add_argument("--no-at-limit", action="store_true")
    parser.add_argument("--only", help="upload only the corpus workbooks whose name contains this")
    args = parser.parse_args()

    os.environ.setdefault("DATABASE_URL", DEFAULT_URL)
    from bench.reads_bench import free_port, get, pct, pick_reads, sessions_for, setup, start_daphne

    url, org = setup(reseed=False)
    reads = pick_reads(org)
    paths = [path for label, (path, _) in reads.items() if label != list(reads)[1]]  # all but the 5,000-session timetable
    readers = sessions_for(org, args.readers)
    uploaders = attacker_sessions(args.uploaders)
    corpus = hostile_corpus(args.only)
    hostile = [multipart(content) for _name, content in corpus]
    at_limit = [multipart(at_limit_workbook())]
    from django.db import connections

    connections.close_all()
    port = free_port()
    proc, log = start_daphne(url, port)
    try:
        for path in paths:  # warm the process (imports, first connection, the kept answers)
            get(http.client.HTTPConnection("127.0.0.1", port, timeout=120), path, readers[0])
        print(f"reads of '{org.name}': {', '.join(paths)}; {args.readers} reader(s), {args.seconds:.0f} s a phase")
        print(
            f"hostile corpus: {len(corpus)} workbooks, {min(len(c) for _n, c in corpus) // 1024}-{max(len(c) for _n, c in corpus) // 1024} KB"
        )
        alone: list[float] = []
        attacked: list[float] = []
        for _round in range(args.rounds):  # alternated, so that the machine's other load falls on both alike
            alone += run_phase("alone", port, proc.pid, args.seconds, readers, paths)["reads"]
            phase = run_phase(
                f"while {args.uploaders} upload hostile workbooks",
                port,
                proc.pid,
                args.seconds,
                readers,
                paths,
                (uploaders, hostile),
            )
            attacked += phase["reads"]
            if set(phase["statuses"]) - {400}:
                print(f"UNEXPECTED upload answers: {phase['statuses']}")
        if not args.no_at_limit:
            run_phase(
                f"while {args.uploaders} upload at-limit workbooks",
                port,
                proc.pid,
                args.seconds,
                readers,
                paths,
                (uploaders, at_limit),
            )
        print(
            f"\nover {args.rounds} round(s): reads alone p50 {pct(alone, 50):.1f} ms p99 {pct(alone, 99):.1f} ms (n={len(alone)});"
        )
        print(f"  with hostile uploads p50 {pct(attacked, 50):.1f} ms p99 {pct(attacked, 99):.1f} ms (n={len(attacked)})")
        print(f"  p99 ratio {pct(attacked, 99) / pct(alone, 99):.2f}x (target: within 2x)")
    finally:
        stop_server(proc, log)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (shared with other engineers' work)")


if __name__ == "__main__":
    main()
