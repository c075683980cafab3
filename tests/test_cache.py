"""attnlib.core.cache: the KV cache's bytes, heads that share keys and values, sliding windows, against the plain
formulas; worked answers, properties (hypothesis draws the cases) and the messages of bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnlib import (
    MODEL_SHAPES,
    attention,
    causal_mask,
    grouped_query_attention,
    kv_cache_bytes,
    kv_head_map,
    multi_head_attention,
    repeat_kv_heads,
    sequences_that_fit,
    share_kv_heads,
    sliding_window_mask,
    split_heads,
)

# ---- bytes ---------------------------------------------------------------------------------------


def test_gpt3_cache_by_hand():
    """GPT-3 175B at its full context in float16: 2 · 96 layers · 2048 tokens · 12288 (= 96 heads · 128) ·
    2 bytes = 9,663,676,416 bytes, about 9.7 GB per sequence."""
    gpt3 = MODEL_SHAPES["GPT-3 175B"]
    assert kv_cache_bytes(96, 2048, 96, 128) == 2 * 96 * 2048 * 12288 * 2 == 9_663_676_416
    assert kv_cache_bytes(gpt3["n_layers"], gpt3["context"], gpt3["n_kv_heads"], gpt3["d_head"]) == 9_663_676_416


def test_gqa_divides_the_cache_by_n_heads_over_n_kv_heads():
    """Llama 2 70B: 64 query heads share 8 K/V heads, so its cache is 8 times LLaMA 65B's at the same T."""
    llama, llama2 = MODEL_SHAPES["LLaMA 65B"], MODEL_SHAPES["Llama 2 70B"]
    full = kv_cache_bytes(llama["n_layers"], 4096, llama["n_kv_heads"], llama["d_head"])
    shared = kv_cache_bytes(llama2["n_layers"], 4096, llama2["n_kv_heads"], llama2["d_head"])
    assert full == 8 * shared == 2 * 80 * 4096 * 8192 * 2


@given(st.integers(1, 100), st.integers(1, 10**6), st.sampled_from([1, 2, 4, 8, 32]), st.integers(1, 256),
       st.sampled_from([1, 2, 4]), st.integers(1, 64))
def test_cache_bytes_is_the_plain_product(n_layers, context, n_kv_heads, d_head, size, batch):
    got = kv_cache_bytes(n_layers, context, n_kv_heads, d_head, bytes_per_value=size, batch=batch)
    assert isinstance(got, int) and got == 2 * n_layers * context * n_kv_heads * d_head * size * batch


def test_no_overflow_for_huge_products():
    assert kv_cache_bytes(10**6, 10**9, 10**3, 10**3, bytes_per_value=8, batch=10**3) == 16 * 10**24


