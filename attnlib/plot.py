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
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .core import convex_hull_2d, histogram_heights, inside_convex_hull, score_bins  # moved to core

__all__ = [
    "CJK_FONT",
    "KINDS",
    "figure_png",
    "heatmap",
    "new_figure",
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


def new_figure(figsize: tuple[float, float], dpi: float | None = None) -> Figure:
    """A figure outside pyplot (so no notebook shows it by itself), on its own Agg canvas."""
    fig = Figure(figsize=figsize, dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


def figure_png(fig: Figure, dpi: float | None = None) -> bytes:
    """The figure as PNG bytes."""
    import io

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


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
    values = data.ravel()
    finite = np.isfinite(values)
    # One colour-map call for all cells: per-cell calls were most of a lab's redraw time.
    r, g, b, _ = mesh.cmap(mesh.norm(np.where(finite, values, 0.0))).T
    light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5  # the rule of _text_colour, vectorised
    for text, value, ok, on_light in zip(texts, values, finite, light, strict=True):
        text.set_text(_format(value, fmt))
        text.set_color("#555555" if not ok else ("black" if on_light else "white"))


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
TOKEN_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860")
_DOT_GID = "attnlib-dot"
_BAR_GID = "attnlib-bar"
_HULL_LINK = "attnlib-hull-link"
_HULL_RING = "attnlib-hull-ring"
_ENTROPY_GID = "attnlib-entropy-mark"
_ENTROPY_ROW = "attnlib-entropy-row"


def token_colour(i: int) -> str:
    """The colour of token ``i`` in the vector pictures of notebooks 01-03 (same token, same colour)."""
    return TOKEN_COLOURS[i % len(TOKEN_COLOURS)]


def _vector_2d(v: Any, name: str) -> np.ndarray:
    arr = np.asarray(v, dtype=float)
    if arr.shape != (2,) or not np.isfinite(arr).all():
        raise ValueError(f"{name} must be a finite 2-D vector of shape (2,); got {arr.shape} {arr.tolist()}")
    return arr


def _dot_geometry(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """Numbers and points of the picture: angle, arc, foot of the perpendicular from a onto b's line."""
    len_a, len_b = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if len_a == 0 or len_b == 0:
        raise ValueError("a and b must be non-zero: a zero vector has no direction, hence no angle")
    dot = float(a @ b)
    cos = float(np.clip(dot / (len_a * len_b), -1.0, 1.0))
    unit_b = b / len_b
    start = np.arctan2(b[1], b[0])
    turn = np.arccos(cos) * (1.0 if b[0] * a[1] - b[1] * a[0] >= 0 else -1.0)
    t = np.linspace(start, start + turn, 40)
    radius = 0.3 * min(len_a, len_b, 1.5)
    # θ sits inside the arc; a narrow angle has no room there, so θ goes just past the outer arrow
    label_at = start + turn / 2 if abs(turn) > 0.35 else start + turn + (0.3 if turn >= 0 else -0.3)
    return {
        "dot": dot,
        "cos": cos,
        "angle_deg": float(np.degrees(np.arccos(cos))),
        "proj": dot / len_b,
        "foot": (dot / len_b) * unit_b,
        "unit_b": unit_b,
        "arc": radius * np.stack([np.cos(t), np.sin(t)]),
        "arc_label": 1.9 * radius * np.array([np.cos(label_at), np.sin(label_at)]),
        "len_a": len_a,
        "len_b": len_b,
    }


def _dot_artists(ax: Axes) -> dict[str, Any]:
    found = {a.get_label(): a for a in (*ax.lines, *ax.texts, *ax.patches) if a.get_gid() == _DOT_GID}
    if len(found) < 10:
        raise ValueError("ax holds no picture drawn by dot_product_picture")
    return found


def dot_product_picture(
    a: Any,
    b: Any,
    *,
    ax: Axes | None = None,
    lim: float = 3.3,
    xlim: tuple[float, float] | None = None,
    ylim: tuple[float, float] | None = None,
    names: tuple[str, str] = ("a", "b"),
) -> Axes:
    """Two 2-D vectors from the origin, the angle θ between them and the projection of a onto b.

    The green segment along b's line is the projection of a onto b, of signed length
    ``a·b / |b| = |a| cos θ``; it points backwards when θ > 90°. The title spells out
    ``a·b = |a| |b| cos θ`` with the numbers.

    Args:
        lim: the axes run from -lim to lim, unless ``xlim`` or ``ylim`` say otherwise.
        names: the labels of the two vectors, used in the picture and the title.

    Shapes:
        a (2,), b (2,)

    Returns:
        The axes, whose artists ``update_dot_product_picture`` moves for a new pair of vectors.
    """
    a, b = _vector_2d(a, "a"), _vector_2d(b, "b")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.2, 5.2))
    grey = "#9a9a9a"
    ax.axhline(0, color="#e3e3e3", lw=1, zorder=0)
    ax.axvline(0, color="#e3e3e3", lw=1, zorder=0)
    style = {"gid": _DOT_GID}
    ax.plot([], [], ls=":", color=grey, lw=1.2, label="line_b", **style)
    ax.plot([], [], ls="--", color=grey, lw=1.2, label="drop", **style)
    ax.plot([], [], color="#2a9d54", lw=5, alpha=0.75, solid_capstyle="butt", label="proj", **style)
    ax.plot([], [], color="#444444", lw=1.2, label="arc", **style)
    for key, colour in (("a", token_colour(0)), ("b", token_colour(1))):
        arrow = mpl.patches.FancyArrowPatch(
            (0, 0), (1, 0), arrowstyle="-|>", mutation_scale=18, lw=2.5, color=colour, label=key, **style
        )
        ax.add_patch(arrow)
    texts = {
        "name_a": (names[0], token_colour(0)),
        "name_b": (names[1], token_colour(1)),
        "theta": ("θ", "#444444"),
        "proj_text": ("", "#2a9d54"),
    }
    for key, (text, colour) in texts.items():
        ax.text(0, 0, text, color=colour, ha="center", va="center", fontsize="large", label=key, **style)
    ax.set_xlim(*(xlim or (-lim, lim)))
    ax.set_ylim(*(ylim or (-lim, lim)))
    ax.set_aspect("equal")
    ax.set_xlabel("feature 1")
    ax.set_ylabel("feature 2")
    return update_dot_product_picture(ax, a, b)


def update_dot_product_picture(ax: Axes, a: Any, b: Any) -> Axes:
    """Move the artists of ``dot_product_picture`` to a new pair of vectors (fast redraws).

    Shapes:
        a (2,), b (2,)
    """
    a, b = _vector_2d(a, "a"), _vector_2d(b, "b")
    g = _dot_geometry(a, b)
    art = _dot_artists(ax)
    lim = max(abs(v) for v in (*ax.get_xlim(), *ax.get_ylim()))
    far = 2 * lim * g["unit_b"]
    art["line_b"].set_data([-far[0], far[0]], [-far[1], far[1]])
    art["drop"].set_data([a[0], g["foot"][0]], [a[1], g["foot"][1]])
    art["proj"].set_data([0, g["foot"][0]], [0, g["foot"][1]])
    art["arc"].set_data(*g["arc"])
    art["a"].set_positions((0, 0), tuple(a))
    art["b"].set_positions((0, 0), tuple(b))
    for key, v in (("name_a", a), ("name_b", b)):
        art[key].set_position(tuple(v + 0.28 * v / np.linalg.norm(v)))
    art["theta"].set_position(tuple(g["arc_label"]))
    normal = np.array([-g["unit_b"][1], g["unit_b"][0]])
    side = -1.0 if normal @ a >= 0 else 1.0  # write the projection on the side away from a
    art["proj_text"].set_position(tuple(g["foot"] / 2 + side * 0.35 * normal))
    na, nb = art["name_a"].get_text(), art["name_b"].get_text()
    art["proj_text"].set_text(f"|{na}| cos θ = " + _format(g["proj"], ".2f"))
    ax.set_title(
        f"{na}·{nb} = |{na}| |{nb}| cos θ = {g['len_a']:.2f} × {g['len_b']:.2f} × {_format(g['cos'], '.3f')}"
        f" = {_format(g['dot'], '.2f')}",
        fontsize="medium",
    )
    return ax


def weight_bars(
    weights: Any,
    tokens: Sequence[str],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str = "key",
) -> Axes:
    """One row of attention weights as bars on the fixed [0, 1] scale, coloured like the heatmaps.

    The largest weight is outlined in black and every bar has its value written above it.

    Shapes:
        weights (T,), tokens (T,)

    Returns:
        The axes, whose bars ``update_weight_bars`` resizes for new weights.
    """
    w = np.asarray(weights, dtype=float)
    if w.ndim != 1 or len(tokens) != w.size:
        raise ValueError(
            f"weights must have shape (T,) with one token label each; got {w.shape} and {len(tokens)} labels"
        )
    if ax is None:
        _, ax = plt.subplots(figsize=(1.2 + 0.9 * w.size, 3.4))
    x = np.arange(w.size)
    ax.bar(x, np.zeros_like(w), width=0.65, linewidth=2.0, gid=_BAR_GID)
    for i in x:
        ax.text(i, 0, "", ha="center", va="bottom", gid=_BAR_GID)
    ax.set_xticks(x, list(tokens))
    ax.set_ylim(0, 1.12)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(KINDS["weights"]["label"])
    ax.axhline(1.0, color="#cccccc", lw=0.8, zorder=0)
    return update_weight_bars(ax, w, title=title)


def update_weight_bars(ax: Axes, weights: Any, *, title: str | None = None) -> Axes:
    """Resize the bars of ``weight_bars`` (and recolour them, and rewrite their numbers).

    Shapes:
        weights (T,), as first drawn
    """
    w = np.asarray(weights, dtype=float)
    bars = [p for p in ax.patches if p.get_gid() == _BAR_GID]
    if w.shape != (len(bars),):
        raise ValueError(f"weights must keep the shape first drawn, ({len(bars)},); got {w.shape}")
    cmap = sns.color_palette(KINDS["weights"]["cmap"], as_cmap=True)
    top = np.isclose(w, w.max(), rtol=0, atol=1e-9)  # outline every bar that shares the top weight
    texts = [t for t in ax.texts if t.get_gid() == _BAR_GID]
    for i, (bar, text, value) in enumerate(zip(bars, texts, w, strict=True)):
        bar.set_height(value)
        bar.set_facecolor(cmap(float(value)))
        bar.set_edgecolor("black" if top[i] else "none")
        text.set_y(value + 0.015)
        text.set_text(_format(value, ".3f"))
    if title is not None:
        ax.set_title(title, fontsize="medium")
    return ax


def entropy_curves(
    scores: Any,
    tokens: Sequence[str],
    *,
    scales: Any,
    ax: Axes | None = None,
    highlight: int = 0,
    mark: float | None = None,
) -> Axes:
    """Entropy of each row of ``softmax(β · scores)`` as the scale β grows: from uniform to peaked.

    The dashed line is the entropy of uniform weights, log T; a row whose largest score is shared
    by k tokens levels off at log k instead of 0. ``mark`` draws a vertical line at one scale.

    Shapes:
        scores (T, T), tokens (T,), scales (n,)

    Returns:
        The axes; ``update_entropy_curves`` moves the marker and the highlighted row.
    """
    scores = np.asarray(scores, dtype=float)
    s = np.asarray(scales, dtype=float)
    if scores.ndim != 2 or scores.shape[0] != len(tokens):
        raise ValueError(
            f"scores must have shape (T, T_k), one row per token; got {scores.shape}, {len(tokens)} tokens"
        )
    if s.ndim != 1 or s.size < 2:
        raise ValueError(f"scales must have shape (n,) with n >= 2; got {s.shape}")
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.4))
    from .core import entropy, softmax

    h = entropy(softmax(s[:, None, None] * scores[None], axis=-1))  # (n, T): one curve per row
    for i, token in enumerate(tokens):
        ax.plot(s, h[:, i], color=token_colour(i), lw=1.5, label=f"row {token}", gid=_ENTROPY_ROW)
    n_keys = scores.shape[1]
    ax.axhline(np.log(n_keys), color="#888888", ls="--", lw=1, label=f"uniform: log {n_keys}")
    ax.axvline(s[0], color="#333333", lw=1, gid=_ENTROPY_GID)
    ax.plot([], [], "o", ms=7, mec="black", gid=_ENTROPY_GID)
    ax.set_xlim(s[0], s[-1])
    ax.set_ylim(0, 1.5 * np.log(n_keys))
    ax.set_xlabel("scale β")
    ax.set_ylabel("entropy of the row (nats)")
    ax.legend(loc="upper right", ncols=2, fontsize="small", frameon=False)
    return update_entropy_curves(ax, highlight=highlight, mark=s[0] if mark is None else mark)


