"""The exercises of notebook 11 (attention at scale): online softmax, one tile's update, the GQA head map,
the bytes of the KV cache.

The hidden inputs are chosen so that each mistake shows: the maximum grows from one block to the next
(a sum that is not rescaled gives other numbers), one input has huge scores (an exp without the maximum
overflows) and one only very negative ones (a running maximum that starts at 0 instead of −∞ underflows
to 0/0: with ordinary scores that mistake gives the right numbers). The head counts are grouped-query
ones, n_kv_heads strictly between 1 and n_heads, so that a map or a cache size that mixes up the two
counts gives other numbers; in the first cache the mistakes give five different numbers (factors 1/2, 4,
1/32 and 8).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import N_, tr
from .pipeline import Exercise, Mistake, OneOf, checkers

__all__ = ["check_kv_cache_bytes", "check_kv_head_map", "check_online_softmax", "check_tile_update"]


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline).


def solution_online_softmax(x, block_size):
    m, l = -np.inf, 0.0  # running maximum and running sum of e^(x − m), before any block
    for start in range(0, len(x), block_size):
        block = x[start:start + block_size]
        m_new = max(m, block.max())
        l = l * np.exp(m - m_new) + np.exp(block - m_new).sum()  # the old terms moved to the new maximum
        m = m_new
    return np.exp(x - m) / l


def solution_tile_update(m, l, acc, S_tile, V_tile):
    m_new = np.maximum(m, S_tile.max(axis=1))  # each row's largest score so far
    alpha = np.exp(m - m_new)  # e^(m_old − m_new): rescales everything summed before this tile
    P = np.exp(S_tile - m_new[:, None])  # this tile's terms, relative to the new maximum
    return m_new, alpha * l + P.sum(axis=1), alpha[:, None] * acc + P @ V_tile


def solution_kv_head_map(n_heads, n_kv_heads):
    group_size = n_heads // n_kv_heads  # query heads per K/V head
    return np.arange(n_heads) // group_size  # heads 0 … group_size−1 read K/V head 0, and so on


def solution_kv_cache_bytes(model, context, bits):
    values = 2 * model["n_layers"] * context * model["n_kv_heads"] * model["d_head"]  # K and V, every layer
    return values * bits // 8  # 8 bits to a byte


# ---- online softmax ------------------------------------------------------------------------------


def _online(x: np.ndarray, b: int, m0: float = -np.inf, sign: float = 1.0, rescale: bool = True,
            first_block_max: bool = False) -> np.ndarray:
    """Online softmax with one thing changed: the first m, the sign of the factor, or no factor."""
    m, l = (x[:b].max() if first_block_max else m0), 0.0
    for start in range(0, len(x), b):
        block = x[start:start + b]
        m_new = max(m, block.max())
        factor = np.exp(sign * (m - m_new)) if rescale else 1.0
        l = l * factor + np.exp(block - m_new).sum()
        m = m_new
    return np.exp(x - m) / l


def _per_block(x: np.ndarray, b: int) -> np.ndarray:
    parts = [x[s:s + b] for s in range(0, len(x), b)]
    return np.concatenate([np.exp(p - p.max()) / np.exp(p - p.max()).sum() for p in parts])


ONLINE_SOFTMAX = Exercise(
    name="check_online_softmax",
    task="``my_online_softmax(x, block_size)``: softmax of x, reading it one block at a time with a running "
    "maximum m and a running sum l",
    shapes="x (n,), block_size -> weights (n,)",
    reference=solution_online_softmax,
    # The maximum grows between blocks (1, 2); huge scores (3); only very negative scores (4).
    inputs=[
        (np.array([0.5, -1.0, 2.0, 0.3, 3.0, -0.5, 1.5]), 3),
        (np.array([-2.0, -0.5, 0.1, 1.2, 0.7, 2.5, -1.1, 3.1, 0.0, 4.0]), 4),
        (np.array([800.0, 805.0, 790.0, 810.0, 799.0]), 2),
        (np.array([-1000.0, -1002.0, -998.0, -1001.0, -999.0]), 2),
    ],
    shape="(n,)",
    facts=lambda x, b: {"n": len(x), "block_size": b, "largest": f"{x.max():g}",
                        "label": N_("{n} scores, block_size={block_size}, largest {largest}")},
    mistakes=[
        Mistake(
            "not_rescaled",
            N_(
                "your running sum is not rescaled: when a block raises the maximum from m_old to m_new, the "
                "terms already in l were e^(x − m_old) and must become e^(x − m_new). Multiply l by "
                "e^(m_old − m_new) before adding the block: l = l·e^(m_old − m_new) + Σ e^(x − m_new)."
            ),
            wrong=lambda x, b: _online(x, b, rescale=False),
            watch=N_("adding a block's sum without rescaling the running sum"),
        ),
        Mistake(
            "per_block",
            N_(
                "each of your blocks sums to 1 on its own: that is a softmax per block. The blocks share one "
                "denominator, the sum over the whole row: keep a running sum across the blocks and divide "
                "once, at the end."
            ),
            wrong=_per_block,
            spotted=lambda got, x, b: len(x) > b,
            watch=N_("normalising each block on its own"),
        ),
        Mistake(
            "no_max",
            N_(
                "e^x overflows: your scores reach {largest}, and e^710 is already infinite in float64 "
                "(inf/inf = NaN). Subtract the running maximum inside every exp, e^(x − m), as 02's max "
                "trick does."
            ),
            wrong=lambda x, b: np.exp(x) / np.exp(x).sum(),
            spotted=lambda got, x, b: x.max() > 709,
            watch=N_("exp of the raw scores, with no maximum subtracted"),
        ),
        Mistake(
            "initial_zero",
            N_(
                "your running maximum starts at 0 instead of −∞. With these scores (all far below 0) m "
                "stays 0, every e^(x − 0) underflows to 0 and the weights are 0/0. Start with m = −∞ "
                "(-np.inf): the first block's maximum then replaces it, and e^(−∞) = 0 clears the empty sum."
            ),
            wrong=lambda x, b: _online(x, b, m0=0.0),
            watch=N_("starting the running maximum at 0 instead of −∞"),
        ),
        Mistake(
            "wrong_sign",
            N_(
                "your rescaling factor has the wrong sign, e^(m_new − m_old): it grows the old sum instead "
                "of shrinking it (and with m_old = −∞ it is ∞·0 = NaN). The old terms e^(x − m_old) become "
                "e^(x − m_new) when multiplied by e^(m_old − m_new), a number ≤ 1."
            ),
            wrong=lambda x, b: OneOf(start=_online(x, b, sign=-1.0),
                                     first_block=_online(x, b, sign=-1.0, first_block_max=True)),
            watch=N_("rescaling by e^(m_new − m_old) instead of e^(m_old − m_new)"),
        ),
    ],
    success=N_("right: one pass over the blocks, and the same weights as softmax of the whole row."),
)


# ---- one tile of tiled attention -----------------------------------------------------------------


def _tile_inputs() -> list[tuple[np.ndarray, ...]]:
    """(m, l, acc, S_tile, V_tile): a later tile that raises some rows' maximum but not others', a first
    tile (m = −∞, nothing summed yet), and a tile with a masked score."""
    rng = np.random.default_rng(1101)
    later_m = np.array([0.5, 2.0, -0.3])
    later_S = np.array([[1.5, -0.2, 0.9, 0.1], [0.3, 1.1, -0.8, 0.6], [0.2, -1.0, 1.7, -0.4]])
    first_S = rng.normal(size=(2, 3))
    masked_S = np.array([[0.4, -np.inf, 1.9], [2.2, 0.7, -np.inf]])
    return [
        (later_m, np.array([1.3, 2.1, 0.8]), rng.normal(size=(3, 2)), later_S, rng.normal(size=(4, 2))),
        (np.full(2, -np.inf), np.zeros(2), np.zeros((2, 3)), first_S, rng.normal(size=(3, 3))),
        (np.array([1.0, 0.5]), np.array([1.6, 1.2]), rng.normal(size=(2, 2)), masked_S,
         rng.normal(size=(3, 2))),
    ]


def _tile(m, l, acc, S, V, *, scale_acc=True, scale_l=True, subtract=True):
    """One tile's update with one thing changed: acc or l not rescaled, or no maximum subtracted."""
    m_new = np.maximum(m, S.max(axis=1))
    alpha = np.exp(m - m_new)
    P = np.exp(S - m_new[:, None]) if subtract else np.exp(S)
    new_l = (alpha * l if scale_l else l) + P.sum(axis=1)
    return m_new, new_l, (alpha[:, None] * acc if scale_acc else acc) + P @ V


