"""The convex hull of 2-D points: attention outputs are weighted averages, so they stay inside it (03 §3)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import tr

__all__ = ["convex_hull_2d", "inside_convex_hull"]


def _cross(o: tuple, a: tuple, b: tuple) -> float:
    """z of (a − o) × (b − o): > 0 when o → a → b turns left."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_hull_2d(points: Any) -> np.ndarray:
    """The corners of the convex hull of 2-D points, counter-clockwise (Andrew's monotone chain).

    Parameters
    ----------
    points : array_like
        One point per row.

    Returns
    -------
    corners : ndarray
        Fewer than 3 when the points do not span an area.

    Raises
    ------
    ValueError
        Points not of shape (n, 2).

    Shapes:
        points (n, 2) -> corners (h, 2), h <= n
    """
    arr = np.asarray(points, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(tr("points must have shape (n, 2); got {shape}").format(shape=arr.shape))
    pts = sorted({(float(x), float(y)) for x, y in arr})
    if len(pts) < 3:
        return np.array(pts)
    chains = []
    for seq in (pts, pts[::-1]):  # the lower chain left to right, then the upper one back
        chain: list[tuple[float, float]] = []
        for p in seq:
            while len(chain) >= 2 and _cross(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        chains.append(chain[:-1])
    return np.array(chains[0] + chains[1])


def inside_convex_hull(points: Any, query: Any, *, tol: float = 1e-9) -> np.ndarray:
    """For each query point, whether it lies inside (or on the edge of) the convex hull of `points`.

    A point is inside a convex polygon whose corners run counter-clockwise when it is on the left
    of (or on) every edge: every cross product edge × (point − edge start) is >= 0.

    Parameters
    ----------
    points : array_like
        The points whose hull is taken, at least 3 not on one line.
    query : array_like
        The points to test.
    tol : float
        How far outside an edge still counts as on it (rounding).

    Returns
    -------
    ndarray of bool

    Raises
    ------
    ValueError
        Shapes other than (n, 2) and (m, 2), or points that span no area.

    Shapes:
        points (n, 2), query (m, 2) -> (m,) bool

    Taught in: 03 §3
    """
    corners = convex_hull_2d(points)
    q = np.asarray(query, dtype=float)
    if q.ndim != 2 or q.shape[1] != 2:
        raise ValueError(tr("query must have shape (m, 2); got {shape}").format(shape=q.shape))
    if len(corners) < 3:
        raise ValueError(tr("the points must span an area (at least 3 not on one line) to have an inside"))
    start, edge = corners, np.roll(corners, -1, axis=0) - corners  # (h, 2) each
    rel = q[:, None, :] - start[None]  # (m, h, 2)
    cross = edge[None, :, 0] * rel[..., 1] - edge[None, :, 1] * rel[..., 0]  # (m, h)
    return (cross >= -tol).all(axis=1)
