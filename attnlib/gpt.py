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

numpy only, like ``core``. Taught in: 09.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .checks import check_generator, check_positive_int
from .core import attention, causal_mask, project, softmax
from .heads import merge_heads, split_heads

__all__ = [
    "GPTConfig",
    "adam_init",
    "adam_update",
    "config_from_arrays",
    "cross_entropy",
    "forward",
    "generate",
    "generation_lab_data",
    "hidden_states",
    "init_params",
    "loss_and_grads",
    "numerical_gradient",
    "params_from_arrays",
    "prefix_loss",
    "sequence_loss",
    "token_losses",
    "train",
]

_LAYER_PARAMS = ("W_q", "W_k", "W_v", "W_o", "W_1", "b_1", "W_2", "b_2")


@dataclass(frozen=True)
class GPTConfig:
    """The sizes of a tiny GPT and whether its attention is causal.

    Shapes:
        vocab_size V, context T_max (longest sequence), d_model, n_heads (d_k = d_model / n_heads),
        n_layers, d_ff (width of the MLP)
    """

    vocab_size: int
    context: int = 64
    d_model: int = 64
    n_heads: int = 4
    n_layers: int = 2
    d_ff: int = 128
    causal: bool = True

    def __post_init__(self) -> None:
        for name in ("vocab_size", "context", "d_model", "n_heads", "n_layers", "d_ff"):
            check_positive_int(getattr(self, name), name)
        if self.d_model % self.n_heads:
            raise ValueError(
                f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}: every head needs "
                "d_k = d_model / n_heads columns"
            )
        if not isinstance(self.causal, (bool, np.bool_)):
            raise TypeError(f"causal must be True or False; got {self.causal!r}")

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The config as 0-d int arrays under ``config.<field>``, for an ``.npz`` next to the weights."""
        return {f"config.{k}": np.array(int(v)) for k, v in asdict(self).items()}


def config_from_arrays(arrays: dict) -> GPTConfig:
    """Inverse of ``GPTConfig.to_arrays`` (reads the ``config.*`` entries of a loaded ``.npz``)."""
    fields = {k.removeprefix("config."): int(v) for k, v in arrays.items() if k.startswith("config.")}
    fields["causal"] = bool(fields["causal"])
    return GPTConfig(**fields)


def params_from_arrays(arrays: dict, config: GPTConfig) -> dict[str, np.ndarray]:
    """The parameters of a loaded ``.npz`` as float64 arrays, each checked against the config."""
    expected = _param_shapes(config)
    missing = sorted(set(expected) - set(arrays))
    if missing:
        raise ValueError(f"the arrays lack the parameters {missing}")
    params = {name: np.asarray(arrays[name], dtype=np.float64) for name in expected}
    _check_params(params, config)
    return params


def _param_shapes(config: GPTConfig) -> dict[str, tuple[int, ...]]:
    d, f = config.d_model, config.d_ff
    shapes = {
        "tok_emb": (config.vocab_size, d),
        "pos_emb": (config.context, d),
        "b_out": (config.vocab_size,),
    }
    for i in range(config.n_layers):
        shapes |= {
            f"l{i}.W_q": (d, d),
            f"l{i}.W_k": (d, d),
            f"l{i}.W_v": (d, d),
            f"l{i}.W_o": (d, d),
            f"l{i}.W_1": (d, f),
            f"l{i}.b_1": (f,),
            f"l{i}.W_2": (f, d),
            f"l{i}.b_2": (d,),
        }
    return shapes


def _check_params(params: Any, config: GPTConfig) -> None:
    if not isinstance(config, GPTConfig):
        raise TypeError(f"config must be a GPTConfig; got {type(config).__name__}")
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict of arrays (see init_params); got {type(params).__name__}")
    for name, shape in _param_shapes(config).items():
        if name not in params:
            raise ValueError(f"params has no {name!r}; expected shape {shape}")
        if np.shape(params[name]) != shape:
            raise ValueError(
                f"params[{name!r}] must have shape {shape} for this config; got {np.shape(params[name])}"
            )


def init_params(config: GPTConfig, *, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Random starting parameters: small embeddings, projections ~ N(0, 1/fan_in).

    The two matrices that write into the residual stream (W_o, W_2) start smaller, by 1/√(2·n_layers),
    so the stream does not grow with depth at the start of training.

    Shapes:
        -> dict of arrays, see the module docstring
    """
    rng = check_generator(rng)
    if not isinstance(config, GPTConfig):
        raise TypeError(f"config must be a GPTConfig; got {type(config).__name__}")
    out_scale = 1.0 / np.sqrt(2 * config.n_layers)
    params = {}
    for name, shape in _param_shapes(config).items():
        base = name.split(".")[-1]
        if base.startswith("b"):
            params[name] = np.zeros(shape)
        elif name in ("tok_emb", "pos_emb"):
            params[name] = rng.normal(0.0, 0.1, size=shape)
        else:
            scale = out_scale if base in ("W_o", "W_2") else 1.0
            params[name] = rng.normal(0.0, scale / np.sqrt(shape[0]), size=shape)
    return params


