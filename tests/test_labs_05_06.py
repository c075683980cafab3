"""The d_k lab (notebook 05), the mask lab (notebook 06) and the figures of notebooks 04-07.

The labs are driven through their controls over the whole range of every control; each redraw
must change the picture, say the new values in its readout and hold no NaN.
"""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

import attnlib
from attnlib import data, plot, widgets


@pytest.fixture(autouse=True)
def _style_and_close():
    with plot.use_style():
        yield
    plt.close("all")


@pytest.fixture(scope="module")
def dk_lab():
    with plot.use_style():
        return widgets.make_dk_lab(rng=np.random.default_rng(5))


@pytest.fixture(scope="module")
def mask_lab():
    d = data.load("green_grass")
    X = np.array([[d["vocabulary"][w] for w in s] for s in (d["tokens"], d["second_tokens"])])
    with plot.use_style():
        return widgets.make_mask_lab(X, [d["tokens"], d["second_tokens"]], lengths=[8, 5])


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)


def _full_render(fig: Figure) -> np.ndarray:
    """Draw every artist the ordinary way (no cached background), for comparison with the lab."""
    animated = [a for a in fig.findobj() if a.get_animated()]
    for a in animated:
        a.set_animated(False)
    try:
        return _pixels(widgets.render_png(fig))
    finally:
        for a in animated:
            a.set_animated(True)


# ---- d_k lab -----------------------------------------------------------------------------------


def test_dk_lab_defaults_match_the_prose(dk_lab):
    assert dk_lab.values == {"d_k": 64, "scaled": False, "n_keys": 8}
    assert list(dk_lab.controls["d_k"].options) == list(widgets.DK_STEPS)
    assert widgets.DK_STEPS[0] == 1 and widgets.DK_STEPS[-1] == 1024
    assert (dk_lab.controls["n_keys"].min, dk_lab.controls["n_keys"].max) == (2, 64)
    for control in dk_lab.controls.values():
        assert control.description


def _check_dk_state(lab, d_k, scaled, n_keys):
    s = lab.state
    assert (s["d_k"], s["scaled"], s["n_keys"]) == (d_k, scaled, n_keys)
    assert s["weights"].shape == (n_keys,) and np.isclose(s["weights"].sum(), 1.0)
    values = [s["score_std"], s["sigma"], s["max_weight"], s["entropy"], s["gradient"]]
    assert np.isfinite(values).all() and np.isfinite(s["weights"]).all()
    assert f"d_k = {d_k}</b>" in lab.readout.value
    assert f"largest weight <b>{s['max_weight']:.3f}</b>" in lab.readout.value
    assert ("q·k / √d_k" if scaled else "q·k (unscaled)") in lab.readout.value
    assert f"uniform {1 / n_keys:.3f}" in lab.readout.value
    assert 0 < lab.last_redraw_s < 5


def test_dk_lab_every_d_k_both_scalings(dk_lab):
    dk_lab.controls["n_keys"].value = 8
    previous = dk_lab.image.value
    for scaled in (False, True):
        dk_lab.controls["scaled"].value = scaled
        for d_k in widgets.DK_STEPS:
            dk_lab.controls["d_k"].value = d_k
            _check_dk_state(dk_lab, d_k, scaled, 8)
            if (d_k, scaled) != (1, True):  # d_k = 1: scaling divides by √1 (same picture but the title)
                assert dk_lab.image.value != previous
            previous = dk_lab.image.value
            sigma = np.sqrt(d_k) if not scaled else 1.0
            assert dk_lab.state["sigma"] == pytest.approx(sigma)
            assert abs(dk_lab.state["score_std"] / sigma - 1) < 0.1  # 4000 samples


def test_dk_lab_every_number_of_keys_at_the_extremes(dk_lab):
    for d_k in (1, 1024):
        dk_lab.controls["d_k"].value = d_k
        dk_lab.controls["scaled"].value = False
        previous = dk_lab.image.value
        for n in range(2, 65):
            dk_lab.controls["n_keys"].value = n
            _check_dk_state(dk_lab, d_k, False, n)
            assert dk_lab.image.value != previous
            previous = dk_lab.image.value
    dk_lab.controls["n_keys"].value = 8


def test_dk_lab_tells_the_lesson(dk_lab):
    """Unscaled, d_k = 1024 saturates softmax; scaled it does not."""
    dk_lab.controls["n_keys"].value = 8
    dk_lab.controls["d_k"].value = 1024
    dk_lab.controls["scaled"].value = False
    raw = dict(dk_lab.state)
    dk_lab.controls["scaled"].value = True
    scaled = dict(dk_lab.state)
    assert raw["max_weight"] > 0.9 and raw["entropy"] < 0.2 and raw["gradient"] < 0.1
    assert scaled["max_weight"] < 0.5 and scaled["entropy"] > 1.5 and scaled["gradient"] > 0.3


