"""The tiny GPT itself: its sizes, its parameters, the forward pass, the loss and every gradient.

See the package docstring (``attnlib.gpt``) for the model and the names of its parameters.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..core import attention, causal_mask, project
from ..i18n import N_, tr
from ..multihead import merge_heads, split_heads
from ..validation import check_generator, check_indices, check_positive_int

__all__ = [
    "LAYER_PARAMS",
    "GPTConfig",
    "check_ids",
    "check_params",
    "config_from_arrays",
    "cross_entropy",
    "forward",
    "hidden_states",
    "init_params",
    "loss_and_grads",
    "param_shapes",
    "params_from_arrays",
    "run_layers",
    "token_losses",
]

LAYER_PARAMS = ("W_q", "W_k", "W_v", "W_o", "W_1", "b_1", "W_2", "b_2")


@dataclass(frozen=True)
class GPTConfig:
    """The sizes of a tiny GPT and whether its attention is causal.

    Parameters
    ----------
    vocab_size : int
        V, the number of tokens (characters).
    context : int
        T_max, the longest sequence (the number of learned positions).
    d_model : int
        The width of the residual stream.
    n_heads : int
        Heads per layer; must divide d_model (d_k = d_model / n_heads).
    n_layers : int
        The number of Transformer layers.
    d_ff : int
        The width of the MLP.
    causal : bool
        Apply the causal mask (True) or let every position see the whole sequence (False).

    Raises
    ------
    TypeError
        A size that is not a whole number, or causal not a bool.
    ValueError
        A size below 1, or d_model not divisible by n_heads.

    Shapes:
        vocab_size V, context T_max, d_model, n_heads (d_k = d_model / n_heads), n_layers, d_ff

    Taught in: 09 §2
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
                tr("d_model={d_model} is not divisible by n_heads={n_heads}: every head needs "
                   "d_k = d_model / n_heads columns").format(d_model=self.d_model, n_heads=self.n_heads)
            )
        if not isinstance(self.causal, (bool, np.bool_)):
            raise TypeError(tr("causal must be True or False; got {causal!r}").format(causal=self.causal))

    @property
    def d_k(self) -> int:
        """The width of one head, d_model / n_heads."""
        return self.d_model // self.n_heads

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The config as 0-d int arrays under ``config.<field>``, for an ``.npz`` next to the weights."""
        return {f"config.{k}": np.array(int(v)) for k, v in asdict(self).items()}


def config_from_arrays(arrays: dict) -> GPTConfig:
    """The config stored by ``GPTConfig.to_arrays`` (the ``config.*`` entries of a loaded ``.npz``).

    Parameters
    ----------
    arrays : dict of ndarray
        A loaded ``.npz``.

    Returns
    -------
    GPTConfig

    Shapes:
        arrays {"config.<field>": ()} -> GPTConfig

    Taught in: 09 §4
    """
    fields = {k.removeprefix("config."): int(v) for k, v in arrays.items() if k.startswith("config.")}
    fields["causal"] = bool(fields["causal"])
    return GPTConfig(**fields)


def param_shapes(config: GPTConfig) -> dict[str, tuple[int, ...]]:
    """The name and shape of every parameter of a model of this config (see the package docstring).

    Parameters
    ----------
    config : GPTConfig

    Returns
    -------
    dict of str to tuple of int

    Shapes:
        config -> {name: shape}

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
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


def check_params(params: Any, config: Any) -> None:
    """Refuse parameters that do not fit the config: one array of the right shape per name.

    Parameters
    ----------
    params : dict of ndarray
        The parameters (see :func:`init_params`).
    config : GPTConfig

    Raises
    ------
    TypeError
        A config that is not a GPTConfig, or params that are not a dict.
    ValueError
        A missing parameter, or one of the wrong shape.

    Shapes:
        params {name: shape of param_shapes(config)}

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    if not isinstance(config, GPTConfig):
        raise TypeError(tr("config must be a GPTConfig; got {type}").format(type=type(config).__name__))
    if not isinstance(params, dict):
        raise TypeError(
            tr("params must be a dict of arrays (see init_params); got "
               "{type}").format(type=type(params).__name__)
        )
    for name, shape in param_shapes(config).items():
        if name not in params:
            raise ValueError(tr("params has no {name!r}; expected shape "
                                "{shape}").format(name=name, shape=shape))
        if np.shape(params[name]) != shape:
            raise ValueError(
                tr("params[{name!r}] must have shape {shape} for this config; got {got}").format(
                    name=name, shape=shape, got=np.shape(params[name])
                )
            )


def check_ids(ids: Any, config: GPTConfig, name: str = "ids") -> np.ndarray:
    """Token ids the model can read: whole numbers in 0..V-1, at least one and at most T_max per sequence.

    Parameters
    ----------
    ids : array_like of int
        One sequence per leading index.
    config : GPTConfig
    name : str
        The argument's name, used in the message.

    Returns
    -------
    ndarray of int64

    Raises
    ------
    TypeError
        Ids that are not whole numbers.
    ValueError
        No tokens, more than T_max tokens, or an id outside 0..V-1.

    Shapes:
        ids (..., T), 1 <= T <= T_max -> (..., T)

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    arr = check_indices(ids, name, expected="(..., T)", high=config.vocab_size - 1, high_symbol="V-1",
                        what=N_("token ids"), ndim=None, nonempty=True)
    if arr.shape[-1] > config.context:
        raise ValueError(
            tr("{name} has T={T} tokens, longer than the context T_max={T_max} the model has "
               "positions for").format(
                name=name, T=arr.shape[-1], T_max=config.context
            )
        )
    return arr


