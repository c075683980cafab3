"""The KV-cache lab of notebook 11 in the page: moved from the keyboard, the K/V heads' strip, the sentences
and the bars follow the choice of heads, a new model keeps that choice and brings its own context, and a
context beyond the model's goes back to it; Python, moved the same way, says the same."""

from __future__ import annotations

import re

import attnlib
from attnlib import plot
from tests.browser.lab_checks import lab_page
from tests.lab_cases import build

# What the picture shows: the visible cells of the two head strips, its texts, the readout, the setting.
SHOWN_JS = """
() => {
  const root = document.querySelector('.attn-lab[data-lab="kv_cache"]');
  const svg = root.querySelector('svg.figure');
  const cells = [...svg.querySelectorAll('rect[height="14"]')].filter((r) => r.style.display !== 'none').length;
  const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent);
  return { cells, texts, readout: root.querySelector('.readout').textContent, values: JSON.parse(root.dataset.values) };
}
"""


def test_the_heads_the_model_and_the_memory_from_the_keyboard(page, tmp_path):
    with attnlib.set_language("en"), plot.use_style():
        lab = build("kv_cache")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(lab_page(lab, "kv_cache", tmp_path).as_uri())
    page.wait_for_selector(".attn-lab svg.figure")
    start = page.evaluate(SHOWN_JS)
    assert start["readout"] == re.sub(r"</?b>", "", lab.readout)
    assert start["cells"] == 32 + 8  # Mistral 7B's query heads over its 8 K/V heads
    heads = page.get_by_label("K/V heads")
    heads.focus()
    page.keyboard.press("ArrowDown")  # as published → one per head (multi-head)
    shown = page.evaluate(SHOWN_JS)
    assert shown["values"]["kv_heads"] == "all" and shown["cells"] == 32 + 32
    assert "no sharing: the two bars are the same" in shown["texts"] and "2.15 GB per sequence" in shown["readout"]
    page.keyboard.press("ArrowDown")  # heads ÷ 2
    shown = page.evaluate(SHOWN_JS)
    assert "16 K/V heads: each serves 2 query heads" in shown["texts"] and "1.07 GB per sequence" in shown["readout"]
    heads.select_option(label="one for all (multi-query)")
    shown = page.evaluate(SHOWN_JS)
    assert shown["cells"] == 32 + 1 and "1 K/V head for all 32 (multi-query)" in shown["texts"]
    page.get_by_label("model").select_option(label="GPT-3 175B")  # keeps one K/V head, brings 2048 positions
    shown = page.evaluate(SHOWN_JS)
    assert shown["cells"] == 96 + 1 and shown["values"]["context"] == 2048
    assert "the weights alone (350 GB) do not fit in 80 GB" in shown["readout"]
    page.get_by_label("memory").focus()
    page.keyboard.press("End")  # 640 GB: eight GPUs of 80 GB
    page.get_by_label("context (tokens)").focus()
    page.keyboard.press("End")  # 8192 is beyond GPT-3's context: back to 2048
    shown = page.evaluate(SHOWN_JS)
    lab.set_values(kv_heads="one", model="GPT-3 175B", memory=640, context=8192)  # Python, moved the same way
    assert shown["values"] == lab.values and lab.values["context"] == 2048
    assert shown["readout"] == re.sub(r"</?b>", "", lab.readout)
    assert "2,880 sequences fit beside 350 GB of weights in 640 GB" in shown["readout"]  # ⌊290·10⁹ / 100,663,296⌋
