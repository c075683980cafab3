"""Several heads: split_heads, merge_heads, multi_head_attention, and the stored real model.

Every synthetic case uses T, d_k and n_heads that all differ (and a batch size different from all
three), so a reshape without transpose, or a swap of the wrong axes, changes a shape or a number.
"""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib.data import DATA_DIR

B, T, N_HEADS, D_K, D_V = 2, 5, 3, 4, 6
D_MODEL = N_HEADS * D_K


@pytest.fixture
def layer(rng):
    """A random layer: X (B, T, d_model), W_q, W_k (d_model, n_heads·d_k), W_v (d_model, n_heads·d_v)."""
    X = rng.normal(size=(B, T, D_MODEL))
    W_q, W_k = (rng.normal(size=(D_MODEL, N_HEADS * D_K)) / np.sqrt(D_MODEL) for _ in range(2))
    W_v = rng.normal(size=(D_MODEL, N_HEADS * D_V)) / np.sqrt(D_MODEL)
    biases = {
        "b_q": rng.normal(size=N_HEADS * D_K),
        "b_k": rng.normal(size=N_HEADS * D_K),
        "b_v": rng.normal(size=N_HEADS * D_V),
    }
    return X, W_q, W_k, W_v, biases


# ---- split_heads / merge_heads -------------------------------------------------------------------
def test_split_heads_gives_each_head_its_own_block_of_columns(rng):
    X = rng.normal(size=(B, T, D_MODEL))
    heads = attnlib.split_heads(X, N_HEADS)
    assert heads.shape == (B, N_HEADS, T, D_K)
    for b in range(B):
        for h in range(N_HEADS):
            for t in range(T):
                np.testing.assert_array_equal(heads[b, h, t], X[b, t, h * D_K : (h + 1) * D_K])


def test_split_heads_without_batch_axes(rng):
    X = rng.normal(size=(T, D_MODEL))
    heads = attnlib.split_heads(X, N_HEADS)
    assert heads.shape == (N_HEADS, T, D_K)
    np.testing.assert_array_equal(heads[1], X[:, D_K : 2 * D_K])


def test_split_heads_is_not_a_plain_reshape(rng):
    """The classic bug: X.reshape(n_heads, T, d_k) has the right shape and the wrong numbers."""
    X = rng.normal(size=(T, D_MODEL))
    wrong = X.reshape(N_HEADS, T, D_K)
    assert wrong.shape == attnlib.split_heads(X, N_HEADS).shape
    assert not np.allclose(wrong, attnlib.split_heads(X, N_HEADS))


@pytest.mark.parametrize("shape", [(T, D_MODEL), (B, T, D_MODEL), (3, B, T, D_MODEL)])
def test_merge_heads_inverts_split_heads(rng, shape):
    X = rng.normal(size=shape)
    np.testing.assert_array_equal(attnlib.merge_heads(attnlib.split_heads(X, N_HEADS)), X)


def test_split_heads_inverts_merge_heads(rng):
    heads = rng.normal(size=(B, N_HEADS, T, D_K))
    merged = attnlib.merge_heads(heads)
    assert merged.shape == (B, T, N_HEADS * D_K)
    np.testing.assert_array_equal(attnlib.split_heads(merged, N_HEADS), heads)


def test_one_head_is_the_identity_up_to_an_axis(rng):
    X = rng.normal(size=(T, D_MODEL))
    np.testing.assert_array_equal(attnlib.split_heads(X, 1)[0], X)


# ---- multi_head_attention ------------------------------------------------------------------------
def loop_over_heads(X, W_q, W_k, W_v, n_heads, mask=None, b_q=0.0, b_k=0.0, b_v=0.0):
    """Reference: one attnlib.attention per head on column slices, concatenated."""
    Q, K, V = X @ W_q + b_q, X @ W_k + b_k, X @ W_v + b_v
    d_k, d_v = Q.shape[-1] // n_heads, V.shape[-1] // n_heads
    outs, weights = [], []
    for h in range(n_heads):
        q, k = Q[..., h * d_k : (h + 1) * d_k], K[..., h * d_k : (h + 1) * d_k]
        out, w = attnlib.attention(q, k, V[..., h * d_v : (h + 1) * d_v], mask)
        outs.append(out)
        weights.append(w)
    return np.concatenate(outs, axis=-1), np.stack(weights, axis=-3)