def test_sequences_that_fit_by_hand():
    """80 GB, weights of 70·10⁹ parameters in float16 (140 GB): nothing fits; on 8 such devices (640 GB)
    the 500 GB left hold ⌊500·10⁹ / 1,342,177,280⌋ = 372 Llama 2 70B caches of 4096 tokens."""
    per_sequence = kv_cache_bytes(80, 4096, 8, 128)
    assert per_sequence == 1_342_177_280
    assert sequences_that_fit(640 * 10**9, per_sequence, reserved_bytes=140 * 10**9) == 372
    assert sequences_that_fit(10, 3) == 3 and sequences_that_fit(2, 3) == 0
    with pytest.raises(ValueError, match="the weights alone do not fit"):
        sequences_that_fit(80 * 10**9, per_sequence, reserved_bytes=140 * 10**9)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: kv_cache_bytes(0, 10, 1, 1), ValueError, "n_layers"),
        (lambda: kv_cache_bytes(2, 10, 1, 1, bytes_per_value=0.5), TypeError, "bytes_per_value"),
        (lambda: kv_cache_bytes(2, 10.0, 1, 1), TypeError, "context"),
        (lambda: kv_cache_bytes(2, 10, 1, 1, batch=True), TypeError, "batch"),
        (lambda: sequences_that_fit(10, 0), ValueError, "per_sequence_bytes must be >= 1"),
        (lambda: sequences_that_fit(-1, 2), ValueError, "memory_bytes must be >= 0"),
        (lambda: sequences_that_fit(10.5, 2), TypeError, "memory_bytes must be a whole number of bytes"),
    ],
)
def test_the_byte_counts_refuse_bad_sizes(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_every_published_shape_is_consistent_and_names_its_source():
    keys = {"n_layers", "d_model", "n_heads", "n_kv_heads", "d_head", "context", "params", "window", "source"}
    assert {"tiny GPT (09)", "all-MiniLM-L6-v2 (08)", "GPT-3 175B", "Mistral 7B"} <= set(MODEL_SHAPES)
    for name, shape in MODEL_SHAPES.items():
        assert set(shape) == keys, name
        assert shape["n_heads"] * shape["d_head"] == shape["d_model"], name
        assert shape["n_heads"] % shape["n_kv_heads"] == 0, name
        assert shape["window"] is None or shape["window"] <= shape["context"], name
        assert shape["source"] and shape["params"] > 0, name


def test_the_tiny_gpt_shape_is_the_stored_models():
    from attnlib import data

    arrays = data.load("tiny_gpt_tang")
    tiny = MODEL_SHAPES["tiny GPT (09)"]
    for key in ("n_layers", "d_model", "n_heads", "context"):
        assert tiny[key] == int(arrays[f"config.{key}"]), key
    weights = [k for k in arrays if not k.startswith("config.") and arrays[k].dtype == np.float32
               and k != "train_losses"]
    assert sum(arrays[k].size for k in weights) == tiny["params"]


def test_the_minilm_shape_is_the_stored_models():
    from attnlib import data

    arrays = data.load("minilm_attention")
    minilm = MODEL_SHAPES["all-MiniLM-L6-v2 (08)"]
    assert arrays["W_k"].shape == (minilm["n_layers"], minilm["d_model"], minilm["n_heads"] * minilm["d_head"])


# ---- heads that share keys and values ------------------------------------------------------------


def test_head_maps_by_hand():
    np.testing.assert_array_equal(kv_head_map(8, 2), [0, 0, 0, 0, 1, 1, 1, 1])
    np.testing.assert_array_equal(kv_head_map(6, 3), [0, 0, 1, 1, 2, 2])
    np.testing.assert_array_equal(kv_head_map(4, 1), [0, 0, 0, 0])  # MQA
    np.testing.assert_array_equal(kv_head_map(4, 4), [0, 1, 2, 3])  # multi-head
    assert kv_head_map(4, 2).dtype == np.int64


def test_a_head_count_that_does_not_divide_is_refused():
    with pytest.raises(ValueError, match="n_kv_heads=3 must divide n_heads=8"):
        kv_head_map(8, 3)
    with pytest.raises(TypeError, match="n_heads"):
        kv_head_map(8.0, 2)


@st.composite
def grouped_problems(draw):
    batch = draw(st.sampled_from([(), (2,)]))
    n_kv = draw(st.sampled_from([1, 2, 3]))
    n_heads = n_kv * draw(st.sampled_from([1, 2, 4]))
    T_q, T_k, d_k, d_v = (draw(st.integers(1, 6)) for _ in range(4))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    Q = rng.normal(size=(*batch, n_heads, T_q, d_k)).astype(dtype)
    K = rng.normal(size=(*batch, n_kv, T_k, d_k)).astype(dtype)
    V = rng.normal(size=(*batch, n_kv, T_k, d_v)).astype(dtype)
    mask = rng.random((T_q, T_k)) < 0.6
    mask[np.arange(T_q), rng.integers(T_k, size=T_q)] = True
    return Q, K, V, draw(st.sampled_from([None, mask]))


@given(grouped_problems())
def test_gqa_is_attention_with_k_and_v_repeated_per_group(problem):
    Q, K, V, mask = problem
    n_heads, n_kv = Q.shape[-3], K.shape[-3]
    out, w = grouped_query_attention(Q, K, V, mask)
    group = n_heads // n_kv
    want_out, want_w = attention(Q, np.repeat(K, group, axis=-3), np.repeat(V, group, axis=-3), mask)
    np.testing.assert_array_equal(out, want_out)
    np.testing.assert_array_equal(w, want_w)
    assert out.shape == (*Q.shape[:-1], V.shape[-1]) and out.dtype == Q.dtype
    for h in range(n_heads):  # head by head: query head h reads K/V head h // group
        one, _ = attention(Q[..., h, :, :], K[..., h // group, :, :], V[..., h // group, :, :], mask)
        np.testing.assert_allclose(out[..., h, :, :], one, atol=1e-12 if Q.dtype == np.float64 else 1e-6)


def test_with_as_many_kv_heads_as_query_heads_it_is_multi_head_attention_bit_for_bit(rng):
    Q, K, V = (rng.normal(size=(2, 4, 5, 3)) for _ in range(3))
    out, w = grouped_query_attention(Q, K, V, causal_mask(5))
    want_out, want_w = attention(Q, K, V, causal_mask(5))
    assert np.array_equal(out, want_out) and np.array_equal(w, want_w)


@pytest.mark.parametrize(
    ("shapes", "error", "match"),
    [
        (((4, 5, 3), (3, 5, 3), (3, 5, 3)), ValueError, "n_kv_heads=3 must divide n_heads=4"),
        (((4, 5, 3), (2, 5, 3), (1, 5, 3)), ValueError, "K has 2 heads but V has 1"),
        (((5, 3), (5, 3), (5, 3)), ValueError, r"Q must have shape \(\.\.\., n_heads, T_q, d_k\)"),
        (((4, 5, 3), (2, 5, 2), (2, 5, 3)), ValueError, "K has d_k=2 but Q has d_k=3"),
    ],
)
def test_gqa_refuses_bad_shapes(shapes, error, match):
    with pytest.raises(error, match=match):
        grouped_query_attention(*(np.ones(s) for s in shapes))


def test_a_query_with_no_key_is_refused_as_in_attention():
    keep = np.ones((5, 5), bool)
    keep[2] = False
    with pytest.raises(ValueError, match="query 2 .* may attend to no key"):
        grouped_query_attention(np.ones((4, 5, 3)), np.ones((2, 5, 3)), np.ones((2, 5, 3)), keep)


def test_sharing_mean_pools_the_columns_of_each_group_by_hand():
    """4 heads of d_k = 1, W = [[1, 3, 10, 30]]: two groups, means (1+3)/2 = 2 and (10+30)/2 = 20."""
    np.testing.assert_array_equal(share_kv_heads([[1.0, 3.0, 10.0, 30.0]], 4, 2), [[2.0, 20.0]])
    np.testing.assert_array_equal(share_kv_heads([1.0, 3.0, 10.0, 30.0], 4, 1), [11.0])  # a bias; MQA
    np.testing.assert_array_equal(repeat_kv_heads([[2.0, 20.0]], 4, 2), [[2.0, 2.0, 20.0, 20.0]])


def test_sharing_with_every_head_its_own_changes_nothing_and_repeat_undoes_share_on_shared_weights(rng):
    W = rng.normal(size=(6, 8 * 3))
    np.testing.assert_array_equal(share_kv_heads(W, 8, 8), W)
    shared = share_kv_heads(W, 8, 2)
    assert shared.shape == (6, 2 * 3)
    np.testing.assert_allclose(share_kv_heads(repeat_kv_heads(shared, 8, 2), 8, 2), shared, atol=1e-15)
    # each group's mean, head by head
    heads = W.reshape(6, 8, 3)
    np.testing.assert_allclose(shared.reshape(6, 2, 3), heads.reshape(6, 2, 4, 3).mean(axis=2), atol=1e-15)


def test_the_shared_model_run_by_multi_head_code_is_gqa(rng):
    """Pooled projections repeated per group and run by multi_head_attention give grouped_query_attention's
    output on the pooled K/V heads: the notebook's way of measuring what sharing costs."""
    X = rng.normal(size=(5, 12))
    W_q, W_k, W_v = (rng.normal(size=(12, 4 * 3)) for _ in range(3))
    W_k2, W_v2 = share_kv_heads(W_k, 4, 2), share_kv_heads(W_v, 4, 2)
    out, w = multi_head_attention(X, W_q, repeat_kv_heads(W_k2, 4, 2), repeat_kv_heads(W_v2, 4, 2), 4,
                                  causal_mask(5))
    g_out, g_w = grouped_query_attention(split_heads(X @ W_q, 4), split_heads(X @ W_k2, 2),
                                         split_heads(X @ W_v2, 2), causal_mask(5))
    np.testing.assert_allclose(w, g_w, atol=1e-12)
    np.testing.assert_allclose(out, np.swapaxes(g_out, 0, 1).reshape(5, 12), atol=1e-12)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: share_kv_heads(np.ones((3, 10)), 4, 2), ValueError, "10 columns, not a multiple of 4"),
        (lambda: share_kv_heads(np.ones((3, 8)), 4, 3), ValueError, "must divide"),
        (lambda: share_kv_heads(np.array([[np.nan] * 4]), 4, 2), ValueError, "NaN"),
        (lambda: share_kv_heads(np.ones((3, 8), bool), 4, 2), TypeError, "booleans"),
        (lambda: repeat_kv_heads(np.ones((3, 5)), 4, 2), ValueError, "5 columns, not a multiple of 2"),
    ],
)
def test_sharing_refuses_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ---- windows -------------------------------------------------------------------------------------


