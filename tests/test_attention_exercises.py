"""The checkers of notebooks 04-07: the reference passes, and each diagnosis fires on its mistake."""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import exercises as ex

sq = np.sqrt


def _plain_softmax(x, axis=-1):
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)


def _not_written(*_args):
    raise NotImplementedError


# (checker, the reference answer, [(wrong answer, words the diagnosis must contain), ...])
CASES = {
    "scores": (
        ex.check_scores,
        lambda X, W_q, W_k: (X @ W_q) @ (X @ W_k).T,
        [
            (lambda X, W_q, W_k: (X @ W_q).T @ (X @ W_k), "Qᵀ·K"),
            (lambda X, W_q, W_k: (X @ W_k) @ (X @ W_q).T, "transpose of the scores"),
            (lambda X, W_q, W_k: X @ X.T, "X·Xᵀ"),
            (lambda X, W_q, W_k: (X @ W_q) @ (X @ W_q).T, "one linear map twice"),
            (lambda X, W_q, W_k: (X @ W_q) * (X @ W_k), "entry by entry"),
            (lambda X, W_q, W_k: (X @ W_q) @ (X @ W_k).T / sq(W_q.shape[1]), "divided by √d_k already"),
        ],
    ),
    "scaled_scores": (
        ex.check_scaled_scores,
        lambda Q, K: Q @ K.T / sq(Q.shape[-1]),
        [
            (lambda Q, K: Q @ K.T, "forgot to divide by √d_k"),
            (lambda Q, K: Q @ K.T / Q.shape[-1], "divided by d_k="),
            (lambda Q, K: Q @ K.T / sq(Q.shape[0]), "number of queries"),
            (lambda Q, K: Q @ K.T * sq(Q.shape[-1]), "multiplied by √d_k"),
            (lambda Q, K: K @ Q.T / sq(Q.shape[-1]), "transposed"),
            (lambda Q, K: Q.T @ K / sq(Q.shape[-1]), "Qᵀ·K"),
        ],
    ),
    "scaled_weights": (
        ex.check_scaled_weights,
        lambda Q, K: attnlib.softmax(Q @ K.T / sq(Q.shape[-1])),
        [
            (lambda Q, K: attnlib.softmax(Q @ K.T / sq(Q.shape[-1]), axis=0), "down the columns"),
            (lambda Q, K: attnlib.softmax(Q @ K.T), "unscaled scores"),
            (lambda Q, K: attnlib.softmax(K @ Q.T / sq(Q.shape[-1])), "transposed"),
            (lambda Q, K: np.exp(Q @ K.T / sq(Q.shape[-1])), "did not divide by the row sums"),
        ],
    ),
    "softmax_jacobian": (
        ex.check_softmax_jacobian,
        lambda p: np.diag(p) - np.outer(p, p),
        [
            (lambda p: -np.outer(p, p), "only the p·pᵀ part"),
            (lambda p: np.outer(p, p) - np.diag(p), "signs are flipped"),
            (lambda p: np.diag(p) - p @ p, "single number"),
            (lambda p: np.diag(p - p * p), "the diagonal"),
        ],
    ),
    "causal_mask": (
        ex.check_causal_mask,
        lambda T: attnlib.additive_mask(attnlib.causal_mask(T)),
        [
            (lambda T: np.where(np.triu(np.ones((T, T), bool)), 0.0, -np.inf), "peeking"),
            (lambda T: np.where(np.tril(np.ones((T, T), bool), -1), 0.0, -np.inf), "blocked the diagonal"),
            (lambda T: np.tril(np.ones((T, T))), "0/1"),
            (lambda T: np.where(np.tril(np.ones((T, T), bool)), 0.0, -1e9), "large finite number"),
            (lambda T: np.where(np.tril(np.ones((T, T), bool)), -np.inf, 0.0), "inverted"),
        ],
    ),
    "masked_softmax": (
        ex.check_masked_softmax,
        lambda s, keep: attnlib.softmax(np.where(keep, s, -np.inf)),
        [
            (lambda s, keep: attnlib.softmax(np.where(keep, s, 0.0)), "e⁰ = 1"),
            (lambda s, keep: attnlib.softmax(s) * keep, "after softmax"),
            (lambda s, keep: _plain_softmax(np.where(keep, -np.inf, s)), "inverted"),
            (lambda s, keep: attnlib.softmax(s), "ignored"),
            (lambda s, keep: attnlib.softmax(np.where(keep, s, -np.inf), axis=0), "down the columns"),
        ],
    ),
    "padding_mask": (
        ex.check_padding_mask,
        lambda lengths, T: attnlib.padding_mask(lengths, T),
        [
            (lambda L, T: (np.arange(T) <= L[:, None])[:, None, :], "off by one"),
            (lambda L, T: (np.arange(T) < L[:, None])[:, :, None], "masks the queries"),
            (lambda L, T: np.arange(T) < L[:, None], "shape (B, T)"),
            (lambda L, T: (np.arange(T) >= L[:, None])[:, None, :], "inverted"),
        ],
    ),
    "keep_mask": (
        ex.check_keep_mask,
        lambda m, c: (~np.asarray(m) if c == "torch_key_padding" else np.asarray(m) == 1)[:, None, :],
        [
            (lambda m, c: np.asarray(m).astype(bool)[:, None, :], "key_padding_mask is True where a key is ignored"),
            (lambda m, c: (~np.asarray(m).astype(bool))[:, None, :], "attnlib's own mask is already True"),
            (lambda m, c: (~m if c == "torch_key_padding" else (m == 1) ^ (c != "attnlib"))[:, None, :], "already means"),
            (lambda m, c: ~np.asarray(m) if c == "torch_key_padding" else np.asarray(m) == 1, "query axis in the middle"),
            (lambda m, c: (~m if c == "torch_key_padding" else m)[:, None, :], "dtype int64"),
        ],
    ),
    "attention": (
        ex.check_attention,
        lambda Q, K, V, M: attnlib.attention(Q, K, V, M)[0],
        [
            (lambda Q, K, V, M: attnlib.attention(Q, K, V, M)[1], "returned the weights"),
            (lambda Q, K, V, M: V @ attnlib.attention(Q, K, V, M)[1], "wrong way round"),
            (lambda Q, K, V, M: attnlib.attention(Q, K, V, M, scale=False)[0], "√d_k"),
            (lambda Q, K, V, M: _plain_softmax(Q @ K.T / sq(Q.shape[-1]) + M, axis=0) @ V, "down the columns"),
            (lambda Q, K, V, M: attnlib.attention(Q, K, V)[0], "mask M is missing"),
            (lambda Q, K, V, M: (attnlib.attention(Q, K, V)[1] * (M == 0)) @ V, "after softmax"),
        ],
    ),
    "context_vector": (
        ex.check_context_vector,
        lambda A, V, i: A[i] @ V,
        [
            (lambda A, V, i: A[:, i] @ V, "column"),
            (lambda A, V, i: V.mean(axis=0), "equal weights"),
            (lambda A, V, i: V[i], "own value row"),
            (lambda A, V, i: A[i][:, None] * V, "did not add them up"),
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_passes(name):
    check, reference, _ = CASES[name]
    verdict = check(reference)
    assert verdict.ok, verdict.message
    assert str(verdict).startswith("✅")


@pytest.mark.parametrize("name", sorted(CASES))
def test_not_written_yet_is_friendly(name):
    check, _, _ = CASES[name]
    verdict = check(_not_written)
    assert not verdict.ok
    assert verdict.message.startswith("not written yet")


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_exercise_has_at_least_three_diagnoses(name):
    assert len(CASES[name][2]) >= 3


@pytest.mark.parametrize(
    ("name", "k"), [(name, k) for name in sorted(CASES) for k in range(len(CASES[name][2]))]
)
def test_diagnosis_names_the_mistake(name, k):
    check, _, wrong = CASES[name]
    answer, words = wrong[k]
    verdict = check(answer)
    assert not verdict.ok
    assert words in verdict.message, verdict.message
    assert "differ from the expected" not in verdict.message  # a diagnosis, not the generic fallback


def test_a_wrong_answer_without_diagnosis_gets_the_generic_message():
    verdict = ex.check_scaled_scores(lambda Q, K: Q @ K.T / sq(Q.shape[-1]) + 1.0)
    assert not verdict.ok and "differ from the expected" in verdict.message


# The projection puzzle of notebook 04: make "green" attend to "grass".
def _design(**entries):
    W = {"W_q": np.zeros((6, 2)), "W_k": np.zeros((6, 2))}
    for key, value in entries.items():
        name, row, col = key.rsplit("_", 2)
        W[name][int(row), int(col)] = value
    return W["W_q"], W["W_k"]


@pytest.mark.parametrize(
    ("W_q", "W_k", "ok", "words"),
    [
        (*_design(W_q_2_1=3.0, W_k_5_1=3.0), True, "0.91 of its attention on 'grass'"),
        (*_design(), False, "still all zeros"),
        (*_design(W_q_2_1=1.0, W_k_5_1=1.0), False, "Make the entries larger"),
        (*_design(W_q_2_1=3.0, W_k_2_1=3.0), False, "attends most to itself"),
        (*_design(W_q_2_1=3.0, W_k_0_1=3.0), False, "shares first place with 'kids'"),
        (*_design(W_q_2_1=3.0, W_k_4_1=3.0), False, "'kids' wins"),
    ],
)
def test_projection_puzzle(W_q, W_k, ok, words):
    verdict = ex.check_projection_puzzle(W_q, W_k)
    assert verdict.ok is ok
    assert words in verdict.message, verdict.message


def test_projection_puzzle_shape_feedback():
    assert "wrong way round" in ex.check_projection_puzzle(np.zeros((2, 6)), np.zeros((6, 2))).message
    assert "same width" in ex.check_projection_puzzle(np.zeros((6, 2)), np.zeros((6, 3))).message
    assert "shape (d_model, d_k)" in ex.check_projection_puzzle(np.zeros((5, 2)), np.zeros((6, 2))).message
    assert "NaN" in ex.check_projection_puzzle(np.full((6, 2), np.nan), np.zeros((6, 2))).message


def test_projection_puzzle_other_pairs():
    W_q, W_k = np.zeros((6, 1)), np.zeros((6, 1))
    W_q[1, 0], W_k[4, 0] = 3.0, 3.0  # an action asks "who is alive?"
    assert ex.check_projection_puzzle(W_q, W_k, query="playing", key="kids").ok
