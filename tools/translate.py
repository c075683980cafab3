"""The Chinese editions of the series, built from the English notebooks and the translation catalogues.

    python -m tools.translate skeleton zh-Hans NN ...   # an entry (English text) per cell the catalogues lack
    python -m tools.translate stamp zh-Hans NN CELL ... # "I updated these entries": hash := today's English
    python -m tools.translate build [NN ...]            # notebooks/zh-Han?/, attnlib/locale/zh-Hant/
    python -m tools.translate execute [NN ...]          # run the Chinese notebooks, store their outputs
    python -m tools.translate check                     # change nothing; exit 1 naming what is stale

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
in the same order, the same ids and the same program; only the Markdown (the catalogue's entries), the
navigation cell, one line in the setup cell (``attnlib.set_language("zh-Hans")``) and the comments and
shown strings of code cells differ. Those come from the code catalogue
``notebooks/translations/zh-Hans/code/<notebook stem>.md`` (pairs of "- English" / "+ 译文" lines per code
cell, see "code cells" below); `check` proves each translated cell is the English program.
Relative links and images that are not sibling notebooks get ``../`` so they work from the subfolder.
Stored outputs of a code cell whose code did not change are kept; ``execute`` brings them up to date.

zh-Hant is never translated by hand: it is the zh-Hans text through OpenCC ``s2twp`` and the reviewed
overrides in ``notebooks/translations/zh-Hant-overrides.tsv`` (applied after the conversion, longest
first); then the ``{行}``/``{列}`` markup for a matrix row/column becomes 行/列 (简体) or 列/行 (繁體).
Code spans and formulas are not converted. attnlib's own catalogues ``attnlib/locale/zh-Hans/*.json``
(with ``publishing.json``, the words the site, the slides and the navigation cells write around the notebooks)
become ``attnlib/locale/zh-Hant/*.json`` the same way, and the lecturer's guide
``notebooks/translations/lecturers_guide.zh-Hans.md`` becomes ``docs/lecturers_guide.zh-Han?.md``.
"""

from __future__ import annotations

import argparse
import ast
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
from attnlib.i18n import LANGUAGES, catalogue, resolve_markup

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
EDITIONS = LANGUAGES[1:]  # every edition the build writes from English, the first one from the catalogues
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
    code = {c.id: c for c in nb.cells if c.cell_type == "code"}
    if cell_ids and all(cell_id in code for cell_id in cell_ids):
        out = code_catalogue_path(path, language)
        text = out.read_text(encoding="utf-8")
        entries = parse_code(text, out.name)
        for cell_id in cell_ids:
            if cell_id not in entries:
                raise ValueError(
                    f"{out.relative_to(ROOT)} has no entry for code cell {cell_id}: run skeleton first"
                )
            old = f"<!-- code {cell_id} · en {entries[cell_id].en_hash} -->"
            text = text.replace(old, f"<!-- code {cell_id} · en {english_hash(code[cell_id].source)} -->", 1)
        out.write_text(text, encoding="utf-8")
        return out
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


# Quotation marks: 简体 “green” (‘…’ inside) becomes 「green」 (『…』) through the overrides; no space is
# left between a corner bracket and the Chinese text or punctuation next to it.
CJK = "\u3400-\u9fff\u3000-\u303f\uff01-\uff60"
QUOTE_SPACE = re.compile(f"(?<=[」』])[ ]+(?=[{CJK}])|(?<=[{CJK}])[ ]+(?=[「『])")


def to_traditional(text: str, overrides: list[tuple[str, str]] | None = None) -> str:
    """Simplified text → Taiwan Traditional: s2twp, then the overrides; markup kept for resolve_markup."""
    if overrides is None:
        overrides = read_overrides()
    return QUOTE_SPACE.sub("", _apply_overrides(_converter().convert(text), overrides))


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
    return {
        ROOT / "docs" / "lecturers_guide.zh-Hans.md": resolve_markup(source, "zh-Hans"),
        ROOT / "docs" / "lecturers_guide.zh-Hant.md": hant,
    }


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


