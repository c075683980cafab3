"""attnlib.core: known answers worked out by hand, agreement with independent implementations, errors.

Properties over random shapes are in test_core_properties.py; the messages of the shared checks in
test_validation.py.
"""

from __future__ import annotations

import inspect
import math
from decimal import Decimal, localcontext

import numpy as np
import pytest

import attnlib
from attnlib import attention, causal_mask, data, padding_mask, softmax
from attnlib.core import cosine_similarity
from tests.reference import loop_attention


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


def _softmax_in_decimal(row: np.ndarray) -> list[float]:
    """Softmax of one row worked out in 40-digit decimal arithmetic: no numpy, no overflow trick."""
    with localcontext() as ctx:
        ctx.prec = 40
        e = [Decimal(float(v)).exp() for v in row]
        total = sum(e)
        return [float(v / total) for v in e]


def test_softmax_matches_exact_decimal_arithmetic(rng):
    x = rng.normal(scale=5, size=(4, 3, 7))
    for axis in (0, 1, -1):
        want = np.apply_along_axis(_softmax_in_decimal, axis, x)
        np.testing.assert_allclose(softmax(x, axis=axis), want, rtol=1e-13)


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


def test_masked_scores_block_with_minus_infinity_only():
    """S + M with M = -inf above the diagonal: the kept scores unchanged, a new array, float32 kept."""
    S = np.arange(4.0, dtype=np.float32).reshape(2, 2)
    got = attnlib.core.masked_scores(S, causal_mask(2))
    np.testing.assert_array_equal(got, [[0.0, -np.inf], [2.0, 3.0]])
    assert got.dtype == np.float32 and S[0, 1] == 1.0
    np.testing.assert_array_equal(got, S + attnlib.additive_mask(causal_mask(2)))
    dead = attnlib.core.masked_scores([[1.0, 2.0]], np.array([False, False]))  # broadcast; softmax refuses it
    assert np.isneginf(dead).all()
    with pytest.raises(TypeError, match=r"keep must be boolean \(True = may attend\); got dtype int64"):
        attnlib.core.masked_scores(S, np.ones((2, 2), dtype=int))
    with pytest.raises(ValueError, match=r"keep of shape \(3,\) does not broadcast to the scores \(2, 2\)"):
        attnlib.core.masked_scores(S, np.ones(3, dtype=bool))
    with pytest.raises(ValueError, match=r"keep of shape \(2, 2, 2\) does not broadcast"):
        attnlib.core.masked_scores(S, np.ones((2, 2, 2), dtype=bool))


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



def test_softmax_backward_is_the_jacobian_applied_to_the_gradient(rng):
    """Jᵀg without building J: p = [1/2, 1/2], g = [1, 0] gives [1/4, −1/4]; masked weights pass nothing."""
    np.testing.assert_allclose(attnlib.core.softmax_backward([0.5, 0.5], [1.0, 0.0]), [0.25, -0.25])
    p, g = softmax(rng.normal(size=(3, 4, 5))), rng.normal(size=(3, 4, 5))
    full = (np.swapaxes(attnlib.softmax_jacobian(p), -1, -2) @ g[..., None])[..., 0]
    np.testing.assert_allclose(attnlib.core.softmax_backward(p, g), full, rtol=0, atol=1e-14)
    assert attnlib.core.softmax_backward([0.0, 1.0], [5.0, -2.0]).tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    ("weights", "grad", "error", "match"),
    [
        ([0.5, 0.5], [1.0], ValueError, r"grad must have the shape of weights, \(2,\): one entry per weight; got \(1,\)"),
        (0.5, 1.0, ValueError, r"weights must have shape \(\.\.\., n\)"),
        ([0.5, 0.5], ["a", "b"], TypeError, r"grad must be an array of real numbers"),
        ([0.5, np.nan], [1.0, 0.0], ValueError, r"weights contains NaN"),
    ],
)
def test_softmax_backward_refuses_bad_input(weights, grad, error, match):
    with pytest.raises(error, match=match):
        attnlib.core.softmax_backward(weights, grad)

# ---- training W_q and W_k, the √d_k experiment, softmax saturation, layer norm ------------------


