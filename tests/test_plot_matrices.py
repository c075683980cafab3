"""attnlib.plot.matrices on the Agg backend: heatmaps, their updates, the mask panels, a matrix product."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import attnlib
from attnlib import plot

pytestmark = pytest.mark.usefixtures("plot_style")


def cells(ax) -> list[str]:
    return [t.get_text() for t in plot.heatmap_cells(ax)]


def test_weights_heatmap_convention():
    w = np.array([[0.7, 0.3], [0.1, 0.9]])
    ax = plot.heatmap(w, ["a", "b"], ["c", "d"], title="weights · none")
    mesh = ax.collections[0]
    assert (mesh.norm.vmin, mesh.norm.vmax) == (0.0, 1.0)  # fixed scale, whatever the data
    assert ax.get_ylabel() == "query" and ax.get_xlabel() == "key"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # row 0 at the top
    assert cells(ax) == ["0.70", "0.30", "0.10", "0.90"]
    assert ax.figure.axes[-1].get_ylabel() == "attention weight"


def test_scores_heatmap_is_diverging_centred_on_zero_and_shows_masked_cells():
    s = np.array([[2.0, -np.inf], [-1.0, 0.5]])
    ax = plot.heatmap(s, kind="scores")
    mesh = ax.collections[0]
    assert mesh.norm.vmin == -2.0 and mesh.norm.vmax == 2.0
    assert cells(ax) == ["2.00", "−∞", "−1.00", "0.50"]
    assert ax.figure.axes[-1].get_ylabel() == "score"


def test_heatmap_labels_in_chinese_numbers_unchanged(zh_hans):
    ax = plot.heatmap(np.array([[0.25, 0.75]]), ["早"], ["上", "好"])
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("键", "查询")
    assert ax.figure.axes[-1].get_ylabel() == "注意力权重"
    assert cells(ax) == ["0.25", "0.75"]
    ax.figure.canvas.draw()  # every glyph in the bundled font (warnings are errors here)


def test_heatmap_cells_are_written_and_coloured():
    ax = plot.heatmap([[0.25, 0.75], [1.0, 0.0]], fmt=".1f", title="w")
    texts = plot.heatmap_cells(ax)
    assert [t.get_text() for t in texts] == ["0.2", "0.8", "1.0", "0.0"]  # 0.25 rounds to the even digit
    assert texts[2].get_color() == "white" and texts[3].get_color() == "black"  # dark cell, light cell
    assert [t.get_position() for t in texts[:2]] == [(0.5, 0.5), (1.5, 0.5)]  # row by row
    ax.text(0.5, 0.5, "a note")
    assert len(plot.heatmap_cells(ax)) == 4  # only the cells


def test_large_matrices_are_not_annotated_and_labels_are_checked():
    ax = plot.heatmap(np.zeros((20, 20)))
    assert not ax.texts and plot.heatmap_cells(ax) == []
    with pytest.raises(ValueError, match=r"rows must have shape \(2,\), one label per matrix row; got \(1,\)"):
        plot.heatmap(np.eye(2), rows=["a"])
    with pytest.raises(ValueError, match=r"matrix must have shape \(n_rows, n_cols\)"):
        plot.heatmap(np.ones(3))
    with pytest.raises(ValueError, match="kind must be one of"):
        plot.heatmap(np.eye(2), kind="weight")
    with pytest.raises(ValueError, match="fmt must be a fixed-point format"):
        plot.heatmap(np.eye(2), fmt="g")


def test_cell_text_colours_follow_the_luminance_rule():
    """All cells are coloured in one call; each must be what the rule gives for its own value."""
    data = np.linspace(-2, 2, 25).reshape(5, 5)
    data[1, 2] = -np.inf
    for kind, matrix in (("scores", data), ("weights", np.clip(data, 0, 1))):
        ax = plot.heatmap(matrix, kind=kind)
        mesh = ax.collections[0]
        for text, value in zip(plot.heatmap_cells(ax), matrix.ravel(), strict=True):
            if not np.isfinite(value):
                assert text.get_color() == "#555555"
                continue
            r, g, b, _ = mesh.cmap(mesh.norm(value))
            assert text.get_color() == ("black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "white")


def test_mask_panels_show_minus_infinity_and_exact_zeros():
    scores = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, -1.0], [2.0, 0.0, 1.0]])
    keep = np.tril(np.ones((3, 3), dtype=bool))
    axes = plot.mask_panels(scores, keep, ["a", "b", "c"], size=5)
    assert cells(axes[1])[:3] == ["1.00", "−∞", "−∞"]
    weight_cells = cells(axes[2])
    assert weight_cells[:3] == ["1.00", "0", "0"] and weight_cells[3:5] == ["", ""]  # beyond T = 3
    assert axes[0].get_xlim() == (0, 3) and axes[0].get_ylim() == (3, 0)
    labels = [t.get_text() for t in axes[0].texts if t not in plot.heatmap_cells(axes[0])]
    assert labels == ["a", "b", "c", "", "", "a", "b", "c", "", ""]  # below the columns, left of the rows
    assert [t.get_text() for t in axes[1].texts][-5:] == ["a", "b", "c", "", ""]  # columns only
    assert [ax.get_title() for ax in axes] == ["scores  Q·Kᵀ/√d_k", "masked scores  + M", "weights  softmax"]
    assert axes[2].collections[0].norm.vmin == 0.0 and axes[2].collections[0].norm.vmax == 1.0
    assert all(t.get_visible() for ax in axes for t in plot.heatmap_cells(ax))
    with pytest.raises(ValueError, match="may attend to no key"):
        plot.mask_panels(scores, np.zeros((3, 3), dtype=bool), ["a", "b", "c"])
    with pytest.raises(ValueError, match=r"T <= size=5"):
        plot.mask_panels(np.zeros((6, 6)), np.ones((6, 6), bool), ["x"] * 6, size=5)
    with pytest.raises(ValueError, match=r"keep, tokens must have shape \(T, T\), \(T,\) with T = 3; got \(\(3, 3\), 2\)"):
        plot.mask_panels(scores, keep, ["a", "b"])


def test_mask_panels_on_given_axes_fill_their_size():
    rng = np.random.default_rng(5)
    _, given = plt.subplots(1, 3)
    scores = rng.normal(size=(4, 4))
    axes = plot.mask_panels(scores, attnlib.causal_mask(4), list("wxyz"), axes=given, size=4, titles=False)
    assert axes == list(given) and len(axes[0].figure.axes) == 3  # no colour bars on given axes
    assert axes[0].get_xlim() == (0, 4) and cells(axes[1])[1] == "−∞" and axes[0].get_title() == ""
    assert cells(axes[0])[5] == plot.number(scores[1, 1], 2)


def test_mask_panels_weights_are_attnlib_weights():
    rng = np.random.default_rng(3)
    scores, keep = rng.normal(size=(4, 4)), attnlib.causal_mask(4)
    axes = plot.mask_panels(scores, keep, list("wxyz"))
    shown = np.ma.filled(axes[2].collections[0].get_array(), np.nan).reshape(4, 4)
    expected = attnlib.softmax(np.where(keep, scores, -np.inf))
    np.testing.assert_allclose(shown, expected, atol=1e-12)


def test_mask_panels_in_chinese(zh_hans):
    axes = plot.mask_panels(np.eye(2), np.ones((2, 2), bool), ["早", "上"])
    assert [ax.get_title() for ax in axes] == ["分数  Q·Kᵀ/√d_k", "加上掩码的分数  + M", "权重  softmax"]
    assert axes[0].figure.axes[-1].get_ylabel() == "注意力权重"


def test_product_panels_show_the_product():
    A, B = np.array([[1.0, 2.0], [0.0, 1.0], [3.0, -1.0]]), np.array([[1.0, 0.0, 2.0], [0.5, 1.0, 0.0]])
    axes = plot.product_panels(A, B, names=("X", "W", "X·W"), rows=list("abc"), inner=["f", "g"],
                               cols=["p", "q", "r"])
    assert [ax.get_title() for ax in axes] == ["X  3×2", "W  2×3", "X·W  3×3"]
    shown = np.ma.filled(axes[2].collections[0].get_array(), np.nan).reshape(3, 3)
    np.testing.assert_array_equal(shown, A @ B)
    assert [t.get_text() for t in axes[2].get_xticklabels()] == ["p", "q", "r"]
    norms = {(ax.collections[0].norm.vmin, ax.collections[0].norm.vmax) for ax in axes}
    assert norms == {(-6.0, 6.0)}  # one colour scale: the largest magnitude, 6 = 3·2, is in A @ B
    assert all(t.get_visible() for ax in axes for t in plot.heatmap_cells(ax))
    with pytest.raises(ValueError, match=r"left, right must have shape \(n, m\), \(m, p\); got \(\(3, 2\), \(3, 2\)\)"):
        plot.product_panels(A, A, names=("a", "b", "c"), rows="abc", inner="fg", cols="fg")


def test_head_grid_labels_in_chinese(zh_hans):
    fig = plot.head_grid(np.full((2, 2, 3, 3), 1 / 3), ["早", "上", "好"])
    titles = [ax.get_title() for ax in fig.axes[:2]]
    assert titles == ["头 0", "头 1"] and fig.axes[0].get_ylabel() == "第 0 层"
    assert fig.axes[-1].get_ylabel() == "注意力权重"


def test_head_grid_of_72_heads_fits_the_column_with_legible_labels_that_never_touch():
    """08's 6 layers × 12 heads: the grid fills the page's column; its token labels are legible
    there (thinned to every few tokens) and no two of them meet."""
    weights = np.full((6, 12, 10, 10), 0.1)
    tokens = ["[CLS]", *"the kids are playing on the green grass".split(), "[SEP]"]
    fig = plot.head_grid(weights, tokens, title="weights · 6 layers × 12 heads")
    try:
        assert fig.get_figwidth() * fig.dpi == pytest.approx(plot.COLUMN_PX, abs=2)
        assert min(plot.drawn_text_sizes(fig)) >= plot.legible_points(fig) - 1e-9
        renderer = fig.canvas.get_renderer()
        bottom_row, left_column = fig.axes[5 * 12:6 * 12], fig.axes[0:72:12]
        x_labels = [t for ax in bottom_row for t in ax.get_xticklabels()]
        y_labels = [t for ax in left_column for t in ax.get_yticklabels()]
        assert 1 < len(left_column[0].get_yticklabels()) < 10  # thinned, and still there
        for labels in (x_labels, y_labels):
            boxes = [t.get_window_extent(renderer) for t in labels]
            assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    finally:
        plt.close(fig)


def test_head_grid_labels_every_token_where_the_panels_give_room():
    fig = plot.head_grid(np.full((1, 2, 4, 4), 0.25), list("abcd"), panel_size=2.0)
    try:
        assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == list("abcd")
    finally:
        plt.close(fig)
