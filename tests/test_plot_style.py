"""attnlib.plot.style: the look, the colours, the figure factory, the number formatter."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

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


def drawn_with(text) -> list[str]:
    """The font files matplotlib draws ``text`` (a Text artist) with, one per character."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    files = font_manager.fontManager._find_fonts_by_props(text.get_fontproperties())
    fonts = [FT2Font(str(f)) for f in files]
    return [next((Path(f.fname).name for f in fonts if f.get_char_index(ord(ch))), "none")
            for ch in text.get_text()]


@pytest.mark.parametrize(("language", "face"), [("zh-Hant", "NotoSansTC-Subset.ttf"),
                                                ("zh-Hans", "NotoSansSC-Subset.ttf"),
                                                ("en", "NotoSansSC-Subset.ttf")])
def test_a_figure_draws_its_chinese_with_the_face_of_its_script(tmp_path, language, face):
    """A 繁體 figure: Traditional glyph shapes (Noto Sans TC, 勻 not drawn as 匀); 简体 and English: SC."""
    import attnlib

    title = "注意力權重：勻稱的一列" if language == "zh-Hant" else "注意力权重：均匀的一行"
    with warnings.catch_warnings(), attnlib.set_language(language), plot.use_style():
        warnings.simplefilter("error")  # a missing glyph fails the test
        fig, ax = plt.subplots()
        plot.heatmap(np.full((3, 3), 1 / 3), ["早", "上", "好"], ["早", "上", "好"], ax=ax, title=title)
        fig.savefig(tmp_path / "figure.png")
        assert plot.font_family()[1] == ("Noto Sans TC" if language == "zh-Hant" else "Noto Sans SC")
        chinese = [f for ch, f in zip(title, drawn_with(ax.title), strict=True) if "\u4e00" <= ch <= "\u9fff"]
        assert set(chinese) == {face}, chinese
        ticks = [f for t in ax.get_xticklabels() for f in drawn_with(t)]
        assert set(ticks) == {face}, ticks


@pytest.mark.repo  # reads the notebooks and catalogues of the checkout
def test_every_character_the_hant_edition_shows_has_a_traditional_face():
    """The TC subset holds every character of the 繁體 text: a figure never falls back to SC shapes for
    it (the few Simplified characters the edition quotes are merged in from SC by tools/make_cjk_font)."""
    from fontTools.ttLib import TTFont

    from tools import make_cjk_font

    with TTFont(plot.HANT_FONT) as font:
        cmap = font.getBestCmap()
        assert font["name"].getDebugName(1) == "Noto Sans TC"
    missing = "".join(sorted(c for c in make_cjk_font.hant_characters() if ord(c) not in cmap))
    assert not missing, f"the TC font lacks {missing}: run `python -m tools.make_cjk_font`"


@pytest.mark.repo  # reads the notebooks and catalogues of the checkout
@pytest.mark.parametrize("script", ["SC", "TC"])
def test_the_bold_faces_hold_every_character_drawn_bold(script):
    """The pages draw headings and bold text from weight 700 of the bundled family, never a faked bold:
    the bold subset holds every CJK character its editions draw bold."""
    from fontTools.ttLib import TTFont

    from tools import make_cjk_font

    face = make_cjk_font.Face(script, 700)
    with TTFont(face.output) as font:
        cmap = font.getBestCmap()
        assert font["OS/2"].usWeightClass == 700 and font["name"].getDebugName(1) == face.family
    missing = "".join(sorted(c for c in make_cjk_font.bold_characters(script) if ord(c) not in cmap))
    assert not missing, f"{face.output.name} lacks {missing}: run `python -m tools.make_cjk_font`"


def test_use_style_as_context_manager_restores_settings():
    before = dict(mpl.rcParams)
    with plot.use_style("talk"):
        assert "Noto Sans SC" in mpl.rcParams["font.family"]
    assert mpl.rcParams["font.family"] == before["font.family"]
    assert mpl.rcParams["font.size"] == before["font.size"]
    with pytest.raises(ValueError, match="context must be"):
        plot.use_style("lecture")