def _check_ids(ids: Any, config: GPTConfig, name: str = "ids") -> np.ndarray:
    arr = np.asarray(ids)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must be token ids (whole numbers) of shape (..., T); got dtype {arr.dtype}")
    if arr.ndim < 1 or arr.shape[-1] == 0:
        raise ValueError(
            f"{name} must hold at least one token, shape (..., T) with T >= 1; got shape {arr.shape}"
        )
    if arr.shape[-1] > config.context:
        raise ValueError(
            f"{name} has T={arr.shape[-1]} tokens, longer than the context T_max={config.context} "
            "the model has positions for"
        )
    if arr.min() < 0 or arr.max() >= config.vocab_size:
        bad = int(arr[(arr < 0) | (arr >= config.vocab_size)].flat[0])
        raise ValueError(
            f"{name} holds the id {bad}, outside the vocabulary 0..V-1 = 0..{config.vocab_size - 1}"
        )
    return arr.astype(np.int64)


def _forward(
    params: dict, config: GPTConfig, ids: np.ndarray, last_only: bool = False
) -> tuple[np.ndarray, list[dict]]:
    T = ids.shape[-1]
    mask = causal_mask(T) if config.causal else None
    x = params["tok_emb"][ids] + params["pos_emb"][:T]  # (..., T, d_model)
    caches = []
    for i in range(config.n_layers):
        p = {k: params[f"l{i}.{k}"] for k in _LAYER_PARAMS}
        Q, K, V = project(x, p["W_q"], p["W_k"], p["W_v"])  # (..., T, d_model) each
        Q_h, K_h, V_h = (split_heads(Y, config.n_heads) for Y in (Q, K, V))  # (..., H, T, d_k)
        out_h, weights = attention(Q_h, K_h, V_h, mask)  # (..., H, T, d_k), (..., H, T, T)
        heads = merge_heads(out_h)  # (..., T, d_model)
        x1 = x + heads @ p["W_o"]
        pre = x1 @ p["W_1"] + p["b_1"]  # (..., T, d_ff)
        hidden = np.maximum(pre, 0.0)
        caches.append(
            dict(x=x, Q_h=Q_h, K_h=K_h, V_h=V_h, weights=weights, heads=heads, x1=x1, pre=pre, hidden=hidden)
        )
        x = x1 + hidden @ p["W_2"] + p["b_2"]
    # Generation needs the logits of the last position only: skip the (T, V) product for the others.
    logits = (x[..., -1:, :] if last_only else x) @ params["tok_emb"].T + params["b_out"]  # (..., T, V)
    caches.append(dict(x=x))
    return logits, caches


def forward(params: dict, config: GPTConfig, ids: Any) -> tuple[np.ndarray, np.ndarray]:
    """Run the model: next-token logits at every position, and every head's attention weights.

    Taught in: 09 §2.

    Args:
        params: the parameters (see ``init_params``).
        config: the sizes; ``config.causal`` decides whether the causal mask is applied.
        ids: token ids, one sequence per leading index.

    Shapes:
        ids (..., T) with T <= T_max -> logits (..., T, V), weights (..., n_layers, n_heads, T, T)

    Raises:
        ValueError: no tokens, more than T_max tokens, an id outside 0..V-1, parameters of the wrong shape.
    """
    _check_params(params, config)
    ids = _check_ids(ids, config)
    logits, caches = _forward(params, config, ids)
    return logits, np.stack([c["weights"] for c in caches[:-1]], axis=-4)


