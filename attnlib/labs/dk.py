"""The d_k lab of notebook 05: how the width of queries and keys changes scores and softmax.

Taught in: 05 §5. Random queries and keys have entries of mean 0 and variance 1; their first d_k
features give the scores for that d_k (nested vectors: moving the slider adds or removes features
of the same vectors). Everything random is drawn once, here, and every setting is computed here.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import plot
from ..checks import check_choice, check_generator, check_positive_int
from ..core import histogram_heights, nested_dot_products, score_bins, scores, softmax, softmax_saturation
from ..i18n import N_, tr
from ..page import colour_table
from .base import Control, Lab, axis_spec, fill

DK_STEPS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
KEY_STEPS = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128)  # the number of keys, up to max_keys
XLIM = 100.0
HEADLINE = N_("d_k = {d_k}  ·  scores {kind}  ·  {n_keys} keys")
READOUT = N_(
    "<b>d_k = {d_k}</b>, {kind}: score std <b>{std:.2f}</b> (theory {sigma:.2f}) · "
    "averaged over {n_queries} queries: largest weight <b>{top:.3f}</b> (uniform {u_top:.3f}), "
    "entropy <b>{entropy:.3f}</b> nats (uniform {u_entropy:.3f}), "
    "gradient size <b>{gradient:.3f}</b> (uniform {u_gradient:.3f})"
)
KINDS = (N_("q·k (unscaled)"), "q·k / √d_k")  # the scores, unscaled and scaled
HIST_TITLE, ROW_TITLE = N_("distribution of the scores"), N_("softmax weights of one query")


def make_dk_lab(
    *, rng: Any, d_k: int = 64, scaled: bool = False, n_keys: int = 8, max_keys: int = 64,
    n_samples: int = 4000, n_queries: int = 400,
) -> Lab:
    """The d_k lab: d_k (1 to 1024), scaled or not, and the number of keys (2 to ``max_keys``, in steps).

    Panels: the distribution of q·k (or q·k/√d_k) with its normal curve; the weights of one query
    over ``n_keys`` keys; largest weight, entropy and gradient size (norm of the softmax Jacobian,
    averaged over ``n_queries`` queries) against d_k, with the current setting marked.

    Parameters
    ----------
    rng
        The ``np.random.Generator`` that draws every random vector.
    d_k, scaled, n_keys
        Starting values of the three controls (n_keys: one of 2, 3, 4, 6, 8, 12, ... up to ``max_keys``).

    Returns
    -------
    Lab
        ``lab.state`` holds ``d_k``, ``scaled``, ``n_keys``, ``weights`` (n_keys,), ``score_std``,
        ``sigma``, ``max_weight``, ``entropy`` and ``gradient``.

    Taught in: 05 §5
    """
    rng = check_generator(rng)
    check_choice(d_k, "d_k", DK_STEPS)
    max_keys = check_positive_int(max_keys, "max_keys")
    keys = sorted({k for k in KEY_STEPS if k < max_keys} | {max_keys} - {1})
    check_choice(check_positive_int(n_keys, "n_keys"), "n_keys", keys)
    widths = np.array(DK_STEPS)
    D = int(widths[-1])
    roots = np.sqrt(widths)

    # Histograms: independent pairs (q, k), every width of the same vectors.
    q = rng.standard_normal((n_samples, D), dtype=np.float32)  # float32: 16 MB, plenty for a histogram
    k = rng.standard_normal((n_samples, D), dtype=np.float32)
    pairs = nested_dot_products(q, k, widths)  # (n_samples, n_widths)
    del q, k
    # One query against max_keys keys, for the row of weights.
    row_scores = nested_dot_products(rng.standard_normal(D), rng.standard_normal((max_keys, D)), widths)
    # Many queries against the same keys, for the curves (averaged over the queries).
    Q, K = rng.standard_normal((n_queries, D)), rng.standard_normal((max_keys, D))
    # (n_widths, n_queries, max_keys): the unscaled scores of each width
    bank = np.stack([scores(Q[:, :d], K[:, :d], scale=False) for d in widths])
    curves = {n: (np.stack(softmax_saturation(bank[:, :, :n])).mean(axis=-1),
                  np.stack(softmax_saturation(bank[:, :, :n] / roots[:, None, None])).mean(axis=-1))
              for n in keys}  # n -> (raw, scaled), each (3, n_widths)

    def histogram(i: int, is_scaled: bool) -> tuple[np.ndarray, float, float]:
        s = pairs[:, i] / roots[i] if is_scaled else pairs[:, i]
        sigma = 1.0 if is_scaled else float(roots[i])
        return s, float(np.std(s)), sigma

    kinds = (tr(KINDS[0]), KINDS[1])
    headline = tr(HEADLINE)

    @cache
    def panel(i: int, is_scaled: bool) -> dict:
        """The histogram of one (d_k, scaling), its notes, and the row of one query's scores as shown."""
        s, std, sigma = histogram(i, is_scaled)
        heights = np.round(histogram_heights(s, sigma), 5)
        law = "1" if is_scaled or widths[i] == 1 else f"√{widths[i]} = {sigma:.3g}"
        return {"std": std, "sigma": sigma, "hist": heights, "edges": score_bins(sigma),
                "hist_top": max(1.6, 1.08 * float(heights.max())),  # headroom for the notes
                "notes": list(plot.histogram_notes(std, law)), "normal": 0 if is_scaled else i,
                "row_scores": row_scores[:, i] / (roots[i] if is_scaled else 1.0)}

    def frame(d_k: int, scaled: bool, n_keys: int) -> dict:
        i = DK_STEPS.index(d_k)
        p = panel(i, scaled)
        weights = softmax(p["row_scores"][:n_keys])
        top, ent, grad = curves[n_keys][1 if scaled else 0][:, i]
        u = plot.uniform_saturation(n_keys)
        fields = {"d_k": d_k, "kind": kinds[int(scaled)], "n_keys": n_keys,
                  "std": p["std"], "sigma": p["sigma"], "n_queries": n_queries, "top": float(top),
                  "entropy": float(ent),
                  "gradient": float(grad), "u_top": u[0], "u_entropy": u[1], "u_gradient": u[2]}
        return {**p, "d_k": d_k, "scaled": scaled, "n_keys": n_keys, "weights": weights,
                "score_std": p["std"], "max_weight": float(top), "entropy": float(ent),
                "gradient": float(grad), "top": int(np.argmax(weights)), "uniform": list(u),
                "curves": list(curves[n_keys]), "fields": fields}

    def snapshot(d_k: int, scaled: bool, n_keys: int) -> Figure:
        i = DK_STEPS.index(d_k)
        f = frame(d_k, scaled, n_keys)
        fig, ax_hist, ax_row, bottom = _panels()
        s, _, sigma = histogram(i, scaled)
        plot.score_histogram(s, sigma, ax=ax_hist, title=tr(HIST_TITLE), xlim=XLIM,
                             note="\n".join(panel(i, scaled)["notes"]))
        ax_row.set_title(tr(ROW_TITLE), fontsize="medium")
        plot.weights_row(f["weights"], ax=ax_row, max_keys=max_keys)
        plot.saturation_curves(widths, *curves[n_keys], n_keys=n_keys, max_keys=max_keys,
                               current=(d_k, scaled), axes=bottom)
        fig.suptitle(fill(headline, f["fields"]), fontsize="x-large")
        return fig

    # What the page draws from: the normal curves (one per σ), the axes as matplotlib draws them; per
    # setting (spec["frames"]) the histograms, notes, rows of scores and curves. The page's one
    # computation, softmax of the first n_keys scores of the row, is checked against attnlib.
    x = np.linspace(-XLIM, XLIM, 401)
    sigmas = [1.0, *roots[1:]]
    data = {
        "widths": widths, "max_keys": max_keys, "curve_x": x,
        "normal": [np.round(np.exp(-0.5 * (x / s) ** 2), 5) for s in sigmas],
        "axes": _page_axes(pairs[:, -1], float(roots[-1]), widths, curves[keys[0]], keys[0], max_keys),
        "panels": [tr(title) for title, _ in plot.SATURATION_PANELS],
        "raw_colour": plot.RAW_COLOUR, "scaled_colour": plot.SCALED_COLOUR,
        "cmap": colour_table("weights"), "headline": headline,
        "text": {"score": plot.kind_label("scores"), "how_often": tr("how often"),
                 "hist_title": tr(HIST_TITLE),
                 "weight": plot.kind_label("weights"), "row_title": tr(ROW_TITLE),
                 "keys": tr("{n} keys  ·  dashed line: uniform 1/{n}"), "uniform": tr("uniform weights"),
                 "kinds": list(kinds)},
    }
    controls = [
        Control("d_k", "slider", tr("d_k (width of q and k)"), list(DK_STEPS)),
        Control("scaled", "toggle", tr("scores"), [False, True], ["q·k", "q·k / √d_k"]),
        Control("n_keys", "slider", tr("number of keys"), keys),
    ]
    # The key count is written by the page for every n: its digits are in the Latin face already.
    # Heights are per σ (the same scaled or not), and scaling keeps the heaviest key: those skip "scaled".
    by_width, by_keys = ("d_k", "scaled"), ("n_keys",)
    page_parts = {"row_scores": by_width, "hist": ("d_k",), "edges": by_width, "hist_top": ("d_k",),
             "notes": by_width, "normal": by_width, "top": ("d_k", "n_keys"), "uniform": by_keys,
             "curves": by_keys,
             "fields.d_k": ("d_k",), "fields.kind": ("scaled",), "fields.n_keys": by_keys,
             "fields.std": by_width, "fields.sigma": by_width, "fields.n_queries": (),
             **{f"fields.{k}": None for k in ("top", "entropy", "gradient")},
             **{f"fields.u_{k}": by_keys for k in ("top", "entropy", "gradient")}}
    return Lab("dk", controls, {"d_k": d_k, "scaled": scaled, "n_keys": n_keys}, data, frame=frame,
               readout=tr(READOUT), snapshot=snapshot, page_parts=page_parts)


