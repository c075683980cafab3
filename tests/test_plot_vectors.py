"""attnlib.plot.vectors on the Agg backend: the dot product, weight bars, contributions, the convex hull."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.axes import Axes

from attnlib import plot, softmax
from attnlib.core import convex_hull_2d, inside_convex_hull

TOKENS = ["早", "上", "好"]
X = np.array([[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0], [0.5, 0.8, 0.0, 1.0]])
X2 = np.array([[2.0, 0.5], [1.0, 2.0], [-1.0, 1.0]])

pytestmark = pytest.mark.usefixtures("plot_style")


def _texts(ax: Axes) -> list[str]:
    return [t.get_text() for t in ax.texts]


# ---- dot_product_picture -------------------------------------------------------------------------


def test_dot_product_picture_draws_the_geometry():
    a, b = np.array([1.0, np.sqrt(3)]), np.array([1.5, 0.0])  # |a| = 2 at 60°, |b| = 1.5
    ax = plot.dot_product_picture(a, b, lim=3.0)
    assert isinstance(ax, Axes)
    assert ax.get_xlim() == (-3.0, 3.0) and ax.get_ylim() == (-3.0, 3.0)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("feature 1", "feature 2")
    assert ax.get_title() == "a·b = |a| |b| cos θ = 2.00 × 1.50 × 0.500 = 1.50"
    assert {"a", "b", "θ", "|a| cos θ = 1.00"} <= set(_texts(ax))
    b_line, drop, proj, arc = ax.lines[2:]  # after the two axis lines
    assert np.allclose(np.array(drop.get_data()).T, [a, [1.0, 0.0]])  # the perpendicular from a
    assert np.allclose(np.array(b_line.get_data())[1], 0.0) and np.allclose(arc.get_data()[1][0], 0.0)
    assert np.allclose(np.array(proj.get_data())[:, 1], [1.0, 0.0])  # the shadow of a ends at x = 1


def test_dot_product_picture_of_an_obtuse_angle():
    ax = plot.dot_product_picture([-1.0, 1.0], [2.0, 0.0], ylim=(-1.0, 3.0), names=("q", "k"))  # 135°
    assert ax.get_ylim() == (-1.0, 3.0)
    assert ax.get_title().startswith("q·k = |q| |k| cos θ = 1.41 × 2.00 × −0.707 = −2.00")
    assert "|q| cos θ = −1.00" in _texts(ax)  # a negative projection
    drop = ax.lines[3]
    assert np.allclose(np.array(drop.get_data()).T, [[-1.0, 1.0], [-1.0, 0.0]])


@pytest.mark.parametrize(
    ("a", "b", "match"),
    [([0.0, 0.0], [1.0, 0.0], "non-zero"), ([1.0, 0.0, 0.0], [1.0, 0.0], r"a must have shape \(2,\), finite; got \(3,\)")],
)
def test_dot_product_picture_errors(a, b, match):
    with pytest.raises(ValueError, match=match):
        plot.dot_product_picture(a, b)


# ---- weight_bars --------------------------------------------------------------------------------


def test_weight_bars_on_the_fixed_scale():
    w = softmax(np.array([2.0, 2.0, 1.3]))
    ax = plot.weight_bars(w, TOKENS, title="row 早")
    bars = ax.patches
    assert np.allclose([bar.get_height() for bar in bars], w)
    assert [t.get_text() for t in ax.get_xticklabels()] == TOKENS
    assert ax.get_ylim() == (0.0, 1.12) and ax.get_ylabel() == "attention weight"
    assert [bar.get_edgecolor()[:3] for bar in bars][:2] == [(0.0, 0.0, 0.0)] * 2  # the tie is outlined
    assert bars[2].get_edgecolor()[3] == 0.0
    assert ["0.401", "0.401", "0.199"] == [t for t in _texts(ax)]
    assert ax.get_title() == "row 早" and [t.get_position()[1] for t in ax.texts] == pytest.approx(w + 0.015)
    ax = plot.weight_bars([0.0, 1.0, 0.0], TOKENS)
    assert [bar.get_height() for bar in ax.patches] == [0.0, 1.0, 0.0] and ax.get_title() == ""
    assert [bar.get_edgecolor()[3] for bar in ax.patches] == [0.0, 1.0, 0.0]


def test_weight_bars_needs_a_label_per_weight():
    with pytest.raises(ValueError, match=r"weights, tokens must have shape \(T,\), \(T,\); got \(\(2,\), 3\)"):
        plot.weight_bars([0.5, 0.5], TOKENS)


# ---- contribution_bars ---------------------------------------------------------------------------


def test_contribution_bars_stack_to_the_output():
    w = np.array([0.5, 0.3, 0.2])
    Xs = np.array([[1.0, -1.0], [2.0, 1.0], [-1.0, 3.0]])  # (T, d) with negative entries
    ax = plot.contribution_bars(w, Xs, TOKENS, title="one output")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["feature 1", "feature 2"]
    heights = np.array([bar.get_height() for bar in ax.patches]).reshape(3, 2)  # token by token
    assert np.allclose(heights, w[:, None] * Xs)
    assert np.allclose(heights.sum(axis=0), w @ Xs)
    # the black ticks sit at the sum
    ticks = ax.collections[0].get_segments()
    assert np.allclose([seg[0][1] for seg in ticks], w @ Xs)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["output (the sum)", "早: 0.50 × its row", "上: 0.30 × its row", "好: 0.20 × its row"]
    # negative parts hang below zero: token 好's feature 1 starts at 0 and goes down
    assert ax.patches[4].get_y() == 0.0 and ax.patches[4].get_height() < 0


def test_contribution_bars_shape_error():
    with pytest.raises(ValueError, match=r"weights, X, tokens must have shape \(T,\), \(T, d\), \(T,\)"):
        plot.contribution_bars([0.5, 0.5], X, TOKENS)


# ---- convex hulls --------------------------------------------------------------------------------


def test_convex_hull_2d_and_inside():
    square = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [1.0, 1.0], [1.0, 0.0]])
    corners = convex_hull_2d(square)
    assert corners.tolist() == [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]  # counter-clockwise
    queries = np.array([[1.0, 1.0], [2.0, 1.0], [2.1, 1.0], [-0.5, -0.5], [0.0, 0.0]])
    assert inside_convex_hull(square, queries).tolist() == [True, True, False, False, True]
    assert len(convex_hull_2d([[0.0, 0.0], [1.0, 1.0]])) == 2


def test_convex_hull_errors():
    with pytest.raises(ValueError, match=r"points must have shape \(n, 2\)"):
        convex_hull_2d(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="must span an area"):
        inside_convex_hull([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], [[0.5, 0.5]])
    with pytest.raises(ValueError, match=r"query must have shape \(m, 2\)"):
        inside_convex_hull(X2, [0.5, 0.5])


def test_weighted_averages_never_leave_the_hull(rng):
    points = rng.normal(size=(6, 2))
    w = softmax(rng.normal(scale=3.0, size=(50, 6)))
    assert inside_convex_hull(points, w @ points).all()
    assert not inside_convex_hull(points, 3 * points).all()


def rings_and_links(ax: Axes) -> tuple[list, list]:
    """The rings (big hollow markers) and the dotted lines home of a convex hull picture."""
    rings = [line for line in ax.lines if line.get_marker() == "o" and line.get_markersize() == 15]
    links = [line for line in ax.lines if line.get_linestyle() == ":"]
    return rings, links


def test_convex_hull_picture():
    out = softmax(X2 @ X2.T) @ X2
    ax = plot.convex_hull_picture(X2, out, TOKENS, trails=np.stack([out, X2]), title="s = 1")
    rings, links = rings_and_links(ax)
    assert np.allclose([np.concatenate(r.get_data()) for r in rings], out)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["convex hull", "centroid (mean)", "outputs"]
    assert {"早", "上", "好"} <= set(_texts(ax))
    assert ax.get_xlabel() == "feature 1" and ax.get_title() == "s = 1"
    lo, hi = ax.get_xlim()
    assert lo < X2[:, 0].min() and hi > X2[:, 0].max()
    assert np.allclose(np.array(links[0].get_data()).T, [out[0], X2[0]])  # from the ring to its token
    rings, links = rings_and_links(plot.convex_hull_picture(X2, X2, TOKENS))
    assert np.allclose([np.concatenate(r.get_data()) for r in rings], X2)
    assert np.allclose(np.array(links[0].get_data()).T, [X2[0], X2[0]])
    with pytest.raises(ValueError, match=r"out must have shape \(3, 2\)"):
        plot.convex_hull_picture(X2, X2[:2], TOKENS)


def test_vector_pictures_in_chinese(zh_hans):
    ax = plot.dot_product_picture([1.0, 1.0], [1.0, 0.0])
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("特征 1", "特征 2")
    assert ax.get_title().endswith("= 1.00")  # the numbers as in English
    ax = plot.contribution_bars([0.5, 0.5], np.eye(2), ["早", "上"])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["输出（总和）", "“早”：0.50 × 它的行", "“上”：0.50 × 它的行"]  # {行} written for 简体
    assert [t.get_text() for t in ax.get_xticklabels()] == ["特征 1", "特征 2"]
    ax = plot.weight_bars([0.25, 0.75], ["早", "上"])
    assert ax.get_xlabel() == "键" and ax.get_ylabel() == "注意力权重"
    ax.figure.canvas.draw()


def test_weight_bars_values_never_overlap_and_stay_legible():
    """08's "weights of 'it'": 17 narrow bars on half of a 16-inch figure printed 0.0040.0040.001.

    Each value is written upright, at a size the page (a 920 px column) shows at 9 px or more, and
    no two values' boxes meet; the tallest bar's value stays inside the axes.
    """
    w = softmax(np.linspace(-3.0, 3.0, 17) ** 2 / 3)
    tokens = [f"t{i}" for i in range(17)]
    fig = plot.new_figure((16, 3.6))
    axes = fig.subplots(1, 2)
    for ax in axes:
        plot.weight_bars(w, tokens, ax=ax)
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        values = [t for t in ax.texts if t.get_text()]
        assert values and all(t.get_rotation() == 90 for t in values)
        assert min(t.get_fontsize() for t in values) >= plot.legible_points(fig) - 1e-9
        boxes = [t.get_window_extent(renderer) for t in values]
        assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
        assert max(b.y1 for b in boxes) <= ax.get_window_extent(renderer).y1
        written = {float(t.get_text()) for t in values}
        assert round(float(w.max()), 3) in written  # the largest is always written
        ticks = [*ax.get_xticklabels(), *ax.get_yticklabels()]
        assert min(t.get_fontsize() for t in ticks) >= plot.legible_points(fig) - 1e-9


def test_weight_bars_values_stay_flat_where_they_fit():
    w = softmax(np.array([2.0, 2.0, 1.3]))
    ax = plot.weight_bars(w, TOKENS)
    assert [t.get_rotation() for t in ax.texts] == [0.0] * 3