def cross_entropy(logits: Any, targets: Any) -> tuple[float, np.ndarray]:
    """Mean of ``-log softmax(logits)[target]`` over all positions, and its gradient w.r.t. the logits.

    Taught in: 09 §2.

    Shapes:
        logits (..., V), targets (...) -> loss (), grad (..., V)
    """
    logits = np.asarray(logits, dtype=np.float64)
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(
            f"targets must have shape {logits.shape[:-1]} (one per row of logits); got {targets.shape}"
        )
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]
    n = targets.size
    grad = np.exp(log_p)
    np.put_along_axis(grad, targets[..., None], np.take_along_axis(grad, targets[..., None], -1) - 1.0, -1)
    return float(-picked.mean()), grad / n


def _attention_backward(d_out: np.ndarray, c: dict, d_k: int) -> tuple[np.ndarray, ...]:
    A = c["weights"]  # (..., H, T, T); masked entries are exactly 0, so they pass no gradient
    d_V = np.swapaxes(A, -1, -2) @ d_out  # (..., H, T, d_k)
    d_A = d_out @ np.swapaxes(c["V_h"], -1, -2)  # (..., H, T, T)
    d_S = A * (d_A - np.sum(d_A * A, axis=-1, keepdims=True))  # through softmax, row by row
    d_S = d_S / np.sqrt(d_k)
    return d_S @ c["K_h"], np.swapaxes(d_S, -1, -2) @ c["Q_h"], d_V


def _sum_rows(a: np.ndarray) -> np.ndarray:
    return a.reshape(-1, a.shape[-1]).sum(axis=0)


