"""The offline slides (`make slides`) open from disk and work with no network at all.

Every notebook is built into a temporary folder with tools/build_slides.py, opened as a file:// page in
chromium, and each request the page makes is recorded: all must be file:// URLs and none may fail.
Then: reveal.js initialised with several slides, every formula typeset when the deck was built (no raw
TeX left in the prose), the figures are embedded images that decoded, and every lab is drawn live on the slide.
Every slide of every deck fits a 1280×720 and a 1024×768 screen (tools/slide_fit.py walks each deck once
per size and measures every slide in reveal.js's coordinates), and the type is a size meant for a room.
Every lab fits its slide (1280×800) without scrolling. On two decks (a menu and a slider in 02; toggles
and linked sliders in 06) every control of every lab is moved with the keyboard (the walk of
tests/browser/test_site.py): the picture and the readout follow, and the arrow keys move the focused
control, never the slides. Tab never leaves the slide on screen, and on a lab's slide its first stop is the lab.
The keys of a deck: → alone (and Space) walks every slide in order, the labs' and quizzes' sub-slides included;
after a click on a quiz's answer ↓ and → turn the slide; a control reached with Tab keeps the keys it uses and no
others, and Esc gives them back. On every slide of every deck, at 1280×720 and on a phone, reveal's arrows, the
slide number and the title slide's links cover neither each other nor anything the slide shows.
The decks are built with the pinned npm packages (the ``page_packages`` fixture of tests/conftest.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser import font_checks
from tests.browser.font_checks import face_problems
from tests.browser.page_checks import PROSE_JS, RAW_TEX, stored_labs, with_labs
from tools import build_slides, slide_fit
from tools.browser.labs import walk_labs
from tools.browser.pages import CJK_FONT_LOADED_JS, FONTS_READY_JS, on_its_slide, show_slide_of
from tools.offline_pages import WIDGET_VIEW

ROOT = Path(__file__).resolve().parents[2]
bare_browser, bare_page = font_checks.bare_browser, font_checks.bare_page  # fixtures: no system CJK font

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

IMAGES_JS = """() => Array.from(document.querySelectorAll('.reveal img')).map(img => ({
    src: img.getAttribute('src').slice(0, 30), loaded: img.complete && img.naturalWidth > 0
}))"""


def notebook_has(path: Path, what: str) -> bool:
    nb = json.loads(path.read_text(encoding="utf-8"))
    if what == "math":
        return any(c["cell_type"] == "markdown" and "$" in "".join(c["source"]) for c in nb["cells"])
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    return any(what in o.get("data", {}) for o in outputs)


@pytest.fixture(scope="module")
def decks(tmp_path_factory, page_packages) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("slides")
    built = build_slides.build(NOTEBOOKS, out, log=lambda *_: None)
    return {deck.name.removesuffix(".slides.html"): deck for deck in built}


def test_every_notebook_has_a_deck_that_names_no_host(decks):
    assert sorted(decks) == [p.stem for p in NOTEBOOKS]
    for name, deck in decks.items():
        html = deck.read_text(encoding="utf-8")
        remote = re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//[^"' >]+""", html)
        assert not remote, f"{name} loads from the network: {remote[:3]}"
        assert "require(" not in html and "mermaid" not in html
    index = (next(iter(decks.values())).parent / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{deck.name}"' in index for deck in decks.values())


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_deck_works_offline(page, decks, notebook):
    requests, failed = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("requestfailed", lambda r: failed.append(r.url))
    # Anything not on disk is refused as well as recorded, so a leak cannot go unnoticed or hang.
    page.route(re.compile(r"^(?!file:|data:).*"), lambda route: route.abort())
    page.goto(decks[notebook.stem].as_uri())

    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    page.evaluate(FONTS_READY_JS)
    assert page.evaluate("() => Reveal.getTotalSlides()") >= 3
    assert page.locator(".reveal .slides section").count() >= 3

    assert page.evaluate("() => typeof window.MathJax") == "undefined", "the deck runs MathJax"
    if notebook_has(notebook, "math"):
        assert page.locator("mjx-container").count() > 0, "no formula was typeset"
        assert page.locator("mjx-merror").count() == 0, "MathJax reports a TeX error"
        leftover = RAW_TEX.findall(page.evaluate(PROSE_JS))
        assert not leftover, f"raw TeX left in the prose: {leftover[:5]}"

    images = page.evaluate(IMAGES_JS)
    if notebook_has(notebook, "image/png"):
        assert images, "the notebook has figures but the slides show none"
    for image in images:
        assert image["src"].startswith(("data:", "file:")) or "://" not in image["src"], image
        assert image["loaded"], f"image did not decode: {image['src']}"
    assert page.locator(".attn-lab").count() == stored_labs(notebook), "a lab is missing from the deck"
    assert page.locator(".offline-widget").count() == 0, "a widget shows a note instead of itself"

    page.keyboard.press("ArrowRight")  # reveal responds to the keyboard: the next slide, below or beside
    page.wait_for_function("() => { const at = Reveal.getIndices(); return at.h + at.v === 1; }")

    assert requests, "no request was recorded at all"
    off_disk = [url for url in requests if not url.startswith(("file://", "data:"))]
    assert not off_disk, f"requests left the machine: {off_disk[:5]}"
    assert not failed, f"files missing next to the slides: {failed[:5]}"


WALKED = ("02_", "06_")  # every control kind between them: a menu, sliders, toggles, a linked slider


@pytest.mark.parametrize("notebook", with_labs(), ids=lambda p: p.stem if p else "none")
def test_a_lab_on_a_slide_fits_and_moves_with_the_keyboard_not_the_slides(page, decks, notebook):
    """Every lab fits its slide; on two decks every control is walked through with the keys."""
    assert notebook is not None, "no notebook stores a lab"
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(re.compile(r"^(?!file:|data:).*"), lambda route: route.abort())
    page.goto(decks[notebook.stem].as_uri())
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    problems, steps = [], 0
    for i, root in enumerate(page.locator(".attn-lab").all()):
        at = show_slide_of(page, root)
        inside, fit = on_its_slide(root)
        assert fit["width"] <= 1280 and fit["height"] <= 800, f"lab {i + 1} is larger than a slide: {fit}"
        assert inside, f"lab {i + 1} does not fit on its slide without scrolling: {fit}"
        if not notebook.stem.startswith(WALKED):
            continue
        found, walked = walk_labs(page, f"{notebook.stem} deck", roots=[root])
        problems += found
        steps += walked
        now = page.evaluate("() => Reveal.getIndices()")
        assert (now["h"], now["v"]) == (at["h"], at["v"]), f"keys on lab {i + 1} moved the slides to {now}"
    assert steps > 0 or not notebook.stem.startswith(WALKED)
    assert not problems, f"{len(problems)} problem(s) in {steps} control changes:\n" + "\n".join(problems)
    page.evaluate("() => document.activeElement.blur()")
    before = page.evaluate("() => Reveal.getIndices()")
    page.keyboard.press("ArrowRight")  # with no lab control in focus, the keys move the slides again
    page.wait_for_function("(b) => Reveal.getIndices().h !== b.h", arg=before)
    assert not errors, errors[:3]


# Where the keyboard's focus is: on the slide on screen, on another slide, or outside the slides (reveal's
# own controls, the language links), and whether the deck was scrolled to show it.
FOCUS_JS = """() => {
    const el = document.activeElement, section = el && el.closest('.reveal .slides section');
    const here = Reveal.getCurrentSlide(), deck = document.querySelector('.reveal');
    return {at: Reveal.getIndices(), where: !section ? 'outside' : section.contains(here) ? 'here' : 'elsewhere',
            scrolled: deck.scrollTop + deck.scrollLeft + document.querySelector('.reveal .slides').scrollTop,
            what: el ? el.outerHTML.slice(0, 80) : null};
}"""


def test_tab_stays_on_the_slide_on_screen(page, decks):
    """Only the slide on screen takes the keyboard: on a projector, a Tab that moved focus to a cell of
    another slide scrolled the deck away and showed the room a white screen."""
    page.goto(decks["05_scaling_by_sqrt_dk"].as_uri() + "#/1")
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    for press in range(1, 16):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS_JS)
        assert focus["where"] != "elsewhere" and focus["scrolled"] == 0, f"Tab {press}: {focus}"
        assert focus["at"]["h"] == 1, f"Tab {press} moved the deck: {focus}"


