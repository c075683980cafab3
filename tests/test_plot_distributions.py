"""attnlib.plot.distributions on the Agg backend: score walks, variance against d_k, histograms,
one query's weights, entropy against the scale, softmax's saturation."""

from __future__ import annotations

import numpy as np
import pytest

from attnlib import entropy, plot, softmax
from attnlib.core import histogram_heights, score_bins

TOKENS = ["早", "上", "好"]
X = np.array([[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0], [0.5, 0.8, 0.0, 1.0]])

pytestmark = pytest.mark.usefixtures("plot_style")


def test_score_walks_axes():
    walks = np.cumsum(np.random.default_rng(0).normal(size=(3, 64)), axis=1)
    ax = plot.score_walks(walks)
    assert ax.get_xlim() == (1, 64)
    assert ax.get_xlabel() == "d_k: number of features in q and k"
    assert len(ax.lines) == 4  # three walks and the zero line
    with pytest.raises(ValueError, match=r"walks must have shape \(n_pairs, D\), D >= 2; got \(5,\)"):
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
    heights = histogram_heights(scores, 4.0)
    assert heights.max() == pytest.approx(1.0, abs=0.12)
    assert score_bins(4.0)[[0, -1]].tolist() == [-18.0, 18.0]
    (note,) = ax.texts
    assert note.get_text() == f"std of the scores {plot.number(np.std(scores), 2)}\nnormal curve: σ = 4"
    (curve,) = ax.lines
    assert curve.get_ydata().max() == pytest.approx(1.0, abs=1e-3)
    (steps,) = ax.patches
    assert np.allclose(steps.get_data().values, heights) and ax.get_ylim() == (0, 1.6)


def test_score_histogram_note_and_title():
    scores = np.random.default_rng(1).normal(0, 1.0, 4000) ** 2  # peaked: taller than the curve
    ax = plot.score_histogram(scores, 1.0, xlim=10.0, title="d_k = 1", note="first line\nsecond line")
    assert [t.get_text() for t in ax.texts] == ["first line\nsecond line"]
    assert ax.get_title() == "d_k = 1" and ax.get_xlim() == (-10, 10)
    assert ax.get_ylim()[1] == pytest.approx(1.08 * histogram_heights(scores, 1.0).max())


def test_weights_row_any_number_of_keys():
    ax = plot.weights_row([0.1, 0.6, 0.3], max_keys=10)
    (bars,) = ax.collections
    assert len(bars.get_paths()) == 3 and ax.get_ylim() == (0, 1.1) and ax.get_xticks().size == 0
    (outline,) = ax.patches
    assert outline.get_height() == pytest.approx(0.6)  # the largest bar is outlined
    assert [t.get_text() for t in ax.texts] == ["0.600", "3 keys  ·  dashed line: uniform 1/3"]
    ax = plot.weights_row(np.full(10, 0.1), max_keys=10)
    (bars,) = ax.collections
    (uniform,) = ax.lines
    assert len(bars.get_paths()) == 10 and uniform.get_ydata()[0] == pytest.approx(0.1)
    assert ax.texts[1].get_text() == "10 keys  ·  dashed line: uniform 1/10"
    with pytest.raises(ValueError, match=r"weights must have shape \(n,\), 1 <= n <= 10; got \(11,\)"):
        plot.weights_row(np.full(11, 1 / 11), max_keys=10)


def test_saturation_curves_panels():
    d = np.array([1, 4, 16, 64, 256, 1024])
    raw = np.stack([np.linspace(0.3, 1, 6), np.linspace(2, 0, 6), np.linspace(0.35, 0, 6)])
    scaled = np.stack([np.full(6, 0.3), np.full(6, 1.8), np.full(6, 0.35)])
    axes = plot.saturation_curves(d, raw, scaled, n_keys=8, current=(64, True))
    assert [ax.get_title() for ax in axes] == ["largest weight", "entropy (nats)", "gradient size ‖diag(p) − p pᵀ‖"]
    for ax in axes:
        assert ax.get_xscale() == "log" and ax.get_xlabel() == "d_k"
        assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "4", "16", "64", "256", "1024"]
    raw_line, scaled_line, uniform, vline, dot = axes[1].lines
    assert uniform.get_ydata()[0] == pytest.approx(np.log(8)) and list(vline.get_xdata()) == [64, 64]
    assert raw_line.get_alpha() == 0.3 and scaled_line.get_alpha() == 1.0  # the scaled setting is marked
    dot = axes[0].lines[-1]
    assert dot.get_xdata()[0] == 64 and dot.get_ydata()[0] == pytest.approx(0.3)
    assert len(plot.saturation_curves(d, raw, scaled, n_keys=8)[0].lines) == 3  # nothing marked
    with pytest.raises(ValueError, match=r"shape \(3, n\) = \(3, 6\)"):
        plot.saturation_curves(d, raw[:2], scaled, n_keys=8)


