"""The exercises of notebook 04 (queries, keys and values): the raw scores Q·Kᵀ and the projection puzzle."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..data import load
from ..i18n import N_, tr
from .pipeline import Exercise, Mistake, OneOf, Verdict, say, softmax_rows

__all__ = ["check_projection_puzzle", "check_scores"]


def _score_inputs() -> list[tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(404)
    inputs = []
    # (T, d_model, d_k): the last input is square, so shape alone cannot give a mistake away.
    for T, d_model, d_k in ((5, 4, 3), (3, 6, 2), (4, 4, 4)):
        X = rng.normal(size=(T, d_model))
        inputs.append((X, rng.normal(size=(d_model, d_k)), rng.normal(size=(d_model, d_k))))
    return inputs


def _sizes(X: np.ndarray, W_q: np.ndarray, W_k: np.ndarray) -> dict[str, Any]:
    (T, d_model), d_k = X.shape, W_q.shape[1]
    return {"T": T, "d_model": d_model, "d_k": d_k, "label": N_("T={T}, d_model={d_model}, d_k={d_k}")}


def solution_scores(X, W_q, W_k):
    return (X @ W_q) @ (X @ W_k).T


SCORES = Exercise(
    name="check_scores",
    task="``my_scores(X, W_q, W_k)``: the raw scores ``(X·W_q)·(X·W_k)ᵀ``",
    shapes="X (T, d_model), W_q (d_model, d_k), W_k (d_model, d_k) -> scores (T, T)",
    reference=solution_scores,  # the worked answer of the notebook: Q·Kᵀ with Q = X·W_q, K = X·W_k
    inputs=_score_inputs(),
    shape="(T, T)",
    facts=_sizes,
    mistakes=[
        Mistake(
            "features_not_tokens",
            N_(
                "you computed Qᵀ·K, a d_k × d_k table that compares features with features. "
                "Scores compare tokens: Q·Kᵀ has one row per query and one column per key."
            ),
            wrong=lambda X, W_q, W_k: OneOf(QtK=(X @ W_q).T @ (X @ W_k), KtQ=(X @ W_k).T @ (X @ W_q)),
            watch=N_("computing Qᵀ·K (features against features) instead of Q·Kᵀ"),
        ),
        Mistake(
            "transposed",
            N_(
                "your matrix is the transpose of the scores (K·Qᵀ): row i must hold what query i "
                "thinks of every key, so compute Q·Kᵀ."
            ),
            wrong=lambda X, W_q, W_k: (X @ W_k) @ (X @ W_q).T,
            watch=N_("returning the transpose K·Qᵀ (one row per key)"),
        ),
        Mistake(
            "no_projection",
            N_(
                "these are the scores of notebook 03, X·Xᵀ: the linear maps W_q and W_k are missing. "
                "Make Q = X·W_q and K = X·W_k first."
            ),
            wrong=lambda X, W_q, W_k: X @ X.T,
            watch=N_("forgetting the linear maps W_q and W_k (X·Xᵀ)"),
        ),
        Mistake(
            "same_projection",
            N_(
                "you used one linear map twice (Q·Qᵀ or K·Kᵀ), which makes the scores symmetric. "
                "Queries come from W_q, keys from W_k."
            ),
            wrong=lambda X, W_q, W_k: OneOf(Q=(X @ W_q) @ (X @ W_q).T, K=(X @ W_k) @ (X @ W_k).T),
            watch=N_("using one linear map for both queries and keys"),
        ),
        Mistake(
            "elementwise",
            N_("you multiplied Q and K entry by entry (Q * K); scores need the matrix product Q @ K.T."),
            wrong=lambda X, W_q, W_k: (X @ W_q) * (X @ W_k),
            watch=N_("multiplying Q and K entry by entry (Q * K)"),
        ),
        Mistake(
            "already_scaled",
            N_(
                "you divided by √d_k already. That is right for the full formula, but this exercise asks "
                "for the raw Q·Kᵀ; notebook 05 adds the scaling."
            ),
            wrong=lambda X, W_q, W_k: (X @ W_q) @ (X @ W_k).T / np.sqrt(W_q.shape[1]),
            spotted=lambda got, X, W_q, W_k: W_q.shape[1] > 1,
            watch=N_("dividing by √d_k already (that comes in notebook 05)"),
        ),
    ],
    success=N_("correct: Q·Kᵀ, one row per query, one column per key"),
)
# The exercises of this notebook, each with its public checker (the puzzle below is not a function).
EXERCISES = (SCORES,)
check_scores = SCORES.checker(__name__, "04 §Exercises")

# What the projection puzzle says, by cause (Verdict.cause).
PUZZLE_MESSAGES = {
    "not_numbers": N_("{name} should be an array of numbers; got {kind}"),
    "wrong_way_round": N_(
        "{name} has shape {got_shape}, the wrong way round: it multiplies X from the right, "
        "so it needs one row per feature, shape (d_model, d_k) = ({d_model}, {d_k}). Try {name}.T."
    ),
    "shape": N_("{name} must have shape (d_model, d_k) = ({d_model}, d_k); got {got_shape}"),
    "not_finite": N_("{name} contains NaN or infinity; use ordinary numbers"),
    "widths": N_(
        "W_q has d_k={d_q} columns but W_k has {d_k}: "
        "queries and keys must have the same width to take their dot product"
    ),
    "even": N_(
        "'{query}' spreads its attention evenly (1/{T} on every word): all its scores are equal. "
        "Is W_q or W_k still all zeros? Put a number where a feature of '{query}' (in W_q) meets "
        "a feature of '{key}' (in W_k), in the same column."
    ),
    "itself": N_(
        "'{query}' attends most to itself ({own:.2f}), as in X·Xᵀ. Your key for '{query}' is as strong "
        "as the one for '{key}': use a key feature that '{key}' has more of than '{query}' does."
    ),
    "other_wins": N_(
        "'{winner}' wins ({best:.2f} against {target:.2f} for '{key}'). '{winner}' has {features}: "
        "pick a key feature that '{key}' has more of than '{winner}' does."
    ),
    "tie": N_(
        "'{key}' shares first place with '{rival}' ({target:.2f} each): '{rival}' has {rival_features}, "
        "'{key}' has {features}. Pick a key feature that only '{key}' has."
    ),
    "too_weak": N_(
        "right direction: '{key}' gets the most, but only {target:.2f}. Make the entries larger: "
        "softmax turns a bigger gap between scores into a more decided weight."
    ),
    "correct": N_("'{query}' puts {target:.2f} of its attention on '{key}'"),
}


def _puzzle(cause: str, **facts: Any) -> Verdict:
    return Verdict(cause == "correct", say(PUZZLE_MESSAGES[cause], **facts), cause)


def _as_matrix(W: Any, name: str, d_model: int) -> np.ndarray | Verdict:
    try:
        arr = np.asarray(W, dtype=float)
    except (TypeError, ValueError):
        return _puzzle("not_numbers", name=name, kind=type(W).__name__)
    if arr.ndim == 2 and arr.shape[1] == d_model and arr.shape[0] != d_model:
        return _puzzle("wrong_way_round", name=name, got_shape=arr.shape, d_model=d_model, d_k=arr.shape[0])
    if arr.ndim != 2 or arr.shape[0] != d_model:
        return _puzzle("shape", name=name, got_shape=arr.shape, d_model=d_model)
    if not np.isfinite(arr).all():
        return _puzzle("not_finite", name=name)
    return arr


def check_projection_puzzle(W_q: Any, W_k: Any, *, query: str = "green", key: str = "grass") -> Verdict:
    """Check a hand-made projection: ``query`` should put at least half its attention on ``key``.

    The sentence is "the kids are playing on the green grass" (data ``green_grass``); the weights are
    the scaled softmax ``softmax(Q·Kᵀ/√d_k)`` with ``Q = X·W_q`` and ``K = X·W_k``.

    Parameters
    ----------
    W_q, W_k : array_like
        The learner's linear maps for queries and keys.
    query, key : str
        The word that looks, and the word it should find.

    Returns
    -------
    Verdict
        Truthy when ``key`` gets the most attention from ``query``, and at least one half.

    Shapes:
        W_q (d_model, d_k), W_k (d_model, d_k) with d_model = 6 (the features of ``green_grass``)

    Taught in: 04 §Exercises
    """
    data = load("green_grass")
    X, tokens, features = data["X"], data["tokens"], data["features"]
    mats = [_as_matrix(W, name, X.shape[1]) for W, name in ((W_q, "W_q"), (W_k, "W_k"))]
    for problem in mats:
        if isinstance(problem, Verdict):
            return problem
    if mats[0].shape[1] != mats[1].shape[1]:
        return _puzzle("widths", d_q=mats[0].shape[1], d_k=mats[1].shape[1])
    i, j = tokens.index(query), tokens.index(key)
    Q, K = X @ mats[0], X @ mats[1]
    row = softmax_rows(Q @ K.T / np.sqrt(Q.shape[1]))[i]
    best = int(np.argmax(row))
    words = {"query": query, "key": key, "target": row[j], "features": _features_of(X[j], features)}
    if np.ptp(row) < 1e-9:
        return _puzzle("even", T=len(tokens), **words)
    if row[best] - row[j] > 1e-12:
        if best == i:
            return _puzzle("itself", own=row[i], **words)
        winner = {"winner": tokens[best], "best": row[best], "features": _features_of(X[best], features)}
        return _puzzle("other_wins", **{**words, **winner})
    rivals = [t for t, w in enumerate(row) if t != j and w >= row[j] - 1e-9 and tokens[t] != key]
    if rivals:
        r = rivals[0]
        return _puzzle("tie", rival=tokens[r], rival_features=_features_of(X[r], features), **words)
    if row[j] < 0.5:
        return _puzzle("too_weak", **words)
    return _puzzle("correct", **words)


def _features_of(x: np.ndarray, features: list[str]) -> str:
    """The features a token has (value ≥ 0.3), in words, e.g. "thing 1.0 and nature 1.0"."""
    parts = [f"{name} {value:.1f}" for name, value in zip(features, x, strict=True) if value >= 0.3]
    return tr(N_(" and ")).join(parts) if parts else tr(N_("no strong feature"))
