"""Training the tiny GPT and measuring it: the gradient check, windows of text, Adam, two losses."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..checks import check_dict, check_generator, check_number, check_positive_int
from ..i18n import N_, tr
from ..validation import check_indices
from .config import GPTConfig, check_ids, check_params
from .model import _log_softmax, cross_entropy, loss_and_grads, run_layers

__all__ = [
    "adam_init",
    "adam_update",
    "numerical_gradient",
    "prefix_loss",
    "prefix_token_losses",
    "sequence_loss",
    "train",
]


def numerical_gradient(
    params: dict, config: GPTConfig, ids: Any, targets: Any, name: str, index: tuple, eps: float = 1e-6
) -> float:
    """Central finite difference ``(L(θ+ε) − L(θ−ε)) / 2ε`` of the loss in one entry of one parameter.

    Parameters
    ----------
    params, config, ids, targets
        As for :func:`loss_and_grads`.
    name : str
        The parameter, e.g. ``"l0.W_q"``.
    index : tuple of int
        The entry of that parameter.
    eps : float
        The step ε.

    Returns
    -------
    float

    Raises
    ------
    TypeError, ValueError
        An unknown parameter name, an index that is not one entry of it, an eps that is not > 0;
        otherwise as for :func:`loss_and_grads`.

    Shapes:
        ids (..., T), targets (..., T) -> ()

    Taught in: 09 §3
    """
    check_params(params, config)
    if not isinstance(name, str) or name not in params:
        raise (ValueError if isinstance(name, str) else TypeError)(
            tr("params has no {name!r}; its parameters are {names}").format(name=name, names=sorted(params))
        )
    shape = params[name].shape
    if not isinstance(index, tuple) or len(index) != len(shape) or not all(
        isinstance(i, (int, np.integer)) and not isinstance(i, bool) and 0 <= i < n
        for i, n in zip(index, shape, strict=False)
    ):
        raise ValueError(tr("index must be a tuple of {ndim} whole numbers, one entry of {name} of shape "
                            "{shape}; got {index!r}").format(
            ndim=len(shape), name=name, shape=shape, index=index))
    eps = check_number(eps, "eps")
    ids, targets = check_ids(ids, config), check_ids(targets, config, "targets")
    if targets.shape != ids.shape:
        raise ValueError(
            tr("targets must have the shape of ids, {want}; got "
               "{shape}").format(want=ids.shape, shape=targets.shape)
        )
    losses = []
    for sign in (1.0, -1.0):
        shifted = dict(params)
        shifted[name] = params[name].copy()
        shifted[name][index] += sign * eps
        losses.append(cross_entropy(run_layers(shifted, config, ids)[0], targets)[0])
    return (losses[0] - losses[1]) / (2 * eps)


def _text_ids(ids: Any, config: GPTConfig) -> np.ndarray:
    """One long sequence of token ids, of at least T_max + 1 tokens (one window)."""
    ids = check_indices(ids, "ids", expected="(N,)", high=config.vocab_size - 1, high_symbol="V-1",
                        what=N_("token ids"))
    if ids.size < config.context + 1:
        raise ValueError(
            tr("ids has {n} tokens; at least T_max+1 = {need} are "
               "needed").format(n=ids.size, need=config.context + 1)
        )
    return ids


def _windows(ids: Any, config: GPTConfig) -> np.ndarray:
    """Back-to-back windows of T_max + 1 tokens cut from one long sequence."""
    ids = _text_ids(ids, config)
    n = (ids.size - 1) // config.context
    starts = np.arange(n) * config.context
    return ids[starts[:, None] + np.arange(config.context + 1)]  # (n, T_max + 1)


def sequence_loss(params: dict, config: GPTConfig, ids: Any, *, batch: int = 32) -> float:
    """Mean next-token loss over windows of ``T_max + 1`` tokens cut from one long sequence.

    Every position of a window is predicted from the tokens the model sees in that window: with the
    causal mask, only the ones before it. Windows run `batch` at a time to bound the memory.

    Parameters
    ----------
    params : dict of ndarray
    config : GPTConfig
    ids : array_like of int
        A long text, at least T_max + 1 tokens.
    batch : int
        Windows per forward pass.

    Returns
    -------
    loss : float
        The mean over every predicted token of every window.

    Raises
    ------
    TypeError, ValueError
        Ids not of shape (N,), fewer than T_max + 1 tokens, an id outside 0..V-1, wrong parameters,
        a batch below 1.

    Shapes:
        ids (N,) -> ()

    Taught in: 09 §4
    """
    check_params(params, config)
    windows = _windows(ids, config)
    batch = check_positive_int(batch, "batch")
    total = 0.0
    for start in range(0, len(windows), batch):
        chunk = windows[start : start + batch]
        logits, _ = run_layers(params, config, chunk[:, :-1])
        total += cross_entropy(logits, chunk[:, 1:])[0] * len(chunk)
    return total / len(windows)


def prefix_token_losses(params: dict, config: GPTConfig, ids: Any) -> np.ndarray:
    """Each token's loss when generating, from its past alone: ``-log p(x_{t+1} | x_{0..t})`` per window.

    For every window w of ``T_max + 1`` tokens and every t, the model reads the first t+1 tokens only and
    predicts token t+1, exactly as in generation, where the future does not exist yet. For a causal model
    this is :func:`token_losses` of each window; for a model that peeked during training it is not, except
    at the last position, whose next token lies outside the window.

    Parameters
    ----------
    params, config
        As for :func:`sequence_loss`.
    ids : array_like of int
        A long text, at least T_max + 1 tokens, cut into back-to-back windows.

    Returns
    -------
    losses : ndarray
        Row w holds the losses of window w, each from its prefix alone.

    Raises
    ------
    TypeError, ValueError
        As for :func:`sequence_loss`.

    Shapes:
        ids (N,) -> (n_windows, T_max) with n_windows = (N - 1) // T_max

    Taught in: 09 §6
    """
    check_params(params, config)
    windows = _windows(ids, config)
    losses = np.empty((windows.shape[0], windows.shape[1] - 1))
    for t in range(windows.shape[1] - 1):
        logits, _ = run_layers(params, config, windows[:, : t + 1], last_only=True)  # (n, 1, V)
        log_p = _log_softmax(logits[:, -1])  # (n, V)
        losses[:, t] = -log_p[np.arange(len(windows)), windows[:, t + 1]]
    return losses


def prefix_loss(params: dict, config: GPTConfig, ids: Any) -> float:
    """The loss when generating: each token predicted from its past alone, one prefix at a time.

    The mean of :func:`prefix_token_losses`. A causal model gives the same number as
    :func:`sequence_loss`; a model that peeked during training does not.

    Parameters
    ----------
    params, config, ids
        As for :func:`prefix_token_losses`, whose mean this is.

    Returns
    -------
    loss : float
        The mean over every window and every prefix.

    Raises
    ------
    TypeError, ValueError
        As for :func:`sequence_loss`.

    Shapes:
        ids (N,) -> ()

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    return float(prefix_token_losses(params, config, ids).mean())


