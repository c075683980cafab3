"""Checks of array inputs (the formula's arrays, masks, index arrays), shared by attnlib's public functions.

This module holds every check of an array: its dtype, its number of axes, shapes that fit each other,
NaN and infinity, a mask, and arrays of indices (token ids, lengths). Plain values (a count, a random
generator, a flag, a number, a choice, a list, a dict) are checked in ``attnlib.checks``.
Every check raises ``TypeError`` (the wrong kind of thing) or ``ValueError`` (the right kind, with
the wrong shape or content). The message names the argument, the shape the formula expects (written
in its symbols) and what was received, in the language chosen with ``attnlib.set_language``.
No ``assert`` here: ``python -O`` would remove it.

The checks are cheap on good input, so that ``attnlib.attention`` costs little more than the bare
formula: finiteness is tested with one sum over the array (a finite sum means finite entries), and
the full search for the bad entry runs only when that sum is not finite.

Taught in: 06 §6 (a mask that leaves a query nothing to see is refused)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .i18n import N_, tr

__all__ = [
    "as_float_array",
    "check_attention_inputs",
    "check_finite",
    "check_indices",
    "check_mask",
    "check_min_ndim",
    "check_row_maxima",
    "first_index",
]

_KINDS = {
    "b": N_("booleans"),
    "c": N_("complex numbers"),
    "U": N_("text"),
    "S": N_("bytes"),
    "O": N_("Python objects (a ragged list, or None?)"),
}


# ---- any array: dtype, axes, finiteness, indices -------------------------------------------------


def as_float_array(x: Any, name: str, *, expected: str) -> np.ndarray:
    """`x` as a floating-point array, without a copy when it already is one.

    Parameters
    ----------
    x : array_like
        The input.
    name : str
        Its name in the formula, used in the message.
    expected : str
        Its shape in the formula's symbols, e.g. ``"(..., T_q, d_k)"``.

    Returns
    -------
    ndarray
        float16/32/64 arrays as they are; integers, lists and tuples as float64.

    Raises
    ------
    TypeError
        Booleans, text, objects, complex numbers, or a ragged list.

    Shapes:
        x (any) -> (same)
    """
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError) as err:  # ragged nested lists
        raise TypeError(
            tr("{name} must be an array of numbers of shape {expected}; could not turn it into an "
               "array ({err})")
            .format(name=name, expected=expected, err=err)
        ) from None
    kind = arr.dtype.kind
    if kind == "f":
        return arr
    if kind in "iu":
        return arr.astype(np.float64)
    what = tr(_KINDS[kind]) if kind in _KINDS else tr("values of dtype {dtype}").format(dtype=arr.dtype)
    raise TypeError(
        tr("{name} must be an array of real numbers of shape {expected}; got {what} (dtype {dtype})")
        .format(name=name, expected=expected, what=what, dtype=arr.dtype)
    )


def check_min_ndim(arr: np.ndarray, name: str, *, expected: str, min_ndim: int = 2) -> None:
    """Refuse an array with fewer than `min_ndim` axes.

    Parameters
    ----------
    arr : ndarray
        The array.
    name, expected : str
        Its name and its shape in the formula's symbols.
    min_ndim : int
        The least number of axes (2: a token axis and a feature axis).

    Raises
    ------
    ValueError
        Too few axes; a single vector is told how to become a 1-row matrix.

    Shapes:
        arr (at least min_ndim axes)
    """
    if arr.ndim < min_ndim:
        hint = tr(" (a single vector? wrap it as a 1-row matrix: x[None, :])") if arr.ndim == 1 else ""
        raise ValueError(
            tr("{name} must have shape {expected}: at least {min_ndim} axes, one row per token; "
               "got shape {shape} with {ndim} axes").format(
                name=name, expected=expected, min_ndim=min_ndim, shape=arr.shape, ndim=arr.ndim
            )
            + hint
        )


def first_index(flags: np.ndarray) -> tuple[int, ...]:
    """Index of the first True entry of a boolean array (in reading order), as a tuple of ints.

    Parameters
    ----------
    flags : ndarray of bool
        At least one entry True.

    Returns
    -------
    tuple of int

    Shapes:
        flags (...) -> (ndim,)
    """
    return tuple(int(i) for i in np.unravel_index(int(np.argmax(flags)), np.shape(flags)))


def check_finite(arr: np.ndarray, name: str, *, allow_neg_inf: bool = False) -> None:
    """Refuse NaN, and infinities (except ``-inf`` where `allow_neg_inf`, which means "masked").

    One sum over the array settles the usual case: the sum of finite numbers is finite unless it
    overflows, and a single NaN or infinity makes it NaN or infinite. Only then is the array searched
    entry by entry, to name the bad one (an overflowing sum of finite numbers passes that search).

    Parameters
    ----------
    arr : ndarray
        A float array.
    name : str
        Its name, used in the message.
    allow_neg_inf : bool
        Accept ``-inf`` (a mask, or scores after masking).

    Raises
    ------
    ValueError
        A NaN, or an infinity that is not allowed, with the index of the first one.

    Shapes:
        arr (any)
    """
    if arr.size == 0:
        return
    with np.errstate(over="ignore", invalid="ignore"):
        total = arr.sum()
    if np.isfinite(total):
        return
    nan = np.isnan(arr)
    if nan.any():
        raise ValueError(
            tr("{name} contains NaN ({count} entries, the first at index {index}); "
               "NaN would spread to every weight it touches").format(
                name=name, count=int(nan.sum()), index=first_index(nan)
            )
        )
    bad = np.isposinf(arr) if allow_neg_inf else np.isinf(arr)
    if bad.any():
        template = (
            tr("{name} contains an infinite value (only -inf is allowed, meaning 'masked') at index {index}")
            if allow_neg_inf
            else tr("{name} contains an infinite value at index {index}")
        )
        raise ValueError(template.format(name=name, index=first_index(bad)))


def check_indices(
    values: Any,
    name: str,
    *,
    expected: str,
    low: int = 0,
    high: int,
    high_symbol: str,
    what: str = N_("indices"),
    ndim: int | None = 1,
    nonempty: bool = False,
) -> np.ndarray:
    """`values` as an int64 array of whole numbers from `low` to `high` (both included).

    One check for token ids, token indices, lengths and widths: whole numbers, the right number of
    axes, and every entry in range.

    Parameters
    ----------
    values : array_like of int
        The numbers.
    name : str
        Their name, used in the message.
    expected : str
        Their shape in symbols, e.g. ``"(N,)"`` or ``"(..., T)"``.
    low, high : int
        The smallest and the largest allowed value.
    high_symbol : str
        `high` in the formula's symbols, e.g. ``"T-1"`` or ``"V-1"``.
    what : str
        What the numbers are, e.g. ``N_("token ids")`` (translated where shown).
    ndim : int or None
        The exact number of axes, or None for at least one.
    nonempty : bool
        Refuse an array with no entries (or, for ``ndim=None``, with an empty last axis).

    Returns
    -------
    ndarray of int64

    Raises
    ------
    TypeError
        Entries that are not whole numbers.
    ValueError
        The wrong number of axes, no entries where some are needed, or an entry out of range.

    Shapes:
        values (expected) -> (expected)
    """
    try:
        arr = np.asarray(values)
    except ValueError:  # a ragged nested list: refused below as objects, not whole numbers
        arr = np.asarray(values, dtype=object)
    if arr.size == 0 and arr.dtype.kind == "f":  # [] is float64 to numpy; as indices it holds no number
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise TypeError(
            tr("{name} must be whole numbers ({what}) of shape {expected}; got dtype {dtype}").format(
                name=name, what=tr(what), expected=expected, dtype=arr.dtype
            )
        )
    if (arr.ndim != ndim) if ndim is not None else arr.ndim < 1:
        raise ValueError(
            tr("{name} must have shape {expected}; got shape {shape}").format(
                name=name, expected=expected, shape=arr.shape
            )
        )
    if nonempty and (arr.size == 0 or arr.shape[-1] == 0):
        raise ValueError(
            tr("{name} must hold at least one entry, shape {expected}; got shape {shape}").format(
                name=name, expected=expected, shape=arr.shape
            )
        )
    if arr.size and (arr.min() < low or arr.max() > high):
        bad = int(arr[(arr < low) | (arr > high)].flat[0])
        raise ValueError(
            tr("every entry of {name} must be between {low} and {high_symbol}={high}; got {bad}").format(
                name=name, low=low, high_symbol=high_symbol, high=high, bad=bad
            )
        )
    return arr.astype(np.int64, copy=False)


# ---- the attention formula -----------------------------------------------------------------------


def check_attention_inputs(
    Q: Any, K: Any, V: Any | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Q, K (and V) as float arrays whose shapes fit ``softmax(Q·Kᵀ/√d_k + M)·V``.

    Parameters
    ----------
    Q, K, V : array_like
        Queries, keys and (optionally) values, one row per token.

    Returns
    -------
    Q, K, V : ndarray
        Float arrays (V is None when not given); float32 stays float32, no copy.

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        Fewer than 2 axes, d_k = 0, K's d_k not Q's, no keys, V's T_k not K's, batch axes that do not
        broadcast, NaN or infinity.

    Shapes:
        Q (..., T_q, d_k), K (..., T_k, d_k), V (..., T_k, d_v)
    """
    Q = as_float_array(Q, "Q", expected="(..., T_q, d_k)")
    K = as_float_array(K, "K", expected="(..., T_k, d_k)")
    check_min_ndim(Q, "Q", expected="(..., T_q, d_k)")
    check_min_ndim(K, "K", expected="(..., T_k, d_k)")
    d_k = Q.shape[-1]
    if d_k == 0:
        raise ValueError(
            tr("Q has d_k=0 (shape {shape}): each query needs at least one feature").format(shape=Q.shape)
        )
    if K.shape[-1] != d_k:
        raise ValueError(
            tr("K has d_k={got} but Q has d_k={want}; expected K (..., T_k, {want}), got {shape}").format(
                got=K.shape[-1], want=d_k, shape=K.shape
            )
        )
    T_k = K.shape[-2]
    if T_k == 0:
        raise ValueError(
            tr("K has T_k=0 keys (shape {shape}): there is nothing to attend to").format(shape=K.shape)
        )
    batch = [Q.shape[:-2], K.shape[:-2]]
    if V is not None:
        V = as_float_array(V, "V", expected="(..., T_k, d_v)")
        check_min_ndim(V, "V", expected="(..., T_k, d_v)")
        if V.shape[-2] != T_k:
            raise ValueError(
                tr("V has T_k={got} rows but K has T_k={want}: one value per key; "
                   "expected V (..., {want}, d_v), got {shape}").format(
                    got=V.shape[-2], want=T_k, shape=V.shape
                )
            )
        batch.append(V.shape[:-2])
    try:
        np.broadcast_shapes(*batch)
    except ValueError:
        template = (
            tr("the batch axes (...) of Q {Q}, K {K} do not broadcast")
            if V is None
            else tr("the batch axes (...) of Q {Q}, K {K} and V {V} do not broadcast")
        )
        raise ValueError(template.format(Q=Q.shape, K=K.shape, V=None if V is None else V.shape)) from None
    for arr, name in ((Q, "Q"), (K, "K"), (V, "V")):
        if arr is not None:
            check_finite(arr, name)
    return Q, K, V