def test_dk_lab_blit_matches_a_full_redraw(dk_lab):
    dk_lab.controls["d_k"].value = 256
    dk_lab.controls["scaled"].value = True
    dk_lab.controls["n_keys"].value = 20
    fast, full = _pixels(dk_lab.image.value), _full_render(dk_lab.fig)
    assert fast.shape == full.shape
    assert np.mean(np.abs(fast - full) > 60) < 0.002  # only anti-aliasing edges may differ


def test_dk_lab_refuses_bad_settings():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="d_k must be one of the slider's steps"):
        widgets.make_dk_lab(rng=rng, d_k=5)
    with pytest.raises(ValueError, match="n_keys must be between 2 and max_keys=64"):
        widgets.make_dk_lab(rng=rng, n_keys=1)
    with pytest.raises(TypeError, match="rng must be a numpy Generator"):
        widgets.make_dk_lab(rng=0)


# ---- mask lab ----------------------------------------------------------------------------------


def test_mask_lab_defaults_match_the_prose(mask_lab):
    assert mask_lab.values == {"mask": "both", "seq_len": 8, "length_1": 8, "length_2": 5}
    assert list(mask_lab.controls["mask"].options) == ["none", "padding", "causal", "both"]
    for control in mask_lab.controls.values():
        assert control.description


def _check_mask_state(lab, mask, T, lengths):
    s = lab.state
    assert (s["mask"], s["seq_len"], s["lengths"]) == (mask, T, lengths)
    keep, w = s["keep"], s["weights"]
    assert keep.shape == w.shape == (2, T, T)
    assert np.isfinite(w).all()
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=1e-12)
    assert (w[~keep] == 0.0).all()  # exactly, not almost
    causal = np.tril(np.ones((T, T), dtype=bool))
    for b, n in enumerate(lengths):
        assert s["tokens"][b][n:] == [widgets.PAD] * (T - n)
        if mask in ("padding", "both"):
            assert (w[b][:, n:] == 0.0).all() and s["leak"][b] == 0.0
        if mask in ("causal", "both"):
            assert (w[b][~causal] == 0.0).all()
        if mask == "none":
            assert keep.all()
    assert f"mask <b>{mask}</b> · T = {T} · real tokens {lengths}" in lab.readout.value


def test_mask_lab_every_mask_every_length(mask_lab):
    previous = mask_lab.image.value
    for T in range(2, 9):
        mask_lab.controls["seq_len"].value = T
        for lengths in ((T, 1), (1, T)):
            mask_lab.controls["length_1"].value, mask_lab.controls["length_2"].value = lengths
            for mask in widgets.MASK_TYPES:
                mask_lab.controls["mask"].value = mask
                _check_mask_state(mask_lab, mask, T, list(lengths))
                assert mask_lab.image.value != previous
                previous = mask_lab.image.value


def test_mask_lab_every_valid_length_at_full_size(mask_lab):
    mask_lab.controls["seq_len"].value = 8
    mask_lab.controls["mask"].value = "both"
    for b in (1, 2):
        for n in [*range(1, 9), 5]:
            other = mask_lab.controls[f"length_{3 - b}"].value
            mask_lab.controls[f"length_{b}"].value = n
            lengths = [n, other] if b == 1 else [other, n]
            _check_mask_state(mask_lab, "both", 8, lengths)


def test_mask_lab_shorter_sequence_shortens_the_sentences(mask_lab):
    mask_lab.controls["seq_len"].value = 8
    mask_lab.controls["length_1"].value = 8
    mask_lab.controls["seq_len"].value = 3
    assert mask_lab.controls["length_1"].max == 3 and mask_lab.controls["length_1"].value == 3
    assert mask_lab.state["seq_len"] == 3 and mask_lab.state["lengths"][0] == 3
    mask_lab.controls["seq_len"].value = 8
    assert mask_lab.controls["length_1"].max == 8


def test_mask_lab_padding_leaks_without_a_mask(mask_lab):
    mask_lab.controls["seq_len"].value = 8
    mask_lab.controls["length_1"].value, mask_lab.controls["length_2"].value = 8, 5
    mask_lab.controls["mask"].value = "none"
    assert mask_lab.state["leak"][1] > 0.1 and mask_lab.state["leak"][0] == 0.0
    mask_lab.controls["mask"].value = "padding"
    assert mask_lab.state["leak"][1] == 0.0


