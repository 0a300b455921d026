#!/usr/bin/env python3
"""Every file of the project stands on its own: no citation of a path outside the repository, no issue
number, and every `docs/behaviour/<page>.md §n` it cites exists.

    python3 scripts/check_citations.py [PATH ...]

Without arguments it checks every file git tracks (text files only; lock files and the generated API
schema and types are skipped: they are made from files that are checked). With paths it checks those
files, relative to the current directory (what the tests do). Prints `file:line: what` for each finding
and exits 1 when there is any, else 0.

Refused (the patterns are in OUTSIDE and ISSUES below):
- a path outside the repository: the shared folder beside the clone (its spec, guide and data), the spec
  documents and the guide's pages by file name, a section of the style guide. Describe the behaviour in
  `docs/behaviour/` and cite that.
- an issue number, bare, in a list, with a hash sign, or after "fixes". Say what the work is, or cite its
  ADR.
- a citation `docs/behaviour/<page>.md §n` (or, inside `docs/behaviour/`, `<page>.md §n`) whose page does
  not exist or has no section `## n.`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEHAVIOUR = "docs/behaviour"

GENERATED = {"spa/openapi.json", "spa/src/lib/api-schema.d.ts"}
LOCK_NAMES = {"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "uv.lock", "poetry.lock", "Pipfile.lock"}

# The words are split so that this file does not match itself.
_SPEC = "|".join(("plat" + "form", "deli" + "very", "deci" + "sions"))
OUTSIDE = [
    (re.compile(r"\.\./shar" + r"ed\b"), "a path outside the repository (the shared folder beside the clone)"),
    (re.compile(r"\bshar" + r"ed/(?:spec|guide|data)\b"), "a path outside the repository (shared/...)"),
    (re.compile(r"\b(?:" + _SPEC + r")\.md\b"), "the outside spec by name"),
    (re.compile(r"(?<![\w-])(?:sty" + r"le|tool" + r"chain)\.md\b"), "the outside guide by name"),
    (re.compile(r"\bstyle gu" + r"ide ?§", re.I), "the outside style guide"),
]
ISSUES = [
    (re.compile(r"\b[Ii]ssu" + r"es? #?\d+"), "an issue number"),
    (re.compile(r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see)\s+#\d+\b", re.I), "an issue number (#n)"),
]
CITATION = re.compile(r"docs/behaviour/([A-Za-z0-9_-]+\.md)((?:,? ?§ ?\d+)*)")
LOCAL_CITATION = re.compile(r"(?<![/\w-])([a-z0-9-]+\.md)((?:,? ?§ ?\d+)+)")
SECTION = re.compile(r"^## (\d+)\.", re.M)


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout  # noqa: S607
    return [n for n in out.decode().split("\0") if n]


def skipped(name: str) -> bool:
    base = name.rsplit("/", 1)[-1]
    return name in GENERATED or base in LOCK_NAMES or base.endswith(".lock")


def read_text(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class Pages:
    """The sections of each behaviour page, read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict[str, set[int] | None] = {}

    def sections(self, page: str) -> set[int] | None:
        if page not in self._cache:
            text = read_text(self.root / BEHAVIOUR / page)
            self._cache[page] = None if text is None else {int(n) for n in SECTION.findall(text)}
        return self._cache[page]


def check_text(name: str, text: str, pages: Pages) -> list[str]:
    found: list[str] = []
    local = name.startswith(BEHAVIOUR + "/")
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, what in OUTSIDE + ISSUES:  # one finding per line: the first rule it breaks
            m = pattern.search(line)
            if m:
                found.append(f"{name}:{number}: {what}: {m.group(0)!r}")
                break
        cites = [(m.group(1), m.group(2)) for m in CITATION.finditer(line)]
        if local:
            cites += [(m.group(1), m.group(2)) for m in LOCAL_CITATION.finditer(line)]
        for page, secs in cites:
            have = pages.sections(page)
            if have is None:
                found.append(f"{name}:{number}: cites {BEHAVIOUR}/{page}, which does not exist")
                continue
            for sec in re.findall(r"\d+", secs):
                if int(sec) not in have:
                    found.append(f"{name}:{number}: cites {BEHAVIOUR}/{page} §{sec}, which has no such section")
    return found


def main(argv: list[str]) -> int:
    if argv:
        root = Path.cwd()
        names = argv
    else:
        root = ROOT
        names = [n for n in tracked_files() if not skipped(n)]
    pages = Pages(root)
    found: list[str] = []
    for name in names:
        path = root / name
        if path.is_symlink() or not path.is_file():
            continue
        text = read_text(path)
        if text is not None:
            found += check_text(name, text, pages)
    for line in found:
        print(line)
    if found:
        print(
            f"citations: {len(found)} finding(s): cite docs/behaviour/<page>.md §n or an ADR, never an outside path or an issue number"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
