"""The prose catalogues: one entry per Markdown cell of an English notebook, each naming the cell and the
hash of the English text it translates; what is stale, missing or left over in them.

The catalogue of a notebook is ``notebooks/translations/<language>/<notebook stem>.md``. Navigation cells
are left out (make_navigation.py writes them). An entry starts with a marker line; its translation follows,
up to the next marker::

    <!-- cell 806ae23e · en 3a9f0b1c2d4e -->
    # 02 · Softmax：从分数到权重
    ...

In 00, the table of contents between ``<!-- toc: ... -->`` and ``<!-- /toc -->`` is written by
make_navigation.py in each language: it is not part of what an entry translates (nor of its hash).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from ..make_navigation import NAV_MARK, TOC_END, TOC_START
from .config import REPO, Paths

MARKER = re.compile(r"^<!-- cell (\S+) · en ([0-9a-f]{12}) -->$", re.MULTILINE)


def english_hash(text: str) -> str:
    """The first 12 hex digits of the SHA-256 of an English cell's text: what an entry translates."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass
class Entry:
    cell_id: str
    en_hash: str
    text: str


def parse(catalogue: str) -> dict[str, Entry]:
    """The entries of a catalogue file, by cell id."""
    marks = list(MARKER.finditer(catalogue))
    entries = {}
    for mark, after in zip(marks, marks[1:] + [None], strict=True):
        end = after.start() if after else len(catalogue)
        body = catalogue[mark.end() : end].strip("\n")
        entries[mark.group(1)] = Entry(mark.group(1), mark.group(2), body)
    return entries


def format_catalogue(entries: list[Entry]) -> str:
    """The text of a catalogue file holding `entries`, in that order."""
    text = "".join(f"<!-- cell {e.cell_id} · en {e.en_hash} -->\n{e.text}\n\n" for e in entries)
    return text.rstrip("\n") + "\n"


def read_catalogue(path: Path) -> dict[str, Entry]:
    return parse(path.read_text(encoding="utf-8")) if path.exists() else {}


def translatable(nb) -> list:
    """The cells an edition translates: every Markdown cell except the generated navigation."""
    return [c for c in nb.cells if c.cell_type == "markdown" and NAV_MARK not in c.source]


def without_toc(text: str) -> str:
    """`text` with the generated table of contents taken out (its markers stay)."""
    start = text.find(TOC_START)
    end = text.find(TOC_END, start)
    if start < 0 or end < 0:
        return text
    return text[: start + len(TOC_START)] + "\n\n" + text[end:]


def cell_hash(cell) -> str:
    """The hash an up-to-date entry of `cell` carries."""
    return english_hash(without_toc(cell.source))


def notebook(number: str, paths: Paths = REPO) -> Path:
    """The English notebook numbered `number` (two digits)."""
    found = sorted(paths.notebooks.glob(f"{number}_*.ipynb"))
    if len(found) != 1:
        raise ValueError(f"expected one English notebook notebooks/{number}_*.ipynb, found {len(found)}")
    return found[0]


def english_notebooks(paths: Paths = REPO) -> list[Path]:
    return sorted(paths.notebooks.glob("[0-9][0-9]_*.ipynb"))


def catalogue_problems(path: Path, language: str, paths: Paths = REPO) -> list[str]:
    """What is stale, missing or left over in the `language` catalogue of the English notebook `path`."""
    english = nbformat.read(path, as_version=4)
    where = paths.catalogue(path, language)
    name = paths.name(where)
    number = path.name[:2]
    if not where.exists():
        return [
            f"{name}: no catalogue for {path.name}: "
            f"run `python -m tools.translate skeleton {language} {number}`"
        ]
    entries = read_catalogue(where)
    cells = translatable(english)
    found = []
    for cell in cells:
        entry = entries.get(cell.id)
        if entry is None:
            found.append(
                f"{name}: cell {cell.id}: no entry (a new English cell): "
                f"run `python -m tools.translate skeleton {language} {number}`, translate it, stamp it"
            )
        elif entry.en_hash != cell_hash(cell):
            found.append(
                f"{name}: cell {cell.id}: stale: the English cell changed since it was translated "
                f"(entry en {entry.en_hash}, English now {cell_hash(cell)}); update the translation, then "
                f"`python -m tools.translate stamp {language} {number} {cell.id}`"
            )
        elif TOC_START in cell.source and TOC_START not in entry.text:
            found.append(f"{name}: cell {cell.id}: the entry lost the marker {TOC_START}")
    ids = {c.id for c in cells}
    for cell_id in entries:
        if cell_id not in ids:
            found.append(f"{name}: cell {cell_id}: no such Markdown cell in {path.name}: remove the entry")
    return found
