"""Figures for the series, drawn with one convention everywhere.

- Queries are rows, top to bottom; keys are columns; tokens are the tick labels.
- Attention weights use one sequential colour map fixed to [0, 1], so any two panels compare.
- Scores (and other signed numbers) use a diverging map centred on 0; masked ``-inf`` cells are grey.
- Small matrices have their values written in the cells.

Every helper takes ``ax=None``, draws on it and returns it; nothing here calls ``plt.show()``
or touches ``rcParams`` at import. Style comes from ``use_style()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
from matplotlib import font_manager
from matplotlib.axes import Axes

__all__ = [
    "CJK_FONT",
    "KINDS",
    "heatmap",
    "register_cjk_font",
    "update_heatmap",
    "use_style",
]

CJK_FONT = Path(__file__).with_name("fonts") / "NotoSansSC-Subset.ttf"
CJK_FAMILY = "Noto Sans SC"
# DejaVu first for Latin, digits and math symbols; Noto Sans SC fills in the Chinese glyphs.
FONT_FAMILY = ["DejaVu Sans", CJK_FAMILY]

# One colour convention for the whole series.
KINDS: dict[str, dict[str, Any]] = {
    "weights": {"cmap": "rocket_r", "label": "attention weight", "fixed": (0.0, 1.0)},
    "scores": {"cmap": "vlag", "label": "score", "fixed": None},
    "values": {"cmap": "vlag", "label": "value", "fixed": None},
}
MASKED_COLOUR = "#d9d9d9"
ANNOT_GID = "attnlib-annot"
MAX_ANNOTATED = 12  # write the numbers in the cells up to this many rows and columns


def register_cjk_font() -> str:
    """Make the bundled Noto Sans SC subset known to matplotlib (idempotent); return its family."""
    if not CJK_FONT.exists():
        raise FileNotFoundError(
            f"the bundled CJK font is missing: {CJK_FONT}. Rebuild it with tools/make_cjk_font.py"
        )
    known = {Path(f.fname).resolve() for f in font_manager.fontManager.ttflist}
    if CJK_FONT.resolve() not in known:
        font_manager.fontManager.addfont(str(CJK_FONT))
    return CJK_FAMILY


class use_style:  # noqa: N801 (used like a function: `use_style()` or `with use_style():`)
    """Apply the series' look: seaborn's clean theme, readable sizes and Chinese-capable fonts.

    Call it once in a notebook's setup cell, or use it as a context manager to style a few figures
    and restore the previous settings afterwards.

    Args:
        context: "notebook" for reading, "talk" for a projector in a lecture hall.
    """

    def __init__(self, context: str = "notebook") -> None:
        if context not in ("paper", "notebook", "talk", "poster"):
            raise ValueError(f"context must be 'paper', 'notebook', 'talk' or 'poster'; got {context!r}")
        self._saved = dict(mpl.rcParams.copy())
        self._saved.pop("backend")  # restoring the backend would close open figures
        register_cjk_font()
        # set_theme resets font.family, so the family list goes in through its own argument.
        sns.set_theme(context=context, style="white", font=FONT_FAMILY)
        mpl.rcParams.update(
            {
                "font.family": FONT_FAMILY,
                "axes.unicode_minus": True,
                "figure.dpi": 100,
                "axes.titlesize": "large",
            }
        )

    def __enter__(self) -> use_style:
        return self

    def __exit__(self, *exc: object) -> None:
        # The saved values were validated when first set; restore them as they were.
        dict.update(mpl.rcParams, self._saved)


def _limits(data: np.ndarray, kind: str, vmax: float | None) -> tuple[float, float]:
    fixed = KINDS[kind]["fixed"]
    if fixed is not None:
        return fixed
    if vmax is None:
        finite = data[np.isfinite(data)]
        vmax = float(np.abs(finite).max()) if finite.size else 1.0
        vmax = vmax or 1.0
    return -vmax, vmax


def _text_colour(cmap: mpl.colors.Colormap, norm: mpl.colors.Normalize, value: float) -> str:
    """Black or white, whichever reads better on the cell colour (relative luminance)."""
    r, g, b, _ = cmap(norm(value))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "black" if luminance > 0.5 else "white"


def _format(value: float, fmt: str) -> str:
    if np.isneginf(value):
        return "−∞"
    text = format(value + 0.0, fmt)  # + 0.0 turns -0.0 into 0.0
    return text.replace("-", "−")


def heatmap(
    matrix: Any,
    rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None,
    *,
    kind: str = "weights",
    ax: Axes | None = None,
    annot: bool | None = None,
    fmt: str = ".2f",
    title: str | None = None,
    vmax: float | None = None,
    cbar: bool = True,
    xlabel: str = "key",
    ylabel: str = "query",
) -> Axes:
    """Draw a matrix as a labelled heatmap in the series' convention.

    Args:
        matrix: the numbers; ``-inf`` entries (masked scores) are drawn grey and written "−∞".
        rows, cols: tick labels (tokens); default 0, 1, 2, ...
        kind: "weights" (fixed [0, 1] sequential scale), "scores" or "values" (diverging, centred
            on 0, symmetric limits ``±vmax``, by default the largest finite magnitude).
        annot: write the values in the cells; default: when both sides have at most 12 entries.

    Shapes:
        matrix (n_rows, n_cols), rows (n_rows,), cols (n_cols,)

    Returns:
        The axes, whose cell texts ``update_heatmap`` can later rewrite in place.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {sorted(KINDS)}; got {kind!r}")
    data = np.asarray(matrix, dtype=float)
    if data.ndim != 2:
        raise ValueError(f"matrix must have shape (n_rows, n_cols); got shape {data.shape}")
    n_rows, n_cols = data.shape
    for labels, n, name in ((rows, n_rows, "rows"), (cols, n_cols, "cols")):
        if labels is not None and len(labels) != n:
            raise ValueError(f"{name} has {len(labels)} labels but the matrix has {n} {name}")
    if ax is None:
        _, ax = plt.subplots(figsize=(1.8 + 0.7 * n_cols, 1.0 + 0.6 * n_rows))
    spec = KINDS[kind]
    lo, hi = _limits(data, kind, vmax)  # symmetric for signed kinds: 0 sits at the centre colour
    masked = ~np.isfinite(data)
    sns.heatmap(
        np.where(masked, np.nan, data),
        ax=ax,
        cmap=spec["cmap"],
        vmin=lo,
        vmax=hi,
        annot=False,
        cbar=cbar,
        cbar_kws={"label": spec["label"]} if cbar else None,
        xticklabels=list(cols) if cols is not None else True,
        yticklabels=list(rows) if rows is not None else True,
        linewidths=0.5,
        linecolor="white",
        square=False,
    )
    ax.set_facecolor(MASKED_COLOUR)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.tick_params(axis="y", rotation=0)
    ax.tick_params(axis="x", rotation=0)
    if title:
        ax.set_title(title)
    if annot if annot is not None else max(n_rows, n_cols) <= MAX_ANNOTATED:
        size = "small" if max(n_rows, n_cols) > 6 else "medium"
        for i in range(n_rows):
            for j in range(n_cols):
                ax.text(j + 0.5, i + 0.5, "", ha="center", va="center", fontsize=size, gid=ANNOT_GID)
        _write_cells(ax, data, fmt)
    return ax