# --- code cells: their comments and shown strings ---------------------------------------------------
#
# A code cell of an edition is the English cell with some fragments replaced: comments, and string
# literals the reader only sees (printed, figure titles, axis labels, legends). The catalogue of a
# notebook's code is ``notebooks/translations/zh-Hans/code/<notebook stem>.md``: one entry per code cell
# that has something to translate, a marker naming the cell id and the hash of the English source, then
# pairs of lines, the English fragment after "- " and its translation after "+ " (the rest of each line
# verbatim)::
#
#     <!-- code 49a37c11 · en 3a9f0b1c2d4e -->
#     - "weights · no mask · unscaled"
#     + "权重 · 无掩码 · 未缩放"
#     - # one row per token
#     + # 每个词元一{行}
#
# Fragments are replaced longest first, in one pass; each must occur in the English cell. An entry with no
# pair says "reviewed: nothing to translate". `code_drift` then proves the translated cell is the same
# program: the same AST once shown string constants are replaced by a placeholder (comments are not in
# the AST), and every string that changed is only ever shown, never computed with.

CODE_MARKER = re.compile(r"^<!-- code (\S+) · en ([0-9a-f]{12}) -->$", re.MULTILINE)
SHOWN = "\x00shown\x00"  # what a string constant becomes before two programs are compared
# Calls whose arguments are shown, never computed with: print, exceptions, matplotlib's text methods.
DISPLAY_CALLS = {"print", "display", "Markdown"}
DISPLAY_METHODS = {
    *("set_title", "set_xlabel", "set_ylabel", "suptitle", "title", "xlabel", "ylabel", "legend", "text"),
    *("annotate", "set_label", "set_text", "figtext", "supxlabel", "supylabel"),
}
DISPLAY_KEYWORDS = {"title", "xlabel", "ylabel", "label", "suptitle", "caption"}
# attnlib.plot arguments whose strings are labels drawn on a figure: position and keyword.
LABEL_ARGUMENTS = {"loss_curves": ({0}, {"curves", "baselines"}), "contribution_bars": ({2}, {"tokens"})}
STRING_METHODS = {"format", "join", "ljust", "rjust", "center", "upper", "lower", "strip"}
# Calls that give back their first argument as text to show: attnlib.pad (a label padded to a width).
PASS_THROUGH_CALLS = {"pad"}
# What a shown string shows that a translation must keep in order: its numbers, and {} for each value
# of an f-string (the tests compare the numbers an edition prints with the English ones).
SHOWN_NUMBERS = re.compile(r"\{\}|(?<![\w.])-?\d+(?:\.\d+)?")
# Comments that tools read (nbval, ruff, formatters): never translated.
DIRECTIVE = re.compile(r"#\s*(NBVAL_|noqa|fmt:|type:|pragma)")
FORMAT_FIELD = re.compile(r"\{[^{}]*\}|%[-+ #0]*\d*(?:\.\d+)?[a-zA-Z%]")


@dataclass
class CodeEntry:
    cell_id: str
    en_hash: str
    pairs: list[tuple[str, str]]


def code_catalogue_path(path: Path, language: str = SOURCE_LANGUAGE) -> Path:
    return CATALOGUES / language / "code" / f"{path.stem}.md"


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


def read_code_catalogue(path: Path) -> dict[str, CodeEntry]:
    where = code_catalogue_path(path)
    return parse_code(where.read_text(encoding="utf-8"), where.name) if where.exists() else {}


def translate_code(
    source: str,
    pairs: list[tuple[str, str]],
    language: str = SOURCE_LANGUAGE,
    overrides: list[tuple[str, str]] | None = None,
) -> str:
    """`source` with each English fragment replaced by its translation (in `language`), longest first."""
    if not pairs:
        return source
    table = {}
    for english, hans in pairs:
        if language == "zh-Hant":
            hans = to_traditional(hans, overrides)
        table[english] = resolve_markup(hans, language)
    keys = sorted(table, key=lambda k: (-len(k), k))
    return re.sub("|".join(map(re.escape, keys)), lambda m: table[m.group(0)], source)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _in_format_spec(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.FormattedValue) and parent.format_spec is node:
            return True
        node = parent
    return False