def test_importing_plot_changes_no_settings():
    """In a fresh interpreter: reloading modules here would leave two copies of each function."""
    probe = ("import matplotlib as mpl; before = dict(mpl.rcParams); import attnlib.plot, attnlib.labs; "
             "changed = [k for k, v in mpl.rcParams.items() if before[k] != v]; print(changed)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            env={**os.environ, "MPLBACKEND": "Agg"})
    assert result.stdout.strip() == "[]"


def test_new_figure_is_outside_pyplot_and_makes_a_png():
    fig = plot.new_figure((2.0, 1.5), dpi=50)
    assert isinstance(fig, Figure) and fig not in map(plt.figure, plt.get_fignums())
    fig.subplots().plot([0, 1], [1, 0])
    png = plot.figure_png(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("x", "digits", "text"), [
    (0.125, 2, "0.12"),  # a tie goes to the even digit, as Python's format does
    (0.375, 2, "0.38"),
    (2.5, 0, "2"),
    (-0.0004, 3, "0.000"),  # no "−0.000"
    (-0.001, 2, "0.00"),
    (-0.0, 2, "0.00"),
    (-0.001, 3, "−0.001"),  # a real minus sign
    (-1.5, 1, "−1.5"),
    (1e-17, 4, "0.0000"),
    (-np.inf, 2, "−∞"),
])
def test_number(x, digits, text):
    assert plot.number(x, digits) == text


def test_figures_and_labs_write_numbers_with_one_formatter():
    """A heatmap cell, a bar label and a lab readout print −0.001 and −0.0004 the same way."""
    from attnlib.labs import base

    ax = plot.heatmap([[-0.001, -0.0004]], kind="scores", fmt=".3f")
    assert [t.get_text() for t in plot.heatmap_cells(ax)] == ["−0.001", "0.000"]
    assert base.fill("{x:.3f} {y:.3f}", {"x": -0.001, "y": -0.0004}) == "−0.001 0.000"
    assert base.number is plot.number


def test_digits_of_accepts_fixed_point_formats_only():
    assert plot.digits_of(".3f") == 3
    with pytest.raises(ValueError, match="fmt must be a fixed-point format"):
        plot.digits_of(".2e")


def test_text_colour_is_black_on_light_white_on_dark():
    cmap, norm = plot.colour_map("weights"), mpl.colors.Normalize(0.0, 1.0)
    assert plot.text_colour(cmap, norm, 0.0) == "black"  # the pale end of the weights map
    assert plot.text_colour(cmap, norm, 1.0) == "white"
    assert plot.text_colour(cmap, norm, np.array([0.0, 1.0])).tolist() == ["black", "white"]
    r, g, b, _ = cmap(norm(0.55))
    by_hand = "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "white"
    assert plot.text_colour(cmap, norm, 0.55) == by_hand


def test_kinds_and_colours():
    assert plot.KINDS["weights"]["fixed"] == (0.0, 1.0) and plot.KINDS["scores"]["fixed"] is None
    assert plot.kind_label("weights") == "attention weight"
    assert plot.token_colour(0) == plot.TOKEN_COLOURS[0]
    assert plot.token_colour(len(plot.TOKEN_COLOURS)) == plot.TOKEN_COLOURS[0]
    with pytest.raises(ValueError, match="kind must be one of"):
        plot.colour_map("weight")


def test_figure_png_records_the_smallest_text_it_draws():
    """The size of the smallest drawn text travels in the PNG (a tick label out of view and an empty
    title are not drawn, so do not count)."""
    import io

    from PIL import Image

    fig = plot.new_figure((4, 3), dpi=100)
    ax = fig.subplots()
    ax.set_xticks([0, 0.5, 1, 5], ["a", "b", "c", "far"], fontsize=13)
    ax.set_xlim(0, 1)  # "far" lies out of view
    ax.set_yticks([])
    ax.set_xlabel("x", fontsize=15)
    ax.set_title("")
    assert plot.drawn_text_sizes(fig) == [13.0, 13.0, 13.0, 15.0]
    ax.xaxis.get_ticklabels()[3].set_fontsize(5)  # not drawn: does not count
    image = Image.open(io.BytesIO(plot.figure_png(fig, dpi=200)))
    assert image.text[plot.TEXT_SIZE_KEY] == "13" and round(image.info["dpi"][0]) == 200


def test_a_notebook_shows_a_figure_sharp_with_its_size_on_the_page():
    import io

    from PIL import Image

    fig = plot.new_figure((4, 3), dpi=100)
    fig.subplots().set_title("t")
    png, size = plot.shown_png(fig)
    image = Image.open(io.BytesIO(png))
    assert size == {"width": image.width // 2, "height": image.height // 2}
    assert 300 < size["width"] <= 400 and plot.TEXT_SIZE_KEY in image.text
    assert plot.shown_png(plot.new_figure((4, 3))) is None  # an empty figure shows nothing


def test_legible_points_follow_the_width_the_page_gives_a_figure():
    """9 px is 6.48 pt at 100 dpi; a figure twice the column's width (920 px) is shown at half size."""
    assert plot.legible_points(plot.new_figure((9.2, 3), dpi=100)) == pytest.approx(6.48)
    assert plot.legible_points(plot.new_figure((4, 3), dpi=100)) == pytest.approx(6.48)
    assert plot.legible_points(plot.new_figure((18.4, 3), dpi=100)) == pytest.approx(12.96)
    fig = plot.new_figure((18.4, 3), dpi=100)
    assert plot.text_size(fig, 20) == 20 and plot.text_size(fig, 8) == pytest.approx(12.96)
