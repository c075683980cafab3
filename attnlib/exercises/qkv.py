"""Exercises of notebook 04 (queries, keys, values): the raw scores Q·Kᵀ and the projection puzzle."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import attention
from ._feedback import Case, Verdict, check_function, matches

__all__ = ["check_projection_puzzle", "check_scores"]


def _score_cases() -> list[Case]:
    rng = np.random.default_rng(404)
    cases = []
    # (T, d_model, d_k): the last case is square, so shape alone cannot give a mistake away.
    for T, d_model, d_k in ((5, 4, 3), (3, 6, 2), (4, 4, 4)):
        X = rng.normal(size=(T, d_model))
        W_q = rng.normal(size=(d_model, d_k))
        W_k = rng.normal(size=(d_model, d_k))
        expected = (X @ W_q) @ (X @ W_k).T
        cases.append(Case((X, W_q, W_k), expected, label=f"T={T}, d_model={d_model}, d_k={d_k}"))
    return cases


def _qk(case: Case) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X, W_q, W_k = case.args
    return X, X @ W_q, X @ W_k


def _features_not_tokens(got: np.ndarray, case: Case) -> str | None:
    _, Q, K = _qk(case)
    if matches(got, Q.T @ K) or matches(got, K.T @ Q):
        return (
            "you computed Qᵀ·K, a d_k × d_k table that compares features with features. "
            "Scores compare tokens: Q·Kᵀ has one row per query and one column per key."
        )
    return None


def _transposed(got: np.ndarray, case: Case) -> str | None:
    _, Q, K = _qk(case)
    if matches(got, K @ Q.T) and not matches(got, Q @ K.T):
        return (
            "your matrix is the transpose of the scores (K·Qᵀ): row i must hold what query i "
            "thinks of every key, so compute Q·Kᵀ."
        )
    return None


def _no_projection(got: np.ndarray, case: Case) -> str | None:
    X, _, _ = _qk(case)
    if matches(got, X @ X.T):
        return (
            "these are the scores of notebook 03, X·Xᵀ: the linear maps W_q and W_k are missing. "
            "Make Q = X·W_q and K = X·W_k first."
        )
    return None


def _same_projection(got: np.ndarray, case: Case) -> str | None:
    _, Q, K = _qk(case)
    if matches(got, Q @ Q.T) or matches(got, K @ K.T):
        return (
            "you used one linear map twice (Q·Qᵀ or K·Kᵀ), which makes the scores symmetric. "
            "Queries come from W_q, keys from W_k."
        )
    return None


def _elementwise(got: np.ndarray, case: Case) -> str | None:
    _, Q, K = _qk(case)
    if matches(got, Q * K):
        return "you multiplied Q and K entry by entry (Q * K); scores need the matrix product Q @ K.T."
    return None


def _already_scaled(got: np.ndarray, case: Case) -> str | None:
    _, Q, K = _qk(case)
    if Q.shape[-1] > 1 and matches(got, Q @ K.T / np.sqrt(Q.shape[-1])):
        return (
            "you divided by √d_k already. That is right for the full formula, but this exercise asks "
            "for the raw Q·Kᵀ; notebook 05 adds the scaling."
        )
    return None


def check_scores(candidate: Any) -> Verdict:
    """Check ``my_scores(X, W_q, W_k)``: the raw scores ``(X·W_q)·(X·W_k)ᵀ``.

    Shapes:
        X (T, d_model), W_q (d_model, d_k), W_k (d_model, d_k) -> scores (T, T)
    """
    return check_function(
        candidate,
        _score_cases(),
        diagnoses=(
            _features_not_tokens,
            _transposed,
            _no_projection,
            _same_projection,
            _elementwise,
            _already_scaled,
        ),
        success="correct: Q·Kᵀ, one row per query, one column per key",
    )


def _as_matrix(W: Any, name: str, d_model: int) -> tuple[np.ndarray | None, str | None]:
    try:
        arr = np.asarray(W, dtype=float)
    except (TypeError, ValueError):
        return None, f"{name} should be an array of numbers; got {type(W).__name__}"
    if arr.ndim == 2 and arr.shape[1] == d_model and arr.shape[0] != d_model:
        return None, (
            f"{name} has shape {arr.shape}, the wrong way round: it multiplies X from the right, "
            f"so it needs one row per feature, shape (d_model, d_k) = ({d_model}, {arr.shape[0]}). "
            f"Try {name}.T."
        )
    if arr.ndim != 2 or arr.shape[0] != d_model:
        return None, f"{name} must have shape (d_model, d_k) = ({d_model}, d_k); got {arr.shape}"
    if not np.isfinite(arr).all():
        return None, f"{name} contains NaN or infinity; use ordinary numbers"
    return arr, None


def check_projection_puzzle(W_q: Any, W_k: Any, *, query: str = "green", key: str = "grass") -> Verdict:
    """Check a hand-made projection: in 'the kids are playing on the green grass', ``query``
    should put most of its (scaled) attention, at least one half, on ``key``.

    Shapes:
        W_q (d_model, d_k), W_k (d_model, d_k) with d_model = 6 (the features of ``green_grass``)
    """
    from ..data import load

    data = load("green_grass")
    X, tokens, features = data["X"], data["tokens"], data["features"]
    d_model = X.shape[1]
    mats = []
    for W, name in ((W_q, "W_q"), (W_k, "W_k")):
        arr, problem = _as_matrix(W, name, d_model)
        if problem:
            return Verdict(False, problem)
        mats.append(arr)
    if mats[0].shape[1] != mats[1].shape[1]:
        return Verdict(
            False,
            f"W_q has d_k={mats[0].shape[1]} columns but W_k has {mats[1].shape[1]}: "
            "queries and keys must have the same width to take their dot product",
        )
    i, j = tokens.index(query), tokens.index(key)
    _, weights = attention(X @ mats[0], X @ mats[1], X)
    row = weights[i]
    best = int(np.argmax(row))
    if np.ptp(row) < 1e-9:
        return Verdict(
            False,
            f"'{query}' spreads its attention evenly (1/{len(tokens)} on every word): all its scores "
            "are equal. Is W_q or W_k still all zeros? Put a number where a feature of "
            f"'{query}' (in W_q) meets a feature of '{key}' (in W_k), in the same column.",
        )
    if row[best] - row[j] > 1e-12:
        own = features_of(X[best], features)
        hint = (
            f"'{tokens[best]}' wins ({row[best]:.2f} against {row[j]:.2f} for '{key}'). "
            f"'{tokens[best]}' has {own}: pick a key feature that '{key}' has more of than "
            f"'{tokens[best]}' does"
        )
        if best == i:
            hint = (
                f"'{query}' attends most to itself ({row[i]:.2f}), as in X·Xᵀ. "
                f"Your key for '{query}' is as strong as the one for '{key}': use a key feature "
                f"that '{key}' has more of than '{query}' does"
            )
        return Verdict(False, hint + ".")
    rivals = [t for t, w in enumerate(row) if t != j and w >= row[j] - 1e-9 and tokens[t] != key]
    if rivals:
        r = rivals[0]
        return Verdict(
            False,
            f"'{key}' shares first place with '{tokens[r]}' ({row[j]:.2f} each): "
            f"'{tokens[r]}' has {features_of(X[r], features)}, '{key}' has {features_of(X[j], features)}. "
            f"Pick a key feature that only '{key}' has.",
        )
    if row[j] < 0.5:
        return Verdict(
            False,
            f"right direction: '{key}' gets the most, but only {row[j]:.2f}. Make the entries larger: "
            "softmax turns a bigger gap between scores into a more decided weight.",
        )
    return Verdict(True, f"'{query}' puts {row[j]:.2f} of its attention on '{key}'")


def features_of(x: np.ndarray, features: list[str]) -> str:
    """The features a token has (value ≥ 0.3), in words, e.g. "thing 1.0 and nature 1.0"."""
    parts = [f"{name} {value:.1f}" for name, value in zip(features, x, strict=True) if value >= 0.3]
    return " and ".join(parts) if parts else "no strong feature"
