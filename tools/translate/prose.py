"""The prose catalogues: one entry per Markdown cell of an English notebook, and one per code cell that
draws figures (their alternative texts), each naming the cell and the hash of the English text it
translates; what is stale, missing or left over in them.

The catalogue of a notebook is ``notebooks/translations/<language>/<notebook stem>.md``. Navigation cells
are left out (make_navigation.py writes them). An entry starts with a marker line; its translation follows,
up to the next marker::

    <!-- cell 806ae23e · en 3a9f0b1c2d4e -->
    # 02 · Softmax：从分数到权重
    ...

A code cell that draws figures keeps, in its metadata ``alt``, one alternative text per figure it draws
(a sentence each: what is plotted against what, and what to notice). Its entry holds their translations,
one a line, in the same order::

    <!-- alt 12061864 · en 7c1d0e9a2b3f -->
    早 上 好 的 softmax(X·Xᵀ) 热力图，……

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

MARKER = re.compile(r"^<!-- (cell|alt) (\S+) · en ([0-9a-f]{12}) -->$", re.MULTILINE)
ALT = "alt"  # the key, in a code cell's metadata, of the alternative texts of its figures (a list)


def english_hash(text: str) -> str:
    """The first 12 hex digits of the SHA-256 of an English cell's text: what an entry translates."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass
class Entry:
    cell_id: str
    en_hash: str
    text: str
    kind: str = "cell"  # "cell": a Markdown cell's text; "alt": a code cell's figure texts, one a line


def parse(catalogue: str) -> dict[str, Entry]:
    """The entries of a catalogue file, by cell id."""
    marks = list(MARKER.finditer(catalogue))
    entries = {}
    for mark, after in zip(marks, marks[1:] + [None], strict=True):
        end = after.start() if after else len(catalogue)
        body = catalogue[mark.end() : end].strip("\n")
        entries[mark.group(2)] = Entry(mark.group(2), mark.group(3), body, mark.group(1))
    return entries


def format_catalogue(entries: list[Entry]) -> str:
    """The text of a catalogue file holding `entries`, in that order."""
    text = "".join(f"<!-- {e.kind} {e.cell_id} · en {e.en_hash} -->\n{e.text}\n\n" for e in entries)
    return text.rstrip("\n") + "\n"


def read_catalogue(path: Path) -> dict[str, Entry]:
    return parse(path.read_text(encoding="utf-8")) if path.exists() else {}


def translatable(nb) -> list:
    """The cells an edition translates: every Markdown cell except the generated navigation."""
    return [c for c in nb.cells if c.cell_type == "markdown" and NAV_MARK not in c.source]


def figure_alts(cell) -> list[str]:
    """The alternative texts of the figures a code cell draws, in the order of its outputs (none for a
    Markdown cell or a cell that draws nothing)."""
    return list(cell.metadata.get(ALT, [])) if cell.cell_type == "code" else []


def catalogued(nb) -> list:
    """The cells with an entry in a prose catalogue, in notebook order: the Markdown cells an edition
    translates, and the code cells whose figures have alternative texts."""
    prose = {c.id for c in translatable(nb)}
    return [c for c in nb.cells if c.id in prose or figure_alts(c)]


def entry_kind(cell) -> str:
    return "cell" if cell.cell_type == "markdown" else ALT


def english_text(cell) -> str:
    """What an entry of `cell` translates: a Markdown cell's text (no table of contents), or the
    alternative texts of a code cell's figures, one a line."""
    return "\n".join(figure_alts(cell)) if cell.cell_type == "code" else without_toc(cell.source)


def without_toc(text: str) -> str:
    """`text` with the generated table of contents taken out (its markers stay)."""
    start = text.find(TOC_START)
    end = text.find(TOC_END, start)
    if start < 0 or end < 0:
        return text
    return text[: start + len(TOC_START)] + "\n\n" + text[end:]


def cell_hash(cell) -> str:
    """The hash an up-to-date entry of `cell` carries."""
    return english_hash(english_text(cell))


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
    cells = catalogued(english)
    found = []
    for cell in cells:
        entry = entries.get(cell.id)
        kind = entry_kind(cell)
        what = "cell" if kind == "cell" else "figure texts of code cell"
        if entry is not None and entry.kind != kind:
            found.append(f"{name}: cell {cell.id}: the entry is marked {entry.kind!r}, expected {kind!r}")
        elif entry is None:
            found.append(
                f"{name}: {what} {cell.id}: no entry (new English text): "
                f"run `python -m tools.translate skeleton {language} {number}`, translate it, stamp it"
            )
        elif entry.en_hash != cell_hash(cell):
            stamped = cell.id if kind == "cell" else f"{ALT}:{cell.id}"
            found.append(
                f"{name}: {what} {cell.id}: stale: the English cell changed since it was translated "
                f"(entry en {entry.en_hash}, English now {cell_hash(cell)}); update the translation, then "
                f"`python -m tools.translate stamp {language} {number} {stamped}`"
            )
        elif kind == ALT and len(entry.text.splitlines()) != len(figure_alts(cell)):
            found.append(
                f"{name}: figure texts of code cell {cell.id}: {len(entry.text.splitlines())} line(s) for "
                f"{len(figure_alts(cell))} figure(s): write one translated text a line"
            )
        elif TOC_START in cell.source and TOC_START not in entry.text:
            found.append(f"{name}: cell {cell.id}: the entry lost the marker {TOC_START}")
    ids = {c.id for c in cells}
    for cell_id in entries:
        if cell_id not in ids:
            found.append(
                f"{name}: cell {cell_id}: no such Markdown cell, nor code cell with figure texts, in "
                f"{path.name}: remove the entry"
            )
    return found
