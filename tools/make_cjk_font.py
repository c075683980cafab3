"""Build the small Chinese fonts that ship inside ``attnlib``: one per script, each in two weights.

Why
---
The notebooks label attention heatmaps with Chinese tokens such as 早 上 好.
Matplotlib's bundled DejaVu Sans has no CJK glyphs, so on a machine without
system CJK fonts those labels come out as empty boxes together with
"Glyph ... missing from font" warnings. To make the plots work everywhere the
project is pip-installed, we ship a subset of Noto Sans SC (Regular) as package
data in ``attnlib/fonts/``. Noto Sans SC is released under the SIL Open Font
License 1.1, which allows redistributing modified versions such as a subset as
long as the licence travels with the font; its text is copied to
``attnlib/fonts/OFL.txt``.

What goes into the subset
-------------------------
* every character of the GB2312 character set: all 6763 common simplified
  hanzi plus the symbols, Greek, Cyrillic and kana in its other rows (collected
  by decoding every valid two-byte GB2312 code);
* printable ASCII and Latin-1, General Punctuation, CJK Symbols and
  Punctuation, Halfwidth and Fullwidth Forms and the basic Greek alphabet;
* a handful of characters the notebooks use explicitly, including the
  traditional characters of 直觀解說 and the maths symbols used in axis labels;
* every CJK character of the text the series draws or shows, in all three
  editions: attnlib's catalogues (``attnlib/locale/*/*.json``, 简体 and 繁體),
  the notebooks' translation catalogues, every notebook of every edition
  (``notebooks/**/*.ipynb``, sources and stored outputs) and the token data
  (``data/*.json``). When a catalogue grows, rerun this script: a test fails
  while a character of a catalogue is missing from the font.

Only the horizontal layout features that plain Chinese/Latin text needs are
kept; vertical-writing and locale-variant (Japanese/Korean/Traditional) glyphs
are left out, which keeps the file at about 2.4 MB instead of 10.6 MB.
(Traditional characters with their own code points, such as 們 機 語, are
ordinary characters of the font and are kept when the text uses them.)

One face per script
-------------------
The subset above is Noto Sans SC: Simplified glyph shapes, for the English and 简体 editions. The 繁體
edition gets Noto Sans TC (the same design with Traditional shapes: 勻 is not drawn as 匀), subset to
the characters the 繁體 text really uses (its notebooks, its catalogues, the tiny GPT's vocabulary in
Traditional form, the toy data) plus the punctuation ranges above; the few characters Noto Sans TC
lacks (a Simplified character quoted in a formula, the name 简体中文 in the language switch) are taken
from Noto Sans SC and merged in, so one file draws everything the edition shows.

Headings and bold text are drawn from a real bold weight, not a faked one: for each script a subset of
the 700 Bold face holding only the CJK characters that headings, table heads, bold text and the bold
words of the site and the decks use (``bold_characters``), with the CJK punctuation ranges.

Four files: ``NotoSansSC-Subset.ttf`` (regular, the face matplotlib draws every figure of the English
and 简体 editions with, and the fallback of the 繁體 figures), ``NotoSansSC-Bold-Subset.ttf``,
``NotoSansTC-Subset.ttf`` and ``NotoSansTC-Bold-Subset.ttf``.

How to rebuild
--------------
From the repository root, with fonttools installed (``pip install fonttools``)
and ``npm`` on the PATH::

    python -m tools.make_cjk_font

This reads the 400 Regular and 700 Bold ``.ttf`` files and ``LICENSE_FONT`` from the pinned
``@expo-google-fonts/noto-sans-sc`` and ``@expo-google-fonts/noto-sans-tc`` packages (package.json;
installed by ``npm ci`` into ``node_modules/`` by ``tools/npm.py`` when they are not there), and writes
the four fonts and ``attnlib/fonts/OFL.txt`` (the two packages' licences are the same text). Use
``--source`` to build only the SC regular subset from a ``.ttf`` you already have. The output is
deterministic: the ``head.modified`` timestamp of the source font is kept, so
rebuilding from the same source and text gives the same bytes. Once the
package is installed a rebuild takes a few seconds.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from fontTools import subset
from fontTools.merge import Merger
from fontTools.ttLib import TTFont

from . import npm
from .artifacts import file_digest

REPO_ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = REPO_ROOT / "attnlib" / "fonts"
OUTPUT_FONT = FONT_DIR / "NotoSansSC-Subset.ttf"
OUTPUT_LICENSE = FONT_DIR / "OFL.txt"

NPM_PACKAGE = "@expo-google-fonts/noto-sans-sc"  # pinned in package.json (tools/npm.py)
TC_PACKAGE = "@expo-google-fonts/noto-sans-tc"
FONT_MEMBER = "400Regular/NotoSansSC_400Regular.ttf"


@dataclass(frozen=True)
class Face:
    """One font file attnlib ships: a script ("SC" or "TC") at a weight (400 or 700)."""

    script: str
    weight: int

    @property
    def package(self) -> str:
        return NPM_PACKAGE if self.script == "SC" else TC_PACKAGE

    @property
    def member(self) -> str:
        style = "400Regular" if self.weight == 400 else "700Bold"
        return f"{style}/NotoSans{self.script}_{style}.ttf"

    @property
    def family(self) -> str:
        return f"Noto Sans {self.script}"

    @property
    def output(self) -> Path:
        return FONT_DIR / f"NotoSans{self.script}{'' if self.weight == 400 else '-Bold'}-Subset.ttf"

    @property
    def language(self) -> str:
        """The edition whose text the face is cut for (the English edition shares the SC faces)."""
        return "zh-Hans" if self.script == "SC" else "zh-Hant"


FACES = (Face("SC", 400), Face("SC", 700), Face("TC", 400), Face("TC", 700))
LICENSE_MEMBER = "LICENSE_FONT"
LICENSE_NAMES = ("LICENSE_FONT", "OFL.txt", "OFL")  # not LICENSE: that is the MIT code licence
EXPECTED_FAMILY = "Noto Sans SC"

# Inclusive code point ranges kept in addition to GB2312.
EXTRA_RANGES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # printable ASCII
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x0391, 0x03A9),  # Greek capital letters
    (0x03B1, 0x03C9),  # Greek small letters
    (0x2000, 0x206F),  # General Punctuation
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
)

# Characters the notebooks rely on; the build fails if any of these is missing.
REQUIRED_TEXT = "早上好你我他的是在注意力直觀解說綠們機權語"

# Symbols used in plot labels; kept when the source font has them.
SYMBOL_TEXT = "√·×−∞≤≥∑→←±÷≈≠∈∂∇∏∫"

# The subset ships inside the package: keep it small.
MAX_BYTES = 4_000_000

# OpenType features kept: enough for horizontal Chinese and Latin text.
LAYOUT_FEATURES = ["ccmp", "kern", "liga", "mark", "mkmk", "palt", "halt"]


def gb2312_characters() -> set[str]:
    """Return every character encoded by a valid two-byte GB2312 code.

    GB2312 (as EUC-CN) uses a lead byte and a trail byte, both in 0xA1-0xFE;
    codes that are unassigned simply fail to decode and are skipped.
    """
    chars: set[str] = set()
    for lead in range(0xA1, 0xFF):
        for trail in range(0xA1, 0xFF):
            try:
                chars.add(bytes((lead, trail)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return chars


# The text the series shows, in every edition (paths relative to the repository root).
TEXT_GLOBS = (
    "attnlib/locale/*/*.json",
    "notebooks/translations/**/*.md",
    "notebooks/translations/*.tsv",
    "notebooks/*.ipynb",
    "notebooks/*/*.ipynb",
    "data/*.json",
    "docs/glossary.md",
    "tools/*.py",  # the words the site, the slides and the navigation write around the notebooks
)


def is_cjk(char: str) -> bool:
    """CJK radicals, punctuation, kana, hanzi and full-width forms: the glyphs DejaVu Sans lacks."""
    return "\u2e80" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff" or "\ufe30" <= char <= "\uffef"


def characters_of(globs: Iterable[str], root: Path = REPO_ROOT) -> set[str]:
    """Every CJK character of the files matching ``globs`` (escaped JSON strings decoded)."""
    chars: set[str] = set()
    for pattern in globs:
        for path in sorted(root.glob(pattern)):
            text = path.read_text(encoding="utf-8")
            if path.suffix in (".json", ".ipynb"):
                text = json.dumps(json.loads(text), ensure_ascii=False)
            chars.update(ch for ch in text if is_cjk(ch))
    return chars


def text_characters(root: Path = REPO_ROOT) -> set[str]:
    """Every CJK character of the series' text files (escaped JSON strings decoded)."""
    return characters_of(TEXT_GLOBS, root)


