"""Auto-checked exercises: ``attnlib.exercises.check_...(your_answer)`` says right, or what is wrong.

Each notebook's checkers live in their own module and are gathered here.
"""

from ._feedback import Verdict
from .basics import (  # notebooks 01-03
    check_cosine_matrix,
    check_entropy,
    check_gram_matrix,
    check_is_convex_combination,
    check_projection_length,
    check_scaled_softmax,
    check_simple_attention,
    check_softmax_rows,
    check_weighted_sum,
)
from .formula import check_attention, check_context_vector  # notebook 07
from .gpt import check_cached_attention, check_next_token_loss, check_sample_with_temperature  # notebook 09
from .heads import check_head_weights, check_previous_token_score, check_split_heads  # notebook 08
from .masking import (  # notebook 06
    check_causal_mask,
    check_keep_mask,
    check_masked_softmax,
    check_padding_mask,
)
from .qkv import check_projection_puzzle, check_scores  # notebook 04
from .scaling import check_scaled_scores, check_scaled_weights, check_softmax_jacobian  # notebook 05

__all__ = [
    "Verdict",
    "check_cosine_matrix",
    "check_entropy",
    "check_gram_matrix",
    "check_is_convex_combination",
    "check_projection_length",
    "check_scaled_softmax",
    "check_simple_attention",
    "check_softmax_rows",
    "check_weighted_sum",
]
__all__ += [  # notebooks 04-07
    "check_attention",
    "check_causal_mask",
    "check_context_vector",
    "check_keep_mask",
    "check_masked_softmax",
    "check_padding_mask",
    "check_projection_puzzle",
    "check_scaled_scores",
    "check_scaled_weights",
    "check_scores",
    "check_softmax_jacobian",
]
__all__ += ["check_head_weights", "check_previous_token_score", "check_split_heads"]  # notebook 08
__all__ += ["check_cached_attention", "check_next_token_loss", "check_sample_with_temperature"]  # notebook 09
