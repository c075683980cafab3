"""The whole-formula lab of notebook 07: one query through every stage of softmax(q·Kᵀ/√d_k + M)·V.

Taught in: 07 §5. The learner picks the query token and switches the scaling by √d_k and the causal
mask on and off; the picture shows, for every key j, the score q·k_j, the scaled score, the masked score
("−∞" where blocked), the weight a_j, and the value rows times their weights, a_j·v_j, whose column
sums are the output o.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .. import plot
from ..checks import check_bool, check_index, check_shape
from ..core import attention, attention_weights, causal_mask, project, scores
from ..i18n import N_, tr
from ..page import colour_table
from .base import Control, Lab

READOUT = N_("query <b>{query}</b> · most weight: <b>{top}</b> {top_weight:.3f} · largest feature of o: "
             "<b>{feature}</b> {feature_value:.3f} · {scale_note} · {mask_note}")
SCALED_NOTE = N_("÷√d_k = ÷{root}; unscaled, the most weight would be {other}")
UNSCALED_NOTE = N_("not divided by √d_k; divided, the most weight would be {other}")
HIDDEN_NOTE = N_("the causal mask hides the keys after “{query}” ({hidden}), which would get {lost} of the "
                 "weight without it")
LAST_NOTE = N_("the causal mask hides nothing from the last token")
SEEN_NOTE = N_("no mask: “{query}” also sees the keys after it ({later}), {seen} of the weight")
ALL_NOTE = N_("no mask: the last token sees every key either way")
TIE = N_("{n} keys tied")
QUERY_TITLE = N_("query {token}: q = ({q})")
# The stages' column titles: the scaled column says whether it divides, the masked one which M it adds.
TITLES = {"scores": N_("q·kⱼ"), "scaled": (N_("not scaled"), N_("÷√d_k = ÷{root}")),
          "masked": (N_("+ M = 0"), N_("+ M (causal)")), "weights": N_("softmax aⱼ"),
          "contributions": N_("aⱼ·vⱼ, and their sum o")}
SHORT = {"scaled": (N_("÷1"), N_("÷√{d_k}")), "masked": N_("+ M")}  # the narrow layout's titles


def make_whole_formula_lab(
    X: Any, tokens: list[str], features: list[str], W_q: Any, W_k: Any, W_v: Any, *, query: int = 0,
    scaled: bool = True, causal: bool = False,
) -> Lab:
    """The whole-formula lab: a query menu and two switches, ÷√d_k and the causal mask.

    Parameters
    ----------
    X, tokens, features
        The embeddings, their words and the names of the value features (W_V's columns).
    W_q, W_k, W_v
        The projections: Q = X·W_q, K = X·W_k, V = X·W_v.
    query, scaled, causal
        Starting values of the controls.

    Shapes
    ------
    X (T, d_model), tokens (T,), features (d_v,), W_q (d_model, d_k), W_k (d_model, d_k), W_v (d_model, d_v)

    Returns
    -------
    Lab
        ``lab.state`` holds, for the query: ``scores`` (T,) q·k_j, ``scaled`` (T,) divided by √d_k or
        not, ``keep`` (T,) the keys the mask lets through, ``weights`` (T,), ``contributions`` (T, d_v)
        a_j·v_j and ``out`` (d_v,) their sum, the query's row of ``attnlib.attention``.

    Taught in: 07 §5
    """
    Q, K, V = project(X, W_q, W_k, W_v)  # (T, d_k), (T, d_k), (T, d_v); validates the shapes
    check_shape(Q.ndim == 2, "X", expected="(T, d_model)", got=np.shape(X))
    T, d_k = Q.shape
    tokens, features = list(tokens), list(features)
    check_shape(len(tokens) == T, "tokens", expected=f"(T,) = ({T},), one word per row of X",
                got=(len(tokens),))
    check_shape(len(features) == V.shape[1], "features", expected=f"(d_v,) = ({V.shape[1]},), one name per "
                "column of W_v", got=(len(features),))
    query = check_index(query, "query", T)
    check_bool(scaled, "scaled")
    check_bool(causal, "causal")
    root = math.sqrt(d_k)
    every_key = np.ones((T, T), dtype=bool)
    masks = {False: every_key, True: causal_mask(T)}
    joined = tr(", ")
    texts = {key: tr(value) for key, value in
             {"scaled": SCALED_NOTE, "unscaled": UNSCALED_NOTE, "hidden": HIDDEN_NOTE, "last": LAST_NOTE,
              "seen": SEEN_NOTE, "all": ALL_NOTE, "tie": TIE, "title": QUERY_TITLE}.items()}

    def weights_of(i: int, scale: bool, mask: bool) -> np.ndarray:
        return attention_weights(Q[i:i + 1], K, masks[mask][i:i + 1], scale=scale)[0]  # (T,)

    def top_of(w: np.ndarray) -> str:
        ties = np.flatnonzero(np.isclose(w, w.max(), rtol=0, atol=1e-9))
        return tokens[ties[0]] if len(ties) == 1 else texts["tie"].format(n=len(ties))

    def frame(query: int, scaled: bool, causal: bool) -> dict:
        i = query
        keep = masks[causal][i]  # (T,)
        out, A = attention(Q[i:i + 1], K, V, mask=keep[None], scale=scaled)  # (1, d_v), (1, T)
        weights = A[0]
        other = weights_of(i, not scaled, causal)  # the same query with the other scaling
        unmasked = weights_of(i, scaled, False)
        note = texts["scaled" if scaled else "unscaled"].format(
            root=plot.number(root, 3), other=plot.number(other.max(), 3))
        later = tokens[i + 1:]
        if causal:
            mask_note = (texts["hidden"].format(query=tokens[i], hidden=joined.join(later),
                                                lost=plot.number(unmasked[i + 1:].sum(), 3))
                         if later else texts["last"])
        else:
            mask_note = (texts["seen"].format(query=tokens[i], later=joined.join(later),
                                              seen=plot.number(weights[i + 1:].sum(), 3))
                         if later else texts["all"])
        f = int(np.argmax(out[0]))
        fields = {"query": tokens[i], "top": top_of(weights), "top_weight": float(weights.max()),
                  "feature": features[f], "feature_value": float(out[0, f]), "scale_note": note,
                  "mask_note": mask_note}
        return {"scores": scores(Q[i:i + 1], K, scale=False)[0],
                "scaled": scores(Q[i:i + 1], K, scale=scaled)[0],
                "keep": keep, "weights": weights, "contributions": weights[:, None] * V, "out": out[0],
                "title": texts["title"].format(token=tokens[i], q=", ".join(plot.number(x, 2) for x in Q[i])),
                "fields": fields}

    vmax = float(np.abs(Q @ K.T).max()) or 1.0  # the unscaled scores of every query: one colour scale
    vmax_v = float(np.abs(V).max()) or 1.0
    titles = {"scores": tr(TITLES["scores"]), "scaled": [tr(TITLES["scaled"][0]),
              tr(TITLES["scaled"][1]).format(root=plot.number(root, 2))],
              "masked": [tr(t) for t in TITLES["masked"]], "weights": tr(TITLES["weights"]),
              "contributions": tr(TITLES["contributions"]),
              "short_scaled": [tr(SHORT["scaled"][0]), tr(SHORT["scaled"][1]).format(d_k=d_k)],
              "short_masked": tr(SHORT["masked"])}

    def snapshot(query: int, scaled: bool, causal: bool) -> Figure:
        fr = frame(query, scaled, causal)
        fig = plot.new_figure((12.5, 4.6), dpi=80)
        grid = fig.add_gridspec(1, 6, width_ratios=[1, 1, 1, 1, 0.7, 4.2], left=0.07, right=0.99, top=0.8,
                                bottom=0.2, wspace=0.08)
        masked = np.where(fr["keep"], fr["scaled"], -np.inf)
        columns = (("scores", fr["scores"], titles["scores"]),
                   ("scores", fr["scaled"], titles["scaled"][scaled]),
                   ("scores", masked, titles["masked"][causal]),
                   ("weights", fr["weights"], titles["weights"]))
        blocked = np.flatnonzero(~fr["keep"])
        for k, (kind, column, title) in enumerate(columns):
            ax = fig.add_subplot(grid[0, k])
            plot.heatmap(column[:, None], tokens if k == 0 else [""] * T, [""], kind=kind, ax=ax, cbar=False,
                         vmax=vmax if kind == "scores" else None, xlabel="", ylabel="")
            ax.set_title(title, fontsize="small")
            ax.set_xticks([])
            if k > 0:
                ax.set_yticks([])
            # the query's own row outlined, as on the page (a bold label would need a bold CJK face)
            ax.add_patch(Rectangle((0, query), 1, 1, fill=False, edgecolor="#222222", linewidth=2.5,
                                   clip_on=False))
            if kind == "weights":
                for j in blocked:
                    plot.heatmap_cells(ax)[j].set_text("0")  # exactly 0, not a small weight rounded
        ax = fig.add_subplot(grid[0, 5])
        plot.heatmap(np.vstack([fr["contributions"], fr["out"]]), [*tokens, "o"], features, kind="values",
                     ax=ax, cbar=False, vmax=vmax_v, xlabel="", ylabel="")
        cells = plot.heatmap_cells(ax)  # row by row: T rows of a_j·v_j, then o
        for j in blocked:
            for text in cells[j * len(features):(j + 1) * len(features)]:
                text.set_text("0")
        for text, x in zip(cells[T * len(features):], fr["out"], strict=True):
            text.set_text(plot.number(x, 3))  # o to three digits, as notebook 07 prints it
        ax.axhline(T, color="black", linewidth=2)  # above it the a_j·v_j, below it their sum o
        ax.set_title(titles["contributions"], fontsize="small")
        fig.suptitle(fr["title"], x=0.07, ha="left")
        return fig

    controls = [
        Control("query", "menu", tr("query token"), list(range(T)),
                [f"{t} ({j})" for j, t in enumerate(tokens)]),
        Control("scaled", "toggle", tr("divide by √d_k"), [False, True], [tr("off"), tr("on")]),
        Control("causal", "toggle", tr("causal mask"), [False, True], [tr("off"), tr("on")]),
    ]
    data = {"tokens": tokens, "features": features, "vmax": vmax, "vmax_v": vmax_v, "titles": titles,
            "scores_cmap": colour_table("scores"), "weights_cmap": colour_table("weights"),
            "values_cmap": colour_table("values"), "masked_colour": plot.MASKED_COLOUR}
    page_parts = {"scores": ("query",), "scaled": ("query", "scaled"), "keep": ("query", "causal"),
                  "title": ("query",), "weights": None, "contributions": None, "out": None, "fields": None}
    values = {"query": query, "scaled": bool(scaled), "causal": bool(causal)}
    return Lab("whole_formula", controls, values, data, frame=frame, readout=tr(READOUT), snapshot=snapshot,
               texts=["−∞", "o"], page_parts=page_parts)
