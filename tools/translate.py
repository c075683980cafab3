"""The Chinese editions of the series, built from the English notebooks and the translation catalogues.

    python tools/translate.py skeleton zh-Hans NN   # add an entry (English text) for every cell not yet in NN's catalogue

The catalogue of a notebook is ``notebooks/translations/zh-Hans/<notebook stem>.md``: one entry per Markdown
cell of the English notebook (navigation cells excepted, they are written by make_navigation.py), in
the notebook's order. An entry starts with a marker line naming the cell id and the hash of the English
text it translates; its translation follows, up to the next marker::

    <!-- cell 806ae23e · en 3a9f0b1c2d4e -->
    # 02 · Softmax：从分数到权重
    ...
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
CATALOGUES = NOTEBOOKS / "translations"
NAV_MARK = "<!-- navigation: written by tools/make_navigation.py -->"
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
    for mark, after in zip(marks, marks[1:] + [None]):
        end = after.start() if after else len(catalogue)
        body = catalogue[mark.end() : end].strip("\n")
        entries[mark.group(1)] = Entry(mark.group(1), mark.group(2), body)
    return entries


def format_catalogue(entries: list[Entry]) -> str:
    return "".join(f"<!-- cell {e.cell_id} · en {e.en_hash} -->\n{e.text}\n\n" for e in entries).rstrip("\n") + "\n"


def translatable(nb) -> list:
    """The cells an edition translates: every Markdown cell except the generated navigation."""
    return [c for c in nb.cells if c.cell_type == "markdown" and NAV_MARK not in c.source]


def notebook(number: str) -> Path:
    (path,) = NOTEBOOKS.glob(f"{number}_*.ipynb")
    return path


def skeleton(language: str, number: str) -> Path:
    path = notebook(number)
    nb = nbformat.read(path, as_version=4)
    out = CATALOGUES / language / f"{path.stem}.md"
    known = parse(out.read_text(encoding="utf-8")) if out.exists() else {}
    entries = [known.get(c.id) or Entry(c.id, english_hash(c.source), c.source) for c in translatable(nb)]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(format_catalogue(entries), encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sk = sub.add_parser("skeleton")
    sk.add_argument("language")
    sk.add_argument("numbers", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "skeleton":
        for number in args.numbers:
            print(skeleton(args.language, number).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
