"""The tiny GPT itself: its parameters, one layer and the forward pass, the loss and every gradient.

See the package docstring (``attnlib.gpt``) for the model and the names of its parameters.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..checks import check_dict, check_generator
from ..core import attention, causal_mask, merge_heads, project, softmax_backward, split_heads
from ..i18n import N_, tr
from ..validation import as_float_array, check_finite, check_indices, check_mask, check_min_ndim
from .config import (
    GPTConfig,
    check_config,
    check_ids,
    check_params,
    layer_params,
    param_name,
    param_shapes,
)

__all__ = [
    "cross_entropy",
    "forward",
    "hidden_states",
    "init_params",
    "layer",
    "loss_and_grads",
    "params_from_arrays",
    "run_layers",
    "token_losses",
]


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
    TypeError
        Arrays that are not a dict, or not of numbers; a config that is not a GPTConfig.
    ValueError
        Missing parameters, or parameters of the wrong shape.

    Shapes:
        arrays -> {name: shape of param_shapes(config)}

    Taught in: 09 §4
    """
    check_dict(arrays, "arrays", expected="{name: array} (a loaded .npz)")
    expected = param_shapes(config)
    missing = sorted(set(expected) - set(arrays))
    if missing:
        raise ValueError(tr("the arrays lack the parameters {missing}").format(missing=missing))
    as_float = {name: as_float_array(arrays[name], f"arrays[{name!r}]", expected=str(shape))
                for name, shape in expected.items()}
    params = {name: value.astype(np.float64, copy=False) for name, value in as_float.items()}
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
    check_config(config)
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


def layer(
    p: dict, x: np.ndarray, n_heads: int, mask: np.ndarray | None = None, kv: dict | None = None, pos: int = 0
) -> tuple[np.ndarray, dict]:
    """One Transformer layer on checked arrays: attention, then the MLP, each added to the stream x.

    Training and full recomputation run it on every position at once; cached generation runs it on
    one new position at a time, with `kv` holding the keys and values of the positions before it.

    Parameters
    ----------
    p : dict of ndarray
        The layer's parameters under their short names (see :func:`layer_params`).
    x : ndarray
        The stream at the positions the layer runs on.
    n_heads : int
        Heads of the layer.
    mask : ndarray, optional
        The causal mask, or None (no mask).
    kv : dict, optional
        ``{"K": (T_max, d_model), "V": (T_max, d_model)}``: x is one row, the position ``pos``; its key and
        value are written there, and its query sees every key up to it. (With several rows each would see
        all of them, the later ones too: there is no mask over a cache.)
    pos : int
        The position of x's row, with `kv`.

    Returns
    -------
    out : ndarray
        The stream after the layer.
    cache : dict
        What the backward pass needs: the input ``x``, the heads' ``Q_h, K_h, V_h`` and ``weights``,
        the merged ``heads``, ``x1``, ``pre`` and ``hidden``.

    Shapes:
        x (..., T, d_model) -> out (..., T, d_model), weights (..., n_heads, T, T_k), T_k = pos + T with kv

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    Q, K, V = project(x, p["W_q"], p["W_k"], p["W_v"])  # (..., T, d_model) each
    if kv is not None:
        end = pos + x.shape[-2]
        kv["K"][pos:end], kv["V"][pos:end] = K, V  # stored once, never recomputed
        K, V = kv["K"][:end], kv["V"][:end]  # (end, d_model): every key so far
    Q_h, K_h, V_h = (split_heads(Y, n_heads) for Y in (Q, K, V))  # (..., H, T, d_k)
    out_h, weights = attention(Q_h, K_h, V_h, mask)  # (..., H, T, d_k), (..., H, T, T_k)
    heads = merge_heads(out_h)  # (..., T, d_model)
    x1 = x + heads @ p["W_o"]
    pre = x1 @ p["W_1"] + p["b_1"]  # (..., T, d_ff)
    hidden = np.maximum(pre, 0.0)
    cache = dict(x=x, Q_h=Q_h, K_h=K_h, V_h=V_h, weights=weights, heads=heads, x1=x1, pre=pre, hidden=hidden)
    return x1 + hidden @ p["W_2"] + p["b_2"], cache


def run_layers(
    params: dict, config: GPTConfig, ids: np.ndarray, last_only: bool = False, mask: np.ndarray | None = None
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
    mask : ndarray of bool, optional
        A checked (T, T) mask used in every layer instead of the one ``config.causal`` chooses.

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
    if mask is None:
        mask = causal_mask(T) if config.causal else None
    x = params["tok_emb"][ids] + params["pos_emb"][:T]  # (..., T, d_model)
    caches = []
    for i in range(config.n_layers):
        x, cache = layer(layer_params(params, i), x, config.n_heads, mask)
        caches.append(cache)
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
    TypeError
        Non-numeric logits, targets that are not whole numbers.
    ValueError
        No logits, NaN or infinity, targets whose shape is not that of the logits without their last
        axis, or a target outside 0..V-1.

    Shapes:
        logits (..., V), targets (...) -> loss (), grad (..., V)

    Taught in: 09 §2
    """
    logits = as_float_array(logits, "logits", expected="(..., V)").astype(np.float64, copy=False)
    check_min_ndim(logits, "logits", expected="(..., V)", min_ndim=1)
    if logits.size == 0:
        raise ValueError(tr("logits must hold at least one row of V >= 1 logits, shape (..., V); got shape "
                            "{shape}").format(shape=logits.shape))
    check_finite(logits, "logits")
    targets = check_indices(targets, "targets", expected="(...)", high=logits.shape[-1] - 1,
                            high_symbol="V-1", what=N_("token ids"), ndim=logits.ndim - 1)
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


