"""What the translation tests share: the texts attnlib's modules mark for translation, and placeholders."""

from __future__ import annotations

import ast
import string
from collections.abc import Iterable
from pathlib import Path


def marked(paths: Iterable[Path]) -> dict[str, str]:
    """Every string literal passed to ``tr()`` or ``N_()`` in the files ``paths``: text -> "file:line"."""
    found: dict[str, str] = {}
    for path in sorted(paths):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("tr", "N_")
                    and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.setdefault(node.args[0].value, f"{path.name}:{node.lineno}")
    return found


def placeholders(template: str) -> list[tuple[str, str, str | None]]:
    """The ``{name:spec!conv}`` fields of a template, sorted; ``{行}`` and ``{列}`` are the catalogues'
    row/column markup, not placeholders."""
    return sorted((name, spec, conv) for _, name, spec, conv in string.Formatter().parse(template)
                  if name is not None and name not in ("行", "列"))