def test_nested_dot_products_known_answer():
    """a = [1, 2, 3], b = [4, 5, 6]: running sums of 4, 10, 18 are 4, 14, 32."""
    out = attnlib.nested_dot_products([1.0, 2.0, 3.0], [4.0, 5.0, 6.0], np.array([1, 2, 3]))
    np.testing.assert_array_equal(out, [4.0, 14.0, 32.0])


def test_nested_dot_products_matches_slices_and_broadcasts(rng):
    a, b = rng.normal(size=(3, 1, 16)), rng.normal(size=(5, 16))
    widths = np.array([1, 4, 16])
    out = attnlib.nested_dot_products(a, b, widths)
    assert out.shape == (3, 5, 3)
    for i, d in enumerate(widths):
        np.testing.assert_allclose(out[..., i], a[:, 0, :d] @ b[:, :d].T, atol=1e-12)


@pytest.mark.parametrize(
    ("a", "b", "widths", "error", "match"),
    [
        (np.ones(3), np.ones(4), np.array([1]), ValueError, r"b has D=4 features but a has D=3"),
        (np.ones(3), np.ones(3), np.array([0, 2]), ValueError, r"every entry of widths must be between 1 and D=3; got 0"),
        (np.ones(3), np.ones(3), np.array([4]), ValueError, r"every entry of widths must be between 1 and D=3; got 4"),
        (np.ones(3), np.ones(3), np.array([[1]]), ValueError, r"widths must have shape \(n_w,\); got shape \(1, 1\)"),
        (np.ones(3), np.ones(3), np.array([1.5]), TypeError, r"widths must be whole numbers \(widths of a and b"),
        (np.array([1.0, np.nan]), np.ones(2), np.array([1]), ValueError, r"a contains NaN"),
    ],
)
def test_nested_dot_products_errors(a, b, widths, error, match):
    with pytest.raises(error, match=match):
        attnlib.nested_dot_products(a, b, widths)


def test_softmax_saturation_uniform_and_one_hot():
    """Equal scores over n = 4 keys: 1/4, log 4, √(1/4 − 1/16). A huge gap: 1, 0, 0."""
    top, ent, grad = attnlib.softmax_saturation(np.zeros(4))
    assert top == pytest.approx(0.25) and ent == pytest.approx(np.log(4))
    assert grad == pytest.approx(np.sqrt(0.25 - 0.0625))
    top, ent, grad = attnlib.softmax_saturation([0.0, 1000.0, 0.0])
    assert top == 1.0 and ent == 0.0 and grad == 0.0


def test_softmax_saturation_gradient_size_is_the_jacobian_norm(rng):
    scores = rng.normal(size=(6, 9)) * 3
    top, ent, grad = attnlib.softmax_saturation(scores)
    p = attnlib.softmax(scores)
    np.testing.assert_allclose(grad, np.linalg.norm(attnlib.softmax_jacobian(p), axis=(-2, -1)), atol=1e-12)
    np.testing.assert_allclose(ent, attnlib.entropy(p), atol=1e-12)
    np.testing.assert_array_equal(top, p.max(axis=-1))


def _pair_loss(X, W_q, W_k, q, k):
    A = attnlib.softmax((X @ W_q) @ (X @ W_k).T / np.sqrt(W_q.shape[1]))
    return -np.mean(np.log(A[q, k]))


def test_attention_pair_loss_gradients_match_finite_differences(rng):
    X, W_q, W_k = rng.normal(size=(5, 4)), rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    q, k = np.array([0, 3, 3]), np.array([1, 2, 4])  # query 3 appears twice: its gradients add up
    loss, g_q, g_k = attnlib.attention_pair_loss(X, W_q, W_k, q, k)
    assert loss == pytest.approx(_pair_loss(X, W_q, W_k, q, k), abs=1e-12)
    eps = 1e-6
    for W, grad, which in ((W_q, g_q, 0), (W_k, g_k, 1)):
        numeric = np.zeros_like(W)
        for idx in np.ndindex(W.shape):
            plus, minus = W.copy(), W.copy()
            plus[idx] += eps
            minus[idx] -= eps
            args_p = (plus, W_k) if which == 0 else (W_q, plus)
            args_m = (minus, W_k) if which == 0 else (W_q, minus)
            numeric[idx] = (_pair_loss(X, *args_p, q, k) - _pair_loss(X, *args_m, q, k)) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, atol=1e-8)


