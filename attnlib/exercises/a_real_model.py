"""The exercises of notebook 08 (attention in a real model): split into heads, a head's weights, its job.

The hidden inputs use T, d_k and n_heads that all differ, so a reshape or transpose along the wrong
axis gives a wrong shape or wrong numbers instead of passing by luck.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import N_
from .pipeline import Exercise, Mistake, OneOf, checkers, softmax_rows

__all__ = ["check_head_weights", "check_previous_token_score", "check_split_heads"]


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline).


def solution_split_heads(X, n_heads):
    d_k = X.shape[-1] // n_heads
    return np.swapaxes(X.reshape(*X.shape[:-1], n_heads, d_k), -2, -3)


def solution_head_weights(X, W_q, W_k, b_q, b_k, h, n_heads):
    d_k = W_q.shape[1] // n_heads
    cols = slice(h * d_k, (h + 1) * d_k)
    Q, K = X @ W_q[:, cols] + b_q[cols], X @ W_k[:, cols] + b_k[cols]
    scores = Q @ K.T / np.sqrt(d_k)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))  # softmax along each row
    return e / e.sum(axis=-1, keepdims=True)


def solution_previous_token_score(weights):
    i = np.arange(1, weights.shape[-1])
    return weights[..., i, i - 1].mean(axis=-1)


def _split_inputs(shapes) -> list[tuple[np.ndarray, int]]:
    rng = np.random.default_rng(801)
    return [(rng.normal(size=(*lead, T, n_heads * d_k)), n_heads) for lead, T, n_heads, d_k in shapes]


def _four(X: np.ndarray, n_heads: int, order: str = "heads, d_k") -> np.ndarray:
    """The last axis cut into (n_heads, d_k), or the wrong way, (d_k, n_heads)."""
    *lead, T, d_model = X.shape
    cut = (n_heads, d_model // n_heads) if order == "heads, d_k" else (d_model // n_heads, n_heads)
    return X.reshape(*lead, T, *cut)


def _split_facts(X: np.ndarray, n_heads: int) -> dict[str, Any]:
    return {"X_shape": X.shape, "n_heads": n_heads, "label": N_("X {X_shape}, n_heads={n_heads}")}


SPLIT_HEADS = Exercise(
    name="check_split_heads",
    task="``my_split_heads(X, n_heads)``: d_model cut into n_heads slices, heads before tokens",
    shapes="X (..., T, d_model), n_heads int -> (..., n_heads, T, d_k),  d_k = d_model / n_heads",
    reference=solution_split_heads,
    # (leading axes, T, n_heads, d_k): T, n_heads and d_k all differ in every input.
    inputs=_split_inputs([((), 5, 3, 4), ((), 4, 6, 2)]),
    harder_inputs=_split_inputs([((2,), 3, 4, 5), ((2, 3), 5, 2, 4)]),
    harder_context=N_(
        "right for one sentence X (T, d_model), but not with leading batch axes (B, T, d_model): "
        "count axes from the end (reshape(*X.shape[:-1], n_heads, d_k), swapaxes(-2, -3)) so the "
        "code does not depend on how many axes come first. In detail: {detail}"
    ),
    shape="(..., n_heads, T, d_k)",
    facts=_split_facts,
    mistakes=[
        Mistake(
            "reshape_only",
            N_(
                "the shape is right but the numbers are scrambled: a reshape straight to "
                "(..., n_heads, T, d_k) cuts the array in memory order, so a 'head' gets pieces of "
                "several tokens. Reshape to (..., T, n_heads, d_k) first, then swap the T and n_heads axes."
            ),
            wrong=lambda X, n: X.reshape(*X.shape[:-2], n, X.shape[-2], X.shape[-1] // n),
            watch=N_("reshaping straight to (..., n_heads, T, d_k), which scrambles the numbers"),
        ),
        Mistake(
            "no_swap",
            N_(
                "you have shape (..., T, n_heads, d_k) = {got_shape}: the columns are cut into heads "
                "correctly, but the heads axis must come before the tokens, (..., n_heads, T, d_k), so "
                "attention can treat the heads like a batch. Swap axes -2 and -3."
            ),
            wrong=_four,
            watch=N_("forgetting to put the heads axis before the tokens"),
        ),
        Mistake(
            "interleaved",
            N_(
                "head h got every n_heads-th column (h, h + n_heads, ...). A head owns one block of d_k "
                "neighbouring columns, h·d_k to (h+1)·d_k: reshape the last axis to (n_heads, d_k), "
                "not (d_k, n_heads)."
            ),
            wrong=lambda X, n: np.moveaxis(_four(X, n, "d_k, heads"), -1, -3),
            watch=N_("cutting the columns as (d_k, n_heads), so heads interleave"),
        ),
        Mistake(
            "reversed_axes",
            N_(
                "you swapped the wrong axes (your shape is {got_shape}). After the reshape to "
                "(..., T, n_heads, d_k) swap only T and n_heads, np.swapaxes(x, -2, -3); "
                ".T reverses every axis."
            ),
            wrong=lambda X, n: OneOf(
                T=_four(X, n).T,
                last_two=np.swapaxes(_four(X, n), -1, -2),
                outer=np.swapaxes(_four(X, n), -1, -3),
            ),
            watch=N_("swapping the wrong axes (.T reverses all of them)"),
        ),
    ],
    success=N_("correct: a reshape cuts the columns into heads, a swap puts heads before tokens"),
)


def _head_inputs() -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(802)
    inputs = []
    # (T, n_heads, d_k, h): T, n_heads and d_k all differ; h is never 0 or the last head.
    for T, n_heads, d_k, h in ((5, 3, 4, 1), (4, 6, 2, 3), (6, 4, 8, 2)):
        d_model = n_heads * d_k
        X = rng.normal(size=(T, d_model))
        W_q, W_k = (rng.normal(size=(d_model, d_model)) / np.sqrt(d_model) * 2.0 for _ in range(2))
        b_q, b_k = (rng.normal(size=d_model) for _ in range(2))
        inputs.append((X, W_q, W_k, b_q, b_k, h, n_heads))
    return inputs


def _head(X, W_q, W_k, b_q, b_k, h, n_heads, *, bias=True, divisor=None, cols=None, axis=-1):
    """A_h = softmax(Q_h·K_hᵀ/√d_k), Q_h = X·W_q[:, cols] + b_q[cols]: head h owns d_k columns."""
    d_k = W_q.shape[1] // n_heads
    cols = slice(h * d_k, (h + 1) * d_k) if cols is None else cols
    Q = X @ W_q[:, cols] + (b_q[cols] if bias else 0.0)
    K = X @ W_k[:, cols] + (b_k[cols] if bias else 0.0)
    return softmax_rows(Q @ K.T / (np.sqrt(d_k) if divisor is None else divisor), axis=axis)


def _head_facts(X, W_q, W_k, b_q, b_k, h, n_heads) -> dict[str, Any]:
    d_model = W_q.shape[1]
    return {
        "T": len(X),
        "h": h,
        "h_next": h + n_heads,
        "n_heads": n_heads,
        "d_model": d_model,
        "d_k": d_model // n_heads,
        "label": N_("T={T}, n_heads={n_heads}, d_k={d_k}, head {h}"),
    }


HEAD_WEIGHTS = Exercise(
    name="check_head_weights",
    task="``my_head_weights(X, W_q, W_k, b_q, b_k, h, n_heads)``: the attention weights of head h",
    shapes=(
        "X (T, d_model), W_q (d_model, n_heads·d_k), W_k (d_model, n_heads·d_k), "
        "b_q (n_heads·d_k,), b_k (n_heads·d_k,), h int, n_heads int -> weights (T, T)"
    ),
    reference=solution_head_weights,
    inputs=_head_inputs(),
    shape="(T, T)",
    facts=_head_facts,
    mistakes=[
        Mistake(
            "no_bias",
            N_(
                "you left out the biases. This model computes Q = X·W_q + b_q and K = X·W_k + b_k; "
                "slice b_q and b_k with the same columns as W_q and W_k."
            ),
            wrong=lambda *args: _head(*args, bias=False),
            watch=N_("leaving out the biases b_q and b_k"),
        ),
        Mistake(
            "layer_scale",
            N_(
                "you divided by √d_model = √{d_model}. Each head is an attention of its own with "
                "d_k = d_model / n_heads = {d_k} columns: divide its scores by √d_k = √{d_k}."
            ),
            wrong=lambda *args: _head(*args, divisor=np.sqrt(args[1].shape[1])),
            watch=N_("dividing by √d_model instead of √d_k"),
        ),
        Mistake(
            "no_scale",
            N_("you forgot to divide the scores by √d_k (d_k = the width of one head) before softmax."),
            wrong=lambda *args: _head(*args, divisor=1.0),
            watch=N_("forgetting to divide the scores by √d_k"),
        ),
        Mistake(
            "strided_columns",
            N_(
                "head {h} took every n_heads-th column ({h}, {h_next}, ...). It owns one block of "
                "neighbouring columns: h·d_k to (h+1)·d_k, i.e. W_q[:, h*d_k:(h+1)*d_k]."
            ),
            wrong=lambda *args: _head(*args, cols=slice(args[5], None, args[6])),
            watch=N_("taking every n_heads-th column instead of one block"),
        ),
        Mistake(
            "wrong_head",
            N_(
                "those are the weights of head {which}, not head {h}: count heads from 0, "
                "head h owns columns h·d_k to (h+1)·d_k."
            ),
            wrong=lambda *args: OneOf(
                {other: _head(*args[:5], other, args[6]) for other in range(args[6]) if other != args[5]}
            ),
            watch=N_("the columns of another head (heads count from 0)"),
        ),
        Mistake(
            "all_columns",
            N_(
                "you used every column of W_q and W_k, i.e. all heads at once as a single attention. "
                "Head h uses only its own d_k columns, h·d_k to (h+1)·d_k."
            ),
            wrong=lambda *args: OneOf(
                d_k=_head(*args, cols=slice(None)),
                d_model=_head(*args, cols=slice(None), divisor=np.sqrt(args[1].shape[1])),
            ),
            watch=N_("using every column of W_q and W_k (all heads at once)"),
        ),
        Mistake(
            "axis",
            N_("your softmax runs down the columns (axis=0); each query's row must sum to 1 (axis=-1)."),
            wrong=lambda *args: _head(*args, axis=0),
            watch=N_("softmax down the columns (axis=0) instead of along each row"),
        ),
    ],
    success=N_("correct: head h is an attention of its own, on its d_k columns, scaled by √d_k"),
)


def _offset_mean(weights: np.ndarray, offset: int) -> np.ndarray:
    """Mean over the queries of the weight on the key ``offset`` places away (-1: the previous one)."""
    return np.diagonal(weights, offset=offset, axis1=-2, axis2=-1).mean(axis=-1)


def _score_inputs() -> list[tuple[np.ndarray]]:
    rng = np.random.default_rng(803)
    sizes = ((2, 3, 5), (3, 2, 4), (1, 4, 7))  # (n_layers, n_heads, T)
    return [(softmax_rows(rng.normal(size=(L, H, T, T)) * 2.0),) for L, H, T in sizes]


def _below(weights: np.ndarray) -> np.ndarray:
    """weights[..., i, i-1] for i = 1 .. T-1: each query's weight on the previous token."""
    return np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)