def _outer(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Σ over all tokens of aᵀ·b: the gradient of a weight matrix from its input a and output gradient b."""
    return a.reshape(-1, a.shape[-1]).T @ b.reshape(-1, b.shape[-1])


def loss_and_grads(
    params: dict, config: GPTConfig, ids: Any, targets: Any
) -> tuple[float, dict[str, np.ndarray]]:
    """The next-token loss and the gradient of every parameter, by the chain rule written out.

    Taught in: 09 §3.

    Args:
        ids: the input tokens; targets: the token that should be predicted at each position
            (usually ``ids`` shifted by one).

    Shapes:
        ids (..., T), targets (..., T) -> loss (), grads {name: array of the parameter's shape}
    """
    _check_params(params, config)
    ids = _check_ids(ids, config)
    targets = _check_ids(targets, config, "targets")
    if targets.shape != ids.shape:
        raise ValueError(f"targets must have the shape of ids, {ids.shape}; got {targets.shape}")
    logits, caches = _forward(params, config, ids)
    loss, d_logits = cross_entropy(logits, targets)
    grads = {name: np.zeros_like(value) for name, value in params.items()}
    x = caches[-1]["x"]
    grads["b_out"] = _sum_rows(d_logits)
    grads["tok_emb"] += _outer(d_logits, x)  # logits = x Eᵀ: dE = d_logitsᵀ x
    d_x = d_logits @ params["tok_emb"]
    for i in reversed(range(config.n_layers)):
        c, p = caches[i], {k: params[f"l{i}.{k}"] for k in _LAYER_PARAMS}
        # x_out = x1 + relu(x1 W_1 + b_1) W_2 + b_2
        grads[f"l{i}.W_2"] = _outer(c["hidden"], d_x)
        grads[f"l{i}.b_2"] = _sum_rows(d_x)
        d_pre = (d_x @ p["W_2"].T) * (c["pre"] > 0)
        grads[f"l{i}.W_1"] = _outer(c["x1"], d_pre)
        grads[f"l{i}.b_1"] = _sum_rows(d_pre)
        d_x1 = d_x + d_pre @ p["W_1"].T
        # x1 = x + merge(heads) W_o
        grads[f"l{i}.W_o"] = _outer(c["heads"], d_x1)
        d_heads = split_heads(d_x1 @ p["W_o"].T, config.n_heads)  # (..., H, T, d_k)
        d_Q, d_K, d_V = (merge_heads(g) for g in _attention_backward(d_heads, c, config.d_k))
        grads[f"l{i}.W_q"] = _outer(c["x"], d_Q)
        grads[f"l{i}.W_k"] = _outer(c["x"], d_K)
        grads[f"l{i}.W_v"] = _outer(c["x"], d_V)
        d_x = d_x1 + d_Q @ p["W_q"].T + d_K @ p["W_k"].T + d_V @ p["W_v"].T
    T = ids.shape[-1]
    np.add.at(grads["tok_emb"], ids.reshape(-1), d_x.reshape(-1, config.d_model))
    grads["pos_emb"][:T] = d_x.reshape(-1, T, config.d_model).sum(axis=0)
    return loss, grads


def numerical_gradient(
    params: dict, config: GPTConfig, ids: Any, targets: Any, name: str, index: tuple, eps: float = 1e-6
) -> float:
    """Central finite difference ``(L(θ+ε) − L(θ−ε)) / 2ε`` of the loss in one entry of one parameter.

    Taught in: 09 §3.

    Shapes:
        ids (..., T), targets (..., T) -> ()
    """
    if name not in params:
        raise ValueError(f"params has no {name!r}; its parameters are {sorted(params)}")
    _check_params(params, config)
    ids, targets = _check_ids(ids, config), _check_ids(targets, config, "targets")
    losses = []
    for sign in (1.0, -1.0):
        shifted = dict(params)
        shifted[name] = params[name].copy()
        shifted[name][index] += sign * eps
        losses.append(cross_entropy(_forward(shifted, config, ids)[0], targets)[0])
    return (losses[0] - losses[1]) / (2 * eps)


def token_losses(params: dict, config: GPTConfig, ids: Any) -> np.ndarray:
    """The loss of each token of a sequence: entry t is ``-log p(ids[t+1] | ids[0..t])``.

    Taught in: 09 §5.

    Shapes:
        ids (..., T + 1) with T <= T_max -> (..., T)
    """
    _check_params(params, config)
    arr = np.asarray(ids)
    if arr.ndim < 1 or arr.shape[-1] < 2:
        raise ValueError(
            f"ids must hold at least 2 tokens (an input and its next token); got shape {arr.shape}"
        )
    inputs, targets = _check_ids(arr[..., :-1], config), _check_ids(arr[..., 1:], config)
    logits, _ = _forward(params, config, inputs)
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return -np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]


def sequence_loss(params: dict, config: GPTConfig, ids: Any, *, batch: int = 32) -> float:
    """Mean next-token loss over windows of ``T_max + 1`` tokens cut from one long sequence.

    Taught in: 09 §4.

    Every position of a window is predicted from the tokens the model sees in that window: with the
    causal mask, only the ones before it. Windows run ``batch`` at a time to bound the memory.

    Shapes:
        ids (N,) -> ()
    """
    _check_params(params, config)
    windows = _windows(ids, config)
    total = 0.0
    for start in range(0, len(windows), batch):
        chunk = windows[start : start + batch]
        logits, _ = _forward(params, config, chunk[:, :-1])
        total += cross_entropy(logits, chunk[:, 1:])[0] * len(chunk)
    return total / len(windows)


def prefix_loss(params: dict, config: GPTConfig, ids: Any) -> float:
    """The loss when generating: each token predicted from its past alone, one prefix at a time.

    Taught in: 09 §6.

    For every window and every t, the model reads the first t+1 tokens only and predicts token t+1,
    exactly as in generation, where the future does not exist yet. A causal model gives the same
    number as ``sequence_loss``; a model that peeked during training does not.

    Shapes:
        ids (N,) -> ()
    """
    _check_params(params, config)
    windows = _windows(ids, config)
    total = 0.0
    for t in range(windows.shape[1] - 1):
        logits, _ = _forward(params, config, windows[:, : t + 1], last_only=True)
        total += cross_entropy(logits[:, -1], windows[:, t + 1])[0]
    return total / (windows.shape[1] - 1)


def hidden_states(params: dict, config: GPTConfig, ids: Any) -> np.ndarray:
    """The residual stream: the input of every layer, and the output of the last one.

    Taught in: 09 §8.

    Layer i's keys are ``hidden_states(...)[i] @ params[f"l{i}.W_k"]``.

    Shapes:
        ids (..., T) -> (n_layers + 1, ..., T, d_model)
    """
    _check_params(params, config)
    _, caches = _forward(params, config, _check_ids(ids, config))
    return np.stack([c["x"] for c in caches])


def _windows(ids: Any, config: GPTConfig) -> np.ndarray:
    ids = np.asarray(ids)
    if ids.ndim != 1 or ids.dtype.kind not in "iu":
        raise ValueError(f"ids must be token ids of shape (N,); got dtype {ids.dtype}, shape {ids.shape}")
    n = (ids.size - 1) // config.context
    if n < 1:
        raise ValueError(f"ids has {ids.size} tokens; at least T_max+1 = {config.context + 1} are needed")
    starts = np.arange(n) * config.context
    return ids[starts[:, None] + np.arange(config.context + 1)]  # (n, T_max + 1)


# ---- training --------------------------------------------------------------------------------


def adam_init(params: dict) -> dict:
    """Adam's state: zero first and second moments for every parameter, and the step count."""
    return {
        "step": 0,
        "m": {k: np.zeros_like(v) for k, v in params.items()},
        "v": {k: np.zeros_like(v) for k, v in params.items()},
    }


def adam_update(
    params: dict, grads: dict, state: dict, lr: float, betas=(0.9, 0.99), eps: float = 1e-8
) -> dict:
    """One Adam step (bias-corrected); returns new parameters and updates ``state`` in place."""
    state["step"] += 1
    b1, b2 = betas
    t = state["step"]
    new = {}
    for k, g in grads.items():
        state["m"][k] = b1 * state["m"][k] + (1 - b1) * g
        state["v"][k] = b2 * state["v"][k] + (1 - b2) * g * g
        m_hat = state["m"][k] / (1 - b1**t)
        v_hat = state["v"][k] / (1 - b2**t)
        new[k] = params[k] - lr * m_hat / (np.sqrt(v_hat) + eps)
    return new


def train(
    params: dict,
    config: GPTConfig,
    ids: Any,
    *,
    steps: int,
    batch_size: int = 16,
    lr: float = 3e-3,
    rng: np.random.Generator,
    clip: float = 1.0,
) -> tuple[dict, np.ndarray]:
    """Train on random windows of ``T_max + 1`` tokens from ``ids`` with Adam; return params and losses.

    Taught in: 09 §4.

    The gradient is clipped to a global norm of ``clip`` and the learning rate decays linearly to a
    tenth of ``lr``, which keeps short runs stable.

    Shapes:
        ids (N,) -> params, losses (steps,)
    """
    steps = check_positive_int(steps, "steps")
    batch_size = check_positive_int(batch_size, "batch_size")
    rng = check_generator(rng)
    ids = np.asarray(ids)
    T = config.context
    if ids.ndim != 1 or ids.size < T + 1:
        raise ValueError(
            f"ids must be a sequence (N,) of at least T_max+1 = {T + 1} tokens; got shape {ids.shape}"
        )
    state = adam_init(params)
    losses = np.empty(steps)
    for step in range(steps):
        starts = rng.integers(0, ids.size - T, size=batch_size)
        batch = ids[starts[:, None] + np.arange(T + 1)]  # (B, T_max + 1)
        losses[step], grads = loss_and_grads(params, config, batch[:, :-1], batch[:, 1:])
        norm = np.sqrt(sum(float(np.sum(g * g)) for g in grads.values()))
        if norm > clip:
            grads = {k: g * (clip / norm) for k, g in grads.items()}
        params = adam_update(params, grads, state, lr * (1 - 0.9 * step / steps))
    return params, losses


# ---- generation ------------------------------------------------------------------------------


def _check_temperature(temperature: Any) -> float:
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float, np.integer, np.floating)):
        raise TypeError(f"temperature must be a number > 0; got {temperature!r}")
    if not np.isfinite(temperature) or temperature <= 0:
        raise ValueError(
            f"temperature must be > 0 (it divides the logits; small is greedy, 1 is the model's own "
            f"probabilities); got {temperature}"
        )
    return float(temperature)


