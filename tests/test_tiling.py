"""attnlib.core.tiling: online softmax and tiled attention against the plain formula, worked answers, properties
(hypothesis draws the cases), the counts of memory and traffic, and the messages of bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import attnlib
from attnlib import (
    attention,
    attention_io,
    attention_memory,
    causal_mask,
    online_softmax,
    online_softmax_trace,
    padding_mask,
    sliding_window_mask,
    softmax,
    tile_kinds,
    tiled_attention,
    tiled_attention_steps,
)
from attnlib.core import tiling

TOL = {np.float32: 1e-5, np.float64: 1e-12}


# ---- online softmax: worked answers --------------------------------------------------------------


def test_online_softmax_trace_by_hand_when_the_maximum_grows():
    """x = [3, 1, 5], blocks of 2: after [3, 1], m = 3 and l = e^0 + e^-2; then 5 raises m to 5, so the old
    sum is multiplied by e^(3-5) = e^-2 and the new term e^0 = 1 added: l = (1 + e^-2)·e^-2 + 1."""
    m, l = online_softmax_trace(np.array([3.0, 1.0, 5.0]), 2)
    np.testing.assert_array_equal(m, [3.0, 5.0])
    np.testing.assert_allclose(l, [1 + math.exp(-2), (1 + math.exp(-2)) * math.exp(-2) + 1], rtol=1e-15)
    np.testing.assert_allclose(np.exp(np.array([3.0, 1.0, 5.0]) - m[-1]) / l[-1], softmax([3.0, 1.0, 5.0]),
                               atol=1e-15)


def test_online_softmax_trace_by_hand_when_the_maximum_stays():
    """x = [1, 3, 2], blocks of 2: m = 3, l = e^-2 + 1; then 2 < 3 leaves m, and l gains e^(2-3) = e^-1."""
    m, l = online_softmax_trace([1.0, 3.0, 2.0], 2)
    np.testing.assert_array_equal(m, [3.0, 3.0])
    np.testing.assert_allclose(l, [math.exp(-2) + 1, math.exp(-2) + 1 + math.exp(-1)], rtol=1e-15)


def test_one_block_as_long_as_the_row_is_the_plain_max_trick():
    x = np.array([[0.2, -1.0, 4.0, 2.5]])
    m, l = online_softmax_trace(x, 4)
    assert m.shape == l.shape == (1, 1) and m[0, 0] == 4.0
    np.testing.assert_allclose(l[0, 0], np.exp(x - 4.0).sum(), rtol=1e-15)


def test_masked_entries_get_zero_and_a_block_of_only_minus_inf_changes_nothing():
    x = np.array([[-np.inf, -np.inf, 1.0, 2.0, -np.inf, 0.5]])
    w = online_softmax(x, 2)
    assert (w[0, [0, 1, 4]] == 0).all()
    np.testing.assert_allclose(w, softmax(x), atol=1e-15)
    m, l = online_softmax_trace(x, 2)
    assert np.isneginf(m[0, 0]) and l[0, 0] == 0.0  # nothing seen yet: no NaN from −inf − (−inf)


def test_the_running_maximum_never_decreases(rng):
    m, _ = online_softmax_trace(rng.normal(size=(3, 17)), 4)
    assert m.shape == (3, 5) and (np.diff(m, axis=-1) >= 0).all()


@st.composite
def rows_of_scores(draw):
    shape = draw(st.sampled_from([(1,), (6,), (2, 9), (3, 2, 13)]))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.normal(scale=draw(st.sampled_from([0.1, 3.0, 300.0])), size=shape)
    x[rng.random(shape) < draw(st.sampled_from([0.0, 0.4]))] = -np.inf
    x[..., rng.integers(shape[-1])] = 1.0  # at least one unmasked entry per row
    return x.astype(dtype), draw(st.integers(1, shape[-1] + 2))


@given(rows_of_scores())
def test_online_softmax_equals_softmax_to_rounding(case):
    x, block_size = case
    w = online_softmax(x, block_size)
    assert w.dtype == x.dtype and w.shape == x.shape
    np.testing.assert_allclose(w, softmax(x), atol=TOL[x.dtype.type], rtol=0)
    m, l = online_softmax_trace(x, block_size)
    assert m.shape[-1] == math.ceil(x.shape[-1] / block_size)
    np.testing.assert_array_equal(m[..., -1], x.max(axis=-1))


def test_online_softmax_survives_scores_that_would_overflow_exp():
    x = np.array([1000.0, 990.0, 1010.0, 1005.0])
    np.testing.assert_allclose(online_softmax(x, 1), softmax(x), atol=1e-15)


# ---- online softmax: bad input -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "block_size", "error", "match"),
    [
        (np.array([-np.inf, -np.inf]), 1, ValueError, "entirely -inf"),
        (np.array([1.0, np.nan]), 1, ValueError, "NaN"),
        (np.array([1.0, np.inf]), 1, ValueError, "infinite"),
        (np.array(2.0), 1, ValueError, "at least 1 axis"),
        (np.zeros((2, 0)), 1, ValueError, "no entries"),
        (np.array([True, False]), 1, TypeError, "booleans"),
        (np.array([1.0, 2.0]), 0, ValueError, "block_size"),
        (np.array([1.0, 2.0]), 1.5, TypeError, "block_size"),
    ],
)
def test_online_softmax_refuses_bad_input(x, block_size, error, match):
    with pytest.raises(error, match=match):
        online_softmax(x, block_size)
    with pytest.raises(error, match=match):
        online_softmax_trace(x, block_size)


# ---- tile kinds ----------------------------------------------------------------------------------


def test_causal_tiles_by_hand():
    """T = 10 in blocks of 4 (4, 4, 2): above the diagonal blocks skipped, on it partial, below it full."""
    np.testing.assert_array_equal(tile_kinds(causal_mask(10), 4, 4), [[1, 0, 0], [2, 1, 0], [2, 2, 1]])


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_under_the_causal_mask_about_half_the_tiles_are_skipped(n):
    """n × n tiles of b × b: n(n−1)/2 skipped above the diagonal, n partial on it, n(n−1)/2 full."""
    kinds = tile_kinds(causal_mask(4 * n), 4, 4)
    assert (kinds == 0).sum() == n * (n - 1) // 2 == (kinds == 2).sum()
    assert (kinds == 1).sum() == n and (np.diag(kinds) == 1).all()


def test_no_mask_means_every_tile_is_full_and_blocks_need_not_divide():
    kinds = tile_kinds(None, 3, 4, shape=(7, 9))
    assert kinds.shape == (3, 3) and (kinds == 2).all()


def test_a_batch_of_masks_skips_a_tile_only_where_every_one_blocks_it():
    keep = np.stack([causal_mask(4), np.ones((4, 4), bool)])
    np.testing.assert_array_equal(tile_kinds(keep, 2, 2), [[1, 1], [2, 1]])


def test_sliding_window_tiles_are_skipped_below_the_band_too():
    kinds = tile_kinds(sliding_window_mask(12, 4), 4, 4)
    np.testing.assert_array_equal(kinds, [[1, 0, 0], [1, 1, 0], [0, 1, 1]])


@pytest.mark.parametrize(
    ("keep", "kwargs", "error", "match"),
    [
        (None, {}, ValueError, "shape="),
        (np.ones((3, 3)), {}, TypeError, "boolean"),
        (np.ones(3, bool), {}, ValueError, "T_q, T_k"),
        (causal_mask(3), {"block_q": 0}, ValueError, "block_q"),
    ],
)
def test_tile_kinds_refuses_bad_input(keep, kwargs, error, match):
    args = {"block_q": 2, "block_k": 2, **kwargs}
    with pytest.raises(error, match=match):
        tile_kinds(keep, args["block_q"], args["block_k"])


# ---- tiled attention: the formula, tile by tile --------------------------------------------------


@st.composite
def problems(draw):
    """Q, K, V of random sizes, batch axes and dtype; block sizes that do and do not divide T; a mask with
    rows blocked in whole tiles (each row keeps one key somewhere), or no mask."""
    batch = draw(st.sampled_from([(), (2,), (2, 3)]))
    T_q, T_k = draw(st.integers(1, 19)), draw(st.integers(1, 19))
    d_k, d_v = draw(st.integers(1, 6)), draw(st.integers(1, 4))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    size = draw(st.sampled_from([0.3, 1.0, 4.0]))
    Q = (size * rng.normal(size=(*batch, T_q, d_k))).astype(dtype)
    K = (size * rng.normal(size=(*batch, T_k, d_k))).astype(dtype)
    V = rng.normal(size=(*batch, T_k, d_v)).astype(dtype)
    kind = draw(st.sampled_from(["none", "random", "one_key", "causal"]))
    if kind == "none":
        mask = None
    elif kind == "causal":
        mask = np.tri(T_q, T_k, k=T_k - T_q, dtype=bool) | (np.arange(T_k) == 0)  # every row sees key 0
    else:
        mask = rng.random((*batch, T_q, T_k)) < (0.5 if kind == "random" else 0.0)
        mask[..., rng.integers(T_k, size=(*batch, T_q))[..., None] == np.arange(T_k)] = True
    return Q, K, V, mask, draw(st.integers(1, T_q + 2)), draw(st.integers(1, T_k + 2))


@given(problems())
def test_tiled_attention_equals_the_formula(problem):
    Q, K, V, mask, block_q, block_k = problem
    out = tiled_attention(Q, K, V, mask, block_q=block_q, block_k=block_k)
    want, _ = attention(Q, K, V, mask)
    assert out.dtype == Q.dtype and out.shape == want.shape and np.isfinite(out).all()
    np.testing.assert_allclose(out, want, atol=TOL[Q.dtype.type], rtol=0)


@given(problems())
def test_the_last_step_is_the_output_and_every_query_block_ends_right(problem):
    Q, K, V, mask, block_q, block_k = problem
    Q, K, V = Q.reshape(-1, *Q.shape[-2:])[0], K.reshape(-1, *K.shape[-2:])[0], V.reshape(-1, *V.shape[-2:])[0]
    mask = None if mask is None else mask.reshape(-1, *mask.shape[-2:])[0]
    steps = tiled_attention_steps(Q, K, V, mask, block_q=block_q, block_k=block_k)
    n_q, n_k = math.ceil(len(Q) / block_q), math.ceil(len(K) / block_k)
    assert len(steps) == n_q * n_k
    assert [(s.q_block, s.k_block) for s in steps] == [(a, b) for a in range(n_q) for b in range(n_k)]
    want, _ = attention(Q, K, V, mask)
    np.testing.assert_allclose(steps[-1].out, want, atol=TOL[Q.dtype.type], rtol=0)
    kinds = tile_kinds(mask, block_q, block_k, shape=(len(Q), len(K)))
    for before, step in zip([None, *steps], steps, strict=False):
        assert step.kind == kinds[step.q_block, step.k_block]
        if step.kind == 0 and before is not None:  # a skipped tile leaves the state as it was
            np.testing.assert_array_equal(step.m, before.m)
            np.testing.assert_array_equal(step.l, before.l)


@given(problems(), st.integers(0, 2**32 - 1))
def test_a_row_blocked_everywhere_raises_in_both_functions_with_the_same_message(problem, seed):
    Q, K, V, mask, block_q, block_k = problem
    keep = np.ones((*Q.shape[:-1], K.shape[-2]), bool) if mask is None else np.array(np.broadcast_to(
        mask, (*Q.shape[:-1], K.shape[-2])))
    keep[..., np.random.default_rng(seed).integers(Q.shape[-2]), :] = False
    with pytest.raises(ValueError, match="may attend to no key") as ours:
        tiled_attention(Q, K, V, keep, block_q=block_q, block_k=block_k)
    with pytest.raises(ValueError) as theirs:
        attention(Q, K, V, keep)
    assert str(ours.value) == str(theirs.value)


def test_a_row_blocked_in_its_first_tiles_starts_at_minus_inf_without_nan():
    """Query 3 may see key 5 only: the tiles of keys 0–1 and 2–3 leave it at m = −∞, l = 0, output 0."""
    rng = np.random.default_rng(7)
    Q, K, V = rng.normal(size=(4, 3)), rng.normal(size=(6, 3)), rng.normal(size=(6, 2))
    keep = np.ones((4, 6), bool)
    keep[3] = [False, False, False, False, False, True]
    steps = tiled_attention_steps(Q, K, V, keep, block_q=2, block_k=2)
    row3 = [(s.k_block, s.m[3], s.l[3]) for s in steps if s.q_block == 1]
    assert [np.isneginf(m) and l == 0 for _, m, l in row3] == [True, True, False]
    assert all(np.isfinite(s.out).all() for s in steps)
    np.testing.assert_allclose(steps[-1].out[3], V[5], atol=1e-15)  # its only key: weight 1


def test_state_by_hand_for_one_query_and_two_key_tiles():
    """Q = [[1]], K = [[0], [2]], V = [[10], [20]], scale off, blocks of 1 key: after key 0, m = 0, l = 1,
    out = 10; after key 1 the maximum becomes 2, l = 1·e^-2 + 1, out = (10·e^-2 + 20)/(e^-2 + 1)."""
    steps = tiled_attention_steps([[1.0]], [[0.0], [2.0]], [[10.0], [20.0]], block_q=1, block_k=1, scale=False)
    assert (steps[0].m[0], steps[0].l[0], steps[0].out[0, 0]) == (0.0, 1.0, 10.0)
    e = math.exp(-2)
    assert steps[1].m[0] == 2.0
    np.testing.assert_allclose([steps[1].l[0], steps[1].out[0, 0]], [e + 1, (10 * e + 20) / (e + 1)], rtol=1e-15)


def test_skipped_tiles_are_never_computed(monkeypatch, rng):
    calls = []
    real = tiling._update
    monkeypatch.setattr(tiling, "_update", lambda *args: calls.append(1) or real(*args))
    Q = K = V = rng.normal(size=(16, 4))
    out = tiled_attention(Q, K, V, causal_mask(16), block_q=4, block_k=4)
    assert len(calls) == 10  # 4 × 4 tiles, 6 of them above the diagonal
    np.testing.assert_allclose(out, attention(Q, K, V, causal_mask(16))[0], atol=1e-12)


def test_a_padding_mask_with_a_broadcast_query_axis(rng):
    Q, K, V = rng.normal(size=(2, 5, 3)), rng.normal(size=(2, 5, 3)), rng.normal(size=(2, 5, 4))
    mask = padding_mask([5, 2], 5)  # (2, 1, 5)
    np.testing.assert_allclose(tiled_attention(Q, K, V, mask, block_q=2, block_k=3),
                               attention(Q, K, V, mask)[0], atol=1e-12)


def test_an_additive_mask_and_scale_off_work_as_in_attention(rng):
    Q, K, V = rng.normal(size=(6, 3)), rng.normal(size=(6, 3)), rng.normal(size=(6, 3))
    M = attnlib.additive_mask(causal_mask(6))
    np.testing.assert_allclose(tiled_attention(Q, K, V, M, block_q=4, block_k=4, scale=False),
                               attention(Q, K, V, M, scale=False)[0], atol=1e-12)


def test_float32_in_float32_out_and_float64_to_1e12(rng):
    Q, K, V = (rng.normal(size=(33, 8)) for _ in range(3))
    for dtype, tol in ((np.float32, 1e-6), (np.float64, 1e-12)):
        out = tiled_attention(Q.astype(dtype), K.astype(dtype), V.astype(dtype), causal_mask(33),
                              block_q=8, block_k=5)
        assert out.dtype == dtype
        assert np.abs(out - attention(Q, K, V, causal_mask(33))[0]).max() < tol


# ---- tiled attention: bad input, refused as attention refuses it --------------------------------


def test_a_row_with_every_key_blocked_raises_as_in_attention(rng):
    Q, K, V = rng.normal(size=(3, 2)), rng.normal(size=(4, 2)), rng.normal(size=(4, 2))
    keep = np.ones((3, 4), bool)
    keep[1] = False
    with pytest.raises(ValueError, match="query 1 .* may attend to no key") as ours:
        tiled_attention(Q, K, V, keep, block_q=2, block_k=2)
    with pytest.raises(ValueError) as theirs:
        attention(Q, K, V, keep)
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(ValueError, match="may attend to no key"):
        tiled_attention_steps(Q, K, V, keep, block_q=2, block_k=2)


def test_overflowing_scores_raise_as_in_attention():
    Q = np.full((2, 2), 1e30, dtype=np.float32)
    with pytest.raises(ValueError, match="overflow float32"):
        tiled_attention(Q, Q, Q, block_q=1, block_k=1)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (((3, 2), (4, 3), (4, 2)), {}, ValueError, "K has d_k=3 but Q has d_k=2"),
        (((3, 2), (4, 2), (5, 2)), {}, ValueError, "V has T_k=5"),
        (((3, 2), (4, 2), (4, 2)), {"block_q": 0}, ValueError, "block_q"),
        (((3, 2), (4, 2), (4, 2)), {"block_k": 2.0}, TypeError, "block_k"),
        (((2,), (4, 2), (4, 2)), {}, ValueError, "Q must have shape"),
    ],
)
def test_tiled_attention_refuses_bad_input(args, kwargs, error, match):
    arrays = [np.ones(shape) for shape in args]
    with pytest.raises(error, match=match):
        tiled_attention(*arrays, **kwargs)


def test_the_steps_take_one_sequence_only():
    with pytest.raises(ValueError, match=r"Q must have shape \(T_q, d_k\)"):
        tiled_attention_steps(np.ones((2, 3, 2)), np.ones((3, 2)), np.ones((3, 2)), block_q=2, block_k=2)


# ---- what it costs -------------------------------------------------------------------------------


def test_memory_by_hand():
    """T = 1024, d = 64, tiles of 64 × 64, float32: the scores 1024² · 4 = 4,194,304 bytes; one tile
    64·64 + 2·64·64 (Q block, acc) + 2·64·64 (K, V blocks) + 2·64 (m, l) = 20,608 values = 82,432 bytes."""
    assert attention_memory(1024, 64, block_q=64, block_k=64) == {"standard": 4_194_304, "tiled": 82_432}


def test_the_tile_does_not_grow_with_t_and_blocks_are_clipped_to_t():
    sizes = [attention_memory(T, 32, block_q=16, block_k=16)["tiled"] for T in (16, 256, 4096)]
    assert len(set(sizes)) == 1
    assert attention_memory(4, 8, block_q=16, block_k=16, bytes_per_value=1)["tiled"] == 4 * 4 + 4 * 4 * 8 + 2 * 4


def algorithm_1_traffic(N: int, d: int, M: int) -> int:
    """Dao et al. 2022, Algorithm 1, executed: count every value loaded from or stored to HBM."""
    B_c = math.ceil(M / (4 * d))
    B_r = min(B_c, d)
    moved = N * d + 2 * N  # line 2: O, ℓ, m initialised in HBM
    for j in range(0, N, B_c):
        moved += 2 * min(B_c, N - j) * d  # line 6: load K_j, V_j
        for i in range(0, N, B_r):
            rows = min(B_r, N - i)
            moved += 2 * rows * d + 2 * rows  # line 8: load Q_i, O_i, ℓ_i, m_i
            moved += rows * d + 2 * rows  # lines 12–13: write O_i, ℓ_i, m_i
    return moved


@pytest.mark.parametrize(("T", "d", "sram"), [(1, 1, 8), (100, 16, 4096), (257, 64, 100_000), (64, 8, 64)])
def test_io_counts_the_loads_and_stores_of_both_algorithms(T, d, sram):
    """Algorithm 0: read Q, K (2Td), write S (T²), read S, write P (2T²), read P, V (T² + Td), write O (Td)."""
    io = attention_io(T, d, sram, bytes_per_value=2)
    assert io["standard"] == 2 * (4 * T * T + 4 * T * d)
    assert io["tiled"] == 2 * algorithm_1_traffic(T, d, sram // 2)


def test_io_grows_like_t_squared_and_the_tiled_like_t2_d2_over_m():
    d, sram, size = 64, 100_000, 2
    M = sram // size
    big = [attention_io(T, d, sram, bytes_per_value=size) for T in (2**15, 2**16)]
    assert big[1]["standard"] / big[0]["standard"] == pytest.approx(4, rel=1e-3)
    assert big[1]["tiled"] / big[0]["tiled"] == pytest.approx(4, rel=1e-2)
    for T, io in zip((2**15, 2**16), big, strict=True):
        assert io["standard"] / size / T**2 == pytest.approx(4, rel=1e-2)  # + 4Td, small against 4T²
        assert io["tiled"] / size / (T**2 * d**2 / M) == pytest.approx(12, rel=0.05)
        assert io["tiled"] < io["standard"] / 3.5  # about 4M / (12d²) ≈ 4 times less


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: attention_io(16, 64, 100), ValueError, "fewer than 4·d"),
        (lambda: attention_io(0, 64, 10_000), ValueError, "T"),
        (lambda: attention_io(16, 64, 1e5), TypeError, "sram_bytes"),
        (lambda: attention_memory(16, 0, block_q=4, block_k=4), ValueError, "d"),
        (lambda: attention_memory(16, 4, block_q=4, block_k=4, bytes_per_value=0.5), TypeError, "bytes_per_value"),
    ],
)
def test_the_costs_refuse_bad_sizes(call, error, match):
    with pytest.raises(error, match=match):
        call()
