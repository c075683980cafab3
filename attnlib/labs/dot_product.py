"""The dot-product lab of notebook 01: turn and stretch two 2-D vectors, watch a·b, cos θ and the projection.

Taught in: 01 §1. b lies along feature 1; a makes the angle θ with it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import plot
from ..core import cosine_similarity
from ..i18n import N_, tr
from .base import Lab, slider

LIM, YLIM = 3.4, (-1.1, 3.4)
TITLE = "a·b = |a| |b| cos θ = {length_a:.2f} × {length_b:.2f} × {cos:.3f} = {dot:.2f}"  # formulas only
READOUT = N_("θ = {angle}° · a·b = {dot:.3f} · cos θ = {cos:.3f} · "
             "projection of a on b = a·b / |b| = {proj:.3f}")


def _vectors(angle: float, length_a: float, length_b: float) -> tuple[np.ndarray, np.ndarray]:
    theta = np.radians(angle)
    return length_a * np.array([np.cos(theta), np.sin(theta)]), np.array([length_b, 0.0])


def make_dot_product_lab(*, angle: int = 60, length_a: float = 2.0, length_b: float = 1.5) -> Lab:
    """Lab for notebook 01: the angle θ (0-180°, step 5) and the lengths |a|, |b| (0.5-3.0, step 0.1).

    Returns
    -------
    Lab
        Its readout shows θ, a·b, cos θ and the projection length a·b/|b|; ``lab.state`` holds
        ``a``, ``b``, ``dot``, ``cos`` and ``proj``.

    Taught in: 01 §1
    """
    controls = [
        slider("angle", tr("angle θ (degrees)"), 0, 180, 5),
        slider("length_a", tr("length |a|"), 0.5, 3.0, 0.1),
        slider("length_b", tr("length |b|"), 0.5, 3.0, 0.1),
    ]
    ticks = np.arange(-3, 4)
    data = {
        "xlim": [-LIM, LIM], "ylim": list(YLIM), "xticks": ticks, "yticks": np.arange(-1.0, 3.5, 0.5),
        "title": TITLE, "colours": [plot.token_colour(0), plot.token_colour(1)],
        "text": {"xlabel": tr("feature 1"), "ylabel": tr("feature 2")},
    }

    # cos θ and the direction of b do not depend on the lengths: computed once per angle, and once.
    unit_a = np.stack([_vectors(t, 1.0, 1.0)[0] for t in controls[0].options])  # (n_angles, 2)
    unit_b = _vectors(0, 1.0, 1.0)[1]  # b / |b|
    cosines = dict(zip(controls[0].options, cosine_similarity(unit_a, unit_b[None])[:, 0].tolist(),
                       strict=True))

    def frame(angle: int, length_a: float, length_b: float) -> dict:
        a, b = _vectors(angle, length_a, length_b)
        dot, cos = float(a @ b), cosines[angle]
        proj = float(a @ unit_b)  # a·b / |b|: the length of a's shadow on b
        fields = {"angle": angle, "length_a": length_a, "length_b": length_b, "dot": dot, "cos": cos,
                  "proj": proj}
        return {"a": a, "b": b, "dot": dot, "cos": cos, "proj": proj, "foot": proj * unit_b,
                "theta": float(np.radians(angle)), "fields": fields}

    def snapshot(angle: int, length_a: float, length_b: float) -> Figure:
        fig = plot.new_figure((5.6, 4.4))
        plot.dot_product_picture(*_vectors(angle, length_a, length_b), ax=fig.subplots(), lim=LIM, ylim=YLIM)
        fig.tight_layout()
        return fig

    # What the page looks up, by the controls each part depends on: only a·b needs all three.
    a_only, turn = ("angle", "length_a"), ("angle",)
    page_parts = {"a": a_only, "proj": a_only, "foot": a_only, "b": ("length_b",), "theta": turn,
             "fields.angle": turn, "fields.cos": turn, "fields.length_a": ("length_a",),
             "fields.length_b": ("length_b",), "fields.proj": a_only, "fields.dot": None}
    return Lab("dot_product", controls, {"angle": angle, "length_a": length_a, "length_b": length_b}, data,
               frame=frame, readout=tr(READOUT), snapshot=snapshot, texts=[TITLE], page_parts=page_parts)
