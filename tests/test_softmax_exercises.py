"""attnlib.exercises.softmax (notebook 02): each typical mistake is named, the references agree with attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.exercises import softmax
from tests.exercise_tables import exercise_tests


def stable(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def plogp(p):
    return p * np.log(np.where(p > 0, p, 1.0))


WRONG = {
    "check_softmax_rows": {
        "columns": lambda s: stable(s, axis=0),
        "whole_matrix": lambda s: np.exp(s) / np.exp(s).sum(),
        "no_division": lambda s: np.exp(s),
        "no_exp": lambda s: s / s.sum(axis=-1, keepdims=True),
        "column_max": lambda s: stable(s - s.max(axis=0)),
        "overflow": lambda s: np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True),
    },
    "check_scaled_softmax": {
        "divided": lambda s, k: stable(s / k),
        "after": lambda s, k: k * stable(s),
        "added": lambda s, k: stable(s + k),
        "rows": lambda s, k: np.exp(k * s),
    },
    "check_entropy": {
        "bits": lambda p: -np.sum(p * np.log2(np.where(p > 0, p, 1.0)), axis=-1),
        "sign": lambda p: np.sum(plogp(p), axis=-1),
        "axis": lambda p: -np.sum(plogp(p), axis=0),
        "one_number": lambda p: -np.sum(plogp(p)),
        "zero_log_zero": lambda p: -np.sum(p * np.log(p), axis=-1),
    },
}

LIBRARY = {
    "check_softmax_rows": attnlib.softmax,
    "check_scaled_softmax": lambda s, beta: attnlib.softmax(beta * s),
    "check_entropy": attnlib.entropy,
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(softmax, WRONG, LIBRARY)


def test_the_overflow_gets_its_own_words_not_the_generic_nan_message():
    verdict = softmax.check_softmax_rows(lambda s: np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True))
    assert "exp(1000) overflows" in verdict.message and "contains NaN" not in verdict.message