def test_mask_lab_blit_matches_a_full_redraw(mask_lab):
    mask_lab.controls["seq_len"].value = 6
    mask_lab.controls["mask"].value = "causal"
    mask_lab.controls["length_2"].value = 2
    fast, full = _pixels(mask_lab.image.value), _full_render(mask_lab.fig)
    assert np.mean(np.abs(fast - full) > 60) < 0.003


def test_mask_lab_refuses_bad_settings():
    X, tokens = np.zeros((2, 4, 3)), [["a"] * 4, ["b"] * 4]
    with pytest.raises(ValueError, match="mask must be one of"):
        widgets.make_mask_lab(X, tokens, mask="future")
    with pytest.raises(ValueError, match=r"lengths in 1..seq_len"):
        widgets.make_mask_lab(X, tokens, lengths=[0, 4])
    with pytest.raises(ValueError, match=r"X must have shape \(B, T, d_model\)"):
        widgets.make_mask_lab(np.zeros((4, 3)), tokens)


# ---- figures -----------------------------------------------------------------------------------


def test_text_stamps_look_like_texts():
    """The same texts drawn by matplotlib and by TextStamps give (nearly) the same pixels."""
    images = []
    for stamped in (False, True):
        fig = Figure(figsize=(3, 2), dpi=80)
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
        texts = [ax.text(0.2 + 0.3 * k, 0.5, s, rotation=r, ha="center", va="center")
                 for k, (s, r) in enumerate([("0.41", 0), ("−∞", 0), ("grass", 90)])]
        if stamped:
            ax.add_artist(plot.TextStamps(texts))
        images.append(_pixels(widgets.render_png(fig)))
    assert np.mean(np.abs(images[0] - images[1]) > 60) < 0.002
    assert (images[1] < 128).any()  # something dark was drawn


def test_text_stamps_follow_their_templates():
    fig = Figure(figsize=(2, 1), dpi=80)
    FigureCanvasAgg(fig)
    text = fig.text(0.5, 0.5, "a")
    layer = plot.TextStamps([text])
    fig.add_artist(layer)
    first = widgets.render_png(fig)
    text.set_text("b")
    assert widgets.render_png(fig) != first and not text.get_visible()
    assert len(layer.cache) == 2 and plot.lab_artists(fig.axes[0]) == [] if fig.axes else True


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
    labels = [t.get_text() for t in axes[0].texts if t in plot.lab_artists(axes[0])]
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


@pytest.mark.parametrize("alpha", [255, 128])
def test_encode_png_round_trips(alpha):
    rgba = np.random.default_rng(4).integers(0, 256, size=(7, 11, 4), dtype=np.uint8)
    rgba[..., 3] = alpha
    png = widgets.encode_png(rgba)
    decoded = np.asarray(Image.open(io.BytesIO(png)))
    assert decoded.shape[:2] == (7, 11)
    np.testing.assert_array_equal(decoded[..., :3], rgba[..., :3])
    assert decoded.shape[2] == (3 if alpha == 255 else 4)  # opaque images are written as RGB
    with pytest.raises(ValueError, match=r"uint8 of shape \(height, width, 4\)"):
        widgets.encode_png(rgba[..., :3])


def test_labs_use_the_fast_renderer(dk_lab, mask_lab):
    for lab in (dk_lab, mask_lab):
        assert isinstance(lab._render, widgets.BlitRenderer)
        assert bytes(lab.image.value[:8]) == b"\x89PNG\r\n\x1a\n"


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


def test_mask_lab_redraws_once_when_a_shorter_sequence_clamps_the_lengths(mask_lab):
    mask_lab.controls["seq_len"].value = 8
    mask_lab.controls["length_1"].value, mask_lab.controls["length_2"].value = 8, 8
    calls = []
    original = mask_lab.redraw
    mask_lab.redraw = lambda: (calls.append(1), original())
    try:
        mask_lab.controls["seq_len"].value = 6  # clamps both lengths from 8 to 6
    finally:
        del mask_lab.redraw
    assert len(calls) == 1
    assert mask_lab.state["seq_len"] == 6 and mask_lab.state["lengths"] == [6, 6]
    assert (mask_lab.controls["length_1"].value, mask_lab.controls["length_2"].value) == (6, 6)
    mask_lab.controls["length_1"].value = 5  # the length sliders still redraw the lab
    assert mask_lab.state["lengths"] == [5, 6]
