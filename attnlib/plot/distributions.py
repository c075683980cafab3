"""How scores and weights are spread: score walks, variance against d_k, the score histogram, one
query's weights over any number of keys, entropy against the scale β, and softmax's saturation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..core import entropy, histogram_heights, score_bins, softmax
from ..i18n import N_, tr
from .style import RAW_COLOUR, SCALED_COLOUR, colour_map, keep_parts, kind_label, number, parts, token_colour

SATURATION_PANELS = (
    (N_("largest weight"), (0.0, 1.05)),
    (N_("entropy (nats)"), None),
    (N_("gradient size ‖diag(p) − p pᵀ‖"), (0.0, 0.6)),
)


def score_walks(walks: Any, *, ax: Axes | None = None) -> Axes:
    """Running dot products ``Σ_{c<d_k} q_c k_c`` of a few random pairs as d_k grows, inside ±√d_k and ±2√d_k.

    Each added feature adds one product of mean 0 and variance 1, so a score wanders like a random
    walk and its typical size grows like √d_k: the band is one and two standard deviations.

    Shapes:
        walks (n_pairs, D): entry [p, d_k-1] is the score of pair p over its first d_k features

    Taught in: 05 §1
    """
    w = np.asarray(walks, dtype=float)
    if w.ndim != 2 or w.shape[1] < 2:
        raise ValueError(f"walks must have shape (n_pairs, D) with D >= 2; got {w.shape}")
    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 3.8))
    d = np.arange(1, w.shape[1] + 1)
    root = np.sqrt(d)
    ax.fill_between(d, -2 * root, 2 * root, color="#e8e8e8", lw=0, label="±2√d_k")
    ax.fill_between(d, -root, root, color="#cfcfcf", lw=0, label=tr("±√d_k (one std)"))
    for p, walk in enumerate(w):
        ax.plot(d, walk, lw=1.1, color=token_colour(p))
    ax.axhline(0, color="#888888", lw=0.8)
    ax.set_xlim(1, w.shape[1])
    ax.set_xlabel(tr("d_k: number of features in q and k"))
    ax.set_ylabel(tr("q·k over the first d_k features"))
    ax.set_title(tr("{n} random pairs: each score is a random walk").format(n=w.shape[0]), fontsize="medium")
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

    Error bars are two standard errors (``se_raw``, ``se_scaled``) when given.

    Shapes:
        d_ks (n,), var_raw (n,), var_scaled (n,), se_raw (n,), se_scaled (n,)

    Taught in: 05 §2
    """
    d = np.asarray(d_ks, dtype=float)
    arrays = [np.asarray(a, dtype=float) for a in (var_raw, var_scaled)]
    if d.ndim != 1 or any(a.shape != d.shape for a in arrays):
        raise ValueError(f"d_ks, var_raw and var_scaled must have the same shape (n,); got {d.shape}")
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    theory, measured = tr("theory: {law}"), tr("measured: {score}")
    ax.plot(d, d, color=RAW_COLOUR, lw=1.2, ls="--", label=theory.format(law="d_k"))
    ax.plot(d, np.ones_like(d), color=SCALED_COLOUR, lw=1.2, ls="--", label=theory.format(law="1"))
    for values, se, colour, score in (
        (arrays[0], se_raw, RAW_COLOUR, "q·k"),
        (arrays[1], se_scaled, SCALED_COLOUR, "q·k / √d_k"),
    ):
        err = None if se is None else 2 * np.asarray(se, dtype=float)
        ax.errorbar(d, values, yerr=err, fmt="o", ms=5, color=colour, capsize=2,
                    label=measured.format(score=score))
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ticks = d[:: max(1, d.size // 6)]
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.set_xlabel("d_k")
    ax.set_ylabel(tr("variance of the scores"))
    ax.legend(frameon=False, fontsize="small", loc="upper left")
    return ax


def histogram_notes(std: float, sigma: str) -> tuple[str, str]:
    """The two lines of a score histogram's corner note: the measured std, the σ of the normal curve.

    ``sigma`` is written by the caller (e.g. "√64 = 8" or "4"), so every language shows the same.

    Taught in: 05 §2
    """
    return (tr("std of the scores {std}").format(std=number(std, 2)),
            tr("normal curve: σ = {sigma}").format(sigma=sigma))


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
    lesson. The bins scale with σ (``attnlib.core.score_bins``).

    Shapes:
        scores (n,)

    Returns
    -------
    Axes
        The axes; ``update_score_histogram`` redraws it for new scores.

    Taught in: 05 §2
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    steps = ax.stairs(np.zeros(45), score_bins(1.0), fill=True, color="#9fb6d6")
    x = np.linspace(-xlim, xlim, 2001)
    (curve,) = ax.plot(x, np.zeros_like(x), color="#222222", lw=1.4, label=tr("normal curve"))
    note = ax.text(0.98, 0.94, "", transform=ax.transAxes, ha="right", va="top", fontsize="small")
    keep_parts(ax, "score_histogram", steps=steps, curve=curve, note=note)
    ax.set_xlim(-xlim, xlim)
    ax.set_yticks([])
    ax.set_xlabel(kind_label("scores"))
    ax.set_ylabel(tr("how often"))
    ax.spines[["top", "right", "left"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize="medium")
    return update_score_histogram(ax, scores, sigma)


def update_score_histogram(
    ax: Axes, scores: Any, sigma: float, *, heights: Any = None, note: str | None = None
) -> Axes:
    """New scores (or their precomputed ``histogram_heights``) and σ for ``score_histogram``.

    ``note`` replaces the corner text (default: ``histogram_notes`` of the measured std and σ). The
    y-axis grows when a histogram is taller than the curve (d_k = 1: a product of two normals is
    sharply peaked).

    Shapes:
        scores (n,), heights (n_bins,)

    Taught in: 05 §2
    """
    p = parts(ax, "score_histogram")
    heights = histogram_heights(scores, sigma) if heights is None else np.asarray(heights, dtype=float)
    p.steps.set_data(heights, score_bins(sigma, n_bins=heights.size))
    x = p.curve.get_xdata()
    p.curve.set_ydata(np.exp(-0.5 * (x / sigma) ** 2))
    ax.set_ylim(0, max(1.6, 1.08 * float(heights.max())))  # headroom for the note
    if note is None:
        note = "\n".join(histogram_notes(float(np.std(scores)), f"{sigma:.3g}"))
    p.note.set_text(note)
    return ax


def weights_row(weights: Any, *, ax: Axes | None = None, max_keys: int = 64) -> Axes:
    """One query's weights over its n keys as bars on a fixed [0, 1] scale; n may change later.

    The keys share the x-axis evenly (no tick labels), the dashed line is the uniform weight 1/n,
    and the largest bar is outlined and labelled with its value.

    Shapes:
        weights (n,), n <= max_keys

    Returns
    -------
    Axes
        The axes; ``update_weights_row`` redraws it for new weights (any n up to ``max_keys``).

    Taught in: 05 §3
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    bars = ax.add_collection(mpl.collections.PolyCollection([], edgecolors="none"))
    outline = ax.add_patch(mpl.patches.Rectangle((0, 0), 0, 0, fill=False, ec="black", lw=1.6))
    (uniform,) = ax.plot([0, 1], [0, 0], ls="--", color="#777777", lw=1.2)
    keep_parts(ax, "weights_row", bars=bars, outline=outline, uniform=uniform, max_keys=max_keys,
               top_text=ax.text(0, 0, "", ha="center", va="bottom", fontsize="small"),
               keys_text=ax.text(0.5, -0.04, "", transform=ax.transAxes, ha="center", va="top"))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.1)
    ax.set_xticks([])
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_ylabel(kind_label("weights"))
    ax.spines[["top", "right"]].set_visible(False)
    return update_weights_row(ax, weights)


def update_weights_row(ax: Axes, weights: Any) -> Axes:
    """New weights (any number n of keys up to the ``max_keys`` first drawn) for ``weights_row``.

    Shapes:
        weights (n,), n <= max_keys

    Taught in: 05 §3
    """
    w = np.asarray(weights, dtype=float)
    p = parts(ax, "weights_row")
    if w.ndim != 1 or not 1 <= w.size <= p.max_keys:
        raise ValueError(f"weights must have shape (n,) with 1 <= n <= {p.max_keys}; got {w.shape}")
    n = w.size
    slot = 1.0 / n
    left = np.arange(n) * slot + 0.1 * slot
    right = left + 0.8 * slot
    verts = np.stack(
        [np.stack([left, np.zeros(n)], -1), np.stack([left, w], -1), np.stack([right, w], -1),
         np.stack([right, np.zeros(n)], -1)],
        axis=1,
    )
    p.bars.set_verts(verts)
    p.bars.set_facecolors(colour_map("weights")(0.15 + 0.85 * w))  # the palest end would vanish on white
    top = int(np.argmax(w))
    p.outline.set_bounds(left[top], 0, right[top] - left[top], w[top])
    p.top_text.set_position(((left[top] + right[top]) / 2, w[top] + 0.015))
    p.top_text.set_text(number(w[top], 3))
    p.uniform.set_ydata([1 / n, 1 / n])
    p.keys_text.set_text(tr("{n} keys  ·  dashed line: uniform 1/{n}").format(n=n))
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

    Returns
    -------
    Axes
        The axes; ``update_entropy_curves`` moves the marker and the highlighted row.

    Taught in: 02 §5
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
    h = entropy(softmax(s[:, None, None] * scores[None], axis=-1))  # (n, T): one curve per row
    row = tr("row {token}")
    curves = [ax.plot(s, h[:, i], color=token_colour(i), lw=1.5, label=row.format(token=token))[0]
              for i, token in enumerate(tokens)]
    n_keys = scores.shape[1]
    ax.axhline(np.log(n_keys), color="#888888", ls="--", lw=1, label=tr("uniform: log {n}").format(n=n_keys))
    vline = ax.axvline(s[0], color="#333333", lw=1)
    (dot,) = ax.plot([], [], "o", ms=7, mec="black")
    keep_parts(ax, "entropy_curves", curves=curves, vline=vline, dot=dot)
    ax.set_xlim(s[0], s[-1])
    ax.set_ylim(0, 1.5 * np.log(n_keys))
    ax.set_xlabel(tr("scale β"))
    ax.set_ylabel(tr("entropy of the row (nats)"))
    ax.legend(loc="upper right", ncols=2, fontsize="small", frameon=False)
    return update_entropy_curves(ax, highlight=highlight, mark=s[0] if mark is None else mark)


def update_entropy_curves(ax: Axes, *, highlight: int, mark: float) -> Axes:
    """Move the vertical marker of ``entropy_curves`` to scale ``mark`` and dot the highlighted row.

    Taught in: 02 §5
    """
    p = parts(ax, "entropy_curves")
    if not 0 <= highlight < len(p.curves):
        raise ValueError(f"highlight must be a row index in 0..{len(p.curves) - 1}; got {highlight}")
    p.vline.set_xdata([mark, mark])
    x, y = p.curves[highlight].get_data()
    p.dot.set_data([mark], [np.interp(mark, x, y)])
    p.dot.set_markerfacecolor(p.curves[highlight].get_color())
    for i, line in enumerate(p.curves):
        line.set_linewidth(3.0 if i == highlight else 1.2)
        line.set_alpha(1.0 if i == highlight else 0.55)
    return ax


def uniform_saturation(n_keys: int) -> tuple[float, float, float]:
    """Largest weight, entropy and gradient size of uniform weights over ``n_keys`` keys:
    ``1/n``, ``log n`` and ``√(1/n − 1/n²)`` (the dashed lines of ``saturation_curves``).

    Taught in: 05 §3
    """
    n = n_keys
    return 1 / n, float(np.log(n)), float(np.sqrt(1 / n - 1 / n**2))


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

    Returns
    -------
    list of Axes
        The three axes; ``update_saturation_curves`` moves everything for new curves or settings.

    Taught in: 05 §3
    """
    d = np.asarray(d_ks, dtype=float)
    if axes is None:
        _, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    axes = list(axes)
    if len(axes) != 3:
        raise ValueError(f"axes must hold 3 Axes (largest weight, entropy, gradient size); got {len(axes)}")
    top_entropy = np.log(max_keys or n_keys) * 1.08
    for ax, (title, ylim) in zip(axes, SATURATION_PANELS, strict=True):
        (raw_line,) = ax.plot([], [], color=RAW_COLOUR, lw=2.5, marker="o", ms=3, label="q·k")
        (scaled_line,) = ax.plot([], [], color=SCALED_COLOUR, lw=2.5, marker="o", ms=3, label="q·k / √d_k")
        (uniform,) = ax.plot([], [], ls="--", color="#777777", lw=1.2, label=tr("uniform weights"))
        (vline,) = ax.plot([], [], ls="-", color="#333333", lw=1.0)  # vertical line at d_k
        (dot,) = ax.plot([], [], "o", ms=11, mec="black", mew=1.5)  # the current point
        keep_parts(ax, "saturation_curves", raw=raw_line, scaled=scaled_line, uniform=uniform, vline=vline,
                   dot=dot)
        ax.set_xscale("log", base=2)
        ax.set_xlim(d[0] / 1.3, d[-1] * 1.3)
        ticks = [t for t in (1, 4, 16, 64, 256, 1024) if d[0] <= t <= d[-1]]
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
        ax.set_ylim(*(ylim or (0.0, top_entropy)))
        ax.set_xlabel("d_k")
        ax.set_title(tr(title), fontsize="medium")
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
    """New curves (e.g. for another number of keys) and a new marked setting for ``saturation_curves``.

    Shapes:
        d_ks (n,), raw (3, n), scaled (3, n)

    Taught in: 05 §5
    """
    d = np.asarray(d_ks, dtype=float)
    raw, scaled = np.asarray(raw, dtype=float), np.asarray(scaled, dtype=float)
    if raw.shape != (3, d.size) or scaled.shape != (3, d.size):
        raise ValueError(
            f"raw and scaled must have shape (3, n) = (3, {d.size}); got {raw.shape}, {scaled.shape}"
        )
    uniform = uniform_saturation(n_keys)
    for k, ax in enumerate(axes):
        p = parts(ax, "saturation_curves")
        p.raw.set_data(d, raw[k])
        p.scaled.set_data(d, scaled[k])
        p.uniform.set_data([d[0] / 1.3, d[-1] * 1.3], [uniform[k], uniform[k]])
        if current is None:
            p.vline.set_data([], [])
            p.dot.set_data([], [])
            continue
        d_k, is_scaled = current
        i = int(np.argmin(np.abs(d - d_k)))
        p.vline.set_data([d_k, d_k], ax.get_ylim())
        p.dot.set_data([d_k], [(scaled if is_scaled else raw)[k, i]])
        p.dot.set_markerfacecolor(SCALED_COLOUR if is_scaled else RAW_COLOUR)
        p.raw.set_alpha(0.3 if is_scaled else 1.0)
        p.scaled.set_alpha(1.0 if is_scaled else 0.3)
    return list(axes)
