"""attnlib.core additions for notebooks 04-07, and the story told by data/green_grass.json."""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import data


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
    ("a", "b", "widths", "match"),
    [
        (np.ones(3), np.ones(4), np.array([1]), r"b has D=4 features but a has D=3"),
        (np.ones(3), np.ones(3), np.array([0, 2]), r"between 1 and D=3 .*; got 0"),
        (np.ones(3), np.ones(3), np.array([4]), r"between 1 and D=3 .*; got 4"),
        (np.ones(3), np.ones(3), np.array([1.5]), r"widths must be whole numbers"),
        (np.array([1.0, np.nan]), np.ones(2), np.array([1]), r"a contains NaN"),
    ],
)
def test_nested_dot_products_errors(a, b, widths, match):
    with pytest.raises(ValueError, match=match):
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
    ("kwargs", "match"),
    [
        ({"queries": [0, 9], "keys": [1, 1]}, r"queries must be token indices between 0 and T-1=7"),
        ({"queries": [0], "keys": [1, 2]}, r"queries and keys must pair up"),
        ({"queries": [0.5], "keys": [1]}, r"queries must be token indices of shape \(N,\)"),
        ({"queries": [], "keys": []}, r"with N >= 1"),
    ],
)
def test_attention_pair_loss_errors(kwargs, match):
    X = np.ones((8, 6))
    with pytest.raises(ValueError, match=match):
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