@pytest.mark.parametrize("notebook", with_labs(), ids=lambda p: p.stem if p else "none")
def test_the_first_tab_stop_on_a_labs_slide_is_the_lab(page, decks, notebook):
    """Arriving on a lab's slide, one Tab puts the lecturer on its first control (no cell, ¶ link or
    output of the slide before it)."""
    assert notebook is not None, "no notebook stores a lab"
    uri = decks[notebook.stem].as_uri()
    page.goto(uri)
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    slides = page.evaluate("""() => Array.from(document.querySelectorAll('.attn-lab'), (root) => {
        const at = Reveal.getIndices(root.closest('section')); return `#/${at.h}/${at.v}`; })""")
    assert slides
    for i, slide in enumerate(slides):
        page.goto("about:blank")
        page.goto(uri + slide)
        page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
        page.keyboard.press("Tab")
        inside = page.locator(".attn-lab").nth(i).evaluate("(root) => root.contains(document.activeElement)")
        assert inside, f"lab {i + 1} ({slide}): the first Tab stop is {page.evaluate(FOCUS_JS)}"


# Type sizes in slide units (the slide is 1280×800): prose, and code with its printed output.
TYPE_JS = """() => {
  const size = (sel) => { const el = document.querySelector(sel); return el ? parseFloat(getComputedStyle(el).fontSize) : null; };
  return {prose: size('.jp-RenderedMarkdown p'), code: size('.jp-InputArea pre'), output: size('.jp-OutputArea-output pre')};
}"""


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_slide_fits_the_screen(page, decks, notebook):
    """Each slide, fragments included, at 1280×720 and 1024×768: nothing below the bottom or past the right edge."""
    page.route(re.compile(r"^(?!file:|data:).*"), lambda route: route.abort())
    page.goto(decks[notebook.stem].as_uri())
    count, overflows = slide_fit.measure_deck(page, notebook.stem)
    assert count >= 3
    assert not overflows, (
        f"{len(overflows)} slide(s) do not fit; choose what they show in the notebook's metadata "
        "(docs/lecturers_guide.md, 'Slides that fit'):\n" + "\n".join(map(str, overflows)))
    sizes = page.evaluate(TYPE_JS)
    assert sizes["prose"] >= 24 and all(sizes[k] is None or sizes[k] >= 18 for k in ("code", "output")), sizes