def test_attention_pair_loss_known_answer_at_zero_projections():
    """W = 0: every weight is 1/T, so the loss is log T and both gradients are 0 (Q = K = 0)."""
    X = np.eye(4)
    loss, g_q, g_k = attnlib.attention_pair_loss(X, np.zeros((4, 2)), np.zeros((4, 2)), [0], [1])
    assert loss == pytest.approx(np.log(4))
    assert not g_q.any() and not g_k.any()


def test_gradient_descent_on_the_pair_loss_teaches_the_pairs(rng):
    X = data.load("green_grass")["X"]
    W_q, W_k = rng.normal(0, 0.1, (6, 2)), rng.normal(0, 0.1, (6, 2))
    q, k = np.array([3, 6]), np.array([1, 7])  # playing -> kids, green -> grass
    first = attnlib.attention_pair_loss(X, W_q, W_k, q, k)[0]
    for _ in range(300):
        loss, g_q, g_k = attnlib.attention_pair_loss(X, W_q, W_k, q, k)
        W_q, W_k = W_q - 1.0 * g_q, W_k - 1.0 * g_k
    assert loss < first / 4
    _, weights = attnlib.self_attention(X, W_q, W_k, np.eye(6))
    assert weights[3].argmax() == 1 and weights[6].argmax() == 7


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"queries": [0, 9], "keys": [1, 1]}, ValueError, r"every entry of queries must be between 0 and T-1=7; got 9"),
        ({"queries": [0], "keys": [-1]}, ValueError, r"every entry of keys must be between 0 and T-1=7; got -1"),
        ({"queries": [0], "keys": [1, 2]}, ValueError, r"queries and keys must pair up"),
        ({"queries": [0.5], "keys": [1]}, TypeError, r"queries must be whole numbers \(token indices\) of shape \(N,\)"),
        ({"queries": [], "keys": []}, ValueError, r"queries must hold at least one entry"),
    ],
)
def test_attention_pair_loss_errors(kwargs, error, match):
    X = np.ones((8, 6))
    with pytest.raises(error, match=match):
        attnlib.attention_pair_loss(X, np.ones((6, 2)), np.ones((6, 2)), **kwargs)


def test_attention_pair_loss_checks_shapes():
    with pytest.raises(ValueError, match=r"X must have shape \(T, d_model\)"):
        attnlib.attention_pair_loss(np.ones((2, 8, 6)), np.ones((6, 2)), np.ones((6, 2)), [0], [1])
    with pytest.raises(ValueError, match=r"W_q must have shape \(d_model, d_k\) = \(6, d_k\)"):
        attnlib.attention_pair_loss(np.ones((8, 6)), np.ones((2, 6)), np.ones((6, 2)), [0], [1])


def test_green_grass_story_matches_data_readme():
    d = data.load("green_grass")
    X, tokens = d["X"], d["tokens"]
    assert X.shape == (8, 6) and len(d["features"]) == 6
    assert tokens == "the kids are playing on the green grass".split()
    assert len(d["second_tokens"]) == 8
    np.testing.assert_array_equal(X, [d["vocabulary"][w] for w in tokens])
    _, w = attnlib.self_attention(X, d["W_q_matrix"], d["W_k_matrix"], d["W_v_matrix"])
    assert round(float(w[3, 1]), 3) == 0.960  # playing -> kids
    assert round(float(w[6, 7]), 3) == 0.913  # green -> grass
    _, wc = attnlib.self_attention(X, d["W_q_matrix"], d["W_k_matrix"], d["W_v_matrix"], attnlib.causal_mask(8))
    assert round(float(wc[6, 6]), 3) == 0.828  # green keeps itself when it cannot see grass