def _step_cached(
    params: dict, config: GPTConfig, token: int, pos: int, cache: list
) -> tuple[np.ndarray, list]:
    """Logits after one more token, reusing the keys and values of the earlier positions."""
    x = params["tok_emb"][token] + params["pos_emb"][pos]  # (d_model,)
    x = x[None, :]  # (1, d_model): one new query
    all_weights = []
    for i in range(config.n_layers):
        p = {k: params[f"l{i}.{k}"] for k in _LAYER_PARAMS}
        q, k, v = project(x, p["W_q"], p["W_k"], p["W_v"])  # (1, d_model) each
        cache[i]["K"][pos], cache[i]["V"][pos] = k[0], v[0]  # stored once, never recomputed
        K, V = cache[i]["K"][: pos + 1], cache[i]["V"][: pos + 1]  # (pos+1, d_model)
        # The new query may see every cached key: they are all in its past, so no mask is needed.
        out_h, weights = attention(
            split_heads(q, config.n_heads), split_heads(K, config.n_heads), split_heads(V, config.n_heads)
        )  # (H, 1, d_k), (H, 1, pos+1)
        x1 = x + merge_heads(out_h) @ p["W_o"]
        x = x1 + np.maximum(x1 @ p["W_1"] + p["b_1"], 0.0) @ p["W_2"] + p["b_2"]
        all_weights.append(weights[:, 0])
    return (x @ params["tok_emb"].T + params["b_out"])[0], all_weights