def test_sliding_window_by_hand():
    """T = 5, window 2: each query sees itself and the token before it; with one sink, key 0 as well."""
    band = np.array([[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 1, 1, 0, 0], [0, 0, 1, 1, 0], [0, 0, 0, 1, 1]], bool)
    np.testing.assert_array_equal(sliding_window_mask(5, 2), band)
    with_sink = band.copy()
    with_sink[:, 0] = True
    np.testing.assert_array_equal(sliding_window_mask(5, 2, n_sink=1), with_sink)


@given(st.integers(1, 20), st.integers(1, 25), st.integers(0, 4))
def test_the_window_is_a_causal_band_plus_sinks(T, window, n_sink):
    keep = sliding_window_mask(T, window, n_sink=n_sink)
    assert keep.dtype == bool and keep.shape == (T, T)
    assert not (keep & ~causal_mask(T)).any()  # never a future key
    assert keep.diagonal().all()  # every query sees itself: no row is empty
    i = np.arange(T)
    sinks_outside = np.array([max(0, min(n_sink, r - window + 1)) for r in i])  # keys j <= r - window
    np.testing.assert_array_equal(keep.sum(axis=1), np.minimum(i + 1, window) + sinks_outside)
    if window >= T:
        np.testing.assert_array_equal(keep, causal_mask(T))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"T": 4, "window": 0}, ValueError, "window"),
        ({"T": 0, "window": 2}, ValueError, "T"),
        ({"T": 4, "window": 2, "n_sink": -1}, ValueError, "n_sink must be >= 0"),
        ({"T": 4, "window": 2, "n_sink": 1.0}, TypeError, "n_sink must be a whole number"),
    ],
)
def test_the_window_refuses_bad_sizes(kwargs, error, match):
    with pytest.raises(error, match=match):
        sliding_window_mask(**kwargs)
