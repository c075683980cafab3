"""The Chinese editions of the series, built from the English notebooks and the translation catalogues.

    python tools/translate.py skeleton zh-Hans NN ...   # an entry (English text) per cell the catalogue lacks
    python tools/translate.py stamp zh-Hans NN CELL ... # "I updated these entries": hash := today's English
    python tools/translate.py build [NN ...]            # notebooks/zh-Han?/, attnlib/locale/zh-Hant/
    python tools/translate.py execute [NN ...]          # run the Chinese notebooks, store their outputs
    python tools/translate.py check                     # change nothing; exit 1 naming what is stale

One source, the English notebooks. The catalogue of a notebook is
``notebooks/translations/zh-Hans/<notebook stem>.md``: one entry per Markdown cell of the English notebook
(navigation cells excepted, they are written by make_navigation.py), in the notebook's order. An entry starts
with a marker line naming the cell id and the hash of the English text it translates; its translation
follows, up to the next marker::

    <!-- cell 806ae23e · en 3a9f0b1c2d4e -->
    # 02 · Softmax：从分数到权重
    ...

In 00, the table of contents between ``<!-- toc: ... -->`` and ``<!-- /toc -->`` is written by
make_navigation.py in each language: it is not part of what an entry translates (nor of its hash).

``build`` writes, for each English notebook, ``notebooks/zh-Hans/<same name>`` with the same cells
in the same order, the same ids and the same code; only the Markdown (the catalogue's entries), the
navigation cell and one line in the setup cell (``attnlib.set_language("zh-Hans")``) differ.
Relative links and images that are not sibling notebooks get ``../`` so they work from the subfolder.
Stored outputs of a code cell whose code did not change are kept; ``execute`` brings them up to date.

zh-Hant is never translated by hand: it is the zh-Hans text through OpenCC ``s2twp`` and the reviewed
overrides in ``notebooks/translations/zh-Hant-overrides.tsv`` (applied after the conversion, longest
first); then the ``{行}``/``{列}`` markup for a matrix row/column becomes 行/列 (简体) or 列/行 (繁體).
Code spans and formulas are not converted. attnlib's own catalogues ``attnlib/locale/zh-Hans/*.json``
become ``attnlib/locale/zh-Hant/*.json`` the same way, and the lecturer's guide
``notebooks/translations/lecturers_guide.zh-Hans.md`` becomes ``docs/lecturers_guide.zh-Han?.md``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import nbformat

# Row and column of a matrix: mainland 行/列, Taiwan 列/行 (a line of text is plain 行 in both).
from attnlib.i18n import resolve_markup

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
CATALOGUES = NOTEBOOKS / "translations"
OVERRIDES = CATALOGUES / "zh-Hant-overrides.tsv"
LOCALE = ROOT / "attnlib" / "locale"
NAV_MARK = "<!-- navigation: written by tools/make_navigation.py -->"
TOC_START = "<!-- toc: written by tools/make_navigation.py -->"
TOC_END = "<!-- /toc -->"
GUIDE = "lecturers_guide.zh-Hans.md"  # in CATALOGUES: the Chinese lecturer's guide, with {行}/{列}
MARKER = re.compile(r"^<!-- cell (\S+) · en ([0-9a-f]{12}) -->$", re.MULTILINE)
SOURCE_LANGUAGE = "zh-Hans"  # the edition translators write
EDITIONS = ("zh-Hans", "zh-Hant")  # every edition the build writes, the first one from the catalogues
SETUP_LINE = 'attnlib.set_language("{language}")\n'
EDITION_KEY = "attnlib_edition"  # notebook metadata: which English notebook an edition was built from
# What OpenCC must not touch: fenced code, code spans, display and inline formulas, HTML comments.
PROTECTED = re.compile(r"```.*?```|`[^`\n]+`|\$\$.*?\$\$|\$[^$\n]+\$|<!--.*?-->", re.S)
LINK = re.compile(r"(\]\(|<img [^>]*?src=\"|<a [^>]*?href=\")([^)\"\s]+)")


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


def notebook(number: str) -> Path:
    """The English notebook numbered `number` (two digits)."""
    found = sorted(NOTEBOOKS.glob(f"{number}_*.ipynb"))
    if len(found) != 1:
        raise ValueError(f"expected one English notebook notebooks/{number}_*.ipynb, found {len(found)}")
    return found[0]


def english_notebooks() -> list[Path]:
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def catalogue_path(path: Path, language: str = SOURCE_LANGUAGE) -> Path:
    return CATALOGUES / language / f"{path.stem}.md"


def read_catalogue(path: Path) -> dict[str, Entry]:
    return parse(path.read_text(encoding="utf-8")) if path.exists() else {}


def skeleton(language: str, number: str) -> Path:
    """Add an entry holding the English text for every cell of notebook `number` its catalogue lacks."""
    path = notebook(number)
    nb = nbformat.read(path, as_version=4)
    out = catalogue_path(path, language)
    known = read_catalogue(out)
    entries = [known.get(c.id) or Entry(c.id, cell_hash(c), without_toc(c.source)) for c in translatable(nb)]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(format_catalogue(entries), encoding="utf-8")
    return out


def stamp(language: str, number: str, cell_ids: list[str]) -> Path:
    """Mark the entries `cell_ids` of notebook `number` as translating today's English text."""
    path = notebook(number)
    nb = nbformat.read(path, as_version=4)
    cells = {c.id: c for c in translatable(nb)}
    out = catalogue_path(path, language)
    text = out.read_text(encoding="utf-8")
    entries = parse(text)
    for cell_id in cell_ids:
        if cell_id not in cells:
            raise ValueError(f"{path.name} has no Markdown cell with id {cell_id!r}")
        if cell_id not in entries:
            raise ValueError(f"{out.relative_to(ROOT)} has no entry for cell {cell_id}: run skeleton first")
        old = f"<!-- cell {cell_id} · en {entries[cell_id].en_hash} -->"
        text = text.replace(old, f"<!-- cell {cell_id} · en {cell_hash(cells[cell_id])} -->", 1)
    out.write_text(text, encoding="utf-8")
    return out