def adam_init(params: dict) -> dict:
    """Adam's state: zero first and second moments for every parameter, and the step count.

    Parameters
    ----------
    params : dict of ndarray

    Returns
    -------
    dict
        ``{"step": 0, "m": {name: zeros}, "v": {name: zeros}}``.

    Raises
    ------
    TypeError
        Params that are not a dict.

    Shapes:
        params {name: shape} -> m, v {name: shape}

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    check_dict(params, "params", expected="{name: array}")
    return {
        "step": 0,
        "m": {k: np.zeros_like(v) for k, v in params.items()},
        "v": {k: np.zeros_like(v) for k, v in params.items()},
    }


def _check_adam(params: Any, grads: Any, state: Any) -> None:
    for value, name in ((params, "params"), (grads, "grads")):
        check_dict(value, name, expected="{name: array}")
    check_dict(state, "state", expected='{"step", "m", "v"} (see adam_init)')
    if not {"step", "m", "v"} <= set(state):
        raise ValueError(tr("state must be the dict adam_init made, with 'step', 'm' and 'v'; got the keys "
                            "{keys}").format(keys=sorted(state)))
    for k, g in grads.items():
        for where, holder in (("params", params), ("state['m']", state["m"]), ("state['v']", state["v"])):
            if np.shape(holder.get(k)) != np.shape(g) or k not in holder:
                raise ValueError(tr("grads[{k!r}] has shape {shape}, but {where} has no entry {k!r} of that "
                                    "shape").format(k=k, shape=np.shape(g), where=where))


def adam_update(
    params: dict,
    grads: dict,
    state: dict,
    lr: float,
    betas: tuple[float, float] = (0.9, 0.99),
    eps: float = 1e-8,
) -> dict:
    """One Adam step (bias-corrected); returns new parameters and updates `state` in place.

    Parameters
    ----------
    params, grads : dict of ndarray
        The parameters and their gradients.
    state : dict
        From :func:`adam_init`.
    lr : float
        The learning rate.
    betas : tuple of float
        Decay of the first and second moments.
    eps : float
        Keeps the division finite.

    Returns
    -------
    dict of ndarray
        The new parameters.

    Raises
    ------
    TypeError, ValueError
        Params, grads or a state that are not dicts; a gradient with no parameter or moments, or of
        another shape; lr or eps not > 0; betas not two numbers in [0, 1).

    Shapes:
        params, grads {name: shape} -> {name: shape}

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    _check_adam(params, grads, state)
    lr, eps = check_number(lr, "lr"), check_number(eps, "eps")
    if not isinstance(betas, (tuple, list)) or len(betas) != 2:
        raise ValueError(tr("betas must be two numbers (beta_1, beta_2); got {betas!r}").format(betas=betas))
    b1, b2 = (check_number(b, f"betas[{i}]", strict=False, below=1.0) for i, b in enumerate(betas))
    state["step"] += 1
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
    """Train on random windows of ``T_max + 1`` tokens from `ids` with Adam; return params and losses.

    The gradient is clipped to a global norm of `clip` and the learning rate decays linearly to a
    tenth of `lr`, which keeps short runs stable.

    Parameters
    ----------
    params : dict of ndarray
        The starting parameters (not changed).
    config : GPTConfig
    ids : array_like of int
        The training text, at least T_max + 1 tokens.
    steps, batch_size : int
        Steps of Adam, windows per step.
    lr : float
        The starting learning rate.
    rng : numpy.random.Generator
        Draws the windows.
    clip : float
        The largest global norm of the gradient.

    Returns
    -------
    params : dict of ndarray
    losses : ndarray

    Raises
    ------
    TypeError, ValueError
        Steps or batch size below 1, lr or clip not > 0, an rng that is not a Generator, ids too short
        or not (N,), an id outside 0..V-1, wrong parameters.

    Shapes:
        ids (N,) -> params, losses (steps,)

    Taught in: 09 §4
    """
    check_params(params, config)
    steps = check_positive_int(steps, "steps")
    batch_size = check_positive_int(batch_size, "batch_size")
    lr, clip = check_number(lr, "lr"), check_number(clip, "clip")
    rng = check_generator(rng)
    ids = _text_ids(ids, config)
    T = config.context
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
