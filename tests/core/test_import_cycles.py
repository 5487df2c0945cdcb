"""No import cycles among the project's modules.

A cycle (``core.events`` → ``core.outbox`` → ``core.tasks`` → ``core.events``, or a
service importing the job module that imports it back) makes import order matter and
hides which module depends on which. grimp (installed with import-linter) reads every
import, those inside functions too, so a lazy import does not hide a cycle either.
``make lint`` runs this test beside the import-linter contracts.
"""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]


def project_packages() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["importlinter"]["root_packages"])


def strongly_connected(graph: grimp.ImportGraph) -> list[list[str]]:
    """The graph's cycles as its strongly connected components of two modules or
    more (Tarjan's algorithm, iterative: the graph is a few hundred modules deep)."""
    modules = graph.modules
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root) & modules)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    imported = graph.find_modules_directly_imported_by(child) & modules
                    work.append((child, iter(sorted(imported))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
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
    return found


def describe(graph: grimp.ImportGraph, component: list[str]) -> str:
    """One cycle through the component's first module, with the lines that import."""
    first, members = component[0], set(component)
    steps = []
    for module in component[1:]:
        chain = graph.find_shortest_chain(importer=first, imported=module)
        back = graph.find_shortest_chain(importer=module, imported=first)
        if chain and back and set(chain) | set(back) <= members:
            steps = list(chain) + list(back[1:])
            break
    lines = []
    for importer, imported in itertools.pairwise(steps):
        details = graph.get_import_details(importer=importer, imported=imported)
        where = ", ".join(str(d["line_number"]) for d in details) or "?"
        lines.append(f"  {importer} -> {imported} (line {where})")
    return f"cycle among {component}:\n" + "\n".join(lines)


def test_the_project_has_no_import_cycle():
    graph = grimp.build_graph(*project_packages(), cache_dir=None)
    cycles = strongly_connected(graph)
    assert not cycles, "\n".join(describe(graph, c) for c in cycles)


def test_the_check_finds_a_cycle():
    """The check itself: a two-module and a three-module cycle are found, a chain is not."""
    graph = grimp.ImportGraph()
    for module in ("a", "b", "c", "d", "e", "f"):
        graph.add_module(module)
    for importer, imported in (("a", "b"), ("b", "a"), ("c", "d"), ("d", "e"), ("e", "c")):
        graph.add_import(importer=importer, imported=imported)
    graph.add_import(importer="f", imported="a")
    assert sorted(strongly_connected(graph)) == [["a", "b"], ["c", "d", "e"]]
    assert "a -> b" in describe(graph, ["a", "b"])
