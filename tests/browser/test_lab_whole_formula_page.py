"""The whole-formula lab (notebook 07) in the page: what a learner reaches with the keyboard alone and what the
masked cells say. Parity with attnlib at every setting and phone legibility are tested for every lab in
test_lab_frames.py; here, this lab's own marks: "−∞" behind the mask, a weight of exactly "0", and the
outline on the query's row."""

from __future__ import annotations

import json

from tests.browser.lab_checks import lab_page
from tests.lab_cases import build

SHOWN = """() => {
  const root = document.querySelector('.attn-lab');
  const [figure] = root.querySelectorAll('svg.figure');
  const cells = [...figure.querySelectorAll('text.cell')].map((t) => t.textContent);
  const outline = figure.querySelector('rect[stroke-width="2.5"]');
  return { values: JSON.parse(root.dataset.values), cells, outlineY: Number(outline.getAttribute('y')),
           readout: root.querySelector('.readout').textContent,
           labelled: figure.getAttribute('aria-labelledby') === root.querySelector('.readout').id };
}"""


def test_the_keyboard_alone_walks_the_stages_and_the_mask_shows_minus_infinity(page, tmp_path):
    lab = build("whole_formula")
    page.goto(lab_page(lab, "whole_formula", tmp_path).as_uri())
    page.wait_for_selector(".attn-lab svg.figure")
    start = page.evaluate(SHOWN)
    assert start["values"] == {"query": 6, "scaled": True, "causal": False} and start["labelled"]
    assert "−∞" not in start["cells"]

    # Tab to the causal mask's "off" button and press → : the mask goes on, as from the mouse.
    page.locator('.attn-lab [data-control=causal] input').first.focus()
    page.keyboard.press("ArrowRight")
    masked = page.evaluate(SHOWN)
    assert masked["values"]["causal"] is True
    T = 8  # rows of four stage cells each: score, scaled, masked, weight
    grass = masked["cells"][7::T][:4]  # key 7, grass, at the four stages (the cells run stage by stage)
    assert grass[2] == "−∞" and grass[3] == "0", grass
    assert "hides the keys after “green” (grass)" in masked["readout"]

    # The query menu with the arrow keys: the outline moves to the new query's row.
    page.locator('.attn-lab [data-control=query] select').focus()
    page.keyboard.press("ArrowUp")
    moved = page.evaluate(SHOWN)
    assert moved["values"]["query"] == 5 and moved["outlineY"] < start["outlineY"]
    assert moved["cells"][7::T][2:4] == ["−∞", "0"] and moved["cells"][6::T][2:4] == ["−∞", "0"]
    assert json.loads(page.locator(".attn-lab").get_attribute("data-values"))["query"] == 5
