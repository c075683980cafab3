"""The plotting convention, checked on the Agg backend."""

from __future__ import annotations

import warnings

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pytest

from attnlib import plot


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_cjk_tokens_render_without_missing_glyphs(tmp_path):
    tokens = ["早", "上", "好"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph … missing from font(s)" would fail the test
        with plot.use_style():
            fig, ax = plt.subplots()
            plot.heatmap(np.full((3, 3), 1 / 3), tokens, tokens, ax=ax, title="注意力 weights")
            fig.savefig(tmp_path / "cjk.png")
    assert [t.get_text() for t in ax.get_xticklabels()] == tokens
    assert (tmp_path / "cjk.png").stat().st_size > 1000


def test_use_style_as_context_manager_restores_settings():
    before = dict(mpl.rcParams)
    with plot.use_style("talk"):
        assert "Noto Sans SC" in mpl.rcParams["font.family"]
    assert mpl.rcParams["font.family"] == before["font.family"]
    assert mpl.rcParams["font.size"] == before["font.size"]


def test_importing_plot_changes_no_settings():
    import importlib

    before = dict(mpl.rcParams)
    importlib.reload(plot)
    assert dict(mpl.rcParams) == before


def test_weights_heatmap_convention():
    w = np.array([[0.7, 0.3], [0.1, 0.9]])
    ax = plot.heatmap(w, ["a", "b"], ["c", "d"], title="weights · none")
    mesh = ax.collections[0]
    assert (mesh.norm.vmin, mesh.norm.vmax) == (0.0, 1.0)  # fixed scale, whatever the data
    assert ax.get_ylabel() == "query" and ax.get_xlabel() == "key"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # row 0 at the top
    assert [t.get_text() for t in ax.texts] == ["0.70", "0.30", "0.10", "0.90"]
    assert ax.figure.axes[-1].get_ylabel() == "attention weight"


def test_scores_heatmap_is_diverging_centred_on_zero_and_shows_masked_cells():
    s = np.array([[2.0, -np.inf], [-1.0, 0.5]])
    ax = plot.heatmap(s, kind="scores")
    mesh = ax.collections[0]
    assert mesh.norm.vmin == -2.0 and mesh.norm.vmax == 2.0
    assert [t.get_text() for t in ax.texts] == ["2.00", "−∞", "−1.00", "0.50"]
    assert ax.figure.axes[-1].get_ylabel() == "score"


def test_update_heatmap_reuses_artists():
    ax = plot.heatmap(np.eye(2))
    mesh, texts = ax.collections[0], list(ax.texts)
    plot.update_heatmap(ax, [[0.25, 0.75], [1.0, 0.0]])
    assert ax.collections[0] is mesh and list(ax.texts) == texts
    np.testing.assert_allclose(mesh.get_array().reshape(2, 2), [[0.25, 0.75], [1.0, 0.0]])
    assert texts[1].get_text() == "0.75"
    assert texts[2].get_color() == "white" and texts[3].get_color() == "black"  # dark cell, light cell
    with pytest.raises(ValueError, match="keep the shape first drawn"):
        plot.update_heatmap(ax, np.eye(3))


def test_large_matrices_are_not_annotated_and_labels_are_checked():
    ax = plot.heatmap(np.zeros((20, 20)))
    assert not ax.texts
    with pytest.raises(ValueError, match="rows has 1 labels but the matrix has 2 rows"):
        plot.heatmap(np.eye(2), rows=["a"])
    with pytest.raises(ValueError, match=r"matrix must have shape \(n_rows, n_cols\)"):
        plot.heatmap(np.ones(3))
    with pytest.raises(ValueError, match="kind must be one of"):
        plot.heatmap(np.eye(2), kind="weight")
