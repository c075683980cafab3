"""attnlib.exercises.weighted_sum (notebook 03): each typical mistake is named, the references agree with attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.exercises import weighted_sum
from tests.exercise_tables import exercise_tests

softmax = attnlib.softmax

WRONG = {
    "check_weighted_sum": {
        "not_summed": lambda w, X: w[:, None] * X,
        "feature_sum": lambda w, X: (w[:, None] * X).sum(axis=1),
        "scalar": lambda w, X: (w[:, None] * X).sum(),
        "plain_mean": lambda w, X: X.mean(axis=0),
        "divided": lambda w, X: w @ X / len(w),
    },
    "check_simple_attention": {
        "returned_x": lambda X: X,
        "returned_weights": lambda X: softmax(X @ X.T),
        "raw_scores": lambda X: X @ X.T @ X,
        "columns": lambda X: softmax(X @ X.T, axis=0) @ X,
        "order": lambda X: X.T @ softmax(X @ X.T),
        "uniform": lambda X: softmax(0 * X @ X.T) @ X,
    },
    "check_is_convex_combination": {
        "exact_sum": lambda w: bool((w >= 0).all() and w.sum() == 1.0),
        "negative_weight": lambda w: bool(np.isclose(w.sum(), 1.0)),
        "sum_not_one": lambda w: bool((w >= 0).all()),
        "zero_weight": lambda w: bool((w > 0).all() and np.isclose(w.sum(), 1.0)),
        "array": lambda w: w >= 0,
    },
}

LIBRARY = {
    # attnlib has no weighted sum of its own: np.average is a second, independent formulation.
    "check_weighted_sum": lambda w, X: np.average(X, axis=0, weights=w),
    "check_simple_attention": lambda X: attnlib.attention(X, X, X, scale=False)[0],
    "check_is_convex_combination": lambda w: bool(np.all(w >= 0) and np.isclose(np.sum(w), 1.0)),
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(weighted_sum, WRONG, LIBRARY)


def test_the_rounding_diagnosis_shows_the_float_sum():
    verdict = weighted_sum.check_is_convex_combination(lambda w: bool((w >= 0).all() and w.sum() == 1.0))
    assert "0.9999999999999999" in verdict.message
