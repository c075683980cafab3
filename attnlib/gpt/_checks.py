"""The checks of attnlib.gpt's arguments, built on attnlib.validation (which stays general)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..i18n import tr


def check_bool(value: Any, name: str) -> bool:
    """`value`, if it is True or False (not 0, 1 or a string); `name` names it in the message."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(tr("{name} must be True or False; got {value!r}").format(name=name, value=value))
    return bool(value)


def check_number(
    value: Any, name: str, *, low: float = 0.0, strict: bool = True, below: float | None = None
) -> float:
    """`value` as a float, if it is finite, ``> low`` (``>= low`` unless `strict`) and ``< below``."""
    rule = f"{'>' if strict else '>='} {low:g}" + ("" if below is None else f" and < {below:g}")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(tr("{name} must be a number {rule}; got {value!r} ({type})").format(
            name=name, rule=rule, value=value, type=type(value).__name__))
    ok = np.isfinite(value) and (value > low if strict else value >= low) and (below is None or value < below)
    if not ok:
        raise ValueError(tr("{name} must be a finite number {rule}; got {value}").format(
            name=name, rule=rule, value=value))
    return float(value)


def check_dict(value: Any, name: str, *, expected: str) -> Any:
    """`value`, if it is a mapping (a dict, or a loaded ``.npz``) of what `expected` says."""
    if not isinstance(value, Mapping):
        raise TypeError(tr("{name} must be a dict {expected}; got {type}").format(
            name=name, expected=expected, type=type(value).__name__))
    return value