def _layer_backward(p: dict, c: dict, d_out: np.ndarray, n_heads: int) -> tuple[np.ndarray, dict]:
    """The gradients of one :func:`layer`: of its input, and of its parameters (under short names)."""
    g = {}
    # out = x1 + relu(x1 W_1 + b_1) W_2 + b_2
    g["W_2"], g["b_2"] = _outer(c["hidden"], d_out), _sum_rows(d_out)
    d_pre = (d_out @ p["W_2"].T) * (c["pre"] > 0)
    g["W_1"], g["b_1"] = _outer(c["x1"], d_pre), _sum_rows(d_pre)
    d_x1 = d_out + d_pre @ p["W_1"].T
    # x1 = x + merge(heads) W_o, heads = softmax(Q_h K_hᵀ/√d_k + M) V_h
    g["W_o"] = _outer(c["heads"], d_x1)
    d_heads = split_heads(d_x1 @ p["W_o"].T, n_heads)  # (..., H, T, d_k)
    A = c["weights"]  # (..., H, T, T); masked entries are exactly 0, so they pass no gradient
    d_V = np.swapaxes(A, -1, -2) @ d_heads  # (..., H, T, d_k)
    d_S = softmax_backward(A, d_heads @ np.swapaxes(c["V_h"], -1, -2)) / math.sqrt(c["Q_h"].shape[-1])
    d_Q, d_K, d_V = (merge_heads(d) for d in (d_S @ c["K_h"], np.swapaxes(d_S, -1, -2) @ c["Q_h"], d_V))
    g["W_q"], g["W_k"], g["W_v"] = _outer(c["x"], d_Q), _outer(c["x"], d_K), _outer(c["x"], d_V)
    return d_x1 + d_Q @ p["W_q"].T + d_K @ p["W_k"].T + d_V @ p["W_v"].T, g


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
        d_x, layer_grads = _layer_backward(layer_params(params, i), caches[i], d_x, config.n_heads)
        grads |= {param_name(i, k): g for k, g in layer_grads.items()}
    T = ids.shape[-1]
    np.add.at(grads["tok_emb"], ids.reshape(-1), d_x.reshape(-1, config.d_model))
    grads["pos_emb"][:T] = d_x.reshape(-1, T, config.d_model).sum(axis=0)
    return loss, grads


def token_losses(params: dict, config: GPTConfig, ids: Any, *, mask: Any = None) -> np.ndarray:
    """The loss of each token of a sequence: entry t is ``-log p(ids[t+1] | ids[0..t])``.

    Parameters
    ----------
    params, config
        As for :func:`forward`.
    ids : array_like of int
        At least 2 tokens per sequence: inputs and next tokens.
    mask : array_like of bool, optional
        A (T, T) mask for every layer in place of the causal one (True = query i may see key j), e.g.
        a sliding window (``attnlib.sliding_window_mask``). A mask that lets a position see a later one
        lets the model read the token it predicts.

    Returns
    -------
    losses : ndarray
        One loss per predicted token.

    Raises
    ------
    TypeError, ValueError
        Fewer than 2 tokens; a mask that is not (T, T), or a row of it with no key; otherwise as for
        :func:`forward`.

    Shapes:
        ids (..., T + 1) with T <= T_max, mask (T, T) -> (..., T)

    Taught in: 09 §5, 11 §7
    """
    check_params(params, config)
    arr = check_indices(ids, "ids", expected="(..., T + 1)", high=config.vocab_size - 1, high_symbol="V-1",
                        what=N_("token ids"), ndim=None)
    if arr.shape[-1] < 2:
        raise ValueError(
            tr("ids must hold at least 2 tokens (an input and its next token); got shape {shape}").format(
                shape=arr.shape
            )
        )
    inputs, targets = check_ids(arr[..., :-1], config), check_ids(arr[..., 1:], config)
    T = inputs.shape[-1]
    keep = None if mask is None else check_mask(mask, (T, T))
    logits, _ = run_layers(params, config, inputs, mask=keep)
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
    states : ndarray
        Entry i is the input of layer i; the last entry is the output of the last layer.

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
