"""How a page of the site is viewed (tools/site_view.js, tools/templates/site_view.css): in the reader's dark
mode, printed, with a figure opened full size, with the lecturer's notes folded away; and, in Firefox, the
Chinese pages' "·" and captions as a reader with a system CJK font sees them.

The site is the session's build (conftest.py ``site``); Chromium runs all but the Firefox checks, which run
in Firefox ESR (tools/browser/engines.py) and are skipped where it is not installed (a failure in CI).
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest

from tests import harness
from tools import build_site
from tools.browser.engines import PACKAGES, Firefox, missing
from tools.browser.pages import FONTS_READY_JS

ROOT = Path(__file__).resolve().parents[2]
PAGE = "02_softmax"  # a lab, a quiz, figures, exercise cards, code, formulas and lecturer's notes
EDITIONS = ("", "zh-Hans/", "zh-Hant/")
BAD = ("serious", "critical")

# The background and text colours of the page, and of what stays on a light card, as [r, g, b] (0-255).
COLOURS_JS = """() => {
  const rgb = (el, key) => (getComputedStyle(el)[key].match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const figure = document.querySelector('.jp-RenderedImage img');
  return {page: rgb(document.body, 'backgroundColor'), text: rgb(document.body, 'color'),
          prose: rgb(document.querySelector('.jp-RenderedMarkdown p'), 'color'),
          code: rgb(document.querySelector('.jp-CodeCell .jp-InputArea-editor'), 'backgroundColor'),
          lab: rgb(document.querySelector('.live-lab'), 'backgroundColor'),
          figure: rgb(figure, 'backgroundColor')};
}"""


# Scroll through the page once, as a reader does: every cell is laid out and keeps its height (site.css lays a
# cell out only near the screen), so nothing moves while axe looks at what lies behind each text.
READ_THROUGH_JS = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight / 2) {
    window.scrollTo(0, y);
    await frame();
  }
  window.scrollTo(0, 0);
  await frame();
}"""


def luminance(rgb: list[float]) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def open_page(browser, site: Path, name: str, width: int = 1280, **options):
    context = browser.new_context(viewport={"width": width, "height": 900}, **options)
    page = context.new_page()
    page.goto((site / f"{name}.html").as_uri())
    page.evaluate(FONTS_READY_JS)
    page.wait_for_function("() => Array.from(document.querySelectorAll('.attn-lab')).every("
                           "(lab) => lab.querySelector('.readout').textContent)")
    return context, page


# ---- dark mode ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("edition", EDITIONS)
def test_in_dark_mode_the_page_is_dark_its_cards_light_and_every_text_readable(browser, site, edition):
    from axe_playwright_python.sync_playwright import Axe

    context, page = open_page(browser, site, f"{edition}{PAGE}", color_scheme="dark")
    page.wait_for_function("() => document.body.dataset.scrollers")
    page.evaluate(READ_THROUGH_JS)
    shown = page.evaluate(COLOURS_JS)
    assert luminance(shown["page"]) < 0.05 and luminance(shown["code"]) < 0.05, shown
    assert luminance(shown["text"]) > 0.6 and luminance(shown["prose"]) > 0.6, shown
    assert luminance(shown["lab"]) > 0.9 and luminance(shown["figure"]) > 0.9, f"cards must stay light: {shown}"
    found = Axe().run(page).response["violations"]
    context.close()
    bad = [f"{v['id']}: {node['target']}" for v in found if v["impact"] in BAD for node in v["nodes"]]
    assert not bad, f"{edition}{PAGE}.html in dark mode:\n" + "\n".join(bad)


def test_in_light_mode_the_page_stays_light(browser, site):
    context, page = open_page(browser, site, PAGE, color_scheme="light")
    shown = page.evaluate(COLOURS_JS)
    context.close()
    assert luminance(shown["page"]) > 0.9 and luminance(shown["text"]) < 0.05, shown


# ---- print -------------------------------------------------------------------------------------------------
PRINTED_JS = """() => {
  const shown = (el) => el && getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().height > 0;
  const lab = document.querySelector('.live-lab');
  const link = document.querySelector('main .jp-RenderedMarkdown a[href]:not([href^="#"]):not(.anchor-link)');
  const pre = document.querySelector('.jp-CodeCell .highlight pre');
  return {
    side: shown(document.querySelector('.site-side')), bar: shown(document.querySelector('.site-bar')),
    search: shown(document.querySelector('.site-search input')),
    toggle: Array.from(document.querySelectorAll('.lecture-notes-toggle')).some(shown),
    picture: shown(lab.querySelector('svg.figure')), controls: shown(lab.querySelector('.bar')),
    after: getComputedStyle(link, '::after').content, href: link.getAttribute('href'),
    wrap: getComputedStyle(pre).whiteSpace,
    whole: getComputedStyle(document.querySelector('.jp-RenderedImage')).breakInside,
    background: getComputedStyle(document.body).backgroundColor,
  };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_printed_page_is_the_lesson_only_with_labs_drawn_and_links_spelled_out(browser, site, scheme):
    context, page = open_page(browser, site, PAGE, color_scheme=scheme)
    page.emulate_media(media="print")
    printed = page.evaluate(PRINTED_JS)
    context.close()
    assert not (printed["side"] or printed["bar"] or printed["search"] or printed["toggle"]), printed
    assert printed["picture"] and not printed["controls"], f"a lab prints as its picture: {printed}"
    assert printed["href"] in printed["after"], f"a link prints its address: {printed}"
    assert printed["wrap"] == "pre-wrap" and printed["whole"] == "avoid", printed
    assert printed["background"] in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), printed


# ---- figures full size ---------------------------------------------------------------------------------------
FIGURE_JS = """() => {
  const figure = document.querySelector('.jp-RenderedImage img');
  figure.scrollIntoView();
  figure.focus();
  return {tabIndex: figure.tabIndex, role: figure.getAttribute('role'), alt: figure.alt,
          ring: getComputedStyle(figure).outlineStyle, focused: document.activeElement === figure};
}"""
DIALOG_JS = """() => {
  const dialog = document.querySelector('dialog.figure-dialog');
  const figure = document.querySelector('.jp-RenderedImage img');
  return {open: Boolean(dialog && dialog.open), inside: Boolean(dialog && dialog.contains(document.activeElement)),
          src: dialog ? dialog.querySelector('img').src : null, figure: figure.src,
          width: dialog && dialog.open ? dialog.querySelector('img').getBoundingClientRect().width : 0,
          shown: figure.getBoundingClientRect().width, back: document.activeElement === figure};
}"""


@pytest.mark.parametrize("edition", ["", "zh-Hans/"])
def test_a_figure_opens_full_size_from_the_keyboard_or_a_click_and_gives_the_focus_back(browser, site, edition):
    context, page = open_page(browser, site, f"{edition}{PAGE}")
    figure = page.evaluate(FIGURE_JS)
    assert figure["tabIndex"] == 0 and figure["role"] == "button" and figure["focused"], figure
    assert figure["ring"] != "none", "a focused figure shows a focus ring"
    assert page.get_by_role("button", name=figure["alt"]).count() >= 1, "a figure is named by its alt text"
    page.keyboard.press("Enter")
    opened = page.evaluate(DIALOG_JS)
    assert opened["open"] and opened["inside"] and opened["src"] == opened["figure"], opened
    assert opened["width"] > opened["shown"], f"the dialog shows the figure larger: {opened}"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate(DIALOG_JS)["inside"], "the focus stays in the dialog"
    page.keyboard.press("Escape")
    closed = page.evaluate(DIALOG_JS)
    assert not closed["open"] and closed["back"], f"Esc closes it and the focus is back on the figure: {closed}"
    page.locator(".jp-RenderedImage img").first.click()
    assert page.evaluate(DIALOG_JS)["open"], "a click opens it"
    page.mouse.click(5, 5)  # on the backdrop
    assert not page.evaluate(DIALOG_JS)["open"], "a click closes it"
    context.close()


# ---- the lecturer's notes ------------------------------------------------------------------------------------
NOTES_JS = """() => Array.from(document.querySelectorAll('.lecture-notes'), (notes) => ({
  label: notes.querySelector('.lecture-notes-label').textContent,
  button: notes.querySelector('.lecture-notes-toggle').textContent,
  expanded: notes.querySelector('.lecture-notes-toggle').getAttribute('aria-expanded'),
  text: notes.querySelector('.jp-Cell').getBoundingClientRect().height > 0 ? notes.innerText : '',
}))"""


def notes_cells(name: str) -> int:
    path = ROOT / "notebooks" / f"{name}.ipynb"
    nb = nbformat.read(path, as_version=4)
    return sum(c.metadata.get("slideshow", {}).get("slide_type") == "notes" for c in nb.cells)


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_lecturers_notes_are_labelled_and_a_toggle_folds_them_and_is_remembered(browser, site, edition):
    words = build_site.WORDS[{"": "en", "zh-Hans/": "zh-Hans", "zh-Hant/": "zh-Hant"}[edition]]
    context, page = open_page(browser, site, f"{edition}{PAGE}")
    notes = page.evaluate(NOTES_JS)
    assert len(notes) == notes_cells(f"{edition}{PAGE}") > 0
    for note in notes:
        assert note["label"] == words["lecturer"] and note["button"] == words["notes_hide"], note
        assert note["expanded"] == "true" and note["text"], note
        body = note["text"].split(words["notes_hide"], 1)[1].strip()
        assert not body.startswith(words["lecturer"]), f"the label is said twice: {body[:80]}"
    page.locator(".lecture-notes-toggle").nth(1).click()
    folded = page.evaluate(NOTES_JS)
    assert all(n["text"] == "" and n["button"] == words["notes_show"] and n["expanded"] == "false"
               for n in folded), folded
    page.reload()
    assert all(n["text"] == "" for n in page.evaluate(NOTES_JS)), "folded after a reload"
    page.goto((site / f"{edition}03_weighted_sum.html").as_uri())
    assert all(n["text"] == "" for n in page.evaluate(NOTES_JS)), "folded on every page"
    page.locator(".lecture-notes-toggle").first.click()
    page.reload()
    assert all(n["text"] for n in page.evaluate(NOTES_JS)), "shown again, and remembered"
    context.close()


def test_a_notes_cell_loses_only_a_first_line_that_is_the_label():
    label = build_site.WORDS["en"]["lecturer"]
    assert build_site.without_label("**For the lecturer.**\nAsk the room.", label) == "Ask the room."
    assert build_site.without_label("**For the lecturer:** \nAsk.", label) == "Ask."
    assert build_site.without_label("**Ask** the room.", label) == "**Ask** the room."
    assert build_site.without_label("**讲师备注。**\n提问。", build_site.WORDS["zh-Hans"]["lecturer"]) == "提问。"


# ---- Firefox, the Chinese pages (a reader's machine with a system CJK font) -------------------------------------
# fontconfig as on a machine whose CJK font comes first for Chinese text: the bundled Noto Sans SC, whose "·"
# is full width, as Noto Sans CJK's is.
FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
  <match target="pattern"><test name="lang" compare="contains"><string>zh</string></test>
    <edit name="family" mode="prepend" binding="strong"><string>Noto Sans SC</string></edit></match>
</fontconfig>
"""

# Every "·" of the page's text (not in code or a formula) as wide as in its own font size, and every
# line of a lab's picture that breaks inside the word "最关注" (or "最關注").
FIREFOX_JS = """async () => {
  for (let i = 0; i < 200 && !document.querySelector('.attn-lab .readout'); i += 1) await new Promise((r) => setTimeout(r, 100));
  await document.fonts.ready;
  await new Promise((r) => setTimeout(r, 500));
  const widths = [], broken = [];
  let words = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (el.closest('svg, pre, code, mjx-container, script, style')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    for (const m of node.data.matchAll(/\\u00b7|最[关關]注/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const boxes = Array.from(range.getClientRects()).filter((r) => r.width > 0);
      if (!boxes.length) continue;
      if (m[0] === '\\u00b7') widths.push([boxes[0].width / size, el.className || el.tagName]);
      else if (el.closest('.attn-lab')) {
        words += 1;
        if (new Set(boxes.map((b) => Math.round(b.top))).size > 1) broken.push(node.data);
      }
    }
  }
  return {widths, broken, words};
}"""


@pytest.fixture(scope="module")
def firefox(tmp_path_factory):
    why = missing("firefox")
    if why:
        harness.missing(f"{why} (Debian: apt-get install {PACKAGES['firefox']})")
    folder = tmp_path_factory.mktemp("firefox-cjk")
    conf = folder / "fonts.conf"
    conf.write_text(FONTS_CONF.format(fonts=ROOT / "attnlib" / "fonts", cache=folder / "cache"), encoding="utf-8")
    before = os.environ.get("FONTCONFIG_FILE")
    os.environ["FONTCONFIG_FILE"] = str(conf)  # read by Firefox when it starts
    try:
        browser = Firefox(folder / "profile")
    finally:
        if before is None:
            del os.environ["FONTCONFIG_FILE"]
        else:
            os.environ["FONTCONFIG_FILE"] = before
    browser.viewport(1280, 900)
    yield browser
    browser.close()


@pytest.mark.parametrize("edition", ["zh-Hans/", "zh-Hant/"])
def test_in_firefox_a_chinese_page_draws_its_middle_dots_narrow_and_keeps_words_whole(firefox, site, edition):
    firefox.goto((site / f"{edition}09_a_tiny_gpt.html").as_uri())
    found = firefox.call(FIREFOX_JS)
    assert len(found["widths"]) > 10
    wide = [where for width, where in found["widths"] if width > 0.45]
    assert not wide, f"a full-width '·' in {sorted(set(wide))}"
    assert found["words"] >= 8, "the captions under the head thumbnails were not found"
    assert not found["broken"], f"a word broken across lines: {found['broken']}"
