"""The exercises of notebook 03 (the weighted sum softmax(X·Xᵀ)·X): one output row, all rows, convexity."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import N_
from .inner_products import ZAO, X_2x6, X_5x2
from .pipeline import Exercise, Mistake, checkers, softmax_rows

__all__ = ["check_is_convex_combination", "check_simple_attention", "check_weighted_sum"]


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline).


def solution_weighted_sum(w, X):
    return w @ X


def solution_attention(X):
    scores = X @ X.T
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))  # softmax along each row
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ X


def solution_is_convex(w):
    return bool(np.all(w >= 0) and np.isclose(w.sum(), 1.0))


def _mixed(w: np.ndarray, X: np.ndarray) -> dict[str, Any]:
    T, d = X.shape
    return {"T": T, "d": d, "label": N_("w of shape ({T},), X of shape ({T}, {d})")}


WEIGHTED_SUM = Exercise(
    name="check_weighted_sum",
    task="``my_weighted_sum(w, X)``: ``Σ_j w_j X[j]``, one output row",
    shapes="w (T,), X (T, d) -> (d,)",
    reference=solution_weighted_sum,  # Σ_j w_j X[j]
    inputs=[
        (softmax_rows(ZAO @ ZAO.T)[0], ZAO),
        (np.array([0.1, 0.2, 0.3, 0.25, 0.15]), X_5x2),
        (np.array([0.75, 0.25]), X_2x6),
    ],
    shape="(d,)",
    facts=_mixed,
    mistakes=[
        Mistake(
            "scalar",
            N_("you added everything into one number; the output is a row of width d, like the input rows."),
            spotted=lambda got, w, X: got.shape == (),
            watch=N_("adding everything into one number instead of a row of width d"),
        ),
        Mistake(
            "not_summed",
            N_(
                "you have every token's weighted row, shape (T, d), but did not add them up: "
                "sum over the tokens (axis 0), or write w @ X."
            ),
            wrong=lambda w, X: w[:, None] * X,
            watch=N_("weighting every row but forgetting to add them up"),
        ),
        Mistake(
            "feature_sum",
            N_(
                "you added over the features (axis 1) and got one number per token. "
                "Add over the tokens (axis 0) to get one row of width d."
            ),
            wrong=lambda w, X: (w[:, None] * X).sum(axis=1),
            watch=N_("adding over the features (axis 1) instead of the tokens"),
        ),
        Mistake(
            "plain_mean",
            N_("that is the plain average of the rows (every weight 1/T); use the weights w."),
            wrong=lambda w, X: X.mean(axis=0),
            watch=N_("taking the plain average of the rows, ignoring w"),
        ),
        Mistake(
            "divided",
            N_(
                "you divided by T after weighting. The weights already sum to 1, "
                "so w @ X is already an average: no division needed."
            ),
            wrong=lambda w, X: (w @ X) / len(w),
            watch=N_("dividing by T after weighting (the weights already sum to 1)"),
        ),
    ],
    success=N_("right: one row of width d, a weighted average of the rows of X."),
)


def _attention(X: np.ndarray, axis: int = -1) -> np.ndarray:
    """softmax(X·Xᵀ)·X: each output row mixes the rows of X."""
    return softmax_rows(X @ X.T, axis=axis) @ X


def _rows(X: np.ndarray) -> dict[str, Any]:
    T, d = X.shape
    return {"T": T, "d": d, "label": N_("X of shape ({T}, {d})")}


SIMPLE_ATTENTION = Exercise(
    name="check_simple_attention",
    task="``my_attention(X)``: ``softmax(X·Xᵀ)·X``, attention with no parameters",
    shapes="X (T, d) -> out (T, d)",
    reference=solution_attention,
    inputs=[(ZAO,), (X_5x2 / 2,), (X_2x6 / 2,)],  # halved: moderate scores, so weights are not one-hot
    shape="(T, d)",
    facts=_rows,
    mistakes=[
        Mistake(
            "returned_x",
            N_(
                "you returned X unchanged: each output must mix the rows "
                "of X with the weights softmax(X·Xᵀ)."
            ),
            wrong=lambda X: X,
            watch=N_("returning X unchanged"),
        ),
        Mistake(
            "returned_weights",
            N_(
                "those are the weights softmax(X·Xᵀ), shape (T, T). "
                "One step more: multiply them with X to get the outputs, shape (T, d)."
            ),
            wrong=lambda X: softmax_rows(X @ X.T),
            watch=N_("returning the weights softmax(X·Xᵀ) instead of the outputs"),
        ),
        Mistake(
            "raw_scores",
            N_(
                "you multiplied the raw scores X·Xᵀ with X and skipped the softmax. Without it the weights "
                "are not positive and do not sum to 1, so the outputs can leave the convex hull of the rows."
            ),
            wrong=lambda X: (X @ X.T) @ X,
            watch=N_("skipping the softmax (multiplying the raw scores with X)"),
        ),
        Mistake(
            "columns",
            N_(
                "your weights sum to 1 down each column (axis 0). "
                "Each output row needs a row of weights that sums to 1: softmax along axis=-1."
            ),
            wrong=lambda X: _attention(X, axis=0),
            watch=N_("softmax down the columns (axis 0) instead of along the rows"),
        ),
        Mistake(
            "order",
            N_("you computed Xᵀ·weights, shape (d, T). The weights come first: weights @ X, shape (T, d)."),
            wrong=lambda X: X.T @ softmax_rows(X @ X.T),
            watch=N_("multiplying in the wrong order (Xᵀ·weights instead of weights·X)"),
        ),
        Mistake(
            "uniform",
            N_(
                "every output row is the plain average of all rows: your weights came out uniform. "
                "Did the scores X·Xᵀ get lost (multiplied by 0, or replaced by a constant)?"
            ),
            wrong=lambda X: np.broadcast_to(X.mean(axis=0), X.shape),
            watch=N_("losing the scores, so every weight is the same"),
        ),
    ],
    success=N_("right: each output row is a weighted average of the rows of X, with the width of X."),
)


def _weights(w: np.ndarray) -> dict[str, Any]:
    return {"w": w.tolist(), "total": repr(float(w.sum())), "label": N_("w = {w}")}


IS_CONVEX_COMBINATION = Exercise(
    name="check_is_convex_combination",
    task="``my_is_convex(w)``: whether weights are >= 0 and sum to 1 (up to rounding)",
    shapes="w (T,) -> bool",
    reference=solution_is_convex,
    inputs=[
        (np.array([0.2, 0.3, 0.5]),),
        (np.array([0.6, 0.3, 0.1]),),  # sums to 0.9999999999999999 in floats
        (np.array([1.5, -0.5]),),
        (np.array([0.5, 0.2]),),
        (np.array([0.0, 1.0, 0.0]),),
        (np.array([0.4, 0.4, 0.5]),),
    ],
    shape="()",
    facts=_weights,
    mistakes=[
        Mistake(
            "array",
            N_("return a single True or False for the whole row; got an array of shape {got_shape}"),
            spotted=lambda got, w: np.ndim(got) != 0,
            watch=N_("returning an array instead of a single True or False"),
        ),
        Mistake(
            "exact_sum",
            N_(
                "you said False for {w}: in floating point its sum is {total}, "
                "not exactly 1. Compare with a tolerance, np.isclose(w.sum(), 1)."
            ),
            wrong=lambda w: bool((w >= 0).all() and w.sum() == 1.0),
            watch=N_("comparing the sum with 1 exactly (without a tolerance)"),
        ),
        Mistake(
            "negative_weight",
            N_(
                "you said True for {w}: it sums to 1, but a convex combination needs every weight "
                ">= 0 (with 1.5 and -0.5 the point lands outside the segment between the two rows)."
            ),
            wrong=lambda w: bool(np.isclose(w.sum(), 1.0)),
            watch=N_("accepting negative weights that still sum to 1"),
        ),
        Mistake(
            "sum_not_one",
            N_("you said True for {w}: every weight is >= 0, but they must also add up to 1."),
            wrong=lambda w: bool((w >= 0).all()),
            watch=N_("forgetting to check that the weights sum to 1"),
        ),
        Mistake(
            "zero_weight",
            N_(
                "you said False for {w}: weights may be 0 (use >= 0, not > 0); a one-hot row "
                "simply picks one token."
            ),
            wrong=lambda w: bool((w > 0).all() and np.isclose(w.sum(), 1.0)),
            watch=N_("rejecting weights equal to 0 (use >= 0, not > 0)"),
        ),
    ],
    success=N_("right: non-negative weights that sum to 1 (with a tolerance) keep a point inside the hull."),
)


EXERCISES = (WEIGHTED_SUM, SIMPLE_ATTENTION, IS_CONVEX_COMBINATION)
check_weighted_sum, check_simple_attention, check_is_convex_combination = checkers(
    __name__, EXERCISES, taught="03 §Exercises"
)
