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

from ..checks import check_choice, check_shape
from ..core import entropy, histogram_heights, score_bins, softmax
from ..i18n import N_, tr
from .style import (
    RAW_COLOUR,
    SCALED_COLOUR,
    colour_map,
    kind_label,
    legible_ticks,
    number,
    text_size,
    token_colour,
)

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
        check_shape(False, "walks", expected="(n_pairs, D), D >= 2", got=w.shape)
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
    ax.legend(loc="upper left", frameon=False, fontsize=text_size(ax.figure))
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
        check_shape(False, "d_ks, var_raw, var_scaled", expected="(n,) each",
                    got=(d.shape, *(a.shape for a in arrays)))
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
    ax.legend(frameon=False, fontsize=text_size(ax.figure), loc="upper left")
    return ax


def histogram_notes(std: float, sigma: str) -> tuple[str, str]:
    """The two lines of a score histogram's corner note: the measured std, the σ of the normal curve.

    ``sigma`` is written by the caller (e.g. "√64 = 8" or "4"), so every language shows the same.
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
    note: str | None = None,
) -> Axes:
    """The distribution of scores with the normal curve N(0, σ²), both scaled so the curve peaks at 1.

    The x-axis is fixed (±``xlim``) so that panels for different d_k compare: the width is the
    lesson. The bins scale with σ (``attnlib.core.score_bins``). The y-axis grows when a histogram
    is taller than the curve (d_k = 1: a product of two normals is sharply peaked). ``note`` is the
    corner text (default: ``histogram_notes`` of the measured std and σ).

    Shapes:
        scores (n,)

    Taught in: 05 §2
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    heights = histogram_heights(scores, sigma)
    ax.stairs(heights, score_bins(sigma, n_bins=heights.size), fill=True, color="#9fb6d6")
    x = np.linspace(-xlim, xlim, 2001)
    ax.plot(x, np.exp(-0.5 * (x / sigma) ** 2), color="#222222", lw=1.4, label=tr("normal curve"))
    if note is None:
        note = "\n".join(histogram_notes(float(np.std(scores)), f"{sigma:.3g}"))
    ax.text(0.98, 0.94, note, transform=ax.transAxes, ha="right", va="top", fontsize=text_size(ax.figure))
    ax.set_xlim(-xlim, xlim)
    ax.set_ylim(0, max(1.6, 1.08 * float(heights.max())))  # headroom for the note
    ax.set_yticks([])
    ax.set_xlabel(kind_label("scores"))
    ax.set_ylabel(tr("how often"))
    ax.spines[["top", "right", "left"]].set_visible(False)
    if title:
        ax.set_title(title, fontsize="medium")
    return ax


