"""Uploaded workbooks (.xlsx, .xls) read into rows, bounded by construction (ADR 0004, amendment 2026-11-26).

Every import of a spreadsheet goes through :func:`read_first_sheet`; a future import gets the same bounds by
calling it. The file never reaches a parser in the server's process: each upload is read by a new worker
process (:mod:`project.core.workbook_worker`, standard library and openpyxl only, no environment) that

- sets its own hard budget first: :data:`CPU_SECONDS` of CPU time and :data:`MEMORY_BYTES` of address
  space (``RLIMIT_CPU``, ``RLIMIT_AS``), at a lower priority than the server;
- checks every part of the package before parsing any of it: the number of parts, each part's declared and
  real unpacked size and compression ratio, the total, XML depth and element counts, no DTD or entity
  declaration (sheets and shared strings found through ``[Content_Types].xml`` and ``workbook.xml.rels``
  as openpyxl finds them, wherever they are; every other part under the small limits);
- parses the first sheet (openpyxl read-only, with defusedxml) and answers plain rows as JSON.

The server's thread only waits: it stops the worker when :data:`WALL_SECONDS` pass, when the answer grows
past :data:`MAX_ANSWER_BYTES`, or when the client disconnects (:func:`project.core.asgi_handler.client_gone`).
A server process runs at most :data:`CONCURRENT_WORKERS` workers at once; an upload waits for a slot within
the same wall time (then :data:`BUSY`).
A refusal is the documented 400 ``validation_error`` with path ``["file"]``: the limit's own message
("The file has more than 20000 rows", "The file is too large to read") or "The workbook is too large or
complex to read"; a file that is not a workbook "The file could not be read as an Excel workbook". Each
refusal is logged (logger ``project.core.workbooks``) with where it was decided (``pre-parse``, ``parse``
or ``worker``, the budget), the limit, and the worker's CPU seconds and peak memory
(:class:`WorkerOutcome`).
"""

from __future__ import annotations

import json
import logging
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time as clock
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from project.core.errors import ValidationFailed
from project.core.workbook_worker import TOO_COMPLEX, UNREADABLE

if TYPE_CHECKING:  # pragma: no cover
    from django.core.files.uploadedfile import UploadedFile

logger = logging.getLogger(__name__)

