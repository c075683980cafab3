"""attnlib.core.positions: sinusoids, RoPE and ALiBi against their papers' formulas, worked answers, properties
(hypothesis draws the cases) and the messages of bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import attnlib
from attnlib import (
    additive_mask,
    alibi_bias,
    alibi_slopes,
    apply_rope,
    causal_mask,
    rope_angles,
    rope_scores,
    sinusoid_shift,
    sinusoidal_positions,
)

# ---- references written independently of attnlib ------------------------------------------------


def paper_table(T: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """Vaswani et al. 2017, §3.5, one entry at a time: PE(pos, 2i) = sin(pos / base^(2i/d_model)),
    PE(pos, 2i+1) = cos(pos / base^(2i/d_model))."""
    PE = np.zeros((T, d_model))
    for pos in range(T):
        for i in range(d_model // 2):
            PE[pos, 2 * i] = math.sin(pos / base ** (2 * i / d_model))
            PE[pos, 2 * i + 1] = math.cos(pos / base ** (2 * i / d_model))
    return PE


def complex_rope(X: np.ndarray, positions: np.ndarray, base: float = 10000.0) -> np.ndarray:
    """RoFormer's rotation written with complex numbers: pair (x_2i, x_2i+1) is z = x_2i + i·x_2i+1,
    turned by multiplying with e^{i·t·θ_i}, θ_i = base^(−2i/d)."""
    d = X.shape[-1]
    z = X[..., 0::2] + 1j * X[..., 1::2]
    theta = base ** (-2.0 * np.arange(d // 2) / d)
    turned = z * np.exp(1j * np.asarray(positions, dtype=float)[:, None] * theta)
    out = np.empty(X.shape)
    out[..., 0::2], out[..., 1::2] = turned.real, turned.imag
    return out


# ---- sinusoids -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("T", "d_model", "base"), [(1, 2, 10000.0), (7, 6, 10000.0), (50, 16, 10000.0), (9, 4, 100.0)])
def test_sinusoid_table_is_the_papers_formula(T, d_model, base):
    np.testing.assert_allclose(sinusoidal_positions(T, d_model, base), paper_table(T, d_model, base), rtol=0, atol=1e-13)


def test_sinusoid_table_by_hand():
    """d_model = 4: ω_0 = 1 and ω_1 = 10000^(−2/4) = 1/100. Row 0 is [sin 0, cos 0, sin 0, cos 0] = [0, 1, 0, 1];
    row 1 is [sin 1, cos 1, sin 0.01, cos 0.01]."""
    PE = sinusoidal_positions(2, 4)
    np.testing.assert_array_equal(PE[0], [0.0, 1.0, 0.0, 1.0])
    np.testing.assert_allclose(PE[1], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)], rtol=1e-15)


def test_each_sinusoid_pair_has_length_one_and_the_dot_product_depends_on_the_offset_only():
    """PE[t]·PE[t+k] = Σ_i sin(tω)sin((t+k)ω) + cos(tω)cos((t+k)ω) = Σ_i cos(kω_i): the same for every t."""
    PE = sinusoidal_positions(40, 8)
    np.testing.assert_allclose(PE[:, 0::2] ** 2 + PE[:, 1::2] ** 2, 1.0, atol=1e-15)
    omega = 10000.0 ** (-np.arange(0, 8, 2) / 8)
    for k in (0, 1, 5, 17):
        products = np.einsum("td,td->t", PE[: 40 - k], PE[k:])
        np.testing.assert_allclose(products, np.cos(k * omega).sum(), atol=1e-12)


@given(st.integers(-30, 30), st.sampled_from([2, 4, 6, 16]), st.sampled_from([10000.0, 50.0]))
def test_a_shift_of_k_positions_is_one_linear_map(k, d_model, base):
    PE = sinusoidal_positions(64, d_model, base)
    M = sinusoid_shift(k, d_model, base)
    t = np.arange(max(0, -k), min(64, 64 - k))  # rows t with t + k inside the table
    np.testing.assert_allclose(PE[t] @ M, PE[t + k], rtol=0, atol=1e-12)
    np.testing.assert_allclose(M @ M.T, np.eye(d_model), atol=1e-14)  # a rotation: orthogonal


def test_the_shift_maps_compose_and_are_block_diagonal():
    """M_a·M_b = M_{a+b}, M_0 = I, a fractional shift works, and only the 2×2 blocks of the pairs are non-zero."""
    np.testing.assert_array_equal(sinusoid_shift(0, 6), np.eye(6))
    np.testing.assert_allclose(sinusoid_shift(3, 6) @ sinusoid_shift(-5.5, 6), sinusoid_shift(-2.5, 6), atol=1e-14)
    blocks = np.kron(np.eye(3), np.ones((2, 2))).astype(bool)
    assert (sinusoid_shift(7, 6)[~blocks] == 0).all()
    # d_model = 2, k = 1, ω = 1: [[cos 1, −sin 1], [sin 1, cos 1]] acting on the row [sin t, cos t].
    c, s = math.cos(1), math.sin(1)
    np.testing.assert_allclose(sinusoid_shift(1, 2), [[c, -s], [s, c]], rtol=1e-15)


# ---- RoPE ----------------------------------------------------------------------------------------


def test_rope_angles_by_hand():
    """d_k = 4: ω = [1, 10000^(−1/2)] = [1, 0.01]; θ_{t,i} = t·ω_i."""
    np.testing.assert_allclose(rope_angles([0, 1, 2.5], 4), [[0, 0], [1, 0.01], [2.5, 0.025]], rtol=1e-14)
    assert rope_angles(np.zeros((2, 3)), 6).shape == (2, 3, 3)


def test_rope_turns_a_pair_counterclockwise_by_hand():
    """d_k = 2 (ω = 1): x = (1, 0) at position π/2 becomes (0, 1), a quarter turn counterclockwise;
    at position π it becomes (−1, 0)."""
    got = apply_rope([[1.0, 0.0], [1.0, 0.0]], positions=[math.pi / 2, math.pi])
    np.testing.assert_allclose(got, [[0.0, 1.0], [-1.0, 0.0]], atol=1e-15)


def test_rope_agrees_with_complex_numbers_and_defaults_to_row_numbers(rng):
    X = rng.normal(size=(6, 8))
    np.testing.assert_allclose(apply_rope(X), complex_rope(X, np.arange(6)), rtol=0, atol=1e-14)
    t = np.array([3.0, 0.5, 100.0, 7.0, 2.0, 64.25])
    np.testing.assert_allclose(apply_rope(X, t, base=500.0), complex_rope(X, t, base=500.0), rtol=0, atol=1e-13)
    np.testing.assert_array_equal(apply_rope(X, np.zeros(6)), X)  # position 0: no turn at all


def test_rope_over_batch_axes(rng):
    """One row of positions for every head, or one per sentence (B, 1, T) against X (B, H, T, d_k)."""
    X = rng.normal(size=(2, 3, 5, 4))
    t = np.arange(5) + 10
    per_matrix = np.stack([np.stack([complex_rope(X[b, h], t) for h in range(3)]) for b in range(2)])
    np.testing.assert_allclose(apply_rope(X, t), per_matrix, atol=1e-14)
    t_b = np.array([np.arange(5), np.arange(5) + 7])[:, None, :]  # (B, 1, T)
    got = apply_rope(X, t_b)
    np.testing.assert_allclose(got[1, 2], complex_rope(X[1, 2], np.arange(5) + 7), atol=1e-14)
    np.testing.assert_allclose(got[0, 1], complex_rope(X[0, 1], np.arange(5)), atol=1e-14)


@st.composite
def rope_problems(draw):
    d_k = 2 * draw(st.integers(1, 8))
    T_q, T_k = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    Q, K = rng.normal(size=(T_q, d_k)), rng.normal(size=(T_k, d_k))
    q_t, k_t = rng.integers(0, 64, size=T_q), rng.integers(0, 64, size=T_k)
    return Q, K, q_t, k_t, draw(st.integers(-64, 64))


@given(rope_problems())
def test_rope_scores_depend_on_i_minus_j_only(problem):
    """Shift every query and key by the same s: the scores do not move (to 1e-12)."""
    Q, K, q_t, k_t, s = problem
    np.testing.assert_allclose(rope_scores(Q, K, q_t + s, k_t + s), rope_scores(Q, K, q_t, k_t), rtol=0, atol=1e-12)


@given(rope_problems())
def test_rope_keeps_lengths_and_agrees_with_complex_numbers(problem):
    Q, _, q_t, _, _ = problem
    rotated = apply_rope(Q, q_t)
    np.testing.assert_allclose(np.linalg.norm(rotated, axis=-1), np.linalg.norm(Q, axis=-1), rtol=1e-13)
    np.testing.assert_allclose(rotated, complex_rope(Q, q_t), rtol=0, atol=1e-13)


def test_rope_scores_are_the_products_of_the_rotated_rows_and_one_query_row_is_a_toeplitz_matrix(rng):
    Q, K = rng.normal(size=(2, 4, 6)), rng.normal(size=(2, 5, 6))
    want = apply_rope(Q, [1, 2, 3, 4]) @ np.swapaxes(apply_rope(K, [0, 2, 4, 6, 8]), -1, -2)
    np.testing.assert_allclose(rope_scores(Q, K, [1, 2, 3, 4], [0, 2, 4, 6, 8]), want, atol=1e-14)
    # The same q at every position and the same k at every position: S[i, j] depends on i − j, so every
    # diagonal of S is constant.
    q, k = np.tile(rng.normal(size=6), (7, 1)), np.tile(rng.normal(size=6), (7, 1))
    S = rope_scores(q, k)
    np.testing.assert_allclose(S[1:, 1:], S[:-1, :-1], atol=1e-13)
    assert not np.allclose(S[0, 0], S[0, 3])  # but the distance does matter


def test_rope_scores_without_rotation_are_the_plain_scores(rng):
    Q, K = rng.normal(size=(3, 4)), rng.normal(size=(5, 4))
    np.testing.assert_allclose(rope_scores(Q, K, np.zeros(3), np.zeros(5)), attnlib.scores(Q, K, scale=False), atol=1e-14)


# ---- ALiBi ---------------------------------------------------------------------------------------


def test_alibi_slopes_for_eight_heads_are_one_half_to_one_over_256():
    np.testing.assert_array_equal(alibi_slopes(8), [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256])
    np.testing.assert_array_equal(alibi_slopes(1), [1 / 256])


@pytest.mark.parametrize("n", [1, 2, 4, 16, 32])
def test_alibi_slopes_for_a_power_of_two_are_geometric_starting_at_their_ratio(n):
    """Press et al. 2022, §3: the sequence starts at 2^(−8/n) and that is also its ratio; it ends at 1/256."""
    m = alibi_slopes(n)
    np.testing.assert_allclose(m, (2.0 ** (-8 / n)) ** np.arange(1, n + 1), rtol=1e-14)
    assert m[-1] == pytest.approx(1 / 256, rel=1e-14)


@pytest.mark.parametrize(("n", "want"), [
    (3, [1 / 16, 1 / 256, 1 / 4]),
    (6, [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8]),
    (12, [2 ** (-8 * h / 8) for h in range(1, 9)] + [2 ** (-8 * h / 16) for h in (1, 3, 5, 7)]),
])
def test_alibi_slopes_for_other_counts_take_the_odd_heads_of_the_next_power_of_two(n, want):
    m = alibi_slopes(n)
    np.testing.assert_allclose(m, want, rtol=1e-14)
    assert len(set(m.tolist())) == n and (m > 0).all()


def test_alibi_bias_by_hand():
    """Slope 1/2, T = 3: −½·(i − j) is 0 on the diagonal, −½ one step back, −1 two steps back, and
    +½·(j − i) after the query (blocked afterwards by the causal mask)."""
    want = [[0.0, 0.5, 1.0], [-0.5, 0.0, 0.5], [-1.0, -0.5, 0.0]]
    np.testing.assert_array_equal(alibi_bias(3, slopes=0.5), want)
    assert not np.signbit(np.diagonal(alibi_bias(3, slopes=0.5))).any()  # +0, never −0 in a printed table
    np.testing.assert_array_equal(alibi_bias(2, 4), [[0, 1, 2, 3], [-1, 0, 1, 2]])  # default slope 1, T_k ≠ T_q


def test_alibi_bias_has_one_matrix_per_head():
    m = alibi_slopes(4)
    bias = alibi_bias(5, slopes=m)
    assert bias.shape == (4, 5, 5)
    for h in range(4):
        np.testing.assert_array_equal(bias[h], alibi_bias(5, slopes=m[h]))
    np.testing.assert_array_equal(alibi_bias(3, slopes=[0.0]), np.zeros((1, 3, 3)))


def test_alibi_with_the_causal_mask_gives_weights_that_fall_with_the_distance():
    """Equal scores (Q = K = 0) and slope ln 2: row 2 sees keys 0, 1, 2 with biases −2 ln 2, −ln 2, 0,
    so its weights are ∝ [1/4, 1/2, 1] = [1/7, 2/7, 4/7]; the future gets exactly 0."""
    T = 3
    scores = attnlib.scores(np.zeros((T, 2)), np.zeros((T, 2)))
    weights = attnlib.softmax(scores + alibi_bias(T, slopes=math.log(2)) + additive_mask(causal_mask(T)))
    np.testing.assert_allclose(weights[2], [1 / 7, 2 / 7, 4 / 7], rtol=1e-14)
    np.testing.assert_allclose(weights[1], [1 / 3, 2 / 3, 0.0], rtol=1e-14)
    assert (weights[np.triu_indices(T, 1)] == 0.0).all()


# ---- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: sinusoidal_positions(4, 5), ValueError, r"d_model must be even: the features come in pairs .*got d_model=5"),
    (lambda: sinusoidal_positions(0, 4), ValueError, r"T \(number of positions\) must be >= 1; got 0"),
    (lambda: sinusoidal_positions(4.0, 4), TypeError, r"T \(number of positions\) must be a whole number"),
    (lambda: sinusoidal_positions(4, 4, base=1.0), ValueError, r"base must be a finite number > 1; got 1.0"),
    (lambda: sinusoid_shift(np.inf, 4), ValueError, r"k must be a finite number; got inf"),
    (lambda: sinusoid_shift(True, 4), TypeError, r"k must be a real number; got True \(bool\)"),
    (lambda: sinusoid_shift("3", 4), TypeError, r"k must be a real number; got '3' \(str\)"),
    (lambda: rope_angles(3, 4), ValueError, r"positions must have shape \(\.\.\., T\): at least 1 axes"),
    (lambda: rope_angles([0, np.nan], 4), ValueError, r"positions contains NaN"),
    (lambda: rope_angles([0, 1], 3), ValueError, r"d_k must be even"),
    (lambda: apply_rope(np.ones((3, 5))), ValueError, r"d_k must be even: .*got d_k=5"),
    (lambda: apply_rope(np.ones(4)), ValueError, r"X must have shape \(\.\.\., T, d_k\)"),
    (lambda: apply_rope(np.ones((3, 4)), [0, 1]), ValueError,
     r"positions must give one position per row of X: expected shape \(T,\) = \(3,\) or \(\.\.\., 3\) fitting X \(3, 4\); got \(2,\)"),
    (lambda: apply_rope(np.ones((3, 4)), np.zeros((2, 3))), ValueError, r"positions must give one position per row of X"),
    (lambda: apply_rope(np.ones((3, 4)), np.array([True, False, True])), TypeError, r"positions must be an array of real numbers"),
    (lambda: apply_rope([[1.0, np.inf]]), ValueError, r"X contains an infinite value"),
    (lambda: rope_scores(np.ones((2, 4)), np.ones((3, 6))), ValueError, r"K has d_k=6 but Q has d_k=4"),
    (lambda: rope_scores(np.ones((2, 3)), np.ones((3, 3))), ValueError, r"d_k must be even"),
    (lambda: rope_scores(np.ones((2, 4)), np.ones((3, 4)), k_positions=[0, 1]), ValueError,
     r"k_positions must give one position per row of K: expected shape \(T,\) = \(3,\)"),
    (lambda: alibi_slopes(0), ValueError, r"n_heads \(number of heads\) must be >= 1; got 0"),
    (lambda: alibi_bias(3, slopes=[[0.5]]), ValueError, r"slopes must be one number or one per head, shape \(\) or \(n_heads,\); got shape \(1, 1\)"),
    (lambda: alibi_bias(3, slopes=[0.5, -0.25]), ValueError, r"slopes must be >= 0 .*got -0.25"),
    (lambda: alibi_bias(3, slopes=np.nan), ValueError, r"slopes contains NaN"),
    (lambda: alibi_bias(3, 2.5), TypeError, r"T_k \(number of keys\) must be a whole number"),
    (lambda: alibi_bias(0), ValueError, r"T_q \(number of queries\) must be >= 1"),
])
def test_bad_input_is_named(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_the_messages_are_translated(zh_hans):
    with pytest.raises(ValueError, match=r"d_model 应当是偶数"):
        sinusoidal_positions(4, 5)
    with pytest.raises(ValueError, match=r"positions 应当为 X 的每个行给出一个位置"):
        apply_rope(np.ones((3, 4)), [0, 1])
