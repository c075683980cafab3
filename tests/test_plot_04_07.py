"""The figures of notebooks 04-07: score walks, variance against d_k, histograms, weights, masks, products."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import attnlib
from attnlib import plot


@pytest.fixture(autouse=True)
def _style_and_close():
    with plot.use_style():
        yield
    plt.close("all")

def test_score_walks_axes():
    walks = np.cumsum(np.random.default_rng(0).normal(size=(3, 64)), axis=1)
    ax = plot.score_walks(walks)
    assert ax.get_xlim() == (1, 64)
    assert ax.get_xlabel() == "d_k: number of features in q and k"
    assert len(ax.lines) == 4  # three walks and the zero line
    with pytest.raises(ValueError, match=r"walks must have shape \(n_pairs, D\)"):
        plot.score_walks(np.zeros(5))


def test_variance_vs_dk_axes():
    d = np.array([1, 4, 16, 64])
    ax = plot.variance_vs_dk(d, d * 1.01, np.ones(4), se_raw=0.05 * d, se_scaled=0.05 * np.ones(4))
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "4", "16", "64"]
    assert ax.get_ylabel() == "variance of the scores"
    labels = ax.get_legend_handles_labels()[1]
    assert "theory: d_k" in labels and "measured: q·k / √d_k" in labels


def test_score_histogram_normalises_to_the_normal_peak():
    scores = np.random.default_rng(1).normal(0, 4.0, 20000)
    ax = plot.score_histogram(scores, 4.0)
    assert ax.get_xlim() == (-100, 100) and ax.get_yticks().size == 0
    heights = plot.histogram_heights(scores, 4.0)
    assert heights.max() == pytest.approx(1.0, abs=0.12)
    assert plot.score_bins(4.0)[[0, -1]].tolist() == [-18.0, 18.0]
    assert "σ = 4" in [t for t in ax.texts if t.get_text()][0].get_text()
    curve = ax.lines[0]
    assert curve.get_ydata().max() == pytest.approx(1.0, abs=1e-3)
    plot.update_score_histogram(ax, scores / 4, 1.0, note="hello")
    assert ax.texts[0].get_text() == "hello"


def test_weights_row_any_number_of_keys():
    ax = plot.weights_row([0.1, 0.6, 0.3], max_keys=10)
    bars = ax.collections[0]
    assert len(bars.get_paths()) == 3 and ax.get_ylim() == (0, 1.1) and ax.get_xticks().size == 0
    outline = ax.patches[0]
    assert outline.get_height() == pytest.approx(0.6)  # the largest bar is outlined
    assert [t.get_text() for t in ax.texts][0] == "0.600"
    plot.update_weights_row(ax, np.full(10, 0.1))
    assert len(bars.get_paths()) == 10 and ax.lines[0].get_ydata()[0] == pytest.approx(0.1)
    assert "10 keys" in ax.texts[1].get_text()
    with pytest.raises(ValueError, match=r"1 <= n <= 10"):
        plot.update_weights_row(ax, np.full(11, 1 / 11))


def test_saturation_curves_panels():
    d = np.array([1, 4, 16, 64, 256, 1024])
    raw = np.stack([np.linspace(0.3, 1, 6), np.linspace(2, 0, 6), np.linspace(0.35, 0, 6)])
    scaled = np.stack([np.full(6, 0.3), np.full(6, 1.8), np.full(6, 0.35)])
    axes = plot.saturation_curves(d, raw, scaled, n_keys=8, current=(64, True))
    assert [ax.get_title() for ax in axes] == ["largest weight", "entropy (nats)", "gradient size ‖diag(p) − p pᵀ‖"]
    for ax in axes:
        assert ax.get_xscale() == "log" and ax.get_xlabel() == "d_k"
        assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "4", "16", "64", "256", "1024"]
    uniform = axes[1].lines[2].get_ydata()
    assert uniform[0] == pytest.approx(np.log(8))
    dot = axes[0].lines[4]
    assert dot.get_xdata()[0] == 64 and dot.get_ydata()[0] == pytest.approx(0.3)
    with pytest.raises(ValueError, match=r"shape \(3, n\) = \(3, 6\)"):
        plot.update_saturation_curves(axes, d, raw[:2], scaled, n_keys=8)


def test_mask_panels_show_minus_infinity_and_exact_zeros():
    scores = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, -1.0], [2.0, 0.0, 1.0]])
    keep = np.tril(np.ones((3, 3), dtype=bool))
    axes = plot.mask_panels(scores, keep, ["a", "b", "c"], size=5)
    masked_cells = [t.get_text() for t in axes[1].texts if t.get_gid() == plot.ANNOT_GID]
    assert masked_cells[:3] == ["1.00", "−∞", "−∞"]
    weight_cells = [t.get_text() for t in axes[2].texts if t.get_gid() == plot.ANNOT_GID]
    assert weight_cells[:3] == ["1.00", "0", "0"] and weight_cells[3:5] == ["", ""]  # beyond T = 3
    assert axes[0].get_xlim() == (0, 3) and axes[0].get_ylim() == (3, 0)
    labels = [t.get_text() for t in axes[0].texts if t.get_gid() == plot._LAB_GID]
    assert labels[:3] == ["a", "b", "c"] and labels[5:8] == ["a", "b", "c"]
    assert [ax.get_title() for ax in axes] == ["scores  Q·Kᵀ/√d_k", "masked scores  + M", "weights  softmax"]
    assert axes[2].collections[0].norm.vmin == 0.0 and axes[2].collections[0].norm.vmax == 1.0
    with pytest.raises(ValueError, match="at least one True in every row"):
        plot.update_mask_panels(axes, scores, np.zeros((3, 3), dtype=bool), ["a", "b", "c"])
    with pytest.raises(ValueError, match=r"T <= 5"):
        plot.update_mask_panels(axes, np.zeros((6, 6)), np.ones((6, 6), bool), ["x"] * 6)


def test_mask_panels_weights_are_attnlib_weights():
    rng = np.random.default_rng(3)
    scores, keep = rng.normal(size=(4, 4)), attnlib.causal_mask(4)
    axes = plot.mask_panels(scores, keep, list("wxyz"))
    shown = np.ma.filled(axes[2].collections[0].get_array(), np.nan).reshape(4, 4)
    expected = attnlib.softmax(np.where(keep, scores, -np.inf))
    np.testing.assert_allclose(shown, expected, atol=1e-12)


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
    assert all(t.get_visible() for ax in axes for t in ax.texts)
    with pytest.raises(ValueError, match=r"must multiply"):
        plot.product_panels(A, A, names=("a", "b", "c"), rows="abc", inner="fg", cols="fg")


def test_cell_text_colours_follow_the_per_cell_rule():
    """update_heatmap colours all cells in one call; it must agree with the per-cell rule _text_colour."""
    data = np.linspace(-2, 2, 25).reshape(5, 5)
    data[1, 2] = -np.inf
    for kind in ("scores", "weights"):
        ax = plot.heatmap(np.clip(data, 0, 1) if kind == "weights" else data, kind=kind)
        mesh = ax.collections[0]
        for text, value in zip(ax.texts, (np.clip(data, 0, 1) if kind == "weights" else data).ravel(), strict=True):
            expected = "#555555" if not np.isfinite(value) else plot._text_colour(mesh.cmap, mesh.norm, value)
            assert text.get_color() == expected