def _loads(tree: ast.AST, name: str) -> list[ast.Name]:
    return [
        n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]


def _bound_name_shown(
    target: ast.AST, scope: ast.AST, role: str, parents: dict, depth: int, elsewhere: frozenset[str]
) -> bool:
    """A string bound to the name `target`: shown only if every use of the name only shows it."""
    if not isinstance(target, ast.Name) or target.id in elsewhere:
        return False
    uses = _loads(scope, target.id)
    return bool(uses) and all(_shown(use, role, parents, scope, depth + 1, elsewhere) for use in uses)


def _loop_target(row: ast.AST, node: ast.AST, parents: dict) -> tuple[ast.AST, ast.For] | None:
    """The loop variable `node` (an item of the tuple `row`, itself an item of what a for loop runs over,
    directly or as an argument of zip) is bound to, and that loop."""
    table = parents.get(row)
    if not isinstance(row, ast.Tuple) or not isinstance(table, ast.Tuple | ast.List):
        return None
    loop, target = parents.get(table), None
    if isinstance(loop, ast.For) and loop.iter is table:
        target = loop.target
    elif isinstance(loop, ast.Call) and _call_name(loop) == "zip" and table in loop.args:
        zipped, loop = loop, parents.get(loop)
        if isinstance(loop, ast.For) and loop.iter is zipped and isinstance(loop.target, ast.Tuple):
            column = next(i for i, a in enumerate(zipped.args) if a is table)
            target = loop.target.elts[column] if column < len(loop.target.elts) else None
    if not isinstance(target, ast.Tuple) or len(target.elts) != len(row.elts):
        return None
    return target.elts[next(i for i, e in enumerate(row.elts) if e is node)], loop


