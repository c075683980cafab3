"""The key/value cache at scale: its bytes, heads that share keys and values (MQA, GQA), windows.

Generating token t, a decoder attends with one new query to the keys and values of every earlier token
(notebook 09): they are kept, per layer and per K/V head, in the **KV cache**. Its size is

    2 · n_layers · T · n_kv_heads · d_head · bytes_per_value   per sequence

(2: one K and one V). With n_kv_heads = n_heads that is ``2 · n_layers · T · d_model · bytes``.
Three ways to shrink it, each a few lines behind a public function that checks its inputs:

* **fewer K/V heads** (MQA, Shazeer 2019: one; GQA, Ainslie et al. 2023: n_kv_heads groups): query
  head h reads K/V head ``h // (n_heads / n_kv_heads)`` (:func:`kv_head_map`,
  :func:`grouped_query_attention`); the cache shrinks by ``n_heads / n_kv_heads``. A multi-head model
  becomes one by mean-pooling its K and V projections within each group (:func:`share_kv_heads`);
* **a window** (:func:`sliding_window_mask`): each query sees the last ``window`` keys only, so the
  cache never holds more than ``window`` tokens; **attention sinks** (Xiao et al. 2023) keep the
  first few keys as well.

``MODEL_SHAPES`` holds the shapes of a few published models, each with the table it comes from.

Taught in: 11
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..checks import check_positive_int, refuse
from ..i18n import N_
from ..validation import as_float_array, check_finite, check_min_ndim
from .formula import attention

__all__ = [
    "MODEL_SHAPES",
    "grouped_query_attention",
    "kv_cache_bytes",
    "kv_head_map",
    "repeat_kv_heads",
    "sequences_that_fit",
    "share_kv_heads",
    "sliding_window_mask",
]


# The shapes of published models, each number from the table or configuration named in `source`.
# params: the parameter count as the source gives it (rounded where it rounds). window: the sliding
# window of the attention, or None for attention over the whole context.
MODEL_SHAPES: dict[str, dict[str, Any]] = {
    "tiny GPT (09)": dict(
        n_layers=2, d_model=64, n_heads=4, n_kv_heads=4, d_head=16, context=64, params=199_886, window=None,
        source="this series: data/tiny_gpt_tang.npz (its config.* entries; data/README.md)"),
    "all-MiniLM-L6-v2 (08)": dict(
        n_layers=6, d_model=384, n_heads=12, n_kv_heads=12, d_head=32, context=512, params=22_713_216,
        window=None,
        source="the model's published config (BERT: 6 layers, hidden 384, 12 heads, 512 positions, "
               "vocabulary 30522, d_ff 1536); params counted from it, pooler included (22.7M)"),
    "GPT-3 175B": dict(
        n_layers=96, d_model=12288, n_heads=96, n_kv_heads=96, d_head=128, context=2048,
        params=175_000_000_000, window=None,
        source="Brown et al. 2020, Table 2.1 (n_ctx = 2048 tokens, §2.1)"),
    "LLaMA 65B": dict(
        n_layers=80, d_model=8192, n_heads=64, n_kv_heads=64, d_head=128, context=2048,
        params=65_200_000_000, window=None,
        source="Touvron et al. 2023a, Table 2 (65.2B; dimension 8192, 64 heads, 80 layers); context 2k: "
               "Touvron et al. 2023b, Table 1"),
    "Llama 2 70B": dict(
        n_layers=80, d_model=8192, n_heads=64, n_kv_heads=8, d_head=128, context=4096,
        params=70_000_000_000, window=None,
        source="Touvron et al. 2023b, Table 1 (70B, context 4k, GQA) and §A.2.1; 8 K/V heads: the released "
               "configuration (K and V projections of 8 × 128 = 1024 columns)"),
    "Mistral 7B": dict(
        n_layers=32, d_model=4096, n_heads=32, n_kv_heads=8, d_head=128, context=8192,
        params=7_300_000_000, window=4096,
        source="Jiang et al. 2023, Table 1 (dim 4096, n_layers 32, head_dim 128, n_heads 32, n_kv_heads 8, "
               "window_size 4096, context_len 8192); 7.3B: Mistral AI's announcement"),
}


# ---- checks shared by the public functions -------------------------------------------------------


def _heads(n_heads: Any, n_kv_heads: Any) -> tuple[int, int]:
    """n_heads and n_kv_heads as ints, if n_kv_heads divides n_heads (each group the same size)."""
    n_heads = check_positive_int(n_heads, "n_heads", symbol=N_("number of query heads"))
    n_kv_heads = check_positive_int(n_kv_heads, "n_kv_heads", symbol=N_("number of K/V heads"))
    if n_heads % n_kv_heads:
        refuse(ValueError, N_("n_kv_heads={n_kv_heads} must divide n_heads={n_heads}: every K/V head serves "
                              "a group of n_heads / n_kv_heads query heads"), n_kv_heads=n_kv_heads,
               n_heads=n_heads)
    return n_heads, n_kv_heads


def _count(value: Any, name: str, *, low: int = 0) -> int:
    """A whole number of bytes >= low (not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        refuse(TypeError, N_("{name} must be a whole number of bytes; got {value!r} ({type})"), name=name,
               value=value, type=type(value).__name__)
    if value < low:
        refuse(ValueError, N_("{name} must be >= {low}; got {value}"), name=name, low=low, value=int(value))
    return int(value)


def _columns(W: Any, name: str, n_heads: int, width_symbol: str) -> np.ndarray:
    """W (..., n_heads·d_k) as a finite float array whose last axis splits into n_heads equal slices."""
    expected = f"(..., {width_symbol})"
    W = as_float_array(W, name, expected=expected)
    check_min_ndim(W, name, expected=expected, min_ndim=1)
    check_finite(W, name)
    if W.shape[-1] == 0 or W.shape[-1] % n_heads:
        refuse(ValueError, N_("{name} has {width} columns, not a multiple of {heads}: expected {expected}, "
                              "one slice of d_k columns per head; got shape {shape}"),
               name=name, width=W.shape[-1], heads=n_heads, expected=expected, shape=W.shape)
    return W


# ---- bytes ---------------------------------------------------------------------------------------


def kv_cache_bytes(n_layers: Any, context: Any, n_kv_heads: Any, d_head: Any, *, bytes_per_value: Any = 2,
                   batch: Any = 1) -> int:
    """The bytes of the KV cache: ``2 · n_layers · context · n_kv_heads · d_head · bytes_per_value · batch``.

    Every layer keeps, for every cached token, one key and one value (the 2) of ``d_head`` numbers per
    K/V head. With as many K/V heads as query heads, ``n_kv_heads · d_head = d_model``; GQA and MQA divide
    the cache by ``n_heads / n_kv_heads``.

    Parameters
    ----------
    n_layers : int
        The number of attention layers.
    context : int
        T, the number of cached tokens.
    n_kv_heads : int
        The number of K/V heads per layer (n_heads for multi-head attention, 1 for MQA).
    d_head : int
        The width of one head, d_k = d_v.
    bytes_per_value : int
        2 for float16 or bfloat16, 4 for float32, 1 for int8.
    batch : int
        The number of sequences cached at once.

    Returns
    -------
    int
        Bytes.

    Raises
    ------
    TypeError
        A size that is not a whole number.
    ValueError
        A size below 1.

    Shapes:
        n_layers, context T, n_kv_heads, d_head, bytes_per_value, batch -> bytes ()

    Taught in: 11 §5
    """
    sizes = [check_positive_int(n_layers, "n_layers", symbol=N_("number of layers")),
             check_positive_int(context, "context", symbol=N_("cached tokens")),
             check_positive_int(n_kv_heads, "n_kv_heads", symbol=N_("number of K/V heads")),
             check_positive_int(d_head, "d_head", symbol=N_("width of a head")),
             check_positive_int(bytes_per_value, "bytes_per_value"),
             check_positive_int(batch, "batch", symbol=N_("number of sequences"))]
    return 2 * int(np.prod(sizes, dtype=object))  # K and V; Python ints, so nothing overflows


def sequences_that_fit(memory_bytes: Any, per_sequence_bytes: Any, *, reserved_bytes: Any = 0) -> int:
    """How many sequences' caches fit in a memory: ``⌊(memory − reserved) / per_sequence⌋``.

    Parameters
    ----------
    memory_bytes : int
        The memory of the device, in bytes (80 GB = ``80 * 10**9``).
    per_sequence_bytes : int
        The cache of one sequence (:func:`kv_cache_bytes` with ``batch=1``).
    reserved_bytes : int
        Memory taken before any cache: the weights (2 bytes per parameter in float16), activations.

    Returns
    -------
    int
        0 when not even one sequence fits.

    Raises
    ------
    TypeError
        A size that is not a whole number.
    ValueError
        A negative memory or reserve, a per-sequence size below 1, or a reserve larger than the memory
        (the weights do not fit at all).

    Shapes:
        memory_bytes, per_sequence_bytes, reserved_bytes -> count ()

    Taught in: 11 §5
    """
    memory = _count(memory_bytes, "memory_bytes")
    per_sequence = _count(per_sequence_bytes, "per_sequence_bytes", low=1)
    reserved = _count(reserved_bytes, "reserved_bytes")
    if reserved > memory:
        refuse(ValueError, N_("reserved_bytes={reserved} is more than memory_bytes={memory}: the weights "
                              "alone do not fit, so no sequence does"), reserved=reserved, memory=memory)
    return (memory - reserved) // per_sequence


# ---- heads that share keys and values ------------------------------------------------------------


def kv_head_map(n_heads: Any, n_kv_heads: Any) -> np.ndarray:
    """Which K/V head each query head reads: ``h // (n_heads / n_kv_heads)``, consecutive heads in a group.

    n_kv_heads = n_heads is multi-head attention (each head its own keys and values), n_kv_heads = 1 is
    multi-query attention (MQA: all share one), anything between is grouped-query attention (GQA).

    Parameters
    ----------
    n_heads : int
        The number of query heads.
    n_kv_heads : int
        The number of K/V heads; must divide n_heads.

    Returns
    -------
    ndarray of int64
        Entry h is the K/V head of query head h: ``[0, 0, 1, 1]`` for 4 heads and 2 K/V heads.

    Raises
    ------
    TypeError
        A count that is not a whole number.
    ValueError
        A count below 1, or n_kv_heads not dividing n_heads.

    Shapes:
        n_heads, n_kv_heads -> (n_heads,)

    Taught in: 11 §6
    """
    n_heads, n_kv_heads = _heads(n_heads, n_kv_heads)
    return np.arange(n_heads, dtype=np.int64) // (n_heads // n_kv_heads)


def grouped_query_attention(Q: Any, K: Any, V: Any, mask: Any = None, *, scale: bool = True
                            ) -> tuple[np.ndarray, np.ndarray]:
    """Attention with fewer K/V heads than query heads (GQA; MQA with one): each group shares K and V.

    Query head h attends with ``K[kv_head_map(n_heads, n_kv_heads)[h]]`` and the matching V:
    ``head_h = softmax(Q_h·K_gᵀ/√d_k + M)·V_g`` with ``g = h // (n_heads / n_kv_heads)``. The result is
    :func:`attnlib.attention` on K and V repeated per group, exactly; with n_kv_heads = n_heads it is
    multi-head attention, bit for bit.

    Parameters
    ----------
    Q : array_like
        Queries, the heads on the third axis from the end.
    K, V : array_like
        Keys and values of the n_kv_heads K/V heads; n_kv_heads must divide n_heads.
    mask, scale
        As for :func:`attnlib.attention`; the mask broadcasts over the heads.

    Returns
    -------
    out : ndarray
        One output per query head.
    weights : ndarray
        One matrix of weights per query head (heads of a group differ: their queries do).

    Raises
    ------
    TypeError
        Non-numeric input, or a mask that is neither boolean nor float.
    ValueError
        Fewer than 3 axes, K and V with different numbers of heads, n_kv_heads not dividing n_heads, and
        everything :func:`attnlib.attention` refuses.

    Shapes:
        Q (..., n_heads, T_q, d_k), K (..., n_kv_heads, T_k, d_k), V (..., n_kv_heads, T_k, d_v),
        mask (..., T_q, T_k) -> out (..., n_heads, T_q, d_v), weights (..., n_heads, T_q, T_k)

    Taught in: 11 §6
    """
    arrays = []
    for arr, name, expected in ((Q, "Q", "(..., n_heads, T_q, d_k)"), (K, "K", "(..., n_kv_heads, T_k, d_k)"),
                                (V, "V", "(..., n_kv_heads, T_k, d_v)")):
        arr = as_float_array(arr, name, expected=expected)
        check_min_ndim(arr, name, expected=expected, min_ndim=3)
        arrays.append(arr)
    Q, K, V = arrays  # the rest (widths, lengths, NaN, the mask) is checked by attention
    if K.shape[-3] != V.shape[-3]:
        refuse(ValueError, N_("K has {k} heads but V has {v}: every K/V head has one key and one value per "
                              "token; expected V (..., {k}, T_k, d_v), got {shape}"),
               k=K.shape[-3], v=V.shape[-3], shape=V.shape)
    n_heads, n_kv_heads = _heads(Q.shape[-3], K.shape[-3])
    if n_kv_heads == n_heads:
        return attention(Q, K, V, mask, scale=scale)  # multi-head attention: nothing is shared
    group = kv_head_map(n_heads, n_kv_heads)  # (n_heads,)
    K_rep = np.take(K, group, axis=-3)  # (..., n_heads, T_k, d_k): K/V head g copied for its group
    V_rep = np.take(V, group, axis=-3)  # (..., n_heads, T_k, d_v)
    return attention(Q, K_rep, V_rep, mask, scale=scale)


def share_kv_heads(W: Any, n_heads: Any, n_kv_heads: Any) -> np.ndarray:
    """Turn a multi-head K or V projection into a GQA one: mean-pool the heads' columns within each group.

    Ainslie et al. (2023, §2.1) convert a multi-head checkpoint this way: the projection of K/V head g is
    the average of the projections of the query heads of its group, ``h = g·s .. (g+1)·s − 1`` with
    ``s = n_heads / n_kv_heads``. The paper then trains on (uptrains, with 5% of the pre-training steps);
    this function only pools. A bias (n_heads·d_k,) is pooled the same way.

    Parameters
    ----------
    W : array_like
        W_k or W_v (or their bias), head h in columns ``h·d_k .. (h+1)·d_k`` of the last axis.
    n_heads : int
        The number of heads of W.
    n_kv_heads : int
        The number of K/V heads wanted; must divide n_heads.

    Returns
    -------
    W_shared : ndarray of float64
        K/V head g in columns ``g·d_k .. (g+1)·d_k``.

    Raises
    ------
    TypeError
        Non-numeric W, counts that are not whole numbers.
    ValueError
        W with no axis, NaN or inf, a width that n_heads does not divide, n_kv_heads not dividing n_heads.

    Shapes:
        W (..., n_heads·d_k) -> W_shared (..., n_kv_heads·d_k);
        e.g. W_k (d_model, n_heads·d_k) -> (d_model, n_kv_heads·d_k)

    Taught in: 11 §6
    """
    n_heads, n_kv_heads = _heads(n_heads, n_kv_heads)
    W = _columns(W, "W", n_heads, "n_heads·d_k").astype(np.float64, copy=False)
    d_k = W.shape[-1] // n_heads
    groups = W.reshape(*W.shape[:-1], n_kv_heads, n_heads // n_kv_heads, d_k)  # (..., n_kv, s, d_k)
    return groups.mean(axis=-2).reshape(*W.shape[:-1], n_kv_heads * d_k)  # (..., n_kv·d_k)


def repeat_kv_heads(W_shared: Any, n_heads: Any, n_kv_heads: Any) -> np.ndarray:
    """A GQA projection written as a multi-head one: K/V head g's columns copied for each head of group g.

    Multi-head code (``attnlib.multi_head_attention``, ``attnlib.gpt``) then computes exactly the
    grouped-query model: every query head of a group meets the same keys and values.

    Parameters
    ----------
    W_shared : array_like
        A projection (or bias) with n_kv_heads heads, K/V head g in columns ``g·d_k .. (g+1)·d_k``.
    n_heads : int
        The number of query heads wanted.
    n_kv_heads : int
        The number of heads of W_shared; must divide n_heads.

    Returns
    -------
    W : ndarray
        Head h in columns ``h·d_k .. (h+1)·d_k``, a copy of K/V head ``h // (n_heads / n_kv_heads)``.

    Raises
    ------
    TypeError, ValueError
        As for :func:`share_kv_heads`, with n_kv_heads dividing the width.

    Shapes:
        W_shared (..., n_kv_heads·d_k) -> W (..., n_heads·d_k)

    Taught in: 11 §6
    """
    n_heads, n_kv_heads = _heads(n_heads, n_kv_heads)
    W = _columns(W_shared, "W_shared", n_kv_heads, "n_kv_heads·d_k")
    d_k = W.shape[-1] // n_kv_heads
    heads = W.reshape(*W.shape[:-1], n_kv_heads, d_k)  # (..., n_kv, d_k)
    return np.repeat(heads, n_heads // n_kv_heads, axis=-2).reshape(*W.shape[:-1], n_heads * d_k)


# ---- windows -------------------------------------------------------------------------------------


def sliding_window_mask(T: Any, window: Any, *, n_sink: Any = 0) -> np.ndarray:
    """Causal attention within a window: query i sees keys ``i − window < j ≤ i``, and the first n_sink keys.

    A band of width ``window`` along the diagonal of the causal mask: each query sees itself and the
    ``window − 1`` tokens before it, so a cache never needs more than ``window`` tokens
    (``window >= T`` is the causal mask). With ``n_sink > 0`` the first n_sink keys stay visible to every
    later query as well: the "attention sinks" of Xiao et al. (2023), tokens that many heads park their
    attention on (08's "parking" heads).

    Parameters
    ----------
    T : int
        The sequence length.
    window : int
        How many keys each query sees, itself included; >= 1.
    n_sink : int
        How many keys at the start stay visible (never after the query: the mask stays causal).

    Returns
    -------
    keep : ndarray of bool
        ``keep[i, j]`` is True when query i may see key j.

    Raises
    ------
    TypeError
        A size that is not a whole number.
    ValueError
        T or window below 1, n_sink below 0.

    Shapes:
        T, window, n_sink -> keep (T, T)

    Taught in: 11 §7
    """
    T = check_positive_int(T, "T", symbol=N_("sequence length"))
    window = check_positive_int(window, "window", symbol=N_("keys each query sees"))
    if isinstance(n_sink, (bool, np.bool_)) or not isinstance(n_sink, (int, np.integer)):
        refuse(TypeError, N_("{name} must be a whole number >= 0; got {value!r} ({type})"), name="n_sink",
               value=n_sink, type=type(n_sink).__name__)
    if n_sink < 0:
        refuse(ValueError, N_("{name} must be >= {low}; got {value}"), name="n_sink", low=0,
               value=int(n_sink))
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]  # query i (rows), key j (columns)
    return (j <= i) & ((j > i - window) | (j < n_sink))  # (T, T): causal, and in the band or a sink
