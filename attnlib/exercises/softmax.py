"""The exercises of notebook 02 (softmax: from scores to weights): softmax, a scale factor, entropy."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import N_
from .pipeline import Exercise, Mistake, checkers, softmax_rows

__all__ = ["check_entropy", "check_scaled_softmax", "check_softmax_rows"]

SCORES_3x3 = np.array([[2.0, 0.5, -1.0], [0.0, 1.0, 3.0], [-2.0, 1.5, 1.0]])  # not symmetric
SCORES_2x4 = np.array([[1.0, -1.0, 0.5, 2.0], [0.0, 3.0, -2.0, 1.0]])
SCORES_LARGE = np.array([[1000.0, 999.0, 998.0], [-1000.0, -1001.0, -1003.0]])


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline).


def solution_softmax(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))  # the row maximum becomes e^0 = 1
    return e / e.sum(axis=-1, keepdims=True)


def solution_scaled_softmax(scores, beta):
    z = beta * scores  # β multiplies the scores before the softmax
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def solution_entropy(weights):
    safe = np.where(weights > 0, weights, 1.0)  # log 1 = 0, so zero weights add nothing
    return -np.sum(weights * np.log(safe), axis=-1)


def _scores(scores: np.ndarray, beta: float | None = None) -> dict[str, Any]:
    T_q, T_k = scores.shape
    return {"T_q": T_q, "T_k": T_k, "beta": beta, "label": N_("scores of shape ({T_q}, {T_k})")}


def _rows_off(got: np.ndarray) -> bool:
    return got.ndim >= 1 and not np.allclose(got.sum(axis=-1), 1.0, atol=1e-6)


SOFTMAX_ROWS = Exercise(
    name="check_softmax_rows",
    task="``my_softmax(scores)``: every row normalised with softmax, safely for large scores",
    shapes="scores (T_q, T_k) -> weights (T_q, T_k)",
    reference=solution_softmax,
    inputs=[(SCORES_3x3,), (SCORES_2x4,)],
    harder_inputs=[(SCORES_LARGE,)],
    shape="(T_q, T_k)",
    facts=_scores,
    mistakes=[
        Mistake(
            "columns",
            N_(
                "your columns sum to 1 but your rows don't: which axis did you normalise? "
                "Each query row must sum to 1, so use axis=-1 (with keepdims=True)."
            ),
            spotted=lambda got, s: got.ndim == 2 and _rows_off(got) and np.allclose(got.sum(axis=0), 1.0),
            watch=N_("normalising the columns instead of the rows"),
        ),
        Mistake(
            "whole_matrix",
            N_(
                "all your entries together sum to 1: you divided by the sum of the whole matrix. "
                "Divide each row by its own sum (axis=-1, keepdims=True)."
            ),
            spotted=lambda got, s: got.ndim == 2 and _rows_off(got) and np.isclose(got.sum(), 1.0),
            watch=N_("dividing by the sum of the whole matrix"),
        ),
        Mistake(
            "no_division",
            N_("these are exp(scores), not yet normalised: divide each row by its sum."),
            wrong=lambda s: np.exp(s),
            watch=N_("forgetting to divide by the row sum"),
        ),
        Mistake(
            "no_exp",
            N_(
                "you divided the scores by their row sum but skipped the exp. "
                "Rows then sum to 1, yet negative scores give negative 'weights': exponentiate first."
            ),
            wrong=lambda s: s / s.sum(axis=-1, keepdims=True),
            watch=N_("skipping the exp"),
        ),
        Mistake(
            "column_max",
            N_(
                "you subtracted each column's maximum. A constant per row cancels out, a constant per "
                "column does not: subtract each row's maximum, scores.max(axis=-1, keepdims=True)."
            ),
            wrong=lambda s: solution_softmax(s - s.max(axis=0)),
            watch=N_("subtracting each column's maximum instead of each row's"),
        ),
        Mistake(
            "overflow",
            N_(
                "right on small scores, but NaN or inf for scores like 1000 or -1000: exp(1000) overflows to "
                "inf (inf/inf = NaN) and exp(-1000) underflows to 0 (0/0 = NaN). "
                "Subtract each row's maximum before the exp: the answer does not change, the overflow goes."
            ),
            spotted=lambda got, s: np.abs(s).max() > 700 and not np.isfinite(got).all(),
            watch=N_("overflow for scores like ±1000 (subtract the row maximum first)"),
        ),
    ],
    success=N_("right, and safe for large scores: every row is positive and sums to 1."),
)

SCALED_SOFTMAX = Exercise(
    name="check_scaled_softmax",
    task="``my_scaled_softmax(scores, beta)``: ``softmax(β · scores)`` row by row",
    shapes="scores (T_q, T_k), beta float -> weights (T_q, T_k)",
    reference=solution_scaled_softmax,
    inputs=[(SCORES_3x3, 2.0), (SCORES_3x3, 0.5), (SCORES_2x4, 3.0), (SCORES_2x4, 0.0)],
    shape="(T_q, T_k)",
    facts=lambda s, beta: {**_scores(s, beta), "label": N_("β = {beta}")},
    mistakes=[
        Mistake(
            "divided",
            N_(
                "you divided the scores by β = {beta} (that is a temperature of {beta}). "
                "Here β multiplies: softmax(β · scores)."
            ),
            wrong=lambda s, beta: solution_softmax(s / beta),
            spotted=lambda got, s, beta: beta not in (0, 1),
            watch=N_("dividing the scores by β instead of multiplying"),
        ),
        Mistake(
            "after",
            N_(
                "you multiplied the weights by β after the softmax, so each row sums to β = {beta}. "
                "Scale the scores before the softmax."
            ),
            wrong=lambda s, beta: beta * solution_softmax(s),
            spotted=lambda got, s, beta: beta != 1,
            watch=N_("multiplying the weights by β after the softmax"),
        ),
        Mistake(
            "added",
            N_(
                "your weights did not change with β = {beta}. Adding β to every score changes nothing "
                "(softmax ignores a constant added to a row); β must multiply the scores."
            ),
            wrong=lambda s, beta: solution_softmax(s),
            spotted=lambda got, s, beta: beta != 1,
            watch=N_("adding β to the scores (softmax ignores a constant)"),
        ),
        Mistake(
            "rows",
            N_("your rows don't sum to 1: the softmax must be the last step, along axis=-1."),
            spotted=lambda got, s, beta: _rows_off(got),
            watch=N_("rows that do not sum to 1 (softmax must come last)"),
        ),
    ],
    success=N_("right: β = 0 gives uniform rows, a large β makes them peaked."),
)


def _weights(p: np.ndarray) -> dict[str, Any]:
    return {"shape_of_p": p.shape, "label": N_("weights of shape {shape_of_p}")}


ENTROPY = Exercise(
    name="check_entropy",
    task="``my_entropy(weights)``: ``-Σ p log p`` (nats) of each row",
    shapes="weights (..., T_k) -> (...)",
    reference=solution_entropy,
    inputs=[
        (np.full(3, 1 / 3),),
        (np.array([0.4005471, 0.4005471, 0.1989058]),),
        (softmax_rows(SCORES_3x3),),
    ],
    harder_inputs=[(np.array([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]]),)],
    shape="(...)",
    facts=_weights,
    mistakes=[
        Mistake(
            "bits",
            N_("you used log base 2 (bits). We measure in nats: use np.log (the natural log)."),
            wrong=lambda p: solution_entropy(p) / np.log(2),
            watch=N_("using log base 2 (bits) instead of the natural log"),
        ),
        Mistake(
            "sign",
            N_("your entropies are negative: the formula is minus Σ p log p (log p ≤ 0 for p ≤ 1)."),
            wrong=lambda p: -solution_entropy(p),
            watch=N_("forgetting the minus sign in −Σ p log p"),
        ),
        Mistake(
            "axis",
            N_("you summed over axis 0 (down the columns); each row is one distribution: axis=-1."),
            wrong=lambda p: -(p * np.log(np.where(p > 0, p, 1.0))).sum(axis=0),
            spotted=lambda got, p: p.ndim == 2,
            watch=N_("summing down the columns (axis 0) instead of along each row"),
        ),
        Mistake(
            "one_number",
            N_("you returned one number for the whole matrix; give one entropy per row (axis=-1)."),
            wrong=lambda p: solution_entropy(p).sum(),
            spotted=lambda got, p: p.ndim == 2,
            watch=N_("returning one number for the whole matrix instead of one per row"),
        ),
        Mistake(
            "zero_log_zero",
            N_(
                "right for positive weights, but NaN when a weight is 0: 0 · log 0 is 0 · (-inf) = NaN. "
                "Count those terms as 0, e.g. np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0)."
            ),
            spotted=lambda got, p: (p == 0).any() and not np.isfinite(got).all(),
            watch=N_("a NaN from 0 · log 0 when a weight is 0"),
        ),
    ],
    success=N_("right: log T for uniform weights, 0 for one-hot, in nats."),
)


EXERCISES = (SOFTMAX_ROWS, SCALED_SOFTMAX, ENTROPY)
check_softmax_rows, check_scaled_softmax, check_entropy = checkers(__name__, EXERCISES, "02 §Exercises")
