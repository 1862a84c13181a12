"""No import cycle inside ``src/anonimed``: each module's imports point one way, so a module can be read, tested and
moved knowing only what it imports.

The rule, read from the source with :mod:`ast` (nothing is imported):

* every ``import`` statement counts wherever it stands: at the top, inside a function (a deferred import still
  makes the two modules depend on each other) and under ``if TYPE_CHECKING`` (a cycle of types is still a cycle);
* ``from package import name`` points at ``package.name`` when that is a module, else at ``package``;
  ``import a.b.c`` points at ``a.b.c`` (or the longest part of it that is a module of ours);
* a module does not depend on its parent packages merely by being inside them: Python runs a package's
  ``__init__`` before its submodules, but counting that would make every package that re-exports its submodules a
  cycle.  A submodule that imports its own package's ``__init__`` (``from anonimed.cli import helper``) does count.
"""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"


def module_files(source: Path = SOURCE) -> dict[str, Path]:
    """Dotted module name → file, for every ``.py`` under ``source/anonimed`` (a package by its ``__init__``)."""
    modules = {}
    for path in sorted((source / "anonimed").rglob("*.py")):
        parts = list(path.relative_to(source).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _ours(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` or its longest leading part that is one of our modules; None for other libraries."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each module → the modules of ours that it imports (itself left out)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(t for alias in node.names if (t := _ours(alias.name, modules)))
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: climb from this module's package
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    origin = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    origin = node.module or ""
                for alias in node.names:
                    submodule = f"{origin}.{alias.name}"
                    target = submodule if submodule in modules else _ours(origin, modules)
                    if target:
                        targets.add(target)
        targets.discard(name)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
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


def test_no_import_cycle_inside_anonimed() -> None:
    modules = module_files()
    assert "anonimed.deidentify" in modules and "anonimed.evaluate.report" in modules
    found = cycles(import_graph(modules))
    assert not found, "modules that import each other (directly or around a loop): " + "; ".join(
        " <-> ".join(component) for component in found
    )


def test_the_cycle_finder_sees_deferred_relative_and_package_imports(tmp_path: Path) -> None:
    package = tmp_path / "anonimed"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def later():\n    from anonimed import b\n")
    (package / "b.py").write_text("from .a import later\n")
    (package / "sub" / "__init__.py").write_text("from anonimed.sub import c\n")
    (package / "sub" / "c.py").write_text("import json\nfrom anonimed.sub.d import x\n")
    (package / "sub" / "d.py").write_text("x = 1\n")
    graph = import_graph(module_files(tmp_path))
    assert graph["anonimed.a"] == {"anonimed.b"} and graph["anonimed.b"] == {"anonimed.a"}
    assert graph["anonimed.sub"] == {"anonimed.sub.c"} and graph["anonimed.sub.c"] == {"anonimed.sub.d"}
    assert cycles(graph) == [["anonimed.a", "anonimed.b"]]
    (package / "sub" / "d.py").write_text("from anonimed.sub import c\n")
    assert sorted(cycles(import_graph(module_files(tmp_path)))) == [
        ["anonimed.a", "anonimed.b"],
        ["anonimed.sub.c", "anonimed.sub.d"],
    ]
