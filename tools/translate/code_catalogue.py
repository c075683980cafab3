"""The code catalogues: the comments and shown strings of an English notebook's code cells, translated.

The catalogue of a notebook's code is ``notebooks/translations/<language>/code/<notebook stem>.md``: one
entry per code cell that has something to translate, a marker naming the cell id and the hash of the
English source, then pairs of lines, the English fragment after "- " and its translation after "+ " (the
rest of each line verbatim)::

    <!-- code 49a37c11 · en 3a9f0b1c2d4e -->
    - "weights · no mask · unscaled"
    + "权重 · 无掩码 · 未缩放"
    - # one row per token
    + # 每个词元一{行}

Fragments are replaced longest first, in one pass; each must occur in the English cell. An entry with no
pair says "reviewed: nothing to translate". code_check.py proves each translated cell is the same program.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from .code_check import code_candidates, code_drift, names_used
from .config import REPO, Paths
from .derive import Overrides, edition_string
from .prose import english_hash

CODE_MARKER = re.compile(r"^<!-- code (\S+) · en ([0-9a-f]{12}) -->$", re.MULTILINE)


@dataclass
class CodeEntry:
    cell_id: str
    en_hash: str
    pairs: list[tuple[str, str]]


def parse_code(catalogue: str, name: str = "catalogue") -> dict[str, CodeEntry]:
    """The entries of a code catalogue, by cell id."""
    marks = list(CODE_MARKER.finditer(catalogue))
    entries = {}
    for mark, after in zip(marks, marks[1:] + [None], strict=True):
        end = after.start() if after else len(catalogue)
        lines = [line for line in catalogue[mark.end() : end].split("\n") if line.strip()]
        if len(lines) % 2 or any(not a.startswith("- ") or not b.startswith("+ ") for a, b in
                                 zip(lines[::2], lines[1::2], strict=True)):  # fmt: skip
            raise ValueError(
                f"{name}: cell {mark.group(1)}: expected pairs of lines '- English' and '+ 译文'"
            )
        pairs = [(a[2:], b[2:]) for a, b in zip(lines[::2], lines[1::2], strict=True)]
        entries[mark.group(1)] = CodeEntry(mark.group(1), mark.group(2), pairs)
    return entries


def format_code_catalogue(entries: list[CodeEntry]) -> str:
    parts = []
    for e in entries:
        body = "".join(f"- {a}\n+ {b}\n" for a, b in e.pairs)
        parts.append(f"<!-- code {e.cell_id} · en {e.en_hash} -->\n{body}")
    return "\n".join(parts)


def read_code_catalogue(where: Path) -> dict[str, CodeEntry]:
    """The entries of the code catalogue file `where` (none if there is no such file)."""
    return parse_code(where.read_text(encoding="utf-8"), where.name) if where.exists() else {}


def translate_code(
    source: str, pairs: list[tuple[str, str]], language: str, overrides: Overrides = None
) -> str:
    """`source` with each English fragment replaced by its translation (in `language`), longest first."""
    if not pairs:
        return source
    table = {english: edition_string(translation, language, overrides) for english, translation in pairs}
    keys = sorted(table, key=lambda k: (-len(k), k))
    return re.sub("|".join(map(re.escape, keys)), lambda m: table[m.group(0)], source)


def code_problems(path: Path, language: str, paths: Paths = REPO) -> list[str]:
    """What is stale, missing, left over or not the same program in the `language` code catalogue of the
    English notebook `path`."""
    english = nbformat.read(path, as_version=4)
    where = paths.code_catalogue(path, language)
    name = paths.name(where)
    number = path.name[:2]
    try:
        entries = parse_code(where.read_text(encoding="utf-8"), str(name)) if where.exists() else {}
    except ValueError as err:
        return [str(err)]
    cells = {c.id: c for c in english.cells if c.cell_type == "code"}
    found = []
    for cell in cells.values():
        entry = entries.get(cell.id)
        if entry is None:
            if code_candidates(cell.source, names_used(english, cell.id)):
                found.append(
                    f"{name}: code cell {cell.id}: no entry (its comments or shown strings are new): run "
                    f"`python -m tools.translate skeleton {language} {number}`, translate it, stamp it"
                )
            continue
        if entry.en_hash != english_hash(cell.source):
            found.append(
                f"{name}: code cell {cell.id}: stale: the English code changed since it was translated "
                f"(entry en {entry.en_hash}, English now {english_hash(cell.source)}); update the pairs, "
                f"then "
                f"`python -m tools.translate stamp {language} {number} {cell.id}`"
            )
            continue
        absent = [english for english, _ in entry.pairs if english not in cell.source]
        if absent:
            found.append(f"{name}: code cell {cell.id}: the English cell has no {absent[0]!r}")
            continue
        translated = translate_code(cell.source, entry.pairs, language)
        for why in code_drift(cell.source, translated, names_used(english, cell.id)):
            found.append(f"{name}: code cell {cell.id}: {why}")
    for cell_id in entries:
        if cell_id not in cells:
            found.append(f"{name}: code cell {cell_id}: no such code cell in {path.name}: remove the entry")
    return found
