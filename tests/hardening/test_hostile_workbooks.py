"""Hostile workbooks are refused through the real import endpoint, within budget, by construction (ADR 0004).

Each workbook of the corpus is generated here, small on the wire like an attacker's: the import template
with one part replaced or added. Each must be answered with the documented 400 (path ``["file"]``),
nothing written, and the refusal must come from the package check before any parse (the worker's logged
``stage``/``limit``, not a timing), with the worker and the request's own thread together under 1 s of
CPU, the worker under 100 MB resident and the server's own process under 100 MB more (its peak resident
memory is reset before the request: Linux ``/proc/self/clear_refs``). The worker's budget itself is shown
on a workbook that passes every check: with a smaller CPU or memory budget the kernel stops it and the
answer is the same 400.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import signal
import struct
import time
import zipfile
from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from project.core import workbooks
from project.core.workbook_worker import TOO_COMPLEX, TOO_LARGE, UNREADABLE
from project.timetabling.importer import HEADERS, MAX_COLUMNS, MAX_ROWS, build_template
from project.timetabling.models import TimetableSession

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
NS = f'xmlns="{MAIN}"'
ROWS = f"The file has more than {MAX_ROWS} rows"
COLUMNS = f"The file has more than {MAX_COLUMNS} columns"
MB = 1024 * 1024


# ------------------------------------------------------------------------------------------ the corpus


def package(replace: dict[str, bytes] | None = None, drop: tuple[str, ...] = (), compress: int = zipfile.ZIP_DEFLATED) -> bytes:
    """The import template with parts replaced or added (``replace``) and removed (``drop``)."""
    replace = dict(replace or {})
    source = zipfile.ZipFile(io.BytesIO(build_template()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compress) as target:
        for info in source.infolist():
            if info.filename in drop:
                continue
            target.writestr(info.filename, replace.pop(info.filename, source.read(info.filename)), compresslevel=9)
        for name, data in replace.items():
            target.writestr(name, data, compresslevel=9)
    return out.getvalue()


def header_row() -> bytes:
    cells = "".join(f'<c t="inlineStr"><is><t>{h}</t></is></c>' for h in HEADERS)
    return f'<row r="1">{cells}</row>'.encode()


def sheet(rows: bytes = b"", head: bytes = b"") -> bytes:
    return (
        f'<?xml version="1.0"?><worksheet {NS}>'.encode()
        + head
        + b"<sheetData>"
        + header_row()
        + rows
        + b"</sheetData></worksheet>"
    )


def data_row() -> bytes:
    return b'<row><c t="inlineStr"><is><t>BG1</t></is></c></row>'


def sheet_elsewhere() -> bytes:
    """The first sheet at /data/evil.bin, named only by workbook.xml.rels (outside xl/worksheets/), with
    a million rows; the template's own first sheet removed."""
    template = zipfile.ZipFile(io.BytesIO(build_template()))
    rels = template.read("xl/_rels/workbook.xml.rels").replace(b"/xl/worksheets/sheet1.xml", b"/data/evil.bin")
    types = template.read("[Content_Types].xml").replace(b"/xl/worksheets/sheet1.xml", b"/data/evil.bin")
    return package(
        {"xl/_rels/workbook.xml.rels": rels, "[Content_Types].xml": types, "data/evil.bin": sheet(data_row() * 1_000_000)},
        drop=("xl/worksheets/sheet1.xml",),
    )


def with_shared_strings(strings_xml: bytes) -> bytes:
    template = zipfile.ZipFile(io.BytesIO(build_template()))
    override = (
        b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        b'spreadsheetml.sharedStrings+xml" /></Types>'
    )
    types = template.read("[Content_Types].xml").replace(b"</Types>", override)
    return package({"[Content_Types].xml": types, "xl/sharedStrings.xml": strings_xml})


def shared_strings(items: bytes) -> bytes:
    return f'<?xml version="1.0"?><sst {NS}>'.encode() + items + b"</sst>"


def huge_shared_strings() -> bytes:
    """50 MB of shared strings that deflate to a few hundred KB (a ratio no workbook has)."""
    return with_shared_strings(shared_strings(b"<si><t>x</t></si>" * 3_000_000))


