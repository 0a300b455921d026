"""An import-linter contract type of our own: no import cycle between modules (docs/engineering.md, "Boundaries").

import-linter's ``acyclic_siblings`` checks cycles between the children of one package; a cycle through
modules of two apps (``project.core.models`` -> ``project.history.tracking`` -> ``project.history.models``
-> ``project.core.models``) is a cycle between the apps for it, and the apps still import each other in
both directions (see docs/engineering.md). This contract looks at modules instead: the strongly connected
components of the graph of every import (at module level, inside functions and under ``TYPE_CHECKING``)
between the modules of ``packages`` must all be single modules. A package's ``__init__`` is a module of
its own. ``.importlinter`` names it as ``acyclic_modules``; ``scripts/lint.sh`` runs it.

Broken: every cycle, as its modules and the imports (with line numbers) that close it.
"""

from __future__ import annotations

from typing import Any

import grimp
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def strongly_connected(nodes: list[str], edges: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``edges`` (node -> the nodes it imports), iteratively
    (no recursion limit); only the components of more than one node, each sorted, in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            targets = edges.get(node, [])
            if i < len(targets):
                work.append((node, i + 1))
                target = targets[i]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if work:  # returning to the caller: carry the low link up
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


class AcyclicModulesContract(Contract):
    """Options: ``packages`` (the packages whose modules may form no cycle) and ``ignore_imports``
    (``importer -> imported`` pairs left out, each a documented exception)."""

    type_name = "acyclic_modules"

    packages = fields.ListField(subfield=fields.StringField())
    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        roots = [str(p) for p in self.packages]
        ignored = {(str(e.importer), str(e.imported)) for e in (self.ignore_imports or set())}
        modules = sorted(m for m in graph.modules if any(m == r or m.startswith(r + ".") for r in roots))
        members = set(modules)
        edges = {
            m: sorted(t for t in graph.find_modules_directly_imported_by(m) if t in members and (m, t) not in ignored)
            for m in modules
        }
        cycles: list[dict[str, Any]] = []
        for component in strongly_connected(modules, edges):
            inside = set(component)
            links = []
            for importer in component:
                for imported in edges[importer]:
                    if imported in inside:
                        lines = sorted(d["line_number"] for d in graph.get_import_details(importer=importer, imported=imported))
                        links.append((importer, imported, lines))
            cycles.append({"modules": component, "imports": links})
        return ContractCheck(kept=not cycles, metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error(f"Import cycle between {len(cycle['modules'])} modules:")
            for importer, imported, lines in cycle["imports"]:
                where = ", ".join(f"l.{n}" for n in lines)
                output.print_error(f"- {importer} -> {imported} ({where})")
            output.new_line()
