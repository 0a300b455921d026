"""The sandboxed half of reading an uploaded workbook: a separate process, started by
:mod:`project.core.workbooks` for every upload, that checks the package and then parses its first sheet.

It imports the standard library, openpyxl (with defusedxml, which openpyxl uses for every XML part it
parses when it is installed) and xlrd only: never Django or the project, and it gets no environment (no
database address, no secret key). Run as ``python -I workbook_worker.py <job JSON>``; the job names the
upload's file and its limits. In this order it:

1. sets its own hard limits (``RLIMIT_CPU``, ``RLIMIT_AS``, no file writes, no child processes) and lowers
   its priority, before it opens the file, so whatever the file does next runs inside them;
2. checks the zip directory (:func:`check_directory`): number of parts, each part's declared size, the
   total, the compression methods;
3. finds the parts openpyxl will read as sheets and shared strings (following ``[Content_Types].xml`` and
   the workbook's relationships as openpyxl does, each of those small parts bounded first), then streams
   EVERY part through expat (:func:`scan_part`), counting real uncompressed bytes, elements and depth and
   refusing any DTD or entity declaration. Sheets and shared strings get the large limits, every other
   part (styles, workbook, relationships, properties, a sheet's drawing, any part we do not know) the
   small ones, and a part other than a sheet is refused before it is unpacked when it deflates more than
   :data:`MAX_RATIO`:1; a sheet's rows, cells per row, row and column numbers and ``<dimension>`` are
   checked too;
4. only then parses the first sheet with openpyxl (read-only) or xlrd, and writes one JSON line to
   stdout: ``{"rows": [[cell, ...], ...]}`` (cells tagged by :func:`encode_cell`) or
   ``{"refused": {"stage", "limit", "message"}}`` or ``{"unreadable": "<reason>"}``, each with
   ``"peak_rss_bytes"`` (its own peak resident memory).

Over its CPU budget the kernel stops it (SIGXCPU, then SIGKILL); over its memory budget an allocation
fails (MemoryError, answered as a refusal when there is still room to answer). The parent treats any
other ending as over budget.
"""

from __future__ import annotations

import io
import json
import os
import resource
import sys
import zipfile
from datetime import date, datetime, time, timedelta
from typing import IO, Any

# ----------------------------------------------------------------------------------------------- limits

MAX_PARTS = 256
"""Parts (zip entries) in a package; a workbook with sheets, styles, a theme and properties has about 10."""
MAX_TOTAL_BYTES = 200 * 1024 * 1024
"""What all parts unpack to together (declared and real)."""
MAX_LARGE_PART_BYTES = 64 * 1024 * 1024
"""One sheet or shared-strings part, unpacked (20,000 rows of 13 inline-text cells are about 13 MB)."""
MAX_SMALL_PART_BYTES = 4 * 1024 * 1024
"""Any other part, unpacked (styles, workbook, relationships, properties, theme, drawings, images)."""
MAX_RATIO = 200
"""Unpacked size over packed size of a part other than a sheet larger than :data:`RATIO_FLOOR_BYTES`
(shared strings deflate about 5:1; a zip bomb over 1000:1)."""
RATIO_FLOOR_BYTES = 1024 * 1024
MAX_SMALL_PART_ELEMENTS = 50_000
"""XML elements in one part other than a sheet or the shared strings (styles are parsed into objects, at
tens of microseconds each)."""
MAX_DEPTH = 40
"""Element nesting in any part (a sheet's cell with rich text is 7 deep)."""
CHUNK = 64 * 1024

COMPRESSION_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
TOO_COMPLEX = "The workbook is too large or complex to read"
TOO_LARGE = "The file is too large to read"
UNREADABLE = "The file could not be read as an Excel workbook"

SHARED_STRINGS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
MANIFEST = "[Content_Types].xml"


class Refused(Exception):
    """The upload is over a limit: ``limit`` names which (for the log), ``message`` is the user's text."""

    def __init__(self, limit: str, message: str = TOO_COMPLEX, stage: str = "pre-parse") -> None:
        super().__init__(message)
        self.limit, self.message, self.stage = limit, message, stage


class Unreadable(Exception):
    """Not a workbook (bad zip, not XML where XML is needed, missing parts)."""


# --------------------------------------------------------------------------------------------- the job