def _shown(
    node: ast.AST,
    role: str,
    parents: dict,
    tree: ast.AST,
    depth: int = 0,
    elsewhere: frozenset[str] = frozenset(),
) -> bool:
    """Is the value of `node` only ever shown (printed, drawn as text), never computed with?

    `role` is "text" for a string; "key" for a dict key, "value:K" for the value under the constant key K.
    """
    while depth < 8 and node in parents:
        parent = parents[node]
        if isinstance(parent, ast.JoinedStr | ast.FormattedValue):
            if isinstance(parent, ast.FormattedValue) and parent.format_spec is node:
                return False
        elif isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add | ast.Mod):
            pass
        elif isinstance(parent, ast.IfExp):
            if parent.test is node:
                return False
        elif isinstance(parent, ast.Tuple | ast.List | ast.Starred):
            bound = _loop_target(parent, node, parents)
            if bound is not None:  # for label, x in (("a", a), ("b", b)): the constant becomes `label`
                target, loop = bound
                scope = ast.Module(body=loop.body, type_ignores=[])
                return _bound_name_shown(target, scope, role, parents, depth, frozenset())
        elif isinstance(parent, ast.Dict):
            if role != "text":
                return False
            if node in parent.keys:
                role = "key"
            else:
                key = parent.keys[parent.values.index(node)]
                role = (
                    f"value:{getattr(key, 'original', key.value)}"
                    if isinstance(key, ast.Constant)
                    else "value:"
                )
        elif isinstance(parent, ast.Attribute):
            call = parents.get(parent)
            if not (parent.attr in STRING_METHODS and isinstance(call, ast.Call) and call.func is parent):
                return False
            parent = call
        elif isinstance(parent, ast.Call):
            name = _call_name(parent)
            if parent.func is node:
                return False
            if name in DISPLAY_CALLS or name.endswith(("Error", "Exception", "Warning")):
                return True
            if name in DISPLAY_METHODS and role == "text":
                return True
            positions = LABEL_ARGUMENTS.get(name, (set(), set()))[0]
            if node in parent.args and parent.args.index(node) in positions and role in ("text", "key"):
                return True
            if role.startswith("value:") and name in ("zip", "enumerate", "sorted", "list", "len"):
                return True  # iterating over a dict yields its keys: its shown values stay shown
            if name in PASS_THROUGH_CALLS and parent.args and parent.args[0] is node:
                pass  # attnlib.pad(label, 14): the label, padded; shown when the call's value is
            elif not (isinstance(parent.func, ast.Attribute) and parent.func.attr in STRING_METHODS):
                return False
        elif isinstance(parent, ast.keyword):
            call = parents[parent]
            if parent.arg is None:
                return role.startswith("value:") and role[6:] in DISPLAY_KEYWORDS
            if parent.arg in LABEL_ARGUMENTS.get(_call_name(call), (set(), set()))[1]:
                return role in ("text", "key")
            return role == "text" and parent.arg in DISPLAY_KEYWORDS
        elif isinstance(parent, ast.For) and parent.iter is node:
            return role.startswith("value:")  # for k in titles: only the keys come out
        elif isinstance(parent, ast.Assert):
            return parent.msg is node
        elif isinstance(parent, ast.Expr):
            return True  # a docstring, or a string the cell displays
        elif isinstance(parent, ast.Assign):
            # a name bound at the top of the cell may be read by a later cell: then it is not only shown
            seen = elsewhere if isinstance(parents.get(parent), ast.Module) else frozenset()
            return len(parent.targets) == 1 and _bound_name_shown(
                parent.targets[0], tree, role, parents, depth, seen
            )
        elif isinstance(parent, ast.Subscript) and parent.value is node and role == "text":
            pass  # titles[name]: the value taken out of a dict of shown strings
        elif isinstance(parent, ast.Subscript) and parent.value is node and role.startswith("value:"):
            role = "text"
        else:
            return False
        node = parent
    return False


@cache
def _transformer():
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # pragma: no cover - the notebooks need IPython anyway
        return None
    return TransformerManager()


def _python(source: str) -> str:
    """The cell as plain Python (IPython's magics turned into calls)."""
    manager = _transformer()
    return manager.transform_cell(source) if manager is not None else source


def _blank_strings(tree: ast.AST) -> dict[ast.AST, str]:
    """Replace, in place, every string constant of `tree` by a placeholder and drop the literal parts of
    its f-strings (format specs are kept: they change numbers); return node → the text it had."""
    parents = _parents(tree)
    texts: dict[ast.AST, str] = {}
    for node in list(ast.walk(tree)):
        if isinstance(node, ast.JoinedStr) and not _in_format_spec(node, parents):
            texts[node] = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            node.values = [v for v in node.values if not isinstance(v, ast.Constant)]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and not isinstance(parents.get(node), ast.JoinedStr)
            and not _in_format_spec(node, parents)
        ):
            texts[node] = node.original = node.value  # `original`: what _shown reads of a dict key
            node.value = SHOWN
    return texts


