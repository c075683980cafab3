"""The tiling lab of notebook 11 in the page: moved from the keyboard, the step slider ends at the last tile
of the grid on show, the tile of the step is outlined, the tiles passed are filled or hatched, and at the
last tile of the row's query block the output so far is the exact one."""

from __future__ import annotations

import attnlib
from attnlib import plot
from tests.browser.lab_checks import PHONE_COLUMN, lab_page
from tests.lab_cases import build

# What the picture shows: its sentences, the sliders' ends, the hatched (skipped) tiles and the outlined one.
SHOWN_JS = """
() => {
  const root = document.querySelector('.attn-lab[data-lab="tiling"]');
  const svg = root.querySelector('svg.figure');
  const slider = (name) => root.querySelector(`.control[data-control="${name}"] input[type=range]`);
  const shown = (node) => node.style.display !== 'none';
  return {
    texts: [...svg.querySelectorAll('text')].map((t) => t.textContent),
    readout: root.querySelector('.readout').textContent,
    stepMax: slider('step').max, rowMax: slider('row').max, step: slider('step').value,
    hatched: [...svg.querySelectorAll('rect[stroke="#666"]')].filter((r) => shown(r) && /^url\\(/.test(r.getAttribute('fill') || '')).length - 1,
    cells: [...svg.querySelectorAll('g[shape-rendering] rect')].filter(shown).length,
  };
}
"""


def test_the_step_walks_the_tiles_and_ends_at_the_exact_output(page, tmp_path):
    with attnlib.set_language("en"), plot.use_style():
        lab = build("tiling")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(lab_page(lab, "tiling", tmp_path).as_uri())
    page.wait_for_selector(".attn-lab svg.figure")
    before = page.evaluate(SHOWN_JS)
    assert "16 tiles, 6 skipped" in before["readout"]
    assert "step 10 of 16: tile (2, 1)" in before["texts"] and "full: computed" in before["texts"]
    assert (before["stepMax"], before["rowMax"], before["cells"]) == ("16", "15", 16 * 16)
    assert before["hatched"] == 5  # (0, 1), (0, 2), (0, 3), (1, 2), (1, 3): skipped, passed
    page.screenshot(path=str(tmp_path / "tiling-1280.png"), full_page=True)
    step = page.get_by_label("step", exact=True)
    step.focus()
    page.keyboard.press("ArrowRight")
    moved = page.evaluate(SHOWN_JS)
    assert "step 11 of 16: tile (2, 2)" in moved["texts"] and "partial: computed, mask inside" in moved["texts"]
    page.keyboard.press("End")  # the slider ends at the last tile of this grid, not at the longest grid's
    end = page.evaluate(SHOWN_JS)
    assert end["step"] == "16" and "step 16 of 16: tile (3, 3)" in end["texts"]
    assert "largest gap to exact: 0.000" in end["texts"] and end["hatched"] == 6
    page.get_by_label("sequence length T").focus()
    page.keyboard.press("ArrowLeft")  # T = 12: 3 × 3 tiles; the step was at the end and stays there
    smaller = page.evaluate(SHOWN_JS)
    assert (smaller["stepMax"], smaller["step"], smaller["rowMax"], smaller["cells"]) == ("9", "9", "11", 144)
    assert "step 9 of 9: tile (2, 2)" in smaller["texts"] and "12 in blocks of 4: 9 tiles, 3 skipped" in smaller["readout"]


def test_on_a_phone_the_lab_fits_its_column(browser, tmp_path):
    with attnlib.set_language("zh-Hans"), plot.use_style():
        lab = build("tiling")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(lab_page(lab, "tiling", tmp_path, PHONE_COLUMN).as_uri())
    page.wait_for_selector(".attn-lab[data-layout=narrow] svg.figure", timeout=10_000)
    page.evaluate("document.fonts.ready")
    width = page.evaluate("(() => { const r = document.querySelector('.attn-lab'); return [r.scrollWidth, r.clientWidth]; })()")
    page.screenshot(path=str(tmp_path / "tiling-390.png"), full_page=True)
    context.close()
    assert width[0] <= width[1] + 1, width