def check_mask(mask: Any, scores_shape: tuple[int, ...]) -> np.ndarray:
    """A boolean or additive float mask as a boolean "may attend" array, checked against the scores.

    The array is not broadcast (a causal mask stays (T, T), however many heads share it), so the
    checks cost little beside the scores.

    Parameters
    ----------
    mask : array_like
        Boolean (True where query i may attend to key j), or the additive M of the formula (0 where
        allowed, ``-inf`` where blocked).
    scores_shape : tuple of int
        The shape of the scores the mask is added to.

    Returns
    -------
    keep : ndarray of bool
        True where a query may attend to a key, in the mask's own shape.

    Raises
    ------
    TypeError
        A mask that is neither boolean nor float (a 0/1 integer mask is told to use ``astype(bool)``).
    ValueError
        A float mask with values other than 0 and ``-inf``, NaN or ``+inf``, a shape that does not
        broadcast to the scores, or a query that may attend to no key (its weights would be 0/0).

    Shapes:
        mask (..., T_q, T_k), scores_shape (..., T_q, T_k) -> keep (shape of mask)
    """
    expected = "(..., T_q, T_k)"
    arr = np.asarray(mask)
    if arr.dtype.kind == "b":
        keep = arr
    elif arr.dtype.kind == "f":
        check_finite(arr, "mask", allow_neg_inf=True)
        keep = arr == 0
        odd = ~keep & ~np.isneginf(arr)
        if odd.any():
            raise ValueError(
                tr("a float mask is the additive M of the formula: 0 where a query may attend and "
                   "-inf where it may not; got the value {value:g}. "
                   "For a 1 = attend / 0 = blocked mask, pass mask.astype(bool).").format(
                    value=float(arr[odd].flat[0])
                )
            )
    else:
        hint = tr(". For a 0/1 integer mask use mask.astype(bool).") if arr.dtype.kind in "iu" else ""
        raise TypeError(
            tr("mask must be boolean (True where a query may attend to a key) or float "
               "(0 allowed, -inf blocked), of shape {expected}; got dtype {dtype}").format(
                expected=expected, dtype=arr.dtype
            )
            + hint
        )
    scores_shape = tuple(scores_shape)
    try:
        full = np.broadcast_shapes(keep.shape, scores_shape)
    except ValueError:
        full = None
    if full != scores_shape:
        raise ValueError(
            tr("mask of shape {shape} does not broadcast to the scores {expected} = {scores}: "
               "its last two axes must be T_q and T_k (or 1)").format(
                shape=keep.shape, expected=expected, scores=scores_shape
            )
        )
    # A query with no key left: look in the mask's own rows, then name the first one in the scores.
    dead = ~keep.any(axis=-1) if keep.ndim else ~keep
    if dead.any():
        idx = first_index(np.broadcast_to(dead if keep.ndim else dead[None], scores_shape[:-1]))
        raise ValueError(
            tr("query {query} (batch index {batch}) may attend to no key: every key is masked, so its "
               "weights would be 0/0 = NaN. Each query needs at least one allowed key.").format(
                query=idx[-1], batch=idx[:-1]
            )
        )
    return keep


def check_row_maxima(row_max: np.ndarray) -> None:
    """Refuse scores whose row maximum is not finite: Q·Kᵀ overflowed the dtype.

    With finite Q and K and at least one key per query the maximum of a row is finite unless the
    products overflow (e.g. entries of 1e30 in float32); softmax would then give NaN.

    Parameters
    ----------
    row_max : ndarray
        The maximum of every row of the scores.

    Raises
    ------
    ValueError
        A row maximum that is NaN or infinite, with its index.

    Shapes:
        row_max (..., T_q, 1)
    """
    bad = ~np.isfinite(row_max)
    if bad.any():
        idx = first_index(bad[..., 0])
        raise ValueError(
            tr("the scores of query {query} (batch index {batch}) overflow {dtype}: Q·Kᵀ is too large to "
               "compute; scale Q and K down, or use float64").format(
                query=idx[-1], batch=idx[:-1], dtype=row_max.dtype
            )
        )