def _normalised(m, l, acc, S, V) -> OneOf:
    m_new, new_l, new_acc = _tile(m, l, acc, S, V)
    P = np.exp(S - m_new[:, None])
    alpha = np.exp(m - m_new)
    tile_softmax = P / P.sum(axis=1)[:, None]
    return OneOf(divided=new_acc / new_l[:, None], tile=alpha[:, None] * acc + tile_softmax @ V)


TILE_UPDATE = Exercise(
    name="check_tile_update",
    task="``my_update(m, l, acc, S_tile, V_tile)``: one tile of tiled attention, the running maximum m, the "
    "running sum l and the unnormalised output acc of each query row after the tile",
    shapes="m (B_r,), l (B_r,), acc (B_r, d_v), S_tile (B_r, B_c), V_tile (B_c, d_v) -> m, l, acc",
    reference=solution_tile_update,
    inputs=_tile_inputs(),
    shape="(m (B_r,), l (B_r,), acc (B_r, d_v))",
    facts=lambda m, l, acc, S, V: {
        "B_r": S.shape[0], "B_c": S.shape[1], "d_v": V.shape[1],
        "label": N_("a tile of {B_r} query rows and {B_c} keys, d_v={d_v}"),
    },
    mistakes=[
        Mistake(
            "acc_not_rescaled",
            N_(
                "your acc is not rescaled: where a row's maximum grows, the output summed so far was "
                "weighted by e^(s − m_old), so multiply it by α = e^(m_old − m_new) before adding P·V_tile, "
                "as for l."
            ),
            wrong=lambda *args: _tile(*args, scale_acc=False)[2],
            part=2,
            watch=N_("adding P·V without rescaling the output summed so far"),
        ),
        Mistake(
            "l_not_rescaled",
            N_(
                "your l is not rescaled: where a row's maximum grows, multiply the old sum by "
                "α = e^(m_old − m_new) before adding this tile's Σ e^(s − m_new), as for acc."
            ),
            wrong=lambda *args: _tile(*args, scale_l=False)[1],
            part=1,
            watch=N_("adding the tile's sum without rescaling l"),
        ),
        Mistake(
            "raw_exp",
            N_(
                "you took e^s of the raw scores: subtract each row's new maximum, P = e^(S − m_new). With "
                "large scores e^s overflows, and acc and l must be relative to the same m you return."
            ),
            wrong=lambda *args: _tile(*args, subtract=False),
            watch=N_("exp of the raw scores, without the running maximum"),
        ),
        Mistake(
            "normalised",
            N_(
                "your acc is already divided: acc stays unnormalised, Σ e^(s − m)·v, until the last tile of "
                "the row, where out = acc / l divides once. Dividing inside a tile makes the next tile's "
                "rescaling wrong."
            ),
            wrong=_normalised,
            part=2,
            watch=N_("normalising the output inside each tile"),
        ),
    ],
    success=N_("right: α = e^(m_old − m_new) rescales l and acc together, and acc waits for its division."),
)


