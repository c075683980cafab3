"""Masks: which keys each query may see. Boolean (True = may attend) or the additive M of the formula.

Taught in: 06 (padding §2, causal §4, both at once §6).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..checks import check_positive_int
from ..i18n import N_, tr
from ..validation import as_float_array, check_indices

__all__ = ["additive_mask", "causal_mask", "masked_scores", "padding_mask"]


def causal_mask(T: Any) -> np.ndarray:
    """Boolean mask for a decoder (GPT): query i may attend to keys 0..i (itself and the past).

    True on and below the diagonal; :func:`additive_mask` turns it into M with ``-inf`` above it.

    Parameters
    ----------
    T : int
        The sequence length.

    Returns
    -------
    keep : ndarray of bool
        ``keep[i, j]`` is True when query i may see key j, i.e. ``j <= i``.

    Raises
    ------
    TypeError
        T not a whole number.
    ValueError
        T below 1.

    Shapes:
        T -> (T, T)

    Taught in: 06 §4
    """
    T = check_positive_int(T, "T", symbol=N_("sequence length"))
    return np.tri(T, dtype=bool)


def padding_mask(lengths: Any, T: Any) -> np.ndarray:
    """Boolean key-padding mask for a batch: key j of sentence b is real iff ``j < lengths[b]``.

    The middle axis of size 1 broadcasts over the queries, so every query ignores the padding keys.

    Parameters
    ----------
    lengths : array_like of int
        The number of real tokens of each sentence, 1..T (a sentence of length 0 would leave its
        queries nothing to attend to).
    T : int
        The padded length.

    Returns
    -------
    keep : ndarray of bool
        ``keep[b, 0, j]`` is True when key j of sentence b is a real token.

    Raises
    ------
    TypeError
        Lengths or T that are not whole numbers.
    ValueError
        Lengths not of shape (B,), or a length outside 1..T.

    Shapes:
        lengths (B,), T -> (B, 1, T)

    Taught in: 06 §2
    """
    T = check_positive_int(T, "T", symbol=N_("padded length"))
    lengths = check_indices(lengths, "lengths", expected="(B,)", low=1, high=T, high_symbol="T",
                            what=N_("one length per sentence"))
    return (np.arange(T) < lengths[:, None])[:, None, :]


def additive_mask(mask: Any) -> np.ndarray:
    """The additive matrix M of the formula: 0 where attention is allowed, ``-inf`` where blocked.

    Parameters
    ----------
    mask : array_like of bool
        True where a query may attend to a key.

    Returns
    -------
    M : ndarray of float64

    Raises
    ------
    TypeError
        A mask that is not boolean.

    Shapes:
        mask (...) bool -> M (...) float64

    Taught in: 06 §4
    """
    return np.where(_boolean(mask, "mask"), 0.0, -np.inf)


def masked_scores(scores: Any, keep: Any) -> np.ndarray:
    """``scores + M``: the scores with ``-inf`` where a key is blocked, unchanged where it may be seen.

    The one place where attnlib applies a mask: the figures and the exercises' checkers call it, and the
    formula calls its in-place kernel, ``_block_masked``. A query whose keys are all blocked keeps a row
    of ``-inf``; ``softmax`` refuses it.

    Parameters
    ----------
    scores : array_like
        The scores ``Q·Kᵀ/√d_k``.
    keep : array_like of bool
        True where a query may attend to a key; broadcast to the scores.

    Returns
    -------
    masked : ndarray
        A new array, of the scores' float dtype.

    Raises
    ------
    TypeError
        Scores that are not numbers, or a mask that is not boolean.
    ValueError
        A mask that does not broadcast to the scores.

    Shapes:
        scores (..., T_q, T_k), keep broadcastable to (..., T_q, T_k) -> masked (..., T_q, T_k)
    """
    s = as_float_array(scores, "scores", expected="(..., T_q, T_k)")
    keep = _boolean(keep, "keep")
    try:
        fits = np.broadcast_shapes(keep.shape, s.shape) == s.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(tr("{name} of shape {shape} does not broadcast to the scores {scores}").format(
            name="keep", shape=keep.shape, scores=s.shape))
    return _block_masked(s.copy(), keep)


def _block_masked(s: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``s + M`` in place on checked arrays: ``-inf`` where ``keep`` is False (the kernel of the formula)."""
    np.copyto(s, -np.inf, where=~keep)  # keep (..., T_q, T_k) broadcasts
    return s


def _boolean(mask: Any, name: str) -> np.ndarray:
    arr = np.asarray(mask)
    if arr.dtype.kind != "b":
        raise TypeError(tr("{name} must be boolean (True = may attend); got dtype "
                           "{dtype}").format(name=name, dtype=arr.dtype))
    return arr