# The text of the 繁體 edition: its notebooks (sources and stored outputs), its catalogues, the toy data.
HANT_GLOBS = (
    "notebooks/zh-Hant/*.ipynb",
    "attnlib/locale/zh-Hant/*.json",
    "docs/lecturers_guide.zh-Hant.md",
    "docs/sources.zh-Hant.md",
    "docs/glossary.md",  # a page of the 繁體 site too (tools/reference_pages.py)
    "data/zao_shang_hao.json",
    "data/green_grass.json",
)


def hant_characters(root: Path = REPO_ROOT) -> set[str]:
    """Every CJK character the 繁體 edition shows: its text, and the tiny GPT's vocabulary as the 繁體
    pages and figures show it (through ``data/tang_vocab_hant.json``, the table the live lab uses)."""
    from attnlib.gpt.text import load_poems

    table = json.loads((root / "data" / "tang_vocab_hant.json").read_text(encoding="utf-8"))["to_hant"]
    vocabulary = {table.get(ch, ch) for ch in load_poems().tokenizer.vocab}
    return characters_of(HANT_GLOBS, root) | {ch for ch in vocabulary if is_cjk(ch)}


# Bold text in Markdown and HTML: a heading, **strong**, __strong__, <b>, <strong>, <th>, <h1>-<h6>,
# and the head row of a Markdown table (the line above its |---| rule).
BOLD_MARKUP = re.compile(
    r"^ {0,3}#{1,6}[ \t]+([^\n]+)|\*\*(.+?)\*\*|__(.+?)__|<(b|strong|th|h[1-6])\b[^>]*>(.*?)</\4\s*>"
    r"|^([^\n]*\|[^\n]*)\n[ \t]*\|?[ \t]*:?-{3,}",
    re.M | re.S | re.I,
)
# The notebooks of the editions each script draws (the English pages quote 简体 tokens).
EDITION_GLOBS = {
    "SC": ("notebooks/*.ipynb", "notebooks/zh-Hans/*.ipynb"),
    "TC": ("notebooks/zh-Hant/*.ipynb",),
}
# The Markdown of docs/ the site shows as reference pages in the script's editions (tools/reference_pages.py).
REFERENCE_GLOBS = {
    "SC": ("docs/glossary.md", "docs/lecturers_guide.zh-Hans.md", "docs/sources.zh-Hans.md"),
    "TC": ("docs/glossary.md", "docs/lecturers_guide.zh-Hant.md", "docs/sources.zh-Hant.md"),
}