def test_multi_head_equals_a_loop_over_heads(layer):
    X, W_q, W_k, W_v, biases = layer
    out, weights = attnlib.multi_head_attention(X, W_q, W_k, W_v, N_HEADS, **biases)
    ref_out, ref_weights = loop_over_heads(X, W_q, W_k, W_v, N_HEADS, **biases)
    assert out.shape == (B, T, N_HEADS * D_V)
    assert weights.shape == (B, N_HEADS, T, T)
    np.testing.assert_allclose(out, ref_out, atol=1e-12)
    np.testing.assert_allclose(weights, ref_weights, atol=1e-12)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0)


def test_multi_head_with_a_causal_mask_equals_the_loop(layer):
    X, W_q, W_k, W_v, biases = layer
    mask = attnlib.causal_mask(T)
    out, weights = attnlib.multi_head_attention(X, W_q, W_k, W_v, N_HEADS, mask, **biases)
    ref_out, ref_weights = loop_over_heads(X, W_q, W_k, W_v, N_HEADS, mask, **biases)
    np.testing.assert_allclose(out, ref_out, atol=1e-12)
    np.testing.assert_allclose(weights, ref_weights, atol=1e-12)
    assert np.all(np.triu(weights, k=1) == 0.0)


def test_padding_mask_is_shared_by_every_head(layer):
    X, W_q, W_k, W_v, biases = layer
    lengths = np.array([T, 3])
    _, weights = attnlib.multi_head_attention(
        X, W_q, W_k, W_v, N_HEADS, attnlib.padding_mask(lengths, T), **biases
    )
    assert np.all(weights[1, :, :, 3:] == 0.0)
    assert np.all(weights[0] > 0.0)


def test_padded_sentence_gets_the_result_it_gets_alone(layer):
    X, W_q, W_k, W_v, biases = layer
    out, weights = attnlib.multi_head_attention(
        X, W_q, W_k, W_v, N_HEADS, attnlib.padding_mask(np.array([T, 3]), T), **biases
    )
    alone_out, alone_weights = attnlib.multi_head_attention(X[1, :3], W_q, W_k, W_v, N_HEADS, **biases)
    np.testing.assert_allclose(weights[1, :, :3, :3], alone_weights, atol=1e-12)
    np.testing.assert_allclose(out[1, :3], alone_out, atol=1e-12)


def test_scores_are_scaled_by_the_width_of_one_head(layer):
    X, W_q, W_k, W_v, _ = layer
    _, weights = attnlib.multi_head_attention(X, W_q, W_k, W_v, N_HEADS)
    Q, K = attnlib.split_heads(X @ W_q, N_HEADS), attnlib.split_heads(X @ W_k, N_HEADS)
    expected = attnlib.softmax(Q @ np.swapaxes(K, -1, -2) / np.sqrt(D_K))
    np.testing.assert_allclose(weights, expected, atol=1e-12)
    _, unscaled = attnlib.multi_head_attention(X, W_q, W_k, W_v, N_HEADS, scale=False)
    np.testing.assert_allclose(unscaled, attnlib.softmax(Q @ np.swapaxes(K, -1, -2)), atol=1e-12)


def test_one_head_is_self_attention(layer):
    X, W_q, W_k, _, _ = layer
    W_v = W_q  # one head: d_v = d_model here
    out, weights = attnlib.multi_head_attention(X, W_q, W_k, W_v, 1)
    ref_out, ref_weights = attnlib.self_attention(X, W_q, W_k, W_v)
    np.testing.assert_allclose(out, ref_out, atol=1e-12)
    np.testing.assert_allclose(weights[..., 0, :, :], ref_weights, atol=1e-12)


def test_float32_stays_float32(layer):
    X, W_q, W_k, W_v, _ = layer
    f32 = [a.astype(np.float32) for a in (X, W_q, W_k, W_v)]
    out, weights = attnlib.multi_head_attention(*f32, N_HEADS)
    assert out.dtype == weights.dtype == np.float32


# ---- errors --------------------------------------------------------------------------------------
def test_split_heads_names_the_numbers_when_not_divisible():
    with pytest.raises(ValueError, match=r"d_model=384, which is not divisible by n_heads=5"):
        attnlib.split_heads(np.zeros((10, 384)), 5)


