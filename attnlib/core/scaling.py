"""Why √d_k: a score is a sum of d_k products, so its spread grows like √d_k (notebook 05).

``nested_dot_products`` gives the score of two vectors at every width at once; ``score_bins`` and
``histogram_heights`` put scores of any spread σ on one scale, so histograms at different d_k compare.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import N_, tr
from ..validation import as_float_array, check_finite, check_indices, check_min_ndim

__all__ = ["histogram_heights", "nested_dot_products", "score_bins"]


def nested_dot_products(a: Any, b: Any, widths: Any) -> np.ndarray:
    """Dot products of `a` and `b` over their first ``d`` features only, for every ``d`` in `widths`.

    Entry ``[..., i]`` is ``Σ_{c < widths[i]} a_c b_c``: the score two vectors would have if queries
    and keys were only ``widths[i]`` wide. Growing ``d`` adds one product per feature, so a score is
    a random walk in ``d``; that is why its spread grows like √d.

    Parameters
    ----------
    a, b : array_like
        Vectors of D features each (leading axes broadcast).
    widths : array_like of int
        The widths d, each in 1..D.

    Returns
    -------
    dots : ndarray
        One dot product per width, on the last axis.

    Raises
    ------
    TypeError
        Non-numeric a or b, or widths that are not whole numbers.
    ValueError
        a and b of different widths D, NaN or inf, or a width outside 1..D.

    Shapes:
        a (..., D), b (..., D), widths (n_w,) -> (..., n_w)

    Taught in: 05 §1
    """
    a = as_float_array(a, "a", expected="(..., D)")
    b = as_float_array(b, "b", expected="(..., D)")
    check_min_ndim(a, "a", expected="(..., D)", min_ndim=1)
    check_min_ndim(b, "b", expected="(..., D)", min_ndim=1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            tr("b has D={got} features but a has D={want}; expected b (..., {want}), got {shape}").format(
                got=b.shape[-1], want=a.shape[-1], shape=b.shape
            )
        )
    check_finite(a, "a")
    check_finite(b, "b")
    D = a.shape[-1]
    w = check_indices(widths, "widths", expected="(n_w,)", low=1, high=D, high_symbol="D",
                      what=N_("widths of a and b to keep"))
    return np.cumsum(a * b, axis=-1)[..., w - 1]


def score_bins(sigma: float, n_bins: int = 45, reach: float = 4.5) -> np.ndarray:
    """Histogram edges for scores of standard deviation σ: `n_bins` bins over ±`reach`·σ.

    Bins that scale with σ give every d_k the same resolution, whatever the width of the scores.

    Parameters
    ----------
    sigma : float
        The standard deviation of the scores.
    n_bins : int
        The number of bins.
    reach : float
        How many σ the bins reach on each side of 0.

    Returns
    -------
    edges : ndarray

    Shapes:
        -> edges (n_bins + 1,)
    """
    return sigma * np.linspace(-reach, reach, n_bins + 1)


def histogram_heights(scores: Any, sigma: float) -> np.ndarray:
    """Histogram of `scores` on ``score_bins(σ)``, scaled so the normal curve N(0, σ²) peaks at 1.

    The density is divided by the peak ``1/(σ√(2π))`` of that curve.

    Parameters
    ----------
    scores : array_like
        Any number of scores (flattened).
    sigma : float
        Their expected standard deviation.

    Returns
    -------
    heights : ndarray

    Shapes:
        scores (n,) -> heights (n_bins,)
    """
    s = np.asarray(scores, dtype=float).ravel()
    edges = score_bins(sigma)
    counts, _ = np.histogram(s, bins=edges)
    density = counts / (s.size * np.diff(edges))
    return density * sigma * np.sqrt(2 * np.pi)
