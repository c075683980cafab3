"""The exercises of notebook 08: each reference passes, and each diagnosis fires on its mistake."""

from __future__ import annotations

import numpy as np
import pytest

from attnlib import exercises


def not_written(*args):
    raise NotImplementedError  # your code here


# ---- split_heads ---------------------------------------------------------------------------------
def split_right(X, n_heads):
    d_k = X.shape[-1] // n_heads
    return np.swapaxes(X.reshape(*X.shape[:-1], n_heads, d_k), -2, -3)


def split_reshape_only(X, n_heads):
    T, d_model = X.shape[-2:]
    return X.reshape(*X.shape[:-2], n_heads, T, d_model // n_heads)


def split_no_swap(X, n_heads):
    return X.reshape(*X.shape[:-1], n_heads, X.shape[-1] // n_heads)


def split_interleaved(X, n_heads):
    d_k = X.shape[-1] // n_heads
    return np.swapaxes(np.swapaxes(X.reshape(*X.shape[:-1], d_k, n_heads), -1, -2), -2, -3)


def split_full_transpose(X, n_heads):
    return X.reshape(*X.shape[:-1], n_heads, X.shape[-1] // n_heads).T


def split_only_2d(X, n_heads):
    T, d_model = X.shape  # fails with a batch axis
    return X.reshape(T, n_heads, d_model // n_heads).transpose(1, 0, 2)


def split_2d_transpose_on_batch(X, n_heads):
    # transpose(1, 0, 2) is right for (T, n_heads, d_k) but raises for (B, T, n_heads, d_k)
    return X.reshape(*X.shape[:-1], n_heads, X.shape[-1] // n_heads).transpose(1, 0, 2)


@pytest.mark.parametrize(
    ("wrong", "expected"),
    [
        (split_reshape_only, "reshape straight to"),
        (split_no_swap, "heads axis must come before the tokens"),
        (split_interleaved, "every n_heads-th column"),
        (split_full_transpose, "swapped the wrong axes"),
        (split_only_2d, "right for one sentence"),
        (split_2d_transpose_on_batch, "count axes from the end"),
    ],
)
def test_split_heads_diagnoses(wrong, expected):
    verdict = exercises.check_split_heads(wrong)
    assert not verdict
    assert expected in verdict.message


def test_split_heads_reference_passes():
    verdict = exercises.check_split_heads(split_right)
    assert verdict, verdict.message
    assert str(verdict).startswith("✅")


def test_split_heads_library_version_passes():
    import attnlib

    assert exercises.check_split_heads(attnlib.split_heads)


# ---- the weights of one head ---------------------------------------------------------------------
def _softmax(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def head_right(X, W_q, W_k, b_q, b_k, h, n_heads):
    d_k = W_q.shape[1] // n_heads
    cols = slice(h * d_k, (h + 1) * d_k)
    Q, K = X @ W_q[:, cols] + b_q[cols], X @ W_k[:, cols] + b_k[cols]
    return _softmax(Q @ K.T / np.sqrt(d_k))


def head_no_bias(X, W_q, W_k, b_q, b_k, h, n_heads):
    return head_right(X, W_q, W_k, 0 * b_q, 0 * b_k, h, n_heads)


def head_layer_scale(X, W_q, W_k, b_q, b_k, h, n_heads):
    w = head_right(X, W_q, W_k, b_q, b_k, h, n_heads)
    d_k = W_q.shape[1] // n_heads
    scores = np.log(w) * np.sqrt(d_k) / np.sqrt(W_q.shape[1])  # same scores, other divisor
    return _softmax(scores)


def head_no_scale(X, W_q, W_k, b_q, b_k, h, n_heads):
    d_k = W_q.shape[1] // n_heads
    cols = slice(h * d_k, (h + 1) * d_k)
    Q, K = X @ W_q[:, cols] + b_q[cols], X @ W_k[:, cols] + b_k[cols]
    return _softmax(Q @ K.T)


def head_strided(X, W_q, W_k, b_q, b_k, h, n_heads):
    cols = slice(h, None, n_heads)
    Q, K = X @ W_q[:, cols] + b_q[cols], X @ W_k[:, cols] + b_k[cols]
    return _softmax(Q @ K.T / np.sqrt(W_q.shape[1] // n_heads))


def head_off_by_one(X, W_q, W_k, b_q, b_k, h, n_heads):
    return head_right(X, W_q, W_k, b_q, b_k, h - 1, n_heads)


def head_all_columns(X, W_q, W_k, b_q, b_k, h, n_heads):
    Q, K = X @ W_q + b_q, X @ W_k + b_k
    return _softmax(Q @ K.T / np.sqrt(W_q.shape[1] // n_heads))


def head_axis0(X, W_q, W_k, b_q, b_k, h, n_heads):
    d_k = W_q.shape[1] // n_heads
    cols = slice(h * d_k, (h + 1) * d_k)
    Q, K = X @ W_q[:, cols] + b_q[cols], X @ W_k[:, cols] + b_k[cols]
    return _softmax(Q @ K.T / np.sqrt(d_k), axis=0)


@pytest.mark.parametrize(
    ("wrong", "expected"),
    [
        (head_no_bias, "left out the biases"),
        (head_layer_scale, "divided by √d_model"),
        (head_no_scale, "forgot to divide the scores by √d_k"),
        (head_strided, "every n_heads-th column"),
        (head_off_by_one, "those are the weights of head"),
        (head_all_columns, "all heads at once"),
        (head_axis0, "axis=0"),
    ],
)
def test_head_weights_diagnoses(wrong, expected):
    verdict = exercises.check_head_weights(wrong)
    assert not verdict
    assert expected in verdict.message


def test_head_weights_reference_passes():
    verdict = exercises.check_head_weights(head_right)
    assert verdict, verdict.message


# ---- previous-token score ------------------------------------------------------------------------
def score_right(weights):
    T = weights.shape[-1]
    i = np.arange(1, T)
    return weights[..., i, i - 1].mean(axis=-1)


def score_next(weights):
    T = weights.shape[-1]
    i = np.arange(1, T)
    return weights[..., i - 1, i].mean(axis=-1)


def score_self(weights):
    return np.diagonal(weights, axis1=-2, axis2=-1).mean(axis=-1)


def score_wraps(weights):
    T = weights.shape[-1]
    i = np.arange(T)
    return weights[..., i, i - 1].mean(axis=-1)


def score_sum(weights):
    T = weights.shape[-1]
    i = np.arange(1, T)
    return weights[..., i, i - 1].sum(axis=-1)


def score_over_T(weights):
    T = weights.shape[-1]
    i = np.arange(1, T)
    return weights[..., i, i - 1].sum(axis=-1) / T


def score_not_averaged(weights):
    T = weights.shape[-1]
    i = np.arange(1, T)
    return weights[..., i, i - 1]


@pytest.mark.parametrize(
    ("wrong", "expected"),
    [
        (score_next, "weight on the next token"),
        (score_self, "the diagonal"),
        (score_wraps, "wraps around"),
        (score_sum, "take their mean"),
        (score_over_T, "divide by T-1"),
        (score_not_averaged, "average over the queries"),
    ],
)
def test_previous_token_score_diagnoses(wrong, expected):
    verdict = exercises.check_previous_token_score(wrong)
    assert not verdict
    assert expected in verdict.message


def test_previous_token_score_reference_passes():
    verdict = exercises.check_previous_token_score(score_right)
    assert verdict, verdict.message


# ---- shared behaviour ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "check",
    [exercises.check_split_heads, exercises.check_head_weights, exercises.check_previous_token_score],
)
def test_not_written_yet_is_friendly(check):
    verdict = check(not_written)
    assert not verdict
    assert "not written yet" in verdict.message


@pytest.mark.parametrize(
    "check",
    [exercises.check_split_heads, exercises.check_head_weights, exercises.check_previous_token_score],
)
def test_a_crash_is_reported_not_raised(check):
    def broken(*args):
        return 1 / 0

    verdict = check(broken)
    assert not verdict
    assert "ZeroDivisionError" in verdict.message
