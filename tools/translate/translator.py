"""What a translator runs on a catalogue: ``skeleton`` adds an entry holding the English for every cell the
catalogues lack, ``stamp`` marks entries as translating today's English (docs/translating.md)."""

from __future__ import annotations

from pathlib import Path

import nbformat

from .code_catalogue import CodeEntry, format_code_catalogue, parse_code, read_code_catalogue
from .code_check import code_candidates, names_used
from .config import REPO, TRANSLATED, Paths
from .prose import (
    ALT,
    Entry,
    catalogued,
    cell_hash,
    english_hash,
    english_text,
    entry_kind,
    format_catalogue,
    notebook,
    read_catalogue,
)


def check_language(language: str) -> None:
    """A translator writes the catalogues of an edition translated by hand, never of a derived one."""
    if language not in TRANSLATED:
        raise ValueError(
            f"language must be one of {', '.join(TRANSLATED)} (the editions translated by hand); "
            f"got {language!r}"
        )


def skeleton(language: str, number: str, paths: Paths = REPO) -> Path:
    """Add an entry holding the English text for every cell of notebook `number` its catalogue lacks
    (a Markdown cell's text, or the alternative texts of a code cell's figures)."""
    check_language(language)
    path = notebook(number, paths)
    nb = nbformat.read(path, as_version=4)
    out = paths.catalogue(path, language)
    known = read_catalogue(out)
    entries = [
        known.get(c.id) or Entry(c.id, cell_hash(c), english_text(c), entry_kind(c)) for c in catalogued(nb)
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(format_catalogue(entries), encoding="utf-8")
    return out


def code_skeleton(language: str, number: str, paths: Paths = REPO) -> Path:
    """Add an entry, its pairs holding the English, for every code cell with something to translate."""
    check_language(language)
    path = notebook(number, paths)
    nb = nbformat.read(path, as_version=4)
    out = paths.code_catalogue(path, language)
    known = read_code_catalogue(out)
    entries = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if cell.id in known:
            entries.append(known[cell.id])
        elif candidates := code_candidates(cell.source, names_used(nb, cell.id)):
            entries.append(CodeEntry(cell.id, english_hash(cell.source), [(c, c) for c in candidates]))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(format_code_catalogue(entries), encoding="utf-8")
    return out


def stamp(language: str, number: str, cell_ids: list[str], paths: Paths = REPO) -> Path:
    """Mark the entries `cell_ids` of notebook `number` as translating today's English text: entries of
    the code catalogue if every id names a code cell, else of the prose catalogue, where ``alt:<id>``
    names the entry of the figure texts of code cell <id>."""
    check_language(language)
    path = notebook(number, paths)
    nb = nbformat.read(path, as_version=4)
    code = {c.id: c for c in nb.cells if c.cell_type == "code"}
    if cell_ids and all(cell_id in code for cell_id in cell_ids):
        out = paths.code_catalogue(path, language)
        text = out.read_text(encoding="utf-8")
        entries = parse_code(text, out.name)
        for cell_id in cell_ids:
            if cell_id not in entries:
                raise ValueError(
                    f"{paths.name(out)} has no entry for code cell {cell_id}: run skeleton first"
                )
            old = f"<!-- code {cell_id} · en {entries[cell_id].en_hash} -->"
            text = text.replace(old, f"<!-- code {cell_id} · en {english_hash(code[cell_id].source)} -->", 1)
        out.write_text(text, encoding="utf-8")
        return out
    cells = {(entry_kind(c), c.id): c for c in catalogued(nb)}
    out = paths.catalogue(path, language)
    text = out.read_text(encoding="utf-8")
    entries = read_catalogue(out)
    for name in cell_ids:
        kind, _, cell_id = name.rpartition(":") if name.startswith(f"{ALT}:") else ("cell", "", name)
        if (kind, cell_id) not in cells:
            what = "Markdown cell" if kind == "cell" else "code cell with figure texts"
            raise ValueError(f"{path.name} has no {what} with id {cell_id!r}")
        if cell_id not in entries:
            raise ValueError(f"{paths.name(out)} has no entry for cell {cell_id}: run skeleton first")
        old = f"<!-- {kind} {cell_id} · en {entries[cell_id].en_hash} -->"
        text = text.replace(old, f"<!-- {kind} {cell_id} · en {cell_hash(cells[kind, cell_id])} -->", 1)
    out.write_text(text, encoding="utf-8")
    return out
