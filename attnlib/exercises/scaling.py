"""Exercises of notebook 05 (why divide by √d_k): scaled scores, their softmax, the softmax Jacobian."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._feedback import Case, Verdict, check_function, matches, softmax_rows

__all__ = ["check_scaled_scores", "check_scaled_weights", "check_softmax_jacobian"]


def _qk_cases() -> list[Case]:
    rng = np.random.default_rng(505)
    cases = []
    # Whole square roots; sizes that differ from d_k, so each mistake has its own numbers. The first
    # case is square in tokens, so Qᵀ·K runs (and can be named) instead of raising.
    for T_q, T_k, d_k in ((6, 6, 4), (4, 5, 9), (3, 6, 16)):
        Q = rng.normal(size=(T_q, d_k))
        K = rng.normal(size=(T_k, d_k))
        cases.append(Case((Q, K), Q @ K.T / np.sqrt(d_k), label=f"T_q={T_q}, T_k={T_k}, d_k={d_k}"))
    return cases


def _raw(case: Case) -> tuple[np.ndarray, int]:
    Q, K = case.args
    return Q @ K.T, Q.shape[-1]


def _no_scale(got: np.ndarray, case: Case) -> str | None:
    raw, d_k = _raw(case)
    if matches(got, raw):
        return (
            f"you forgot to divide by √d_k: with d_k={d_k} your scores are √{d_k} = {np.sqrt(d_k):g}"
            " times too large, and so is their spread."
        )
    return None


def _by_d_k(got: np.ndarray, case: Case) -> str | None:
    raw, d_k = _raw(case)
    if matches(got, raw / d_k):
        return (
            f"you divided by d_k={d_k}; divide by its square root √d_k = {np.sqrt(d_k):g}. "
            "Dividing by d_k shrinks the variance to 1/d_k instead of 1."
        )
    return None


def _wrong_size(got: np.ndarray, case: Case) -> str | None:
    raw, d_k = _raw(case)
    Q, K = case.args
    for n, what in ((Q.shape[0], "queries T_q"), (K.shape[0], "keys T_k")):
        if n != d_k and matches(got, raw / np.sqrt(n)):
            return (
                f"you divided by √{n}, the square root of the number of {what}. "
                "d_k is the width of a query, the last axis: Q.shape[-1]."
            )
    return None


def _multiplied(got: np.ndarray, case: Case) -> str | None:
    raw, d_k = _raw(case)
    if matches(got, raw * np.sqrt(d_k)):
        return "you multiplied by √d_k; divide instead, so that the variance comes back to 1."
    return None


def _scores_transposed(got: np.ndarray, case: Case) -> str | None:
    raw, d_k = _raw(case)
    if matches(got, raw.T / np.sqrt(d_k)) or matches(got, raw.T):
        return "your matrix is transposed: rows are queries and columns keys, so compute Q @ K.T."
    return None


def _features(got: np.ndarray, case: Case) -> str | None:
    Q, K = case.args
    d_k = Q.shape[-1]
    if Q.shape[0] != K.shape[0]:
        return None
    if matches(got, Q.T @ K / np.sqrt(d_k)) or matches(got, Q.T @ K):
        return "you computed Qᵀ·K (features against features); scores are Q·Kᵀ (tokens against tokens)."
    return None


def check_scaled_scores(candidate: Any) -> Verdict:
    """Check ``my_scaled_scores(Q, K)``: ``Q·Kᵀ/√d_k``.

    Shapes:
        Q (T_q, d_k), K (T_k, d_k) -> scores (T_q, T_k)
    """
    return check_function(
        candidate,
        _qk_cases(),
        diagnoses=(_no_scale, _by_d_k, _wrong_size, _multiplied, _scores_transposed, _features),
        success="correct: Q·Kᵀ/√d_k, scores with variance about 1 whatever d_k is",
    )


def _weight_cases() -> list[Case]:
    cases = []
    for case in _qk_cases():
        Q, K = case.args
        cases.append(Case(case.args, softmax_rows(Q @ K.T / np.sqrt(Q.shape[-1])), label=case.label))
    return cases


def _wrong_axis(got: np.ndarray, case: Case) -> str | None:
    raw, d_k = _raw(case)
    for scores in (raw / np.sqrt(d_k), raw):
        if matches(got, softmax_rows(scores, axis=0)):
            return (
                "your softmax runs down the columns (axis=0): each column sums to 1. Each query's row "
                "must sum to 1, so normalise along the keys, axis=-1."
            )
    return None


def _weights_no_scale(got: np.ndarray, case: Case) -> str | None:
    raw, d_k = _raw(case)
    if matches(got, softmax_rows(raw)):
        return (
            "these are the weights of the unscaled scores: divide Q·Kᵀ by √d_k before softmax "
            f"(here √{d_k} = {np.sqrt(d_k):g}), or softmax will be too sure of itself."
        )
    return None


def _weights_transposed(got: np.ndarray, case: Case) -> str | None:
    raw, d_k = _raw(case)
    if matches(got, softmax_rows(raw.T / np.sqrt(d_k))) or matches(got, softmax_rows(raw / np.sqrt(d_k)).T):
        return "your weights are transposed: one row per query (Q @ K.T), then softmax along each row."
    return None


def _not_normalised(got: np.ndarray, case: Case) -> str | None:
    raw, d_k = _raw(case)
    if matches(got, np.exp(raw / np.sqrt(d_k))):
        return "you took exp of the scores but did not divide by the row sums: weights must sum to 1."
    return None


def check_scaled_weights(candidate: Any) -> Verdict:
    """Check ``my_scaled_weights(Q, K)``: ``softmax(Q·Kᵀ/√d_k)`` along each row.

    Shapes:
        Q (T_q, d_k), K (T_k, d_k) -> weights (T_q, T_k)
    """
    return check_function(
        candidate,
        _weight_cases(),
        diagnoses=(_wrong_axis, _weights_no_scale, _weights_transposed, _not_normalised),
        success="correct: each query's row is a softmax of its scaled scores",
    )


def _jacobian_cases() -> list[Case]:
    rng = np.random.default_rng(506)
    rows = [softmax_rows(rng.normal(size=5)), np.array([0.0, 1.0, 0.0]), np.full(4, 0.25)]
    return [
        Case((p,), np.diag(p) - np.outer(p, p), label=label)
        for p, label in zip(rows, ("random weights", "one-hot weights", "uniform weights"), strict=True)
    ]


def _only_outer(got: np.ndarray, case: Case) -> str | None:
    (p,) = case.args
    if matches(got, -np.outer(p, p)) or matches(got, np.outer(p, p)):
        return "you have only the p·pᵀ part; the Jacobian is diag(p) − p·pᵀ (np.diag(p) - np.outer(p, p))."
    return None


def _sign(got: np.ndarray, case: Case) -> str | None:
    (p,) = case.args
    if matches(got, np.outer(p, p) - np.diag(p)):
        return "the signs are flipped: ∂p_i/∂s_i = p_i(1 − p_i) ≥ 0, so it is diag(p) − p·pᵀ."
    return None


def _scalar_product(got: np.ndarray, case: Case) -> str | None:
    (p,) = case.args
    if got.ndim == 0 or matches(got, np.diag(p) - p @ p):
        return (
            "p @ p (or p.T @ p) is a single number: for a 1-D array .T does nothing. "
            "The n × n matrix p·pᵀ is np.outer(p, p)."
        )
    return None


def _diagonal_only(got: np.ndarray, case: Case) -> str | None:
    (p,) = case.args
    if matches(got, np.diag(p - p * p)) and not matches(got, np.diag(p) - np.outer(p, p)):
        return (
            "you have the diagonal p_i(1 − p_i) only: raising score j also lowers every other weight, "
            "so the off-diagonal entries are −p_i p_j."
        )
    return None


def check_softmax_jacobian(candidate: Any) -> Verdict:
    """Check ``my_softmax_jacobian(p)``: ``diag(p) − p·pᵀ``, the Jacobian of softmax at weights p.

    Shapes:
        p (n,) -> jacobian (n, n)
    """
    return check_function(
        candidate,
        _jacobian_cases(),
        diagnoses=(_scalar_product, _only_outer, _sign, _diagonal_only),
        success="correct: diag(p) − p·pᵀ, and it is all zeros for one-hot weights",
    )
