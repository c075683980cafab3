"""The harness imports as Python does: no sys.path edits, no test file importing another, and every mark
where pytest reads it (on a test, never on a helper or a fixture, where it is silently ignored)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(p for folder in ("tests", "tools", "benchmarks") for p in (ROOT / folder).rglob("*.py"))
SYS_PATH_EDIT = re.compile(r"sys\.path\s*(\.\s*(insert|append|extend|remove)\b|\[[^\]]*\]\s*=|\+=|=)")

pytestmark = pytest.mark.repo


def test_nothing_edits_sys_path():
    edits = [f"{p.relative_to(ROOT)}:{n}" for p in SOURCES
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if SYS_PATH_EDIT.search(line)]
    assert not edits, f"import a module of the package instead: {edits}"


def imported_modules(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_no_test_file_imports_another():
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}: {m}" for m in imported_modules(tree)
                  if m.split(".")[-1].startswith("test_")]
    assert not found, f"shared test code belongs in a module of tests/, not in a test file: {found}"


def is_mark(node: ast.expr, marks: set[str]) -> bool:
    """``@pytest.mark.x``, ``@pytest.mark.x(...)`` or a name bound to one."""
    target = node.func if isinstance(node, ast.Call) else node
    text = ast.unparse(target)
    return text.startswith("pytest.mark.") or text in marks


def marked_helpers(tree: ast.Module) -> list[str]:
    """The functions of a module that are not tests and carry a mark (``line name``)."""
    marks = {t.id for node in tree.body if isinstance(node, ast.Assign) and is_mark(node.value, set())
             for t in node.targets if isinstance(t, ast.Name)}
    return [f"{node.lineno} {node.name}" for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("test")
            and any(is_mark(d, marks) for d in node.decorator_list)]


def test_marks_sit_on_tests():
    misplaced = [f"{path.relative_to(ROOT)}:{where}" for path in SOURCES if path.relative_to(ROOT).parts[0] == "tests"
                 for where in marked_helpers(ast.parse(path.read_text(encoding="utf-8")))]
    assert not misplaced, f"pytest ignores marks on helpers and fixtures: {misplaced}"


def test_a_mark_on_a_helper_is_found():
    """The check above catches the strict xfail that once sat on test_rise.py's helper, not its tests."""
    source = ("import pytest\nPINNED = pytest.mark.xfail(True, strict=True)\n\n@PINNED\ndef present_and_run():\n"
              "    pass\n\n@PINNED\ndef test_slider():\n    present_and_run()\n")
    assert marked_helpers(ast.parse(source)) == ["5 present_and_run"]
