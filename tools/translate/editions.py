"""Building the editions: for each English notebook, ``notebooks/<language>/<same name>`` with the same
cells in the same order, the same ids and the same program, for every language of config.EDITIONS.

Only the Markdown and the figures' alternative texts (the prose catalogue's entries), the navigation
cell, one line in the setup cell (``attnlib.set_language("<language>")``) and the comments and shown
strings of code cells (the code catalogue) differ. Relative links and images that are not sibling
notebooks get ``../`` so they work from the subfolder. Stored outputs of a code cell whose code did not
change are kept; ``execute`` runs each edition in a kernel to bring them up to date.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat

from attnlib.i18n import catalogue

from .. import make_navigation
from . import hant
from .code_catalogue import read_code_catalogue, translate_code
from .config import EDITIONS, REPO, Paths, written_from
from .derive import Overrides, edition_string, edition_text
from .outputs import write_outputs
from .prose import (
    ALT,
    TOC_START,
    Entry,
    english_hash,
    english_notebooks,
    figure_alts,
    notebook,
    read_catalogue,
    translatable,
    without_toc,
)

SETUP_LINE = 'attnlib.set_language("{language}")\n'
EDITION_KEY = "attnlib_edition"  # notebook metadata: which English notebook an edition was built from
LINK = re.compile(r"(\]\(|<img [^>]*?src=\"|<a [^>]*?href=\")([^)\"\s]+)")


def relink(text: str) -> str:
    """Relative links and images that are not sibling notebooks, seen from a subfolder of notebooks/."""

    def fix(match: re.Match) -> str:
        target = match.group(2)
        sibling = re.fullmatch(r"[0-9]{2}_[\w-]+\.ipynb(#.*)?", target)
        absolute = re.match(r"([a-z][a-z0-9+.-]*:|/|#)", target)
        return match.group(0) if sibling or absolute else f"{match.group(1)}../{target}"

    return LINK.sub(fix, text)


def setup_cell(nb):
    """The first code cell that imports attnlib."""
    for cell in nb.cells:
        if cell.cell_type == "code" and re.search(r"^(import attnlib|from attnlib)", cell.source, re.M):
            return cell
    return None


def with_language(code: str, language: str) -> str:
    """The setup code with `attnlib.set_language(...)` as the first statement after its imports."""
    lines = code.splitlines(keepends=True)
    prelude = ("import ", "from ", "#")
    statements = (i for i, line in enumerate(lines) if line.strip() and not line.startswith(prelude))
    at = next(statements, None)
    line = SETUP_LINE.format(language=language)
    if at is None:
        return code.rstrip("\n") + "\n\n" + line.rstrip("\n")
    return "".join(lines[:at] + [line] + lines[at:])


def code_hash(nb) -> str:
    """A hash of every code cell's id and source: what a stored execution ran."""
    text = "\x00".join(f"{c.id}\x01{c.source}" for c in nb.cells if c.cell_type == "code")
    return english_hash(text)


def translated_cells(english, entries: dict[str, Entry], language: str, overrides) -> dict[str, str]:
    """Cell id → the Markdown of `language` (English where the catalogue has no entry yet)."""
    out = {}
    for cell in translatable(english):
        entry = entries.get(cell.id)
        text = entry.text if entry else cell.source
        if TOC_START in cell.source and TOC_START in text:
            text = without_toc(text)  # make_navigation.py writes the table in each language
        out[cell.id] = relink(edition_text(text, language, overrides))
    return out


def translated_alts(english, entries: dict[str, Entry], language: str, overrides) -> dict[str, list[str]]:
    """Code cell id → the alternative texts of its figures in `language` (English where the catalogue has
    no entry, or not one line per figure)."""
    out = {}
    for cell in english.cells:
        alts = figure_alts(cell)
        entry = entries.get(cell.id)
        if not alts or entry is None or entry.kind != ALT or len(entry.text.splitlines()) != len(alts):
            continue
        out[cell.id] = [edition_string(line, language, overrides) for line in entry.text.splitlines()]
    return out


