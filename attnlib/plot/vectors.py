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

from ..core import convex_hull_2d
from ..i18n import tr
from .style import colour_map, keep_parts, kind_label, number, parts, token_colour


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

    Returns
    -------
    Axes
        The axes, whose artists ``update_dot_product_picture`` moves for a new pair of vectors.

    Taught in: 01 §2
    """
    a, b = _vector_2d(a, "a"), _vector_2d(b, "b")
    if ax is None:
        _, ax = plt.subplots(figsize=(5.2, 5.2))
    grey = "#9a9a9a"
    ax.axhline(0, color="#e3e3e3", lw=1, zorder=0)
    ax.axvline(0, color="#e3e3e3", lw=1, zorder=0)
    (line_b,) = ax.plot([], [], ls=":", color=grey, lw=1.2)
    (drop,) = ax.plot([], [], ls="--", color=grey, lw=1.2)
    (proj,) = ax.plot([], [], color="#2a9d54", lw=5, alpha=0.75, solid_capstyle="butt")
    (arc,) = ax.plot([], [], color="#444444", lw=1.2)
    arrows = []
    for colour in (token_colour(0), token_colour(1)):
        arrow = mpl.patches.FancyArrowPatch((0, 0), (1, 0), arrowstyle="-|>", mutation_scale=18, lw=2.5,
                                            color=colour)
        arrows.append(ax.add_patch(arrow))

    def word(text: str, colour: str) -> mpl.text.Text:
        return ax.text(0, 0, text, color=colour, ha="center", va="center", fontsize="large")

    keep_parts(ax, "dot_product_picture", line_b=line_b, drop=drop, proj=proj, arc=arc, arrows=arrows,
               names=[word(names[0], token_colour(0)), word(names[1], token_colour(1))],
               theta=word("θ", "#444444"), proj_text=word("", "#2a9d54"), vector_names=tuple(names))
    ax.set_xlim(*(xlim or (-lim, lim)))
    ax.set_ylim(*(ylim or (-lim, lim)))
    ax.set_aspect("equal")
    ax.set_xlabel(tr("feature 1"))
    ax.set_ylabel(tr("feature 2"))
    return update_dot_product_picture(ax, a, b)


def update_dot_product_picture(ax: Axes, a: Any, b: Any) -> Axes:
    """Move the artists of ``dot_product_picture`` to a new pair of vectors (fast redraws).

    Shapes:
        a (2,), b (2,)

    Taught in: 01 §2
    """
    a, b = _vector_2d(a, "a"), _vector_2d(b, "b")
    p = parts(ax, "dot_product_picture")
    g = _dot_geometry(a, b)
    lim = max(abs(v) for v in (*ax.get_xlim(), *ax.get_ylim()))
    far = 2 * lim * g["unit_b"]
    p.line_b.set_data([-far[0], far[0]], [-far[1], far[1]])
    p.drop.set_data([a[0], g["foot"][0]], [a[1], g["foot"][1]])
    p.proj.set_data([0, g["foot"][0]], [0, g["foot"][1]])
    p.arc.set_data(*g["arc"])
    for arrow, name, v in zip(p.arrows, p.names, (a, b), strict=True):
        arrow.set_positions((0, 0), tuple(v))
        name.set_position(tuple(v + 0.28 * v / np.linalg.norm(v)))
    p.theta.set_position(tuple(g["arc_label"]))
    normal = np.array([-g["unit_b"][1], g["unit_b"][0]])
    side = -1.0 if normal @ a >= 0 else 1.0  # write the projection on the side away from a
    p.proj_text.set_position(tuple(g["foot"] / 2 + side * 0.35 * normal))
    na, nb = p.vector_names
    p.proj_text.set_text(f"|{na}| cos θ = " + number(g["proj"], 2))
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

    Every bar that shares the largest weight is outlined in black and every bar has its value
    written above it. ``xlabel`` defaults to "key" in the current language.

    Shapes:
        weights (T,), tokens (T,)

    Returns
    -------
    Axes
        The axes, whose bars ``update_weight_bars`` resizes for new weights.

    Taught in: 07 §4
    """
    w = np.asarray(weights, dtype=float)
    if w.ndim != 1 or len(tokens) != w.size:
        raise ValueError(
            f"weights must have shape (T,) with one token label each; got {w.shape} and {len(tokens)} labels"
        )
    if ax is None:
        _, ax = plt.subplots(figsize=(1.2 + 0.9 * w.size, 3.4))
    x = np.arange(w.size)
    bars = list(ax.bar(x, np.zeros_like(w), width=0.65, linewidth=2.0))
    labels = [ax.text(i, 0, "", ha="center", va="bottom") for i in x]
    keep_parts(ax, "weight_bars", bars=bars, labels=labels)
    ax.set_xticks(x, list(tokens))
    ax.set_ylim(0, 1.12)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_xlabel(tr("key") if xlabel is None else xlabel)
    ax.set_ylabel(kind_label("weights"))
    ax.axhline(1.0, color="#cccccc", lw=0.8, zorder=0)
    return update_weight_bars(ax, w, title=title)


