"""The exercise checkers of notebooks 01-03: each reference passes, each typical mistake is named."""

from __future__ import annotations

import numpy as np
import pytest

from attnlib import exercises, softmax
from attnlib.exercises import Verdict, basics


def _softmax(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _unit_rows(X):
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def _entropy(p):
    return -np.sum(p * np.log(np.where(p > 0, p, 1.0)), axis=-1)


def _not_written(*args):
    raise NotImplementedError


# checker -> (reference solution, [(wrong answer, words its verdict must contain), ...])
CASES = {
    "check_gram_matrix": (
        lambda X: X @ X.T,
        [
            (lambda X: X.T @ X, "you computed Xᵀ·X, shape (d, d)"),
            (lambda X: X * X, "you squared X entry by entry"),
            (lambda X: (X * X).sum(axis=1), "only each token's dot product with itself"),
            (lambda X: _unit_rows(X) @ _unit_rows(X).T, "that is the cosine similarity"),
        ],
    ),
    "check_cosine_matrix": (
        lambda X: _unit_rows(X) @ _unit_rows(X).T,
        [
            (lambda X: X @ X.T, "these are the raw dot products"),
            (
                lambda X: (X / np.linalg.norm(X, axis=0)) @ (X / np.linalg.norm(X, axis=0)).T,
                "you normalised the columns (axis=0)",
            ),
            (lambda X: X @ X.T / (np.linalg.norm(X, axis=1) ** 2)[:, None], "your matrix is not symmetric"),
            (lambda X: np.arccos(np.clip(_unit_rows(X) @ _unit_rows(X).T, -1, 1)), "the angle θ itself"),
        ],
    ),
    "check_projection_length": (
        lambda a, b: a @ b / np.linalg.norm(b),
        [
            (lambda a, b: a @ b / np.linalg.norm(a), "you divided by |a|"),
            (lambda a, b: a @ b / (b @ b), "you divided by |b|²"),
            (lambda a, b: a @ b / np.linalg.norm(a) / np.linalg.norm(b), "that is cos θ"),
            (lambda a, b: (a @ b) / (b @ b) * b, "you returned a vector"),
            (lambda a, b: abs(a @ b) / np.linalg.norm(b), "right size, wrong sign"),
        ],
    ),
    "check_softmax_rows": (
        _softmax,
        [
            (lambda s: _softmax(s, axis=0), "your columns sum to 1 but your rows don't: which axis"),
            (lambda s: np.exp(s) / np.exp(s).sum(), "you divided by the sum of the whole matrix"),
            (lambda s: np.exp(s), "these are exp(scores), not yet normalised"),
            (lambda s: s / s.sum(axis=-1, keepdims=True), "skipped the exp"),
            (lambda s: _softmax(s - s.max(axis=0)), "you subtracted each column's maximum"),
            (lambda s: np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True), "NaN or inf for scores like 1000"),
        ],
    ),
    "check_scaled_softmax": (
        lambda s, k: _softmax(k * s),
        [
            (lambda s, k: _softmax(s / k), "you divided the scores by β"),
            (lambda s, k: k * _softmax(s), "you multiplied the weights by β after the softmax"),
            (lambda s, k: _softmax(s + k), "Adding β to every score changes nothing"),
            (lambda s, k: np.exp(k * s), "your rows don't sum to 1"),
        ],
    ),
    "check_entropy": (
        _entropy,
        [
            (lambda p: -np.sum(p * np.log2(np.where(p > 0, p, 1.0)), axis=-1), "log base 2"),
            (lambda p: -_entropy(p), "your entropies are negative"),
            (lambda p: -np.sum(p * np.log(np.where(p > 0, p, 1.0)), axis=0), "you summed over axis 0"),
            (lambda p: -np.sum(p * np.log(np.where(p > 0, p, 1.0))), "one number for the whole matrix"),
            (lambda p: -np.sum(p * np.log(p), axis=-1), "NaN when a weight is 0"),
        ],
    ),
    "check_weighted_sum": (
        lambda w, X: w @ X,
        [
            (lambda w, X: w[:, None] * X, "did not add them up"),
            (lambda w, X: (w[:, None] * X).sum(axis=1), "you added over the features (axis 1)"),
            (lambda w, X: (w[:, None] * X).sum(), "you added everything into one number"),
            (lambda w, X: X.mean(axis=0), "the plain average of the rows"),
            (lambda w, X: w @ X / len(w), "you divided by T after weighting"),
        ],
    ),
    "check_simple_attention": (
        lambda X: softmax(X @ X.T) @ X,
        [
            (lambda X: X, "you returned X unchanged"),
            (lambda X: softmax(X @ X.T), "those are the weights softmax(X·Xᵀ), shape (T, T)"),
            (lambda X: X @ X.T @ X, "skipped the softmax"),
            (lambda X: softmax(X @ X.T, axis=0) @ X, "your weights sum to 1 down each column"),
            (lambda X: X.T @ softmax(X @ X.T), "you computed Xᵀ·weights"),
            (lambda X: softmax(0 * X @ X.T) @ X, "your weights came out uniform"),
        ],
    ),
    "check_is_convex_combination": (
        lambda w: bool((w >= 0).all() and np.isclose(w.sum(), 1.0)),
        [
            (lambda w: bool((w >= 0).all() and w.sum() == 1.0), "Compare with a tolerance"),
            (lambda w: bool(np.isclose(w.sum(), 1.0)), "needs every weight >= 0"),
            (lambda w: bool((w >= 0).all()), "they must also add up to 1"),
            (lambda w: bool((w > 0).all() and np.isclose(w.sum(), 1.0)), "weights may be 0"),
            (lambda w: w >= 0, "return a single True or False"),
        ],
    ),
}