# --- Simplified → Traditional (Taiwan) -------------------------------------------------------------


@cache
def _converter():
    try:
        import opencc
    except ImportError:  # pragma: no cover - the test extras install it
        sys.exit("the zh-Hant edition needs OpenCC: pip install opencc==1.4.2 (in the test extras)")
    return opencc.OpenCC("s2twp")


def read_overrides(path: Path | None = None) -> list[tuple[str, str]]:
    """The reviewed replacements (s2twp output → what we write), longest first."""
    path = path or OVERRIDES
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not all(parts):
            raise ValueError(
                f"{path.name} line {number}: expected 'conversion<TAB>replacement'; got {line!r}"
            )
        pairs.append((parts[0], parts[1]))
    return sorted(pairs, key=lambda p: (-len(p[0]), p[0]))


def _apply_overrides(text: str, overrides: list[tuple[str, str]]) -> str:
    if not overrides:
        return text
    table = dict(overrides)
    # One pass, longest match first: a replacement is never replaced again.
    pattern = re.compile("|".join(re.escape(k) for k, _ in overrides))
    return pattern.sub(lambda m: table[m.group(0)], text)


def to_traditional(text: str, overrides: list[tuple[str, str]] | None = None) -> str:
    """Simplified text → Taiwan Traditional: s2twp, then the overrides; markup kept for resolve_markup."""
    if overrides is None:
        overrides = read_overrides()
    return _apply_overrides(_converter().convert(text), overrides)