def build_edition(
    path: Path,
    language: str,
    previous=None,
    overrides: Overrides = None,
    strict: bool = True,
    paths: Paths = REPO,
):
    """The notebook of `language` for the English notebook `path`, before navigation.

    `previous` is the edition as stored: outputs of code cells whose code is unchanged are kept. With
    `strict`, a malformed code catalogue raises ValueError; without, its cells stay English (for `check`,
    which reports the catalogue itself).
    """
    english = nbformat.read(path, as_version=4)
    source = written_from(language)
    entries = read_catalogue(paths.catalogue(path, source))
    texts = translated_cells(english, entries, language, overrides)
    alts = translated_alts(english, entries, language, overrides)
    try:
        code_entries = read_code_catalogue(paths.code_catalogue(path, source))
    except ValueError:
        if strict:
            raise
        code_entries = {}
    setup = setup_cell(english)
    kept = {c.id: c for c in previous.cells if c.cell_type == "code"} if previous is not None else {}
    nb = nbformat.from_dict(json.loads(json.dumps(english)))
    for cell in nb.cells:
        if cell.id in texts:
            cell.source = texts[cell.id]
        elif cell.cell_type == "code":
            if cell.id in alts:
                cell.metadata[ALT] = alts[cell.id]
            if cell.id in code_entries and code_entries[cell.id].en_hash == english_hash(cell.source):
                cell.source = translate_code(cell.source, code_entries[cell.id].pairs, language, overrides)
            if setup is not None and cell.id == setup.id:
                cell.source = with_language(cell.source, language)
            old = kept.get(cell.id)
            if old is not None and old.source == cell.source:
                cell.outputs, cell.execution_count = old.outputs, old.execution_count
    if previous is not None and "widgets" in previous.metadata:
        nb.metadata["widgets"] = previous.metadata["widgets"]
    else:
        nb.metadata.pop("widgets", None)
    executed = previous.metadata.get(EDITION_KEY, {}).get("executed_code") if previous is not None else None
    nb.metadata[EDITION_KEY] = {"language": language, "english": f"../{path.name}"}
    if executed:
        nb.metadata[EDITION_KEY]["executed_code"] = executed
    return nb


def read_nb(path: Path):
    return nbformat.read(path, as_version=4) if path.exists() else None


def write_nb(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(nbformat.writes(nb), encoding="utf-8")  # the layout Jupyter writes


def built_editions(english: list[Path], strict: bool = True, paths: Paths = REPO) -> dict[Path, object]:
    """Every edition notebook as `build` writes it, navigation included, for the English `english`."""
    overrides = hant.read_overrides(paths.overrides)
    out = {}
    for language in EDITIONS:
        for path in english:
            target = paths.edition(path, language)
            out[target] = build_edition(path, language, read_nb(target), overrides, strict, paths)
    # Navigation needs every notebook of the edition (titles of the neighbours): take the stored ones
    # for notebooks not being built now.
    for language in EDITIONS:
        folder = paths.notebooks / language
        members = {paths.edition(e, language) for e in english_notebooks(paths)}
        series = {p: nb for p in members if (nb := out.get(p) or read_nb(p)) is not None}
        navigated = make_navigation.navigate(
            {p: json.loads(json.dumps(nb)) for p, nb in series.items()}, folder, language
        )
        for p in out:
            if p.parent == folder:
                out[p] = nbformat.from_dict(navigated[p])
                for cell in out[p].cells:  # make_navigation writes sources as lists of lines
                    if isinstance(cell.source, list):
                        cell.source = "".join(cell.source)
    return out


def chosen(numbers: list[str] | None, paths: Paths) -> list[Path]:
    """The English notebooks numbered `numbers` (two digits each), or all of them."""
    return [notebook(n, paths) for n in numbers] if numbers else english_notebooks(paths)


def build(numbers: list[str] | None = None, paths: Paths = REPO, log=print) -> int:
    """Write the generated files and the editions of the English notebooks `numbers` (all when None)."""
    english = chosen(numbers, paths)
    # The catalogues first: the navigation cells of the editions take their words from them.
    write_outputs(paths, log)
    catalogue.cache_clear()
    for target, nb in built_editions(english, paths=paths).items():
        previous = read_nb(target)
        if previous is not None and previous == nb:
            continue
        write_nb(nb, target)
        log(f"wrote {paths.name(target)}")
    return 0


def execute(numbers: list[str] | None = None, paths: Paths = REPO, log=print) -> int:
    """Run each edition notebook top to bottom in a fresh kernel and store its outputs."""
    english = chosen(numbers, paths)
    for language in EDITIONS:
        for path in english:
            target = paths.edition(path, language)
            if not target.exists():
                log(f"{paths.name(target)} does not exist: run build first")
                return 1
            command = [
                sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                "--ExecutePreprocessor.record_timing=False", str(target),
            ]  # fmt: skip
            log(f"executing {paths.name(target)}")
            # one BLAS thread: the notebooks' matrices are small, and threads only contend (make notebooks)
            env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
            subprocess.run(command, check=True, cwd=target.parent, capture_output=True, env=env)
            nb = read_nb(target)
            nb.metadata.setdefault(EDITION_KEY, {})["executed_code"] = code_hash(nb)
            write_nb(nb, target)
    return 0
