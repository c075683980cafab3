"""The fonts a page module draws with: the faces of ``attnlib.plot``, cut down to the characters it writes."""

from __future__ import annotations

import base64
import hashlib
import io
import logging
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import matplotlib as mpl
from fontTools import subset
from fontTools.ttLib import TTFont

from ..plot import cjk_font

# Always in the Latin subset, whatever a module writes: printable ASCII and the symbols of the formulas.
LATIN = "".join(chr(c) for c in range(32, 127)) + "θ·√−∞°×‖ᵀₖσ≤≥…"


@cache
def _font(path: str, characters: str) -> str:
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # it reports every table it drops

    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    buffer = io.BytesIO()
    with TTFont(path, lazy=True) as font:
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=characters)
        subsetter.subset(font)
        font.save(buffer)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def fonts_for(texts: Sequence[str]) -> list[dict[str, str]]:
    """The two faces of ``attnlib.plot`` (DejaVu Sans, then the Noto Sans of the current language's
    script for Chinese: SC, or TC for 繁體), cut down to the characters a page module writes, as base64
    WOFF for the page (both fonts allow this: Bitstream Vera licence and SIL OFL 1.1).

    ``texts`` must hold every text the module writes, translations included (a lab or a quiz is built
    in the language it shows).

    Serves: the labs and the quiz, in JupyterLab and on the static pages.
    """
    used = "".join(sorted(set("".join(texts)) - set(LATIN) - {"\n"}))
    dejavu = Path(mpl.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    # Each subset gets a family name of its own: two faces of one family with different subsets (two
    # labs on a page, or a lab on the site, whose pages have the whole CJK font) hide each other's glyphs.
    tag = hashlib.sha256(used.encode("utf-8")).hexdigest()[:8]
    faces = [{"role": "sans", "family": f"Attn Lab Sans {tag}", "woff": _font(str(dejavu), LATIN + used)}]
    cjk = "".join(c for c in used if ord(c) >= 0x2E80)
    if cjk:
        faces.append({"role": "cjk", "family": f"Attn Lab CJK {tag}", "woff": _font(str(cjk_font()), cjk)})
    return faces