def convert_prose(text: str, overrides: list[tuple[str, str]] | None = None) -> str:
    """Markdown from zh-Hans to zh-Hant, leaving code, formulas and comments exactly as they are."""
    pieces, last = [], 0
    for match in PROTECTED.finditer(text):
        pieces.append(to_traditional(text[last : match.start()], overrides))
        pieces.append(match.group(0))
        last = match.end()
    pieces.append(to_traditional(text[last:], overrides))
    return "".join(pieces)


def edition_text(text: str, language: str, overrides: list[tuple[str, str]] | None = None) -> str:
    """A zh-Hans entry as `language` writes it: converted if need be, markup resolved."""
    if language == "zh-Hant":
        text = convert_prose(text, overrides)
    return resolve_markup(text, language)


def hant_catalogue(hans: dict[str, str], overrides: list[tuple[str, str]] | None = None) -> dict[str, str]:
    """attnlib's zh-Hant catalogue: keys (English) kept, zh-Hans values converted, markup resolved."""
    return {key: resolve_markup(to_traditional(value, overrides), "zh-Hant") for key, value in hans.items()}


def dump_json(mapping: dict) -> str:
    return json.dumps(mapping, ensure_ascii=False, indent=2) + "\n"


def guide_texts(overrides: list[tuple[str, str]] | None = None) -> dict[Path, str]:
    """The lecturer's guide in each script, from its one source with the {行}/{列} markup.

    The 繁體 guide points to the 繁體 notebooks, slides and site, and names the 简体 ones as the others.
    """
    source = (CATALOGUES / GUIDE).read_text(encoding="utf-8")
    swap = {"zh-Hans": "zh-Hant", "zh-Hant": "zh-Hans", "繁體版": "簡體版"}
    hant = re.sub("|".join(swap), lambda m: swap[m.group(0)], edition_text(source, "zh-Hant", overrides))
    return {ROOT / "docs" / "lecturers_guide.zh-Hans.md": resolve_markup(source, "zh-Hans"),
            ROOT / "docs" / "lecturers_guide.zh-Hant.md": hant}


def generated_outputs() -> dict[Path, tuple[str, Path]]:
    """Every generated file outside the notebooks → (its text, the source it is made from):
    attnlib/locale/zh-Hant/<part>.json from attnlib/locale/zh-Hans/<part>.json, and the two guides."""
    overrides = read_overrides()
    out = {}
    for path in sorted((LOCALE / "zh-Hans").glob("*.json")):
        hans = json.loads(path.read_text(encoding="utf-8"))
        out[LOCALE / "zh-Hant" / path.name] = (dump_json(hant_catalogue(hans, overrides)), path)
    if (CATALOGUES / GUIDE).exists():
        for target, text in guide_texts(overrides).items():
            out[target] = (text, CATALOGUES / GUIDE)
    return out


# --- building an edition ---------------------------------------------------------------------------


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


def build_edition(path: Path, language: str, previous=None, overrides=None):
    """The notebook of `language` for the English notebook `path`, before navigation.

    `previous` is the edition as stored: outputs of code cells whose code is unchanged are kept.
    """
    english = nbformat.read(path, as_version=4)
    entries = read_catalogue(catalogue_path(path))
    texts = translated_cells(english, entries, language, overrides)
    setup = setup_cell(english)
    kept = {c.id: c for c in previous.cells if c.cell_type == "code"} if previous is not None else {}
    nb = nbformat.from_dict(json.loads(json.dumps(english)))
    for cell in nb.cells:
        if cell.id in texts:
            cell.source = texts[cell.id]
        elif cell.cell_type == "code":
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


def edition_path(path: Path, language: str) -> Path:
    return NOTEBOOKS / language / path.name


def read_nb(path: Path):
    return nbformat.read(path, as_version=4) if path.exists() else None


