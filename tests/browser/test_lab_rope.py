"""The RoPE lab of notebook 10 in the page: moved from the keyboard, both positions one step on, the
arrows turn and the angle between them and the score stay as they were."""

from __future__ import annotations

import attnlib
from attnlib import plot
from tests.browser.lab_checks import lab_page
from tests.lab_cases import build

# What the picture shows: the ends of the turned arrows (q′, k′), its sentences, the bars' values.
SHOWN_JS = """
() => {
  const root = document.querySelector('.attn-lab[data-lab="rope"]');
  const svg = root.querySelector('svg.figure');
  const ends = [...svg.querySelectorAll('line[marker-end]')].map((l) => [l.getAttribute('x2'), l.getAttribute('y2')]);
  const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent);
  return { ends, texts, readout: root.querySelector('.readout').textContent };
}
"""


def test_both_positions_one_step_on_turn_the_arrows_and_keep_the_score(page, tmp_path):
    with attnlib.set_language("en"), plot.use_style():
        lab = build("rope")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(lab_page(lab, "rope", tmp_path).as_uri())
    page.wait_for_selector(".attn-lab svg.figure")
    before = page.evaluate(SHOWN_JS)
    assert "i = 5, j = 2: i − j = 3" in before["readout"] and "1.389" in before["readout"]
    assert "q turns by i·ω = 5 × 1.0000 = 5.000" in before["texts"]
    page.get_by_label("query position i").focus()
    page.keyboard.press("ArrowRight")
    moved = page.evaluate(SHOWN_JS)
    assert "i − j = 4" in moved["readout"] and "1.389" not in moved["readout"]
    page.get_by_label("key position j").focus()
    page.keyboard.press("ArrowRight")
    after = page.evaluate(SHOWN_JS)
    assert "i = 6, j = 3: i − j = 3" in after["readout"] and "1.389" in after["readout"]
    assert after["ends"] != before["ends"]  # q′ and k′ have turned by one more ω each
    same = [t for t in before["texts"] if "turns by" not in t]  # all but the two turns: the same words
    assert [t for t in after["texts"] if "turns by" not in t] == same
    assert "angle from k′ to q′ = 1.953" in after["texts"]