def many_shared_strings() -> bytes:
    """A million distinct shared strings (a ratio like any workbook's, but more strings than cells allowed)."""
    return with_shared_strings(shared_strings(b"".join(b"<si><t>%d</t></si>" % i for i in range(1_000_000))))


def styles(body: bytes) -> bytes:
    return f'<?xml version="1.0"?><styleSheet {NS}>'.encode() + body + b"</styleSheet>"


def huge_styles() -> bytes:
    """Two million cell formats in styles.xml: what cost 71 s and 1.36 GB in openpyxl."""
    return package(
        {"xl/styles.xml": styles(b'<cellXfs count="2000000">' + b'<xf numFmtId="0" fontId="0"/>' * 2_000_000 + b"</cellXfs>")}
    )


def many_fonts() -> bytes:
    """60,000 distinct fonts in styles.xml (a normal ratio; each becomes an object in openpyxl)."""
    fonts = b"".join(b'<font><sz val="%d"/></font>' % i for i in range(60_000))
    return package({"xl/styles.xml": styles(b'<fonts count="60000">' + fonts + b"</fonts>")})


def deep_xml() -> bytes:
    """A cell nested 100,000 elements deep."""
    deep = b"<r>" * 100_000 + b"</r>" * 100_000
    return package({"xl/worksheets/sheet1.xml": sheet(b'<row r="2"><c t="inlineStr"><is>' + deep + b"</is></c></row>")})


def billion_laughs() -> bytes:
    """Entity expansion in the workbook part (10 levels of 10: a billion "lol")."""
    entities = b'<!ENTITY lol0 "lol">' + b"".join(
        b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1)) * 10) for i in range(1, 10)
    )
    template = zipfile.ZipFile(io.BytesIO(build_template()))
    workbook = template.read("xl/workbook.xml").replace(b"<workbookPr />", b"<workbookPr codeName='&lol9;'/>")
    return package({"xl/workbook.xml": b"<?xml version='1.0'?><!DOCTYPE workbook [" + entities + b"]>" + workbook})


def external_entity() -> bytes:
    """An external entity (XXE) in the shared strings: the server's /etc/passwd as a cell."""
    doctype = b'<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    return with_shared_strings(doctype + f"<sst {NS}><si><t>&xxe;</t></si></sst>".encode())


def zip_bomb() -> bytes:
    """A 60 MB part of zeros (about 60 KB deflated) next to the workbook."""
    return package({"xl/media/image1.png": bytes(60 * MB)})


def declared_too_large() -> bytes:
    """A sheet that unpacks to 100 MB of blank space after its rows."""
    return package({"xl/worksheets/sheet1.xml": sheet(data_row()) + b" " * (100 * MB)})


def too_much_in_all() -> bytes:
    """Four parts of 60 MB each: each under the part limit, together over the total."""
    return package({f"xl/media/image{i}.png": bytes(60 * MB) for i in range(4)})


def many_parts() -> bytes:
    """A thousand tiny parts."""
    return package({f"xl/media/image{i}.png": b"x" for i in range(1000)})


def declared_million_rows() -> bytes:
    """A declared dimension of five million rows over a sheet of two."""
    return package({"xl/worksheets/sheet1.xml": sheet(data_row(), head=b'<dimension ref="A1:M5000000"/>')})


def million_blank_rows() -> bytes:
    """A million empty row elements (formatted rows, no cells)."""
    return package({"xl/worksheets/sheet1.xml": sheet(b"".join(b'<row r="%d"/>' % r for r in range(2, 1_000_002)))})


def sparse_last_row() -> bytes:
    """One cell on row 1,048,576: openpyxl would yield every empty row before it."""
    return package({"xl/worksheets/sheet1.xml": sheet(b'<row r="1048576"><c r="A1048576"><v>1</v></c></row>')})


def far_column() -> bytes:
    """One cell in column XFD (16,384): openpyxl would pad the row with empty cells up to it."""
    return package({"xl/worksheets/sheet1.xml": sheet(b'<row r="2"><c r="XFD2"><v>1</v></c></row>')})


