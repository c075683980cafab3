"""The queries-and-keys lab of notebook 04: pick the feature W_Q reads and the one W_K reads, and watch
who attends to whom.

Taught in: 04 §5. As in the section's design, ``d_k = 1``: ``W_Q = c·e_f`` and ``W_K = c·e_g`` read one
feature each with the same entry c, so the score of query i for key j is ``c²·X[i, f]·X[j, g]/√1``.
A query whose feature is 0 scores every key 0 and spreads its weight evenly, 1/T each.

The page gets the columns Q = X·W_Q and K = X·W_K for each feature and entry (a few hundred numbers, not
the scores of every setting); ``qkv.js`` works out the scores Q·Kᵀ/√1 as their products, the weights with
the kit's softmax, the favoured keys (``favoured``) and the verdict (``verdict``, from the templates in
``spec["data"]``) as this module does, and the browser tests compare them with it at every setting.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .. import plot
from ..checks import check_choice, check_shape
from ..core import attention_weights, scores
from ..i18n import N_, tr
from ..page import colour_table
from ..validation import as_float_array, check_finite
from .base import Control, Lab, slider

READOUT = N_("W_Q reads <b>{query_feature}</b>, W_K reads <b>{key_feature}</b>, "
             "both with entry c = {size:.1f} · {verdict}")
ONE = N_("“{query}” attends most to {keys} ({weight})")
TIED = N_("“{query}” attends most to {keys}, equally ({weight} each)")
EVEN = N_("“{query}” has no preference: every key gets 1/{T} = {weight}")
TITLES = (N_("W_Q and W_K (d_k = 1)"), plot.PANEL_TITLES[0], plot.PANEL_TITLES[2])
MAX_SIZE = 4.0


def make_qkv_lab(
    X: Any, tokens: Sequence[str], features: Sequence[str], *, query: int = 0,
    query_feature: str | None = None, key_feature: str | None = None, size: float = 3.0,
) -> Lab:
    """Lab for notebook 04: the feature W_Q reads, the feature W_K reads, their entry c, and the query row
    to read off.

    Parameters
    ----------
    X, tokens, features
        The sentence: embeddings, its words and the names of its features.
    query
        Index of the query token whose row the readout describes.
    query_feature, key_feature
        The features ``W_Q`` and ``W_K`` read (defaults: the first feature).
    size
        The entry c of both (0 to 4 in steps of 0.5).

    Shapes
    ------
    X (T, d_model), tokens (T,), features (d_model,) -> W_q, W_k (d_model, 1), scores, weights (T, T)

    Returns
    -------
    Lab
        ``lab.state`` holds ``W_q`` and ``W_k`` (d_model, 1), ``scores`` and ``weights`` (T, T), and
        ``Q`` and ``K`` (T, 1), and ``top`` (T,): the keys that get the query row's largest weight.

    Taught in: 04 §5
    """
    X = as_float_array(X, "X", expected="(T, d_model)")
    tokens, features = list(tokens), list(features)
    check_shape(X.ndim == 2 and X.shape == (len(tokens), len(features)), "X",
                expected=f"(T, d_model) = ({len(tokens)}, {len(features)}) for the tokens and features",
                got=X.shape)
    check_finite(X, "X")
    T, d_model = X.shape
    query_feature = features[0] if query_feature is None else query_feature
    key_feature = features[0] if key_feature is None else key_feature
    check_choice(query, "query", range(T))
    check_choice(query_feature, "query_feature", features)
    check_choice(key_feature, "key_feature", features)
    size_control = slider("size", tr("entry c of W_Q and W_K"), 0.0, MAX_SIZE, 0.5)
    check_choice(size, "size", size_control.options)
    titles, feature_label = [tr(t) for t in TITLES], tr("feature")
    texts = {"one": tr(ONE), "tied": tr(TIED), "even": tr(EVEN), "quoted": tr("“{token}”"),
             "comma": tr(", "), "last": tr(" and ")}  # the page writes the verdict from these too

    def column(feature: str, c: float) -> np.ndarray:
        W = np.zeros((d_model, 1))  # (d_model, d_k): d_k = 1, one feature read
        W[features.index(feature), 0] = c
        return W

    def frame(query_feature: str, key_feature: str, size: float, query: int) -> dict:
        W_q, W_k = column(query_feature, size), column(key_feature, size)
        Q, K = X @ W_q, X @ W_k  # (T, 1) each
        S, A = scores(Q, K), attention_weights(Q, K)  # (T, T): divided by √d_k = 1
        top = favoured(A[query])
        fields = {"query_feature": query_feature, "key_feature": key_feature, "size": size,
                  "verdict": verdict(A[query], top, tokens, query, texts)}
        return {"W_q": W_q, "W_k": W_k, "Q": Q, "K": K, "scores": S, "weights": A, "top": top,
                "fields": fields}

    vmax = MAX_SIZE**2 * float(np.abs(X).max()) ** 2 or 1.0  # bounds every setting's scores: one colour scale

    def snapshot(query_feature: str, key_feature: str, size: float, query: int) -> Figure:
        f = frame(query_feature, key_feature, size, query)
        fig = plot.new_figure((13.0, 4.6))
        ax_w, ax_s, ax_a = fig.subplots(1, 3, width_ratios=[0.35, 1, 1])
        plot.heatmap(np.hstack([f["W_q"], f["W_k"]]), features, ["W_Q", "W_K"], kind="values", ax=ax_w,
                     vmax=MAX_SIZE, cbar=False, fmt=".1f", xlabel="", ylabel=feature_label, title=titles[0])
        plot.heatmap(f["scores"], tokens, tokens, kind="scores", ax=ax_s, vmax=vmax, title=titles[1])
        plot.heatmap(f["weights"], tokens, tokens, ax=ax_a, title=titles[2])
        for ax in (ax_s, ax_a):  # the query's row, outlined
            ax.add_patch(Rectangle((0, query), T, 1, fill=False, edgecolor="black", linewidth=2.5,
                                   clip_on=False))
            ax.tick_params(axis="x", rotation=90)  # "are playing" would run together level
        fig.tight_layout()
        return fig

    controls = [
        Control("query_feature", "menu", tr("W_Q reads the feature"), features),
        Control("key_feature", "menu", tr("W_K reads the feature"), features),
        size_control,
        Control("query", "menu", tr("query token"), list(range(T)), tokens),
    ]
    values = {"query_feature": query_feature, "key_feature": key_feature, "size": size, "query": query}
    data = {"tokens": tokens, "features": features, "vmax": vmax, "w_max": MAX_SIZE,
            "titles": titles, "columns": ["W_Q", "W_K"], "texts": texts,
            "scores_cmap": colour_table("scores"), "weights_cmap": colour_table("weights")}
    page_parts = {"W_q": ("query_feature", "size"), "W_k": ("key_feature", "size"),
                  "Q": ("query_feature", "size"), "K": ("key_feature", "size"),
                  "fields.query_feature": ("query_feature",), "fields.key_feature": ("key_feature",),
                  "fields.size": ("size",)}
    return Lab("qkv", controls, values, data, frame=frame, readout=tr(READOUT), snapshot=snapshot,
               page_parts=page_parts)



def favoured(row: np.ndarray) -> np.ndarray:
    """The keys that get a query row's largest weight, within 1e-12 (``favoured`` in qkv.js is its twin).

    Shapes: row (T,) -> (T,) booleans
    """
    return np.abs(row - row.max()) <= 1e-12


def verdict(row: np.ndarray, top: np.ndarray, tokens: Sequence[str], query: int,
            texts: dict[str, str]) -> str:
    """What the readout says of the query's row: the keys it favours and their weight, or that it has no
    preference (``verdict`` in qkv.js is its twin; ``texts`` are the translated templates).

    Shapes: row, top (T,) -> str
    """
    names = [texts["quoted"].format(token=tokens[j]) for j in np.flatnonzero(top)]
    keys = names[0] if len(names) == 1 else texts["comma"].join(names[:-1]) + texts["last"] + names[-1]
    template = texts["even"] if top.all() else texts["one"] if top.sum() == 1 else texts["tied"]
    weight = plot.number(row.max(), 3 if top.all() else 2)
    return template.format(query=tokens[query], keys=keys, weight=weight, T=len(tokens))
