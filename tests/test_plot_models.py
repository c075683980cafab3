"""attnlib.plot.models on the Agg backend: loss curves, the attention of each generated character."""

from __future__ import annotations

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest

from attnlib import gpt, plot
from attnlib.gpt.text import CharTokenizer
from attnlib.labs import generation_lab_data


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_loss_curves_smooth_each_run_and_label_the_baseline():
    losses = np.arange(10.0)
    ax = plot.loss_curves({"a": losses, "b": losses + 1}, window=4, baselines={"frequency": 2.5})
    lines = ax.get_lines()
    # A moving mean over 4 steps of 0..9 is 1.5 .. 7.5 at steps 4 .. 10.
    assert np.allclose(lines[0].get_ydata(), np.arange(1.5, 8.0)) and lines[0].get_xdata()[0] == 4
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    assert lines[2].get_ydata()[0] == 2.5 and ax.get_ylim()[0] == 0
    with pytest.raises(ValueError, match="window=20"):
        plot.loss_curves({"a": losses}, window=20)
    with pytest.raises(ValueError, match="window must be >= 1; got 0"):
        plot.loss_curves({"a": losses}, window=0)


def test_generation_attention_draws_one_panel_per_head_with_the_unwritten_keys_grey(tmp_path):
    config = gpt.GPTConfig(vocab_size=6, context=8, d_model=8, n_heads=2, n_layers=2, d_ff=4)
    tok = CharTokenizer(list("明月光，。\n"))
    params = gpt.init_params(config, rng=np.random.default_rng(0))
    record = generation_lab_data(params, config, tok, ["明月"], n_new=4, temperature=1.0)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph … missing from font(s)" would fail the test
        with plot.use_style():
            fig = plot.generation_attention(record, layer=1)
            fig.savefig(tmp_path / "lab.png")
    panels = [ax for ax in fig.axes if ax.get_title().startswith("head")]
    assert [ax.get_title() for ax in panels] == ["head 0", "head 1"]
    keys = [t.get_text() for t in panels[0].get_xticklabels()]
    assert keys == [("⏎" if t == "\n" else t) for t in record["tokens"][:5]]
    rows = [t.get_text() for t in panels[0].get_yticklabels()]
    assert len(rows) == 4 and rows[0].endswith(f"{record['chosen_probs'][0]:.2f}")
    data = panels[0].collections[0].get_array()
    assert np.ma.is_masked(data) and np.ma.getmaskarray(data).sum() == 1 + 2 + 3  # future keys per step
    assert "layer 1" in fig._suptitle.get_text()
    with pytest.raises(ValueError, match="layer=2 does not exist"):
        plot.generation_attention(record, layer=2)
