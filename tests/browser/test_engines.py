"""The labs, the quiz and the site in the two other browser engines: Firefox (Gecko) and WebKit (Safari's).

Chromium runs every browser test; these run the checks whose outcome could differ by engine, with the
engines' own drivers (engines.py): every lab's numbers and readouts equal attnlib's at every setting; a
lab in a phone's column draws every text legibly and apart (container queries, the narrow layout); a page
of the site in each language draws its formulas, its lab follows a control, its quiz answers, and the
Chinese face loads; the live GPT lab unpacks its weights (DecompressionStream) and writes attnlib's line.

Where an engine is not installed these are skipped with the reason (a learner's machine); in CI (``CI``
set) that is a failure: .ci/run installs ``firefox-esr``, ``webkit2gtk-driver`` and ``xvfb``.
"""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import plot
from attnlib.gpt.text import load_poems
from attnlib.labs import make_live_gpt_lab
from attnlib.labs.live_gpt import Mulberry32, half, models
from tests.browser.lab_checks import COMPARE_JS, KEYS, LEGIBLE_JS, PHONE_COLUMN, WRITE_JS, expected, lab_page
from tests.lab_cases import NAMES, build

# Waits until `selector` is on the page (the labs mount after their module runs), up to 20 s.
WAIT_JS = """async (selector) => {
  for (let i = 0; i < 200 && !document.querySelector(selector); i += 1) await new Promise((r) => setTimeout(r, 100));
  return Boolean(document.querySelector(selector));
}"""


def open_page(engine, url: str, selector: str) -> None:
    engine.goto(url)
    assert engine.call(WAIT_JS, selector), f"nothing matches {selector} on {url}"


@pytest.mark.parametrize("name", NAMES)
def test_every_lab_shows_attnlibs_numbers_at_every_setting(engine, name, tmp_path):
    with plot.use_style():
        lab = build(name)
    open_page(engine, lab_page(lab, name, tmp_path).as_uri(), ".attn-lab svg.figure")
    settings = lab.settings()
    result = engine.call(COMPARE_JS, [settings, expected(lab, name), KEYS[name]])
    assert result["count"] == 0, f"{name}: {result['count']} of {len(settings)} settings differ: {result['problems']}"
    assert result["worst"] < 1e-12, f"{name}: the page's numbers differ from attnlib's by {result['worst']:.2e}"


@pytest.mark.parametrize("name", NAMES)
def test_on_a_phone_a_lab_draws_every_text_legibly_and_apart(engine, name, tmp_path):
    with attnlib.set_language("zh-Hans"), plot.use_style():  # the Chinese text, with the lab's own CJK face
        lab = build(name)
    open_page(engine, lab_page(lab, name, tmp_path, PHONE_COLUMN).as_uri(), ".attn-lab[data-layout=narrow] svg.figure")
    engine.call("async () => { await document.fonts.ready; }")
    settings = lab.settings()
    result = engine.call(LEGIBLE_JS, [settings[:: max(1, len(settings) // 40)], 12])  # about 40 settings
    assert result["texts"] > 0
    assert not result["problems"], f"{name}: " + "; ".join(result["problems"][:12])


# On page 02 of the site: formulas typeset, the lab's scale slider moved to its end (as a learner's drag
# ends: an input event), the quiz's first question answered until right; what the page shows after.
SITE_PAGE_JS = """async () => {
  const wait = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 100 && !document.querySelector('mjx-container'); i += 1) await wait(100);
  const lab = document.querySelector('.attn-lab'), quiz = document.querySelector('.attn-quiz');
  const readout = () => lab.querySelector('.readout').textContent;
  const before = readout();
  const slider = lab.querySelector('input[type=range]');
  const control = lab.attnLab.spec.controls.find((c) => c.kind === 'slider');  // the first slider's
  slider.value = slider.max;
  slider.dispatchEvent(new Event('input', { bubbles: true }));
  const first = quiz.querySelector('fieldset.question'), feedback = first.querySelector('.feedback');
  const said = [];  // each option of the first question in turn, until the right one
  for (const option of first.querySelectorAll('input[type=radio]')) {
    option.click();
    said.push(feedback.textContent);
    if (feedback.classList.contains('right')) break;
  }
  await document.fonts.ready;
  const cjk = Array.from(document.fonts).filter((f) => f.family.replace(/"/g, '') === 'Attn CJK');
  return {
    formulas: document.querySelectorAll('mjx-container').length,
    changed: readout() !== before,
    followed: JSON.parse(lab.dataset.values)[control.name] === control.options[Number(slider.max)],
    said, right: feedback.classList.contains('right'),
    // the score counts each question's first answer: right only if the first option clicked was
    scored: quiz.querySelector('.score').textContent === quiz.attnQuiz.spec.scores[said.length === 1 ? 1 : 0],
    cjk: cjk.map((f) => f.status),
  };
}"""


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_a_page_of_the_site_draws_its_formulas_and_its_lab_and_quiz_answer(engine, site, language):
    folder = site if language == "en" else site / language
    open_page(engine, (folder / "02_softmax.html").as_uri(), ".attn-lab .readout")
    shown = engine.call(SITE_PAGE_JS)
    assert shown["formulas"] > 10, "MathJax typeset nothing"
    assert shown["changed"] and shown["followed"], "the lab did not follow its slider"
    assert all(shown["said"]) and shown["right"] and shown["scored"], shown
    if language != "en":
        assert "loaded" in shown["cjk"], f"the bundled Chinese face did not load: {shown['cjk']}"


def test_the_live_gpt_lab_writes_attnlibs_greedy_line(engine, tmp_path):
    poems = load_poems()
    lab = make_live_gpt_lab(poems.tokenizer)
    path = tmp_path / "live_gpt.html"
    path.write_text("<!doctype html><meta charset=utf-8><body>"
                    + attnlib.page.mount_html("live_gpt", lab.page_state(), "live"), encoding="utf-8")
    open_page(engine, path.as_uri(), '.attn-lab[data-lab="live_gpt"] .readout')
    config, params = models()[0]
    for opening in ["明月", "白日依山尽", "春"]:
        ids = np.asarray(poems.tokenizer.encode(opening))
        page = engine.call(WRITE_JS, [0, ids.tolist(), 16, 0, 0])
        steps = attnlib.gpt.generate_steps(half(params), config, ids, 16, rng=Mulberry32(0), greedy=True)
        assert page == [s.token for s in steps], opening
