"""The slider labs of notebooks 01-03, driven by setting ``.value`` across every control's range."""

from __future__ import annotations

import io
import re
import warnings

import numpy as np
import pytest
from PIL import Image

from attnlib import data, plot, softmax
from attnlib.widgets import (
    BlitRenderer,
    Lab,
    make_convex_hull_lab,
    make_dot_product_lab,
    make_softmax_scale_lab,
    render_png,
)

X2 = np.array([[2.0, 0.5], [1.0, 2.0], [-1.0, 1.0]])  # the 2-D stand-in of notebook 03


@pytest.fixture(autouse=True)
def _style():
    # The notebooks call use_style() in their setup cell; CJK glyphs need it. Missing glyphs fail.
    with plot.use_style(), warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.fixture
def toy():
    d = data.load("zao_shang_hao")
    return d["X"], d["tokens"]


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)


def _numbers(readout: str) -> list[float]:
    return [float(x.replace("−", "-")) for x in re.findall(r"−?\d+\.\d+", readout)]


def _sweep(lab: Lab, name: str, values, expect) -> None:
    """Set one control to every value in turn: the picture must change and the readout follow."""
    control = lab.controls[name]
    for value in values:
        before = lab.image.value
        control.value = value
        assert control.value == pytest.approx(value)
        assert lab.image.value != before, f"{name}={value}: the picture did not change"
        assert "nan" not in lab.readout.value.lower() and "inf" not in lab.readout.value.lower()
        assert np.isfinite(lab.last_redraw_s) and lab.last_redraw_s > 0
        expect(lab.readout.value, value)


def _range(control) -> np.ndarray:
    n = int(round((control.max - control.min) / control.step))
    return np.round(control.min + control.step * np.arange(n + 1), 10)


def _there_and_back(control) -> list[float]:
    values = [v for v in _range(control) if not np.isclose(v, control.value)]
    return [*values, control.min, control.max, control.min]  # both extremes, then back


# ---- 01 · the dot-product lab --------------------------------------------------------------------


def test_dot_product_lab_defaults_match_the_prose():
    lab = make_dot_product_lab()
    assert lab.values == {"angle": 60, "length_a": 2.0, "length_b": 1.5}
    assert (lab.controls["angle"].min, lab.controls["angle"].max) == (0, 180)
    for control in lab.controls.values():
        assert control.description  # every slider is labelled
    assert "θ = 60° · a·b = 1.500 · cos θ = 0.500" in lab.readout.value
    assert "a·b / |b| = 1.000" in lab.readout.value


def test_dot_product_lab_angle_over_its_whole_range():
    lab = make_dot_product_lab()

    def expect(readout, angle):
        assert f"θ = {angle}°" in readout
        dot, cos, proj = _numbers(readout)
        assert dot == pytest.approx(2.0 * 1.5 * np.cos(np.radians(angle)), abs=1e-3)
        assert cos == pytest.approx(np.cos(np.radians(angle)), abs=1e-3)
        assert proj == pytest.approx(2.0 * np.cos(np.radians(angle)), abs=1e-3)

    _sweep(lab, "angle", _there_and_back(lab.controls["angle"]), expect)


@pytest.mark.parametrize("name", ["length_a", "length_b"])
def test_dot_product_lab_lengths_over_their_whole_range(name):
    lab = make_dot_product_lab(angle=120)

    def expect(readout, value):
        lengths = {**{"length_a": 2.0, "length_b": 1.5}, name: value}
        dot, cos, proj = _numbers(readout)
        assert dot == pytest.approx(lengths["length_a"] * lengths["length_b"] * -0.5, abs=1e-3)
        assert cos == pytest.approx(-0.5, abs=1e-3)
        assert proj == pytest.approx(-0.5 * lengths["length_a"], abs=1e-3)

    _sweep(lab, name, _there_and_back(lab.controls[name]), expect)


def test_dot_product_lab_right_angle_reads_exact_zero():
    lab = make_dot_product_lab(angle=90)
    assert "a·b = 0.000 · cos θ = 0.000" in lab.readout.value
    assert "−0.000" not in lab.readout.value


# ---- 02 · the softmax scale lab ------------------------------------------------------------------


def test_scale_lab_defaults(toy):
    X, tokens = toy
    lab = make_softmax_scale_lab(X @ X.T, tokens)
    assert lab.values == {"query": 0, "scale": 1.0}
    assert [label for label, _ in lab.controls["query"].options] == tokens
    assert (lab.controls["scale"].min, lab.controls["scale"].max) == (0.0, 10.0)
    assert "largest weight 0.4005 on 早 and 上" in lab.readout.value


def test_scale_lab_scale_over_its_whole_range(toy):
    X, tokens = toy
    scores = X @ X.T
    lab = make_softmax_scale_lab(scores, tokens, query=1)

    def expect(readout, s):
        w = softmax(s * scores[1])
        assert f"β = {s:.1f}" in readout and "row 上" in readout
        assert f"largest weight {w.max():.4f}" in readout
        entropy = -np.sum(w * np.log(w))
        assert f"entropy {entropy:.4f}".replace("-", "−") in readout
        assert ("temperature 1/β = ∞" in readout) == (s == 0)

    _sweep(lab, "scale", _there_and_back(lab.controls["scale"]), expect)


