"""attnlib.exercises.attention_at_scale (notebook 11): each typical mistake is named, the references agree with
attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.exercises import attention_at_scale
from tests.exercise_tables import exercise_tests


def online(x, block_size, m_start=-np.inf, flip=1.0, rescale=True):
    m, l = m_start, 0.0
    for start in range(0, len(x), block_size):
        block = x[start:start + block_size]
        m_new = max(m, block.max())
        if rescale:
            l = l * np.exp(flip * (m - m_new))
        l = l + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / l


def softmax_of_each_block(x, block_size):
    out = []
    for start in range(0, len(x), block_size):
        block = x[start:start + block_size]
        e = np.exp(block - block.max())
        out.append(e / e.sum())
    return np.concatenate(out)


def update(m, l, acc, S_tile, V_tile, rescale_acc=True, rescale_l=True, subtract_max=True, divide=False):
    m_new = np.maximum(m, S_tile.max(axis=1))
    alpha = np.exp(m - m_new)
    P = np.exp(S_tile - m_new[:, None]) if subtract_max else np.exp(S_tile)
    l_new = (alpha * l if rescale_l else l) + P.sum(axis=1)
    acc_new = (alpha[:, None] * acc if rescale_acc else acc) + P @ V_tile
    return m_new, l_new, acc_new / l_new[:, None] if divide else acc_new


def cache_bytes(model, context, bits, heads="n_kv_heads", two=2, layers=True, per_byte=8):
    n_layers = model["n_layers"] if layers else 1
    return two * n_layers * context * model[heads] * model["d_head"] * bits / per_byte


WRONG = {
    "check_online_softmax": {
        "not_rescaled": lambda x, block_size: online(x, block_size, rescale=False),
        "per_block": softmax_of_each_block,
        "no_max": lambda x, block_size: np.exp(x) / np.exp(x).sum(),
        "initial_zero": lambda x, block_size: online(x, block_size, m_start=0.0),
        "wrong_sign": lambda x, block_size: online(x, block_size, flip=-1.0),
    },
    "check_tile_update": {
        "acc_not_rescaled": lambda m, l, acc, S_tile, V_tile: update(m, l, acc, S_tile, V_tile, rescale_acc=False),
        "l_not_rescaled": lambda m, l, acc, S_tile, V_tile: update(m, l, acc, S_tile, V_tile, rescale_l=False),
        "raw_exp": lambda m, l, acc, S_tile, V_tile: update(m, l, acc, S_tile, V_tile, subtract_max=False),
        "normalised": lambda m, l, acc, S_tile, V_tile: update(m, l, acc, S_tile, V_tile, divide=True),
    },
    "check_kv_head_map": {
        "interleaved": lambda n_heads, n_kv_heads: np.arange(n_heads) % n_kv_heads,
        "group_size": lambda n_heads, n_kv_heads: np.arange(n_heads) // n_kv_heads,
        "inverse": lambda n_heads, n_kv_heads: np.arange(n_heads).reshape(n_kv_heads, -1),
    },
    "check_kv_cache_bytes": {
        "k_only": lambda model, context, bits: cache_bytes(model, context, bits, two=1),
        "n_heads": lambda model, context, bits: 2 * model["n_layers"] * context * model["d_model"] * bits // 8,
        "no_layers": lambda model, context, bits: cache_bytes(model, context, bits, layers=False),
        "bits": lambda model, context, bits: cache_bytes(model, context, bits, per_byte=1),
    },
}


def tile_update_with_tiled_steps(m, l, acc, S_tile, V_tile):
    """The same update as one step of attnlib's kernel: a (B_r, B_c) tile of online softmax per row."""
    from attnlib.core.tiling import _update

    m_new, l_new, alpha, P = _update(m, l, S_tile)
    return m_new, l_new, alpha[:, None] * acc + P @ V_tile


LIBRARY = {
    "check_online_softmax": attnlib.online_softmax,
    "check_tile_update": tile_update_with_tiled_steps,
    "check_kv_head_map": attnlib.kv_head_map,
    "check_kv_cache_bytes": lambda model, context, bits: attnlib.kv_cache_bytes(
        model["n_layers"], context, model["n_kv_heads"], model["d_head"], bytes_per_value=1) * bits // 8,
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(attention_at_scale, WRONG, LIBRARY)


def test_a_maximum_that_starts_at_zero_is_right_on_ordinary_scores_and_caught_on_very_negative_ones():
    """m = 0 at the start changes nothing in exact arithmetic; the hidden inputs must still reveal it."""
    wrong = WRONG["check_online_softmax"]["initial_zero"]
    x, b = attention_at_scale.ONLINE_SOFTMAX.inputs[0]
    np.testing.assert_allclose(wrong(x, b), attnlib.softmax(x), atol=1e-12)
    assert any(np.all(x < -745) for x, _ in attention_at_scale.ONLINE_SOFTMAX.inputs)
    assert attention_at_scale.check_online_softmax(wrong).cause == "initial_zero"


def test_plain_softmax_is_accepted_because_the_checker_checks_results():
    def plain(x, block_size):
        e = np.exp(x - x.max())
        return e / e.sum()

    assert attention_at_scale.check_online_softmax(plain)


def test_the_hidden_inputs_make_the_rescaling_matter():
    """Some block raises the running maximum (else a missing or inverted factor would pass)."""
    for x, b in attention_at_scale.ONLINE_SOFTMAX.inputs[:2]:
        m, _ = attnlib.online_softmax_trace(x, b)
        assert np.any(np.diff(m) > 0)
    m, l, acc, S, V = attention_at_scale.TILE_UPDATE.inputs[0]
    assert np.any(S.max(axis=1) > m) and np.any(S.max(axis=1) <= m) and np.all(acc != 0)


def test_group_size_and_number_of_groups_differ_in_the_hidden_head_counts():
    for n_heads, n_kv in attention_at_scale.KV_HEAD_MAP.inputs[:2]:
        assert 1 < n_kv < n_heads and n_heads // n_kv != n_kv


def test_each_cache_mistake_gives_its_own_number_on_the_first_hidden_model():
    model, context, bits = attention_at_scale.KV_CACHE_BYTES.inputs[0]
    right = attention_at_scale.solution_kv_cache_bytes(model, context, bits)
    ratios = {key: answer(model, context, bits) / right for key, answer in WRONG["check_kv_cache_bytes"].items()}
    assert len(set(ratios.values()) | {1.0}) == len(ratios) + 1, ratios


def test_a_float_head_map_is_told_to_be_whole_numbers():
    verdict = attention_at_scale.check_kv_head_map(lambda n, k: np.arange(n) // (n / k))
    assert not verdict and verdict.cause == "dtype", verdict.message


def test_the_cache_diagnoses_name_the_head_counts_in_chinese(zh_hans):
    verdict = attention_at_scale.check_kv_cache_bytes(WRONG["check_kv_cache_bytes"]["n_heads"])
    assert verdict.cause == "n_heads" and "32" in verdict.message and "8" in verdict.message
    assert "{" not in verdict.message
