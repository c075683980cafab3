"""The mask lab of notebook 06: a padded batch, four kinds of mask, scores → masked → weights.

Taught in: 06 §8. Sentence b keeps its first ``lengths[b]`` tokens; the rest of its T positions are
padding (label "<pad>", embedding all zeros, so its scores are 0 unless masked).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import plot
from ..checks import check_choice, check_shape
from ..core import attention_weights, causal_mask, padding_mask, scores
from ..i18n import N_, tr
from ..page import colour_table
from ..validation import as_float_array, check_finite
from .base import Control, Lab, slider

MASK_TYPES = ("none", "padding", "causal", "both")
MASK_NAMES = (N_("none"), N_("padding"), N_("causal"), N_("both"))  # how the page names them
PAD = "<pad>"
READOUT = N_("mask <b>{mask}</b> · T = {T} · real tokens {real} · {blocked} of {cells} cells blocked, "
             "each with weight exactly 0 · every row sums to 1 · most weight a real token puts on padding, "
             "per sentence: <b>{leaks}</b>")
SENTENCE = N_("sentence {b}: {n} real")
PADDED = N_(" + {pads} {pad}")


def make_mask_lab(
    X: Any, tokens: list[list[str]], *, W_q: Any = None, W_k: Any = None, mask: str = "both",
    seq_len: int | None = None, lengths: list[int] | None = None,
) -> Lab:
    """The mask lab: mask type ("none", "padding", "causal", "both"), sequence length T, and the
    number of real tokens of each sentence (at most T).

    Parameters
    ----------
    X, tokens
        Embeddings and words of the full sentences.
    W_q, W_k
        Projections (default: the identity, so the scores are X·Xᵀ/√d_model).
    mask, seq_len, lengths
        Starting values of the controls (defaults: both, T, T for each).

    Shapes
    ------
    X (B, T, d_model), tokens (B, T), W_q (d_model, d_k), W_k (d_model, d_k), lengths (B,)

    Returns
    -------
    Lab
        ``lab.state`` holds ``mask``, ``seq_len``, ``lengths``, ``tokens``, ``keep`` (B, T, T),
        ``scores``, ``weights`` (B, T, T) and ``leak`` (per sentence, the most weight a real token
        puts on padding keys).

    Taught in: 06 §8
    """
    X = as_float_array(X, "X", expected="(B, T, d_model)")
    fits = X.ndim == 3 and len(tokens) == X.shape[0] and all(len(t) == X.shape[1] for t in tokens)
    check_shape(fits, "X", expected="(B, T, d_model) with B lists of T tokens", got=np.shape(X))
    check_finite(X, "X")
    B, T_max, d_model = X.shape
    W_q = np.eye(d_model) if W_q is None else as_float_array(W_q, "W_q", expected="(d_model, d_k)")
    W_k = np.eye(d_model) if W_k is None else as_float_array(W_k, "W_k", expected="(d_model, d_k)")
    check_choice(mask, "mask", MASK_TYPES)
    seq_len = T_max if seq_len is None else check_choice(seq_len, "seq_len", range(2, T_max + 1))
    lengths = [seq_len] * B if lengths is None else list(lengths)
    check_shape(len(lengths) == B, "lengths", expected=f"(B,) = ({B},)", got=np.shape(lengths))
    for b, n in enumerate(lengths):
        check_choice(n, f"lengths[{b}]", range(1, seq_len + 1))
    vmax = float(np.abs(scores(X @ W_q, X @ W_k)).max()) or 1.0  # padding only puts zeros in
    mask_names = dict(zip(MASK_TYPES, map(tr, MASK_NAMES), strict=True))
    sentence, padded = tr(SENTENCE), tr(PADDED)

    def name(b: int, n: int, T: int) -> str:
        return sentence.format(b=b + 1, n=n) + (padded.format(pads=T - n, pad=PAD) if T > n else "")

    def frame(mask: str, seq_len: int, **lengths_: int) -> dict:
        T = seq_len
        n_real = [min(lengths_[f"length_{b + 1}"], T) for b in range(B)]
        real = np.arange(T)[None, :] < np.array(n_real)[:, None]  # (B, T)
        Xb = np.where(real[..., None], X[:, :T], 0.0)  # padding embeds as zeros
        words = [[tokens[b][j] if real[b, j] else PAD for j in range(T)] for b in range(B)]
        Q, K = Xb @ W_q, Xb @ W_k  # (B, T, d_k)
        keep = np.ones((B, T, T), dtype=bool)
        if mask in ("padding", "both"):
            keep &= padding_mask(np.array(n_real), T)
        if mask in ("causal", "both"):
            keep &= causal_mask(T)
        weights = attention_weights(Q, K, keep)  # (B, T, T)
        # Per sentence: the most weight any real query puts on padding keys.
        leak = np.where(real, (weights * ~real[:, None, :]).sum(axis=-1), 0.0).max(axis=-1)
        names = [name(b, n, T) for b, n in enumerate(n_real)]
        fields = {"mask": mask_names[mask], "T": T, "real": "[" + ", ".join(map(str, n_real)) + "]",
                  "blocked": int((~keep).sum()), "cells": keep.size,
                  "leaks": ", ".join(plot.number(x, 3) for x in leak)}
        return {"mask": mask, "seq_len": T, "lengths": n_real, "tokens": words, "keep": keep,
                "scores": scores(Q, K), "weights": weights, "leak": leak, "names": names, "fields": fields}

    def snapshot(**values: Any) -> Figure:
        f = frame(**values)
        height = 1.0 + 3.9 * B
        fig = plot.new_figure((12.5, height), dpi=80)
        grid = fig.add_gridspec(B, 6, width_ratios=[1, 1, 0.05, 0.2, 1, 0.05], left=0.105, right=0.925,
                                top=1 - 0.35 / height, bottom=0.65 / height, wspace=0.12, hspace=0.3)
        rows = []
        for b in range(B):
            axes = [fig.add_subplot(grid[b, k]) for k in (0, 1, 4)]
            plot.mask_panels(f["scores"][b], f["keep"][b], f["tokens"][b], axes=axes, size=T_max, vmax=vmax,
                             titles=b == 0)
            box = axes[0].get_position()
            fig.text(0.012, (box.y0 + box.y1) / 2, f["names"][b], rotation=90, ha="left", va="center")
            rows.append(axes)
        for text in (t for axes in rows for ax in axes for t in plot.heatmap_cells(ax)):
            text.set_fontsize(9)  # fits "−0.25" in a cell of a T = 8 grid
        fig.colorbar(rows[0][0].collections[0], cax=fig.add_subplot(grid[:, 2])).set_label(
            plot.kind_label("scores"))
        fig.colorbar(rows[0][2].collections[0], cax=fig.add_subplot(grid[:, 5])).set_label(
            plot.kind_label("weights"))
        return fig

    # What the page draws from: each sentence's scores and words with its first n tokens real (the
    # rest zero embeddings, "<pad>"), and the mask of each kind for n real tokens, for every n. Per
    # setting (spec["frames"]) it gets the lengths, the names and the readout; it crops the scores and
    # the mask to T and takes the kit's softmax (checked against attnlib at every setting).
    scores_by_length, words_by_length = [], []
    for b in range(B):
        by_n = [frame("none", T_max, **{f"length_{c + 1}": n for c in range(B)}) for n in range(1, T_max + 1)]
        scores_by_length.append([f["scores"][b] for f in by_n])
        words_by_length.append([f["tokens"][b] for f in by_n])
    keep_by_length = {m: [frame(m, T_max, **{f"length_{b + 1}": n for b in range(B)})["keep"][0]
                          for n in range(1, T_max + 1)] for m in MASK_TYPES}
    real_tokens = tr("real tokens in sentence {b}")
    controls = [
        Control("mask", "toggle", tr("mask"), list(MASK_TYPES), [mask_names[m] for m in MASK_TYPES]),
        slider("seq_len", tr("sequence length T"), 2, T_max, 1),
        *(Control(f"length_{b + 1}", "slider", real_tokens.format(b=b + 1), list(range(1, T_max + 1)),
                  limit="seq_len") for b in range(B)),
    ]
    values = {"mask": mask, "seq_len": seq_len, **{f"length_{b + 1}": n for b, n in enumerate(lengths)}}
    data = {"tokens": words_by_length, "scores": scores_by_length, "keep": keep_by_length, "vmax": vmax,
            "bar_ticks": {"scores": vmax * np.linspace(-1, 1, 5), "weights": np.linspace(0, 1, 6)},
            "titles": [tr(t) for t in plot.PANEL_TITLES],
            "scores_cmap": colour_table("scores"), "weights_cmap": colour_table("weights"),
            "masked_colour": plot.MASKED_COLOUR,
            "text": {"score": plot.kind_label("scores"), "weight": plot.kind_label("weights")}}
    lengths_ = ("seq_len", *(f"length_{b + 1}" for b in range(B)))
    page_parts = {"lengths": lengths_, "names": lengths_, "fields.mask": ("mask",), "fields.T": ("seq_len",),
             "fields.real": lengths_, "fields.blocked": None, "fields.cells": ("seq_len",),
             "fields.leaks": None}
    return Lab("mask", controls, values, data, frame=frame, readout=tr(READOUT), snapshot=snapshot,
               texts=["−∞"], page_parts=page_parts)
