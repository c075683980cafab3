"""Auto-checked exercises: ``attnlib.exercises.check_...(your_function)`` says right, or what is wrong.

One module per notebook, named after the notebook (``inner_products`` for 01 ... ``attention_at_scale``
for 11); each declares its exercises as data (reference answer, hidden inputs, typical mistakes) and
every checker runs through the one pipeline of :mod:`attnlib.exercises.pipeline`.
"""

from ..checks import check_type, refuse
from ..i18n import N_
from . import (
    a_real_model,
    a_tiny_gpt,
    attention_at_scale,
    inner_products,
    masking,
    pipeline,
    positions,
    queries_keys_values,
    scaling_by_sqrt_dk,
    softmax,
    the_whole_formula,
    weighted_sum,
)
from .a_real_model import check_head_weights, check_previous_token_score, check_split_heads
from .a_tiny_gpt import check_cached_attention, check_next_token_loss, check_sample_with_temperature
from .attention_at_scale import (
    check_kv_cache_bytes,
    check_kv_head_map,
    check_online_softmax,
    check_tile_update,
)
from .inner_products import check_cosine_matrix, check_gram_matrix, check_projection_length
from .masking import check_causal_mask, check_keep_mask, check_masked_softmax, check_padding_mask
from .pipeline import Verdict
from .positions import check_alibi_bias, check_rope, check_rope_scores, check_sinusoid_table
from .queries_keys_values import check_projection_puzzle, check_scores
from .scaling_by_sqrt_dk import check_scaled_scores, check_scaled_weights, check_softmax_jacobian
from .softmax import check_entropy, check_scaled_softmax, check_softmax_rows
from .the_whole_formula import check_attention, check_context_vector
from .weighted_sum import check_is_convex_combination, check_simple_attention, check_weighted_sum

# The exercise modules in the order of the notebooks (01 ... 11).
NOTEBOOKS = {
    1: inner_products,
    2: softmax,
    3: weighted_sum,
    4: queries_keys_values,
    5: scaling_by_sqrt_dk,
    6: masking,
    7: the_whole_formula,
    8: a_real_model,
    9: a_tiny_gpt,
    10: positions,
    11: attention_at_scale,
}


def exercise_named(checker: str) -> pipeline.Exercise:
    """The :class:`~attnlib.exercises.pipeline.Exercise` behind the public checker named ``checker``
    (e.g. ``"check_softmax_rows"``): what the site and the decks read to show an exercise as a task."""
    if not isinstance(checker, str):
        check_type(checker, "checker", str, what=N_("the checker's name, a str"))
    for module in NOTEBOOKS.values():
        for exercise in module.EXERCISES:
            if exercise.name == checker:
                return exercise
    refuse(ValueError, N_("checker must name a checker of attnlib.exercises; got {checker!r}"),
           checker=checker)


__all__ = [
    "NOTEBOOKS",
    "Verdict",
    "check_alibi_bias",
    "check_attention",
    "check_cached_attention",
    "check_causal_mask",
    "check_context_vector",
    "check_cosine_matrix",
    "check_entropy",
    "check_gram_matrix",
    "check_head_weights",
    "check_is_convex_combination",
    "check_keep_mask",
    "check_kv_cache_bytes",
    "check_kv_head_map",
    "check_masked_softmax",
    "check_next_token_loss",
    "check_online_softmax",
    "check_padding_mask",
    "check_previous_token_score",
    "check_projection_length",
    "check_projection_puzzle",
    "check_rope",
    "check_rope_scores",
    "check_sample_with_temperature",
    "check_scaled_scores",
    "check_scaled_softmax",
    "check_scaled_weights",
    "check_scores",
    "check_simple_attention",
    "check_sinusoid_table",
    "check_softmax_jacobian",
    "check_softmax_rows",
    "check_split_heads",
    "check_tile_update",
    "check_weighted_sum",
]