def million_cells_in_a_row() -> bytes:
    return package({"xl/worksheets/sheet1.xml": sheet(b'<row r="2">' + b"<c/>" * 1_000_000 + b"</row>")})


def lying_sizes() -> bytes:
    """A sheet whose zip headers declare 1 KB while it unpacks to 50 MB."""
    data = bytearray(package({"xl/worksheets/sheet1.xml": sheet(data_row()) + b" " * (50 * MB)}))
    archive = zipfile.ZipFile(io.BytesIO(bytes(data)))
    info = archive.getinfo("xl/worksheets/sheet1.xml")
    real = struct.pack("<I", info.file_size)
    # Local header: uncompressed size at offset 22; central directory entry: at offset 24.
    assert data[info.header_offset + 22 : info.header_offset + 26] == real
    data[info.header_offset + 22 : info.header_offset + 26] = struct.pack("<I", 1024)
    central = data.find(b"xl/worksheets/sheet1.xml", data.find(b"PK\x01\x02")) - 46
    assert data[central : central + 4] == b"PK\x01\x02"
    assert data[central + 24 : central + 28] == real
    data[central + 24 : central + 28] = struct.pack("<I", 1024)
    return bytes(data)


def not_a_zip() -> bytes:
    return b"PK\x03\x04" + bytes(1000)


# name: (builder, message, (stage, limit) of the refusal, or None for "not a workbook")
CORPUS: dict[str, tuple[Callable[[], bytes], str, tuple[str, str] | None]] = {
    "sheet outside xl/worksheets": (sheet_elsewhere, ROWS, ("pre-parse", "rows")),
    "huge shared strings": (huge_shared_strings, TOO_COMPLEX, ("pre-parse", "ratio")),
    "a million shared strings": (many_shared_strings, TOO_COMPLEX, ("pre-parse", "elements")),
    "huge styles": (huge_styles, TOO_COMPLEX, ("pre-parse", "ratio")),
    "60,000 fonts": (many_fonts, TOO_COMPLEX, ("pre-parse", "elements")),
    "deep xml": (deep_xml, TOO_COMPLEX, ("pre-parse", "depth")),
    "billion laughs": (billion_laughs, UNREADABLE, ("pre-parse", "dtd")),
    "external entity": (external_entity, UNREADABLE, ("pre-parse", "dtd")),
    "zip bomb": (zip_bomb, TOO_COMPLEX, ("pre-parse", "ratio")),
    "part over 64 MB": (declared_too_large, TOO_LARGE, ("pre-parse", "part-bytes")),
    "over 200 MB in all": (too_much_in_all, TOO_LARGE, ("pre-parse", "total-bytes")),
    "a thousand parts": (many_parts, TOO_COMPLEX, ("pre-parse", "parts")),
    "declared five million rows": (declared_million_rows, ROWS, ("pre-parse", "rows")),
    "a million blank rows": (million_blank_rows, ROWS, ("pre-parse", "rows")),
    "sparse row 1,048,576": (sparse_last_row, ROWS, ("pre-parse", "rows")),
    "column XFD": (far_column, COLUMNS, ("pre-parse", "columns")),
    "a million cells in a row": (million_cells_in_a_row, COLUMNS, ("pre-parse", "columns")),
    "sizes that lie": (lying_sizes, UNREADABLE, None),
    "not a zip": (not_a_zip, UNREADABLE, None),
}


# ------------------------------------------------------------------------------------------ measuring