def code_drift(english: str, translated: str, elsewhere: frozenset[str] = frozenset()) -> list[str]:
    """Why `translated` is not the program `english` is (empty if it is): the ASTs must be equal once
    string constants are placeholders (f-strings: the same expressions with the same format specs, in the
    same order), and every string that differs must be one that is only shown.

    `elsewhere`: the names other cells of the notebook use; a changed string bound to one of them is
    not "only shown" (this cell cannot see what the others do with it).
    """
    try:
        trees = [ast.parse(_python(s)) for s in (english, translated)]
    except SyntaxError as err:
        return [f"does not parse: {err}"]
    texts = [_blank_strings(tree) for tree in trees]
    if ast.dump(trees[0], include_attributes=False) != ast.dump(trees[1], include_attributes=False):
        return ["the code differs, not only its strings and comments"]
    parents = _parents(trees[1])
    found = []
    for old, new in zip(ast.walk(trees[0]), ast.walk(trees[1]), strict=True):
        before, after = texts[0].get(old), texts[1].get(new)
        if before == after:
            continue
        if not _shown(new, "text", parents, trees[1], elsewhere=elsewhere):
            found.append(f"the string {before!r} is used for more than showing it: keep it as it is")
        elif SHOWN_NUMBERS.findall(before) != SHOWN_NUMBERS.findall(after):
            found.append(
                f"the string {before!r} shows {SHOWN_NUMBERS.findall(before)} (numbers, and {{}} for each "
                f"value) but its translation {SHOWN_NUMBERS.findall(after)}: keep them, in that order"
            )
        elif isinstance(parents.get(new), ast.BinOp | ast.Attribute) and sorted(
            FORMAT_FIELD.findall(before)
        ) != sorted(FORMAT_FIELD.findall(after)):  # "%.3f" % x, "{:.3f}".format(x)
            found.append(
                f"the string {before!r} lost or changed a format field {FORMAT_FIELD.findall(before)}"
            )
    return found


def code_candidates(source: str, elsewhere: frozenset[str] = frozenset()) -> list[str]:
    """What a translator may translate in a code cell: its comments with words, and its string literals
    (as written, quotes included) that are only shown and hold a word."""
    import io
    import tokenize

    try:
        tree = ast.parse(source)
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (SyntaxError, tokenize.TokenError):
        return []
    parents = _parents(tree)
    lines = source.splitlines(keepends=True)
    at = {}  # the outermost string node starting at each position (an f-string's parts share its start)
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant | ast.JoinedStr) and n.lineno <= len(lines):
            column = len(lines[n.lineno - 1].encode("utf-8")[: n.col_offset].decode("utf-8", "replace"))
            at.setdefault((n.lineno, column), n)
    found, node = [], None
    for token in tokens:
        word = re.search(r"[A-Za-z]{2}", token.string)
        if token.type == tokenize.COMMENT and word and not DIRECTIVE.match(token.string):
            found.append(token.string)
        elif token.type == tokenize.STRING:
            node = node or at.get(token.start)  # "a" "b": the second token is part of the first's node
            if isinstance(node, ast.JoinedStr):  # the words of an f-string, not of its expressions
                node_parents = _parents(node)
                shown = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
                         and isinstance(n.value, str) and not _in_format_spec(n, node_parents)]  # fmt: skip
                word = re.search(r"[A-Za-z]{2}", "".join(shown))
            if word and node is not None and isinstance(getattr(node, "value", ""), str | list):
                if _shown(node, "text", parents, tree, elsewhere=elsewhere) and token.string not in found:
                    found.append(token.string)
        elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            node = None
    return found


@cache
def _names(source: str) -> frozenset[str]:
    try:
        return frozenset(n.id for n in ast.walk(ast.parse(_python(source))) if isinstance(n, ast.Name))
    except SyntaxError:
        return frozenset()


def names_used(nb, but: str) -> frozenset[str]:
    """The names the code cells of `nb` other than the cell `but` read."""
    return frozenset().union(*(_names(c.source) for c in nb.cells if c.cell_type == "code" and c.id != but))


def code_skeleton(language: str, number: str) -> Path:
    """Add an entry, its pairs holding the English, for every code cell with something to translate."""
    path = notebook(number)
    nb = nbformat.read(path, as_version=4)
    out = code_catalogue_path(path, language)
    known = parse_code(out.read_text(encoding="utf-8"), out.name) if out.exists() else {}
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


def code_problems(path: Path, language: str = SOURCE_LANGUAGE) -> list[str]:
    """What is stale, missing, left over or not the same program in the code catalogue of `path`."""
    english = nbformat.read(path, as_version=4)
    where = code_catalogue_path(path, language)
    name = where.relative_to(ROOT)
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


