"""Generating text with the tiny GPT: sampling with a temperature, a key/value cache, the lab's data."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..checks import check_bool
from ..core import softmax
from ..i18n import N_, tr
from ..validation import check_generator, check_indices, check_positive_int
from .config import GPTConfig, check_ids, check_params, layer_params
from .model import layer, run_layers

__all__ = ["generate"]


def _check_temperature(temperature: Any) -> float:
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float, np.integer, np.floating)):
        raise TypeError(tr("temperature must be a number > 0; got "
                           "{temperature!r}").format(temperature=temperature))
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(
            tr("temperature must be > 0 (it divides the logits; small is greedy, 1 is the model's own "
               "probabilities); got {temperature}").format(temperature=temperature)
        )
    return float(temperature)


def _check_prompt(prompt: Any, config: GPTConfig, n_new: Any) -> tuple[np.ndarray, int]:
    n_new = check_positive_int(n_new, "n_new")
    check_indices(prompt, "prompt", expected="(n,)", high=config.vocab_size - 1, high_symbol="V-1",
                  what=N_("token ids"), nonempty=True)
    arr = check_ids(prompt, config, "prompt")
    if arr.size + n_new > config.context:
        raise ValueError(
            tr("a prompt of {n} tokens plus n_new={n_new} new ones makes {total}, more than "
               "the context T_max={T_max} the model was trained on").format(
                n=arr.size, n_new=n_new, total=arr.size + n_new, T_max=config.context
            )
        )
    return arr, n_new


def _step_cached(
    params: dict, config: GPTConfig, token: int, pos: int, cache: list
) -> tuple[np.ndarray, list]:
    """Logits after one more token, reusing the keys and values of the earlier positions."""
    x = params["tok_emb"][token] + params["pos_emb"][pos]  # (d_model,)
    x = x[None, :]  # (1, d_model): one new query
    all_weights = []
    for i in range(config.n_layers):
        # The new query may see every cached key: they are all in its past, so no mask is needed.
        x, c = layer(layer_params(params, i), x, config.n_heads, kv=cache[i], pos=pos)
        all_weights.append(c["weights"][:, 0])  # (H, pos+1)
    return (x @ params["tok_emb"].T + params["b_out"])[0], all_weights


def _generate(params, config, prompt, n_new, temperature, rng, use_cache):
    """Yield (logits, weights per layer (H, t), probabilities, token) for each new token."""
    ids = list(prompt)
    # One (T_max, d_model) array of keys and one of values per layer, filled one row per token.
    cache = [
        {"K": np.empty((config.context, config.d_model)), "V": np.empty((config.context, config.d_model))}
        for _ in range(config.n_layers)
    ]
    if use_cache:
        for pos, token in enumerate(ids[:-1]):
            _step_cached(params, config, token, pos, cache)
    for _ in range(n_new):
        if use_cache:
            logits, weights = _step_cached(params, config, ids[-1], len(ids) - 1, cache)
        else:
            all_logits, caches = run_layers(params, config, np.array(ids), last_only=True)
            logits = all_logits[-1]
            weights = [c["weights"][:, -1] for c in caches[:-1]]
        probs = softmax(logits / temperature)
        # Inverse-CDF sampling with one uniform number per token: the cached and the recomputed
        # runs draw the same numbers, so they pick the same tokens when their logits agree.
        token = min(int(np.searchsorted(np.cumsum(probs), rng.random(), side="right")), config.vocab_size - 1)
        yield logits, weights, probs, token
        ids.append(token)


def generate(
    params: dict,
    config: GPTConfig,
    prompt: Any,
    n_new: int,
    *,
    temperature: float = 1.0,
    rng: np.random.Generator,
    use_cache: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Continue `prompt` by `n_new` tokens, each sampled from ``softmax(logits / temperature)``.

    With `use_cache` each step runs the new token only, reusing the keys and values of the earlier
    positions (a KV cache); without it each step reruns the whole sequence. The causal mask is what
    makes the cache exact: an earlier position never sees later tokens, so its keys and values never
    change. Both give the same tokens and logits to float precision.

    Parameters
    ----------
    params : dict of ndarray
    config : GPTConfig
    prompt : array_like of int
        The token ids to continue.
    n_new : int
        How many tokens to add.
    temperature : float
        Divides the logits: small is greedy, 1 is the model's own probabilities.
    rng : numpy.random.Generator
        Draws one uniform number per new token.
    use_cache : bool
        Reuse the keys and values of earlier positions.

    Returns
    -------
    ids : ndarray of int64
        The prompt followed by the new tokens.
    logits : ndarray
        The logits each new token was sampled from.

    Raises
    ------
    TypeError, ValueError
        An empty prompt, a prompt plus n_new longer than T_max, an unknown id, a temperature <= 0, a
        model without the causal mask with `use_cache` (its earlier positions would need the future).

    Shapes:
        prompt (n,) -> ids (n + n_new,), logits (n_new, V)

    Taught in: 09 §7
    """
    check_params(params, config)
    prompt, n_new = _check_prompt(prompt, config, n_new)
    temperature = _check_temperature(temperature)
    rng = check_generator(rng)
    if check_bool(use_cache, "use_cache") and not config.causal:
        raise ValueError(
            tr("use_cache=True needs a causal model (config.causal=True): without the mask the keys "
               "and values "
               "of earlier positions depend on later tokens, so a cache would go stale")
        )
    steps = list(_generate(params, config, prompt.tolist(), n_new, temperature, rng, use_cache))
    ids = np.concatenate([prompt, [s[3] for s in steps]]).astype(np.int64)
    return ids, np.stack([s[0] for s in steps])