def test_multi_head_names_the_numbers_when_not_divisible(layer):
    X, W_q, W_k, W_v, _ = layer
    with pytest.raises(ValueError, match=r"W_q has 12 columns, which is not divisible by n_heads=5"):
        attnlib.multi_head_attention(X, W_q, W_k, W_v, 5)


def test_value_width_must_also_be_divisible(layer):
    X, W_q, W_k, _, _ = layer
    W_v = np.zeros((D_MODEL, 7))
    with pytest.raises(ValueError, match=r"W_v has 7 columns, which is not divisible by n_heads=3"):
        attnlib.multi_head_attention(X, W_q, W_k, W_v, N_HEADS)


def test_bias_of_the_wrong_length(layer):
    X, W_q, W_k, W_v, biases = layer
    with pytest.raises(ValueError, match=r"b_k must have shape \(n_heads·d_k,\) = \(12,\).*got \(5,\)"):
        attnlib.multi_head_attention(X, W_q, W_k, W_v, N_HEADS, b_k=np.zeros(5))


def test_projection_that_does_not_fit_x(layer):
    X, _, W_k, W_v, _ = layer
    with pytest.raises(ValueError, match=r"W_q must have shape \(d_model, d_k\) = \(12, d_k\)"):
        attnlib.multi_head_attention(X, np.zeros((7, 12)), W_k, W_v, N_HEADS)


def test_mask_of_the_wrong_shape(layer):
    X, W_q, W_k, W_v, _ = layer
    with pytest.raises(ValueError, match=r"mask of shape \(4, 4\) does not broadcast .*\(2, 5, 5\)"):
        attnlib.multi_head_attention(X, W_q, W_k, W_v, N_HEADS, attnlib.causal_mask(4))


@pytest.mark.parametrize("n_heads", [0, -2])
def test_n_heads_must_be_positive(n_heads):
    with pytest.raises(ValueError, match=r"n_heads \(number of heads\) must be >= 1"):
        attnlib.split_heads(np.zeros((T, D_MODEL)), n_heads)


def test_n_heads_must_be_a_whole_number():
    with pytest.raises(TypeError, match=r"n_heads \(number of heads\) must be a whole number"):
        attnlib.split_heads(np.zeros((T, D_MODEL)), 3.0)


def test_split_heads_needs_a_token_axis():
    with pytest.raises(ValueError, match=r"X must have shape \(\.\.\., T, d_model\)"):
        attnlib.split_heads(np.zeros(D_MODEL), N_HEADS)


def test_merge_heads_needs_a_heads_axis():
    with pytest.raises(ValueError, match=r"heads must have shape \(\.\.\., n_heads, T, d_k\): at least 3 axes"):
        attnlib.merge_heads(np.zeros((T, D_K)))


# ---- the stored real model -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def minilm():
    path = DATA_DIR / "minilm_attention.npz"
    with np.load(path, allow_pickle=False) as npz:
        return {key: npz[key] for key in npz.files}


def test_stored_data_is_plain_arrays_of_the_documented_shapes(minilm):
    L, H, d_model, d_k = 6, 12, 384, 32
    assert (DATA_DIR / "minilm_attention.npz").stat().st_size < 12_000_000
    assert int(minilm["n_heads"]) == H
    assert minilm["tokens"].tolist() == ["[CLS]", *"the kids are playing on the green grass".split(), "[SEP]"]
    assert minilm["short_tokens"].tolist() == ["[CLS]", "the", "grass", "is", "green", "[SEP]"]
    assert minilm["batch_lengths"].tolist() == [10, 6]
    assert minilm["batch_tokens"][1, 6:].tolist() == ["[PAD]"] * 4
    for key in ("W_q", "W_k", "W_v"):
        assert minilm[key].shape == (L, d_model, d_model) and minilm[key].dtype == np.float32
    assert minilm["X"].shape == (L, 10, d_model)
    assert minilm["weights"].shape == (L, H, 10, 10)
    assert minilm["out"].shape == (L, H, 10, d_k)
    assert minilm["batch_weights"].shape == (L, 2, H, 10, 10)
    assert all(a.dtype.kind in "fiU" for a in minilm.values())


def _layer(minilm, layer):
    W = [minilm[k][layer].astype(np.float64) for k in ("W_q", "W_k", "W_v")]
    b = {k: minilm[k][layer].astype(np.float64) for k in ("b_q", "b_k", "b_v")}
    return W, b