def test_attention_pair_loss_through_values_matches_finite_differences(rng):
    """loss="values": ‖(A·X)[i] − X[j]‖², back through O = A·V and the softmax Jacobian."""
    X = rng.normal(size=(5, 4))
    W_q, W_k = rng.normal(size=(2, 4, 3))
    q, k = np.array([0, 3, 3]), np.array([2, 1, 4])
    for scale in (True, False):
        loss, g_q, g_k = attnlib.attention_pair_loss(X, W_q, W_k, q, k, scale=scale, loss="values")
        A = attnlib.softmax((X @ W_q) @ (X @ W_k).T / (np.sqrt(3) if scale else 1.0))
        assert np.isclose(loss, np.sum(((A @ X)[q] - X[k]) ** 2) / 3)
        for W, g, which in ((W_q, g_q, 0), (W_k, g_k, 1)):
            bump = np.zeros_like(W)
            bump[2, 1] = 1e-6
            args = [[W_q + bump, W_k], [W_q, W_k + bump]][which], [[W_q - bump, W_k], [W_q, W_k - bump]][which]
            up, down = (attnlib.attention_pair_loss(X, *a, q, k, scale=scale, loss="values")[0] for a in args)
            assert np.isclose((up - down) / 2e-6, g[2, 1], atol=1e-7)


def test_attention_pair_loss_refuses_an_unknown_loss():
    with pytest.raises(ValueError, match="loss must be 'log'"):
        attnlib.attention_pair_loss(np.ones((3, 2)), np.ones((2, 1)), np.ones((2, 1)), [0], [1], loss="mse")


def test_train_attention_pairs_runs_plain_gradient_descent(rng):
    X = rng.normal(size=(5, 4))
    W_q, W_k = rng.normal(0, 0.1, (2, 4, 2))
    losses, W_q_t, W_k_t = attnlib.train_attention_pairs(X, W_q, W_k, [0, 1], [3, 2], steps=40, lr=0.5)
    assert losses.shape == (40,) and losses[-1] < losses[0] / 2
    loss, g_q, _ = attnlib.attention_pair_loss(X, W_q, W_k, [0, 1], [3, 2])
    first, W_q_1, _ = attnlib.train_attention_pairs(X, W_q, W_k, [0, 1], [3, 2], steps=1, lr=0.5)
    assert first[0] == loss and np.allclose(W_q_1, W_q - 0.5 * g_q)  # one step, by hand
    assert not np.shares_memory(W_q_t, W_q) and W_q_t.shape == W_q.shape  # the input is not changed
    with pytest.raises(ValueError, match="steps must be >= 1"):
        attnlib.train_attention_pairs(X, W_q, W_k, [0], [1], steps=0, lr=0.5)


def test_layer_norm_known_answer_and_properties(rng):
    """[1, 2, 3]: mean 2, variance 2/3, so (x − 2)/√(2/3) = [−1.2247, 0, 1.2247]."""
    assert np.allclose(attnlib.layer_norm(np.array([1.0, 2.0, 3.0]), eps=0.0), [-1.224745, 0.0, 1.224745])
    Y = attnlib.layer_norm(rng.normal(3.0, 5.0, size=(2, 4, 16)))
    assert Y.shape == (2, 4, 16) and np.allclose(Y.mean(-1), 0) and np.allclose(Y.var(-1), 1, atol=1e-4)
    assert np.allclose(np.linalg.norm(Y, axis=-1), 4.0, atol=1e-3)  # every row of length √d
    with pytest.raises(ValueError, match="NaN"):
        attnlib.layer_norm(np.array([[1.0, np.nan]]))


# ---- cosine similarity ---------------------------------------------------------------------------


def test_cosine_known_answer_2x2():
    """Rows (3, 4) and (4, 3) both have length 5; their dot product is 12 + 12 = 24, so cos = 24/25."""
    A = np.array([[3.0, 4.0], [4.0, 3.0]])
    assert np.allclose(cosine_similarity(A), [[1.0, 0.96], [0.96, 1.0]])


def test_cosine_known_answer_against_b():
    """(1, 0) vs (0, 2): orthogonal, cos 0; (1, 0) vs (-3, 0): opposite, cos -1; (1, 1) vs (0, 2): 2/(√2·2)."""
    A = np.array([[1.0, 0.0], [1.0, 1.0]])
    B = np.array([[0.0, 2.0], [-3.0, 0.0]])
    assert np.allclose(cosine_similarity(A, B), [[0.0, -1.0], [1 / np.sqrt(2), -1 / np.sqrt(2)]])


