"""The softmax-scale lab of notebook 02: multiply one row of scores by β and watch its weights.

Taught in: 02 §5. β = 0 gives uniform weights (entropy log T); a large β piles the weight on the
largest score (on all of them equally if several tie). The temperature is 1/β.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import plot
from ..checks import check_shape
from ..core import entropy, softmax
from ..i18n import N_, tr
from ..page import colour_table
from ..validation import as_float_array
from .base import Control, Lab, axis_spec, fill, slider

READOUT = N_("β = {scale:.1f} (temperature 1/β = {temperature}) · row {row}: largest weight {largest:.4f} "
             "on {top} · entropy {entropy:.4f} nats (uniform: {uniform:.4f})")
TITLE = N_("weights of row {row} at β = {scale:.1f}")
CURVE_POINTS = 201


def make_softmax_scale_lab(
    scores: Any, tokens: list[str], *, scale: float = 1.0, query: int = 0, max_scale: float = 10.0
) -> Lab:
    """Lab for notebook 02: a query menu and a scale slider β (0 to ``max_scale``, step 0.1).

    Shapes
    ------
    scores (T, T), tokens (T,)

    Returns
    -------
    Lab
        Bars of the row's weights beside the entropy curves of every row; ``lab.state`` holds
        ``weights`` (T,), ``entropy`` and ``largest``.

    Taught in: 02 §5
    """
    scores = as_float_array(scores, "scores", expected="(T, T)")
    check_shape(scores.shape == (len(tokens), len(tokens)), "scores",
                expected=f"(T, T) for T={len(tokens)} tokens", got=scores.shape)
    T = len(tokens)
    controls = [
        Control("query", "menu", tr("query row"), list(range(T)), list(tokens)),
        slider("scale", tr("scale β"), 0.0, max_scale, 0.1),
    ]
    uniform = float(np.log(T))
    title, joined = tr(TITLE), tr(" and ")

    def frame(query: int, scale: float) -> dict:
        w = softmax(scale * scores[query])
        top = [tokens[j] for j in np.flatnonzero(np.isclose(w, w.max(), rtol=0, atol=1e-9))]
        h = float(entropy(w))
        fields = {"scale": scale, "temperature": "∞" if scale == 0 else plot.number(1 / scale, 2),
                  "row": tokens[query], "largest": float(w.max()), "top": joined.join(top),
                  "entropy": h, "uniform": uniform}
        return {"weights": w, "entropy": h, "largest": float(w.max()),
                "outlined": np.isclose(w, w.max(), rtol=0, atol=1e-9), "fields": fields}

    def snapshot(query: int, scale: float) -> Figure:
        fig = plot.new_figure((9.6, 3.7))
        ax_bars, ax_h = fig.subplots(1, 2, width_ratios=[1, 1.35])
        plot.weight_bars(softmax(scale * scores[query]), tokens, ax=ax_bars,
                         title=fill(title, {"row": tokens[query], "scale": scale}))
        plot.entropy_curves(scores, tokens, scales=np.linspace(0.0, max_scale, CURVE_POINTS), ax=ax_h,
                            highlight=query, mark=scale)
        fig.tight_layout()
        return fig

    fine = np.linspace(0.0, max_scale, CURVE_POINTS)
    figure = snapshot(query, scale)
    data = {
        "tokens": tokens,
        "curve_scales": fine,
        "curves": entropy(softmax(fine[:, None, None] * scores[None], axis=-1)).T,  # (T, n)
        "uniform": uniform,
        "colours": [plot.token_colour(i) for i in range(T)],
        "cmap": colour_table("weights"),
        "bars_axes": axis_spec(figure.axes[0]),
        "curve_axes": axis_spec(figure.axes[1]),
        "title": title,
        "text": {"key": tr("key"), "weight": plot.kind_label("weights"), "scale": tr("scale β"),
                 "entropy": tr("entropy of the row (nats)"),
                 "rows": [tr("row {token}").format(token=t) for t in tokens],
                 "uniform": tr("uniform: log {n}").format(n=T)},
    }
    return Lab("softmax_scale", controls, {"query": query, "scale": scale}, data, frame=frame,
               readout=tr(READOUT), snapshot=snapshot,
               page_parts={"weights": None, "outlined": None, "entropy": None, "fields": None})
