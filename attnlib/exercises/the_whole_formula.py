"""The exercises of notebook 07 (the whole formula): softmax(Q·Kᵀ/√d_k + M)·V, and one token's output."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import additive_mask
from ..i18n import N_
from .pipeline import Exercise, Mistake, OneOf, checkers, softmax_rows

__all__ = ["check_attention", "check_context_vector"]


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline).


def solution_attention(Q, K, V, M):
    scores = Q @ K.T / np.sqrt(Q.shape[-1]) + M
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))  # softmax along each row
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ V


def solution_context_vector(A, V, i):
    return A[i] @ V


def _formula_inputs() -> list[tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(707)
    inputs = []
    # (T_q, T_k, d_k, d_v, mask): the first input is square (T = d_v) so that V·A runs and can be named.
    for T_q, T_k, d_k, d_v, kind in ((4, 4, 9, 4, "causal"), (3, 5, 4, 2, "padding"), (5, 5, 4, 3, "none")):
        Q = rng.normal(size=(T_q, d_k)) * 1.5
        K = rng.normal(size=(T_k, d_k)) * 1.5
        V = rng.normal(size=(T_k, d_v))
        keep = np.ones((T_q, T_k), dtype=bool)
        if kind == "causal":
            keep = np.tril(keep)
        elif kind == "padding":
            keep[:, 3:] = False
        inputs.append((Q, K, V, additive_mask(keep)))
    return inputs


def _weights(Q, K, M, *, scale: bool = True, mask: bool = True, axis: int = -1) -> np.ndarray:
    """A = softmax(Q·Kᵀ/√d_k + M), or one of its typical variations."""
    scores = Q @ K.T / (np.sqrt(Q.shape[-1]) if scale else 1.0)
    return softmax_rows(scores + M if mask else scores, axis=axis)


def _sizes(Q, K, V, M) -> dict[str, Any]:
    (T_q, d_k), (T_k, d_v) = Q.shape, V.shape
    return {"T_q": T_q, "T_k": T_k, "d_k": d_k, "d_v": d_v, "label": N_("T_q={T_q}, T_k={T_k}, d_v={d_v}")}


def _down_columns(Q, K, V, M) -> OneOf:
    """Softmax along axis 0, with and without the mask (where that stays finite)."""
    weights = {"masked": _weights(Q, K, M, axis=0), "unmasked": _weights(Q, K, M, mask=False, axis=0)}
    return OneOf({which: A @ V for which, A in weights.items() if np.isfinite(A).all()})


ATTENTION = Exercise(
    name="check_attention",
    task="``my_attention(Q, K, V, M)``: the output ``softmax(Q·Kᵀ/√d_k + M)·V``",
    shapes="Q (T_q, d_k), K (T_k, d_k), V (T_k, d_v), M (T_q, T_k) -> out (T_q, d_v)",
    reference=solution_attention,  # softmax(Q·Kᵀ/√d_k + M)·V
    inputs=_formula_inputs(),
    shape="(T_q, d_v)",
    facts=_sizes,
    mistakes=[
        Mistake(
            "returned_weights",
            N_("you returned the weights A; the output is A·V, the weighted sum of the value rows."),
            wrong=lambda Q, K, V, M: _weights(Q, K, M),
            watch=N_("returning the weights A instead of the output A·V"),
        ),
        Mistake(
            "value_first",
            N_(
                "the product is the wrong way round: the weights come first, A·V, so that row i of the "
                "output mixes the value rows with query i's weights."
            ),
            wrong=lambda Q, K, V, M: OneOf(VA=V @ _weights(Q, K, M), VtAt=V.T @ _weights(Q, K, M).T),
            watch=N_("multiplying in the wrong order (V·A instead of A·V)"),
        ),
        Mistake(
            "no_scale",
            N_("you forgot to divide the scores by √d_k (d_k = Q.shape[-1]) before softmax."),
            wrong=lambda Q, K, V, M: _weights(Q, K, M, scale=False) @ V,
            watch=N_("forgetting to divide the scores by √d_k"),
        ),
        Mistake(
            "axis",
            N_("your softmax runs down the columns (axis=0); each query's row must sum to 1 (axis=-1)."),
            wrong=_down_columns,
            watch=N_("softmax down the columns (axis=0) instead of along each row"),
        ),
        Mistake(
            "no_mask",
            N_("the mask M is missing: add it to the scaled scores before softmax, so blocked keys get 0."),
            wrong=lambda Q, K, V, M: _weights(Q, K, M, mask=False) @ V,
            spotted=lambda got, Q, K, V, M: np.isinf(M).any(),
            watch=N_("forgetting to add the mask M"),
        ),
        Mistake(
            "mask_after",
            N_(
                "you applied M after softmax. It belongs inside: softmax(Q·Kᵀ/√d_k + M), so the "
                "blocked keys get exactly 0 and each row still sums to 1."
            ),
            wrong=lambda Q, K, V, M: OneOf(
                added=(_weights(Q, K, M, mask=False) + M) @ V,
                zeroed=(_weights(Q, K, M, mask=False) * (M == 0)) @ V,
            ),
            spotted=lambda got, Q, K, V, M: np.isinf(M).any(),
            watch=N_("applying the mask after the softmax instead of before"),
        ),
    ],
    success=N_("correct: softmax(Q·Kᵀ/√d_k + M)·V, the whole formula"),
)


def _context_inputs() -> list[tuple[np.ndarray, np.ndarray, int]]:
    rng = np.random.default_rng(708)
    inputs = []
    for T, d_v, i in ((5, 3, 2), (4, 6, 0), (6, 2, 5)):
        A = softmax_rows(rng.normal(size=(T, T)) * 2)
        inputs.append((A, rng.normal(size=(T, d_v)), i))
    return inputs


CONTEXT_VECTOR = Exercise(
    name="check_context_vector",
    task="``my_context_vector(A, V, i)``: the output of token i, ``Σ_j A[i, j]·V[j]``",
    shapes="A (T, T), V (T, d_v), i int -> out_i (d_v,)",
    reference=solution_context_vector,  # Σ_j A[i, j]·V[j]
    inputs=_context_inputs(),
    shape="(d_v,)",
    facts=lambda A, V, i: {"i": i, "T": len(A), "d_v": V.shape[1], "label": N_("token {i} of {T}")},
    mistakes=[
        Mistake(
            "column",
            N_(
                "you used column {i} of A: how much each token attends to token {i}. "
                "The output of token {i} uses row {i}: its own weights over every key."
            ),
            wrong=lambda A, V, i: A[:, i] @ V,
            watch=N_("using column i of A instead of row i"),
        ),
        Mistake(
            "plain_mean",
            N_("you averaged (or summed) the values with equal weights; weight value row j by A[{i}, j]."),
            wrong=lambda A, V, i: OneOf(mean=V.mean(axis=0), sum=V.sum(axis=0)),
            watch=N_("averaging the value rows with equal weights"),
        ),
        Mistake(
            "own_value",
            N_(
                "that is token {i}'s own value row. Its output mixes "
                "every value row, weighted by row {i} of A."
            ),
            wrong=lambda A, V, i: V[i],
            watch=N_("returning token i's own value row"),
        ),
        Mistake(
            "not_summed",
            N_(
                "you weighted each value row but did not add them up: sum over the keys (axis 0), "
                "or use A[i] @ V."
            ),
            wrong=lambda A, V, i: A[i][:, None] * V,
            watch=N_("weighting the value rows but forgetting to add them up"),
        ),
    ],
    success=N_("correct: row i of A mixes the value rows into token i's output"),
)


EXERCISES = (ATTENTION, CONTEXT_VECTOR)
check_attention, check_context_vector = checkers(__name__, EXERCISES, "07 §Exercises")