def peak_rss_reset() -> int:
    """Reset this process's peak resident memory to its current one (Linux); the current, in bytes."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _status_kb("VmHWM") * 1024


def peak_rss() -> int:
    return _status_kb("VmHWM") * 1024


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(field)


def post(api, content: bytes, name: str = "hostile.xlsx"):
    return api.post("/api/timetables/import", data={"file": SimpleUploadedFile(name, content, content_type=XLSX)})


def outcomes(caplog) -> list[workbooks.WorkerOutcome]:
    return [r.workbook for r in caplog.records if r.name == "project.core.workbooks" and hasattr(r, "workbook")]


def assert_file_error(r, message: str) -> None:
    assert r.status_code == 400, r.content[:300]
    body = r.json()
    assert body["type"] == "validation_error"
    assert body["errors"] == [{"path": ["file"], "message": message}]
    assert TimetableSession.objects.unscoped().count() == 0


# ------------------------------------------------------------------------------------------ the tests


@pytest.fixture(scope="module")
def refusal_cpu_budget(largest_accepted) -> float:
    """The CPU seconds a refusal may cost here, the worker's and the request's together: 1 s, the budget
    set where the dearest refusal cost 0.68 s (ADR 0004), or on a slower machine 1.5 times the dearest
    honest check measured on this one: a worker's start and refusal (a thousand parts, decided at once)
    plus the package check of the largest accepted workbook (every element of its sheet scanned).
    A hostile part scanned to its limit costs about that; the unbounded parse it replaced cost 22 s."""
    from project.core.workbook_worker import SheetShape, check_package
    from project.timetabling.importer.workbook import LIMITS

    _answer, start = workbooks.run_worker(many_parts(), kind="xlsx", limits=LIMITS)
    shape = SheetShape(dataclasses.asdict(LIMITS))
    cpu = time.process_time()
    check_package(zipfile.ZipFile(io.BytesIO(largest_accepted)), shape)
    scan = time.process_time() - cpu
    return max(1.0, 1.5 * (start.cpu_seconds + scan))


@pytest.mark.parametrize("name", list(CORPUS))
def test_a_hostile_workbook_is_refused_before_parsing_within_budget(api, caplog, name, refusal_cpu_budget):
    build, message, refusal = CORPUS[name]
    content = build()
    assert len(content) < workbooks.MAX_UPLOAD_BYTES  # accepted on the wire: the limits below do the work
    caplog.set_level(logging.INFO, logger="project.core.workbooks")
    before = peak_rss_reset()
    thread_cpu = time.thread_time()  # the request runs on this thread under the test client
    r = post(api, content)
    thread_cpu = time.thread_time() - thread_cpu
    server_growth = peak_rss() - before

    assert_file_error(r, message)
    [outcome] = outcomes(caplog)
    if refusal is not None:
        assert (outcome.stage, outcome.limit) == refusal  # decided by the package check, before any parse
    else:
        assert outcome.stage == "done"  # the worker answered "not a workbook" itself
    assert outcome.cpu_seconds + thread_cpu < refusal_cpu_budget, (outcome, thread_cpu)  # the worker's and the request's own
    assert outcome.max_rss_bytes is not None and outcome.max_rss_bytes < 100 * MB, outcome
    assert server_growth < 100 * MB


@pytest.fixture(scope="module")
def largest_accepted() -> bytes:
    """A workbook at the import's documented limit: 20,000 data rows of the template's 13 columns."""
    row = (
        b"<row>"
        + b"".join(b'<c t="inlineStr"><is><t>cell %d</t></is></c>' % i for i in range(len(HEADERS) - 1))
        + b"<c><v>1</v></c></row>"
    )
    return package({"xl/worksheets/sheet1.xml": sheet(row * MAX_ROWS)})


def test_the_largest_accepted_workbook_passes_every_check(largest_accepted):
    """The package check lets the documented maximum through, and it is read within the budget."""
    from project.timetabling.importer import _read_xlsx

    grid = _read_xlsx(largest_accepted)
    assert len(grid) == MAX_ROWS + 1
    assert grid[0] == list(HEADERS)


def test_the_worker_is_stopped_at_its_cpu_budget(api, caplog, monkeypatch, largest_accepted):
    """With a 1 s budget the kernel stops the worker reading a workbook that passes every check: the
    same 400, nothing written, and its CPU time ends at the budget (soft limit, SIGKILL a second later)."""
    monkeypatch.setattr(workbooks, "CPU_SECONDS", 1)
    caplog.set_level(logging.INFO, logger="project.core.workbooks")
    r = post(api, largest_accepted)
    assert_file_error(r, TOO_COMPLEX)
    [outcome] = outcomes(caplog)
    assert (outcome.stage, outcome.limit) == ("worker", "cpu")
    assert outcome.returncode in (-signal.SIGXCPU, -signal.SIGKILL)  # the kernel's limit stopped it
    assert outcome.cpu_seconds < 2.5


def test_the_worker_is_stopped_at_its_memory_budget(api, caplog, monkeypatch, largest_accepted):
    """With a memory budget below what the parse needs, an allocation fails in the worker: the same 400."""
    monkeypatch.setattr(workbooks, "MEMORY_BYTES", 100 * MB)
    caplog.set_level(logging.INFO, logger="project.core.workbooks")
    r = post(api, largest_accepted)
    assert_file_error(r, TOO_COMPLEX)
    [outcome] = outcomes(caplog)
    assert outcome.stage == "worker"
    assert outcome.limit in {"memory", "exit 1"}  # a MemoryError answered, or one that left no room to answer
    assert outcome.max_rss_bytes is None or outcome.max_rss_bytes < 100 * MB


def test_uploads_wait_for_a_worker_slot_within_the_wall_time(api, caplog, monkeypatch):
    """A server process runs at most CONCURRENT_WORKERS workers: with every slot taken, an upload waits
    and, past the wall time, is answered 400 without starting a worker."""
    import threading

    monkeypatch.setattr(workbooks, "_slots", threading.BoundedSemaphore(1))
    monkeypatch.setattr(workbooks, "WALL_SECONDS", 0.3)
    caplog.set_level(logging.INFO, logger="project.core.workbooks")
    workbooks._slots.acquire()  # another upload holds the only slot
    try:
        r = post(api, not_a_zip())
    finally:
        workbooks._slots.release()
    assert_file_error(r, workbooks.BUSY)
    [outcome] = outcomes(caplog)
    assert (outcome.stage, outcome.limit, outcome.cpu_seconds) == ("worker", "busy", 0.0)


def test_a_sheet_outside_worksheets_within_the_limits_is_read():
    """The sheet is found where workbook.xml.rels names it, as openpyxl finds it, and read under the
    sheet limits: a small one elsewhere in the package is an ordinary workbook."""
    from project.timetabling.importer import _read_xlsx

    template = zipfile.ZipFile(io.BytesIO(build_template()))
    rels = template.read("xl/_rels/workbook.xml.rels").replace(b"/xl/worksheets/sheet1.xml", b"/data/evil.bin")
    types = template.read("[Content_Types].xml").replace(b"/xl/worksheets/sheet1.xml", b"/data/evil.bin")
    content = package(
        {"xl/_rels/workbook.xml.rels": rels, "[Content_Types].xml": types, "data/evil.bin": sheet(data_row() * 3)},
        drop=("xl/worksheets/sheet1.xml",),
    )
    grid = _read_xlsx(content)
    assert grid[0] == list(HEADERS)
    assert grid[1:] == [["BG1"]] * 3


def test_openpyxl_parses_through_defusedxml_in_the_worker():
    """In the worker's interpreter and environment openpyxl's XML functions are defusedxml's (it uses them
    when the package is installed), so an entity the package check missed would still be refused."""
    import subprocess
    import sys

    probe = "import openpyxl.xml.functions as f; print(f.fromstring.__module__, f.iterparse.__module__)"
    out = subprocess.run(  # noqa: S603 — our own interpreter
        [sys.executable, "-I", "-c", probe],
        env={"PATH": "/usr/bin:/bin", "OPENPYXL_DEFUSEDXML": "True"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert [module.split(".")[0] for module in out] == ["defusedxml", "defusedxml"], out


def test_no_module_parses_a_workbook_outside_the_worker():
    """Every spreadsheet read goes through project.core.workbooks (a future import gets the bounds by
    construction): no other module of the server calls openpyxl's or xlrd's readers."""
    from pathlib import Path

    root = Path(workbooks.__file__).resolve().parents[2]
    readers = ("load_workbook", "open_workbook", "iterparse", "read_string_table")
    offenders = [
        f"{path.relative_to(root)}: {reader}"
        for base in ("project", "realtime")
        for path in sorted((root / base).rglob("*.py"))
        if path.name != "workbook_worker.py"
        for reader in readers
        if reader in path.read_text()
    ]
    assert offenders == []
