"""Build the small Chinese font that ships inside ``attnlib``.

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

How to rebuild
--------------
From the repository root, with fonttools installed (``pip install fonttools``)
and ``npm`` on the PATH::

    python -m tools.make_cjk_font

This reads ``NotoSansSC_400Regular.ttf`` and ``LICENSE_FONT`` from the pinned
``@expo-google-fonts/noto-sans-sc`` package (package.json; installed by ``npm ci``
into ``node_modules/`` by ``tools/npm.py`` when it is not there), and writes
``attnlib/fonts/NotoSansSC-Subset.ttf`` and ``attnlib/fonts/OFL.txt``. Use
``--source`` to build from a ``.ttf`` you already have. The output is
deterministic: the ``head.modified`` timestamp of the source font is kept, so
rebuilding from the same source and text gives the same bytes. Once the
package is installed a rebuild takes a few seconds.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from . import npm
from .artifacts import file_digest

REPO_ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = REPO_ROOT / "attnlib" / "fonts"
OUTPUT_FONT = FONT_DIR / "NotoSansSC-Subset.ttf"
OUTPUT_LICENSE = FONT_DIR / "OFL.txt"

NPM_PACKAGE = "@expo-google-fonts/noto-sans-sc"  # pinned in package.json (tools/npm.py)
FONT_MEMBER = "400Regular/NotoSansSC_400Regular.ttf"
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


def text_characters(root: Path = REPO_ROOT) -> set[str]:
    """Every CJK character of the series' text files (escaped JSON strings decoded)."""
    import json

    chars: set[str] = set()
    for pattern in TEXT_GLOBS:
        for path in sorted(root.glob(pattern)):
            text = path.read_text(encoding="utf-8")
            if path.suffix in (".json", ".ipynb"):
                text = json.dumps(json.loads(text), ensure_ascii=False)
            chars.update(ch for ch in text if is_cjk(ch))
    return chars


def wanted_codepoints() -> set[int]:
    """Return the Unicode code points the subset should contain."""
    codepoints = {ord(ch) for ch in gb2312_characters()}
    for first, last in EXTRA_RANGES:
        codepoints.update(range(first, last + 1))
    codepoints.update(ord(ch) for ch in REQUIRED_TEXT + SYMBOL_TEXT)
    codepoints.update(ord(ch) for ch in text_characters())
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


def family_name(font_path: Path) -> str:
    """Return the font's family name (name ID 1, Windows English)."""
    with TTFont(font_path) as font:
        name = font["name"].getName(1, 3, 1, 0x0409)
        return name.toUnicode() if name is not None else ""


def check_output(output: Path, source_font: Path) -> None:
    """Fail loudly if the subset lost required characters or its family name."""
    with TTFont(output) as font:
        cmap = font.getBestCmap()
    missing = [ch for ch in REQUIRED_TEXT if ord(ch) not in cmap]
    if missing:
        sys.exit(f"required characters missing from the subset: {''.join(missing)}")
    if output.stat().st_size > MAX_BYTES:
        sys.exit(f"the subset is {output.stat().st_size:,} bytes, over the {MAX_BYTES:,} allowed")
    family = family_name(output)
    if family != EXPECTED_FAMILY:
        sys.exit(f"unexpected family name {family!r} (expected {EXPECTED_FAMILY!r})")

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
        description="Build attnlib/fonts/NotoSansSC-Subset.ttf from Noto Sans SC Regular.",
    )
    parser.add_argument(
        "--source",
        type=Path,
        help=(
            "a NotoSansSC Regular .ttf; "
            f"default: the one in the pinned npm package {NPM_PACKAGE} (node_modules/)"
        ),
    )
    parser.add_argument(
        "--license",
        type=Path,
        help="OFL licence text to ship with the font (default: taken from the source package)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=OUTPUT_FONT,
        help=f"where to write the subset font (default: {OUTPUT_FONT.relative_to(REPO_ROOT)})",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    font_path, license_path = resolve_inputs(args.source, args.license)
    output: Path = args.output

    codepoints = wanted_codepoints()
    build_subset(font_path, output, codepoints)
    check_output(output, font_path)

    license_dest = output.parent / OUTPUT_LICENSE.name
    shutil.copyfile(license_path, license_dest)

    with TTFont(output) as font:
        glyph_count = len(font.getGlyphOrder())
    print(f"wrote {output} ({output.stat().st_size:,} bytes, {glyph_count} glyphs)")
    print(f"family: {family_name(output)}; sha256: {sha256(output)}")
    print(f"wrote {license_dest}")


if __name__ == "__main__":
    main()