WRONG = [(name, wrong, words) for name, (_, mistakes) in CASES.items() for wrong, words in mistakes]


def test_every_checker_is_exported_and_tested():
    assert set(CASES) == set(basics.__all__)
    assert set(basics.__all__) <= set(exercises.__all__)
    for name, (_, mistakes) in CASES.items():
        assert len({words for _, words in mistakes}) >= 3, f"{name} needs at least three diagnoses"


@pytest.mark.parametrize("name", list(CASES))
def test_reference_passes(name):
    verdict = getattr(exercises, name)(CASES[name][0])
    assert isinstance(verdict, Verdict)
    assert verdict.ok, verdict.message
    assert str(verdict).startswith("✅")


@pytest.mark.parametrize(("name", "wrong", "words"), WRONG, ids=[f"{n}-{w[:30]}" for n, _, w in WRONG])
def test_each_diagnosis_fires_on_its_typical_mistake(name, wrong, words):
    verdict = getattr(exercises, name)(wrong)
    assert not verdict.ok
    assert words in verdict.message, verdict.message
    assert "Traceback" not in verdict.message


@pytest.mark.parametrize("name", list(CASES))
def test_not_written_yet_is_friendly(name):
    verdict = getattr(exercises, name)(_not_written)
    assert not verdict.ok
    assert verdict.message.startswith("not written yet")
    assert "❌ not written yet" in verdict._repr_html_()


@pytest.mark.parametrize("name", list(CASES))
def test_forgotten_return_and_non_function(name):
    verdict = getattr(exercises, name)(lambda *args: None)
    assert not verdict.ok and "returned None" in verdict.message
    verdict = getattr(exercises, name)(np.zeros(3))
    assert not verdict.ok and "pass your function itself" in verdict.message


def test_a_crash_is_reported_not_raised():
    verdict = exercises.check_gram_matrix(lambda X: X @ X)  # (3, 4) @ (3, 4) is undefined
    assert not verdict.ok and verdict.message.startswith("your function raised ValueError")


def test_the_learner_cannot_change_the_hidden_inputs():
    def vandal(X):
        X[:] = 0
        return X @ X.T

    assert not exercises.check_gram_matrix(vandal).ok
    assert exercises.check_gram_matrix(lambda X: X @ X.T).ok  # the hidden cases are intact


def test_diagnoses_do_not_crash_on_odd_shapes():
    for name in CASES:
        verdict = getattr(exercises, name)(lambda *args: np.zeros((7, 1, 2)))
        assert not verdict.ok and verdict.message
