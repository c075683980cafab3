"""The exercises of notebook 09 (a tiny GPT): the next-token loss, sampling with a temperature, a cache step.

The hidden inputs are chosen so that each typical mistake gives a different number from the right
answer in the first input, which lets the diagnosis name it.
"""

from __future__ import annotations

import numpy as np

from ..core import softmax
from ..i18n import N_
from .pipeline import Exercise, Mistake, OneOf, checkers

__all__ = ["check_cached_attention", "check_next_token_loss", "check_sample_with_temperature"]


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline); only the wrong
# answers below call core.softmax.


def solution_next_token_loss(logits, targets):
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -log_p[np.arange(len(targets)), targets].mean()


def solution_sample(logits, temperature, u):
    z = logits / temperature
    e = np.exp(z - z.max())
    p = e / e.sum()  # softmax(logits / temperature)
    return min(int(np.searchsorted(np.cumsum(p), u, side="right")), len(logits) - 1)


def solution_cached_attention(q, k, v, K_cache, V_cache):
    K, V = np.vstack([K_cache, k]), np.vstack([V_cache, v])  # (t+1, d_k), (t+1, d_v)
    scores = K @ q / np.sqrt(q.size)  # (t+1,): every key is in the past
    e = np.exp(scores - scores.max())
    weights = e / e.sum()
    return weights @ V, K, V


def _log_softmax(logits: np.ndarray, axis: int = -1) -> np.ndarray:
    """log softmax(z); −∞ where a probability underflows to 0 (a wrong answer's number may be −∞)."""
    with np.errstate(divide="ignore"):
        return np.log(softmax(logits, axis=axis))


def _loss(logits: np.ndarray, targets: np.ndarray, axis: int = -1) -> float:
    """L = −(1/T) Σ_t log softmax(logits[t])[targets[t]]."""
    return float(-_log_softmax(logits, axis)[np.arange(targets.size), targets].mean())


def _loss_inputs() -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(901)
    inputs = []
    for T, V in ((5, 7), (3, 4), (6, 11)):  # T and V differ, so a wrong axis changes the number
        inputs.append((rng.normal(0.0, 2.0, size=(T, V)), rng.integers(0, V, size=T)))
    return inputs


NEXT_TOKEN_LOSS = Exercise(
    name="check_next_token_loss",
    task="``my_next_token_loss(logits, targets)``: the mean of −log softmax(logits[t])[targets[t]]",
    shapes="logits (T, n_vocab), targets (T,) -> ()",
    reference=solution_next_token_loss,
    inputs=_loss_inputs(),
    # Large logits: exp overflows unless the row maximum is subtracted first.
    harder_inputs=[(np.array([[1000.0, 998.0, 990.0], [-5.0, 800.0, 801.0]]), np.array([0, 2]))],
    shape="()",
    facts=lambda logits, targets: {
        "T": logits.shape[0],
        "V": logits.shape[1],
        "label": N_("logits ({T}, {V})"),
    },
    mistakes=[
        Mistake(
            "summed",
            N_("you summed over the positions: the loss is the mean, so divide by T (np.mean)"),
            wrong=lambda logits, targets: _loss(logits, targets) * targets.size,
            watch=N_("summing over the positions instead of taking the mean"),
        ),
        Mistake(
            "negative",
            N_("your loss is negative: it is −log p of the target, and log p ≤ 0, so the loss is ≥ 0"),
            wrong=lambda logits, targets: -_loss(logits, targets),
            watch=N_("forgetting the minus sign (the loss is ≥ 0)"),
        ),
        Mistake(
            "bits",
            N_("you used log base 2 (bits); the series measures the loss in nats, np.log"),
            wrong=lambda logits, targets: _loss(logits, targets) / np.log(2),
            watch=N_("using log base 2 (bits) instead of the natural log"),
        ),
        Mistake(
            "raw_logits",
            N_(
                "you took −logits[t, target] without softmax: turn the logits into "
                "log-probabilities first, logits − log Σ exp(logits) along the vocabulary"
            ),
            wrong=lambda logits, targets: float(-logits[np.arange(targets.size), targets].mean()),
            watch=N_("skipping the softmax (using the raw logits as log-probabilities)"),
        ),
        Mistake(
            "shifted",
            N_("you shifted the targets again: targets[t] is already the token that follows position t"),
            wrong=lambda logits, targets: float(
                -_log_softmax(logits)[np.arange(targets.size - 1), targets[1:]].mean()
            ),
            spotted=lambda got, logits, targets: targets.size > 1,
            watch=N_("shifting the targets again (they already are the next tokens)"),
        ),
        Mistake(
            "axis",
            N_("your softmax runs over the positions (axis 0): it must run over the vocabulary, axis -1"),
            wrong=lambda logits, targets: _loss(logits, targets, axis=0),
            watch=N_("a softmax over the positions instead of the vocabulary"),
        ),
        Mistake(
            "overflow",
            N_(
                "right on ordinary logits, but not with logits near 1000: exp(1000) overflows. "
                "Subtract each row's maximum before exp (it cancels out), as softmax does in notebook 02."
            ),
            spotted=lambda got, logits, targets: np.abs(logits).max() > 700,
            watch=N_("overflow for logits near 1000 (subtract the row maximum first)"),
        ),
    ],
    success=N_("correct: the mean over positions of −log p(next token), stable for large logits"),
)


