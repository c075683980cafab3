"""attnlib.exercises.inner_products (notebook 01): each typical mistake is named, the references agree with attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.exercises import inner_products
from tests.exercise_tables import exercise_tests


def unit_rows(X):
    return X / np.linalg.norm(X, axis=1, keepdims=True)


WRONG = {
    "check_gram_matrix": {
        "transposed": lambda X: X.T @ X,
        "elementwise": lambda X: X * X,
        "diagonal_only": lambda X: (X * X).sum(axis=1),
        "normalised": lambda X: unit_rows(X) @ unit_rows(X).T,
    },
    "check_cosine_matrix": {
        "raw_dot_products": lambda X: X @ X.T,
        "columns": lambda X: (X / np.linalg.norm(X, axis=0)) @ (X / np.linalg.norm(X, axis=0)).T,
        "one_sided": lambda X: X @ X.T / (np.linalg.norm(X, axis=1) ** 2)[:, None],
        "angle": lambda X: np.degrees(np.arccos(np.clip(unit_rows(X) @ unit_rows(X).T, -1, 1))),
    },
    "check_projection_length": {
        "by_a": lambda a, b: a @ b / np.linalg.norm(a),
        "coefficient": lambda a, b: a @ b / (b @ b),
        "cosine": lambda a, b: a @ b / np.linalg.norm(a) / np.linalg.norm(b),
        "vector": lambda a, b: (a @ b) / (b @ b) * b,
        "unsigned": lambda a, b: abs(a @ b) / np.linalg.norm(b),
    },
}

LIBRARY = {
    "check_gram_matrix": lambda X: attnlib.scores(X, X, scale=False),
    "check_cosine_matrix": attnlib.cosine_similarity,
    "check_projection_length": lambda a, b: np.linalg.norm(a) * attnlib.cosine_similarity(a[None], b[None])[0, 0],
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(inner_products, WRONG, LIBRARY)


def test_the_diagnosis_names_the_sizes_of_the_hidden_input():
    verdict = inner_products.check_gram_matrix(lambda X: X.T @ X)
    assert "(d, d) = (4, 4)" in verdict.message and "(T, T) = (3, 3)" in verdict.message


def test_a_crash_is_reported_with_the_learners_line():
    def my_gram(X):
        return X @ X  # (3, 4) @ (3, 4) is undefined

    verdict = inner_products.check_gram_matrix(my_gram)
    assert not verdict and verdict.cause == "raised"
    assert verdict.message.startswith("your function raised ValueError")
    assert "`return X @ X  # (3, 4) @ (3, 4) is undefined`" in verdict.message and "X of shape (3, 4)" in verdict.message


def test_the_learner_cannot_change_the_hidden_inputs():
    def vandal(X):
        X[:] = 0
        return X @ X.T

    assert not inner_products.check_gram_matrix(vandal)
    assert inner_products.check_gram_matrix(lambda X: X @ X.T)  # the hidden inputs are intact