def test_entropy_curves_from_log_t_down():
    scores = X @ X.T
    scales = np.linspace(0.0, 10.0, 101)
    ax = plot.entropy_curves(scores, TOKENS, scales=scales, highlight=1, mark=2.0)
    rows = ax.lines[:3]
    assert [line.get_label() for line in rows] == ["row 早", "row 上", "row 好"]
    for i, line in enumerate(rows):
        x, y = line.get_data()
        assert np.isclose(y[0], np.log(3))  # s = 0: uniform
        assert np.allclose(y, entropy(softmax(x[:, None] * scores[i])))
    assert rows[1].get_linewidth() > rows[0].get_linewidth()
    assert ax.get_xlim() == (0.0, 10.0) and ax.get_xlabel() == "scale β"
    uniform, vline, dot = ax.lines[3:]
    assert list(vline.get_xdata()) == [2.0, 2.0] and uniform.get_ydata()[0] == pytest.approx(np.log(3))
    assert np.isclose(dot.get_ydata()[0], entropy(softmax(2.0 * scores[1])), atol=1e-3)
    legend_widths = {line.get_linewidth() for line in ax.get_legend().get_lines()}
    assert legend_widths == {1.5, 1.0}  # the legend's keys are not highlighted
    ax = plot.entropy_curves(scores, TOKENS, scales=scales)  # default: row 0 marked at the first scale
    assert ax.lines[0].get_linewidth() > ax.lines[1].get_linewidth()
    assert list(ax.lines[4].get_xdata()) == [0.0, 0.0]
    with pytest.raises(ValueError, match=r"highlight must be one of 0, 1, 2; got 3"):
        plot.entropy_curves(scores, TOKENS, scales=scales, highlight=3, mark=1.0)


def test_entropy_curves_errors():
    with pytest.raises(ValueError, match=r"scales must have shape \(n,\), n >= 2; got \(1,\)"):
        plot.entropy_curves(np.eye(3), TOKENS, scales=[1.0])
    with pytest.raises(ValueError, match=r"scores must have shape \(T, T_k\), T = 3 tokens; got \(2, 2\)"):
        plot.entropy_curves(np.eye(2), TOKENS, scales=[0.0, 1.0])


def test_distribution_labels_in_chinese(zh_hans):
    ax = plot.entropy_curves(X @ X.T, TOKENS, scales=np.linspace(0, 5, 11))
    assert ax.get_xlabel() == "缩放系数 β" and ax.get_ylabel() == "这一行的熵（奈特）"
    assert [t.get_text() for t in ax.get_legend().get_texts()][:2] == ["行“早”", "行“上”"]
    ax = plot.weights_row([0.5, 0.5], max_keys=4)
    assert ax.texts[1].get_text() == "2 个键  ·  虚线：均匀权重 1/2"
    axes = plot.saturation_curves(np.array([1, 4]), np.ones((3, 2)) / 2, np.ones((3, 2)) / 2, n_keys=2)
    assert [ax.get_title() for ax in axes] == ["最大权重", "熵（奈特）", "梯度大小 ‖diag(p) − p pᵀ‖"]
    ax = plot.score_histogram(np.random.default_rng(2).normal(size=500), 1.0)
    note = ax.texts[0].get_text()
    assert note.startswith("分数的标准差 ") and note.endswith("正态曲线：σ = 1")
    ax.figure.canvas.draw()


def test_entropy_curves_legend_keeps_clear_of_the_frame():
    """02's lab picture: the legend stood a few pixels from the axes' top and right edges."""
    fig = plot.new_figure((5.0, 3.7))
    ax = plot.entropy_curves(X @ X.T, TOKENS, scales=np.linspace(0.0, 10.0, 101), ax=fig.subplots())
    renderer = fig.canvas.get_renderer()
    legend, frame = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    gap = min(frame.x1 - legend.x1, frame.y1 - legend.y1)  # pixels at the figure's dpi
    assert gap >= 0.8 * plot.text_size(fig) * fig.dpi / 72  # most of a line (matplotlib leaves half)