def _generate(params, config, prompt, n_new, temperature, rng, use_cache):
    """Yield (logits, weights per layer (H, t)) for each new token, and sample it."""
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
            all_logits, caches = _forward(params, config, np.array(ids), last_only=True)
            logits = all_logits[-1]
            weights = [c["weights"][:, -1] for c in caches[:-1]]
        probs = softmax(logits / temperature)
        # Inverse-CDF sampling with one uniform number per token: the cached and the recomputed
        # runs draw the same numbers, so they pick the same tokens when their logits agree.
        token = min(int(np.searchsorted(np.cumsum(probs), rng.random(), side="right")), config.vocab_size - 1)
        yield logits, weights, probs, token
        ids.append(token)


def _check_prompt(prompt: Any, config: GPTConfig, n_new: Any) -> tuple[np.ndarray, int]:
    n_new = check_positive_int(n_new, "n_new")
    arr = np.asarray(prompt)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(
            f"the prompt must hold at least one token, shape (n,) with n >= 1; got shape {arr.shape}"
        )
    arr = _check_ids(arr, config, "prompt")
    if arr.size + n_new > config.context:
        raise ValueError(
            f"a prompt of {arr.size} tokens plus n_new={n_new} new ones makes {arr.size + n_new}, more than "
            f"the context T_max={config.context} the model was trained on"
        )
    return arr, n_new


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
    """Continue ``prompt`` by ``n_new`` tokens, each sampled from ``softmax(logits / temperature)``.

    Taught in: 09 §7-8.

    With ``use_cache`` each step runs the new token only, reusing the keys and values of the earlier
    positions (a KV cache); without it each step reruns the whole sequence. The causal mask is what
    makes the cache exact: an earlier position never sees later tokens, so its keys and values never
    change. Both give the same tokens and logits to float precision.

    Shapes:
        prompt (n,) -> ids (n + n_new,), logits (n_new, V)

    Raises:
        ValueError: an empty prompt, a prompt plus n_new longer than T_max, an unknown id, a
            temperature <= 0, a model without the causal mask with ``use_cache`` (its earlier
            positions would need the future).
    """
    _check_params(params, config)
    prompt, n_new = _check_prompt(prompt, config, n_new)
    temperature = _check_temperature(temperature)
    rng = check_generator(rng)
    if use_cache and not config.causal:
        raise ValueError(
            "use_cache=True needs a causal model (config.causal=True): without the mask the keys and values "
            "of earlier positions depend on later tokens, so a cache would go stale"
        )
    steps = list(_generate(params, config, prompt.tolist(), n_new, temperature, rng, use_cache))
    ids = np.concatenate([prompt, [s[3] for s in steps]]).astype(np.int64)
    return ids, np.stack([s[0] for s in steps])


