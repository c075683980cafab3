"""The convex-hull lab of notebook 03: outputs ``softmax(β·X·Xᵀ)·X`` of 2-D tokens, moved by β.

Taught in: 03 §3. At β = 0 every output sits on the centroid; as β grows each moves towards the
token with the largest score in its row, never leaving the convex hull.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import plot
from ..checks import check_shape
from ..core import convex_hull_2d, inside_convex_hull, scores, softmax
from ..i18n import N_, tr
from ..validation import as_float_array
from .base import Lab, axis_spec, fill, slider

READOUT = N_("β = {scale:.1f} · largest weight per row: {tops} · all outputs inside the hull: {inside}")
TITLE = N_("out = softmax(β · X·Xᵀ) · X at β = {scale:.1f}")
LEGEND = (N_("convex hull"), N_("centroid (mean)"), N_("outputs"))


def make_convex_hull_lab(X: Any, tokens: list[str], *, scale: float = 1.0, max_scale: float = 6.0) -> Lab:
    """Lab for notebook 03: a scale slider β (0 to ``max_scale``, step 0.1) over 2-D tokens.

    Shapes
    ------
    X (T, 2), tokens (T,)

    Returns
    -------
    Lab
        Faint trails show each output's whole path; ``lab.state`` holds ``weights`` (T, T), ``out``
        (T, 2) and ``inside`` (whether every output lies in the hull).

    Taught in: 03 §3
    """
    X = as_float_array(X, "X", expected="(T, 2)")
    check_shape(X.shape == (len(tokens), 2), "X", expected=f"(T, 2) for T={len(tokens)} tokens", got=X.shape)
    S = scores(X, X, scale=False)  # X·Xᵀ: (T, T)
    control = slider("scale", tr("scale β"), 0.0, max_scale, 0.1)
    trails = softmax(np.linspace(0.0, max_scale, 121)[:, None, None] * S[None], axis=-1) @ X  # (n, T, 2)
    title, yes, no = tr(TITLE), tr("yes"), tr("NO")

    def frame(scale: float) -> dict:
        weights = softmax(scale * S)
        out = weights @ X
        inside = bool(inside_convex_hull(X, out).all())
        tops = ", ".join(f"{t} {plot.number(w, 3)}" for t, w in zip(tokens, weights.max(axis=1), strict=True))
        return {"weights": weights, "out": out, "inside": inside,
                "fields": {"scale": scale, "tops": tops, "inside": yes if inside else no}}

    def snapshot(scale: float) -> Figure:
        fig = plot.new_figure((6.0, 4.4))
        plot.convex_hull_picture(X, softmax(scale * S) @ X, tokens, ax=fig.subplots(), trails=trails,
                                 title=fill(title, {"scale": scale}))
        fig.tight_layout()
        return fig

    data = {
        "X": X, "tokens": tokens, "hull": convex_hull_2d(X), "centroid": X.mean(axis=0), "trails": trails,
        "colours": [plot.token_colour(i) for i in range(len(tokens))],
        "axes": axis_spec(snapshot(scale).axes[0]), "title": title,
        "text": {"xlabel": tr("feature 1"), "ylabel": tr("feature 2"), "legend": [tr(t) for t in LEGEND]},
    }
    return Lab("convex_hull", [control], {"scale": scale}, data, frame=frame, readout=tr(READOUT),
               snapshot=snapshot, page_parts={"out": None, "fields": None})
