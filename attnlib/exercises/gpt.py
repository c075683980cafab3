"""Exercises of notebook 09 (a tiny GPT): the next-token loss, sampling with a temperature, a KV-cache step.

The hidden cases are chosen so that each typical mistake gives a different number from the right
answer in the first case, which lets the diagnosis name it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._feedback import Case, Verdict, check_function, matches

__all__ = ["check_cached_attention", "check_next_token_loss", "check_sample_with_temperature"]


# ---- 1. the next-token loss ---------------------------------------------------------------------
def _log_softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def _loss(logits: np.ndarray, targets: np.ndarray) -> float:
    return float(-_log_softmax(logits)[np.arange(targets.size), targets].mean())


def _loss_cases() -> list[Case]:
    rng = np.random.default_rng(901)
    cases = []
    for T, V in ((5, 7), (3, 4), (6, 11)):  # T and V differ, so a wrong axis changes the number
        logits = rng.normal(0.0, 2.0, size=(T, V))
        targets = rng.integers(0, V, size=T)
        cases.append(Case((logits, targets), np.array(_loss(logits, targets)), label=f"logits ({T}, {V})"))
    return cases


def _loss_wrong_answers(case: Case) -> list[tuple[float, str]]:
    logits, targets = case.args
    T = targets.size
    log_p = _log_softmax(logits)
    right = _loss(logits, targets)
    picked = logits[np.arange(T), targets]
    return [
        (right * T, "you summed over the positions: the loss is the mean, so divide by T (np.mean)"),
        (-right, "your loss is negative: it is −log p of the target, and log p ≤ 0, so the loss is ≥ 0"),
        (right / np.log(2), "you used log base 2 (bits); the series measures the loss in nats, np.log"),
        (
            float(-picked.mean()),
            "you took −logits[t, target] without softmax: turn the logits into "
            "log-probabilities first, logits − log Σ exp(logits) along the vocabulary",
        ),
        (
            float(-log_p[np.arange(T - 1), targets[1:]].mean()) if T > 1 else np.nan,
            "you shifted the targets again: targets[t] is already the token that follows position t",
        ),
        (
            float(-_log_softmax(logits.T).T[np.arange(T), targets].mean()),
            "your softmax runs over the positions (axis 0): it must run over the vocabulary, axis -1",
        ),
    ]


def _loss_diagnosis(got: np.ndarray, case: Case) -> str | None:
    for wrong, message in _loss_wrong_answers(case):
        if np.isfinite(wrong) and matches(got, wrong):
            return message
    return None


def check_next_token_loss(candidate: Any) -> Verdict:
    """Check ``my_next_token_loss(logits, targets)``: the mean of −log softmax(logits[t])[targets[t]].

    Shapes:
        logits (T, V), targets (T,) -> ()
    """
    verdict = check_function(candidate, _loss_cases(), diagnoses=(_loss_diagnosis,))
    if not verdict:
        return verdict
    # Large logits: exp overflows unless the row maximum is subtracted first.
    logits = np.array([[1000.0, 998.0, 990.0], [-5.0, 800.0, 801.0]])
    targets = np.array([0, 2])
    try:
        with np.errstate(all="ignore"):
            got = float(np.asarray(candidate(logits.copy(), targets.copy()), dtype=float))
    except Exception as err:  # the learner's code
        return Verdict(False, f"with logits near 1000 your function raised {type(err).__name__}: {err}")
    if not np.isclose(got, _loss(logits, targets), atol=1e-6):
        return Verdict(
            False,
            f"right on ordinary logits, but with logits near 1000 you get {got}: exp(1000) overflows. "
            "Subtract each row's maximum before exp (it cancels out), as softmax does in notebook 02.",
        )
    return Verdict(True, "correct: the mean over positions of −log p(next token), stable for large logits")


# ---- 2. sampling with a temperature -------------------------------------------------------------
def _probs(logits: np.ndarray, temperature: float) -> np.ndarray:
    z = logits / temperature
    e = np.exp(z - z.max())
    return e / e.sum()


def _pick(p: np.ndarray, u: float) -> int:
    return int(min(np.searchsorted(np.cumsum(p), u, side="right"), p.size - 1))


# (logits, temperature, u): in each case the right answer and the four mistakes below pick five
# different tokens.
_SAMPLE_SETTINGS = (
    ([-0.9, 0.9, -1.0, -0.3, 0.3, -1.6], 2.0, 0.71),
    ([-0.6, -1.9, -0.3, -1.7, -1.7, 0.6, -2.7], 0.5, 0.22),
    ([0.8, -2.3, -1.0, 0.9, -0.7, -0.3], 3.0, 0.36),
)


def _sample_cases() -> list[Case]:
    cases = []
    for logits, temperature, u in _SAMPLE_SETTINGS:
        logits = np.array(logits)
        expected = _pick(_probs(logits, temperature), u)
        cases.append(
            Case((logits, temperature, u), np.array(expected), label=f"temperature {temperature}, u={u}")
        )
    return cases


def _sample_diagnosis(got: np.ndarray, case: Case) -> str | None:
    logits, temperature, u = case.args
    raw = np.cumsum(logits)
    wrong = [
        (
            _pick(_probs(logits, 1.0 / temperature), u),
            "you multiplied the logits by the temperature: divide them, softmax(logits / temperature), "
            "so a temperature below 1 sharpens the distribution",
        ),
        (
            _pick(_probs(logits, 1.0), u),
            "you ignored the temperature: sample from softmax(logits / temperature)",
        ),
        (
            int(np.argmax(logits)),
            "you returned the most likely token: that is temperature → 0 (greedy). "
            "Use u: the first token whose cumulative probability passes u",
        ),
        (
            int(min(np.searchsorted(raw, u, side="right"), raw.size - 1)),
            "you accumulated the raw logits: turn them into probabilities with softmax first",
        ),
    ]
    for answer, message in wrong:
        if matches(got, answer):
            return message
    return None


def check_sample_with_temperature(candidate: Any) -> Verdict:
    """Check ``my_sample(logits, temperature, u)``: the first token whose cumulative probability under
    ``softmax(logits / temperature)`` exceeds the uniform number ``u``.

    Shapes:
        logits (V,), temperature (), u () -> token id ()
    """
    verdict = check_function(candidate, _sample_cases(), diagnoses=(_sample_diagnosis,))
    if verdict:
        return Verdict(True, "correct: divide by the temperature, softmax, then walk the cumulative sum to u")
    return verdict


# ---- 3. one step with a key/value cache ---------------------------------------------------------
def _cached_out(q: np.ndarray, K: np.ndarray, V: np.ndarray, scale: bool = True) -> np.ndarray:
    scores = (K @ q) / (np.sqrt(q.size) if scale else 1.0)  # (t,)
    w = np.exp(scores - scores.max())
    return (w / w.sum()) @ V


def _cache_cases() -> list[Case]:
    rng = np.random.default_rng(903)
    cases = []
    for t, d_k, d_v in ((4, 3, 5), (6, 5, 2), (1, 4, 3)):  # t cached positions; t, d_k, d_v differ
        q, k, v = rng.normal(size=d_k) * 2, rng.normal(size=d_k), rng.normal(size=d_v)
        K, V = rng.normal(size=(t, d_k)), rng.normal(size=(t, d_v))
        expected = _cached_out(q, np.vstack([K, k]), np.vstack([V, v]))
        cases.append(Case((q, k, v, K, V), expected, label=f"{t} cached positions, d_k={d_k}, d_v={d_v}"))
    return cases


def _cache_diagnosis(got: np.ndarray, case: Case) -> str | None:
    q, k, v, K, V = case.args
    K_all, V_all = np.vstack([K, k]), np.vstack([V, v])
    wrong = [
        (
            _cached_out(q, K, V),
            "you attended over the cached keys only: append the new key and value first, "
            "the new token may (and must) attend to itself",
        ),
        (_cached_out(q, K_all, V_all, scale=False), "you forgot to divide the scores by √d_k"),
        (v, "you returned the new value: the query attends to every cached position and itself"),
        (
            V_all.sum(axis=0),
            "your weights are all 1: the softmax must run over the keys, so the weights sum to 1",
        ),
    ]
    for answer, message in wrong:
        if matches(got, answer):
            return message
    return None


def check_cached_attention(candidate: Any) -> Verdict:
    """Check ``my_cached_attention(q, k, v, K_cache, V_cache) -> (out, K_cache, V_cache)``: append the new
    token's key and value to the caches, then attend its query over every cached position.

    Shapes:
        q (d_k,), k (d_k,), v (d_v,), K_cache (t, d_k), V_cache (t, d_v)
        -> out (d_v,), K_cache (t + 1, d_k), V_cache (t + 1, d_v)
    """
    verdict = check_function(candidate, _cache_cases(), diagnoses=(_cache_diagnosis,))
    if not verdict:
        return verdict
    q, k, v, K, V = _cache_cases()[0].args
    result = candidate(q.copy(), k.copy(), v.copy(), K.copy(), V.copy())
    if not isinstance(result, tuple) or len(result) != 3:
        return Verdict(
            False, "the output is right; now also return the grown caches: (out, K_cache, V_cache)"
        )
    _, K_new, V_new = (np.asarray(r, dtype=float) for r in result)
    if not (matches(K_new, np.vstack([K, k])) and matches(V_new, np.vstack([V, v]))):
        return Verdict(
            False,
            "the output is right, but the caches you return should be the old ones with the new key and "
            f"value as their last row: shapes {(K.shape[0] + 1, K.shape[1])} and "
            f"{(V.shape[0] + 1, V.shape[1])}, got {K_new.shape} and {V_new.shape}",
        )
    return Verdict(
        True,
        "correct: append once, attend over everything cached; no mask is needed, all keys are in the past",
    )
