"""What each lab's page shows is what attnlib computes, at every setting of its controls.

Each lab is built in Python, mounted on a page with no kernel (as the site and the slides mount it),
and then, for every setting: the page's frame (what it looked up in the numbers Python sent, plus the
weights the d_k and mask labs compute with the kit's one softmax) is compared with the Python frame
computed with attnlib, field by field of the readout too, and the readout the page paints is compared,
as text, with the readout Python fills from its frame. The kit's softmax is also compared with
attnlib's on rows of its own.
"""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import labs, plot
from attnlib.labs.base import KIT
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


def test_the_page_writes_numbers_as_attnlib_does(page):
    """kit.js ``number`` and ``attnlib.plot.number``: the same text for every number and precision,
    ties (0.125, 2.5), negative zeros (−0.0, −0.001 at 2 decimals) and −∞ included."""
    rng = np.random.default_rng(7)
    values = [0.125, 0.375, 2.5, -2.5, 0.5, -0.5, 1.005, -0.0, -0.001, -0.0004, 0.0005, -0.0005, 1e-17,
              123.456, -7.25, 0.045, 1 / 3, -2 / 3, *rng.normal(scale=3, size=200).tolist(),
              *(np.round(rng.normal(size=100), 3) + 0.0005).tolist()]
    cases = [(v, d) for v in values for d in range(5)]
    script = KIT.read_text(encoding="utf-8") + "\nwindow.__number = number;\n"
    page.set_content(f"<!doctype html><meta charset='utf-8'><script type='module'>{script}</script>")
    page.wait_for_function("typeof window.__number === 'function'")
    shown = page.evaluate("(cases) => cases.map(([v, d]) => window.__number(v, d))", cases)
    shown.append(page.evaluate("() => window.__number(-Infinity, 2)"))
    wanted = [plot.number(v, d) for v, d in cases] + [plot.number(-np.inf, 2)]
    differ = [(c, a, b) for c, a, b in zip([*cases, (-np.inf, 2)], shown, wanted, strict=True) if a != b]
    assert not differ, f"{len(differ)} numbers differ (value, digits), page, Python: {differ[:8]}"


def test_the_kits_softmax_is_attnlibs(page):
    """kit.js ``softmax`` (the one piece of math a page does) against ``attnlib.softmax``, with a mask
    as attnlib masks (blocked scores at −∞): rows of 1 to 64 entries, scales from 1e-3 to 1e3, ties,
    masks that keep one entry or all."""
    rng = np.random.default_rng(3)
    rows, keeps = [], []
    for n in [1, 2, 3, 5, 8, 13, 64, 64]:
        for scale in (1e-3, 1.0, 30.0, 1e3):
            row = rng.normal(scale=scale, size=n)
            keep = rng.random(n) < 0.6
            keep[rng.integers(n)] = True  # a query always sees a key
            rows += [row, np.round(row)]  # rounded rows have ties
            keeps += [keep, np.ones(n, dtype=bool)]
    script = KIT.read_text(encoding="utf-8") + "\nwindow.__softmax = softmax;\n"
    page.set_content(f"<!doctype html><meta charset='utf-8'><script type='module'>{script}</script>")
    page.wait_for_function("typeof window.__softmax === 'function'")
    got = page.evaluate("(cases) => cases.map(([row, keep]) => window.__softmax(row, keep))",
                        [[r.tolist(), k.tolist()] for r, k in zip(rows, keeps, strict=True)])
    plain = page.evaluate("(rows) => rows.map((row) => window.__softmax(row))", [r.tolist() for r in rows])
    for row, keep, masked, whole in zip(rows, keeps, got, plain, strict=True):
        np.testing.assert_allclose(whole, attnlib.softmax(row), rtol=0, atol=1e-15)
        expected = np.where(keep, attnlib.softmax(np.where(keep, row, -np.inf)), 0.0)
        np.testing.assert_allclose(masked, expected, rtol=0, atol=1e-15)
        assert all(m == 0.0 for m, k in zip(masked, keep, strict=True) if not k)  # blocked: exactly 0


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
                    + labs.mount_html("generation", lab.page_state(), "lab"), encoding="utf-8")
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