# ---- the GQA head map ----------------------------------------------------------------------------


def _groups(n_heads: int, n_kv_heads: int) -> np.ndarray:
    """The query heads of each K/V head: row g holds the heads of group g."""
    return np.arange(n_heads).reshape(n_kv_heads, n_heads // n_kv_heads)


KV_HEAD_MAP = Exercise(
    name="check_kv_head_map",
    task="``my_map(n_heads, n_kv_heads)``: for each query head h, the K/V head it reads in grouped-query "
    "attention (consecutive heads share one)",
    shapes="n_heads, n_kv_heads -> (n_heads,)",
    reference=solution_kv_head_map,
    inputs=[(8, 2), (12, 3), (6, 1), (4, 4)],
    shape="(n_heads,)",
    dtype="i",
    facts=lambda n_heads, n_kv: {"n_heads": n_heads, "n_kv_heads": n_kv, "group": n_heads // n_kv,
                                 "label": N_("n_heads={n_heads}, n_kv_heads={n_kv_heads}")},
    mistakes=[
        Mistake(
            "interleaved",
            N_(
                "your heads take turns, h % n_kv_heads: 0, 1, 0, 1 … The groups are consecutive: the first "
                "{group} query heads read K/V head 0, the next {group} K/V head 1, so h // {group}, with "
                "{group} = n_heads / n_kv_heads heads per group."
            ),
            wrong=lambda n, k: np.arange(n) % k,
            watch=N_("taking turns, h % n_kv_heads, instead of consecutive groups"),
        ),
        Mistake(
            "group_size",
            N_(
                "you divided by n_kv_heads = {n_kv_heads}: that is the number of groups, not their size. "
                "Each group holds n_heads / n_kv_heads = {group} query heads, so head h reads K/V head "
                "h // {group}."
            ),
            wrong=lambda n, k: np.arange(n) // k,
            watch=N_("dividing h by the number of groups instead of their size"),
        ),
        Mistake(
            "inverse",
            N_(
                "you listed the query heads of each K/V head, shape {got_shape}: the map goes the other way, "
                "one entry per query head (shape ({n_heads},)) holding the K/V head it reads."
            ),
            wrong=lambda n, k: OneOf(rows=_groups(n, k), columns=_groups(n, k).T),
            watch=N_("listing each K/V head's query heads instead of the reverse"),
        ),
    ],
    success=N_("right: each K/V head serves n_heads / n_kv_heads consecutive query heads."),
)


# ---- the bytes of the KV cache -------------------------------------------------------------------


def _model(name: str, n_layers: int, n_heads: int, n_kv_heads: int, d_head: int) -> dict[str, Any]:
    return {"name": name, "n_layers": n_layers, "d_model": n_heads * d_head, "n_heads": n_heads,
            "n_kv_heads": n_kv_heads, "d_head": d_head}


def _cache(model: dict[str, Any], context: int, bits: int, *, kv: int = 2, heads: str = "n_kv_heads",
           layers: bool = True, per: int = 8) -> float:
    """The cache's size with one thing changed: K only, the wrong head count, no layers, bits."""
    return kv * (model["n_layers"] if layers else 1) * context * model[heads] * model["d_head"] * bits / per


KV_CACHE_BYTES = Exercise(
    name="check_kv_cache_bytes",
    task="``my_cache_bytes(model, context, bits)``: the bytes of one sequence's KV cache for a model (a dict "
    "with n_layers, d_model, n_heads, n_kv_heads, d_head), context cached tokens and values of `bits` bits",
    shapes="model, context T, bits -> bytes ()",
    reference=solution_kv_cache_bytes,
    inputs=[
        (_model(N_("GQA, 32 layers"), 32, 32, 8, 128), 8192, 16),
        (_model(N_("GQA, 80 layers"), 80, 64, 8, 128), 4096, 8),
        (_model(N_("MQA, 12 layers"), 12, 12, 1, 64), 1024, 32),
        (_model(N_("multi-head, 6 layers"), 6, 12, 12, 32), 512, 4),
    ],
    shape="()",
    facts=lambda model, context, bits: {
        "name": tr(model["name"]), "context": context, "bits": bits, "n_heads": model["n_heads"],
        "n_kv_heads": model["n_kv_heads"], "n_layers": model["n_layers"],
        "label": N_("{name}, T={context}, {bits}-bit values"),
    },
    mistakes=[
        Mistake(
            "k_only",
            N_("your cache holds the keys only: every token keeps a key and a value in every layer, so the "
               "count starts with 2 · n_layers · T …"),
            wrong=lambda model, T, bits: _cache(model, T, bits, kv=1),
            watch=N_("counting the keys but not the values"),
        ),
        Mistake(
            "n_heads",
            N_(
                "you counted n_heads = {n_heads} heads (or d_model): the cache holds the K/V heads only, "
                "n_kv_heads = {n_kv_heads}, each d_head wide. Sharing them is what makes a GQA cache "
                "n_heads / n_kv_heads times smaller."
            ),
            wrong=lambda model, T, bits: _cache(model, T, bits, heads="n_heads"),
            spotted=lambda got, model, T, bits: model["n_heads"] != model["n_kv_heads"],
            watch=N_("the number of query heads instead of K/V heads"),
        ),
        Mistake(
            "no_layers",
            N_("your count is one layer's: each of the n_layers = {n_layers} layers keeps its own keys and "
               "values, so multiply by n_layers."),
            wrong=lambda model, T, bits: _cache(model, T, bits, layers=False),
            watch=N_("forgetting that every layer has its own cache"),
        ),
        Mistake(
            "bits",
            N_("your answer is in bits: a value of {bits} bits takes {bits}/8 bytes, so divide by 8."),
            wrong=lambda model, T, bits: _cache(model, T, bits, per=1),
            watch=N_("counting bits instead of bytes"),
        ),
    ],
    success=N_("right: 2 · n_layers · T · n_kv_heads · d_head values, each bits/8 bytes."),
)


EXERCISES = (ONLINE_SOFTMAX, TILE_UPDATE, KV_HEAD_MAP, KV_CACHE_BYTES)
check_online_softmax, check_tile_update, check_kv_head_map, check_kv_cache_bytes = checkers(
    __name__, EXERCISES, taught="11 §Exercises"
)
