"""Input validation shared by the public functions of attnlib.

Every check raises ``TypeError`` (wrong kind of thing) or ``ValueError`` (right kind, wrong
shape or content) with a message that names the argument, the shape the formula expects,
written in its symbols, and what was received.
We never use ``assert`` here: ``python -O`` would remove it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "as_float_array",
    "check_finite",
    "check_generator",
    "check_min_ndim",
    "check_positive_int",
    "first_index",
]


def as_float_array(x: Any, name: str, *, expected: str) -> np.ndarray:
    """Return ``x`` as a floating-point array.

    float16/32/64 arrays keep their dtype; integers, lists and tuples become float64.
    Booleans, strings, objects and complex numbers are refused with a ``TypeError``.
    """
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as err:  # ragged nested lists
        raise TypeError(
            f"{name} must be an array of numbers of shape {expected}; "
            f"could not turn it into an array ({err})"
        ) from None
    kind = arr.dtype.kind
    if kind == "f":
        return arr
    if kind in "iu":
        return arr.astype(np.float64)
    what = {
        "b": "booleans",
        "c": "complex numbers",
        "U": "text",
        "S": "bytes",
        "O": "Python objects (a ragged list, or None?)",
    }.get(kind, f"values of dtype {arr.dtype}")
    raise TypeError(
        f"{name} must be an array of real numbers of shape {expected}; got {what} (dtype {arr.dtype})"
    )


def check_min_ndim(arr: np.ndarray, name: str, *, expected: str, min_ndim: int = 2) -> None:
    """Refuse arrays with fewer than ``min_ndim`` axes."""
    if arr.ndim < min_ndim:
        raise ValueError(
            f"{name} must have shape {expected}: at least {min_ndim} axes, one row per token; "
            f"got shape {arr.shape} with {arr.ndim} axes"
            + (" (a single vector? wrap it as a 1-row matrix: x[None, :])" if arr.ndim == 1 else "")
        )


def first_index(flags: np.ndarray) -> tuple[int, ...]:
    """Index of the first True entry of a boolean array, as a tuple of ints."""
    return tuple(int(i) for i in np.argwhere(flags)[0])


def check_finite(arr: np.ndarray, name: str, *, allow_neg_inf: bool = False) -> None:
    """Refuse NaN (and infinities, except ``-inf`` where ``allow_neg_inf``)."""
    nan = np.isnan(arr)
    if nan.any():
        raise ValueError(
            f"{name} contains NaN ({int(nan.sum())} entries, the first at index {first_index(nan)}); "
            "NaN would spread to every weight it touches"
        )
    bad = np.isposinf(arr) if allow_neg_inf else np.isinf(arr)
    if bad.any():
        allowed = " (only -inf is allowed, meaning 'masked')" if allow_neg_inf else ""
        raise ValueError(
            f"{name} contains an infinite value{allowed} at index {first_index(bad)}"
        )


def check_positive_int(value: Any, name: str, *, symbol: str | None = None) -> int:
    """Return ``value`` as an int if it is a whole number >= 1."""
    label = f"{name} ({symbol})" if symbol else name
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{label} must be a whole number >= 1; got {value!r} ({type(value).__name__})")
    if value < 1:
        raise ValueError(f"{label} must be >= 1; got {int(value)}")
    return int(value)


def check_generator(rng: Any, name: str = "rng") -> np.random.Generator:
    """Refuse anything that is not a ``numpy.random.Generator``."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"{name} must be a numpy Generator, e.g. np.random.default_rng(0); "
            f"got {type(rng).__name__}"
        )
    return rng
