"""The exercises of notebook 09: each reference passes, and each diagnosis fires on its mistake."""

from __future__ import annotations

import numpy as np
import pytest

from attnlib import exercises


def not_written(*args):
    raise NotImplementedError  # your code here


# ---- the next-token loss ---------------------------------------------------------------------------
def log_softmax(logits):
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def loss_right(logits, targets):
    return -log_softmax(logits)[np.arange(len(targets)), targets].mean()


def loss_sum(logits, targets):
    return -log_softmax(logits)[np.arange(len(targets)), targets].sum()


def loss_no_minus(logits, targets):
    return log_softmax(logits)[np.arange(len(targets)), targets].mean()


def loss_bits(logits, targets):
    return loss_right(logits, targets) / np.log(2)


def loss_raw_logits(logits, targets):
    return -logits[np.arange(len(targets)), targets].mean()


def loss_shifted(logits, targets):
    return -log_softmax(logits)[np.arange(len(targets) - 1), targets[1:]].mean()


def loss_wrong_axis(logits, targets):
    z = logits - logits.max(axis=0, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=0, keepdims=True))
    return -log_p[np.arange(len(targets)), targets].mean()


def loss_unstable(logits, targets):
    p = np.exp(logits) / np.exp(logits).sum(axis=-1, keepdims=True)
    return -np.log(p[np.arange(len(targets)), targets]).mean()


@pytest.mark.parametrize(
    ("wrong", "expected"),
    [
        (loss_sum, "summed over the positions"),
        (loss_no_minus, "your loss is negative"),
        (loss_bits, "log base 2"),
        (loss_raw_logits, "without softmax"),
        (loss_shifted, "shifted the targets again"),
        (loss_wrong_axis, "runs over the positions"),
        (loss_unstable, "exp(1000) overflows"),
        (not_written, "not written yet"),
    ],
)
def test_next_token_loss_diagnoses(wrong, expected):
    verdict = exercises.check_next_token_loss(wrong)
    assert not verdict and expected in verdict.message


def test_next_token_loss_reference_passes():
    verdict = exercises.check_next_token_loss(loss_right)
    assert verdict and "stable for large logits" in verdict.message


# ---- sampling with a temperature ---------------------------------------------------------------------
def softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def sample_right(logits, temperature, u):
    cdf = np.cumsum(softmax(logits / temperature))
    return min(int(np.searchsorted(cdf, u, side="right")), len(logits) - 1)


def sample_times_t(logits, temperature, u):
    return sample_right(logits, 1.0 / temperature, u)


def sample_no_t(logits, temperature, u):
    return sample_right(logits, 1.0, u)


def sample_greedy(logits, temperature, u):
    return int(np.argmax(logits))


def sample_raw(logits, temperature, u):
    return min(int(np.searchsorted(np.cumsum(logits), u, side="right")), len(logits) - 1)


@pytest.mark.parametrize(
    ("wrong", "expected"),
    [
        (sample_times_t, "multiplied the logits by the temperature"),
        (sample_no_t, "ignored the temperature"),
        (sample_greedy, "most likely token"),
        (sample_raw, "accumulated the raw logits"),
        (not_written, "not written yet"),
    ],
)
def test_sample_diagnoses(wrong, expected):
    verdict = exercises.check_sample_with_temperature(wrong)
    assert not verdict and expected in verdict.message


def test_sample_reference_passes():
    assert exercises.check_sample_with_temperature(sample_right)


# ---- one step with a key/value cache -------------------------------------------------------------------
def cached_right(q, k, v, K, V):
    K, V = np.vstack([K, k]), np.vstack([V, v])
    w = softmax(K @ q / np.sqrt(q.size))
    return w @ V, K, V


def cached_no_append(q, k, v, K, V):
    w = softmax(K @ q / np.sqrt(q.size))
    return w @ V, np.vstack([K, k]), np.vstack([V, v])


def cached_no_scale(q, k, v, K, V):
    K, V = np.vstack([K, k]), np.vstack([V, v])
    return softmax(K @ q) @ V, K, V


def cached_only_new(q, k, v, K, V):
    return v, np.vstack([K, k]), np.vstack([V, v])


def cached_no_softmax_axis(q, k, v, K, V):
    K, V = np.vstack([K, k]), np.vstack([V, v])
    scores = (K @ q / np.sqrt(q.size))[:, None]  # (t, 1): a softmax along axis -1 gives all ones
    return (np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True))[:, 0] @ V, K, V


def cached_out_only(q, k, v, K, V):
    return cached_right(q, k, v, K, V)[0]


def cached_caches_not_grown(q, k, v, K, V):
    return cached_right(q, k, v, K, V)[0], K, V


@pytest.mark.parametrize(
    ("wrong", "expected"),
    [
        (cached_no_append, "cached keys only"),
        (cached_no_scale, "√d_k"),
        (cached_only_new, "returned the new value"),
        (cached_no_softmax_axis, "weights are all 1"),
        (cached_out_only, "also return the grown caches"),
        (cached_caches_not_grown, "new key and value as their last row"),
        (not_written, "not written yet"),
    ],
)
def test_cached_attention_diagnoses(wrong, expected):
    verdict = exercises.check_cached_attention(wrong)
    assert not verdict and expected in verdict.message


def test_cached_attention_reference_passes():
    assert exercises.check_cached_attention(cached_right)
