"""The quiz bank's keys, recomputed: for every question whose answer is a number, a shape or a fact the
library can compute, a small experiment with attnlib picks the option, and it must be the keyed one.

Each experiment returns the index of the option its measurement supports; it never reads the key.
Questions about meaning or roles (what a row of A describes, what Q, K and V are for) have no
computation behind them and are listed in NOT_COMPUTABLE, so a new question must be put in one place or
the other.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import attnlib
from attnlib import data, gpt
from attnlib.core.geometry import inside_convex_hull
from attnlib.quiz import QUIZZES

NOT_COMPUTABLE = {(0, 1), (1, 3), (4, 0), (6, 2), (7, 2), (7, 3), (9, 1)}


def _shape_option(options: list[str], shape: tuple[int, ...], sizes: dict[str, int]) -> int:
    """The option that spells `shape` in symbols, such as "(T_q, T_k)" with sizes {"T_q": 3, ...}."""
    def value(option: str) -> tuple[int, ...] | None:
        parts = re.fullmatch(r"\((.*)\)", option.strip())
        if not parts:
            return None
        return tuple(sizes[p.strip()] if p.strip() in sizes else int(p) for p in parts.group(1).split(","))
    return [value(o) for o in options].index(shape)


def _rng() -> np.random.Generator:
    return np.random.default_rng(7)


def q0_0(options):
    sizes = {"T_q": 3, "T_k": 5, "d_k": 4}
    Q, K = _rng().normal(size=(3, 4)), _rng().normal(size=(5, 4))
    return _shape_option(options, attnlib.scores(Q, K, scale=False).shape, sizes)


def q0_2(options):
    rng = _rng()
    attnlib.scores(rng.normal(size=(3, 4)), rng.normal(size=(5, 4)))  # T_q ≠ T_k is fine
    with pytest.raises(ValueError, match="d_k"):
        attnlib.scores(rng.normal(size=(3, 4)), rng.normal(size=(3, 5)))  # d_k ≠ d_k is not
    return next(i for i, o in enumerate(options) if "d_k of Q" in o and "d_k of K" in o)


def q1_0(options):
    X = _rng().normal(size=(5, 3))
    G = X @ X.T
    assert np.array_equal(G, G.T) and X[1] @ X[2] == X[2] @ X[1]  # BLAS may round G[1, 2] differently
    return next(i for i, o in enumerate(options) if "does not depend on the order" in o)


def q1_1(options):
    X = _rng().normal(size=(5, 3))
    assert np.allclose(np.diag(X @ X.T), np.linalg.norm(X, axis=1) ** 2)
    return next(i for i, o in enumerate(options) if "squared length" in o)


def q1_2(options):
    a, b = np.array([1.0, 0.0]), np.array([1.0, 1.0])
    independent = np.linalg.matrix_rank(np.vstack([a, b])) == 2
    orthogonal = a @ b == 0
    wanted = ("linearly independent" if independent else "dependent", "not orthogonal" if not orthogonal else "orthogonal")
    return next(i for i, o in enumerate(options) if o.startswith(f"They are {wanted[0]}") and wanted[1] in o)


def q2_0(options):
    same = np.allclose(attnlib.softmax([1.0, 2.0, 3.0]), attnlib.softmax([101.0, 102.0, 103.0]), rtol=0, atol=1e-15)
    assert same
    return next(i for i, o in enumerate(options) if "identical" in o)


def q2_1(options):
    s = np.array([0.3, 1.0, -0.5, 0.8])
    p, p10 = attnlib.softmax(s), attnlib.softmax(10 * s)
    assert p10.max() > p.max() and attnlib.entropy(p10) < attnlib.entropy(p) and p10.argmax() == s.argmax()
    return next(i for i, o in enumerate(options) if "one-hot on the largest" in o)


def q2_2(options):
    big = np.array([1000.0, 1001.0, 1002.0])
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(big) / np.exp(big).sum()
    assert np.isnan(naive).all() and np.allclose(attnlib.softmax(big), attnlib.softmax(big - big.max()))
    assert np.isfinite(attnlib.softmax(big)).all()
    return next(i for i, o in enumerate(options) if "overflows" in o)


def q2_3(options):
    p = attnlib.softmax(_rng().normal(scale=5, size=(200, 6)))
    assert (p > 0).all() and (p < 1).all()
    return next(i for i, o in enumerate(options) if o.startswith("strictly between 0 and 1"))


def q3_0(options):
    X = _rng().normal(size=(4, 3))
    O, A = attnlib.attention(X, X, X, scale=False)
    assert np.allclose(O[2], (A[2][:, None] * X).sum(0)) and np.allclose(A.sum(-1), 1)
    return next(i for i, o in enumerate(options) if o.startswith("a weighted average of the rows of X"))


def q3_1(options):
    X = _rng().normal(size=(6, 2))
    O, _ = attnlib.attention(X, X, X, scale=False)
    assert inside_convex_hull(X, O).all()
    return next(i for i, o in enumerate(options) if "convex hull" in o)


def q3_2(options):
    X = _rng().normal(size=(5, 2))
    O, _ = attnlib.attention(X * 1e-6, X, X, scale=False)  # scores divided by a huge number
    assert np.allclose(O, X.mean(0), atol=1e-5)
    return next(i for i, o in enumerate(options) if "centroid" in o)


def q3_3(options):
    X = _rng().normal(size=(5, 3))
    assert np.allclose(attnlib.scores(X, X), attnlib.scores(X, X).T)  # one vector per token: symmetric
    W_q, W_k, _ = attnlib.init_projections(3, 3, rng=_rng())
    S = attnlib.scores(X @ W_q, X @ W_k)
    assert not np.allclose(S, S.T)  # separate maps give separate roles
    return next(i for i, o in enumerate(options) if "different roles" in o)


def q4_1(options):
    rng = _rng()
    X, W_q, W_k = rng.normal(size=(5, 4)), rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    S = (X @ W_q) @ (X @ W_k).T
    assert not np.allclose(S, S.T)
    return next(i for i, o in enumerate(options) if o.startswith("Not in general"))


def q4_2(options):
    rng = _rng()
    X, W = rng.normal(size=(6, 16)), rng.normal(size=(16, 4))
    Q, _, V = attnlib.project(X, W, W, rng.normal(size=(16, 8)))
    return options.index(f"Q {Q.shape}, V {V.shape}")


def q4_3(options):
    X = _rng().normal(size=(4, 3))
    I = np.eye(3)
    O, _ = attnlib.attention(*attnlib.project(X, I, I, I), scale=False)
    assert np.allclose(O, attnlib.softmax(X @ X.T) @ X)
    return next(i for i, o in enumerate(options) if o.startswith("softmax(X·Xᵀ)·X"))


def _dot_products(d_k: int, n: int = 20_000) -> np.ndarray:
    rng = np.random.default_rng(d_k)
    return (rng.normal(size=(n, d_k)) * rng.normal(size=(n, d_k))).sum(-1)


def q5_0(options):
    d_k = 64
    measured = _dot_products(d_k).var()
    candidates = {"1": 1, "√d_k": np.sqrt(d_k), "d_k": d_k, "d_k²": d_k**2}
    return int(np.argmin([abs(np.log(measured / candidates[o])) for o in options]))


def q5_1(options):
    for d_k in (4, 64, 512):
        assert _dot_products(d_k).var() / d_k == pytest.approx(1, abs=0.05)  # c = √d_k: variance 1
        assert _dot_products(d_k).var() / d_k**2 < 0.3  # c = d_k: variance 1/d_k, not 1
    return next(i for i, o in enumerate(options) if "d_k / c²" in o)


def q5_2(options):
    rng = np.random.default_rng(3)
    largest, spread = [], []
    for d_k in (1, 64, 1024):
        s = (rng.normal(size=(200, 8, d_k)) * rng.normal(size=(200, 1, d_k))).sum(-1)  # unscaled
        p = attnlib.softmax(s)
        largest.append(p.max(-1).mean())
        spread.append(attnlib.entropy(p).mean())
    assert largest[0] < largest[1] < largest[2] > 0.9 and spread[0] > spread[1] > spread[2]
    return next(i for i, o in enumerate(options) if o.startswith("nearly one-hot"))


def q5_3(options):
    J_one_hot = attnlib.softmax_jacobian(attnlib.softmax(np.array([30.0, 0.0, 0.0, 0.0])))
    J_spread = attnlib.softmax_jacobian(attnlib.softmax(np.array([0.3, 0.0, 0.1, 0.0])))
    assert np.abs(J_one_hot).max() < 1e-11 < 0.1 < np.abs(J_spread).max()
    return next(i for i, o in enumerate(options) if "diag(p) − p·pᵀ is nearly 0" in o)


def q6_0(options):
    s = np.array([[1.0, 2.0, 0.5]])
    zeroed = attnlib.softmax(np.where([[True, True, False]], s, 0.0))
    blocked = attnlib.attention_weights(s[:, :1] * 0 + 1, np.ones((3, 1)), mask=[[True, True, False]])
    assert zeroed[0, 2] > 0 and blocked[0, 2] == 0
    return next(i for i, o in enumerate(options) if "e⁰ = 1" in o)


def q6_1(options):
    allowed = attnlib.causal_mask(4)
    assert not allowed[np.triu_indices(4, 1)].any() and allowed[np.tril_indices(4)].all()
    return next(i for i, o in enumerate(options) if "above the diagonal" in o)


def q6_3(options):
    rng = _rng()
    Q, K = rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    keep = attnlib.causal_mask(4)
    after = np.where(keep, attnlib.softmax(attnlib.scores(Q, K)), 0.0)
    assert not np.allclose(after.sum(-1), 1)
    assert np.allclose(after / after.sum(-1, keepdims=True), attnlib.attention_weights(Q, K, mask=keep))
    return next(i for i, o in enumerate(options) if "Divide each row by its new sum" in o)


def q7_0(options):
    rng = _rng()
    O, _ = attnlib.attention(rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2)))
    return _shape_option(options, O.shape, {"T_q": 3, "T_k": 5, "d_k": 4, "d_v": 2})


def q7_1(options):
    rng = _rng()
    _, A = attnlib.attention(rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2)))
    assert np.allclose(A.sum(-1), 1) and not np.allclose(A.sum(0), 1)
    return next(i for i, o in enumerate(options) if o.startswith("The last axis"))


def q8_0(options):
    heads = attnlib.split_heads(np.zeros((7, 384)), 12)
    return options.index(str(heads.shape[-1]))


def q8_1(options):
    heads = attnlib.split_heads(np.zeros((7, 384)), 12)
    return _shape_option(options, heads.shape, {"n_heads": 12, "T": 7, "d_k": 32, "d_model": 384})


def q8_2(options):
    rng = _rng()
    X = rng.normal(size=(5, 4))
    padded = np.vstack([X, np.zeros((3, 4))])
    alone, _ = attnlib.attention(X, X, X)
    masked, _ = attnlib.attention(padded, padded, padded, mask=attnlib.padding_mask([5], 8)[0])
    unmasked, _ = attnlib.attention(padded, padded, padded)
    assert np.allclose(masked[:5], alone, rtol=0, atol=1e-15) and not np.allclose(unmasked[:5], alone)
    return next(i for i, o in enumerate(options) if "masked with −∞" in o)


def _tiny_gpt():
    with np.load(data.DATA_DIR / "tiny_gpt_tang.npz", allow_pickle=False) as npz:
        arrays = dict(npz)
    config = gpt.config_from_arrays(arrays)
    return gpt.params_from_arrays(arrays, config), config


def q9_0(options):
    params, config = _tiny_gpt()
    ids = np.random.default_rng(5).integers(0, config.vocab_size, 20)
    t = 10
    logits_before, _ = gpt.forward(params, config, ids)
    changed = ids.copy()
    changed[t + 2 :] = (ids[t + 2 :] + 1) % config.vocab_size
    changed[t + 1] = np.argmax(logits_before[t])  # the target becomes the model's favourite
    assert changed[t + 1] != ids[t + 1]
    logits_after, _ = gpt.forward(params, config, changed)
    assert np.array_equal(logits_before[: t + 1], logits_after[: t + 1])  # the prediction at t: unchanged
    loss_before, loss_after = gpt.token_losses(params, config, ids), gpt.token_losses(params, config, changed)
    assert abs(loss_before[t] - loss_after[t]) > 0.1  # the loss at t compares with token t+1: changed
    return next(i for i, o in enumerate(options) if o == "not at all")


def q9_2(options):
    params, config = _tiny_gpt()
    prompt = np.arange(5)
    cached, _ = gpt.generate(params, config, prompt, 8, temperature=1.0, rng=np.random.default_rng(1))
    full, _ = gpt.generate(params, config, prompt, 8, temperature=1.0, rng=np.random.default_rng(1), use_cache=False)
    assert np.array_equal(cached, full) and config.causal
    return next(i for i, o in enumerate(options) if o.startswith("Because of the causal mask"))


def q9_3(options):
    logits = np.array([2.0, 1.5, -0.3, 0.9])
    peaks = [attnlib.softmax(logits / tau).max() for tau in (2.0, 1.0, 0.5, 0.1)]
    orders = {tuple(np.argsort(attnlib.softmax(logits / tau))) for tau in (2.0, 1.0, 0.5, 0.1)}
    assert np.all(np.diff(peaks) > 0) and len(orders) == 1
    return next(i for i, o in enumerate(options) if "closer to always taking the most likely" in o)


def q10_0(options):
    rng = _rng()
    X, W = rng.normal(size=(6, 4)), rng.normal(size=(3, 4, 4))
    perm = rng.permutation(6)
    out, _ = attnlib.self_attention(X, *W)  # no mask, no positions
    out_p, _ = attnlib.self_attention(X[perm], *W)
    assert np.allclose(out_p, out[perm], rtol=0, atol=1e-12) and not np.allclose(out_p, out)
    return next(i for i, o in enumerate(options) if "shuffled in the same way" in o)


def q10_1(options):
    q, k = _rng().normal(size=(2, 1, 8))

    def score(i, j):
        return attnlib.rope_scores(q, k, [i], [j])[0, 0]

    assert np.isclose(score(7, 3), score(107, 103))  # the same i − j: the same score
    assert not np.isclose(score(7, 3), score(8, 2)) and not np.isclose(score(7, 3), score(3, 7))  # i + j, order
    return options.index("i − j only")


def q10_2(options):
    w = attnlib.softmax(attnlib.alibi_bias(12, slopes=0.5)[-1])  # the last query, equal q·k: keys 11 … 0 back
    assert np.isclose(w[10] / w[0], np.exp(5.0))  # 1 back against 11 back
    return next(i for i, o in enumerate(options) if o.startswith("e⁵"))


def q10_3(options):
    t, d_k = np.arange(8192), 64
    squeezed = attnlib.rope_angles(t / 4, d_k).max(axis=0)  # position interpolation, 8,192 → 2,048
    assert (squeezed < attnlib.rope_angles([2048], d_k)[0]).all()  # inside the trained range, every pair
    assert (attnlib.rope_angles(t, d_k).max(axis=0)[1:] > attnlib.rope_angles([2047], d_k)[0][1:]).all()
    return next(i for i, o in enumerate(options) if o.startswith("divides every position by 4"))


def q11_0(options):
    x = np.array([1.0, 3.0, 6.0, 2.0])  # the second block raises the maximum from 3 to 6
    m, l = attnlib.online_softmax_trace(x, 2)
    assert np.isclose(l[1], l[0] * np.exp(m[0] - m[1]) + np.exp(x[2:] - m[1]).sum())
    assert not np.isclose(l[1], l[0] * np.exp(m[1] - m[0]) + np.exp(x[2:] - m[1]).sum())
    return next(i for i, o in enumerate(options) if o.startswith("ℓ · e^(m_old − m_new)"))


def q11_1(options):
    n = 8
    kinds = attnlib.tile_kinds(attnlib.causal_mask(4 * n), 4, 4)  # (n, n): 0 skipped
    assert (kinds > 0).sum() == n * (n + 1) // 2 and (kinds == 0).sum() == n * (n - 1) // 2
    return next(i for i, o in enumerate(options) if o.startswith("n(n + 1)/2"))


def q11_2(options):
    ratio = attnlib.kv_cache_bytes(80, 4096, 64, 128) / attnlib.kv_cache_bytes(80, 4096, 8, 128)
    assert ratio == 8
    return options.index("8 times smaller")


def q11_3(options):
    stored = data.load("tiny_gpt_tang")
    config = gpt.config_from_arrays(stored)
    model = gpt.params_from_arrays(stored, config)
    poems = gpt.load_poems()
    ids = poems.heldout_ids[: 8 * 65].reshape(8, 65)
    names = [f"l{i}.W_{x}" for i in range(config.n_layers) for x in "kv"]
    pooled = model | {name: attnlib.repeat_kv_heads(attnlib.share_kv_heads(model[name], 4, 2), 4, 2)
                      for name in names}
    counts = np.bincount(poems.train_ids, minlength=config.vocab_size) + 0.5
    frequency = -np.log(counts[poems.heldout_ids] / counts.sum()).mean()
    assert gpt.token_losses(pooled, config, ids).mean() > frequency > gpt.token_losses(model, config, ids).mean()
    return next(i for i, o in enumerate(options) if o.startswith("the held-out loss rose"))


EXPERIMENTS = {
    tuple(int(n) for n in name[1:].split("_")): fn
    for name, fn in dict(globals()).items()
    if re.fullmatch(r"q\d+_\d+", name)
}


def test_every_question_is_recomputed_or_named_as_not_computable():
    questions = {(n, i) for n, qs in QUIZZES.items() for i in range(len(qs))}
    assert set(EXPERIMENTS) | NOT_COMPUTABLE == questions
    assert not set(EXPERIMENTS) & NOT_COMPUTABLE
    assert len(EXPERIMENTS) >= 30


@pytest.mark.parametrize("key", sorted(EXPERIMENTS), ids=lambda k: f"quiz{k[0]:02d}-q{k[1] + 1}")
def test_the_keyed_answer_is_the_one_the_library_computes(key):
    number, index = key
    question = QUIZZES[number][index]
    assert EXPERIMENTS[key](question["options"]) == question["answer"], question["prompt"]