def generation_lab_data(
    params: dict,
    config: GPTConfig,
    tokenizer: Any,
    prompts: Any,
    *,
    n_new: int = 10,
    temperature: float = 0.8,
    seed: int = 0,
    top_k: int = 5,
) -> list[dict]:
    """Everything a lab shows for a list of prompts: the generated tokens and, at every step, each
    head's attention over the context and the most likely candidates. Plain JSON-able values.

    Taught in: 09 §10.

    Each prompt is generated with its own ``np.random.default_rng(seed)`` and a KV cache.
    At step s the query is the last token so far (position ``n_prompt + s − 1``); its weights cover the
    keys ``0 .. n_prompt + s − 1`` and are 0 beyond (keys that do not exist yet).

    Args:
        tokenizer: a ``CharTokenizer`` (anything with ``encode`` and ``vocab``).
        prompts: strings, each of at least one character of the vocabulary.

    Shapes:
        for each prompt, a dict with
        ``prompt`` str, ``tokens`` [n_prompt + n_new] str, ``n_prompt`` int, ``generated`` str,
        ``weights`` [n_new][n_layers][n_heads][n_prompt + n_new − 1] float,
        ``top_tokens`` [n_new][top_k] str, ``top_probs`` [n_new][top_k] float,
        ``chosen_probs`` [n_new] float, ``temperature`` float, ``seed`` int

    Raises:
        ValueError: an empty list of prompts, an empty prompt, an unknown character, a prompt plus
            n_new longer than T_max, a temperature <= 0, top_k outside 1..V.
    """
    _check_params(params, config)
    if isinstance(prompts, str) or not hasattr(prompts, "__len__") or len(prompts) == 0:
        raise ValueError(f"prompts must be a non-empty list of strings; got {prompts!r}")
    temperature = _check_temperature(temperature)
    top_k = check_positive_int(top_k, "top_k")
    if top_k > config.vocab_size:
        raise ValueError(f"top_k={top_k} is more than the V={config.vocab_size} tokens of the vocabulary")
    result = []
    for prompt in prompts:
        if not isinstance(prompt, str) or not prompt:
            raise ValueError(f"every prompt must be a non-empty string; got {prompt!r}")
        ids, n_new = _check_prompt(tokenizer.encode(prompt), config, n_new)
        rng = np.random.default_rng(seed)
        steps = list(_generate(params, config, ids.tolist(), n_new, temperature, rng, use_cache=True))
        width = ids.size + n_new - 1
        weights = np.zeros((n_new, config.n_layers, config.n_heads, width))
        for s, (_, w, _, _) in enumerate(steps):
            weights[s, :, :, : ids.size + s] = np.stack(w)
        probs = np.stack([s[2] for s in steps])  # (n_new, V)
        top = np.argsort(-probs, axis=-1, kind="stable")[:, :top_k]
        chosen = [s[3] for s in steps]
        tokens = [tokenizer.vocab[i] for i in [*ids.tolist(), *chosen]]
        result.append(
            {
                "prompt": prompt,
                "tokens": tokens,
                "n_prompt": int(ids.size),
                "generated": "".join(tokens[ids.size :]),
                "weights": weights.tolist(),  # full precision: the lab's check compares to 1e-12
                "top_tokens": [[tokenizer.vocab[i] for i in row] for row in top.tolist()],
                "top_probs": np.take_along_axis(probs, top, -1).tolist(),
                "chosen_probs": probs[np.arange(n_new), chosen].tolist(),
                "temperature": temperature,
                "seed": int(seed),
            }
        )
    return result