def update_entropy_curves(ax: Axes, *, highlight: int, mark: float) -> Axes:
    """Move the vertical marker of ``entropy_curves`` to scale ``mark`` and dot the highlighted row."""
    curves = [line for line in ax.lines if line.get_gid() == _ENTROPY_ROW]
    if not 0 <= highlight < len(curves):
        raise ValueError(f"highlight must be a row index in 0..{len(curves) - 1}; got {highlight}")
    vline, dot = (a for a in ax.lines if a.get_gid() == _ENTROPY_GID)
    vline.set_xdata([mark, mark])
    x, y = curves[highlight].get_data()
    dot.set_data([mark], [np.interp(mark, x, y)])
    dot.set_markerfacecolor(curves[highlight].get_color())
    for i, line in enumerate(curves):
        line.set_linewidth(3.0 if i == highlight else 1.2)
        line.set_alpha(1.0 if i == highlight else 0.55)
    return ax


def contribution_bars(
    weights: Any,
    X: Any,
    tokens: Sequence[str],
    *,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """One output row as a stack of contributions: feature k of ``weights·X`` is Σ_j w_j X[j, k].

    For each feature, token j adds a block of height ``w_j · X[j, k]`` in its own colour
    (positive blocks stack upwards, negative ones downwards); the black tick is the sum.

    Shapes:
        weights (T,), X (T, d), tokens (T,)
    """
    w = np.asarray(weights, dtype=float)
    X = np.asarray(X, dtype=float)
    if w.ndim != 1 or X.ndim != 2 or X.shape[0] != w.size or len(tokens) != w.size:
        raise ValueError(
            f"expected weights (T,), X (T, d) and T tokens; got {w.shape}, {X.shape}, {len(tokens)} tokens"
        )
    T, d = X.shape
    if ax is None:
        _, ax = plt.subplots(figsize=(1.8 + 1.1 * d, 3.6))
    parts = w[:, None] * X  # (T, d): token j's share of each feature
    x = np.arange(d)
    up, down = np.zeros(d), np.zeros(d)
    for j in range(T):
        part = parts[j]
        base = np.where(part >= 0, up, down)
        ax.bar(x, part, bottom=base, width=0.6, color=token_colour(j), edgecolor="white",
               label=f"{tokens[j]}: {_format(w[j], '.2f')} × its row")
        up += np.where(part >= 0, part, 0)
        down += np.where(part < 0, part, 0)
    out = parts.sum(axis=0)
    ax.hlines(out, x - 0.38, x + 0.38, color="black", lw=2.5, label="output (the sum)")
    ax.axhline(0, color="#888888", lw=0.8)
    ax.set_xticks(x, [f"feature {k + 1}" for k in range(d)])
    ax.set_ylabel("value of the output")
    ax.legend(fontsize="small", frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if title:
        ax.set_title(title, fontsize="medium")
    return ax


def convex_hull_picture(
    X: Any,
    out: Any,
    tokens: Sequence[str],
    *,
    ax: Axes | None = None,
    trails: Any = None,
    title: str | None = None,
) -> Axes:
    """2-D token vectors (dots), their convex hull (shaded) and the outputs (rings of the same colour).

    A thin dotted line joins each output ring to its own token's dot.
    ``trails`` (optional) draws each output's path as some setting changes, faintly.

    Shapes:
        X (T, 2), out (T, 2), tokens (T,), trails (n, T, 2)

    Returns:
        The axes; ``update_convex_hull_picture`` moves the rings for new outputs.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2 or len(tokens) != X.shape[0]:
        raise ValueError(f"X must have shape (T, 2) with one token each; got {X.shape}, {len(tokens)} tokens")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.4, 5.0))
    hull = mpl.patches.Polygon(convex_hull_2d(X), closed=True, facecolor="#f1f1f8", edgecolor="#a8a8c8",
                               lw=1.2, zorder=0, label="convex hull")
    ax.add_patch(hull)
    (centroid,) = ax.plot(*X.mean(axis=0), marker="+", ms=14, mew=2, color="#555555", ls="none",
                          label="centroid (mean)")
    if trails is not None:
        tr = np.asarray(trails, dtype=float)
        for j in range(X.shape[0]):
            ax.plot(tr[:, j, 0], tr[:, j, 1], color=token_colour(j), lw=1, alpha=0.35, zorder=1)
    for j, token in enumerate(tokens):
        colour = token_colour(j)
        ax.plot([X[j, 0]] * 2, [X[j, 1]] * 2, color=colour, lw=1, ls=":", gid=_HULL_LINK)
        ax.plot(*X[j], "o", ms=10, color=colour, zorder=3)
        ax.plot([], [], "o", ms=15, mfc="none", mew=2.2, color=colour, gid=_HULL_RING, zorder=4)
        ax.annotate(token, X[j], xytext=(8, 8), textcoords="offset points", fontsize="large", color=colour)
    ring = mpl.lines.Line2D([], [], marker="o", ms=12, mfc="none", mew=2, color="#333333", ls="none",
                            label="outputs")
    pad = 0.18 * np.ptp(X, axis=0).max()
    ax.set_xlim(X[:, 0].min() - pad, X[:, 0].max() + pad)
    ax.set_ylim(X[:, 1].min() - pad, X[:, 1].max() + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("feature 1")
    ax.set_ylabel("feature 2")
    ax.legend(handles=[hull, centroid, ring], loc="best", fontsize="small", frameon=False)
    if title:
        ax.set_title(title, fontsize="medium")
    return update_convex_hull_picture(ax, out)


def update_convex_hull_picture(ax: Axes, out: Any, *, title: str | None = None) -> Axes:
    """Move the output rings of ``convex_hull_picture`` (and their lines home) to new outputs.

    Shapes:
        out (T, 2), as first drawn
    """
    out = np.asarray(out, dtype=float)
    links = [line for line in ax.lines if line.get_gid() == _HULL_LINK]
    rings = [line for line in ax.lines if line.get_gid() == _HULL_RING]
    if not rings:
        raise ValueError("ax holds no picture drawn by convex_hull_picture")
    if out.shape != (len(rings), 2):
        raise ValueError(f"out must have shape ({len(rings)}, 2), one row per token; got {out.shape}")
    for link, ring, o in zip(links, rings, out, strict=True):
        xs, ys = link.get_data()
        link.set_data([o[0], xs[1]], [o[1], ys[1]])  # the second end stays at the token's own point
        ring.set_data([o[0]], [o[1]])
    if title is not None:
        ax.set_title(title, fontsize="medium")
    return ax


__all__ += [
    "TOKEN_COLOURS",
    "contribution_bars",
    "convex_hull_2d",
    "convex_hull_picture",
    "dot_product_picture",
    "entropy_curves",
    "inside_convex_hull",
    "token_colour",
    "update_convex_hull_picture",
    "update_dot_product_picture",
    "update_entropy_curves",
    "update_weight_bars",
    "weight_bars",
]


# ---- Notebooks 04-07: Q/K/V, the d_k lab, the mask lab, the whole formula ---------------------
_LAB_GID = "attnlib-0407-moving"
RAW_COLOUR = "#dd8452"  # unscaled scores q·k
SCALED_COLOUR = "#4c72b0"  # scaled scores q·k/√d_k


def score_walks(walks: Any, *, ax: Axes | None = None) -> Axes:
    """Running dot products ``Σ_{c<d_k} q_c k_c`` of a few random pairs as d_k grows, inside ±√d_k and ±2√d_k.

    Each added feature adds one product of mean 0 and variance 1, so a score wanders like a random
    walk and its typical size grows like √d_k: the band is one and two standard deviations.

    Shapes:
        walks (n_pairs, D): entry [p, d_k-1] is the score of pair p over its first d_k features
    """
    w = np.asarray(walks, dtype=float)
    if w.ndim != 2 or w.shape[1] < 2:
        raise ValueError(f"walks must have shape (n_pairs, D) with D >= 2; got {w.shape}")
    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 3.8))
    d = np.arange(1, w.shape[1] + 1)
    root = np.sqrt(d)
    ax.fill_between(d, -2 * root, 2 * root, color="#e8e8e8", lw=0, label="±2√d_k")
    ax.fill_between(d, -root, root, color="#cfcfcf", lw=0, label="±√d_k (one std)")
    for p, walk in enumerate(w):
        ax.plot(d, walk, lw=1.1, color=TOKEN_COLOURS[p % len(TOKEN_COLOURS)])
    ax.axhline(0, color="#888888", lw=0.8)
    ax.set_xlim(1, w.shape[1])
    ax.set_xlabel("d_k: number of features in q and k")
    ax.set_ylabel("q·k over the first d_k features")
    ax.set_title(f"{w.shape[0]} random pairs: each score is a random walk", fontsize="medium")
    ax.legend(loc="upper left", frameon=False, fontsize="small")
    return ax


def variance_vs_dk(
    d_ks: Any,
    var_raw: Any,
    var_scaled: Any,
    *,
    se_raw: Any = None,
    se_scaled: Any = None,
    ax: Axes | None = None,
) -> Axes:
    """Measured variance of the scores against d_k (log-log), unscaled and divided by √d_k, with theory.

    Shapes:
        d_ks (n,), var_raw (n,), var_scaled (n,), se_raw (n,), se_scaled (n,)
    """
    d = np.asarray(d_ks, dtype=float)
    arrays = [np.asarray(a, dtype=float) for a in (var_raw, var_scaled)]
    if d.ndim != 1 or any(a.shape != d.shape for a in arrays):
        raise ValueError(f"d_ks, var_raw and var_scaled must have the same shape (n,); got {d.shape}")
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    ax.plot(d, d, color=RAW_COLOUR, lw=1.2, ls="--", label="theory: d_k")
    ax.plot(d, np.ones_like(d), color=SCALED_COLOUR, lw=1.2, ls="--", label="theory: 1")
    for values, se, colour, label in (
        (arrays[0], se_raw, RAW_COLOUR, "measured: q·k"),
        (arrays[1], se_scaled, SCALED_COLOUR, "measured: q·k / √d_k"),
    ):
        err = None if se is None else 2 * np.asarray(se, dtype=float)
        ax.errorbar(d, values, yerr=err, fmt="o", ms=5, color=colour, capsize=2, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ticks = d[:: max(1, d.size // 6)]
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.set_xlabel("d_k")
    ax.set_ylabel("variance of the scores")
    ax.legend(frameon=False, fontsize="small", loc="upper left")
    return ax


def score_histogram(
    scores: Any,
    sigma: float,
    *,
    ax: Axes | None = None,
    xlim: float = 100.0,
    title: str | None = None,
) -> Axes:
    """The distribution of scores with the normal curve N(0, σ²), both scaled so the curve peaks at 1.

    The x-axis is fixed (±``xlim``) so that panels for different d_k compare: the width is the
    lesson. The bins scale with σ (``score_bins``).

    Shapes:
        scores (n,)

    Returns:
        The axes; ``update_score_histogram`` redraws it for new scores.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    ax.stairs(np.zeros(45), score_bins(1.0), fill=True, color="#9fb6d6", gid=_LAB_GID)
    x = np.linspace(-xlim, xlim, 2001)
    ax.plot(x, np.zeros_like(x), color="#222222", lw=1.4, label="normal curve", gid=_LAB_GID)
    ax.text(0.98, 0.94, "", transform=ax.transAxes, ha="right", va="top", fontsize="small", gid=_LAB_GID)
    ax.set_xlim(-xlim, xlim)
    ax.set_yticks([])
    ax.set_xlabel("score")
    ax.set_ylabel("how often")
    ax.spines[["top", "right", "left"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize="medium")
    return update_score_histogram(ax, scores, sigma)


def update_score_histogram(
    ax: Axes, scores: Any, sigma: float, *, heights: Any = None, note: str | None = None
) -> Axes:
    """New scores (or their precomputed ``histogram_heights``) and σ for ``score_histogram``.

    ``note`` replaces the corner text (default: the measured std and σ). The y-axis grows when a
    histogram is taller than the curve (d_k = 1: a product of two normals is sharply peaked).
    """
    steps = next(p for p in ax.patches if p.get_gid() == _LAB_GID)
    curve = next(line for line in ax.lines if line.get_gid() == _LAB_GID)
    text = next(t for t in ax.texts if t.get_gid() == _LAB_GID)
    heights = histogram_heights(scores, sigma) if heights is None else np.asarray(heights, dtype=float)
    steps.set_data(heights, score_bins(sigma, n_bins=heights.size))
    x = curve.get_xdata()
    curve.set_ydata(np.exp(-0.5 * (x / sigma) ** 2))
    ax.set_ylim(0, max(1.6, 1.08 * float(heights.max())))  # headroom for the note
    if note is None:
        note = f"std of the scores {float(np.std(scores)):.2f}\nnormal curve: σ = {sigma:.3g}"
    text.set_text(note)
    return ax


def weights_row(weights: Any, *, ax: Axes | None = None, max_keys: int = 64) -> Axes:
    """One query's weights over its n keys as bars on a fixed [0, 1] scale; n may change later.

    The keys share the x-axis evenly (no tick labels), the dashed line is the uniform weight 1/n,
    and the largest bar is outlined and labelled with its value.

    Shapes:
        weights (n,), n <= max_keys

    Returns:
        The axes; ``update_weights_row`` redraws it for new weights (any n up to ``max_keys``).
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    bars = mpl.collections.PolyCollection([], edgecolors="none", gid=_LAB_GID)
    ax.add_collection(bars)
    ax.add_patch(mpl.patches.Rectangle((0, 0), 0, 0, fill=False, ec="black", lw=1.6, gid=_LAB_GID))
    ax.plot([0, 1], [0, 0], ls="--", color="#777777", lw=1.2, gid=_LAB_GID)
    ax.text(0, 0, "", ha="center", va="bottom", fontsize="small", gid=_LAB_GID)
    ax.text(0.5, -0.04, "", transform=ax.transAxes, ha="center", va="top", gid=_LAB_GID)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.1)
    ax.set_xticks([])
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_ylabel(KINDS["weights"]["label"])
    ax.spines[["top", "right"]].set_visible(False)
    ax.set_gid(f"max_keys={max_keys}")
    return update_weights_row(ax, weights)


def update_weights_row(ax: Axes, weights: Any) -> Axes:
    """New weights (any number n of keys up to the ``max_keys`` first drawn) for ``weights_row``."""
    w = np.asarray(weights, dtype=float)
    max_keys = int(str(ax.get_gid()).split("=")[1])
    if w.ndim != 1 or not 1 <= w.size <= max_keys:
        raise ValueError(f"weights must have shape (n,) with 1 <= n <= {max_keys}; got {w.shape}")
    bars = next(c for c in ax.collections if c.get_gid() == _LAB_GID)
    outline = next(p for p in ax.patches if p.get_gid() == _LAB_GID)
    uniform = next(line for line in ax.lines if line.get_gid() == _LAB_GID)
    top_text, uniform_text = (t for t in ax.texts if t.get_gid() == _LAB_GID)
    n = w.size
    slot = 1.0 / n
    left = np.arange(n) * slot + 0.1 * slot
    right = left + 0.8 * slot
    verts = np.stack(
        [np.stack([left, np.zeros(n)], -1), np.stack([left, w], -1), np.stack([right, w], -1),
         np.stack([right, np.zeros(n)], -1)],
        axis=1,
    )
    bars.set_verts(verts)
    cmap = sns.color_palette(KINDS["weights"]["cmap"], as_cmap=True)
    bars.set_facecolors(cmap(0.15 + 0.85 * w))  # the palest end of the map would vanish on white
    top = int(np.argmax(w))
    outline.set_bounds(left[top], 0, right[top] - left[top], w[top])
    top_text.set_position(((left[top] + right[top]) / 2, w[top] + 0.015))
    top_text.set_text(_format(w[top], ".3f"))
    uniform.set_ydata([1 / n, 1 / n])
    uniform_text.set_text(f"{n} keys  ·  dashed line: uniform 1/{n}")
    return ax


_SATURATION_PANELS = (
    ("largest weight", (0.0, 1.05)),
    ("entropy (nats)", None),
    ("gradient size ‖diag(p) − p pᵀ‖", (0.0, 0.6)),
)


def saturation_curves(
    d_ks: Any,
    raw: Sequence[Any],
    scaled: Sequence[Any],
    *,
    n_keys: int,
    axes: Sequence[Axes] | None = None,
    current: tuple[int, bool] | None = None,
    max_keys: int | None = None,
) -> list[Axes]:
    """Largest weight, entropy and gradient size of softmax against d_k, unscaled and scaled.

    ``raw`` and ``scaled`` are the three curves of ``softmax_saturation`` (averaged over queries)
    for the scores q·k and q·k/√d_k. Dashed lines: the values of uniform weights over ``n_keys``.
    ``current = (d_k, scaled)`` marks one setting with a dot and a vertical line.

    Shapes:
        d_ks (n,), raw (3, n), scaled (3, n)

    Returns:
        The three axes; ``update_saturation_curves`` moves everything for new curves or settings.
    """
    d = np.asarray(d_ks, dtype=float)
    if axes is None:
        _, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    axes = list(axes)
    if len(axes) != 3:
        raise ValueError(f"axes must hold 3 Axes (largest weight, entropy, gradient size); got {len(axes)}")
    top_entropy = np.log(max_keys or n_keys) * 1.08
    for ax, (title, ylim) in zip(axes, _SATURATION_PANELS, strict=True):
        ax.plot([], [], color=RAW_COLOUR, lw=2.5, marker="o", ms=3, label="q·k", gid=_LAB_GID)
        ax.plot([], [], color=SCALED_COLOUR, lw=2.5, marker="o", ms=3, label="q·k / √d_k", gid=_LAB_GID)
        ax.plot([], [], ls="--", color="#777777", lw=1.2, label="uniform weights", gid=_LAB_GID)
        ax.plot([], [], ls="-", color="#333333", lw=1.0, gid=_LAB_GID)  # vertical line at d_k
        ax.plot([], [], "o", ms=11, mec="black", mew=1.5, gid=_LAB_GID)  # the current point
        ax.set_xscale("log", base=2)
        ax.set_xlim(d[0] / 1.3, d[-1] * 1.3)
        ticks = [t for t in (1, 4, 16, 64, 256, 1024) if d[0] <= t <= d[-1]]
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
        ax.set_ylim(*(ylim or (0.0, top_entropy)))
        ax.set_xlabel("d_k")
        ax.set_title(title, fontsize="medium")
        ax.spines[["top", "right"]].set_visible(False)
    # Above the middle panel's title: inside any panel the legend would cover a curve for some setting.
    axes[1].legend(loc="lower center", bbox_to_anchor=(0.5, 1.13), ncols=3, frameon=False, fontsize="small")
    return update_saturation_curves(axes, d, raw, scaled, n_keys=n_keys, current=current)


def update_saturation_curves(
    axes: Sequence[Axes],
    d_ks: Any,
    raw: Sequence[Any],
    scaled: Sequence[Any],
    *,
    n_keys: int,
    current: tuple[int, bool] | None = None,
) -> list[Axes]:
    """New curves (e.g. for another number of keys) and a new marked setting for ``saturation_curves``."""
    d = np.asarray(d_ks, dtype=float)
    raw, scaled = np.asarray(raw, dtype=float), np.asarray(scaled, dtype=float)
    if raw.shape != (3, d.size) or scaled.shape != (3, d.size):
        raise ValueError(
            f"raw and scaled must have shape (3, n) = (3, {d.size}); got {raw.shape}, {scaled.shape}"
        )
    uniform = (1 / n_keys, np.log(n_keys), np.sqrt(1 / n_keys - 1 / n_keys**2))
    for k, ax in enumerate(axes):
        line_raw, line_scaled, line_uniform, vline, dot = (a for a in ax.lines if a.get_gid() == _LAB_GID)
        line_raw.set_data(d, raw[k])
        line_scaled.set_data(d, scaled[k])
        line_uniform.set_data([d[0] / 1.3, d[-1] * 1.3], [uniform[k], uniform[k]])
        if current is None:
            vline.set_data([], [])
            dot.set_data([], [])
            continue
        d_k, is_scaled = current
        i = int(np.argmin(np.abs(d - d_k)))
        vline.set_data([d_k, d_k], ax.get_ylim())
        dot.set_data([d_k], [(scaled if is_scaled else raw)[k, i]])
        dot.set_markerfacecolor(SCALED_COLOUR if is_scaled else RAW_COLOUR)
        line_raw.set_alpha(0.3 if is_scaled else 1.0)
        line_scaled.set_alpha(1.0 if is_scaled else 0.3)
    return list(axes)


def _hide_cells(ax: Axes, hidden: bool) -> None:
    for text in ax.texts:
        if text.get_gid() == ANNOT_GID:
            text.set_visible(not hidden)


def _cell_labels(ax: Axes, size: int, *, rows: bool) -> None:
    """Token labels as plain texts (not ticks) under the columns and, if ``rows``, left of the rows."""
    ax.set_xticks([])
    ax.set_yticks([])
    below = mpl.transforms.blended_transform_factory(ax.transData, ax.transAxes)
    for j in range(size):
        ax.text(j + 0.5, -0.02, "", transform=below, rotation=90, ha="center", va="top",
                fontsize="small", gid=_LAB_GID)
    if rows:
        left = mpl.transforms.blended_transform_factory(ax.transAxes, ax.transData)
        for i in range(size):
            ax.text(-0.02, i + 0.5, "", transform=left, ha="right", va="center", fontsize="small",
                    gid=_LAB_GID)


def mask_panels(
    scores: Any,
    keep: Any,
    tokens: Sequence[str],
    *,
    axes: Sequence[Axes] | None = None,
    size: int | None = None,
    vmax: float | None = None,
    titles: bool = True,
) -> list[Axes]:
    """Scores → masked scores → weights for one sentence, side by side (queries are rows).

    Masked cells of the middle panel are grey "−∞"; their weights in the right panel are exactly 0,
    written "0" (a weight that only rounds to zero is written "0.00").
    The grid is drawn ``size`` tokens wide (default T) and cropped to T, so ``update_mask_panels``
    can later show any T up to ``size`` without drawing new heatmaps.

    Shapes:
        scores (T, T), keep (T, T) boolean (True = may attend), tokens (T,)

    Returns:
        The three axes.
    """
    scores = np.asarray(scores, dtype=float)
    T = scores.shape[0]
    size = T if size is None else size
    if scores.ndim != 2 or scores.shape != (T, T) or size < T:
        raise ValueError(f"scores must have shape (T, T) with T <= size={size}; got {scores.shape}")
    vmax = vmax if vmax is not None else float(np.abs(scores).max() or 1.0)
    bars = None
    if axes is None:  # a figure of its own, with a colour bar for the scores and one for the weights
        fig = plt.figure(figsize=(14, 4.6))
        grid = fig.add_gridspec(1, 6, width_ratios=[1, 1, 0.05, 0.2, 1, 0.05], wspace=0.12)
        axes = [fig.add_subplot(grid[0, k]) for k in (0, 1, 4)]
        bars = [fig.add_subplot(grid[0, k]) for k in (2, 5)]
    axes = list(axes)
    blank = np.zeros((size, size))
    for ax, kind in zip(axes, ("scores", "scores", "weights"), strict=True):
        heatmap(blank, kind=kind, ax=ax, cbar=False, annot=True, vmax=vmax, xlabel="", ylabel="")
        ax.collections[0].set_gid(_LAB_GID)
        _hide_cells(ax, True)  # seaborn draws the whole figure once per heatmap: skip finished cells
    for ax in axes:
        _hide_cells(ax, False)
    for k, ax in enumerate(axes):
        _cell_labels(ax, size, rows=k == 0)
    if bars is not None:
        fig.colorbar(axes[0].collections[0], cax=bars[0]).set_label(KINDS["scores"]["label"])
        fig.colorbar(axes[2].collections[0], cax=bars[1]).set_label(KINDS["weights"]["label"])
    if titles:
        names = ("scores  Q·Kᵀ/√d_k", "masked scores  + M", "weights  softmax")
        for ax, title in zip(axes, names, strict=True):
            ax.set_title(title, fontsize="medium")
    return update_mask_panels(axes, scores, keep, tokens)


def update_mask_panels(axes: Sequence[Axes], scores: Any, keep: Any, tokens: Sequence[str]) -> list[Axes]:
    """New scores, mask and tokens (any T up to the size first drawn) for ``mask_panels``.

    Shapes:
        scores (T, T), keep (T, T) boolean, tokens (T,)
    """
    from .core import softmax

    scores = np.asarray(scores, dtype=float)
    keep = np.asarray(keep)
    T = scores.shape[0]
    size = int(np.sqrt(axes[0].collections[0].get_array().size))
    if scores.shape != (T, T) or keep.shape != (T, T) or len(tokens) != T or T > size:
        raise ValueError(
            f"scores and keep must have shape (T, T) with T <= {size} and T tokens; "
            f"got {scores.shape}, {keep.shape}, {len(tokens)} tokens"
        )
    if keep.dtype.kind != "b" or not keep.any(axis=-1).all():
        raise ValueError("keep must be boolean with at least one True in every row")
    masked = np.where(keep, scores, -np.inf)
    panels = (scores, masked, softmax(masked, axis=-1))
    for ax, matrix in zip(axes, panels, strict=True):
        full = np.full((size, size), np.nan)
        full[:T, :T] = matrix
        shown = np.ma.filled(ax.collections[0].get_array(), np.nan).ravel()
        if not np.array_equal(shown, np.where(np.isfinite(full), full, np.nan).ravel(), equal_nan=True):
            update_heatmap(ax, full)  # skipped when the panel shows these numbers already
        cells = [t for t in ax.texts if t.get_gid() == ANNOT_GID]
        for k, text in enumerate(cells):
            if k // size >= T or k % size >= T:
                text.set_text("")
            elif matrix is panels[2] and full.flat[k] == 0.0:
                text.set_text("0")  # exactly zero, not a small weight rounded to 0.00
        ax.set_xlim(0, T)
        ax.set_ylim(T, 0)
        labels = [t for t in ax.texts if t.get_gid() == _LAB_GID]
        for k, text in enumerate(labels):
            text.set_text(tokens[k % size] if k % size < T else "")
    return list(axes)


def product_panels(
    left: Any,
    right: Any,
    *,
    names: Sequence[str],
    rows: Sequence[str],
    inner: Sequence[str],
    cols: Sequence[str],
    axes: Sequence[Axes] | None = None,
    fmt: str = ".1f",
) -> list[Axes]:
    """A matrix product as three heatmaps: ``left · right = left @ right``, on one colour scale.

    Args:
        names: the three titles, e.g. ("X", "W_Q", "Q = X·W_Q"); the shapes are added to them.
        rows, inner, cols: labels of the rows of ``left``, of the shared axis, of the columns of ``right``.

    Shapes:
        left (n, m), right (m, p) -> the product (n, p)
    """
    a, b = np.asarray(left, dtype=float), np.asarray(right, dtype=float)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"left (n, m) and right (m, p) must multiply; got {a.shape} and {b.shape}")
    c = a @ b
    if axes is None:
        widths = [a.shape[1], b.shape[1], c.shape[1]]
        fig, axes = plt.subplots(
            1, 3, figsize=(2.2 + 0.62 * sum(widths), 1.2 + 0.45 * max(a.shape[0], b.shape[0])),
            gridspec_kw={"width_ratios": widths, "wspace": 0.45},
        )
    axes = list(axes)
    vmax = float(max(np.abs(m).max() for m in (a, b, c))) or 1.0
    labels = ((rows, inner), (inner, cols), (rows, cols))
    for ax, m, name, (r, k) in zip(axes, (a, b, c), names, labels, strict=True):
        heatmap(m, r, k, kind="values", ax=ax, cbar=False, fmt=fmt, vmax=vmax, xlabel="", ylabel="",
                title=f"{name}  {m.shape[0]}×{m.shape[1]}")
        ax.tick_params(axis="x", rotation=90)
        _hide_cells(ax, True)  # as in mask_panels: keep seaborn's draws cheap
    for ax in axes:
        _hide_cells(ax, False)
    for ax, sign in zip(axes[:2], ("·", "="), strict=True):
        box = ax.get_position()
        middle = (box.y0 + box.y1) / 2
        ax.figure.text(box.x1 + 0.012, middle, sign, fontsize="xx-large", ha="left", va="center")
    return axes


__all__ += [
    "RAW_COLOUR",
    "SCALED_COLOUR",
    "histogram_heights",
    "mask_panels",
    "product_panels",
    "saturation_curves",
    "score_bins",
    "score_histogram",
    "score_walks",
    "update_mask_panels",
    "update_saturation_curves",
    "update_score_histogram",
    "update_weights_row",
    "variance_vs_dk",
    "weights_row",
]


# ---- Notebook 08: several heads in a real model ---------------------------------------------------
def head_grid(
    weights: Any,
    tokens: Sequence[str] | None = None,
    *,
    title: str | None = None,
    highlight: Sequence[tuple[int, int]] = (),
    panel_size: float = 1.05,
) -> mpl.figure.Figure:
    """Every head of every layer at a glance: layers as rows, heads as columns, one colour scale.

    Each panel is one head's weights, queries down and keys across, on the fixed [0, 1] scale of
    ``heatmap`` with a single colorbar. Token labels sit only on the outer panels (left column and
    bottom row), since all panels share them. ``highlight`` frames chosen heads, e.g. the ones a
    notebook names.

    Args:
        weights: attention weights of every head of every layer.
        tokens: the T token labels; default 0, 1, 2, ...
        title: a title over the whole grid.
        highlight: (layer, head) pairs to frame.
        panel_size: width and height of one panel, in inches.

    Shapes:
        weights (n_layers, n_heads, T, T), tokens (T,)

    Returns:
        The figure; ``fig.axes`` lists the panels row by row, then the colorbar.
    """
    data = np.asarray(weights, dtype=float)
    if data.ndim != 4 or data.shape[-1] != data.shape[-2]:
        raise ValueError(
            f"weights must have shape (n_layers, n_heads, T, T), one square matrix per head; got {data.shape}"
        )
    n_layers, n_heads, T, _ = data.shape
    labels = [str(i) for i in range(T)] if tokens is None else [str(t) for t in tokens]
    if len(labels) != T:
        raise ValueError(f"tokens has {len(labels)} labels but the weights have T={T} tokens")
    for layer, head in highlight:
        if not (0 <= layer < n_layers and 0 <= head < n_heads):
            raise ValueError(f"highlight ({layer}, {head}) is outside {n_layers} layers × {n_heads} heads")
    spec = KINDS["weights"]
    fig, axes = plt.subplots(
        n_layers,
        n_heads,
        figsize=(1.8 + panel_size * n_heads, 1.6 + panel_size * n_layers),
        squeeze=False,
    )
    # Fixed margins in inches (cheaper than a layout engine for 72 panels): room for the labels.
    width, height = fig.get_size_inches()
    fig.subplots_adjust(
        left=1.0 / width, right=1 - 0.9 / width, bottom=0.9 / height, top=1 - 0.6 / height,
        wspace=0.06, hspace=0.06,
    )
    small = max(4.0, min(7.0, 60.0 / T))  # font size of the token labels, in points
    for layer in range(n_layers):
        for head in range(n_heads):
            ax = axes[layer, head]
            image = ax.imshow(data[layer, head], cmap=spec["cmap"], vmin=0.0, vmax=1.0, aspect="auto")
            # Every panel has the same extent; only the outer ones carry the token labels.
            # (sharex/sharey, or ticks on every panel, would cost seconds for 72 panels.)
            if layer == n_layers - 1:
                ax.set_xticks(range(T), labels, rotation=90)
            else:
                ax.set_xticks([])
            if head == 0:
                ax.set_yticks(range(T), labels)
            else:
                ax.set_yticks([])
            ax.tick_params(length=0, labelsize=small)
            if head == 0:
                ax.set_ylabel(f"layer {layer}", fontsize="small")
            if layer == 0:
                ax.set_title(f"head {head}", fontsize="small")
            if (layer, head) in set(map(tuple, highlight)):
                for side in ax.spines.values():
                    side.set(visible=True, color="#1f77b4", linewidth=2.5)
    fig.supxlabel("key", fontsize="small", y=0.25 / height)
    fig.supylabel("query", fontsize="small", x=0.12 / width)
    right = axes[0, -1].get_position().x1
    bar = fig.add_axes((right + 0.2 / width, 0.3, 0.12 / width, 0.4))
    colorbar = fig.colorbar(image, cax=bar)
    colorbar.set_label(spec["label"])
    if title:
        fig.suptitle(title, y=1 - 0.1 / height)
    return fig


__all__ += ["head_grid"]


# ---- Notebook 09: a tiny GPT -----------------------------------------------------------------------


def loss_curves(
    curves: dict[str, Any],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    window: int = 1,
    baselines: dict[str, float] | None = None,
) -> Axes:
    """Training losses, one line per run, smoothed by a moving mean over ``window`` steps.

    ``baselines`` draws labelled horizontal lines (e.g. the loss of guessing by character frequency).

    Shapes:
        curves {label: losses (n_steps,)} -> axes with one line per label
    """
    if not curves:
        raise ValueError("curves must hold at least one {label: losses} entry")
    if isinstance(window, bool) or not isinstance(window, (int, np.integer)) or window < 1:
        raise ValueError(f"window must be a whole number >= 1; got {window!r}")
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 3.6))
    for i, (label, losses) in enumerate(curves.items()):
        y = np.asarray(losses, dtype=float)
        if y.ndim != 1 or y.size < window:
            raise ValueError(
                f"curves[{label!r}] must have shape (n_steps,) with n_steps >= window={window}; got {y.shape}"
            )
        smooth = np.convolve(y, np.ones(window) / window, mode="valid")
        colour = TOKEN_COLOURS[i % len(TOKEN_COLOURS)]
        ax.plot(np.arange(window, y.size + 1), smooth, label=label, color=colour)
    for label, value in (baselines or {}).items():
        ax.axhline(value, color="grey", linestyle="--", linewidth=1)
        ax.annotate(label, (1.0, value), xycoords=("axes fraction", "data"), ha="right", va="bottom",
                    fontsize="small", color="grey")
    ax.set_xlabel("training step")
    ax.set_ylabel("loss (nats per character)")
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper right" if not baselines else "lower left")
    if title:
        ax.set_title(title)
    return ax


def _shown_token(token: str) -> str:
    return "⏎" if token == "\n" else token


def generation_attention(
    record: dict, *, layer: int = -1, title: str | None = None, panel_width: float = 2.6
) -> mpl.figure.Figure:
    """What one generated continuation looked at: one panel per head of one layer.

    Row s of a panel is step s of the generation: the query is the last token so far, the keys are
    every token before the one being chosen (the prompt and the tokens generated before step s);
    keys that did not exist yet are grey. The row label is the token chosen at that step and its
    probability. ``record`` is one entry of ``attnlib.gpt.generation_lab_data``.

    Shapes:
        record["weights"] (n_new, n_layers, n_heads, n_prompt + n_new − 1) -> a figure of n_heads panels
    """
    w = np.asarray(record["weights"], dtype=float)
    if w.ndim != 4:
        raise ValueError(f"record['weights'] must have shape (n_new, n_layers, n_heads, T); got {w.shape}")
    n_new, n_layers, n_heads, width = w.shape
    if not -n_layers <= layer < n_layers:
        raise ValueError(f"layer={layer} does not exist: the model has {n_layers} layers")
    layer %= n_layers
    n_prompt = int(record["n_prompt"])
    keys = [_shown_token(t) for t in record["tokens"][:width]]
    steps = np.arange(n_new)[:, None]
    future = np.arange(width)[None, :] >= n_prompt + steps  # keys that do not exist yet at step s
    chosen = zip(record["tokens"][n_prompt:], record["chosen_probs"], strict=True)
    rows = [f"{_shown_token(t)} {p:.2f}" for t, p in chosen]
    fig, axes = plt.subplots(1, n_heads, figsize=(1.2 + panel_width * n_heads, 1.4 + 0.3 * n_new),
                             sharey=True, squeeze=False, layout="constrained")
    for head, ax in enumerate(axes[0]):
        data = np.where(future, -np.inf, w[:, layer, head])
        heatmap(data, rows, keys, ax=ax, annot=False, cbar=head == n_heads - 1, title=f"head {head}",
                xlabel="key (context so far)", ylabel="chosen token, probability" if head == 0 else "")
        ax.tick_params(axis="x", labelsize="small")
    setting = f"prompt {record['prompt']} · temperature {record['temperature']:g}"
    fig.suptitle(title or f"weights · layer {layer} · {setting}")
    return fig


__all__ += ["generation_attention", "loss_curves"]