def _probs(logits: np.ndarray, temperature: float) -> np.ndarray:
    """softmax(logits / temperature)."""
    return softmax(logits / temperature)


def _pick(p: np.ndarray, u: float) -> int:
    """The first token whose cumulative probability passes u."""
    return int(min(np.searchsorted(np.cumsum(p), u, side="right"), p.size - 1))


SAMPLE_WITH_TEMPERATURE = Exercise(
    name="check_sample_with_temperature",
    task=(
        "``my_sample(logits, temperature, u)``: the first token whose cumulative probability under "
        "``softmax(logits / temperature)`` exceeds the uniform number ``u``"
    ),
    shapes="logits (n_vocab,), temperature (), u () -> token id ()",
    reference=solution_sample,
    # In each input the right answer and the four mistakes below pick five different tokens.
    inputs=[
        (np.array([-0.9, 0.9, -1.0, -0.3, 0.3, -1.6]), 2.0, 0.71),
        (np.array([-0.6, -1.9, -0.3, -1.7, -1.7, 0.6, -2.7]), 0.5, 0.22),
        (np.array([0.8, -2.3, -1.0, 0.9, -0.7, -0.3]), 3.0, 0.36),
    ],
    shape="()",
    facts=lambda logits, temperature, u: {
        "temperature": temperature,
        "u": u,
        "label": N_("temperature {temperature}, u={u}"),
    },
    mistakes=[
        Mistake(
            "multiplied",
            N_(
                "you multiplied the logits by the temperature: divide them, softmax(logits / temperature), "
                "so a temperature below 1 sharpens the distribution"
            ),
            wrong=lambda logits, temperature, u: _pick(_probs(logits, 1.0 / temperature), u),
            watch=N_("multiplying the logits by the temperature instead of dividing"),
        ),
        Mistake(
            "ignored",
            N_("you ignored the temperature: sample from softmax(logits / temperature)"),
            wrong=lambda logits, temperature, u: _pick(_probs(logits, 1.0), u),
            watch=N_("ignoring the temperature"),
        ),
        Mistake(
            "greedy",
            N_(
                "you returned the most likely token: that is temperature → 0 (greedy). "
                "Use u: the first token whose cumulative probability passes u"
            ),
            wrong=lambda logits, temperature, u: int(np.argmax(logits)),
            watch=N_("returning the most likely token instead of using u"),
        ),
        Mistake(
            "raw_logits",
            N_("you accumulated the raw logits: turn them into probabilities with softmax first"),
            wrong=lambda logits, temperature, u: int(
                min(np.searchsorted(np.cumsum(logits), u, side="right"), logits.size - 1)
            ),
            watch=N_("accumulating the raw logits instead of the probabilities"),
        ),
    ],
    success=N_("correct: divide by the temperature, softmax, then walk the cumulative sum to u"),
)


def _attend(q: np.ndarray, K: np.ndarray, V: np.ndarray, scale: bool = True) -> np.ndarray:
    """softmax(K·q/√d_k)·V: one query over every cached key."""
    scores = (K @ q) / (np.sqrt(q.size) if scale else 1.0)  # (t,)
    return softmax(scores) @ V