def bold_texts(text: str) -> list[str]:
    """The bold runs of a Markdown or HTML text."""
    return ["".join(m[k] or "" for k in (1, 2, 3, 5, 6)) for m in BOLD_MARKUP.finditer(text)]


def _joined(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def bold_characters(script: str, root: Path = REPO_ROOT) -> set[str]:
    """Every CJK character a page or a deck of the script's editions draws bold: the bold runs of the
    notebooks' Markdown and of their HTML and Markdown outputs and of the reference pages, every word of
    the site and the decks
    (``publishing.json``: titles, side titles, the going-further label), the language names (the
    current one is bold in the switch) and the title of an exercise's task card."""
    from attnlib.exercises.tasks import WORDS
    from attnlib.i18n import LANGUAGE_NAMES

    texts: list[str] = []  # Markdown and HTML, of which only the bold runs count
    for pattern in EDITION_GLOBS[script]:
        for path in sorted(root.glob(pattern)):
            for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
                if cell["cell_type"] == "markdown":
                    texts.append(_joined(cell["source"]))
                for output in cell.get("outputs", []):
                    data = output.get("data", {})
                    texts.extend(_joined(data.get(kind, "")) for kind in ("text/html", "text/markdown"))
    for pattern in REFERENCE_GLOBS[script]:
        texts.extend(path.read_text(encoding="utf-8") for path in sorted(root.glob(pattern)))
    catalogues = root / "attnlib" / "locale" / Face(script, 700).language
    publishing = json.loads((catalogues / "publishing.json").read_text(encoding="utf-8"))
    title = json.loads((catalogues / "exercises.json").read_text(encoding="utf-8")).get(WORDS["title"], "")
    whole = [*LANGUAGE_NAMES.values(), *publishing.values(), title]  # drawn bold as they are
    chars: set[str] = set()
    for run in whole + [run for text in texts for run in bold_texts(text)]:
        chars.update(ch for ch in run if is_cjk(ch))
    return chars


def wanted_codepoints(face: Face = FACES[0]) -> set[int]:
    """Return the Unicode code points the subset of ``face`` should contain.

    SC regular: GB2312, the extra ranges, the symbols and every character of every edition (it draws
    the English and 简体 figures and is the last resort of the 繁體 ones). TC regular: the extra ranges,
    the symbols and the characters of the 繁體 edition. A bold face: the CJK punctuation and full-width
    forms, and the characters its editions draw bold (the pages use a bold face only for CJK text).
    """
    if face.weight == 700:
        codepoints = {*range(0x3000, 0x3040), *range(0xFF00, 0xFFF0)}
        return codepoints | {ord(ch) for ch in bold_characters(face.script)}
    codepoints = {ord(ch) for ch in gb2312_characters()} if face.script == "SC" else set()
    for first, last in EXTRA_RANGES:
        codepoints.update(range(first, last + 1))
    codepoints.update(ord(ch) for ch in REQUIRED_TEXT + SYMBOL_TEXT)
    codepoints.update(ord(ch) for ch in (text_characters() if face.script == "SC" else hant_characters()))
    return codepoints


def find_license_near(font_path: Path) -> Path | None:
    """Look for a licence file next to a loose ``.ttf`` or one directory above it."""
    for folder in (font_path.parent, font_path.parent.parent):
        for name in LICENSE_NAMES:
            candidate = folder / name
            if candidate.is_file():
                return candidate
    return None


def resolve_inputs(source: Path | None, license_path: Path | None) -> tuple[Path, Path]:
    """Return ``(font, licence)`` paths: the pinned npm package's (installed if need be) or ``source``'s."""
    if source is None:
        try:
            package = npm.package_dir(NPM_PACKAGE, "python -m tools.make_cjk_font")
        except npm.NpmError as err:
            sys.exit(f"{err}\n(or pass --source: a NotoSansSC Regular .ttf)")
        return package / FONT_MEMBER, license_path or package / LICENSE_MEMBER
    if source.suffix.lower() not in (".ttf", ".otf"):
        sys.exit(f"--source must be a font file, got {source}")
    if license_path is None:
        license_path = find_license_near(source)
    if license_path is None:
        sys.exit(f"no licence file found next to {source}; pass --license")
    return source, license_path


def subset_options() -> subset.Options:
    """Options for a compact, reproducible subset."""
    options = subset.Options()
    options.layout_features = list(LAYOUT_FEATURES)
    options.name_IDs = ["*"]  # keep copyright, licence and URL records
    options.name_languages = [0x0409]  # English (United States) names only
    options.notdef_outline = True
    options.recalc_timestamp = False  # keep head.modified from the source font
    options.recalc_bounds = True
    return options


def build_subset(font_path: Path, output: Path, codepoints: Iterable[int]) -> None:
    """Subset ``font_path`` to ``codepoints`` and write the result to ``output``."""
    options = subset_options()
    font = TTFont(font_path, recalcTimestamp=False)
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)
    output.parent.mkdir(parents=True, exist_ok=True)
    font.save(output)
    font.close()


