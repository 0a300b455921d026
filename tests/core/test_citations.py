"""`scripts/check_citations.py` (run by `scripts/lint.sh`): no file cites a path outside the repository or an
issue number, and every `docs/behaviour/<page>.md §n` it cites exists.

The checker runs for real, as `scripts/lint.sh` runs it: on throwaway files in a temporary directory, and on
this checkout. The texts of the violations are put together from pieces so that this file passes itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "scripts" / "check_citations.py"

OUTSIDE_SPEC = "deci" + "sions.md §4"
OUTSIDE_PATH = "../" + "sha" + "red/spec/"
OUTSIDE_DATA = "sha" + "red/" + "data/holidays_vic.json"
BEH = "docs/" + "behaviour/"  # cited pages below do not exist on purpose
STYLE_GUIDE = "style " + "guide §4"
ISSUE = "iss" + "ue 16"
ISSUE_LIST = "Iss" + "ues 17 and 33"
ISSUE_HASH = "fixes " + "#12"

PAGE = """# Conflicts

## 1. Types and severities

Text.

## 2. Linked groups co-deliver

Text. See hours.md §1.
"""
HOURS = "# Hours\n\n## 1. Nominal hours\n\nText.\n"


def run_checker(cwd: Path, *files: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(CHECKER), *files], cwd=cwd, capture_output=True, text=True, check=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A directory holding two behaviour pages, as a clone would."""
    pages = tmp_path / "docs" / "behaviour"
    pages.mkdir(parents=True)
    (pages / "conflicts.md").write_text(PAGE)
    (pages / "hours.md").write_text(HOURS)
    return tmp_path


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (f'"""Conflict rules ({OUTSIDE_SPEC})."""\n', "the outside spec by name"),
        (f"# Read with `{OUTSIDE_PATH}` first.\n", "a path outside the repository"),
        (f"// holidays from {OUTSIDE_DATA}\n", "a path outside the repository"),
        (f"# Writes in services ({STYLE_GUIDE}).\n", "the outside style guide"),
        (f"# Every write records its activity ({ISSUE}).\n", "an issue number"),
        (f"{ISSUE_LIST} asked for re-planning.\n", "an issue number"),
        (f"Retry on 4xx; {ISSUE_HASH}.\n", "an issue number (#n)"),
    ],
)
def test_a_violation_is_found_with_its_file_and_line(tree: Path, text: str, what: str) -> None:
    (tree / "module.py").write_text("x = 1\n\n" + text)
    result = run_checker(tree, "module.py")
    assert result.returncode == 1, result.stdout
    assert f"module.py:3: {what}" in result.stdout
    assert "1 finding(s)" in result.stdout


def test_a_clean_file_passes(tree: Path) -> None:
    (tree / "module.py").write_text(
        '"""Conflict rules (docs/behaviour/conflicts.md §1, §2; ADR 0014). An issue variable is no issue number:"""\n'
        "issue = tissue = 3\n"
        "colour = '#123456'  # a hex colour is not an issue either\n"
    )
    (tree / "notes.md").write_text("See docs/behaviour/hours.md §1 and docs/behaviour/conflicts.md.\n")
    result = run_checker(tree, "module.py", "notes.md")
    assert result.returncode == 0, result.stdout
    assert result.stdout == ""


def test_a_dangling_section_or_page_is_found(tree: Path) -> None:
    (tree / "module.py").write_text(
        f"# {BEH}conflicts.md §2 exists; §9 of it does not: {BEH}conflicts.md §1, §9\n# no such page: {BEH}rostering.md §1\n"
    )
    result = run_checker(tree, "module.py")
    assert result.returncode == 1
    assert f"module.py:1: cites {BEH}conflicts.md §9, which has no such section" in result.stdout
    assert f"module.py:2: cites {BEH}rostering.md, which does not exist" in result.stdout
    assert "conflicts.md §2," not in result.stdout
    assert "2 finding(s)" in result.stdout


def test_a_behaviour_page_citing_another_by_name_is_checked(tree: Path) -> None:
    (tree / "docs" / "behaviour" / "hours.md").write_text(HOURS + "\nSee conflicts.md §3.\n")
    result = run_checker(tree, "docs/behaviour/conflicts.md", "docs/behaviour/hours.md")
    assert result.returncode == 1
    assert f"{BEH}hours.md:7: cites {BEH}conflicts.md §3, which has no such section" in result.stdout
    assert "1 finding(s)" in result.stdout


def test_the_repository_passes() -> None:
    result = run_checker(ROOT)
    assert result.returncode == 0, result.stdout[-3000:]
