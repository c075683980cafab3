"""Generating text with the tiny GPT: the checks of a prompt and a temperature, one step at a time
(sampled or greedy, with or without the key/value cache), and ``generate`` built on those steps."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..checks import check_bool, check_generator, check_positive_int
from ..core import softmax
from ..i18n import N_, tr
from ..validation import check_indices
from .config import GPTConfig, check_ids, check_params, layer_params
from .model import layer, run_layers

__all__ = ["Step", "check_prompt", "check_temperature", "generate", "generate_steps"]


def check_temperature(temperature: Any) -> float:
    """`temperature` as a float, if it is a finite number > 0.

    Parameters
    ----------
    temperature : float
        Divides the logits before the softmax.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Not a number.
    ValueError
        Zero, negative, or not finite.

    Shapes:
        none

    Serves: generate and the generation and live GPT labs of 09, not called in the notebooks.
    """
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float, np.integer, np.floating)):
        raise TypeError(tr("temperature must be a number > 0; got "
                           "{temperature!r}").format(temperature=temperature))
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(
            tr("temperature must be > 0 (it divides the logits; small is greedy, 1 is the model's own "
               "probabilities); got {temperature}").format(temperature=temperature)
        )
    return float(temperature)


def check_prompt(prompt: Any, config: GPTConfig, n_new: Any) -> tuple[np.ndarray, int]:
    """A prompt and a number of new tokens the model can continue it by.

    Writing `n_new` tokens reads the prompt and every new token but the last, so those
    ``n + n_new - 1`` tokens must fit the context.

    Parameters
    ----------
    prompt : array_like of int
        Token ids, at least one.
    config : GPTConfig
    n_new : int
        How many tokens to add, at least one.

    Returns
    -------
    prompt : ndarray of int64
    n_new : int

    Raises
    ------
    TypeError
        Ids or `n_new` that are not whole numbers.
    ValueError
        An empty prompt, an id outside 0..V-1, `n_new` < 1, or more tokens to read than T_max.

    Shapes:
        prompt (n,) with n + n_new - 1 <= T_max -> prompt (n,), n_new

    Serves: generate and the generation and live GPT labs of 09, not called in the notebooks.
    """
    n_new = check_positive_int(n_new, "n_new")
    check_indices(prompt, "prompt", expected="(n,)", high=config.vocab_size - 1, high_symbol="V-1",
                  what=N_("token ids"), nonempty=True)
    arr = check_ids(prompt, config, "prompt")
    if arr.size + n_new - 1 > config.context:
        raise ValueError(
            tr("a prompt of {n} tokens plus n_new={n_new} new ones has the model read {total} tokens "
               "(all but the last new one), more than the context T_max={T_max} it was trained on").format(
                n=arr.size, n_new=n_new, total=arr.size + n_new - 1, T_max=config.context
            )
        )
    return arr, n_new


@dataclass(frozen=True)
class Step:
    """One generated token and what it was chosen from.

    Attributes
    ----------
    logits : ndarray
        The logits of the last token read.
    probs : ndarray
        ``softmax(logits / temperature)``.
    token : int
        The token chosen.
    weights : ndarray
        Every head's attention at every query over the t tokens read (zero above the diagonal
        under the causal mask); the last query's row is what chose the token.

    Shapes:
        logits (V,), probs (V,), weights (n_layers, n_heads, t, t)

    Serves: generate_steps and the generation and live GPT labs of 09, not called in the notebooks.
    """

    logits: np.ndarray
    probs: np.ndarray
    token: int
    weights: np.ndarray

    @property
    def rank(self) -> int:
        """The chosen token's place among all V candidates, 1 for the most likely."""
        return int(1 + (self.probs > self.probs[self.token]).sum())

    def top(self, k: int) -> np.ndarray:
        """The k most likely tokens, most likely first (ties: the smaller id first)."""
        return np.argsort(-self.probs, kind="stable")[:k]


def _cached_step(
    params: dict, config: GPTConfig, token: int, pos: int, cache: list, rows: np.ndarray
) -> np.ndarray:
    """Logits after one more token, reusing the keys and values of the earlier positions; its weights
    are written into row ``pos`` of ``rows`` (n_layers, n_heads, T_max, T_max)."""
    x = (params["tok_emb"][token] + params["pos_emb"][pos])[None, :]  # (1, d_model): one new query
    for i in range(config.n_layers):
        # The new query may see every cached key: they are all in its past, so no mask is needed.
        x, c = layer(layer_params(params, i), x, config.n_heads, kv=cache[i], pos=pos)
        rows[i, :, pos, : pos + 1] = c["weights"][:, 0]  # (H, pos+1)
    return (x @ params["tok_emb"].T + params["b_out"])[0]


