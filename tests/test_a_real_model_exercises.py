"""attnlib.exercises.a_real_model (notebook 08): each typical mistake is named, the references agree with attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.exercises import a_real_model
from tests.exercise_tables import exercise_tests


def split_right(X, n_heads):
    d_k = X.shape[-1] // n_heads
    return np.swapaxes(X.reshape(*X.shape[:-1], n_heads, d_k), -2, -3)


def split_only_2d(X, n_heads):
    T, d_model = X.shape  # fails with a batch axis
    return X.reshape(T, n_heads, d_model // n_heads).transpose(1, 0, 2)


def split_2d_transpose_on_batch(X, n_heads):
    # transpose(1, 0, 2) is right for (T, n_heads, d_k) but raises for (B, T, n_heads, d_k)
    return X.reshape(*X.shape[:-1], n_heads, X.shape[-1] // n_heads).transpose(1, 0, 2)


def columns(W, h, n_heads):
    d_k = W.shape[1] // n_heads
    return slice(h * d_k, (h + 1) * d_k)


def head(X, W_q, W_k, b_q, b_k, h, n_heads, *, axis=-1, scale=True):
    c = columns(W_q, h, n_heads)
    Q, K = X @ W_q[:, c] + b_q[c], X @ W_k[:, c] + b_k[c]
    return attnlib.softmax(Q @ K.T / (np.sqrt(Q.shape[1]) if scale else 1.0), axis=axis)


def head_layer_scale(X, W_q, W_k, b_q, b_k, h, n_heads):
    c = columns(W_q, h, n_heads)
    Q, K = X @ W_q[:, c] + b_q[c], X @ W_k[:, c] + b_k[c]
    return attnlib.softmax(Q @ K.T / np.sqrt(W_q.shape[1]))


def head_strided(X, W_q, W_k, b_q, b_k, h, n_heads):
    c = slice(h, None, n_heads)
    Q, K = X @ W_q[:, c] + b_q[c], X @ W_k[:, c] + b_k[c]
    return attnlib.softmax(Q @ K.T / np.sqrt(W_q.shape[1] // n_heads))


def head_all_columns(X, W_q, W_k, b_q, b_k, h, n_heads):
    Q, K = X @ W_q + b_q, X @ W_k + b_k
    return attnlib.softmax(Q @ K.T / np.sqrt(W_q.shape[1] // n_heads))


def previous(weights):
    i = np.arange(1, weights.shape[-1])
    return weights[..., i, i - 1]


WRONG = {
    "check_split_heads": {
        "reshape_only": lambda X, n: X.reshape(*X.shape[:-2], n, X.shape[-2], X.shape[-1] // n),
        "no_swap": lambda X, n: X.reshape(*X.shape[:-1], n, X.shape[-1] // n),
        "interleaved": lambda X, n: np.swapaxes(
            np.swapaxes(X.reshape(*X.shape[:-1], X.shape[-1] // n, n), -1, -2), -2, -3
        ),
        "reversed_axes": lambda X, n: X.reshape(*X.shape[:-1], n, X.shape[-1] // n).T,
    },
    "check_head_weights": {
        "no_bias": lambda X, W_q, W_k, b_q, b_k, h, n: head(X, W_q, W_k, 0 * b_q, 0 * b_k, h, n),
        "layer_scale": head_layer_scale,
        "no_scale": lambda *args: head(*args, scale=False),
        "strided_columns": head_strided,
        "wrong_head": lambda X, W_q, W_k, b_q, b_k, h, n: head(X, W_q, W_k, b_q, b_k, h - 1, n),
        "all_columns": head_all_columns,
        "axis": lambda *args: head(*args, axis=0),
    },
    "check_previous_token_score": {
        "next_token": lambda w: previous(np.swapaxes(w, -1, -2)).mean(axis=-1),
        "self_token": lambda w: np.diagonal(w, axis1=-2, axis2=-1).mean(axis=-1),
        "wrap_around": lambda w: w[..., np.arange(w.shape[-1]), np.arange(w.shape[-1]) - 1].mean(axis=-1),
        "summed": lambda w: previous(w).sum(axis=-1),
        "divided_by_T": lambda w: previous(w).sum(axis=-1) / w.shape[-1],
        "not_averaged": previous,
    },
}
LIBRARY = {
    "check_split_heads": attnlib.split_heads,
    "check_head_weights": lambda X, W_q, W_k, b_q, b_k, h, n: attnlib.attention_weights(
        X @ W_q[:, columns(W_q, h, n)] + b_q[columns(W_q, h, n)],
        X @ W_k[:, columns(W_k, h, n)] + b_k[columns(W_k, h, n)],
    ),
    # attnlib has no previous-token score: a loop over the queries is a second formulation.
    "check_previous_token_score": lambda w: sum(w[..., i, i - 1] for i in range(1, w.shape[-1])) / (w.shape[-1] - 1),
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(a_real_model, WRONG, LIBRARY)


def test_code_that_only_works_without_batch_axes_is_told_to_count_from_the_end():
    for wrong in (split_only_2d, split_2d_transpose_on_batch):
        verdict = a_real_model.check_split_heads(wrong)
        assert not verdict and verdict.cause == "raised"
        assert "right for one sentence" in verdict.message and "count axes from the end" in verdict.message


def test_the_reference_split_passes():
    assert a_real_model.check_split_heads(split_right)