PREVIOUS_TOKEN_SCORE = Exercise(
    name="check_previous_token_score",
    task=(
        "``my_previous_token_score(weights)``: per layer and head, the mean over the queries "
        "i = 1 .. T-1 of ``weights[l, h, i, i-1]``"
    ),
    shapes="weights (n_layers, n_heads, T, T) -> score (n_layers, n_heads)",
    reference=solution_previous_token_score,
    inputs=_score_inputs(),
    shape="(n_layers, n_heads)",
    facts=lambda w: {
        "n_layers": w.shape[0],
        "n_heads": w.shape[1],
        "T": w.shape[-1],
        "label": N_("{n_layers} layers, {n_heads} heads, T={T}"),
    },
    mistakes=[
        Mistake(
            "next_token",
            N_(
                "that is the weight on the next token. Rows are queries and columns are keys: query i's "
                "previous token is key i-1, the entry weights[..., i, i-1], just below the diagonal."
            ),
            wrong=lambda w: _offset_mean(w, 1),
            watch=N_("taking the next token's weight (above the diagonal) instead of the previous"),
        ),
        Mistake(
            "self_token",
            N_("that is the weight each token gives itself (the diagonal); the previous token is key i-1."),
            wrong=lambda w: _offset_mean(w, 0),
            watch=N_("taking each token's weight on itself (the diagonal)"),
        ),
        Mistake(
            "wrap_around",
            N_(
                "query 0 has no previous token, but you counted weights[..., 0, T-1] (index -1 wraps "
                "around to the last key). Average over the queries 1 .. T-1 only."
            ),
            wrong=lambda w: w[..., np.arange(w.shape[-1]), np.arange(w.shape[-1]) - 1].mean(axis=-1),
            watch=N_("counting query 0, whose index i-1 wraps around to the last key"),
        ),
        Mistake(
            "summed",
            N_("you added up the T-1 weights; take their mean, so a perfect previous-token head scores 1."),
            wrong=lambda w: _below(w).sum(axis=-1),
            watch=N_("summing the T-1 weights instead of taking their mean"),
        ),
        Mistake(
            "divided_by_T",
            N_(
                "you divided by T, but only T-1 queries have a previous "
                "token: divide by T-1 (or use .mean())."
            ),
            wrong=lambda w: _below(w).sum(axis=-1) / w.shape[-1],
            watch=N_("dividing by T instead of T-1"),
        ),
        Mistake(
            "not_averaged",
            N_(
                "you have the weight on the previous token for every query, shape (n_layers, n_heads, T-1); "
                "average over the queries (the last axis) to get one score per head."
            ),
            wrong=_below,
            watch=N_("forgetting to average over the queries"),
        ),
    ],
    success=N_("correct: one score per head, 1 for a head that always looks one token back"),
)


EXERCISES = (SPLIT_HEADS, HEAD_WEIGHTS, PREVIOUS_TOKEN_SCORE)
check_split_heads, check_head_weights, check_previous_token_score = checkers(
    __name__, EXERCISES, taught="08 §Exercises"
)