def _panels() -> tuple[Figure, Any, Any, list[Any]]:
    """The snapshot's figure and its panels: the histogram, one query's weights, the three curves."""
    fig = plot.new_figure((11.0, 6.6), dpi=90)
    grid = fig.add_gridspec(2, 6, height_ratios=[1.15, 1.0], left=0.065, right=0.985, top=0.88,
                            bottom=0.1, hspace=0.82, wspace=1.1)
    ax_hist, ax_row = fig.add_subplot(grid[0, :3]), fig.add_subplot(grid[0, 3:])
    return fig, ax_hist, ax_row, [fig.add_subplot(grid[1, 2 * c: 2 * c + 2]) for c in range(3)]


def _page_axes(scores: Any, sigma: float, widths: Any, curves: Any, n_keys: int, max_keys: int) -> dict:
    """The panels' axes as the snapshot draws them (limits, ticks, tick labels), for the page to copy."""
    _, ax_hist, ax_row, bottom = _panels()
    plot.score_histogram(scores, sigma, ax=ax_hist, xlim=XLIM)
    plot.weights_row(np.full(n_keys, 1 / n_keys), ax=ax_row, max_keys=max_keys)
    plot.saturation_curves(widths, *curves, n_keys=n_keys, max_keys=max_keys, axes=bottom)
    return {"hist": axis_spec(ax_hist), "row": axis_spec(ax_row), "curves": [axis_spec(ax) for ax in bottom]}