def _write_cells(ax: Axes, data: np.ndarray, fmt: str) -> None:
    texts = [t for t in ax.texts if t.get_gid() == ANNOT_GID]
    if not texts:
        return
    mesh = ax.collections[0]
    for text, value in zip(texts, data.ravel(), strict=True):
        text.set_text(_format(value, fmt))
        colour = "#555555" if not np.isfinite(value) else _text_colour(mesh.cmap, mesh.norm, value)
        text.set_color(colour)


def update_heatmap(ax: Axes, matrix: Any, *, fmt: str = ".2f") -> Axes:
    """Show new numbers in a heatmap drawn by ``heatmap``, reusing its artists (fast redraws).

    The shape must stay the same; colour limits stay as first drawn (fixed [0, 1] for weights).

    Shapes:
        matrix (n_rows, n_cols), as first drawn
    """
    data = np.asarray(matrix, dtype=float)
    mesh = ax.collections[0]
    n_cells = mesh.get_array().size
    if data.size != n_cells:
        raise ValueError(
            f"matrix must keep the shape first drawn ({n_cells} cells); got shape {data.shape}. "
            "Draw a new heatmap when the number of tokens changes."
        )
    mesh.set_array(np.ma.masked_invalid(np.where(np.isfinite(data), data, np.nan)).ravel())
    _write_cells(ax, data, fmt)
    return ax


# ---- Notebooks 01-03: vectors, softmax, weighted sums ------------------------------------------
__all__ += []


# ---- Notebooks 04-07: Q/K/V, the d_k lab, the mask lab, the whole formula ---------------------
__all__ += []
