"""attnlib.exercises.queries_keys_values (notebook 04): the scores checker and the projection puzzle."""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib.exercises import queries_keys_values as qkv
from tests.exercise_tables import exercise_tests

WRONG = {
    "check_scores": {
        "features_not_tokens": lambda X, W_q, W_k: (X @ W_q).T @ (X @ W_k),
        "transposed": lambda X, W_q, W_k: (X @ W_k) @ (X @ W_q).T,
        "no_projection": lambda X, W_q, W_k: X @ X.T,
        "same_projection": lambda X, W_q, W_k: (X @ W_q) @ (X @ W_q).T,
        "elementwise": lambda X, W_q, W_k: (X @ W_q) * (X @ W_k),
        "already_scaled": lambda X, W_q, W_k: (X @ W_q) @ (X @ W_k).T / np.sqrt(W_q.shape[1]),
    },
}
LIBRARY = {"check_scores": lambda X, W_q, W_k: attnlib.scores(X @ W_q, X @ W_k, scale=False)}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(qkv, WRONG, LIBRARY)


def test_a_wrong_answer_without_diagnosis_gets_the_generic_message():
    verdict = qkv.check_scores(lambda X, W_q, W_k: (X @ W_q) @ (X @ W_k).T + 1.0)
    assert verdict.cause == "numbers" and "differ from the expected" in verdict.message


# The projection puzzle: make "green" attend to "grass".
def design(**entries):
    W = {"W_q": np.zeros((6, 2)), "W_k": np.zeros((6, 2))}
    for key, value in entries.items():
        name, row, col = key.rsplit("_", 2)
        W[name][int(row), int(col)] = value
    return W["W_q"], W["W_k"]


@pytest.mark.parametrize(
    ("W_q", "W_k", "cause", "words"),
    [
        (*design(W_q_2_1=3.0, W_k_5_1=3.0), "correct", "0.91 of its attention on 'grass'"),
        (*design(), "even", "still all zeros"),
        (*design(W_q_2_1=1.0, W_k_5_1=1.0), "too_weak", "Make the entries larger"),
        (*design(W_q_2_1=3.0, W_k_2_1=3.0), "itself", "attends most to itself"),
        (*design(W_q_2_1=3.0, W_k_0_1=3.0), "tie", "shares first place with 'kids'"),
        (*design(W_q_2_1=3.0, W_k_4_1=3.0), "other_wins", "'kids' wins"),
    ],
)
def test_projection_puzzle(W_q, W_k, cause, words):
    verdict = qkv.check_projection_puzzle(W_q, W_k)
    assert verdict.ok is (cause == "correct") and verdict.cause == cause
    assert words in verdict.message, verdict.message


@pytest.mark.parametrize(
    ("W_q", "W_k", "cause"),
    [
        (np.zeros((2, 6)), np.zeros((6, 2)), "wrong_way_round"),
        (np.zeros((6, 2)), np.zeros((6, 3)), "widths"),
        (np.zeros((5, 2)), np.zeros((6, 2)), "shape"),
        (np.full((6, 2), np.nan), np.zeros((6, 2)), "not_finite"),
        ("nope", np.zeros((6, 2)), "not_numbers"),
    ],
)
def test_projection_puzzle_shape_feedback(W_q, W_k, cause):
    verdict = qkv.check_projection_puzzle(W_q, W_k)
    assert not verdict and verdict.cause == cause and "{" not in verdict.message


def test_every_puzzle_message_is_tested():
    # the causes above and in test_projection_puzzle
    tested = {"correct", "even", "too_weak", "itself", "tie", "other_wins"}
    tested |= {"wrong_way_round", "widths", "shape", "not_finite", "not_numbers"}
    assert tested == set(qkv.PUZZLE_MESSAGES)


def test_projection_puzzle_other_pairs():
    W_q, W_k = np.zeros((6, 1)), np.zeros((6, 1))
    W_q[1, 0], W_k[4, 0] = 3.0, 3.0  # an action asks "who is alive?"
    assert qkv.check_projection_puzzle(W_q, W_k, query="playing", key="kids")