def cmap_of(font_path: Path) -> set[int]:
    with TTFont(font_path, lazy=True) as font:
        return set(font.getBestCmap())


def build_face(face: Face, sources: dict[Face, Path], output: Path) -> str:
    """Write the subset of ``face`` to ``output``; returns the characters taken from the SC face.

    A TC face gets the characters Noto Sans TC lacks (a Simplified character the 繁體 text quotes)
    from the SC face of the same weight, merged into the one file (same design, same em).
    """
    wanted = wanted_codepoints(face)
    if face.script == "SC":
        build_subset(sources[face], output, wanted)
        return ""
    own = cmap_of(sources[face])
    borrowed = sorted(c for c in wanted - own if c in cmap_of(sources[Face("SC", face.weight)]))
    if not borrowed:
        build_subset(sources[face], output, wanted & own)
        return ""
    with tempfile.TemporaryDirectory() as tmp:
        first, second = Path(tmp) / "tc.ttf", Path(tmp) / "sc.ttf"
        build_subset(sources[face], first, wanted & own)
        build_subset(sources[Face("SC", face.weight)], second, borrowed)
        for path in (first, second):  # tables the merger cannot combine and horizontal text never reads
            with TTFont(path, recalcTimestamp=False) as font:
                for tag in ("STAT", "BASE", "vhea", "vmtx"):
                    if tag in font:
                        del font[tag]
                font.save(path)
        merged = Merger().merge([str(first), str(second)])
        with TTFont(first, recalcTimestamp=False) as font:
            merged["head"].created, merged["head"].modified = font["head"].created, font["head"].modified
        merged.recalcTimestamp = False
        merged.save(output)
    return "".join(chr(c) for c in borrowed if is_cjk(chr(c)))


