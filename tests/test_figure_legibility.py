"""Every text of every stored figure is at least 9 px tall where a reader sees it: on the site at a
1280 px screen, where a figure wider than the content column is scaled down to the column.

``attnlib.plot.figure_png`` (through which a notebook's inline figures and the labs' snapshots pass)
writes the size of the figure's smallest text, in points, in a PNG text chunk; the PNG's dpi says how
many pixels a point is, and the output's metadata the width the picture takes on the page.
"""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import pytest
from PIL import Image

from attnlib.plot import TEXT_SIZE_KEY

pytestmark = pytest.mark.repo  # reads the notebooks and the site's stylesheet of the checkout

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = {"en": ROOT / "notebooks", "zh-Hans": ROOT / "notebooks" / "zh-Hans",
            "zh-Hant": ROOT / "notebooks" / "zh-Hant"}
SMALLEST_PX = 9.0


def column_px(screen: int = 1280) -> float:
    """The widest a figure is shown on a ``screen`` px wide screen, from the site's stylesheet: the page
    frame (sidebar, gap, main) is centred in the screen; main and an output each have a side padding."""
    css = (ROOT / "tools" / "templates" / "site.css").read_text(encoding="utf-8")
    rem = 16.0

    def length(name: str) -> float:
        value = re.search(rf"--{name}:\s*([\d.]+)(px|rem)", css)
        return float(value[1]) * (rem if value[2] == "rem" else 1.0)

    def side_padding(rule: str) -> float:
        value = re.search(rf"{re.escape(rule)} \{{[^}}]*padding: [\d.]+rem ([\d.]+)rem", css)
        return float(value[1]) * rem

    gap = re.search(r"\.site-layout \{[^}]*column-gap: ([\d.]+)rem", css)
    main_width = min(length("site-width"), screen - length("site-side") - float(gap[1]) * rem)
    return main_width - 2 * side_padding(".site-page main, .site-index main") - 2 * side_padding(
        ".site-page .jp-OutputArea-output")


def figure_outputs(path: Path):
    """(cell id, PNG bytes, width on the page) of every PNG output of the notebook at ``path``."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png:
                data = base64.b64decode(png)
                width = output.get("metadata", {}).get("image/png", {}).get("width")
                yield cell.get("id"), data, width


def smallest_text_px(png: bytes, width: float | None, column: float) -> float | None:
    """The height in px of the figure's smallest text where the reader sees it; None if not recorded.

    A point is dpi/72 pixels of the PNG; the page shows the PNG at ``width`` (its pixels if none),
    and at most ``column`` px wide.
    """
    image = Image.open(io.BytesIO(png))
    size_pt = image.text.get(TEXT_SIZE_KEY)
    if size_pt is None:
        return None
    dpi = image.info["dpi"][0]
    natural = width or image.width
    shown = min(natural, column)
    return float(size_pt) * dpi / 72 * shown / image.width


def too_small(path: Path, column: float | None = None) -> list[str]:
    """What in the notebook at ``path`` a reader cannot read: one line per figure."""
    column = column_px() if column is None else column
    problems = []
    for cell_id, png, width in figure_outputs(path):
        px = smallest_text_px(png, width, column)
        if px is None:
            problems.append(f"{path.name} cell {cell_id}: no text size recorded (drawn without "
                            "attnlib.plot.use_style? re-execute the notebook)")
        elif px < SMALLEST_PX - 0.05:
            problems.append(f"{path.name} cell {cell_id}: smallest text {px:.1f} px at {min(width or 0, column):.0f} "
                            f"px wide; expected at least {SMALLEST_PX:g} px")
    return problems


def test_the_column_is_the_one_the_site_shows_at_1280_px():
    """main is 980 px (the frame, 264 + 24 + 980 px, fits 1280) less 20 px of padding on each side,
    and an output has 9.6 px on each side: a figure is at most 920.8 px wide (a browser measures 921).
    attnlib.plot sizes its texts for the same column."""
    from attnlib import plot

    assert column_px(1280) == pytest.approx(920.8)
    assert plot.COLUMN_PX == int(column_px(1280))
    assert column_px(390) < 390


PATHS = [(language, path) for language, folder in EDITIONS.items()
         for path in sorted(folder.glob("[0-9][0-9]_*.ipynb"))]


@pytest.mark.parametrize(("language", "path"), PATHS, ids=[f"{lang}-{p.stem[:2]}" for lang, p in PATHS])
def test_every_figure_text_is_legible_where_it_stands(language, path):
    assert list(figure_outputs(path)), f"{path.name} has no figure"
    assert too_small(path) == []


def test_the_measure_fails_a_wide_figure_of_small_text():
    """A 16-inch figure of 8 pt text is 1600 px wide, shown at 940: 8 × 100/72 × 940/1600 ≈ 6.5 px."""
    import matplotlib

    matplotlib.use("Agg")
    from attnlib import plot

    fig = plot.new_figure((16, 3), dpi=100)
    fig.subplots().set_title("small", fontsize=8)
    png = plot.figure_png(fig, dpi=200)
    assert smallest_text_px(png, 1600, 940) == pytest.approx(8 * 100 / 72 * 940 / 1600, rel=1e-3)
    assert smallest_text_px(png, 1600, 2000) == pytest.approx(8 * 100 / 72, rel=1e-3)  # not scaled