def weights_row(weights: Any, *, ax: Axes | None = None, max_keys: int = 64) -> Axes:
    """One query's weights over its n keys as bars on a fixed [0, 1] scale.

    The keys share the x-axis evenly (no tick labels), the dashed line is the uniform weight 1/n,
    and the largest bar is outlined and labelled with its value.

    Shapes:
        weights (n,), n <= max_keys

    Taught in: 05 §3
    """
    w = np.asarray(weights, dtype=float)
    if w.ndim != 1 or not 1 <= w.size <= max_keys:
        check_shape(False, "weights", expected=f"(n,), 1 <= n <= {max_keys}", got=w.shape)
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    n = w.size
    slot = 1.0 / n
    left = np.arange(n) * slot + 0.1 * slot
    right = left + 0.8 * slot
    verts = np.stack(
        [np.stack([left, np.zeros(n)], -1), np.stack([left, w], -1), np.stack([right, w], -1),
         np.stack([right, np.zeros(n)], -1)],
        axis=1,
    )
    # the palest end of the map would vanish on white
    ax.add_collection(mpl.collections.PolyCollection(verts, edgecolors="none",
                                                     facecolors=colour_map("weights")(0.15 + 0.85 * w)))
    top = int(np.argmax(w))
    ax.add_patch(mpl.patches.Rectangle((left[top], 0), right[top] - left[top], w[top], fill=False, ec="black",
                                       lw=1.6))
    ax.plot([0, 1], [1 / n, 1 / n], ls="--", color="#777777", lw=1.2)
    ax.text((left[top] + right[top]) / 2, w[top] + 0.015, number(w[top], 3), ha="center", va="bottom",
            fontsize=text_size(ax.figure))
    ax.text(0.5, -0.04, tr("{n} keys  ·  dashed line: uniform 1/{n}").format(n=n), transform=ax.transAxes,
            ha="center", va="top")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.1)
    ax.set_xticks([])
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_ylabel(kind_label("weights"))
    ax.spines[["top", "right"]].set_visible(False)
    legible_ticks(ax)
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
    by k tokens levels off at log k instead of 0. ``mark`` draws a vertical line at one scale (default:
    the first) with a dot on the curve of row ``highlight``, drawn thicker than the others.

    Shapes:
        scores (T, T), tokens (T,), scales (n,)
    """
    scores = np.asarray(scores, dtype=float)
    s = np.asarray(scales, dtype=float)
    if scores.ndim != 2 or scores.shape[0] != len(tokens):
        check_shape(False, "scores", expected=f"(T, T_k), T = {len(tokens)} tokens", got=scores.shape)
    if s.ndim != 1 or s.size < 2:
        check_shape(False, "scales", expected="(n,), n >= 2", got=s.shape)
    if not 0 <= highlight < len(tokens):
        check_choice(highlight, "highlight", range(len(tokens)))
    mark = s[0] if mark is None else mark
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.4))
    h = entropy(softmax(s[:, None, None] * scores[None], axis=-1))  # (n, T): one curve per row
    row = tr("row {token}")
    curves = [ax.plot(s, h[:, i], color=token_colour(i), lw=1.5, label=row.format(token=token))[0]
              for i, token in enumerate(tokens)]
    n_keys = scores.shape[1]
    ax.axhline(np.log(n_keys), color="#888888", ls="--", lw=1, label=tr("uniform: log {n}").format(n=n_keys))
    ax.axvline(mark, color="#333333", lw=1)
    ax.plot([mark], [np.interp(mark, s, h[:, highlight])], "o", ms=7, mec="black",
            mfc=token_colour(highlight))
    ax.set_xlim(s[0], s[-1])
    ax.set_ylim(0, 1.5 * np.log(n_keys))
    ax.set_xlabel(tr("scale β"))
    ax.set_ylabel(tr("entropy of the row (nats)"))
    ax.legend(loc="upper right", ncols=2, fontsize=text_size(ax.figure), frameon=False, borderaxespad=0.9)
    for i, line in enumerate(curves):  # after the legend, whose keys keep the plain line
        line.set_linewidth(3.0 if i == highlight else 1.2)
        line.set_alpha(1.0 if i == highlight else 0.55)
    return ax


def uniform_saturation(n_keys: int) -> tuple[float, float, float]:
    """Largest weight, entropy and gradient size of uniform weights over ``n_keys`` keys:
    ``1/n``, ``log n`` and ``√(1/n − 1/n²)`` (the dashed lines of ``saturation_curves``).
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
        The three axes.

    Taught in: 05 §3
    """
    d = np.asarray(d_ks, dtype=float)
    raw, scaled = np.asarray(raw, dtype=float), np.asarray(scaled, dtype=float)
    if raw.shape != (3, d.size) or scaled.shape != (3, d.size):
        check_shape(False, "raw, scaled", expected=f"(3, n) = (3, {d.size})", got=(raw.shape, scaled.shape))
    if axes is None:
        _, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    axes = list(axes)
    if len(axes) != 3:
        check_shape(False, "axes", expected="(3,)", got=(len(axes),))
    top_entropy = np.log(max_keys or n_keys) * 1.08
    uniform = uniform_saturation(n_keys)
    for k, (ax, (title, ylim)) in enumerate(zip(axes, SATURATION_PANELS, strict=True)):
        ax.plot(d, raw[k], color=RAW_COLOUR, lw=2.5, marker="o", ms=3, label="q·k")
        ax.plot(d, scaled[k], color=SCALED_COLOUR, lw=2.5, marker="o", ms=3, label="q·k / √d_k")
        ax.plot([d[0] / 1.3, d[-1] * 1.3], [uniform[k]] * 2, ls="--", color="#777777", lw=1.2,
                label=tr("uniform weights"))
        ax.set_xscale("log", base=2)
        ax.set_xlim(d[0] / 1.3, d[-1] * 1.3)
        ticks = [t for t in (1, 4, 16, 64, 256, 1024) if d[0] <= t <= d[-1]]
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
        ax.set_ylim(*(ylim or (0.0, top_entropy)))
        if current is not None:
            d_k, is_scaled = current
            i = int(np.argmin(np.abs(d - d_k)))
            ax.plot([d_k, d_k], ax.get_ylim(), ls="-", color="#333333", lw=1.0)  # vertical line at d_k
            ax.plot([d_k], [(scaled if is_scaled else raw)[k, i]], "o", ms=11, mec="black", mew=1.5,
                    mfc=SCALED_COLOUR if is_scaled else RAW_COLOUR)  # the current point
        ax.set_xlabel("d_k")
        ax.set_title(tr(title), fontsize="medium")
        ax.spines[["top", "right"]].set_visible(False)
    # Above the middle panel's title: inside any panel the legend would cover a curve for some setting.
    axes[1].legend(loc="lower center", bbox_to_anchor=(0.5, 1.13), ncols=3, frameon=False,
                   fontsize=text_size(axes[1].figure))
    if current is not None:  # the marked curve in full colour, the other faded (not in the legend's keys)
        for ax in axes:
            raw_line, scaled_line = ax.lines[:2]
            raw_line.set_alpha(0.3 if current[1] else 1.0)
            scaled_line.set_alpha(1.0 if current[1] else 0.3)
    return axes