def set_limits(cpu_seconds: int, memory_bytes: int) -> None:
    """This process's hard budget: CPU seconds (SIGXCPU at the soft limit, SIGKILL a second later),
    address space in bytes, no file writes, no new processes; and a lower scheduling priority."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.nice(10)


def encode_cell(value: Any) -> Any:
    """A cell as JSON: str, int, float, bool and None as they are; dates and times as ``{"d"|"dt"|"t":
    iso}``, a duration as ``{"s": seconds}``."""
    if isinstance(value, datetime):
        return {"dt": value.isoformat()}
    if isinstance(value, date):
        return {"d": value.isoformat()}
    if isinstance(value, time):
        return {"t": value.isoformat()}
    if isinstance(value, timedelta):
        return {"s": value.total_seconds()}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def run(job: dict[str, Any]) -> dict[str, Any]:
    """Check and read the job's file; the answer written to stdout."""
    with open(job["path"], "rb") as f:
        data = f.read()
    try:
        grid = read_xlsx(data, job) if job["kind"] == "xlsx" else read_xls(data, job)
    except Refused as exc:
        return {"refused": {"stage": exc.stage, "limit": exc.limit, "message": exc.message}}
    except MemoryError:
        return {"refused": {"stage": "worker", "limit": "memory", "message": TOO_COMPLEX}}
    except Exception as exc:  # noqa: BLE001 — any parser error of a hostile file means "not a workbook"
        return {"unreadable": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return {"rows": [[encode_cell(v) for v in row] for row in grid]}


def peak_rss_bytes() -> int:
    """This process's peak resident memory since it started this program (``VmHWM``, Linux); the resource
    usage its parent reaps also counts the parent's own memory at the fork."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main() -> None:
    job = json.loads(sys.argv[1])
    set_limits(job["cpu_seconds"], job["memory_bytes"])
    try:
        answer = run(job)
    except MemoryError:
        answer = {"refused": {"stage": "worker", "limit": "memory", "message": TOO_COMPLEX}}
    answer["peak_rss_bytes"] = peak_rss_bytes()
    out = json.dumps(answer, separators=(",", ":")).encode()
    sys.stdout.buffer.write(out + b"\n")
    sys.stdout.buffer.flush()


# ------------------------------------------------------------------------------------------ the package


def check_directory(archive: zipfile.ZipFile) -> None:
    """Bounds read from the zip's central directory alone (nothing unpacked): parts, declared sizes,
    compression methods. Raises Refused or Unreadable."""
    infos = archive.infolist()
    if len(infos) > MAX_PARTS:
        raise Refused("parts")
    names = [i.filename for i in infos]
    if len(set(names)) != len(names):
        raise Unreadable("duplicate part names")
    if sum(i.file_size for i in infos) > MAX_TOTAL_BYTES:
        raise Refused("total-bytes", TOO_LARGE)
    for info in infos:
        if info.compress_type not in COMPRESSION_METHODS or info.flag_bits & 0x1:
            raise Unreadable("compression method or encryption")
        if info.file_size > MAX_LARGE_PART_BYTES:
            raise Refused("part-bytes", TOO_LARGE)


def over_ratio(info: zipfile.ZipInfo) -> bool:
    """Whether a part unpacks to more than :data:`MAX_RATIO` times its packed size (past a floor)."""
    return info.file_size > RATIO_FLOOR_BYTES and info.file_size > MAX_RATIO * max(info.compress_size, 1)


class SheetShape:
    """Limits of a worksheet's rows and cells, and their messages (from the job)."""

    def __init__(self, job: dict[str, Any]) -> None:
        self.max_rows = int(job["max_sheet_rows"])
        self.max_columns = int(job["max_columns"])
        self.max_cells = int(job["max_cells"])
        self.rows_message = str(job["rows_message"])
        self.columns_message = str(job["columns_message"])


def _column_number(ref: str) -> int:
    n = 0
    for ch in ref:
        if "A" <= ch <= "Z":
            n = n * 26 + ord(ch) - 64
        elif "a" <= ch <= "z":
            n = n * 26 + ord(ch) - 96
        else:
            break
    return n


def _row_number(ref: str) -> int:
    digits = "".join(ch for ch in ref if ch.isdigit())
    return int(digits) if digits and len(digits) < 12 else 1 << 40


def scan_part(stream: IO[bytes], *, max_bytes: int, max_elements: int, shape: SheetShape | None = None) -> int:
    """Stream one part through expat without building anything; the number of elements.

    Raises Refused past ``max_bytes`` real unpacked bytes, ``max_elements`` elements, :data:`MAX_DEPTH`,
    any DTD or entity declaration, and (with ``shape``) a sheet whose rows, cells per row, cells, row or
    column numbers or declared ``<dimension>`` are over the shape's limits. A part that is not XML ends
    the scan where any XML parser would stop reading it (it cannot cost more than was scanned).
    """
    import xml.parsers.expat

    parser = xml.parsers.expat.ParserCreate(namespace_separator="}")
    state = {"depth": 0, "elements": 0, "rows": 0, "cells_in_row": 0, "cells": 0}

    def refuse_dtd(*_args: Any) -> None:
        raise Refused("dtd", UNREADABLE)

    def start(name: str, attrs: dict[str, str]) -> None:
        state["depth"] += 1
        state["elements"] += 1
        if state["depth"] > MAX_DEPTH:
            raise Refused("depth")
        if state["elements"] > max_elements:
            raise Refused("elements")
        if shape is None:
            return
        local = name.rsplit("}", 1)[-1]
        if local == "c":
            state["cells_in_row"] += 1
            state["cells"] += 1
            ref = attrs.get("r")
            if state["cells_in_row"] > shape.max_columns or (ref and _column_number(ref) > shape.max_columns):
                raise Refused("columns", shape.columns_message)
            if state["cells"] > shape.max_cells:
                raise Refused("cells")
        elif local == "row":
            state["rows"] += 1
            state["cells_in_row"] = 0
            ref = attrs.get("r")
            if state["rows"] > shape.max_rows or (ref and _row_number(ref) > shape.max_rows):
                raise Refused("rows", shape.rows_message)
        elif local == "dimension":
            last = (attrs.get("ref") or "").split(":")[-1]
            if last and _row_number(last) > shape.max_rows:
                raise Refused("rows", shape.rows_message)
            if last and _column_number(last) > shape.max_columns:
                raise Refused("columns", shape.columns_message)

    def end(_name: str) -> None:
        state["depth"] -= 1

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.UnparsedEntityDeclHandler = refuse_dtd
    parser.ExternalEntityRefHandler = refuse_dtd  # type: ignore[assignment]  # raises: never answers
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    seen = 0
    try:
        while True:
            chunk = stream.read(CHUNK)
            if not chunk:
                parser.Parse(b"", True)
                break
            seen += len(chunk)
            if seen > max_bytes:
                raise Refused("part-bytes", TOO_LARGE)
            parser.Parse(chunk, False)
    except xml.parsers.expat.ExpatError:
        pass  # not XML (an image, a binary part): a parser stops here too
    return state["elements"]


def _plan(archive: zipfile.ZipFile, names: set[str]) -> tuple[set[str], str | None, set[str]]:
    """``(sheet parts, shared strings part, small parts already scanned)`` found as openpyxl finds them
    (``[Content_Types].xml``, the workbook part and its relationships, each bounded before it is parsed)."""
    from openpyxl.packaging.manifest import Manifest
    from openpyxl.packaging.relationship import get_rels_path
    from openpyxl.reader.excel import _find_workbook_part
    from openpyxl.reader.workbook import WorkbookParser
    from openpyxl.xml.functions import fromstring

    scanned = set()
    if MANIFEST not in names:
        raise Unreadable("no manifest")
    with archive.open(MANIFEST) as stream:
        scan_part(stream, max_bytes=MAX_SMALL_PART_BYTES, max_elements=MAX_SMALL_PART_ELEMENTS)
    scanned.add(MANIFEST)
    package = Manifest.from_tree(fromstring(archive.read(MANIFEST)))
    workbook_part = _find_workbook_part(package).PartName[1:]
    rels_part = get_rels_path(workbook_part)
    for part in (workbook_part, rels_part):
        if part not in names:
            raise Unreadable(f"missing {part}")
        with archive.open(part) as stream:
            scan_part(stream, max_bytes=MAX_SMALL_PART_BYTES, max_elements=MAX_SMALL_PART_ELEMENTS)
        scanned.add(part)
    parser = WorkbookParser(archive, workbook_part, keep_links=False)
    parser.parse()
    sheets = {rel.target for _sheet, rel in parser.find_sheets() if rel.target in names}
    strings = package.find(SHARED_STRINGS_TYPE)
    strings_part = strings.PartName[1:] if strings is not None else None
    return sheets - scanned, (strings_part if strings_part in names and strings_part not in scanned else None), scanned


def check_package(archive: zipfile.ZipFile, shape: SheetShape) -> None:
    """Every part of an .xlsx bounded before openpyxl parses any of it (see the module's docstring).
    Raises Refused or Unreadable."""
    check_directory(archive)
    names = set(archive.namelist())
    sheets, strings_part, scanned = _plan(archive, names)
    styles = "xl/styles.xml"  # openpyxl reads the styles at this fixed path, whatever the relationships say
    sheets.discard(styles)
    large_elements = 0
    for info in archive.infolist():
        name = info.filename
        if name in scanned:
            continue
        is_sheet = name in sheets
        if over_ratio(info) and not is_sheet:
            # Not for a sheet: its rows and cells bound it whatever it deflates from (20,000 equal rows
            # deflate far), and a sheet over them gets their own message.
            raise Refused("ratio")
        with archive.open(info) as stream:
            if is_sheet:
                # A cell is at most 3 elements (c, is, t) but for rich text.
                limit = 3 * shape.max_cells + shape.max_rows
                large_elements += scan_part(stream, max_bytes=MAX_LARGE_PART_BYTES, max_elements=limit, shape=shape)
            elif name == strings_part and name != styles:
                # One string per cell at most, each an si and a t but for rich text.
                large_elements += scan_part(stream, max_bytes=MAX_LARGE_PART_BYTES, max_elements=2 * shape.max_cells)
            else:
                scan_part(stream, max_bytes=MAX_SMALL_PART_BYTES, max_elements=MAX_SMALL_PART_ELEMENTS)
        if large_elements > 4 * shape.max_cells:  # all sheets and the strings together
            raise Refused("elements")


# ------------------------------------------------------------------------------------------- the parse


def read_xlsx(data: bytes, job: dict[str, Any]) -> list[list[Any]]:
    """The first sheet's rows (trailing blanks dropped, at most ``max_columns`` wide), after
    :func:`check_package`."""
    shape = SheetShape(job)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise Unreadable("not a zip") from exc
    with archive:
        check_package(archive, shape)
    from openpyxl import load_workbook

    wb = load_workbook(io.BytesIO(data), read_only=True, data_only=True, keep_links=False)
    try:
        ws = wb.worksheets[0]
        declared_rows, declared_cols = ws.max_row, ws.max_column
        if declared_rows is not None and declared_rows > shape.max_rows:
            raise Refused("rows", shape.rows_message, stage="parse")
        if declared_cols is not None and declared_cols > shape.max_columns:
            raise Refused("columns", shape.columns_message, stage="parse")
        grid = []
        for values in ws.iter_rows(values_only=True, max_col=shape.max_columns):
            row = list(values)
            while row and row[-1] is None:
                row.pop()
            grid.append(row)
        return grid
    finally:
        wb.close()


def read_xls(data: bytes, job: dict[str, Any]) -> list[list[Any]]:
    """The first sheet of a legacy .xls (xlrd, inside the same budget)."""
    import xlrd

    shape = SheetShape(job)
    book = xlrd.open_workbook(file_contents=data, on_demand=True)
    sheet = book.sheet_by_index(0)
    if sheet.nrows > shape.max_rows:
        raise Refused("rows", shape.rows_message)
    if sheet.ncols > shape.max_columns:
        raise Refused("columns", shape.columns_message)
    if sheet.nrows * sheet.ncols > shape.max_cells:
        raise Refused("cells")
    grid = []
    for r in range(sheet.nrows):
        row: list[Any] = []
        for c in range(sheet.ncols):
            cell = sheet.cell(r, c)
            if cell.ctype == xlrd.XL_CELL_DATE:
                value = xlrd.xldate.xldate_as_datetime(cell.value, book.datemode)
                row.append(value.time() if cell.value < 1 else value)
            elif cell.ctype in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
                row.append(None)
            else:
                row.append(cell.value)
        grid.append(row)
    return grid


if __name__ == "__main__":
    main()