def build_edition(path: Path, language: str, previous=None, overrides=None, strict: bool = True):
    """The notebook of `language` for the English notebook `path`, before navigation.

    `previous` is the edition as stored: outputs of code cells whose code is unchanged are kept.
    """
    english = nbformat.read(path, as_version=4)
    entries = read_catalogue(catalogue_path(path))
    texts = translated_cells(english, entries, language, overrides)
    try:
        code_entries = read_code_catalogue(path)
    except ValueError:
        if strict:
            raise
        code_entries = {}  # `check` reports the broken catalogue itself
    setup = setup_cell(english)
    kept = {c.id: c for c in previous.cells if c.cell_type == "code"} if previous is not None else {}
    nb = nbformat.from_dict(json.loads(json.dumps(english)))
    for cell in nb.cells:
        if cell.id in texts:
            cell.source = texts[cell.id]
        elif cell.cell_type == "code":
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


def edition_path(path: Path, language: str) -> Path:
    return NOTEBOOKS / language / path.name


def read_nb(path: Path):
    return nbformat.read(path, as_version=4) if path.exists() else None


def write_nb(nb, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(nbformat.writes(nb), encoding="utf-8")  # the layout Jupyter writes


def built_editions(paths: list[Path], strict: bool = True) -> dict[Path, object]:
    """Every edition notebook as `build` writes it, navigation included, for the English `paths`."""
    from . import make_navigation

    overrides = read_overrides()
    out = {}
    for language in EDITIONS:
        for path in paths:
            target = edition_path(path, language)
            out[target] = build_edition(path, language, read_nb(target), overrides, strict)
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
    # The catalogues first: the navigation cells of the editions take their words from them.
    for target, (text, _) in generated_outputs().items():
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            log(f"wrote {target.relative_to(ROOT)}")
    for stale in set((LOCALE / "zh-Hant").glob("*.json")) - set(generated_outputs()):
        stale.unlink()
        log(f"removed {stale.relative_to(ROOT)} (no zh-Hans source)")
    catalogue.cache_clear()
    for target, nb in built_editions(paths).items():
        previous = read_nb(target)
        if previous is not None and previous == nb:
            continue
        write_nb(nb, target)
        log(f"wrote {target.relative_to(ROOT)}")
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


def edition_problems(paths: list[Path]) -> list[str]:
    found = []
    for target, nb in built_editions(paths, strict=False).items():
        name = target.relative_to(ROOT)
        stored = read_nb(target)
        if stored is None:
            found.append(f"{name}: missing: run `python -m tools.translate build`")
            continue
        new, old = source_view(nb), source_view(stored)
        if new != old:
            old_cells = {c["id"]: c for c in old["cells"]}
            differ = [c["id"] for c in new["cells"] if old_cells.get(c["id"]) != c]
            what = "cell order or metadata"
            if differ:
                what = f"cell {differ[0]}" + (f" and {len(differ) - 1} more" if len(differ) > 1 else "")
            found.append(
                f"{name}: out of date with its sources ({what}): run `python -m tools.translate build`"
            )
            continue
        executed = stored.metadata.get(EDITION_KEY, {}).get("executed_code")
        if executed != code_hash(stored):
            found.append(
                f"{name}: its code changed since its outputs were stored: "
                f"run `python -m tools.translate execute {target.name[:2]}`"
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
                "run `python -m tools.translate build`"
            )
    for extra in sorted(set((LOCALE / "zh-Hant").glob("*.json")) - set(wanted)):
        found.append(f"{extra.relative_to(ROOT)}: no zh-Hans source: run `python -m tools.translate build`")
    return found


def check(log=print) -> int:
    paths = english_notebooks()
    found = [p for path in paths for p in catalogue_problems(path) + code_problems(path)]
    for path in sorted((CATALOGUES / SOURCE_LANGUAGE).glob("*.md")) + sorted(
        (CATALOGUES / SOURCE_LANGUAGE / "code").glob("*.md")
    ):
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
                print(code_skeleton(args.language, number).relative_to(ROOT))
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
