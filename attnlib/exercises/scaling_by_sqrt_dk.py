"""The exercises of notebook 05 (why divide by √d_k): scaled scores, their softmax, the softmax Jacobian."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import N_
from .pipeline import Exercise, Mistake, OneOf, checkers, softmax_rows

__all__ = ["check_scaled_scores", "check_scaled_weights", "check_softmax_jacobian"]


def _qk_inputs() -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(505)
    # Whole square roots; sizes that differ from d_k, so each mistake has its own numbers. The first
    # input is square in tokens, so Qᵀ·K runs (and can be named) instead of raising.
    sizes = ((6, 6, 4), (4, 5, 9), (3, 6, 16))  # (T_q, T_k, d_k)
    return [(rng.normal(size=(T_q, d_k)), rng.normal(size=(T_k, d_k))) for T_q, T_k, d_k in sizes]


def _sizes(Q: np.ndarray, K: np.ndarray) -> dict[str, Any]:
    (T_q, d_k), T_k = Q.shape, K.shape[0]
    return {
        "T_q": T_q,
        "T_k": T_k,
        "d_k": d_k,
        "sqrt_d_k": f"{np.sqrt(d_k):g}",
        "label": N_("T_q={T_q}, T_k={T_k}, d_k={d_k}"),
    }


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline).


def solution_scaled_scores(Q, K):
    return Q @ K.T / np.sqrt(Q.shape[-1])


def solution_scaled_weights(Q, K):
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))  # softmax along each row
    return e / e.sum(axis=-1, keepdims=True)


def solution_softmax_jacobian(p):
    return np.diag(p) - np.outer(p, p)


def _scaled(Q: np.ndarray, K: np.ndarray) -> np.ndarray:
    """Q·Kᵀ/√d_k."""
    return Q @ K.T / np.sqrt(Q.shape[-1])


SCALED_SCORES = Exercise(
    name="check_scaled_scores",
    task="``my_scaled_scores(Q, K)``: ``Q·Kᵀ/√d_k``",
    shapes="Q (T_q, d_k), K (T_k, d_k) -> scores (T_q, T_k)",
    reference=solution_scaled_scores,
    inputs=_qk_inputs(),
    shape="(T_q, T_k)",
    facts=_sizes,
    mistakes=[
        Mistake(
            "no_scale",
            N_(
                "you forgot to divide by √d_k: with d_k={d_k} your scores are √{d_k} = {sqrt_d_k}"
                " times too large, and so is their spread."
            ),
            wrong=lambda Q, K: Q @ K.T,
            watch=N_("forgetting to divide by √d_k"),
        ),
        Mistake(
            "by_d_k",
            N_(
                "you divided by d_k={d_k}; divide by its square root √d_k = {sqrt_d_k}. "
                "Dividing by d_k shrinks the variance to 1/d_k instead of 1."
            ),
            wrong=lambda Q, K: Q @ K.T / Q.shape[-1],
            watch=N_("dividing by d_k instead of √d_k"),
        ),
        Mistake(
            "wrong_size",
            N_(
                "you divided by the square root of the number of {which}. "
                "d_k is the width of a query, the last axis: Q.shape[-1]."
            ),
            wrong=lambda Q, K: OneOf(
                {N_("tokens, T_q = T_k"): Q @ K.T / np.sqrt(len(Q))}
                if len(Q) == len(K)
                else {N_("queries T_q"): Q @ K.T / np.sqrt(len(Q)), N_("keys T_k"): Q @ K.T / np.sqrt(len(K))}
            ),
            watch=N_("taking the square root of the number of tokens instead of d_k"),
        ),
        Mistake(
            "multiplied",
            N_("you multiplied by √d_k; divide instead, so that the variance comes back to 1."),
            wrong=lambda Q, K: Q @ K.T * np.sqrt(Q.shape[-1]),
            watch=N_("multiplying by √d_k instead of dividing"),
        ),
        Mistake(
            "transposed",
            N_("your matrix is transposed: rows are queries and columns keys, so compute Q @ K.T."),
            wrong=lambda Q, K: OneOf(scaled=_scaled(Q, K).T, raw=(Q @ K.T).T),
            watch=N_("a transposed matrix (one row per key instead of per query)"),
        ),
        Mistake(
            "features",
            N_("you computed Qᵀ·K (features against features); scores are Q·Kᵀ (tokens against tokens)."),
            wrong=lambda Q, K: OneOf(scaled=Q.T @ K / np.sqrt(Q.shape[-1]), raw=Q.T @ K),
            watch=N_("computing Qᵀ·K (features against features) instead of Q·Kᵀ"),
        ),
    ],
    success=N_("correct: Q·Kᵀ/√d_k, scores with variance about 1 whatever d_k is"),
)

SCALED_WEIGHTS = Exercise(
    name="check_scaled_weights",
    task="``my_scaled_weights(Q, K)``: ``softmax(Q·Kᵀ/√d_k)`` along each row",
    shapes="Q (T_q, d_k), K (T_k, d_k) -> weights (T_q, T_k)",
    reference=solution_scaled_weights,  # softmax(Q·Kᵀ/√d_k) along each row
    inputs=_qk_inputs(),
    shape="(T_q, T_k)",
    facts=_sizes,
    mistakes=[
        Mistake(
            "axis",
            N_(
                "your softmax runs down the columns (axis=0): each column sums to 1. Each query's row "
                "must sum to 1, so normalise along the keys, axis=-1."
            ),
            wrong=lambda Q, K: OneOf(
                scaled=softmax_rows(_scaled(Q, K), axis=0), raw=softmax_rows(Q @ K.T, axis=0)
            ),
            watch=N_("softmax down the columns (axis=0) instead of along each row"),
        ),
        Mistake(
            "no_scale",
            N_(
                "these are the weights of the unscaled scores: divide Q·Kᵀ by √d_k before softmax "
                "(here √{d_k} = {sqrt_d_k}), or softmax will be too sure of itself."
            ),
            wrong=lambda Q, K: softmax_rows(Q @ K.T),
            watch=N_("forgetting to divide the scores by √d_k before the softmax"),
        ),
        Mistake(
            "transposed",
            N_("your weights are transposed: one row per query (Q @ K.T), then softmax along each row."),
            wrong=lambda Q, K: OneOf(
                before=softmax_rows(_scaled(Q, K).T), after=softmax_rows(_scaled(Q, K)).T
            ),
            watch=N_("transposed weights (one row per key instead of per query)"),
        ),
        Mistake(
            "not_normalised",
            N_("you took exp of the scores but did not divide by the row sums: weights must sum to 1."),
            wrong=lambda Q, K: np.exp(_scaled(Q, K)),
            watch=N_("taking the exp without dividing by the row sums"),
        ),
    ],
    success=N_("correct: each query's row is a softmax of its scaled scores"),
)


def _weights(p: np.ndarray) -> dict[str, Any]:
    return {"n": p.size, "label": N_("weights p of length {n}")}


SOFTMAX_JACOBIAN = Exercise(
    name="check_softmax_jacobian",
    task="``my_softmax_jacobian(p)``: ``diag(p) − p·pᵀ``, the Jacobian of softmax at weights p",
    shapes="p (n,) -> jacobian (n, n)",
    reference=solution_softmax_jacobian,  # ∂p_i/∂s_j = p_i (δ_ij − p_j)
    inputs=[
        (softmax_rows(np.random.default_rng(506).normal(size=5)),),
        (np.array([0.0, 1.0, 0.0]),),
        (np.full(4, 0.25),),
    ],
    shape="(n, n)",
    facts=_weights,
    mistakes=[
        Mistake(
            "scalar_product",
            N_(
                "p @ p (or p.T @ p) is a single number: for a 1-D array .T does nothing. "
                "The n × n matrix p·pᵀ is np.outer(p, p)."
            ),
            wrong=lambda p: np.diag(p) - p @ p,
            watch=N_("writing p @ p (a single number) for the matrix p·pᵀ"),
        ),
        Mistake(
            "scalar",
            N_(
                "your answer is a single number; the Jacobian has one "
                "entry ∂p_i/∂s_j per pair: an n × n matrix."
            ),
            spotted=lambda got, p: np.ndim(got) == 0,
            watch=N_("returning a single number instead of an n × n matrix"),
        ),
        Mistake(
            "only_outer",
            N_("you have only the p·pᵀ part; the Jacobian is diag(p) − p·pᵀ (np.diag(p) - np.outer(p, p))."),
            wrong=lambda p: OneOf(minus=-np.outer(p, p), plus=np.outer(p, p)),
            watch=N_("keeping only the p·pᵀ part and forgetting diag(p)"),
        ),
        Mistake(
            "sign",
            N_("the signs are flipped: ∂p_i/∂s_i = p_i(1 − p_i) ≥ 0, so it is diag(p) − p·pᵀ."),
            wrong=lambda p: np.outer(p, p) - np.diag(p),
            watch=N_("flipping the signs (p·pᵀ − diag(p))"),
        ),
        Mistake(
            "diagonal_only",
            N_(
                "you have the diagonal p_i(1 − p_i) only: raising score j also lowers every other weight, "
                "so the off-diagonal entries are −p_i p_j."
            ),
            wrong=lambda p: np.diag(p - p * p),
            watch=N_("keeping only the diagonal p_i(1 − p_i)"),
        ),
    ],
    success=N_("correct: diag(p) − p·pᵀ, and it is all zeros for one-hot weights"),
)


EXERCISES = (SCALED_SCORES, SCALED_WEIGHTS, SOFTMAX_JACOBIAN)
check_scaled_scores, check_scaled_weights, check_softmax_jacobian = checkers(
    __name__, EXERCISES, taught="05 §Exercises"
)