def params_from_arrays(arrays: dict, config: GPTConfig) -> dict[str, np.ndarray]:
    """The parameters of a loaded ``.npz`` as float64 arrays, each checked against the config.

    Parameters
    ----------
    arrays : dict of ndarray
        A loaded ``.npz`` (extra entries are ignored).
    config : GPTConfig

    Returns
    -------
    dict of ndarray

    Raises
    ------
    ValueError
        Missing parameters, or parameters of the wrong shape.

    Shapes:
        arrays -> {name: shape of param_shapes(config)}

    Taught in: 09 §4
    """
    expected = param_shapes(config)
    missing = sorted(set(expected) - set(arrays))
    if missing:
        raise ValueError(tr("the arrays lack the parameters {missing}").format(missing=missing))
    params = {name: np.asarray(arrays[name], dtype=np.float64) for name in expected}
    check_params(params, config)
    return params


def init_params(config: GPTConfig, *, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Random starting parameters: small embeddings, projections ~ N(0, 1/fan_in).

    The two matrices that write into the residual stream (W_o, W_2) start smaller, by 1/√(2·n_layers),
    so the stream does not grow with depth at the start of training.

    Parameters
    ----------
    config : GPTConfig
    rng : numpy.random.Generator

    Returns
    -------
    dict of ndarray
        Biases 0, everything else random.

    Raises
    ------
    TypeError
        An rng that is not a Generator, or a config that is not a GPTConfig.

    Shapes:
        -> {name: shape of param_shapes(config)}

    Taught in: 09 §2
    """
    rng = check_generator(rng)
    if not isinstance(config, GPTConfig):
        raise TypeError(tr("config must be a GPTConfig; got {type}").format(type=type(config).__name__))
    out_scale = 1.0 / np.sqrt(2 * config.n_layers)
    params = {}
    for name, shape in param_shapes(config).items():
        base = name.split(".")[-1]
        if base.startswith("b"):
            params[name] = np.zeros(shape)
        elif name in ("tok_emb", "pos_emb"):
            params[name] = rng.normal(0.0, 0.1, size=shape)
        else:
            scale = out_scale if base in ("W_o", "W_2") else 1.0
            params[name] = rng.normal(0.0, scale / np.sqrt(shape[0]), size=shape)
    return params


def run_layers(
    params: dict, config: GPTConfig, ids: np.ndarray, last_only: bool = False
) -> tuple[np.ndarray, list[dict]]:
    """The forward pass on checked ids, keeping what the backward pass needs.

    Parameters
    ----------
    params : dict of ndarray
        Checked with :func:`check_params`.
    config : GPTConfig
    ids : ndarray of int
        Checked with :func:`check_ids`.
    last_only : bool
        Compute the logits of the last position only (generation needs no more).

    Returns
    -------
    logits : ndarray
    caches : list of dict
        For every layer its input ``x``, the heads' ``Q_h, K_h, V_h`` and ``weights``, the merged
        ``heads``, ``x1``, ``pre`` and ``hidden``; last, ``{"x": output of the last layer}``.

    Shapes:
        ids (..., T) -> logits (..., T, V) (or (..., 1, V)), caches [n_layers + 1]

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    T = ids.shape[-1]
    mask = causal_mask(T) if config.causal else None
    x = params["tok_emb"][ids] + params["pos_emb"][:T]  # (..., T, d_model)
    caches = []
    for i in range(config.n_layers):
        p = {k: params[f"l{i}.{k}"] for k in LAYER_PARAMS}
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

    Parameters
    ----------
    params : dict of ndarray
        The parameters (see :func:`init_params`).
    config : GPTConfig
        The sizes; ``config.causal`` decides whether the causal mask is applied.
    ids : array_like of int
        Token ids, one sequence per leading index.

    Returns
    -------
    logits : ndarray
    weights : ndarray

    Raises
    ------
    TypeError, ValueError
        No tokens, more than T_max tokens, an id outside 0..V-1, parameters of the wrong shape.

    Shapes:
        ids (..., T) with T <= T_max -> logits (..., T, V), weights (..., n_layers, n_heads, T, T)

    Taught in: 09 §2
    """
    check_params(params, config)
    logits, caches = run_layers(params, config, check_ids(ids, config))
    return logits, np.stack([c["weights"] for c in caches[:-1]], axis=-4)


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def cross_entropy(logits: Any, targets: Any) -> tuple[float, np.ndarray]:
    """Mean of ``-log softmax(logits)[target]`` over all positions, and its gradient w.r.t. the logits.

    Parameters
    ----------
    logits : array_like
        One row of V logits per position.
    targets : array_like of int
        The right token at each position.

    Returns
    -------
    loss : float
    grad : ndarray
        ``(softmax(logits) − onehot(target)) / n``.

    Raises
    ------
    ValueError
        Targets whose shape is not that of the logits without their last axis.

    Shapes:
        logits (..., V), targets (...) -> loss (), grad (..., V)

    Taught in: 09 §2
    """
    logits = np.asarray(logits, dtype=np.float64)
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(
            tr("targets must have shape {want} (one per row of logits); got {shape}").format(
                want=logits.shape[:-1], shape=targets.shape
            )
        )
    log_p = _log_softmax(logits)
    picked = np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]
    grad = np.exp(log_p)
    np.put_along_axis(grad, targets[..., None], np.take_along_axis(grad, targets[..., None], -1) - 1.0, -1)
    return float(-picked.mean()), grad / targets.size


def _attention_backward(d_out: np.ndarray, c: dict, d_k: int) -> tuple[np.ndarray, ...]:
    A = c["weights"]  # (..., H, T, T); masked entries are exactly 0, so they pass no gradient
    d_V = np.swapaxes(A, -1, -2) @ d_out  # (..., H, T, d_k)
    d_A = d_out @ np.swapaxes(c["V_h"], -1, -2)  # (..., H, T, T)
    d_S = A * (d_A - np.sum(d_A * A, axis=-1, keepdims=True))  # through softmax, row by row
    d_S = d_S / math.sqrt(d_k)
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

    Parameters
    ----------
    params : dict of ndarray
    config : GPTConfig
    ids : array_like of int
        The input tokens.
    targets : array_like of int
        The token that should be predicted at each position (usually `ids` shifted by one).

    Returns
    -------
    loss : float
    grads : dict of ndarray
        One gradient per parameter, of its shape.

    Raises
    ------
    TypeError, ValueError
        As for :func:`forward`; also targets of another shape than ids.

    Shapes:
        ids (..., T), targets (..., T) -> loss (), grads {name: array of the parameter's shape}

    Taught in: 09 §3
    """
    check_params(params, config)
    ids = check_ids(ids, config)
    targets = check_ids(targets, config, "targets")
    if targets.shape != ids.shape:
        raise ValueError(
            tr("targets must have the shape of ids, {want}; got "
               "{shape}").format(want=ids.shape, shape=targets.shape)
        )
    logits, caches = run_layers(params, config, ids)
    loss, d_logits = cross_entropy(logits, targets)
    grads = {name: np.zeros_like(value) for name, value in params.items()}
    x = caches[-1]["x"]
    grads["b_out"] = _sum_rows(d_logits)
    grads["tok_emb"] += _outer(d_logits, x)  # logits = x Eᵀ: dE = d_logitsᵀ x
    d_x = d_logits @ params["tok_emb"]
    for i in reversed(range(config.n_layers)):
        c, p = caches[i], {k: params[f"l{i}.{k}"] for k in LAYER_PARAMS}
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


def token_losses(params: dict, config: GPTConfig, ids: Any) -> np.ndarray:
    """The loss of each token of a sequence: entry t is ``-log p(ids[t+1] | ids[0..t])``.

    Parameters
    ----------
    params, config
        As for :func:`forward`.
    ids : array_like of int
        At least 2 tokens per sequence: inputs and next tokens.

    Returns
    -------
    ndarray

    Raises
    ------
    TypeError, ValueError
        Fewer than 2 tokens; otherwise as for :func:`forward`.

    Shapes:
        ids (..., T + 1) with T <= T_max -> (..., T)

    Taught in: 09 §5
    """
    check_params(params, config)
    arr = np.asarray(ids)
    if arr.ndim < 1 or arr.shape[-1] < 2:
        raise ValueError(
            tr("ids must hold at least 2 tokens (an input and its next token); got shape {shape}").format(
                shape=arr.shape
            )
        )
    inputs, targets = check_ids(arr[..., :-1], config), check_ids(arr[..., 1:], config)
    logits, _ = run_layers(params, config, inputs)
    return -np.take_along_axis(_log_softmax(logits), targets[..., None], axis=-1)[..., 0]


def hidden_states(params: dict, config: GPTConfig, ids: Any) -> np.ndarray:
    """The residual stream: the input of every layer, and the output of the last one.

    Layer i's keys are ``hidden_states(...)[i] @ params[f"l{i}.W_k"]``.

    Parameters
    ----------
    params, config, ids
        As for :func:`forward`.

    Returns
    -------
    ndarray

    Raises
    ------
    TypeError, ValueError
        As for :func:`forward`.

    Shapes:
        ids (..., T) -> (n_layers + 1, ..., T, d_model)

    Taught in: 09 §8
    """
    check_params(params, config)
    _, caches = run_layers(params, config, check_ids(ids, config))
    return np.stack([c["x"] for c in caches])
