"""attnlib.exercises.a_tiny_gpt (notebook 09): each typical mistake is named, the references agree with attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib import gpt
from attnlib.exercises import a_tiny_gpt
from tests.exercise_tables import exercise_tests


def log_softmax(logits, axis=-1):
    z = logits - logits.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def picked(log_p, targets):
    return log_p[np.arange(len(targets)), targets]


def pick(p, u):
    return min(int(np.searchsorted(np.cumsum(p), u, side="right")), len(p) - 1)


def attend(q, K, V, scale=True):
    return attnlib.softmax(K @ q / (np.sqrt(q.size) if scale else 1.0)) @ V


def grown(K, k, V, v):
    return np.vstack([K, k]), np.vstack([V, v])


def cached_right(q, k, v, K, V):
    K, V = grown(K, k, V, v)
    return attend(q, K, V), K, V


def cached_all_ones(q, k, v, K, V):
    K, V = grown(K, k, V, v)
    scores = (K @ q / np.sqrt(q.size))[:, None]  # (t, 1): a softmax along axis -1 gives all ones
    return (np.exp(scores) / np.exp(scores).sum(axis=-1, keepdims=True))[:, 0] @ V, K, V


WRONG = {
    "check_next_token_loss": {
        "summed": lambda logits, t: -picked(log_softmax(logits), t).sum(),
        "negative": lambda logits, t: picked(log_softmax(logits), t).mean(),
        "bits": lambda logits, t: -picked(log_softmax(logits), t).mean() / np.log(2),
        "raw_logits": lambda logits, t: -picked(logits, t).mean(),
        "shifted": lambda logits, t: -log_softmax(logits)[np.arange(len(t) - 1), t[1:]].mean(),
        "axis": lambda logits, t: -picked(log_softmax(logits, axis=0), t).mean(),
        "overflow": lambda logits, t: -np.log(picked(np.exp(logits) / np.exp(logits).sum(-1, keepdims=True), t)).mean(),
    },
    "check_sample_with_temperature": {
        "multiplied": lambda logits, T, u: pick(attnlib.softmax(logits * T), u),
        "ignored": lambda logits, T, u: pick(attnlib.softmax(logits), u),
        "greedy": lambda logits, T, u: int(np.argmax(logits)),
        "raw_logits": lambda logits, T, u: pick(logits, u),
    },
    "check_cached_attention": {
        "cached_only": lambda q, k, v, K, V: (attend(q, K, V), *grown(K, k, V, v)),
        "no_scale": lambda q, k, v, K, V: (attend(q, *grown(K, k, V, v), scale=False), *grown(K, k, V, v)),
        "new_value": lambda q, k, v, K, V: (v, *grown(K, k, V, v)),
        "weights_all_one": cached_all_ones,
        "out_only": lambda q, k, v, K, V: cached_right(q, k, v, K, V)[0],
        "caches": lambda q, k, v, K, V: (cached_right(q, k, v, K, V)[0], K, V),
    },
}
LIBRARY = {
    "check_next_token_loss": lambda logits, targets: gpt.cross_entropy(logits, targets)[0],
    # attnlib samples with its own generator; the same walk up the cumulative sum, from its softmax.
    "check_sample_with_temperature": lambda logits, T, u: pick(attnlib.softmax(logits / T), u),
    "check_cached_attention": lambda q, k, v, K, V: (
        attnlib.attention(q[None], *grown(K, k, V, v))[0][0],
        *grown(K, k, V, v),
    ),
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(a_tiny_gpt, WRONG, LIBRARY)


def test_the_reference_cache_step_passes():
    assert a_tiny_gpt.check_cached_attention(cached_right)
