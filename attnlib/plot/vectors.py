"""Vectors and weighted sums: the dot product of two arrows, one row of weights as bars, an output
row as a stack of contributions, and the outputs inside the convex hull of the tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..checks import check_shape, refuse
from ..core import convex_hull_2d
from ..i18n import N_, tr
from .style import colour_map, kind_label, legible_points, legible_ticks, number, text_size, token_colour


def _vector_2d(v: Any, name: str) -> np.ndarray:
    arr = np.asarray(v, dtype=float)
    if arr.shape != (2,) or not np.isfinite(arr).all():
        check_shape(False, name, expected="(2,), finite", got=f"{arr.shape} {arr.tolist()}")
    return arr


def _titled(ax: Axes, title: str | None) -> Axes:
    if title:
        ax.set_title(title, fontsize="medium")
    return ax


def _dot_geometry(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """Numbers and points of the picture: angle, arc, foot of the perpendicular from a onto b's line."""
    len_a, len_b = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if len_a == 0 or len_b == 0:
        refuse(ValueError, N_("a and b must be non-zero: a zero vector has no direction, hence no angle"))
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
        "proj": dot / len_b,
        "foot": (dot / len_b) * unit_b,
        "unit_b": unit_b,
        "arc": radius * np.stack([np.cos(t), np.sin(t)]),
        "arc_label": 1.9 * radius * np.array([np.cos(label_at), np.sin(label_at)]),
        "len_a": len_a,
        "len_b": len_b,
    }


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

    Parameters
    ----------
    lim : float
        The axes run from -lim to lim, unless ``xlim`` or ``ylim`` say otherwise.
    names : (str, str)
        The labels of the two vectors, used in the picture and the title.

    Shapes:
        a (2,), b (2,)

    Taught in: 01 §2
    """
    a, b = _vector_2d(a, "a"), _vector_2d(b, "b")
    g = _dot_geometry(a, b)
    if ax is None:
        _, ax = plt.subplots(figsize=(5.2, 5.2))
    ax.set_xlim(*(xlim or (-lim, lim)))
    ax.set_ylim(*(ylim or (-lim, lim)))
    grey = "#9a9a9a"
    ax.axhline(0, color="#e3e3e3", lw=1, zorder=0)
    ax.axvline(0, color="#e3e3e3", lw=1, zorder=0)
    far = 2 * max(abs(v) for v in (*ax.get_xlim(), *ax.get_ylim())) * g["unit_b"]
    ax.plot([-far[0], far[0]], [-far[1], far[1]], ls=":", color=grey, lw=1.2)  # b's line
    ax.plot([a[0], g["foot"][0]], [a[1], g["foot"][1]], ls="--", color=grey, lw=1.2)  # the perpendicular
    ax.plot([0, g["foot"][0]], [0, g["foot"][1]], color="#2a9d54", lw=5, alpha=0.75, solid_capstyle="butt")
    ax.plot(*g["arc"], color="#444444", lw=1.2)
    for v, colour in ((a, token_colour(0)), (b, token_colour(1))):
        ax.add_patch(mpl.patches.FancyArrowPatch((0, 0), tuple(v), arrowstyle="-|>", mutation_scale=18,
                                                 lw=2.5, color=colour))

    def word(text: str, colour: str, at: Any) -> None:
        ax.text(*at, text, color=colour, ha="center", va="center", fontsize="large")

    for k, v in enumerate((a, b)):
        word(names[k], token_colour(k), v + 0.28 * v / np.linalg.norm(v))
    word("θ", "#444444", g["arc_label"])
    normal = np.array([-g["unit_b"][1], g["unit_b"][0]])
    side = -1.0 if normal @ a >= 0 else 1.0  # write the projection on the side away from a
    na, nb = names
    word(f"|{na}| cos θ = " + number(g["proj"], 2), "#2a9d54", g["foot"] / 2 + side * 0.35 * normal)
    ax.set_aspect("equal")
    ax.set_xlabel(tr("feature 1"))
    ax.set_ylabel(tr("feature 2"))
    ax.set_title(
        f"{na}·{nb} = |{na}| |{nb}| cos θ = {number(g['len_a'], 2)} × {number(g['len_b'], 2)} × "
        f"{number(g['cos'], 3)} = {number(g['dot'], 2)}",
        fontsize="medium",
    )
    return ax


def weight_bars(
    weights: Any,
    tokens: Sequence[str],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str | None = None,
) -> Axes:
    """One row of attention weights as bars on the fixed [0, 1] scale, coloured like the heatmaps.

    Every bar that shares the largest weight is outlined in black. Each bar has its value written
    above it, at a size the page shows legibly: upright where the bars are narrow, and, where they
    are too narrow even for that, on the larger of two neighbours only, so that no two values touch.
    ``xlabel`` defaults to "key" in the current language.

    Shapes:
        weights (T,), tokens (T,)

    Taught in: 07 §4
    """
    w = np.asarray(weights, dtype=float)
    if w.ndim != 1 or len(tokens) != w.size:
        check_shape(False, "weights, tokens", expected="(T,), (T,)", got=(w.shape, len(tokens)))
    if ax is None:
        _, ax = plt.subplots(figsize=(1.2 + 0.9 * w.size, 3.4))
    x = np.arange(w.size)
    top = np.isclose(w, w.max(), rtol=0, atol=1e-9)  # outline every bar that shares the top weight
    ax.bar(x, w, width=0.65, linewidth=2.0, color=colour_map("weights")(w),
           edgecolor=["black" if outlined else "none" for outlined in top])
    # The values never overlap: side by side where they fit at a legible size; else turned upright,
    # and where even upright ones would touch, only the larger of two neighbours is written.
    fig = ax.get_figure()
    pitch = ax.get_position().width * fig.get_figwidth() * 72 / w.size  # points per bar
    legible = legible_points(fig)
    size = min(mpl.rcParams["font.size"], 0.85 * pitch / 2.6)  # a value is ~2.6 em wide
    upright = size < legible
    if upright:
        size = max(legible, min(mpl.rcParams["font.size"], 0.8 * pitch / 1.3))  # ~1.3 em across
    apart = int(np.ceil(1.3 * size / pitch)) if upright else 1  # bars between two written values
    written: list[int] = []
    for i in np.argsort(-w, kind="stable"):
        if all(abs(int(i) - j) >= apart for j in written):
            written.append(int(i))
    for i in sorted(written):
        ax.text(i, w[i] + 0.015, number(w[i], 3), ha="center", va="bottom", fontsize=size,
                rotation=90 if upright else 0)
    top = 1.12
    if upright:  # room above the tallest bar for its upright value (~3.2 em long)
        axes_height = ax.get_position().height * fig.get_figheight() * 72  # points
        top = max(top, (w.max() + 0.015) / (1 - 3.4 * size / axes_height))
    ax.set_xticks(x, list(tokens))
    ax.set_ylim(0, top)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_xlabel(tr("key") if xlabel is None else xlabel)
    ax.set_ylabel(kind_label("weights"))
    ax.axhline(1.0, color="#cccccc", lw=0.8, zorder=0)
    legible_ticks(ax)
    return _titled(ax, title)


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

    Taught in: 03 §1
    """
    w = np.asarray(weights, dtype=float)
    X = np.asarray(X, dtype=float)
    if w.ndim != 1 or X.ndim != 2 or X.shape[0] != w.size or len(tokens) != w.size:
        check_shape(False, "weights, X, tokens", expected="(T,), (T, d), (T,)",
                    got=(w.shape, X.shape, len(tokens)))
    T, d = X.shape
    if ax is None:
        _, ax = plt.subplots(figsize=(1.8 + 1.1 * d, 3.6))
    part = tr("{token}: {weight} × its row")
    contributions = w[:, None] * X  # (T, d): token j's share of each feature
    x = np.arange(d)
    up, down = np.zeros(d), np.zeros(d)
    for j in range(T):
        share = contributions[j]
        base = np.where(share >= 0, up, down)
        ax.bar(x, share, bottom=base, width=0.6, color=token_colour(j), edgecolor="white",
               label=part.format(token=tokens[j], weight=number(w[j], 2)))
        up += np.where(share >= 0, share, 0)
        down += np.where(share < 0, share, 0)
    out = contributions.sum(axis=0)
    ax.hlines(out, x - 0.38, x + 0.38, color="black", lw=2.5, label=tr("output (the sum)"))
    ax.axhline(0, color="#888888", lw=0.8)
    feature = tr("feature {k}")
    ax.set_xticks(x, [feature.format(k=k + 1) for k in range(d)])
    ax.set_ylabel(tr("value of the output"))
    ax.legend(fontsize=text_size(ax.figure), frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _titled(ax, title)


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
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2 or len(tokens) != X.shape[0]:
        check_shape(False, "X, tokens", expected="(T, 2), (T,)", got=(X.shape, len(tokens)))
    out = np.asarray(out, dtype=float)
    if out.shape != X.shape:
        check_shape(False, "out", expected=f"({X.shape[0]}, 2), one row per token", got=out.shape)
    if ax is None:
        _, ax = plt.subplots(figsize=(5.4, 5.0))
    hull = mpl.patches.Polygon(convex_hull_2d(X), closed=True, facecolor="#f1f1f8", edgecolor="#a8a8c8",
                               lw=1.2, zorder=0, label=tr("convex hull"))
    ax.add_patch(hull)
    (centroid,) = ax.plot(*X.mean(axis=0), marker="+", ms=14, mew=2, color="#555555", ls="none",
                          label=tr("centroid (mean)"))
    if trails is not None:
        paths = np.asarray(trails, dtype=float)
        for j in range(X.shape[0]):
            ax.plot(paths[:, j, 0], paths[:, j, 1], color=token_colour(j), lw=1, alpha=0.35, zorder=1)
    for j, token in enumerate(tokens):
        colour = token_colour(j)
        ax.plot([out[j, 0], X[j, 0]], [out[j, 1], X[j, 1]], color=colour, lw=1, ls=":")  # the way home
        ax.plot(*X[j], "o", ms=10, color=colour, zorder=3)
        ax.plot([out[j, 0]], [out[j, 1]], "o", ms=15, mfc="none", mew=2.2, color=colour, zorder=4)
        ax.annotate(token, X[j], xytext=(8, 8), textcoords="offset points", fontsize="large", color=colour)
    ring = mpl.lines.Line2D([], [], marker="o", ms=12, mfc="none", mew=2, color="#333333", ls="none",
                            label=tr("outputs"))
    pad = 0.18 * np.ptp(X, axis=0).max()
    ax.set_xlim(X[:, 0].min() - pad, X[:, 0].max() + pad)
    ax.set_ylim(X[:, 1].min() - pad, X[:, 1].max() + pad)
    ax.set_aspect("equal")
    ax.set_xlabel(tr("feature 1"))
    ax.set_ylabel(tr("feature 2"))
    ax.legend(handles=[hull, centroid, ring], loc="best", fontsize=text_size(ax.figure), frameon=False)
    return _titled(ax, title)
