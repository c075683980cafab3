"""Exercises of notebook 07 (the whole formula): softmax(Q·Kᵀ/√d_k + M)·V, and one token's output."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._feedback import Case, Verdict, check_function, matches, softmax_rows

__all__ = ["check_attention", "check_context_vector"]


def _formula_cases() -> list[Case]:
    rng = np.random.default_rng(707)
    cases = []
    # (T_q, T_k, d_k, d_v, mask): the first case is square (T = d_v) so that V·A runs and can be named.
    for T_q, T_k, d_k, d_v, kind in ((4, 4, 9, 4, "causal"), (3, 5, 4, 2, "padding"), (5, 5, 4, 3, "none")):
        Q = rng.normal(size=(T_q, d_k)) * 1.5
        K = rng.normal(size=(T_k, d_k)) * 1.5
        V = rng.normal(size=(T_k, d_v))
        keep = np.ones((T_q, T_k), dtype=bool)
        if kind == "causal":
            keep = np.tril(keep)
        elif kind == "padding":
            keep[:, 3:] = False
        M = np.where(keep, 0.0, -np.inf)
        expected = softmax_rows(Q @ K.T / np.sqrt(d_k) + M) @ V
        cases.append(Case((Q, K, V, M), expected, label=f"{kind} mask, T_q={T_q}, T_k={T_k}, d_v={d_v}"))
    return cases


def _weights(case: Case, *, scale: bool = True, mask: bool = True, axis: int = -1) -> np.ndarray:
    Q, K, _, M = case.args
    scores = Q @ K.T / (np.sqrt(Q.shape[-1]) if scale else 1.0)
    return softmax_rows(scores + M if mask else scores, axis=axis)


def _returned_weights(got: np.ndarray, case: Case) -> str | None:
    if matches(got, _weights(case)):
        return "you returned the weights A; the output is A·V, the weighted sum of the value rows."
    return None


def _value_first(got: np.ndarray, case: Case) -> str | None:
    V = case.args[2]
    A = _weights(case)
    if (A.shape[0] == V.shape[1] and matches(got, V @ A)) or matches(got, V.T @ A.T):
        return (
            "the product is the wrong way round: the weights come first, A·V, so that row i of the "
            "output mixes the value rows with query i's weights."
        )
    return None


def _formula_no_scale(got: np.ndarray, case: Case) -> str | None:
    if matches(got, _weights(case, scale=False) @ case.args[2]):
        return "you forgot to divide the scores by √d_k (d_k = Q.shape[-1]) before softmax."
    return None


def _formula_axis(got: np.ndarray, case: Case) -> str | None:
    for mask in (True, False):
        with np.errstate(all="ignore"):
            A = _weights(case, axis=0, mask=mask)
        if np.isfinite(A).all() and matches(got, A @ case.args[2]):
            return "your softmax runs down the columns (axis=0); each query's row must sum to 1 (axis=-1)."
    return None


def _no_mask(got: np.ndarray, case: Case) -> str | None:
    M = case.args[3]
    if np.isinf(M).any() and matches(got, _weights(case, mask=False) @ case.args[2]):
        return "the mask M is missing: add it to the scaled scores before softmax, so blocked keys get 0."
    return None


def _mask_after(got: np.ndarray, case: Case) -> str | None:
    M = case.args[3]
    V = case.args[2]
    A = _weights(case, mask=False)
    if np.isinf(M).any() and (matches(got, (A + M) @ V) or matches(got, (A * (M == 0)) @ V)):
        return (
            "you applied M after softmax. It belongs inside: softmax(Q·Kᵀ/√d_k + M), so the "
            "blocked keys get exactly 0 and each row still sums to 1."
        )
    return None


def check_attention(candidate: Any) -> Verdict:
    """Check ``my_attention(Q, K, V, M)``: the output ``softmax(Q·Kᵀ/√d_k + M)·V``.

    Shapes:
        Q (T_q, d_k), K (T_k, d_k), V (T_k, d_v), M (T_q, T_k) -> out (T_q, d_v)
    """
    return check_function(
        candidate,
        _formula_cases(),
        diagnoses=(_returned_weights, _value_first, _formula_no_scale, _formula_axis, _no_mask, _mask_after),
        success="correct: softmax(Q·Kᵀ/√d_k + M)·V, the whole formula",
    )


def _context_cases() -> list[Case]:
    rng = np.random.default_rng(708)
    cases = []
    for T, d_v, i in ((5, 3, 2), (4, 6, 0), (6, 2, 5)):
        A = softmax_rows(rng.normal(size=(T, T)) * 2)
        V = rng.normal(size=(T, d_v))
        cases.append(Case((A, V, i), A[i] @ V, label=f"token {i} of {T}"))
    return cases


def _column(got: np.ndarray, case: Case) -> str | None:
    A, V, i = case.args
    if matches(got, A[:, i] @ V):
        return (
            f"you used column {i} of A: how much each token attends to token {i}. "
            f"The output of token {i} uses row {i}: its own weights over every key."
        )
    return None


def _plain_mean(got: np.ndarray, case: Case) -> str | None:
    A, V, i = case.args
    if matches(got, V.mean(axis=0)) or matches(got, V.sum(axis=0)):
        return f"you averaged (or summed) the values with equal weights; weight value row j by A[{i}, j]."
    return None


def _own_value(got: np.ndarray, case: Case) -> str | None:
    A, V, i = case.args
    if matches(got, V[i]):
        return (
            f"that is token {i}'s own value row. Its output mixes every value row, "
            f"weighted by row {i} of A."
        )
    return None


def _not_summed(got: np.ndarray, case: Case) -> str | None:
    A, V, i = case.args
    if matches(got, A[i][:, None] * V):
        return (
            "you weighted each value row but did not add them up: sum over the keys (axis 0), "
            "or use A[i] @ V."
        )
    return None


def check_context_vector(candidate: Any) -> Verdict:
    """Check ``my_context_vector(A, V, i)``: the output of token i, ``Σ_j A[i, j]·V[j]``.

    Shapes:
        A (T, T), V (T, d_v), i int -> out_i (d_v,)
    """
    return check_function(
        candidate,
        _context_cases(),
        diagnoses=(_column, _plain_mean, _own_value, _not_summed),
        success="correct: row i of A mixes the value rows into token i's output",
    )
