"""The look every figure shares: fonts, colours, the figure factory, numbers.

- ``use_style()``: seaborn's clean theme, readable sizes, and fonts that write Chinese.
- One colour convention: ``KINDS`` (weights on a fixed [0, 1] map, signed numbers on a diverging
  map centred on 0), one colour per token (``token_colour``), grey for masked cells.
- ``new_figure``: the one figure factory (outside pyplot, on its own Agg canvas); ``figure_png``, the
  one way a figure becomes a PNG (a notebook's inline figures and the labs' snapshots), notes in it
  the size of its smallest text (``TEXT_SIZE_KEY``) so a test can check what a reader sees.
- ``number``: the one number formatter, used by every figure and every lab (``kit.js`` mirrors it).
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import matplotlib as mpl
import numpy as np
import seaborn as sns
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure

from ..checks import check_choice, refuse
from ..i18n import N_, tr
from ..i18n import language as current_language

FONTS = Path(__file__).resolve().parents[1] / "fonts"
CJK_FONT = FONTS / "NotoSansSC-Subset.ttf"  # Simplified shapes: the English and 简体 editions
CJK_FAMILY = "Noto Sans SC"
HANT_FONT = FONTS / "NotoSansTC-Subset.ttf"  # Traditional shapes: the 繁體 edition
HANT_FAMILY = "Noto Sans TC"
# DejaVu first for Latin, digits and math symbols; Noto Sans SC fills in the Chinese glyphs.
FONT_FAMILY = ["DejaVu Sans", CJK_FAMILY]
# The 繁體 edition: Noto Sans TC draws the Chinese; the SC face only what the TC subset lacks.
HANT_FONT_FAMILY = ["DejaVu Sans", HANT_FAMILY, CJK_FAMILY]


def font_family(language: str | None = None) -> list[str]:
    """The font families figures use in ``language`` (default: the current one): Traditional glyph
    shapes for zh-Hant, Simplified ones otherwise."""
    return list(HANT_FONT_FAMILY if (language or current_language()) == "zh-Hant" else FONT_FAMILY)


def cjk_font(language: str | None = None) -> Path:
    """The bundled CJK font file for ``language`` (default: the current one)."""
    return HANT_FONT if (language or current_language()) == "zh-Hant" else CJK_FONT

# One colour convention for the whole series; the labels are translated where they are drawn.
KINDS: dict[str, dict[str, Any]] = {
    "weights": {"cmap": "rocket_r", "label": N_("attention weight"), "fixed": (0.0, 1.0)},
    "scores": {"cmap": "vlag", "label": N_("score"), "fixed": None},
    "values": {"cmap": "vlag", "label": N_("value"), "fixed": None},
}
MASKED_COLOUR = "#d9d9d9"
TOKEN_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860")
RAW_COLOUR = "#dd8452"  # unscaled scores q·k
SCALED_COLOUR = "#4c72b0"  # scaled scores q·k/√d_k


def register_cjk_font() -> str:
    """Make the bundled Noto Sans SC and TC subsets known to matplotlib (idempotent).

    Returns
    -------
    str
        The family name of the face that draws the current language's Chinese.
    """
    known = {Path(f.fname).resolve() for f in font_manager.fontManager.ttflist}
    for path in (CJK_FONT, HANT_FONT):
        if not path.exists():
            refuse(FileNotFoundError, N_("the bundled CJK font is missing: {path}. Rebuild it with "
                                         "tools/make_cjk_font.py"), path=path)
        if path.resolve() not in known:
            font_manager.fontManager.addfont(str(path))
    return font_family()[1]


class use_style:  # noqa: N801 (used like a function: `use_style()` or `with use_style():`)
    """Apply the series' look: seaborn's clean theme, readable sizes and Chinese-capable fonts.

    Call it once in a notebook's setup cell, or use it as a context manager to style a few figures
    and restore the previous settings afterwards. The Chinese is drawn with the bundled Noto Sans TC
    (Traditional glyph shapes) while the language is zh-Hant, else with Noto Sans SC: call it after
    ``attnlib.set_language``.

    Parameters
    ----------
    context : {"paper", "notebook", "talk", "poster"}
        "notebook" for reading, "talk" for a projector in a lecture hall.

    Taught in: 00 §2
    """

    def __init__(self, context: str = "notebook") -> None:
        if context not in ("paper", "notebook", "talk", "poster"):
            check_choice(context, "context", ("paper", "notebook", "talk", "poster"))
        self._saved = dict(mpl.rcParams.copy())
        self._saved.pop("backend")  # restoring the backend would close open figures
        register_cjk_font()
        family = font_family()  # Traditional glyph shapes while the language is zh-Hant
        # set_theme resets font.family, so the family list goes in through its own argument.
        sns.set_theme(context=context, style="white", font=family)
        mpl.rcParams.update(
            {
                "font.family": family,
                "axes.unicode_minus": True,
                "figure.dpi": 100,
                "axes.titlesize": "large",
            }
        )
        _sharp_inline_figures()

    def __enter__(self) -> use_style:
        return self

    def __exit__(self, *exc: object) -> None:
        # The saved values were validated when first set; restore them as they were.
        dict.update(mpl.rcParams, self._saved)


def _sharp_inline_figures() -> None:
    """In a notebook, show figures as PNG at twice their pixels, with their size on the page unchanged,
    each carrying the size of its smallest text (``figure_png``), so a test can check it stays legible.

    A high-density screen (and the site or a deck on one) then draws them as sharp as the labs beside
    them. PNG rather than SVG: a heatmap with its number in every cell is a smaller PNG, and nbval
    compares an SVG's text, whose coordinates carry the last digits of the machine's arithmetic.
    """
    from IPython import get_ipython  # only where a notebook runs; `import attnlib` stays numpy-only

    shell = get_ipython()
    if shell is not None:
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("retina")  # the other formats off, as before
        shell.display_formatter.formatters["image/png"].for_type(Figure, shown_png)


def shown_png(fig: Figure) -> tuple[bytes, dict[str, int]] | None:
    """How a notebook shows ``fig``: a PNG at twice its pixels, cropped to what is drawn, with the
    size it takes on the page (half its pixels) as the output's metadata. None for an empty figure."""
    if not fig.axes and not fig.lines:
        return None
    png = figure_png(fig, dpi=2 * fig.dpi, bbox_inches="tight")
    width, height = _png_size(png)
    return png, {"width": width // 2, "height": height // 2}


def _png_size(png: bytes) -> tuple[int, int]:
    """The pixel width and height written in a PNG's header."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def new_figure(figsize: tuple[float, float], dpi: float | None = None) -> Figure:
    """A figure outside pyplot (so no notebook shows it by itself), on its own Agg canvas.

    The one figure factory of attnlib: the labs' snapshots and the multi-panel figures use it.
    """
    fig = Figure(figsize=figsize, dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


# The key of the PNG text chunk where ``figure_png`` writes the size of the figure's smallest text.
TEXT_SIZE_KEY = "attnlib:smallest-text-pt"


def figure_png(fig: Figure, dpi: float | None = None, **savefig: Any) -> bytes:
    """The figure as PNG bytes, with the size in points of its smallest drawn text in a text chunk
    (``TEXT_SIZE_KEY``; PIL reads it as ``Image.open(...).text``) beside the PNG's own dpi.

    From those two and the width the page gives the picture, a test knows how many pixels tall the
    smallest text is where the reader sees it.
    """
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    sizes = drawn_text_sizes(fig)
    metadata = {TEXT_SIZE_KEY: f"{min(sizes):g}"} if sizes else {}
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata=metadata, **savefig)
    return buffer.getvalue()


class _TextSizes(RendererAgg):
    """A renderer that lays the figure out as Agg does and notes the size of every text it would
    draw, drawing none of them."""

    def __init__(self, fig: Figure) -> None:
        width, height = fig.get_size_inches() * fig.dpi
        super().__init__(int(width), int(height), fig.dpi)
        self.sizes: list[float] = []

    def draw_text(self, gc: Any, x: float, y: float, s: str, prop: Any, angle: float,
                  ismath: Any = False, mtext: Any = None) -> None:
        if s.strip():
            self.sizes.append(float(prop.get_size_in_points()))


def drawn_text_sizes(fig: Figure) -> list[float]:
    """The size in points of every non-blank text the figure draws (tick labels out of view, hidden
    texts and empty titles are not drawn, so not counted)."""
    renderer = _TextSizes(fig)
    fig.draw(renderer)
    return renderer.sizes


# The site's content column on a 1280 px screen (``tools/templates/site.css``; a test checks the two
# agree): a figure wider than it is shown scaled down to it, its texts with it.
COLUMN_PX = 920
SMALLEST_TEXT_PX = 9.0  # the smallest text a figure may show, in px where the reader sees it


def legible_points(fig: Figure) -> float:
    """The smallest font size, in points, at which a text of ``fig`` is still ``SMALLEST_TEXT_PX`` tall
    where the site shows the figure: at its own size up to ``COLUMN_PX`` wide, scaled down beyond."""
    width_px = fig.get_figwidth() * fig.dpi
    return SMALLEST_TEXT_PX * 72 / fig.dpi * max(1.0, width_px / COLUMN_PX)


def text_size(fig: Figure, size: str | float = "small") -> float:
    """``size`` (a point size, or a name such as "small" relative to the style's font size), raised to
    ``legible_points(fig)`` if smaller: the size of every secondary text a figure writes."""
    points = font_manager.FontProperties(size=size).get_size_in_points()
    return max(points, legible_points(fig))


def legible_ticks(ax: Any) -> None:
    """Raise the tick labels of ``ax`` to ``legible_points`` of its figure where the style's size is
    smaller (a wide figure the page scales down)."""
    for axis in ("x", "y"):
        ax.tick_params(axis=axis, labelsize=text_size(ax.figure, mpl.rcParams[f"{axis}tick.labelsize"]))


def token_colour(i: int) -> str:
    """The colour of token ``i`` in every vector picture and lab (same token, same colour).
    """
    return TOKEN_COLOURS[i % len(TOKEN_COLOURS)]


def colour_map(kind: str) -> mpl.colors.Colormap:
    """The colour map of ``kind`` ("weights", "scores" or "values").
    """
    if kind not in KINDS:
        check_choice(kind, "kind", sorted(KINDS))
    return sns.color_palette(KINDS[kind]["cmap"], as_cmap=True)


def kind_label(kind: str) -> str:
    """The colour-bar label of ``kind`` in the current language ("attention weight", "score", ...).
    """
    return tr(KINDS[kind]["label"])


def text_colour(cmap: mpl.colors.Colormap, norm: mpl.colors.Normalize, value: Any) -> Any:
    """Black or white, whichever reads better on the cell colour (relative luminance).

    ``value`` may be one number (returns a str) or an array (returns an array of str).
    """
    r, g, b, _ = np.moveaxis(np.asarray(cmap(norm(value))), -1, 0)
    light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5
    words = np.where(light, "black", "white")
    return str(words) if words.ndim == 0 else words


# ---- numbers as every figure and lab prints them ----------------------------------------------------
_FIXED = re.compile(r"\.(\d+)f")


def number(x: float, digits: int) -> str:
    """``x`` rounded to ``digits`` decimals as Python's ``format`` rounds (ties to the even digit),
    with a real minus sign, never "−0.00" (a number that rounds to zero is "0.00"); −∞ is "−∞".

    The page kit (``attnlib/page/kit.js``) has the same function, ``number``; a test runs both on the same
    numbers.

    Examples
    --------
    >>> number(-0.001, 2), number(0.125, 2), number(-1.5, 1)
    ('0.00', '0.12', '−1.5')
    """
    x = float(x)
    if np.isneginf(x):
        return "−∞"
    text = format(x, f".{digits}f")
    if float(text) == 0:
        text = format(0.0, f".{digits}f")
    return text.replace("-", "−")


def digits_of(fmt: str) -> int:
    """The number of decimals of a fixed-point format such as ``".2f"``.
    """
    found = _FIXED.fullmatch(fmt)
    if not found:
        refuse(ValueError, N_("fmt must be a fixed-point format such as '.2f'; got {fmt!r}"), fmt=fmt)
    return int(found[1])