def test_the_walk_names_a_slide_that_does_not_fit(page, decks, tmp_path):
    """The measurement itself: a slide with too much on it is reported, with its deck, place and heading."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    long = "\n".join(f"- line {i}" for i in range(40))
    nb.cells = [nbformat.v4.new_markdown_cell("# 99 · Test"), nbformat.v4.new_markdown_cell(f"## Too long\n\n{long}"),
                nbformat.v4.new_markdown_cell("`" + "x" * 200 + "`")]
    nb.cells[1].metadata["slideshow"] = {"slide_type": "slide"}
    nb.cells[2].metadata["slideshow"] = {"slide_type": "slide"}
    path = tmp_path / "99_test.ipynb"
    nbformat.write(nb, path)
    (deck,) = build_slides.build([path], tmp_path / "slides", log=lambda *_: None)
    page.goto(deck.as_uri())
    count, overflows = slide_fit.measure_deck(page, "99_test", sizes=[(1024, 768)])
    assert count == 3
    assert [(o.h, o.title) for o in overflows] == [(1, "Too long"), (2, "x" * 60)], overflows
    assert overflows[0].below > 100 and overflows[1].beyond > 100


# Every slide of the deck in turn: its going-further label, what the corner shows, and whatever the corner
# covers (the slide number, an arrow, the language switch; a text, figure, formula or control of the slide).
CORNER_JS = """() => {
  Reveal.configure({transition: 'none', backgroundTransition: 'none'});
  const corner = document.querySelector('.deck-going-further');
  const seen = [];
  for (const slide of Reveal.getSlides()) {
    const at = Reveal.getIndices(slide);
    Reveal.slide(at.h, at.v);
    const r = corner.getBoundingClientRect();
    const hit = (q) => q.width > 0 && q.height > 0 && q.left < r.right && r.left < q.right
                       && q.top < r.bottom && r.top < q.bottom;
    const fixed = '.reveal .slide-number, .reveal .controls button, .deck-languages';
    const others = [...document.querySelectorAll(fixed)].filter((el) => el.getClientRects().length
      && getComputedStyle(el).visibility !== 'hidden' && hit(el.getBoundingClientRect()));
    const content = [];
    const walk = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (!node.data.trim() || node.parentElement.closest('aside.notes, script, style')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      if ([...range.getClientRects()].some(hit)) content.push(node.data.slice(0, 40));
    }
    for (const el of slide.querySelectorAll('img, svg, mjx-container, input, select, button')) {
      if (!el.closest('aside.notes') && hit(el.getBoundingClientRect())) content.push(el.tagName);
    }
    seen.push({at: [at.h, at.v], label: slide.dataset.goingFurther || null,
               text: corner.hidden ? null : corner.textContent,
               others: others.map((el) => el.className), content});
  }
  return seen;
}"""


def test_a_going_further_slide_says_so_in_a_corner_clear_of_everything(page, decks):
    """Every slide of a going-further part shows its label in the top right corner (the part's first slide:
    "optional"), no other slide does, and at every screen size the corner covers neither the slide number,
    the arrows and the language switch nor anything the slide shows."""
    parts = [name for name, deck in decks.items() if "data-going-further" in deck.read_text(encoding="utf-8")]
    assert parts, "no deck has a going-further part (cells tagged going-further)"
    words = build_slides.WORDS["en"]
    for name in parts:
        for width, height in (*slide_fit.SIZES, (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(decks[name].as_uri())
            page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
            page.evaluate(FONTS_READY_JS)
            slides = page.evaluate(CORNER_JS)
            labels = [s["label"] for s in slides if s["label"]]
            assert labels[0] == words["further_first"] and set(labels) <= {words["further_first"], words["further"]}
            for s in slides:
                assert s["text"] == s["label"], f"{name} slide {s['at']}: the corner shows {s['text']!r}"
                assert not s["others"] and not s["content"], f"{name} at {width}×{height}, slide {s['at']}: {s}"


# ---- the Chinese editions -----------------------------------------------------------------------------

EDITIONS = [ROOT / "notebooks" / lang / "01_inner_products.ipynb" for lang in ("zh-Hans", "zh-Hant")]


@pytest.fixture(scope="module")
def edition_decks(decks, tmp_path_factory) -> Path:
    """Notebook 01 in all three languages: <out>/, <out>/zh-Hans/, <out>/zh-Hant/ (one shared vendor/)."""
    out = tmp_path_factory.mktemp("edition-slides")
    missing = [p for p in EDITIONS if not p.exists()]
    assert not missing, f"{missing} missing: run `python -m tools.translate build`"
    build_slides.build([ROOT / "notebooks" / EDITIONS[0].name, *EDITIONS], out, log=lambda *_: None)
    return out


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda p: p.parent.name)
def test_chinese_deck_works_offline_fits_and_switches_language(page, edition_decks, edition):
    lang = edition.parent.name
    requests, failed = [], []
    page.on("request", lambda r: requests.append(r.url))
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.route(re.compile(r"^(?!file:|data:).*"), lambda route: route.abort())
    deck = edition_decks / lang / f"{edition.stem}.slides.html"
    page.goto(deck.as_uri())
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    page.evaluate(FONTS_READY_JS)
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("mjx-container").count() > 0 and page.locator("mjx-merror").count() == 0
    assert page.locator(".attn-lab").count() == stored_labs(edition)
    assert "loaded" in page.evaluate(CJK_FONT_LOADED_JS), "the bundled CJK font did not load"
    links = page.locator(".deck-languages a").evaluate_all("links => links.map(a => a.href)")
    assert (edition_decks / f"{edition.stem}.slides.html").as_uri() in links and len(links) == 2
    for href in links:
        assert Path(href.removeprefix("file://")).is_file(), f"broken language link: {href}"
    off_disk = [url for url in requests if not url.startswith(("file://", "data:"))]
    assert requests and not off_disk and not failed, (off_disk[:3], failed[:3])
    count, overflows = slide_fit.measure_deck(page, f"{lang}/{edition.stem}")
    assert count >= 3 and not overflows, "\n".join(map(str, overflows))


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_the_index_of_the_decks_draws_its_chinese_with_the_bundled_font(bare_page, edition_decks, language):
    """With no CJK font on the machine, the deck indexes' Chinese titles and language names use the bundled
    face of the index's script (TC for 繁體, SC otherwise; at a real bold weight where bold), not whatever a
    machine has (on many, nothing with Chinese: empty boxes)."""
    bare_page.goto((edition_decks if language == "en" else edition_decks / language).joinpath("index.html").as_uri())
    assert "loaded" in bare_page.evaluate(CJK_FONT_LOADED_JS), "the bundled CJK font did not load"
    bare_page.evaluate(FONTS_READY_JS)
    # the index sets a new font setting once the bundled faces are in, so every text picks its fonts anew
    # (tools/templates/cjk_head.html.j2); two animation frames later that layout is drawn
    bare_page.wait_for_function("() => document.documentElement.style.fontFeatureSettings !== ''")
    bare_page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    marked, problems = face_problems(bare_page, language, bundled_only=True)
    assert marked >= 2  # the other languages' names, and a Chinese title or two
    assert not problems, "\n".join(problems[:5])


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_the_index_of_the_decks_draws_its_chinese_with_a_face_of_its_script(page, edition_decks, language):
    """With the machine's own fonts (installed CJK fonts come first where the index asks for sans-serif):
    every Chinese text in a CJK face of its script, bold from a bold face."""
    page.goto((edition_decks if language == "en" else edition_decks / language).joinpath("index.html").as_uri())
    page.evaluate(CJK_FONT_LOADED_JS)
    page.evaluate(FONTS_READY_JS)
    # the index sets a new font setting once the bundled faces are in, so every text picks its fonts anew
    # (tools/templates/cjk_head.html.j2); two animation frames later that layout is drawn
    page.wait_for_function("() => document.documentElement.style.fontFeatureSettings !== ''")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    marked, problems = face_problems(page, language, bundled_only=False)
    assert marked >= 2
    assert not problems, "\n".join(problems[:5])


# ---- the keys of a deck -----------------------------------------------------------------------------------

# Every slide of the deck in reveal's order, the ones that hold a lab or a quiz marked.
SLIDES_JS = """() => Reveal.getSlides().map((s) => {
    const at = Reveal.getIndices(s);
    return [at.h, at.v, s.querySelector('.attn-lab') ? 'lab' : s.querySelector('.attn-quiz') ? 'quiz' : ''];
})"""
HERE_JS = "() => { const at = Reveal.getIndices(); return [at.h, at.v]; }"


def walk_with(page, key: str) -> list[list[int]]:
    """Press ``key`` from the first slide until the deck stops moving; every slide shown, in order."""
    page.evaluate("() => Reveal.configure({transition: 'none', backgroundTransition: 'none'})")
    seen = [page.evaluate(HERE_JS)]
    for _ in range(400):
        before = page.evaluate("() => [Reveal.getIndices(), Reveal.isLastSlide(), Reveal.availableFragments().next]")
        if before[1] and not before[2]:
            break
        page.keyboard.press(key)
        page.wait_for_function("(b) => JSON.stringify(Reveal.getIndices()) !== JSON.stringify(b)", arg=before[0])
        if page.evaluate(HERE_JS) != seen[-1]:
            seen.append(page.evaluate(HERE_JS))
    return seen


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_right_arrow_alone_walks_every_slide_in_order_labs_and_quizzes_included(page, decks, notebook):
    """Labs and quizzes are sub-slides, which → skipped (02: 3 → 5, the quiz on 16 never shown): now → walks
    every slide of the deck in order, as a clicker does."""
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(decks[notebook.stem].as_uri())
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    slides = page.evaluate(SLIDES_JS)
    seen = walk_with(page, "ArrowRight")
    assert seen == [[h, v] for h, v, _ in slides], f"→ showed {seen}"
    live = [(h, v, kind) for h, v, kind in slides if kind]
    if notebook_has(notebook, WIDGET_VIEW):
        assert live, f"{notebook.stem} stores a lab or a quiz but its deck shows none"
    assert not errors, errors[:3]


def test_space_walks_the_same_slides_and_the_index_lists_the_keys(page, decks):
    deck = decks["02_softmax"]
    page.goto(deck.as_uri())
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    slides = page.evaluate(SLIDES_JS)
    assert [kind for *_, kind in slides].count("quiz") == 1 and "lab" in [kind for *_, kind in slides]
    assert walk_with(page, " ") == [[h, v] for h, v, _ in slides]
    page.goto((deck.parent / "index.html").as_uri())
    keys = page.locator(".deck-keys th").all_inner_texts()
    assert keys[:2] == ["→ ↓ Space", "← ↑"] and "Esc" in keys and "Tab" in keys, keys
    assert page.locator("body.site-index ol.contents a.title").count() == len(decks)


def quiz_slide(page, deck: Path):
    page.goto(deck.as_uri())
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    page.evaluate("() => Reveal.configure({transition: 'none', backgroundTransition: 'none'})")
    root = page.locator(".reveal .attn-quiz")
    return root, show_slide_of(page, root)


def moves(page, key: str, at: dict) -> bool:
    """Whether ``key`` turns the deck away from the slide ``at`` (two animation frames after it)."""
    page.keyboard.press(key)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    now = page.evaluate("() => Reveal.getIndices()")
    return (now["h"], now["v"]) != (at["h"], at["v"])


FOCUS_KIND_JS = """() => { const a = document.activeElement;
    return a ? (a.matches('input, select, button') ? a.type || a.tagName : a.className) : null; }"""


def test_after_answering_a_quiz_the_keys_move_the_deck_and_esc_gives_a_controls_keys_back(page, decks):
    """After a click on an answer, ↓ and → turn the slide (they changed the answer); a control reached with
    Tab keeps the arrows it uses, and Esc gives them back to the deck (it did nothing)."""
    root, at = quiz_slide(page, decks["02_softmax"])
    key = "ArrowDown" if not page.evaluate("() => Reveal.isLastSlide()") else "ArrowUp"
    root.locator('fieldset[data-question="0"] label.option[data-option="1"]').click()
    assert json.loads(root.get_attribute("data-choices"))[0] == 1
    assert moves(page, key, at), f"{key} after a click on an answer did not move the deck"
    assert json.loads(root.get_attribute("data-choices"))[0] == 1, f"{key} changed the answer"

    for key in ("ArrowDown", "ArrowRight"):
        root, at = quiz_slide(page, decks["02_softmax"])
        page.keyboard.press("Tab")  # the first stop on the quiz's slide: its first question
        assert page.evaluate(FOCUS_KIND_JS) == "radio"
        before = json.loads(root.get_attribute("data-choices"))[0]
        assert not moves(page, key, at), f"{key} on an answer reached with Tab moved the deck"
        assert json.loads(root.get_attribute("data-choices"))[0] != before, f"{key} did not choose"
        assert not moves(page, "Escape", at) and not page.evaluate("() => Reveal.isOverview()")
        assert page.evaluate(FOCUS_KIND_JS) == "attn-quiz", "Esc left the focus on the control"
        if page.evaluate("() => Reveal.isLastSlide()"):
            key = "ArrowUp" if key == "ArrowDown" else "ArrowLeft"
        assert moves(page, key, at), f"{key} after Esc did not move the deck"


def test_a_sliders_keys_are_its_own_and_the_rest_belong_to_the_deck(page, decks):
    """A slider in focus keeps ← → (they move it) but not Space, which turns the slide; after Esc, → does too."""
    page.goto(decks["02_softmax"].as_uri())
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    page.evaluate("() => Reveal.configure({transition: 'none', backgroundTransition: 'none'})")
    lab = page.locator(".reveal .attn-lab").first
    at = show_slide_of(page, lab)
    slider = lab.locator("input[type=range]").first
    slider.focus()
    value = slider.input_value()
    key = "ArrowRight" if value != slider.get_attribute("max") else "ArrowLeft"
    assert not moves(page, key, at) and slider.input_value() != value
    assert moves(page, " ", at), "Space on a slider did not turn the slide"
    at = show_slide_of(page, lab)
    slider.focus()
    assert not moves(page, "Escape", at) and page.evaluate(FOCUS_KIND_JS) == "attn-lab"
    assert moves(page, "ArrowRight", at)


# What the deck draws over every slide (the arrows, the slide number, the links of the title slide) and, for
# each of those, whatever it covers: another of them, or a text, formula or control of the slide.
OVERLAP_JS = """() => {
  Reveal.configure({transition: 'none', backgroundTransition: 'none'});
  const hit = (a, b) => a.width > 0 && a.height > 0 && b.width > 0 && b.height > 0
    && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const found = [];
  for (const slide of Reveal.getSlides()) {
    const at = Reveal.getIndices(slide);
    Reveal.slide(at.h, at.v);
    const chrome = [...document.querySelectorAll('.reveal .controls button, .reveal .slide-number, .deck-links')]
      .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => [el.className.split(' ')[0], el.getBoundingClientRect()]);
    chrome.forEach(([a, ra], i) => chrome.slice(i + 1).forEach(([b, rb]) => {
      if (hit(ra, rb)) found.push(`${at.h}/${at.v}: ${a} over ${b}`);
    }));
    const walk = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (!node.data.trim() || node.parentElement.closest('aside.notes, script, style')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const [name, r] of chrome) {
        if ([...range.getClientRects()].some((t) => hit(t, r))) found.push(`${at.h}/${at.v}: ${name} over "${node.data.trim().slice(0, 30)}"`);
      }
    }
    for (const el of slide.querySelectorAll('mjx-container, input, select, button, .readout, .score')) {
      for (const [name, r] of chrome) if (hit(el.getBoundingClientRect(), r)) found.push(`${at.h}/${at.v}: ${name} over ${el.tagName}`);
    }
  }
  return [...new Set(found)];
}"""


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_arrows_stand_clear_of_the_slide_number_and_of_every_slides_text(browser, decks, size):
    """reveal drew its arrows over the slide number (and over a lab's readout); on every slide of every deck,
    on a projector's 1280×720 and on a phone, the arrows, the number and the title slide's links cover
    neither each other nor a text, formula, control or readout of the slide."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    try:
        problems = []
        for name, deck in decks.items():
            page.goto(deck.as_uri())
            page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
            page.evaluate(FONTS_READY_JS)
            problems += [f"{name} {p}" for p in page.evaluate(OVERLAP_JS)]
        assert not problems, f"{len(problems)} overlap(s):\n" + "\n".join(problems[:12])
    finally:
        context.close()