@pytest.mark.parametrize("prefix", ["", "short_"])
def test_stored_data_reproduces_the_model(minilm, prefix):
    for layer in range(6):
        W, b = _layer(minilm, layer)
        X = minilm[f"{prefix}X"][layer].astype(np.float64)
        out, weights = attnlib.multi_head_attention(X, *W, 12, **b)
        assert np.abs(weights - minilm[f"{prefix}weights"][layer]).max() <= 1e-5
        assert np.abs(attnlib.split_heads(out, 12) - minilm[f"{prefix}out"][layer]).max() <= 1e-5


def test_padding_mask_reproduces_the_model_and_the_sentence_alone(minilm):
    lengths = minilm["batch_lengths"]
    mask = attnlib.padding_mask(lengths, 10)
    for layer in range(6):
        W, b = _layer(minilm, layer)
        _, weights = attnlib.multi_head_attention(minilm["batch_X"][layer].astype(np.float64), *W, 12, mask, **b)
        assert np.abs(weights - minilm["batch_weights"][layer]).max() <= 1e-5
        assert np.abs(weights[1, :, :6, :6] - minilm["short_weights"][layer]).max() <= 1e-5
        assert np.all(weights[1, :, :, 6:] == 0.0)


# ---- the layers × heads grid ---------------------------------------------------------------------
def test_head_grid_layout_labels_and_scale(rng):
    import matplotlib.pyplot as plt

    from attnlib import plot

    n_layers, n_heads, T_ = 2, 3, 4
    weights = attnlib.softmax(rng.normal(size=(n_layers, n_heads, T_, T_)))
    tokens = ["a", "b", "c", "d"]
    fig = plot.head_grid(weights, tokens, title="weights · grid", highlight=[(1, 2)])
    try:
        panels, colorbar = fig.axes[:-1], fig.axes[-1]
        assert len(panels) == n_layers * n_heads
        assert colorbar.get_ylabel() == "attention weight"
        for k, ax in enumerate(panels):
            layer, head = divmod(k, n_heads)
            image = ax.images[0]
            assert image.get_clim() == (0.0, 1.0)  # one fixed scale for every panel
            np.testing.assert_allclose(image.get_array(), weights[layer, head])
            bottom, left = layer == n_layers - 1, head == 0
            assert [t.get_text() for t in ax.get_xticklabels()] == (tokens if bottom else [])
            assert [t.get_text() for t in ax.get_yticklabels()] == (tokens if left else [])
        assert panels[0].get_ylabel() == "layer 0" and panels[n_heads].get_ylabel() == "layer 1"
        assert [ax.get_title() for ax in panels[:n_heads]] == ["head 0", "head 1", "head 2"]
        assert panels[-1].spines["top"].get_linewidth() > panels[0].spines["top"].get_linewidth()
        assert fig._suptitle.get_text() == "weights · grid"
    finally:
        plt.close(fig)


def test_head_grid_refuses_what_is_not_a_stack_of_square_matrices():
    from attnlib import plot

    with pytest.raises(ValueError, match=r"weights must have shape \(n_layers, n_heads, T, T\).*got \(3, 4, 4\)"):
        plot.head_grid(np.zeros((3, 4, 4)))
    with pytest.raises(ValueError, match=r"tokens must have shape \(T,\) = \(4,\); got \(2,\)"):
        plot.head_grid(np.zeros((1, 1, 4, 4)), ["a", "b"])
    with pytest.raises(ValueError, match=r"highlight \(1, 0\) is outside 1 layers × 2 heads"):
        plot.head_grid(np.zeros((1, 2, 4, 4)), highlight=[(1, 0)])


def test_a_key_mask_of_one_axis_also_works(layer):
    X, W_q, W_k, W_v, biases = layer
    keep = np.array([True, True, True, False, False])  # (T,): broadcast over queries, heads, batch
    _, weights = attnlib.multi_head_attention(X, W_q, W_k, W_v, N_HEADS, keep, **biases)
    _, expected = attnlib.multi_head_attention(X, W_q, W_k, W_v, N_HEADS, np.broadcast_to(keep, (T, T)), **biases)
    np.testing.assert_array_equal(weights, expected)
    assert np.all(weights[..., 3:] == 0.0)
