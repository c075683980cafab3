"""attnlib.exercises.positions (notebook 10): each typical mistake is named, the references agree with attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.exercises import positions
from tests.exercise_tables import exercise_tests


def table(T, d_model, first=0, step=None, flip=1.0):
    t = np.arange(first, first + T)[:, None]
    j = np.arange(d_model)
    power = 2 * (j // 2) if step is None else step * j
    angle = t / 10000.0 ** (flip * power / d_model)
    return np.where(j % 2 == 0, np.sin(angle), np.cos(angle))


def halves_table(T, d_model):
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def swapped_table(T, d_model):
    angle = np.arange(T)[:, None] / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.cos(angle)
    PE[:, 1::2] = np.sin(angle)
    return PE


def rope(X, positions, two=2, turn=1.0, halves=False):
    d_k = X.shape[-1]
    theta = turn * np.asarray(positions, dtype=float)[:, None] / 10000.0 ** (two * np.arange(d_k // 2) / d_k)
    a, b = (X[..., : d_k // 2], X[..., d_k // 2 :]) if halves else (X[..., 0::2], X[..., 1::2])
    new_a, new_b = a * np.cos(theta) - b * np.sin(theta), a * np.sin(theta) + b * np.cos(theta)
    return np.concatenate([new_a, new_b], axis=-1) if halves else np.stack([new_a, new_b], -1).reshape(X.shape)


def rope_in_degrees(X, positions):
    d_k = X.shape[-1]
    theta = np.asarray(positions)[:, None] / 10000.0 ** (np.arange(0, d_k, 2) / d_k)
    out = X.copy()
    out[..., 0::2] = X[..., 0::2] * np.cos(np.radians(theta)) - X[..., 1::2] * np.sin(np.radians(theta))
    out[..., 1::2] = X[..., 0::2] * np.sin(np.radians(theta)) + X[..., 1::2] * np.cos(np.radians(theta))
    return out


def rope_sign_slip(X, positions):
    d_k = X.shape[-1]
    theta = np.asarray(positions)[:, None] / 10000.0 ** (np.arange(0, d_k, 2) / d_k)
    out = X.copy()
    out[..., 0::2] = X[..., 0::2] * np.cos(theta) + X[..., 1::2] * np.sin(theta)
    out[..., 1::2] = X[..., 0::2] * np.sin(theta) + X[..., 1::2] * np.cos(theta)
    return out


def alibi(T, n_heads, slopes=None, blocked=-np.inf):
    m = 2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads) if slopes is None else slopes
    distance = np.arange(T)[:, None] - np.arange(T)[None, :]  # i − j
    return np.where(distance >= 0, -m[:, None, None] * distance, blocked)


WRONG = {
    "check_sinusoid_table": {
        "concatenated": halves_table,
        "swapped": swapped_table,
        "column_frequency": lambda T, d_model: table(T, d_model, step=1),
        "inverse_frequency": lambda T, d_model: table(T, d_model, flip=-1.0),
        "from_one": lambda T, d_model: table(T, d_model, first=1),
        "transposed": lambda T, d_model: table(T, d_model).T,
    },
    "check_rope": {
        "halves": lambda X, positions: rope(X, positions, halves=True),
        "clockwise": lambda X, positions: rope(X, positions, turn=-1.0),
        "degrees": rope_in_degrees,
        "frequency": lambda X, positions: rope(X, positions, two=1),
        "one_frequency": lambda X, positions: rope(X, positions, two=0),
        "ignored_positions": lambda X, positions: rope(X, np.arange(X.shape[-2])),
        "not_a_rotation": rope_sign_slip,
    },
    "check_rope_scores": {
        "plain": lambda Q, K, qp, kp: Q @ K.T,
        "one_side": lambda Q, K, qp, kp: rope(Q, qp) @ K.T,
        "same_positions": lambda Q, K, qp, kp: rope(Q, qp) @ rope(K, qp).T,
        "swapped_positions": lambda Q, K, qp, kp: rope(Q, kp) @ rope(K, qp).T,
        "inconsistent": lambda Q, K, qp, kp: rope(Q, qp) @ rope(K, kp, halves=True).T,
        "halves": lambda Q, K, qp, kp: rope(Q, qp, halves=True) @ rope(K, kp, halves=True).T,
        "scaled": lambda Q, K, qp, kp: rope(Q, qp) @ rope(K, kp).T / np.sqrt(Q.shape[-1]),
        "transposed": lambda Q, K, qp, kp: rope(K, kp) @ rope(Q, qp).T,
    },
    "check_alibi_bias": {
        "sign": lambda T, n_heads: -alibi(T, n_heads, blocked=np.inf),
        "big_negative": lambda T, n_heads: alibi(T, n_heads, blocked=-1e9),
        "no_mask": lambda T, n_heads: -(2.0 ** (-8 * np.arange(1, n_heads + 1) / n_heads))[:, None, None] * np.abs(np.arange(T)[:, None] - np.arange(T)),
        "slopes_from_zero": lambda T, n_heads: alibi(T, n_heads, slopes=2.0 ** (-8 * np.arange(n_heads) / n_heads)),
        "eight_heads": lambda T, n_heads: alibi(T, n_heads, slopes=0.5 ** np.arange(1, n_heads + 1)),
        "heads_last": lambda T, n_heads: np.transpose(alibi(T, n_heads), (1, 2, 0)),
    },
}
LIBRARY = {
    "check_sinusoid_table": attnlib.sinusoidal_positions,
    "check_rope": attnlib.apply_rope,
    "check_rope_scores": attnlib.rope_scores,
    # ALiBi's bias, then the causal mask on top (notebook 10 adds the two the same way).
    "check_alibi_bias": lambda T, n_heads: attnlib.alibi_bias(T, slopes=attnlib.alibi_slopes(n_heads))
    + attnlib.additive_mask(attnlib.causal_mask(T)),
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(positions, WRONG, LIBRARY)


def test_the_hidden_positions_are_not_just_the_row_numbers():
    """A function that ignores its positions must fail somewhere; so must one that rotates K by the
    queries' positions."""
    assert any(not np.array_equal(t, np.arange(len(t))) for _, t in positions.ROPE.inputs)
    assert all(not np.array_equal(qp, kp) for _, _, qp, kp in positions.ROPE_SCORES.inputs)
    assert any(np.any(t % 1) for _, t in positions.ROPE.inputs)  # a fractional position


def test_the_rotate_half_layout_is_told_it_is_a_valid_rotation_of_another_layout():
    verdict = positions.check_rope(WRONG["check_rope"]["halves"])
    assert "rotate half" in verdict.message and "(x_0, x_1)" in verdict.message


def test_a_learner_whose_rope_works_on_one_matrix_only_is_told_about_the_batch_axis():
    def one_matrix_only(X, positions):
        theta = np.asarray(positions)[:, None] / 10000.0 ** (np.arange(0, X.shape[1], 2) / X.shape[1])
        out = np.empty_like(X)
        out[:, 0::2] = X[:, 0::2] * np.cos(theta) - X[:, 1::2] * np.sin(theta)
        out[:, 1::2] = X[:, 0::2] * np.sin(theta) + X[:, 1::2] * np.cos(theta)
        return out

    verdict = positions.check_rope(one_matrix_only)
    assert not verdict and "leading axis" in verdict.message, verdict.message


def test_the_alibi_diagnoses_name_the_number_of_heads(zh_hans):
    verdict = positions.check_alibi_bias(WRONG["check_alibi_bias"]["eight_heads"])
    assert verdict.cause == "eight_heads" and "n_heads = 2" in verdict.message and "{" not in verdict.message
