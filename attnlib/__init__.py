"""attnlib: the small library behind the notebook series on Transformer attention.

The whole series builds one formula, one idea per notebook:

    O = softmax(Q·Kᵀ/√d_k + M)·V,   Q = X·W_q,  K = X·W_k,  V = X·W_v

Notation (tokens are rows, features the last axis; ``...`` stands for leading batch axes):

    =========  =====================  ==============================================
    symbol     shape                  meaning
    =========  =====================  ==============================================
    X          (..., T, d_model)      one embedding row per token
    W_q, W_k   (d_model, d_k)         learned linear maps to queries and keys
    W_v        (d_model, d_v)         learned linear map to values
    Q          (..., T_q, d_k)        queries: what each token is looking for
    K          (..., T_k, d_k)        keys: what each token answers to
    V          (..., T_k, d_v)        values: what each token hands over
    T          int                    number of tokens (T_q queries, T_k keys)
    d_model    int                    width of an embedding
    d_k, d_v   int                    width of a query/key, of a value
    M          (..., T_q, T_k)        additive mask: 0 allowed, -inf blocked
    A          (..., T_q, T_k)        attention weights, softmax(Q·Kᵀ/√d_k + M)
    O          (..., T_q, d_v)        output, A·V
    =========  =====================  ==============================================

``import attnlib`` loads numpy only. ``attnlib.plot``, ``attnlib.labs``, ``attnlib.page``, ``attnlib.data``,
``attnlib.exercises`` and ``attnlib.quiz`` are imported on first use, so the core works without
matplotlib or ipywidgets.
"""

from __future__ import annotations

import importlib
from typing import Any

from .core import (
    MODEL_SHAPES,
    TileStep,
    additive_mask,
    alibi_bias,
    alibi_slopes,
    apply_rope,
    attention,
    attention_io,
    attention_memory,
    attention_pair_loss,
    attention_weights,
    causal_mask,
    cosine_similarity,
    entropy,
    grouped_query_attention,
    init_projections,
    kv_cache_bytes,
    kv_head_map,
    layer_norm,
    merge_heads,
    multi_head_attention,
    nested_dot_products,
    online_softmax,
    online_softmax_trace,
    padding_mask,
    project,
    repeat_kv_heads,
    rope_angles,
    rope_scores,
    scores,
    self_attention,
    sequences_that_fit,
    share_kv_heads,
    sinusoid_shift,
    sinusoidal_positions,
    sliding_window_mask,
    softmax,
    softmax_jacobian,
    softmax_saturation,
    split_heads,
    tile_kinds,
    tiled_attention,
    tiled_attention_steps,
    train_attention_pairs,
)
from .i18n import pad, set_language

__version__ = "0.1.0"

__all__ = [
    # the formula, O = softmax(Q·Kᵀ/√d_k + M)·V
    "attention",
    "attention_weights",
    "scores",
    "self_attention",
    # queries, keys and values
    "init_projections",
    "project",
    # several heads
    "merge_heads",
    "multi_head_attention",
    "split_heads",
    # softmax and its weights
    "entropy",
    "softmax",
    "softmax_jacobian",
    "softmax_saturation",
    # masks
    "additive_mask",
    "causal_mask",
    "padding_mask",
    # comparing and normalising vectors
    "cosine_similarity",
    "layer_norm",
    # why √d_k, and learning W_q and W_k
    "attention_pair_loss",
    "nested_dot_products",
    "train_attention_pairs",
    # positions: sinusoids, RoPE, ALiBi
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "rope_angles",
    "rope_scores",
    "sinusoid_shift",
    "sinusoidal_positions",
    # attention at scale: tiles, the KV cache, shared K/V heads, windows
    "MODEL_SHAPES",
    "TileStep",
    "attention_io",
    "attention_memory",
    "grouped_query_attention",
    "kv_cache_bytes",
    "kv_head_map",
    "online_softmax",
    "online_softmax_trace",
    "repeat_kv_heads",
    "sequences_that_fit",
    "share_kv_heads",
    "sliding_window_mask",
    "tile_kinds",
    "tiled_attention",
    "tiled_attention_steps",
    # the language attnlib writes in, and printed tables that line up in it
    "pad",
    "set_language",
]

_LAZY_SUBMODULES = {"data", "exercises", "gpt", "labs", "page", "plot", "quiz"}


def __getattr__(name: str) -> Any:
    # PEP 562: `attnlib.plot` works after a plain `import attnlib`, without importing
    # matplotlib until a notebook actually asks for a figure.
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'attnlib' has no attribute {name!r}")