def write_nb(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(nbformat.writes(nb), encoding="utf-8")  # the layout Jupyter writes


def built_editions(paths: list[Path]) -> dict[Path, object]:
    """Every edition notebook as `build` writes it, navigation included, for the English `paths`."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import make_navigation

    overrides = read_overrides()
    out = {}
    for language in EDITIONS:
        for path in paths:
            target = edition_path(path, language)
            out[target] = build_edition(path, language, read_nb(target), overrides)
    # Navigation needs every notebook of the edition (titles of the neighbours): take the stored ones
    # for notebooks not being built now.
    for language in EDITIONS:
        folder = NOTEBOOKS / language
        members = {edition_path(e, language) for e in english_notebooks()}
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


def build(numbers: list[str] | None = None, log=print) -> int:
    paths = [notebook(n) for n in numbers] if numbers else english_notebooks()
    for target, nb in built_editions(paths).items():
        previous = read_nb(target)
        if previous is not None and previous == nb:
            continue
        write_nb(nb, target)
        log(f"wrote {target.relative_to(ROOT)}")
    for target, (text, _) in generated_outputs().items():
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            log(f"wrote {target.relative_to(ROOT)}")
    for stale in set((LOCALE / "zh-Hant").glob("*.json")) - set(generated_outputs()):
        stale.unlink()
        log(f"removed {stale.relative_to(ROOT)} (no zh-Hans source)")
    return 0


def execute(numbers: list[str] | None = None, log=print) -> int:
    """Run each edition notebook top to bottom in a fresh kernel and store its outputs."""
    paths = [notebook(n) for n in numbers] if numbers else english_notebooks()
    for language in EDITIONS:
        for path in paths:
            target = edition_path(path, language)
            if not target.exists():
                log(f"{target.relative_to(ROOT)} does not exist: run build first")
                return 1
            command = [
                sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                "--ExecutePreprocessor.record_timing=False", str(target),
            ]  # fmt: skip
            log(f"executing {target.relative_to(ROOT)}")
            # one BLAS thread: the notebooks' matrices are small, and threads only contend (make notebooks)
            env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
            subprocess.run(command, check=True, cwd=target.parent, capture_output=True, env=env)
            nb = read_nb(target)
            nb.metadata.setdefault(EDITION_KEY, {})["executed_code"] = code_hash(nb)
            write_nb(nb, target)
    return 0


# --- checking --------------------------------------------------------------------------------------


def source_view(nb) -> dict:
    """What `check` compares between a stored edition and a fresh build: everything but the outputs."""
    meta = json.loads(json.dumps({k: v for k, v in nb.metadata.items() if k != "widgets"}))
    meta.get(EDITION_KEY, {}).pop("executed_code", None)
    cells = [
        {"id": c.get("id"), "type": c.cell_type, "source": c.source, "metadata": c.metadata} for c in nb.cells
    ]
    return {"metadata": meta, "cells": json.loads(json.dumps(cells))}


def catalogue_problems(path: Path, language: str = SOURCE_LANGUAGE) -> list[str]:
    """What is stale, missing or left over in the catalogue of the English notebook `path`."""
    english = nbformat.read(path, as_version=4)
    where = catalogue_path(path, language)
    name = where.relative_to(ROOT)
    number = path.name[:2]
    if not where.exists():
        return [
            f"{name}: no catalogue for {path.name}: "
            f"run `python tools/translate.py skeleton {language} {number}`"
        ]
    entries = read_catalogue(where)
    cells = translatable(english)
    found = []
    for cell in cells:
        entry = entries.get(cell.id)
        if entry is None:
            found.append(
                f"{name}: cell {cell.id}: no entry (a new English cell): "
                f"run `python tools/translate.py skeleton {language} {number}`, translate it, stamp it"
            )
        elif entry.en_hash != cell_hash(cell):
            found.append(
                f"{name}: cell {cell.id}: stale: the English cell changed since it was translated "
                f"(entry en {entry.en_hash}, English now {cell_hash(cell)}); update the translation, then "
                f"`python tools/translate.py stamp {language} {number} {cell.id}`"
            )
        elif TOC_START in cell.source and TOC_START not in entry.text:
            found.append(f"{name}: cell {cell.id}: the entry lost the marker {TOC_START}")
    ids = {c.id for c in cells}
    for cell_id in entries:
        if cell_id not in ids:
            found.append(f"{name}: cell {cell_id}: no such Markdown cell in {path.name}: remove the entry")
    return found


def edition_problems(paths: list[Path]) -> list[str]:
    found = []
    for target, nb in built_editions(paths).items():
        name = target.relative_to(ROOT)
        stored = read_nb(target)
        if stored is None:
            found.append(f"{name}: missing: run `python tools/translate.py build`")
            continue
        new, old = source_view(nb), source_view(stored)
        if new != old:
            old_cells = {c["id"]: c for c in old["cells"]}
            differ = [c["id"] for c in new["cells"] if old_cells.get(c["id"]) != c]
            what = "cell order or metadata"
            if differ:
                what = f"cell {differ[0]}" + (f" and {len(differ) - 1} more" if len(differ) > 1 else "")
            found.append(
                f"{name}: out of date with its sources ({what}): run `python tools/translate.py build`"
            )
            continue
        executed = stored.metadata.get(EDITION_KEY, {}).get("executed_code")
        if executed != code_hash(stored):
            found.append(
                f"{name}: its code changed since its outputs were stored: "
                f"run `python tools/translate.py execute {target.name[:2]}`"
            )
    for language in EDITIONS:
        for extra in sorted((NOTEBOOKS / language).glob("*.ipynb")):
            if not (NOTEBOOKS / extra.name).exists():
                found.append(f"{extra.relative_to(ROOT)}: no English notebook {extra.name}: delete it")
    return found


def locale_problems() -> list[str]:
    found = []
    wanted = generated_outputs()
    for target, (text, source) in wanted.items():
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            found.append(
                f"{target.relative_to(ROOT)}: out of date with {source.relative_to(ROOT)}: "
                "run `python tools/translate.py build`"
            )
    for extra in sorted(set((LOCALE / "zh-Hant").glob("*.json")) - set(wanted)):
        found.append(f"{extra.relative_to(ROOT)}: no zh-Hans source: run `python tools/translate.py build`")
    return found


def check(log=print) -> int:
    paths = english_notebooks()
    found = [p for path in paths for p in catalogue_problems(path)]
    for path in sorted((CATALOGUES / SOURCE_LANGUAGE).glob("*.md")):
        if not (NOTEBOOKS / f"{path.stem}.ipynb").exists():
            found.append(f"{path.relative_to(ROOT)}: no English notebook {path.stem}.ipynb")
    found += edition_problems(paths)
    found += locale_problems()
    for problem in found:
        log(problem)
    log(f"{len(paths)} notebooks × {len(EDITIONS)} editions: {len(found) or 'no'} problem(s)")
    return 1 if found else 0


def main(argv: list[str] | None = None) -> int:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    sub = parser.add_subparsers(dest="command", required=True)
    sk = sub.add_parser("skeleton", help="add English placeholder entries for cells a catalogue lacks")
    sk.add_argument("language", choices=[SOURCE_LANGUAGE])
    sk.add_argument("numbers", nargs="+")
    st = sub.add_parser("stamp", help="mark entries as translating today's English")
    st.add_argument("language", choices=[SOURCE_LANGUAGE])
    st.add_argument("number")
    st.add_argument("cells", nargs="+", metavar="CELL_ID")
    for name in ("build", "execute"):
        sub.add_parser(name).add_argument("numbers", nargs="*")
    sub.add_parser("check")
    args = parser.parse_args(argv)
    try:
        if args.command == "skeleton":
            for number in args.numbers:
                print(skeleton(args.language, number).relative_to(ROOT))
        elif args.command == "stamp":
            print(stamp(args.language, args.number, args.cells).relative_to(ROOT))
        elif args.command == "build":
            return build(args.numbers)
        elif args.command == "execute":
            return execute(args.numbers)
        elif args.command == "check":
            return check()
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