def test_cosine_properties(rng):
    X = rng.normal(size=(6, 5))
    C = cosine_similarity(X)
    assert C.shape == (6, 6)
    assert np.allclose(C, C.T) and np.allclose(np.diag(C), 1.0)
    assert (np.abs(C) <= 1 + 1e-12).all()
    # lengths do not matter: rescaling the rows by positive numbers changes nothing
    assert np.allclose(cosine_similarity(X * rng.uniform(0.1, 10, size=(6, 1))), C)
    # the dot product of the unit rows, by hand
    unit = X / np.linalg.norm(X, axis=1, keepdims=True)
    assert np.allclose(C, unit @ unit.T)


def test_cosine_batch_axes_and_lists(rng):
    A = rng.normal(size=(2, 3, 4))
    B = rng.normal(size=(2, 5, 4))
    C = cosine_similarity(A, B)
    assert C.shape == (2, 3, 5)
    assert np.allclose(C[1], cosine_similarity(A[1], B[1]))
    assert np.allclose(cosine_similarity([[1, 0], [0, 1]]), np.eye(2))
    assert attnlib.cosine_similarity is cosine_similarity


@pytest.mark.parametrize(
    ("A", "B", "match"),
    [
        (np.ones((2, 3)), np.ones((2, 4)), r"B has d=4 but A has d=3; expected B \(\.\.\., T_b, 3\), got \(2, 4\)"),
        (np.array([[1.0, 0.0], [0.0, 0.0]]), None, r"A has a zero row \(at index \(1,\)\)"),
        (np.ones((2, 2)), np.zeros((1, 2)), r"B has a zero row"),
        (np.ones(3), None, r"A must have shape \(\.\.\., T_a, d\): at least 2 axes"),
        (np.array([[1.0, np.nan]]), None, r"A contains NaN"),
    ],
)
def test_cosine_errors(A, B, match):
    with pytest.raises(ValueError, match=match):
        cosine_similarity(A, B)


def test_cosine_type_error_for_text():
    with pytest.raises(TypeError, match="A must be an array of real numbers"):
        cosine_similarity([["a", "b"]])


# ---- the library points back to the lesson ---------------------------------------------------------
def _public(module):
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            yield f"{module.__name__}.{name}", obj


MODULES = [attnlib.core, attnlib.validation, attnlib.gpt, attnlib.gpt.text]


def test_docstrings_are_numpy_style_with_a_shapes_block():
    for module in MODULES:
        for name, obj in _public(module):
            doc = inspect.getdoc(obj) or ""
            assert "Args:" not in doc and "Returns:" not in doc and "Raises:" not in doc, f"{name}: Google style"
            assert "Shapes:" in doc, f"{name}: no Shapes: block"
            if inspect.isfunction(obj) and inspect.signature(obj).parameters:
                assert "Parameters\n----------" in doc, f"{name}: no Parameters section"


# ---- the convex hull and the score histograms -------------------------------------------------------
def test_convex_hull_of_a_square_with_a_point_inside_by_hand():
    """The corners of the unit square, counter-clockwise from the lowest-leftmost; (0.5, 0.5) is not one."""
    points = [[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5], [1, 0.5]]
    np.testing.assert_array_equal(attnlib.core.convex_hull_2d(points), [[0, 0], [1, 0], [1, 1], [0, 1]])
    inside = attnlib.core.inside_convex_hull(points, [[0.5, 0.5], [1.0, 0.2], [1.1, 0.5]])
    assert inside.tolist() == [True, True, False]  # inside, on an edge, outside


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: attnlib.core.inside_convex_hull([[0, 0], [1, 1], [2, 2]], [[0, 0]]), r"must span an area"),
        (lambda: attnlib.core.inside_convex_hull([[0, 0], [1, 0], [0, 1]], [0, 0]), r"query must have shape \(m, 2\)"),
        (lambda: attnlib.padding_mask([1], 0), r"T \(padded length\) must be >= 1; got 0"),
    ],
)
def test_geometry_and_mask_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_histogram_heights_put_the_normal_curve_at_one(rng):
    """Scores ~ N(0, σ²) for σ = 8: the middle bins of the rescaled histogram are near the curve's peak, 1."""
    edges = attnlib.core.score_bins(8.0, n_bins=45)
    assert edges.shape == (46,) and edges[0] == -36.0 and edges[-1] == 36.0
    heights = attnlib.core.histogram_heights(rng.normal(0.0, 8.0, 200_000), 8.0)
    assert heights.shape == (45,) and abs(heights[22] - 1.0) < 0.05
