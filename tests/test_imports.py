"""attnlib's modules import each other without a circle.

The graph is read from the source with ``ast``: every ``import`` and ``from … import`` of an attnlib module,
relative or absolute, at the top of a file or inside a function (a lazy import still closes a circle, it only
hides it until the function runs). ``from .. import plot`` points at the module ``plot``; ``from ..core import
softmax`` at the package ``core``. A package's ``__init__`` running before its modules is not an edge: only
what a file itself imports is.
"""

from __future__ import annotations

import ast
from pathlib import Path

import attnlib

ROOT = Path(attnlib.__file__).parent  # the installed copy in the run against the wheel


def module_names(root: Path) -> dict[str, Path]:
    """Dotted name -> file for every module of the package at `root` (a package is its ``__init__.py``)."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the package that the module `name` (the file `path`) imports, anywhere in the file."""
    top = name.split(".")[0]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()

    def add(target: str) -> None:
        while target and target not in modules:  # `import attnlib.core.masks.x` is not a module: its parent is
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == top:
                    add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != top:
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                add(submodule if submodule in modules else base)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = module_names(root)
    return {name: imported(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports as ``[a, b, …, a]``, or ``[]`` when there is none (depth-first search)."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str]:
        if node in path:
            return path[path.index(node):] + [node]
        if node in done:
            return []
        path.append(node)
        for target in sorted(graph[node]):
            if cycle := visit(target):
                return cycle
        path.pop()
        done.add(node)
        return []

    for start in sorted(graph):
        if cycle := visit(start):
            return cycle
    return []


def test_attnlib_has_no_import_circle():
    graph = import_graph(ROOT)
    assert len(graph) > 30 and sum(map(len, graph.values())) > 50  # the walk found the package and its imports
    assert graph["attnlib.core.formula"] >= {"attnlib.checks", "attnlib.validation", "attnlib.i18n"}
    cycle = find_cycle(graph)
    assert not cycle, "import circle: " + " -> ".join(cycle)


def test_the_language_module_imports_nothing_of_attnlib():
    """Every message of attnlib goes through attnlib.i18n, so it must stand on nothing of attnlib."""
    assert import_graph(ROOT)["attnlib.i18n"] == set()


def test_a_lazy_relative_import_closes_a_circle(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("from .sub.b import f\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("import os\n\ndef f():\n    from .. import a\n    return a\n")
    graph = import_graph(pkg)
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.sub.b"}, "pkg.sub": set(), "pkg.sub.b": {"pkg.a"}}
    assert find_cycle(graph) == ["pkg.a", "pkg.sub.b", "pkg.a"]
    (pkg / "sub" / "b.py").write_text("def f():\n    import pkg.sub\n")
    assert find_cycle(import_graph(pkg)) == []