def _cached(q, k, v, K, V) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Append k and v to the caches, then attend q over all of them."""
    K_all, V_all = np.vstack([K, k]), np.vstack([V, v])
    return _attend(q, K_all, V_all), K_all, V_all


def _cache_inputs() -> list[tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(903)
    inputs = []
    for t, d_k, d_v in ((4, 3, 5), (6, 5, 2), (1, 4, 3)):  # t cached positions; t, d_k, d_v differ
        q, k, v = rng.normal(size=d_k) * 2, rng.normal(size=d_k), rng.normal(size=d_v)
        inputs.append((q, k, v, rng.normal(size=(t, d_k)), rng.normal(size=(t, d_v))))
    return inputs


CACHED_ATTENTION = Exercise(
    name="check_cached_attention",
    task=(
        "``my_cached_attention(q, k, v, K_cache, V_cache) -> (out, K_cache, V_cache)``: append the new "
        "token's key and value to the caches, then attend its query over every cached position"
    ),
    shapes=(
        "q (d_k,), k (d_k,), v (d_v,), K_cache (t, d_k), V_cache (t, d_v) "
        "-> out (d_v,), K_cache (t + 1, d_k), V_cache (t + 1, d_v)"
    ),
    reference=solution_cached_attention,
    inputs=_cache_inputs(),
    shape="(out (d_v,), K_cache (t + 1, d_k), V_cache (t + 1, d_v))",
    facts=lambda q, k, v, K, V: {
        "t": len(K),
        "d_k": q.size,
        "d_v": v.size,
        "t_next": len(K) + 1,
        "label": N_("{t} cached positions, d_k={d_k}, d_v={d_v}"),
    },
    mistakes=[
        Mistake(
            "cached_only",
            N_(
                "you attended over the cached keys only: append the new key and value first, "
                "the new token may (and must) attend to itself"
            ),
            wrong=lambda q, k, v, K, V: _attend(q, K, V),
            part=0,
            watch=N_("attending over the old cache only (the new token must see itself)"),
        ),
        Mistake(
            "no_scale",
            N_("you forgot to divide the scores by √d_k"),
            wrong=lambda q, k, v, K, V: _attend(q, np.vstack([K, k]), np.vstack([V, v]), scale=False),
            part=0,
            watch=N_("forgetting to divide the scores by √d_k"),
        ),
        Mistake(
            "new_value",
            N_("you returned the new value: the query attends to every cached position and itself"),
            wrong=lambda q, k, v, K, V: v,
            part=0,
            watch=N_("returning the new value v instead of the weighted sum"),
        ),
        Mistake(
            "weights_all_one",
            N_("your weights are all 1: the softmax must run over the keys, so the weights sum to 1"),
            wrong=lambda q, k, v, K, V: np.vstack([V, v]).sum(axis=0),
            part=0,
            watch=N_("skipping the softmax, so every weight is 1"),
        ),
        Mistake(
            "out_only",
            N_("the output is right; now also return the grown caches: (out, K_cache, V_cache)"),
            wrong=lambda q, k, v, K, V: OneOf(
                out=_cached(q, k, v, K, V)[0], first=(_cached(q, k, v, K, V)[0],)
            ),
            watch=N_("returning only the output, without the grown caches"),
        ),
        Mistake(
            "caches",
            N_(
                "the output is right, but the caches you return should be the old ones with the new key and "
                "value as their last row: shapes ({t_next}, {d_k}) and ({t_next}, {d_v})"
            ),
            wrong=lambda q, k, v, K, V: _cached(q, k, v, K, V)[0],
            part=0,
            watch=N_("returning caches that lack the new key and value"),
        ),
    ],
    success=N_(
        "correct: append once, attend over everything cached; no mask is needed, all keys are in the past"
    ),
)


EXERCISES = (NEXT_TOKEN_LOSS, SAMPLE_WITH_TEMPERATURE, CACHED_ATTENTION)
check_next_token_loss, check_sample_with_temperature, check_cached_attention = checkers(
    __name__, EXERCISES, taught="09 §Exercises"
)
