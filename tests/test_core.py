"""Known answers worked out by hand, and agreement with independent implementations."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.special
from reference import loop_attention

import attnlib
from attnlib import attention, causal_mask, padding_mask, softmax


def test_softmax_two_by_two_by_hand():
    """Row [0, ln 3]: e⁰ = 1 and e^(ln 3) = 3, total 4, so weights 1/4 and 3/4.
    Row [2, 2]: equal scores give equal weights 1/2 and 1/2."""
    got = softmax([[0.0, math.log(3.0)], [2.0, 2.0]])
    np.testing.assert_allclose(got, [[0.25, 0.75], [0.5, 0.5]], rtol=0, atol=1e-15)


def test_attention_two_by_two_by_hand():
    """Q = K = I₂ (d_k = 2), V = [[1, 0], [0, 10]], no scaling.
    Scores Q·Kᵀ = I₂, so row 0 is softmax([1, 0]) = [e/(e+1), 1/(e+1)] = [0.7311, 0.2689].
    Output row 0 = 0.7311·[1, 0] + 0.2689·[0, 10] = [0.7311, 2.689]; row 1 mirrors it."""
    a, b = math.e / (math.e + 1), 1 / (math.e + 1)
    out, w = attention(np.eye(2), np.eye(2), [[1.0, 0.0], [0.0, 10.0]], scale=False)
    np.testing.assert_allclose(w, [[a, b], [b, a]], rtol=1e-15)
    np.testing.assert_allclose(out, [[a, 10 * b], [b, 10 * a]], rtol=1e-15)


def test_attention_three_by_three_causal_by_hand():
    """Q = K = [[1,0],[0,1],[1,1]] (d_k = 2, scaled by 1/√2), V = [[1],[2],[3]], causal mask.
    Query 0 sees only key 0: weight 1, output 1.
    Query 1 sees keys 0, 1 with scores [0, 1/√2]: weights [1, e^(1/√2)] / (1 + e^(1/√2)).
    Query 2 sees all, scores [1/√2, 1/√2, 2/√2]: weights ∝ [1, 1, e^(1/√2)]."""
    Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    V = np.array([[1.0], [2.0], [3.0]])
    out, w = attention(Q, Q, V, causal_mask(3))
    g = math.exp(1 / math.sqrt(2))
    expected = np.array([[1, 0, 0], [1 / (1 + g), g / (1 + g), 0], [1 / (2 + g), 1 / (2 + g), g / (2 + g)]])
    np.testing.assert_allclose(w, expected, rtol=1e-14)
    np.testing.assert_allclose(out[:, 0], expected @ [1.0, 2.0, 3.0], rtol=1e-14)
    assert w[0, 1] == 0.0 and w[0, 2] == 0.0 and w[1, 2] == 0.0  # exactly, not "almost"


def test_softmax_matches_scipy(rng):
    x = rng.normal(scale=5, size=(4, 3, 7))
    for axis in (0, 1, -1):
        np.testing.assert_allclose(softmax(x, axis=axis), scipy.special.softmax(x, axis=axis), rtol=1e-12)


@pytest.mark.parametrize(
    ("dtype", "big"), [(np.float16, 6e4), (np.float32, 1e4), (np.float64, 1e4), (np.float64, 1e300)]
)
def test_softmax_is_stable_and_keeps_dtype(dtype, big):
    w = softmax(np.array([big, -big, 0.0], dtype=dtype))
    assert w.dtype == dtype
    np.testing.assert_array_equal(w, [1.0, 0.0, 0.0])


def test_softmax_gives_exact_zero_to_minus_inf():
    w = softmax([[0.5, -np.inf, 2.0], [-np.inf, 1.0, -np.inf]])
    assert w[0, 1] == 0.0 and w[1, 0] == 0.0 and w[1, 2] == 0.0
    assert w[1, 1] == 1.0


def test_integers_and_lists_become_float64():
    out, w = attention([[1, 0]], [[1, 0], [0, 1]], [[1, 2], [3, 4]])
    assert out.dtype == np.float64 and w.dtype == np.float64


def test_float32_is_kept(rng):
    Q, K, V = (rng.normal(size=(3, 4)).astype(np.float32) for _ in range(3))
    out, w = attention(Q, K, V, causal_mask(3))
    assert out.dtype == np.float32 and w.dtype == np.float32


@pytest.mark.parametrize("masked", ["none", "causal", "padding", "additive"])
def test_attention_agrees_with_plain_loop(rng, masked):
    T_q, T_k, d_k, d_v = 5, 5, 3, 4
    Q, K = rng.normal(size=(T_q, d_k)), rng.normal(size=(T_k, d_k))
    V = rng.normal(size=(T_k, d_v))
    allowed = {
        "none": None,
        "causal": causal_mask(T_k),
        "padding": np.broadcast_to(padding_mask([3], T_k)[0], (T_q, T_k)),
        "additive": causal_mask(T_k),
    }[masked]
    mask = attnlib.additive_mask(allowed) if masked == "additive" else allowed
    out, w = attention(Q, K, V, mask)
    ref_out, ref_w = loop_attention(Q, K, V, allowed)
    np.testing.assert_allclose(w, ref_w, rtol=0, atol=1e-12)
    np.testing.assert_allclose(out, ref_out, rtol=0, atol=1e-12)


def test_batched_attention_equals_each_item_alone(rng):
    B, T, d_k = 3, 6, 4
    Q, K, V = (rng.normal(size=(B, T, d_k)) for _ in range(3))
    mask = padding_mask([6, 4, 1], T) & causal_mask(T)
    out, w = attention(Q, K, V, mask)
    for b in range(B):
        ref_out, ref_w = loop_attention(Q[b], K[b], V[b], mask[b])
        np.testing.assert_allclose(w[b], ref_w, atol=1e-12)
        np.testing.assert_allclose(out[b], ref_out, atol=1e-12)


def test_batch_axes_broadcast(rng):
    Q = rng.normal(size=(2, 1, 3, 4))  # (B, heads=1, T_q, d_k)
    K = rng.normal(size=(5, 4))  # shared keys
    V = rng.normal(size=(1, 7, 5, 2))
    out, w = attention(Q, K, V)
    assert out.shape == (2, 7, 3, 2) and w.shape == (2, 1, 3, 5)


def test_scale_false_leaves_out_sqrt_dk(rng):
    Q, K, V = rng.normal(size=(3, 16)), rng.normal(size=(4, 16)), rng.normal(size=(4, 2))
    _, scaled = attention(Q, K, V)
    _, raw = attention(Q / 4.0, K, V, scale=False)  # √16 = 4
    np.testing.assert_allclose(scaled, raw, rtol=1e-13)


def test_masks_by_hand():
    np.testing.assert_array_equal(causal_mask(3), [[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    np.testing.assert_array_equal(padding_mask([2, 3], 3), [[[1, 1, 0]], [[1, 1, 1]]])
    assert padding_mask([2, 3], 3).shape == (2, 1, 3)
    M = attnlib.additive_mask(causal_mask(2))
    assert M.dtype == np.float64 and M[0, 0] == 0.0 and np.isneginf(M[0, 1])


def test_project_and_self_attention(rng):
    X = rng.normal(size=(2, 5, 6))
    W_q, W_k, W_v = attnlib.init_projections(6, 4, 3, rng=rng)
    assert W_q.shape == (6, 4) and W_k.shape == (6, 4) and W_v.shape == (6, 3)
    Q, K, V = attnlib.project(X, W_q, W_k, W_v)
    np.testing.assert_allclose(Q, X @ W_q)
    out, w = attnlib.self_attention(X, W_q, W_k, W_v, causal_mask(5))
    ref_out, ref_w = attention(Q, K, V, causal_mask(5))
    np.testing.assert_array_equal(out, ref_out)
    assert out.shape == (2, 5, 3)


def test_init_projections_is_reproducible_and_sized():
    a = attnlib.init_projections(512, 64, rng=np.random.default_rng(1))
    b = attnlib.init_projections(512, 64, rng=np.random.default_rng(1))
    np.testing.assert_array_equal(a[0], b[0])
    assert abs(a[0].std() * math.sqrt(512) - 1) < 0.02  # entries ~ N(0, 1/d_model)


def test_entropy_and_jacobian_by_hand():
    """Uniform over 4: entropy ln 4. One-hot: 0. For p = [1/2, 1/2] the Jacobian
    diag(p) − p pᵀ = [[1/4, −1/4], [−1/4, 1/4]]; for a one-hot p it is all zeros."""
    np.testing.assert_allclose(attnlib.entropy(np.full(4, 0.25)), math.log(4))
    assert attnlib.entropy([0.0, 1.0, 0.0]) == 0.0
    np.testing.assert_allclose(attnlib.softmax_jacobian([0.5, 0.5]), [[0.25, -0.25], [-0.25, 0.25]])
    np.testing.assert_array_equal(attnlib.softmax_jacobian([0.0, 1.0]), np.zeros((2, 2)))
