"""A tiny GPT in numpy: forward, backward, training and generation, written out (notebook 09).

The model is a stack of Transformer layers around the attention of notebooks 01-08:

    x⁰ = E[ids] + P[:T]                                    token embedding + learned position
    x  ← x + merge(softmax(Q_h K_hᵀ/√d_k + M) V_h) · W_o    attention, through attnlib.attention
    x  ← x + relu(x W_1 + b_1) W_2 + b_2                   a small MLP
    logits = x Eᵀ + b_out                                  the unembedding shares E (tied)

M is the causal mask of notebook 06 when ``config.causal`` is True, and nothing when it is False
(the model that may peek). The loss is the mean cross-entropy of the next token,
``-log softmax(logits_t)[ids_{t+1}]``. Every gradient is written out in ``loss_and_grads`` and
checked against finite differences in the tests and in notebook 09.

Parameters live in a plain dict of float64 arrays (names below), so they save to ``.npz``:

    ==============  ==================  ============================================
    name            shape               meaning
    ==============  ==================  ============================================
    tok_emb         (V, d_model)        E: one row per character; also the unembedding
    pos_emb         (T_max, d_model)    P: one row per position 0..T_max-1
    b_out           (V,)                bias of the logits
    l{i}.W_q/k/v    (d_model, d_model)  projections of all heads of layer i side by side
    l{i}.W_o        (d_model, d_model)  output projection of layer i
    l{i}.W_1, b_1   (d_model, d_ff)     MLP, first layer
    l{i}.W_2, b_2   (d_ff, d_model)     MLP, second layer
    ==============  ==================  ============================================

Modules: ``text`` (the character tokeniser, the model's text in either script, the corpus of Tang
poems), ``config`` (the sizes, the names and shapes of the parameters, the checks that parameters and
ids fit), ``model`` (the parameters, one layer, the forward pass, the loss and its gradients),
``training`` (the gradient check, windows of text, Adam, the two losses of notebook 09) and
``generation`` (the checks of a prompt and a temperature, generation one step at a time, sampled or
greedy, with or without the KV cache, which ``generate`` and the two labs of 09 all use). numpy only,
like ``core``.
"""

from __future__ import annotations

from .config import GPTConfig, config_from_arrays
from .generation import Step, check_prompt, check_temperature, generate, generate_steps
from .model import (
    cross_entropy,
    forward,
    hidden_states,
    init_params,
    loss_and_grads,
    params_from_arrays,
    token_losses,
)
from .text import POEM_END, CharTokenizer, load_poems
from .training import (
    adam_init,
    adam_update,
    numerical_gradient,
    prefix_loss,
    prefix_token_losses,
    sequence_loss,
    train,
)

__all__ = [
    # the tokeniser and the corpus
    "POEM_END",
    "CharTokenizer",
    "load_poems",
    # the model and its parameters
    "GPTConfig",
    "config_from_arrays",
    "init_params",
    "params_from_arrays",
    # the forward pass and what it shows
    "forward",
    "hidden_states",
    # the loss and its gradients
    "cross_entropy",
    "loss_and_grads",
    "numerical_gradient",
    "token_losses",
    # training and measuring
    "adam_init",
    "adam_update",
    "prefix_loss",
    "prefix_token_losses",
    "sequence_loss",
    "train",
    # generating
    "Step",
    "check_prompt",
    "check_temperature",
    "generate",
    "generate_steps",
]