WORKER = Path(__file__).with_name("workbook_worker.py")
CPU_SECONDS = 20
"""The worker's CPU-time budget (seconds). The largest accepted workbook (20,000 rows of the template's 13
columns) takes about 4.5 s to check, parse and answer on the shared development machine."""
MEMORY_BYTES = 768 * 1024 * 1024
"""The worker's address-space budget (bytes): the interpreter and openpyxl take about 60 MB of it, the
largest accepted workbook under 60 MB resident more."""
WALL_SECONDS = 120
"""How long the server waits for the worker in all (a busy machine slows a worker without using its CPU)."""
MAX_ANSWER_BYTES = 64 * 1024 * 1024
"""The rows' JSON the server accepts from the worker."""
MAX_UPLOAD_BYTES = 10 * 1024 * 1024
CONCURRENT_WORKERS = max(1, (os.cpu_count() or 2) // 2)
"""Workers one server process runs at once (half its machine's cores); further uploads wait for a slot
within :data:`WALL_SECONDS`, so uploads, hostile or not, never take more than that share of the CPU."""
_slots = threading.BoundedSemaphore(CONCURRENT_WORKERS)
BUSY = "The server is busy reading other files; please try again in a minute"

Cell = str | int | float | date | time | timedelta | None
"""A cell's value as openpyxl or xlrd reads it (a bool is an int, a datetime a date)."""


@dataclass(frozen=True)
class SheetLimits:
    """What one import accepts of its first sheet: ``max_sheet_rows`` row elements (blank ones included)
    and row numbers, ``max_columns`` cells per row and column letters, ``max_cells`` cells in all, and the
    messages for the first two."""

    max_sheet_rows: int
    max_columns: int
    max_cells: int
    rows_message: str
    columns_message: str


@dataclass(frozen=True)
class WorkerOutcome:
    """How one worker ended: ``stage`` ``"pre-parse"`` (a package check), ``"parse"`` (the sheet's declared
    size), ``"worker"`` (its budget: CPU, memory, wall time, answer size, or the client gone) or ``"done"``;
    ``limit`` which; the worker's CPU seconds (user + system, from the kernel) and peak resident memory in
    bytes as it reported it (None when it was stopped: then at most :data:`MEMORY_BYTES`)."""

    stage: str
    limit: str
    cpu_seconds: float
    max_rss_bytes: int | None
    returncode: int


def file_error(message: str) -> ValidationFailed:
    """The documented 400 for an upload: ``errors: [{"path": ["file"], "message"}]``."""
    return ValidationFailed([{"path": ["file"], "message": message}], message=message)


def read_first_sheet(upload: UploadedFile | None, limits: SheetLimits) -> list[list[Cell]]:
    """The first sheet of an uploaded .xlsx or .xls as rows of cell values (an .xlsx row without its trailing
    blanks, at most ``limits.max_columns`` wide), read by a worker within its budget.

    Raises ValidationFailed (path ``["file"]``): no file "Please choose a file to import", another type "Only
    .xlsx or .xls files are accepted", over 10 MB "The file is larger than 10 MB", over a limit or the
    budget (see the module docstring), or not a workbook "The file could not be read as an Excel workbook".
    """
    if upload is None:
        raise file_error("Please choose a file to import")
    name = (upload.name or "").lower()
    if not (name.endswith(".xlsx") or name.endswith(".xls")):
        raise file_error("Only .xlsx or .xls files are accepted")
    if (upload.size or 0) > MAX_UPLOAD_BYTES:
        raise file_error("The file is larger than 10 MB")
    data = upload.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        raise file_error("The file is larger than 10 MB")
    return read_workbook_bytes(data, kind="xlsx" if name.endswith(".xlsx") else "xls", limits=limits)


def read_workbook_bytes(data: bytes, *, kind: str, limits: SheetLimits) -> list[list[Cell]]:
    """:func:`read_first_sheet` for bytes already read (``kind`` ``"xlsx"`` or ``"xls"``)."""
    answer, outcome = run_worker(data, kind=kind, limits=limits)
    if "rows" in answer:
        try:
            return [[decode_cell(v) for v in row] for row in answer["rows"]]
        except (TypeError, ValueError):  # not the worker's own encoding: never a 500
            raise file_error(UNREADABLE) from None
    if "refused" in answer:
        logger.info(
            "workbook refused at %s (%s): %.2f s CPU, %s MB",
            outcome.stage,
            outcome.limit,
            outcome.cpu_seconds,
            "?" if outcome.max_rss_bytes is None else outcome.max_rss_bytes >> 20,
            extra={"workbook": outcome},
        )
        raise file_error(str(answer["refused"].get("message") or TOO_COMPLEX))
    logger.info("workbook unreadable: %s", str(answer.get("unreadable"))[:200], extra={"workbook": outcome})
    raise file_error(UNREADABLE)


def decode_cell(value: Any) -> Cell:
    """A cell from the worker's JSON (:func:`project.core.workbook_worker.encode_cell`)."""
    if isinstance(value, dict):
        if "dt" in value:
            return datetime.fromisoformat(value["dt"])
        if "d" in value:
            return date.fromisoformat(value["d"])
        if "t" in value:
            return time.fromisoformat(value["t"])
        if "s" in value:
            return timedelta(seconds=float(value["s"]))
        return None
    return value


def run_worker(data: bytes, *, kind: str, limits: SheetLimits) -> tuple[dict[str, Any], WorkerOutcome]:
    """Start the worker on ``data``, wait for its one-line JSON answer, and reap it with its resource usage.

    Returns ``(answer, outcome)``; an answer over the worker's budget (killed by the kernel, stopped here
    for wall time, answer size or the client gone, or any other abnormal end) is
    ``{"refused": {"stage": "worker", "limit": ..., "message": TOO_COMPLEX}}``.
    """
    from project.core.asgi_handler import client_gone

    gone = client_gone()
    deadline = clock.monotonic() + WALL_SECONDS
    while not _slots.acquire(timeout=0.05):  # wait for a slot, watching the client and the clock
        if (gone is not None and gone.is_set()) or clock.monotonic() > deadline:
            limit = "client-gone" if gone is not None and gone.is_set() else "busy"
            outcome = WorkerOutcome("worker", limit, 0.0, None, 0)
            return {"refused": {"stage": "worker", "limit": limit, "message": BUSY}}, outcome
    try:
        return _run(data, kind=kind, limits=limits, gone=gone, deadline=deadline)
    finally:
        _slots.release()


def _run(
    data: bytes, *, kind: str, limits: SheetLimits, gone: threading.Event | None, deadline: float
) -> tuple[dict[str, Any], WorkerOutcome]:
    """:func:`run_worker` once a slot is held."""
    with tempfile.NamedTemporaryFile(prefix="upload-", suffix="." + kind) as tmp:
        tmp.write(data)
        tmp.flush()
        job = {
            "path": tmp.name,
            "kind": kind,
            "cpu_seconds": CPU_SECONDS,
            "memory_bytes": MEMORY_BYTES,
            "max_sheet_rows": limits.max_sheet_rows,
            "max_columns": limits.max_columns,
            "max_cells": limits.max_cells,
            "rows_message": limits.rows_message,
            "columns_message": limits.columns_message,
        }
        proc = subprocess.Popen(  # noqa: S603 — our own interpreter and script, the job as one JSON argument
            [sys.executable, "-I", str(WORKER), json.dumps(job)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "OPENPYXL_DEFUSEDXML": "True"},
            close_fds=True,
        )
        assert proc.stdout is not None  # noqa: S101 — stdout=PIPE above
        stopped: str | None = None
        chunks: list[bytes] = []
        size = 0
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while stopped is None:
                if gone is not None and gone.is_set():
                    stopped = "client-gone"
                    break
                if clock.monotonic() > deadline:
                    stopped = "wall-time"
                    break
                if not selector.select(timeout=0.05):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    stopped = "answer-bytes"
                    break
                chunks.append(chunk)
        if stopped is not None:
            proc.kill()
        proc.stdout.close()
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    if stopped is None and proc.returncode == 0:
        try:
            answer = json.loads(b"".join(chunks))
        except ValueError:
            answer = None
        if isinstance(answer, dict) and ({"rows", "unreadable"} & answer.keys() or isinstance(answer.get("refused"), dict)):
            refused = answer.get("refused") or {}
            stage = str(refused.get("stage", "done"))
            rss = answer.get("peak_rss_bytes")
            rss = rss if isinstance(rss, int) else None
            return answer, WorkerOutcome(stage, str(refused.get("limit", "")), cpu, rss, proc.returncode)
    if stopped is None:
        code = proc.returncode
        stopped = {-signal.SIGXCPU: "cpu", -signal.SIGKILL: "cpu"}.get(code, f"exit {code}")
    outcome = WorkerOutcome("worker", stopped, cpu, None, proc.returncode)
    return {"refused": {"stage": "worker", "limit": stopped, "message": TOO_COMPLEX}}, outcome
