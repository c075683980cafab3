"""The sizes of a tiny GPT and the names and shapes of its parameters.

See the package docstring (``attnlib.gpt``) for the model and the names of its parameters.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..checks import check_bool, check_dict, check_positive_int
from ..i18n import N_, tr
from ..validation import as_float_array, check_finite, check_indices

__all__ = [
    "LAYER_PARAMS",
    "GPTConfig",
    "check_config",
    "check_ids",
    "check_params",
    "config_from_arrays",
    "layer_params",
    "param_name",
    "param_shapes",
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
        check_bool(self.causal, "causal")

    @property
    def d_k(self) -> int:
        """The width of one head, d_model / n_heads."""
        return self.d_model // self.n_heads

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The config as 0-d int arrays under ``config.<field>``, for an ``.npz`` next to the weights."""
        return {f"config.{k}": np.array(int(v)) for k, v in asdict(self).items()}

def check_config(config: Any) -> GPTConfig:
    """`config`, if it is a :class:`GPTConfig`.

    Parameters
    ----------
    config : GPTConfig

    Returns
    -------
    GPTConfig

    Raises
    ------
    TypeError
        Anything else.

    Shapes:
        config -> config

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    if not isinstance(config, GPTConfig):
        raise TypeError(tr("config must be a GPTConfig; got {type}").format(type=type(config).__name__))
    return config


def param_name(layer: int, name: str) -> str:
    """The key of one layer's parameter in the dict of parameters: ``param_name(1, "W_q") == "l1.W_q"``.

    Parameters
    ----------
    layer : int
        The layer i, from 0.
    name : str
        One of ``LAYER_PARAMS``.

    Returns
    -------
    str

    Shapes:
        -> "l{layer}.{name}"

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    return f"l{layer}.{name}"


def layer_params(params: dict, layer: int) -> dict[str, np.ndarray]:
    """The parameters of one layer under their short names (``"W_q"``, ..., ``"b_2"``).

    Parameters
    ----------
    params : dict of ndarray
        The parameters of the whole model.
    layer : int
        The layer i, from 0.

    Returns
    -------
    dict of ndarray

    Shapes:
        params {name: shape} -> {short name: shape}

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    return {k: params[param_name(layer, k)] for k in LAYER_PARAMS}


def config_from_arrays(arrays: dict) -> GPTConfig:
    """The config stored by ``GPTConfig.to_arrays`` (the ``config.*`` entries of a loaded ``.npz``).

    Parameters
    ----------
    arrays : dict of ndarray
        A loaded ``.npz``.

    Returns
    -------
    GPTConfig

    Raises
    ------
    TypeError, ValueError
        Not a dict, a missing or malformed ``config.<field>``, or sizes GPTConfig refuses.

    Shapes:
        arrays {"config.<field>": ()} -> GPTConfig

    Taught in: 09 §4
    """
    check_dict(arrays, "arrays", expected='{"config.<field>": 0-d int array}')
    fields = {}
    for field in GPTConfig.__dataclass_fields__:
        if f"config.{field}" not in arrays:
            raise ValueError(tr("arrays has no {key!r}: GPTConfig.to_arrays writes one entry per "
                                "field").format(key=f"config.{field}"))
        value = np.asarray(arrays[f"config.{field}"])
        if value.shape != () or value.dtype.kind not in "iub":
            raise ValueError(
                tr("arrays[{key!r}] must be a 0-d whole number (as GPTConfig.to_arrays writes it); got "
                   "shape {shape}, dtype {dtype}").format(
                    key=f"config.{field}", shape=value.shape, dtype=value.dtype
                )
            )
        fields[field] = int(value)
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

    Raises
    ------
    TypeError
        A config that is not a GPTConfig.

    Shapes:
        config -> {name: shape}

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    check_config(config)
    d, f = config.d_model, config.d_ff
    shapes = {
        "tok_emb": (config.vocab_size, d),
        "pos_emb": (config.context, d),
        "b_out": (config.vocab_size,),
    }
    layer = dict(zip(LAYER_PARAMS, [(d, d), (d, d), (d, d), (d, d), (d, f), (f,), (f, d), (d,)], strict=True))
    for i in range(config.n_layers):
        shapes |= {param_name(i, k): shape for k, shape in layer.items()}
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
        A config that is not a GPTConfig, params that are not a dict, a parameter that is not an
        array of real numbers.
    ValueError
        A missing parameter, one of the wrong shape, NaN or infinity.

    Shapes:
        params {name: shape of param_shapes(config)}

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    check_config(config)
    check_dict(params, "params", expected="{name: array} (see init_params)")
    for name, shape in param_shapes(config).items():
        if name not in params:
            raise ValueError(tr("params has no {name!r}; expected shape "
                                "{shape}").format(name=name, shape=shape))
        value = params[name]
        if not isinstance(value, np.ndarray):
            raise TypeError(tr("params[{name!r}] must be a numpy array of shape {shape}; got {type}").format(
                name=name, shape=shape, type=type(value).__name__))
        if value.shape != shape:
            raise ValueError(
                tr("params[{name!r}] must have shape {shape} for this config; got {got}").format(
                    name=name, shape=shape, got=value.shape
                )
            )
        as_float_array(value, f"params[{name!r}]", expected=str(shape))
        check_finite(value, f"params[{name!r}]")


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
    ids : ndarray of int64
        The same ids, as int64.

    Raises
    ------
    TypeError
        Ids that are not whole numbers, a config that is not a GPTConfig.
    ValueError
        No tokens, more than T_max tokens, or an id outside 0..V-1.

    Shapes:
        ids (..., T), 1 <= T <= T_max -> (..., T)

    Serves: the GPT's training and generation inside attnlib.gpt, not called in the notebooks.
    """
    check_config(config)
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
