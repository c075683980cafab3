"""What each lab's page shows is what attnlib computes, at every setting of its controls.

Each lab is built in Python, mounted on a page with no kernel (as the site and the slides mount it),
and then, for every setting: the page's frame (what it looked up in the numbers Python sent, plus the
weights the d_k and mask labs compute with the kit's one softmax) is compared with the Python frame
computed with attnlib, field by field of the readout too, and the readout the page paints is compared,
as text, with the readout Python fills from its frame. (The kit's number, fill and softmax are compared
with their Python twins on inputs of their own, in Node: tests/test_page_twins.py.)
"""

from __future__ import annotations

import pytest

import attnlib
from attnlib import plot
from attnlib.page import mount_html
from tests.browser.lab_checks import COMPARE_JS, KEYS, LEGIBLE_JS, PHONE_COLUMN, expected, lab_page
from tests.lab_cases import NAMES, build


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
@pytest.mark.parametrize("name", NAMES)
def test_page_frames_equal_attnlib_at_every_setting(name, language, page, tmp_path):
    """In English and in Chinese: the language changes the words on the page, never its numbers."""
    with attnlib.set_language(language), plot.use_style():
        lab = build(name)
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(lab_page(lab, name, tmp_path).as_uri())
    page.wait_for_selector(".attn-lab svg.figure")
    settings = lab.settings()
    result = page.evaluate(COMPARE_JS, [settings, expected(lab, name), KEYS[name]])
    assert not errors, errors
    assert result["count"] == 0, f"{name}: {result['count']} of {len(settings)} settings differ: {result['problems']}"
    assert result["worst"] < 1e-12, f"{name}: the page's numbers differ from attnlib's by {result['worst']:.2e}"


_BARS = """
(settings) => {
  const root = document.querySelector('.attn-lab');
  const { model } = root.attnLab;
  return settings.map((values) => {
    model.set('values', values);
    const bars = [...root.querySelectorAll('svg.figure rect[stroke-width="2"][height="26"]')];
    const extra = bars[bars.length - 1];
    const outlined = bars.filter((b) => b.style.display !== 'none' && b.getAttribute('stroke') === 'black');
    return { extra: extra.style.display !== 'none', outlined: outlined.length,
             dashed: extra.getAttribute('stroke-dasharray') !== null };
  });
}
"""


def test_the_generation_lab_always_shows_the_sampled_character(page, tmp_path):
    """The sampled character is outlined among the top bars, or, when it is not among them, gets a
    dashed bar of its own below them: at every setting exactly one bar is outlined."""
    lab = build("generation")
    settings = lab.settings()
    ranks = [lab.frame(**values)["rank"] for values in settings]
    top_k = lab.spec["data"]["top_k"]
    assert min(ranks) <= top_k < max(ranks)  # both cases occur in the stored generations
    path = tmp_path / "generation.html"
    path.write_text("<!doctype html><meta charset='utf-8'><body>"
                    + mount_html("generation", lab.page_state(), "lab"), encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_selector(".attn-lab svg.figure")
    shown = page.evaluate(_BARS, settings)
    assert all(s["dashed"] for s in shown)
    assert [s["extra"] for s in shown] == [rank > top_k for rank in ranks]
    assert all(s["outlined"] == 1 for s in shown), [v for v, s in zip(settings, shown, strict=True) if s["outlined"] != 1]


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
@pytest.mark.parametrize("name", NAMES)
def test_on_a_phone_a_lab_draws_every_text_legibly_and_apart(name, language, browser, tmp_path):
    """In a phone's column (324 px, the site's at 390 px) a lab takes its narrow layout: at every setting
    each text is drawn at 12 px or more, inside its picture, and on top of no other text."""
    with attnlib.set_language(language), plot.use_style():
        lab = build(name)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(lab_page(lab, name, tmp_path, PHONE_COLUMN).as_uri())
    page.wait_for_selector(".attn-lab[data-layout=narrow] svg.figure", timeout=10_000)
    page.evaluate("document.fonts.ready")
    result = page.evaluate(LEGIBLE_JS, [lab.settings(), 12])
    context.close()
    assert result["texts"] > 0
    assert not result["problems"], f"{name}: " + "; ".join(result["problems"][:12])
