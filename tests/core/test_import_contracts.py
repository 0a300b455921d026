"""The import contracts of `.importlinter` (docs/engineering.md, "Boundaries"): they hold on the code, and
the contract type of our own (`scripts/import_contracts.py`) fails on a cycle, lazy imports included.

import-linter runs for real, as `scripts/lint.sh` runs it, on this checkout and on a throwaway package."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from scripts.import_contracts import strongly_connected

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint_imports(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{cwd}:{ROOT}"}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)


def test_the_contracts_hold_on_the_code() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    for name in ("No import cycle between modules", "Inside each app", "realtime is transport"):
        assert name in result.stdout


def test_a_cycle_through_a_lazy_import_breaks_the_module_contract(tmp_path: Path) -> None:
    pkg = tmp_path / "loopy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from loopy import b\n")
    (pkg / "b.py").write_text("def later():\n    from loopy.c import c\n    return c\n")
    (pkg / "c.py").write_text("from loopy import a\nc = 1\n")
    (pkg / "leaf.py").write_text("from loopy import a\n")
    (tmp_path / ".importlinter").write_text(
        textwrap.dedent(
            """
            [importlinter]
            root_packages =
                loopy
            contract_types =
                acyclic_modules: scripts.import_contracts.AcyclicModulesContract

            [importlinter:contract:no-module-cycles]
            name = No import cycle between modules
            type = acyclic_modules
            packages =
                loopy
            """
        )
    )
    result = _lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "No import cycle between modules BROKEN" in result.stdout
    assert "Import cycle between 3 modules:" in result.stdout
    for link in ("loopy.a -> loopy.b (l.1)", "loopy.b -> loopy.c (l.2)", "loopy.c -> loopy.a (l.1)"):
        assert link in result.stdout
    assert "loopy.leaf ->" not in result.stdout


def test_strongly_connected_finds_each_cycle_once() -> None:
    edges = {"a": ["b"], "b": ["c", "d"], "c": ["a"], "d": ["e"], "e": ["d"], "f": ["a"], "g": []}
    assert strongly_connected(sorted(edges), edges) == [["a", "b", "c"], ["d", "e"]]
    assert strongly_connected(["x"], {"x": []}) == []
