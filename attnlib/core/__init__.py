"""The numpy core of attnlib: ``O = softmax(Q·Kᵀ/√d_k + M)·V``, one module per idea.

numpy only: this package must import on a machine without matplotlib or ipywidgets.
Names follow the formula; shapes are written in its symbols, with ``...`` for leading batch axes.

===============  ==========================================================================
module           idea
===============  ==========================================================================
formula          the formula: scores, weights, attention; the projections Q, K, V
multihead        several heads: split, attend per head, merge
distributions    softmax and its rows of weights: entropy, Jacobian, backward, saturation
masks            which keys a query may see: causal, padding, the additive M
vectors          comparing and normalising token vectors: cosine similarity, layer norm
scaling          why √d_k: scores as growing sums, histograms on one scale
training         learning W_q and W_k on a tiny task: loss, gradients, descent
geometry         the convex hull the outputs stay inside
positions        where a token sits: sinusoids, RoPE's rotations, ALiBi's distance bias
tiling           the formula in tiles: online softmax, FlashAttention, memory and traffic
cache            the KV cache's bytes, shared K/V heads (MQA, GQA), sliding windows
===============  ==========================================================================

Every public name is also ``attnlib.core.<name>``; input checks live in ``attnlib.validation`` (arrays)
and ``attnlib.checks`` (plain values).
"""

from __future__ import annotations

from .cache import (
    MODEL_SHAPES,
    grouped_query_attention,
    kv_cache_bytes,
    kv_head_map,
    repeat_kv_heads,
    sequences_that_fit,
    share_kv_heads,
    sliding_window_mask,
)
from .distributions import entropy, softmax, softmax_backward, softmax_jacobian, softmax_saturation
from .formula import attention, attention_weights, init_projections, project, scores, self_attention
from .geometry import convex_hull_2d, inside_convex_hull
from .masks import additive_mask, causal_mask, masked_scores, padding_mask
from .multihead import merge_heads, multi_head_attention, split_heads
from .positions import (
    alibi_bias,
    alibi_slopes,
    apply_rope,
    rope_angles,
    rope_scores,
    sinusoid_shift,
    sinusoidal_positions,
)
from .scaling import histogram_heights, nested_dot_products, score_bins
from .tiling import (
    TileStep,
    attention_io,
    attention_memory,
    online_softmax,
    online_softmax_trace,
    tile_kinds,
    tiled_attention,
    tiled_attention_steps,
)
from .training import attention_pair_loss, train_attention_pairs
from .vectors import cosine_similarity, layer_norm

__all__ = [
    # the formula
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
    "softmax_backward",
    "softmax_jacobian",
    "softmax_saturation",
    # masks
    "additive_mask",
    "causal_mask",
    "masked_scores",
    "padding_mask",
    # vectors
    "cosine_similarity",
    "layer_norm",
    # why √d_k
    "histogram_heights",
    "nested_dot_products",
    "score_bins",
    # learning W_q and W_k
    "attention_pair_loss",
    "train_attention_pairs",
    # the convex hull
    "convex_hull_2d",
    "inside_convex_hull",
    # positions
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "rope_angles",
    "rope_scores",
    "sinusoid_shift",
    "sinusoidal_positions",
    # attention in tiles
    "TileStep",
    "attention_io",
    "attention_memory",
    "online_softmax",
    "online_softmax_trace",
    "tile_kinds",
    "tiled_attention",
    "tiled_attention_steps",
    # the KV cache, shared K/V heads, windows
    "MODEL_SHAPES",
    "grouped_query_attention",
    "kv_cache_bytes",
    "kv_head_map",
    "repeat_kv_heads",
    "sequences_that_fit",
    "share_kv_heads",
    "sliding_window_mask",
]