def generate_steps(
    params: dict,
    config: GPTConfig,
    prompt: Any,
    n_new: int,
    *,
    temperature: float = 1.0,
    rng: Any,
    use_cache: bool = True,
    greedy: bool = False,
) -> Iterator[Step]:
    """Continue `prompt` one token at a time, yielding each :class:`Step` as it is taken.

    Each step reads the tokens so far and chooses the next from ``softmax(logits / temperature)``: by
    inverse-CDF sampling with one uniform number ``rng.random()`` (the first token whose cumulative
    probability passes it), or, with `greedy`, the most likely token (no number drawn). With
    `use_cache` a step runs the new token only, reusing the keys and values of the earlier positions
    (a KV cache); without it a step reruns the whole sequence. The causal mask is what makes the cache
    exact: an earlier position never sees later tokens, so its keys, values and weights never change.

    Parameters
    ----------
    params : dict of ndarray
    config : GPTConfig
    prompt : array_like of int
        The token ids to continue.
    n_new : int
        How many tokens to add; the prompt and all but the last must fit T_max.
    temperature : float
        Divides the logits: small is nearly greedy, 1 is the model's own probabilities.
    rng : numpy.random.Generator, or any object whose ``random()`` gives a uniform number in [0, 1)
        Draws one number per sampled token.
    use_cache : bool
        Reuse the keys and values of earlier positions (a causal model only).
    greedy : bool
        Take the most likely token instead of sampling.

    Yields
    ------
    Step
        The logits, the probabilities, the token and the weights over the tokens read.

    Raises
    ------
    TypeError, ValueError
        As :func:`generate`; an `rng` with no ``random()``.

    Shapes:
        prompt (n,) -> n_new steps; step s (from 0) reads t = n + s tokens: logits (V,),
        weights (n_layers, n_heads, t, t)

    Serves: generate and the generation and live GPT labs of 09, not called in the notebooks.
    """
    check_params(params, config)
    prompt, n_new = check_prompt(prompt, config, n_new)
    temperature = check_temperature(temperature)
    if not isinstance(rng, np.random.Generator) and not callable(getattr(rng, "random", None)):
        raise TypeError(tr("rng must be a numpy.random.Generator, or anything whose random() gives a uniform "
                           "number in [0, 1); got {type}").format(type=type(rng).__name__))
    greedy = check_bool(greedy, "greedy")
    if check_bool(use_cache, "use_cache") and not config.causal:
        raise ValueError(
            tr("use_cache=True needs a causal model (config.causal=True): without the mask the keys "
               "and values "
               "of earlier positions depend on later tokens, so a cache would go stale")
        )
    return _steps(params, config, prompt.tolist(), n_new, temperature, rng, use_cache, greedy)


def _steps(
    params: dict, config: GPTConfig, ids: list[int], n_new: int, temperature: float, rng: Any,
    use_cache: bool, greedy: bool,
) -> Iterator[Step]:
    if use_cache:
        # One (T_max, d_model) array of keys and one of values per layer, filled one row per token, and
        # every query's weights, one row per token (a cached row never changes: each step shows a view).
        T_max = config.context
        cache = [{"K": np.empty((T_max, config.d_model)), "V": np.empty((T_max, config.d_model))}
                 for _ in range(config.n_layers)]
        rows = np.zeros((config.n_layers, config.n_heads, T_max, T_max))
        for pos, token in enumerate(ids[:-1]):
            _cached_step(params, config, token, pos, cache, rows)
    for _ in range(n_new):
        t = len(ids)
        if use_cache:
            logits = _cached_step(params, config, ids[-1], t - 1, cache, rows)
            weights = rows[:, :, :t, :t]
            weights.flags.writeable = False  # a view: later steps share its rows
        else:
            all_logits, caches = run_layers(params, config, np.array(ids), last_only=True)
            logits = all_logits[-1]
            weights = np.stack([c["weights"] for c in caches[:-1]])  # (n_layers, n_heads, t, t)
        probs = softmax(logits / temperature)
        if greedy:
            token = int(np.argmax(logits))
        else:
            # The cached and the recomputed runs draw the same numbers, so they pick the same tokens
            # when their logits agree.
            u = rng.random()
            token = min(int(np.searchsorted(np.cumsum(probs), u, side="right")), config.vocab_size - 1)
        yield Step(logits, probs, token, weights)
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
    change. Both give the same tokens and logits to float precision. The steps are those of
    :func:`generate_steps`.

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
        An empty prompt, a prompt plus n_new - 1 longer than T_max, an unknown id, a temperature
        <= 0, a model without the causal mask with `use_cache` (its earlier positions would need
        the future).

    Shapes:
        prompt (n,) -> ids (n + n_new,), logits (n_new, V)

    Taught in: 09 §7
    """
    check_params(params, config)
    prompt, n_new = check_prompt(prompt, config, n_new)
    tokens, logits = [], []
    for step in generate_steps(params, config, prompt, n_new, temperature=temperature,
                               rng=check_generator(rng), use_cache=use_cache):
        tokens.append(step.token)
        logits.append(step.logits)
    return np.concatenate([prompt, tokens]).astype(np.int64), np.stack(logits)