def family_name(font_path: Path) -> str:
    """Return the font's family name (name ID 1, Windows English)."""
    with TTFont(font_path) as font:
        name = font["name"].getName(1, 3, 1, 0x0409)
        return name.toUnicode() if name is not None else ""


def check_output(output: Path, source_font: Path, face: Face = FACES[0]) -> None:
    """Fail loudly if the subset lost required characters or its family name."""
    with TTFont(output) as font:
        cmap = font.getBestCmap()
    required = REQUIRED_TEXT if face.weight == 400 else ""
    if face.weight == 700:
        required = "".join(sorted(bold_characters(face.script)))
    missing = [ch for ch in required if ord(ch) not in cmap]
    if missing:
        sys.exit(f"required characters missing from the subset: {''.join(missing)}")
    if output.stat().st_size > MAX_BYTES:
        sys.exit(f"the subset is {output.stat().st_size:,} bytes, over the {MAX_BYTES:,} allowed")
    family = family_name(output)
    if family != face.family:
        sys.exit(f"unexpected family name {family!r} (expected {face.family!r})")
    if face != FACES[0]:
        return
    with TTFont(source_font) as font:
        source_cmap = font.getBestCmap()
    absent = "".join(ch for ch in SYMBOL_TEXT if ord(ch) not in source_cmap)
    if absent:
        print(f"note: the source font has no glyphs for {absent}")
    lacking = "".join(sorted(ch for ch in text_characters() if ord(ch) not in source_cmap))
    if lacking:
        print(f"note: Noto Sans SC itself has no glyphs for {lacking}")


def sha256(path: Path) -> str:
    return file_digest(path).hexdigest()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Build the CJK fonts of attnlib/fonts/ (Noto Sans SC and TC, regular and bold subsets).",
    )
    parser.add_argument(
        "--source",
        type=Path,
        help=(
            "a NotoSansSC Regular .ttf: build only the SC regular subset from it; "
            f"default: every face from the pinned npm packages {NPM_PACKAGE} and {TC_PACKAGE} (node_modules/)"
        ),
    )
    parser.add_argument(
        "--license",
        type=Path,
        help="OFL licence text to ship with the fonts (default: taken from the source package)",
    )
    parser.add_argument(
        "--output-dir",
        type=Path,
        default=FONT_DIR,
        help=f"where to write the fonts and OFL.txt (default: {FONT_DIR.relative_to(REPO_ROOT)})",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    font_path, license_path = resolve_inputs(args.source, args.license)
    if args.source is None:
        tc = npm.package_dir(TC_PACKAGE, "python -m tools.make_cjk_font")
        folders = {"SC": font_path.parents[1], "TC": tc}
        sources = {face: folders[face.script] / face.member for face in FACES}
        faces = FACES
    else:
        sources, faces = {FACES[0]: font_path}, FACES[:1]
    out_dir: Path = args.output_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    for face in faces:
        output = out_dir / face.output.name
        borrowed = build_face(face, sources, output)
        check_output(output, sources[face], face)
        with TTFont(output) as font:
            glyph_count = len(font.getGlyphOrder())
        print(f"wrote {output} ({output.stat().st_size:,} bytes, {glyph_count} glyphs); "
              f"family: {family_name(output)}; sha256: {sha256(output)}")
        if borrowed:
            print(f"  from Noto Sans SC (Noto Sans TC has no glyph): {borrowed}")

    license_dest = out_dir / OUTPUT_LICENSE.name
    shutil.copyfile(license_path, license_dest)
    print(f"wrote {license_dest}")


if __name__ == "__main__":
    main()
