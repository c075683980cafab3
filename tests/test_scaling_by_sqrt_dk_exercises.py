"""attnlib.exercises.scaling_by_sqrt_dk (notebook 05): each mistake is named, the references agree with attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.exercises import scaling_by_sqrt_dk
from tests.exercise_tables import exercise_tests

sq = np.sqrt
softmax = attnlib.softmax

WRONG = {
    "check_scaled_scores": {
        "no_scale": lambda Q, K: Q @ K.T,
        "by_d_k": lambda Q, K: Q @ K.T / Q.shape[-1],
        "wrong_size": lambda Q, K: Q @ K.T / sq(Q.shape[0]),
        "multiplied": lambda Q, K: Q @ K.T * sq(Q.shape[-1]),
        "transposed": lambda Q, K: K @ Q.T / sq(Q.shape[-1]),
        "features": lambda Q, K: Q.T @ K / sq(Q.shape[-1]),
    },
    "check_scaled_weights": {
        "axis": lambda Q, K: softmax(Q @ K.T / sq(Q.shape[-1]), axis=0),
        "no_scale": lambda Q, K: softmax(Q @ K.T),
        "transposed": lambda Q, K: softmax(K @ Q.T / sq(Q.shape[-1])),
        "not_normalised": lambda Q, K: np.exp(Q @ K.T / sq(Q.shape[-1])),
    },
    "check_softmax_jacobian": {
        "only_outer": lambda p: -np.outer(p, p),
        "sign": lambda p: np.outer(p, p) - np.diag(p),
        "scalar_product": lambda p: np.diag(p) - p @ p,
        "scalar": lambda p: p @ p,
        "diagonal_only": lambda p: np.diag(p - p * p),
    },
}
LIBRARY = {
    "check_scaled_scores": attnlib.scores,
    "check_scaled_weights": attnlib.attention_weights,
    "check_softmax_jacobian": attnlib.softmax_jacobian,
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(scaling_by_sqrt_dk, WRONG, LIBRARY)


def test_a_forgotten_return_in_the_jacobian_is_not_misdiagnosed():
    verdict = scaling_by_sqrt_dk.check_softmax_jacobian(lambda p: None)
    assert verdict.cause == "returned_none" and "did you forget the `return` line?" in verdict.message


def test_the_wrong_size_names_which_size():
    verdict = scaling_by_sqrt_dk.check_scaled_scores(lambda Q, K: Q @ K.T / sq(K.shape[0]))
    assert verdict.cause == "wrong_size" and "number of tokens, T_q = T_k" in verdict.message  # first input: T_q = T_k = 6
