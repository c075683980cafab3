"""繁體中文 (Taiwan) from 简体中文: the one edition not translated by hand (config.DERIVED).

The 简体 text goes through OpenCC ``s2twp``, then the reviewed overrides in
``notebooks/translations/zh-Hant-overrides.tsv`` (applied after the conversion, longest first, in one
pass); the ``{行}``/``{列}`` markup of a matrix row/column is resolved after that (attnlib.i18n), as 列/行.
In Markdown, code spans, formulas and HTML comments are not converted.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

from .config import REPO

# What OpenCC must not touch: fenced code, code spans, display and inline formulas, HTML comments.
PROTECTED = re.compile(r"```.*?```|`[^`\n]+`|\$\$.*?\$\$|\$[^$\n]+\$|<!--.*?-->", re.S)
# Quotation marks: 简体 “green” (‘…’ inside) becomes 「green」 (『…』) through the overrides; no space is
# left between a corner bracket and the Chinese text or punctuation next to it.
CJK = "\u3400-\u9fff\u3000-\u303f\uff01-\uff60"
QUOTE_SPACE = re.compile(f"(?<=[」』])[ ]+(?=[{CJK}])|(?<=[{CJK}])[ ]+(?=[「『])")
# The 繁體 lecturer's guide points to the 繁體 notebooks, slides and site, and names the 简体 ones as the
# others.
GUIDE_SWAP = {"zh-Hans": "zh-Hant", "zh-Hant": "zh-Hans", "繁體版": "簡體版"}


@cache
def converter():
    """OpenCC's Simplified → Traditional (Taiwan, with Taiwan phrases) converter."""
    try:
        import opencc
    except ImportError:  # pragma: no cover - the test extras install it
        sys.exit("the zh-Hant edition needs OpenCC: pip install opencc==1.4.2 (in the test extras)")
    return opencc.OpenCC("s2twp")


def read_overrides(path: Path = REPO.overrides) -> list[tuple[str, str]]:
    """The reviewed replacements (s2twp output → what we write), longest first."""
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
    """Simplified text → Taiwan Traditional: s2twp, then `overrides` (this checkout's when None); the
    {行}/{列} markup is kept for resolve_markup."""
    if overrides is None:
        overrides = read_overrides()
    return QUOTE_SPACE.sub("", _apply_overrides(converter().convert(text), overrides))


def convert_prose(text: str, overrides: list[tuple[str, str]] | None = None) -> str:
    """Markdown from zh-Hans to zh-Hant, leaving code, formulas and comments exactly as they are."""
    pieces, last = [], 0
    for match in PROTECTED.finditer(text):
        pieces.append(to_traditional(text[last : match.start()], overrides))
        pieces.append(match.group(0))
        last = match.end()
    pieces.append(to_traditional(text[last:], overrides))
    return "".join(pieces)


def guide_pointing_to_hant(text: str) -> str:
    """The converted guide with its links to the 简体 edition turned into links to the 繁體 one, and back."""
    return re.sub("|".join(GUIDE_SWAP), lambda m: GUIDE_SWAP[m.group(0)], text)
