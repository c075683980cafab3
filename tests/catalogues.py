"""What the translation tests share: the texts attnlib's modules mark for translation, their placeholders,
and the check that a folder's marked texts all have a zh-Hans entry."""

from __future__ import annotations

import ast
import json
import re
import string
from collections.abc import Iterable
from pathlib import Path

import attnlib

LOCALE = Path(attnlib.__file__).parent / "locale" / "zh-Hans"  # the installed copy against the wheel


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


def check_catalogue(folder: Path, part: str) -> None:
    catalogue = json.loads((LOCALE / f"{part}.json").read_text(encoding="utf-8"))
    literals = marked(folder.glob("*.py"))
    assert len(literals) >= 10, f"only {len(literals)} texts found in {folder}"
    missing = [f"{text!r} ({where})" for text, where in literals.items() if text not in catalogue]
    assert not missing, f"no zh-Hans entry in {part}.json for: {missing}"
    for text in literals:
        assert placeholders(catalogue[text]) == placeholders(text), f"{text!r}: placeholders differ"
        assert re.findall(r"</?b>", catalogue[text]) == re.findall(r"</?b>", text), f"{text!r}: <b> differs"
    unused = sorted(set(catalogue) - set(literals))
    assert not unused, f"{part}.json has entries no code uses: {unused}"
