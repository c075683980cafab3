"""Checks of plain values (counts, numbers, flags, generators, choices, lists, dicts): one place per message.

This module holds every check of a value that is not an array; the arrays (their dtype, shape, NaN and
infinity, masks, index arrays) are checked in ``attnlib.validation``. Like there, a check raises
``TypeError`` for the wrong kind of thing and ``ValueError`` for the right kind with the wrong content,
naming the argument and what was expected, in the language chosen with ``attnlib.set_language``. The
quiz's checks (``check_index``, ``check_list``) raise ``ValueError`` for both: a question written in the
wrong form.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .i18n import N_, tr


# ---- plain data (the quiz's questions) -------------------------------------------------------------
def check_index(value: Any, name: str, size: int, *, what: str = N_("an index"), optional: bool = False
                ) -> int | None:
    """`value` as a position 0..size-1 among `what` (a whole number, not a bool); None if `optional`."""
    if not (optional and value is None) and (isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, np.integer)) or not 0 <= value < size):
        template = N_("{name} must be None or {what} 0..{last}; got {value!r}") if optional else N_(
            "{name} must be {what} 0..{last}; got {value!r}")
        raise ValueError(tr(template).format(name=name, what=tr(what), last=size - 1, value=value))
    return value if value is None else int(value)


def check_keys(data: Any, name: str, keys: Iterable[str]) -> Mapping[str, Any]:
    """`data`, if it is a mapping (else TypeError) with exactly the keys `keys`."""
    keys = sorted(keys)
    if not isinstance(data, Mapping):
        raise TypeError(tr("{name} must be a dict with the keys {keys}; got {type}").format(
            name=name, keys=keys, type=type(data).__name__))
    if set(data) != set(keys):
        unknown, missing = sorted(set(data) - set(keys)), sorted(set(keys) - set(data))
        raise ValueError(tr("{name} must have the keys {keys}; unknown {unknown}, missing {missing}").format(
            name=name, keys=keys, unknown=unknown, missing=missing))
    return data


def check_list(value: Any, name: str, *, expected: str, counts: Container[int] = range(1, 2**63),
               texts: bool = False, distinct: bool = False) -> tuple[Any, ...]:
    """`value` as a tuple, if it is a list (not a text or a dict) whose length is in `counts`; with `texts`
    a lone text is a list of one and each item a non-empty text. `expected` words it for the message."""
    items = [value] if texts and isinstance(value, str) else value
    if (isinstance(items, (str, Mapping)) or not isinstance(items, Sequence) or len(items) not in counts
            or (texts and not all(isinstance(t, str) and t.strip() for t in items))
            or (distinct and len(set(items)) < len(items))):
        raise ValueError(tr("{name} must be {expected}; got {value!r}").format(
            name=name, expected=expected, value=value))
    return tuple(items)


# ---- a shape, a choice, a type, a rule ------------------------------------


def refuse(error: type[Exception], template: str, **fields: Any) -> None:
    """Raise ``error`` with `template` (marked with ``N_`` where it is written) translated, then filled."""
    raise error(tr(template).format(**fields))


def check_shape(ok: Any, name: str, *, expected: str, got: Any) -> None:
    """Refuse `name` unless `ok`: "{name} must have shape {expected}; got {got}" (`expected` in symbols)."""
    if not ok:
        refuse(ValueError, N_("{name} must have shape {expected}; got {got}"), name=name, expected=expected,
               got=got)


def check_choice(value: Any, name: str, choices: Any) -> Any:
    """`value` if it is one of `choices`; ValueError naming them otherwise."""
    if value not in list(choices):
        refuse(ValueError, N_("{name} must be one of {choices}; got {value!r}"), name=name,
               choices=", ".join(map(str, choices)), value=value)
    return value


def check_type(value: Any, name: str, kind: type, *, what: str) -> Any:
    """`value` if it is a `kind`; TypeError saying `what` was expected (marked with ``N_``) otherwise."""
    if not isinstance(value, kind):
        refuse(TypeError, N_("{name} must be {what}; got {type}"), name=name, what=tr(what),
               type=type(value).__name__)
    return value


# ---- settings: a flag, a number, a count, a random generator, a dict of arrays ------------------
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


def check_positive_int(value: Any, name: str, *, symbol: str | None = None) -> int:
    """`value` as an int, if it is a whole number >= 1.

    Parameters
    ----------
    value : int
        The number to check.
    name : str
        Its name, used in the message.
    symbol : str, optional
        What it counts, shown after the name (e.g. ``"sequence length"``).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        Not a whole number (booleans included).
    ValueError
        A whole number below 1.

    Shapes:
        value () -> ()
    """
    label = tr("{name} ({symbol})").format(name=name, symbol=tr(symbol)) if symbol else name
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            tr("{label} must be a whole number >= 1; got {value!r} ({type})").format(
                label=label, value=value, type=type(value).__name__
            )
        )
    if value < 1:
        raise ValueError(tr("{label} must be >= 1; got {value}").format(label=label, value=int(value)))
    return int(value)


def check_generator(rng: Any, name: str = "rng") -> np.random.Generator:
    """`rng`, if it is a ``numpy.random.Generator``: every random draw in attnlib takes one explicitly.

    Parameters
    ----------
    rng : numpy.random.Generator
        E.g. ``np.random.default_rng(0)``.
    name : str
        Its name, used in the message.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    TypeError
        Anything else (a seed, ``np.random``, None).

    Shapes:
        none
    """
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            tr("{name} must be a numpy Generator, e.g. np.random.default_rng(0); got {type}").format(
                name=name, type=type(rng).__name__
            )
        )
    return rng


def check_dict(value: Any, name: str, *, expected: str) -> Any:
    """`value`, if it is a mapping (a dict, or a loaded ``.npz``) of what `expected` says."""
    if not isinstance(value, Mapping):
        raise TypeError(tr("{name} must be a dict {expected}; got {type}").format(
            name=name, expected=expected, type=type(value).__name__))
    return value