def update_weight_bars(ax: Axes, weights: Any, *, title: str | None = None) -> Axes:
    """Resize the bars of ``weight_bars`` (and recolour them, and rewrite their numbers).

    Shapes:
        weights (T,), as first drawn

    Taught in: 02 §5
    """
    w = np.asarray(weights, dtype=float)
    p = parts(ax, "weight_bars")
    if w.shape != (len(p.bars),):
        raise ValueError(f"weights must keep the shape first drawn, ({len(p.bars)},); got {w.shape}")
    cmap = colour_map("weights")
    top = np.isclose(w, w.max(), rtol=0, atol=1e-9)  # outline every bar that shares the top weight
    for bar, text, value, outlined in zip(p.bars, p.labels, w, top, strict=True):
        bar.set_height(value)
        bar.set_facecolor(cmap(float(value)))
        bar.set_edgecolor("black" if outlined else "none")
        text.set_y(value + 0.015)
        text.set_text(number(value, 3))
    if title is not None:
        ax.set_title(title, fontsize="medium")
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

    Taught in: 03 §1
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

    Returns
    -------
    Axes
        The axes; ``update_convex_hull_picture`` moves the rings for new outputs.

    Taught in: 03 §3
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2 or len(tokens) != X.shape[0]:
        raise ValueError(f"X must have shape (T, 2) with one token each; got {X.shape}, {len(tokens)} tokens")
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
    links, rings = [], []
    for j, token in enumerate(tokens):
        colour = token_colour(j)
        links += ax.plot([X[j, 0]] * 2, [X[j, 1]] * 2, color=colour, lw=1, ls=":")
        ax.plot(*X[j], "o", ms=10, color=colour, zorder=3)
        rings += ax.plot([], [], "o", ms=15, mfc="none", mew=2.2, color=colour, zorder=4)
        ax.annotate(token, X[j], xytext=(8, 8), textcoords="offset points", fontsize="large", color=colour)
    keep_parts(ax, "convex_hull_picture", links=links, rings=rings, homes=X)
    ring = mpl.lines.Line2D([], [], marker="o", ms=12, mfc="none", mew=2, color="#333333", ls="none",
                            label=tr("outputs"))
    pad = 0.18 * np.ptp(X, axis=0).max()
    ax.set_xlim(X[:, 0].min() - pad, X[:, 0].max() + pad)
    ax.set_ylim(X[:, 1].min() - pad, X[:, 1].max() + pad)
    ax.set_aspect("equal")
    ax.set_xlabel(tr("feature 1"))
    ax.set_ylabel(tr("feature 2"))
    ax.legend(handles=[hull, centroid, ring], loc="best", fontsize="small", frameon=False)
    if title:
        ax.set_title(title, fontsize="medium")
    return update_convex_hull_picture(ax, out)


def update_convex_hull_picture(ax: Axes, out: Any, *, title: str | None = None) -> Axes:
    """Move the output rings of ``convex_hull_picture`` (and their lines home) to new outputs.

    Shapes:
        out (T, 2), as first drawn

    Taught in: 03 §3
    """
    out = np.asarray(out, dtype=float)
    p = parts(ax, "convex_hull_picture")
    if out.shape != (len(p.rings), 2):
        raise ValueError(f"out must have shape ({len(p.rings)}, 2), one row per token; got {out.shape}")
    for link, ring, o, home in zip(p.links, p.rings, out, p.homes, strict=True):
        link.set_data([o[0], home[0]], [o[1], home[1]])
        ring.set_data([o[0]], [o[1]])
    if title is not None:
        ax.set_title(title, fontsize="medium")
    return ax
