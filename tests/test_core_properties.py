"""attnlib.core: properties that must hold for any shapes, dtypes and masks (hypothesis draws the cases).

The hypothesis profile ("series") is loaded in conftest.py.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import attnlib
from attnlib import attention, causal_mask, padding_mask, softmax
from tests.reference import loop_attention


@st.composite
def problems(draw):
    """Q, K, V of random sizes and dtype, and a random boolean mask with no fully masked row."""
    batch = draw(st.sampled_from([(), (2,), (2, 3)]))
    T_q, T_k = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    d_k, d_v = draw(st.integers(1, 9)), draw(st.integers(1, 5))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([0.1, 1.0, 5.0]))
    Q = (scale * rng.normal(size=(*batch, T_q, d_k))).astype(dtype)
    K = (scale * rng.normal(size=(*batch, T_k, d_k))).astype(dtype)
    V = rng.normal(size=(*batch, T_k, d_v)).astype(dtype)
    mask = rng.random((*batch, T_q, T_k)) < draw(st.sampled_from([0.3, 0.7, 1.0]))
    mask[..., rng.integers(T_k, size=(*batch, T_q))[..., None] == np.arange(T_k)] = True
    return Q, K, V, mask


@given(problems())
def test_weights_form_a_distribution_and_masked_are_exactly_zero(problem):
    Q, K, V, mask = problem
    out, w = attention(Q, K, V, mask)
    tol = 1e-5 if w.dtype == np.float32 else 1e-12
    assert w.dtype == Q.dtype and out.dtype == Q.dtype
    assert np.isfinite(out).all() and np.isfinite(w).all()
    assert (w >= 0).all()
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=tol)
    assert (w[~mask] == 0.0).all()


@given(problems())
def test_agrees_with_the_loop_reference(problem):
    Q, K, V, mask = (a.astype(np.float64) for a in problem)
    mask = mask.astype(bool)
    out, w = attention(Q, K, V, mask)
    flat = lambda a: a.reshape(-1, *a.shape[-2:])  # noqa: E731
    for q, k, v, m, o, ww in zip(flat(Q), flat(K), flat(V), flat(mask), flat(out), flat(w), strict=True):
        ref_o, ref_w = loop_attention(q, k, v, m)
        np.testing.assert_allclose(ww, ref_w, atol=1e-9)
        np.testing.assert_allclose(o, ref_o, atol=1e-9)


@given(st.integers(2, 8), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_causal_output_ignores_the_future(T, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d))
    t = int(rng.integers(T - 1))
    changed = X.copy()
    changed[t + 1 :] = rng.normal(size=(T - t - 1, d)) * 10
    out, _ = attention(X, X, X, causal_mask(T))
    out2, _ = attention(changed, changed, changed, causal_mask(T))
    np.testing.assert_array_equal(out[: t + 1], out2[: t + 1])
    no_mask, _ = attention(X, X, X)
    no_mask2, _ = attention(changed, changed, changed)
    assert not np.allclose(no_mask[: t + 1], no_mask2[: t + 1])  # without the mask the past moves


@given(st.integers(1, 7), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_permutation_equivariance(T, d, seed):
    rng = np.random.default_rng(seed)
    Q, K, V = rng.normal(size=(T, d)), rng.normal(size=(T, d)), rng.normal(size=(T, d))
    perm = rng.permutation(T)
    out, w = attention(Q, K, V)
    out_p, w_p = attention(Q[perm], K[perm], V[perm])
    np.testing.assert_allclose(out_p, out[perm], atol=1e-12)
    np.testing.assert_allclose(w_p, w[perm][:, perm], atol=1e-12)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.integers(0, 2**32 - 1))
def test_padding_keys_get_zero_and_rows_still_sum_to_one(lengths, seed):
    rng = np.random.default_rng(seed)
    T = max(lengths)
    X = rng.normal(size=(len(lengths), T, 3))
    _, w = attention(X, X, X, padding_mask(lengths, T))
    for b, n in enumerate(lengths):
        assert (w[b, :, n:] == 0.0).all()
        np.testing.assert_allclose(w[b].sum(-1), 1.0, atol=1e-12)


@given(st.integers(0, 2**32 - 1), st.floats(-1e4, 1e4))
def test_softmax_ignores_a_constant_shift(seed, shift):
    x = np.random.default_rng(seed).normal(size=(3, 5))
    np.testing.assert_allclose(softmax(x + shift), softmax(x), atol=1e-9)


def test_scaling_keeps_score_variance_near_one(rng):
    """Entries of Q and K ~ N(0, 1): a raw score is a sum of d_k products of variance 1, so its variance
    is d_k; attnlib.scores divides by √d_k, which brings it back to 1 at every d_k."""
    for d_k in (1, 16, 256):
        Q, K = rng.normal(size=(300, d_k)), rng.normal(size=(300, d_k))
        raw = attnlib.scores(Q, K, scale=False)
        scaled = attnlib.scores(Q, K)
        assert abs(raw.var() / d_k - 1) < 0.1
        assert abs(scaled.var() - 1) < 0.1
        np.testing.assert_allclose(scaled, raw / np.sqrt(d_k), rtol=1e-12)
    _, weights = attnlib.attention(Q, K, K)  # and the weights are those of the scaled scores
    np.testing.assert_allclose(weights, softmax(scaled), rtol=1e-12)