@pytest.mark.parametrize("scale", [0.0, 10.0])
def test_scale_lab_every_query_row_at_the_extremes(toy, scale):
    X, tokens = toy
    lab = make_softmax_scale_lab(X @ X.T, tokens, scale=scale)

    def expect(readout, row):
        assert f"row {tokens[row]}:" in readout

    _sweep(lab, "query", [1, 2, 0], expect)
    if scale == 0:
        assert "largest weight 0.3333 on 早 and 上 and 好" in lab.readout.value
        assert "entropy 1.0986" in lab.readout.value
    lab.controls["query"].value = 1
    if scale == 10:
        assert "largest weight 1.0000 on 上" in lab.readout.value


def test_scale_lab_rejects_a_non_square_score_matrix():
    with pytest.raises(ValueError, match=r"scores must have shape \(T, T\) for T=2 tokens; got \(2, 3\)"):
        make_softmax_scale_lab(np.zeros((2, 3)), ["a", "b"])


# ---- 03 · the convex hull lab --------------------------------------------------------------------


def test_hull_lab_scale_over_its_whole_range(toy):
    _, tokens = toy
    lab = make_convex_hull_lab(X2, tokens)
    assert lab.values == {"scale": 1.0}

    def expect(readout, s):
        weights = softmax(s * X2 @ X2.T)
        assert f"β = {s:.1f}" in readout
        assert "all outputs inside the hull: yes" in readout
        for token, top in zip(tokens, weights.max(axis=1), strict=True):
            assert f"{token} {top:.3f}" in readout

    _sweep(lab, "scale", _there_and_back(lab.controls["scale"]), expect)


def test_hull_lab_rings_sit_on_the_outputs(toy):
    _, tokens = toy
    lab = make_convex_hull_lab(X2, tokens, scale=2.5)
    rings = [line for line in lab.fig.axes[0].lines if line.get_gid() == "attnlib-hull-ring"]
    got = np.array([np.concatenate(r.get_data()) for r in rings])
    assert np.allclose(got, softmax(2.5 * X2 @ X2.T) @ X2)
    lab.controls["scale"].value = 0.0
    got = np.array([np.concatenate(r.get_data()) for r in rings])
    assert np.allclose(got, X2.mean(axis=0))


def test_hull_lab_rejects_3d_points():
    with pytest.raises(ValueError, match=r"X must have shape \(T, 2\) for T=2 tokens; got \(2, 3\)"):
        make_convex_hull_lab(np.ones((2, 3)), ["a", "b"])


# ---- the fast renderer ---------------------------------------------------------------------------


@pytest.mark.parametrize("make", ["dot", "scale", "hull"])
def test_blit_render_matches_a_full_render(toy, make):
    X, tokens = toy
    lab = {
        "dot": lambda: make_dot_product_lab(angle=135, length_a=3.0),
        "scale": lambda: make_softmax_scale_lab(X @ X.T, tokens, scale=4.0, query=2),
        "hull": lambda: make_convex_hull_lab(X2, tokens, scale=3.0),
    }[make]()
    fast = _pixels(lab.image.value)
    for artist in plot.moving_artists(lab.fig.axes[0]):
        artist.set_animated(False)  # a full render must draw them too
    full = _pixels(render_png(lab.fig))
    assert fast.shape == full.shape
    differs = np.abs(fast - full).max(axis=-1) > 40
    assert differs.mean() < 0.002, f"{differs.mean():.4%} of the pixels differ"


def test_snapshot_is_the_current_picture():
    lab = make_dot_product_lab()
    snap = lab.snapshot()
    assert snap.format == "png" and snap.data == lab.image.value
    lab.controls["angle"].value = 150
    assert lab.snapshot().data == lab.image.value != snap.data


def test_blit_renderer_redraws_the_background_when_the_size_changes():
    lab = make_dot_product_lab()
    w, h = _pixels(lab.image.value).shape[1::-1]
    lab.fig.set_size_inches(lab.fig.get_size_inches() * 1.5)
    lab.redraw()
    w2, h2 = _pixels(lab.image.value).shape[1::-1]
    assert (w2, h2) == (round(1.5 * w), round(1.5 * h))


def test_lab_without_a_renderer_still_uses_render_png():
    import ipywidgets as widgets
    from matplotlib.figure import Figure

    fig = Figure(figsize=(2, 2))
    ax = fig.add_subplot()
    (line,) = ax.plot([0, 1], [0, 0])
    lab = Lab({"y": widgets.FloatSlider(value=0.0, min=0, max=1)}, fig, lambda y: line.set_ydata([0, y]))
    assert lab.image.value == render_png(fig)
    renderer = BlitRenderer([line])
    assert renderer(fig)[:8] == b"\x89PNG\r\n\x1a\n"
