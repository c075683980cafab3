"""The queries-and-keys lab of notebook 04 in the page: the query chosen from the keyboard is the row
outlined in both matrices, its label bold, and the keys it favours framed."""

from __future__ import annotations

import attnlib
from attnlib import plot
from tests.browser.lab_checks import lab_page
from tests.lab_cases import build

# The top of each matrix's query-row outline (scores, weights).
OUTLINE_TOPS_JS = """
() => [...document.querySelectorAll('.attn-lab[data-lab="qkv"] svg.figure rect[stroke-width="2.5"]')]
  .map((o) => Number(o.getAttribute('y')))
"""


def test_the_query_row_follows_the_menu_from_the_keyboard(page, tmp_path):
    with attnlib.set_language("en"), plot.use_style():
        lab = build("qkv")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(lab_page(lab, "qkv", tmp_path).as_uri())
    page.wait_for_selector(".attn-lab svg.figure")
    query = page.get_by_label("query token")
    assert query.evaluate("(el) => el.options[el.selectedIndex].text") == "playing"
    bold = page.locator("svg.figure text[font-weight=bold]")
    assert bold.all_text_contents() == ["playing", "playing"]  # the query's label, left of each matrix
    before = page.evaluate(OUTLINE_TOPS_JS)
    query.focus()
    page.keyboard.press("ArrowUp")  # playing → are, one row up
    readout = page.locator(".attn-lab .readout")
    assert "“are” attends most to “kids” (0.93)" in readout.text_content()
    assert bold.all_text_contents() == ["are", "are"]
    after = page.evaluate(OUTLINE_TOPS_JS)
    assert len(after) == 2 and all(a < b for a, b in zip(after, before, strict=True))  # moved up
    # a tie: "kids" looks for glue with its thing: "the", "on" and "the" get the same weight, all framed
    page.get_by_label("W_Q reads the feature").select_option(label="thing")
    page.get_by_label("W_K reads the feature").select_option(label="glue")
    query.select_option(label="kids")
    assert "“kids” attends most to “the”, “on” and “the”, equally" in readout.text_content()
    framed = page.locator('svg.figure rect[stroke="black"][stroke-width="2"]')
    assert framed.count() == 3
