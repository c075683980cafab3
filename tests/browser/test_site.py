"""The website (`make site`) opens from disk and works with no network and no Python.

The site is built once per session into a temporary folder with tools/build_site.py, and every page is
opened as a file:// page in chromium. Each request is recorded: all must be file:// (or data:) URLs and
none may fail. Every formula must come typeset (at build time: no raw TeX left in the prose, no math
JavaScript in the page), no script may throw, and every link between pages must lead to a page of the site.

Then every control of every lab on every page is moved with the keyboard, as a learner would: a slider
through End, Home, ArrowRight and ArrowLeft, a set of toggles with the arrow keys through every option and
back, a menu through every option and with the arrow keys. After each change the picture must have changed and the readout must
be the page's own frame at that setting, filled in by Python's ``attnlib.labs.base.fill`` (that the
frames themselves agree with attnlib at every setting is tests/browser/test_lab_frames.py's job).

Building needs the pinned npm packages in node_modules/ or npm to install them (the ``page_packages``
fixture); without either the tests are skipped with the reason (a learner's machine), and in CI they fail.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

from tests.browser import font_checks
from tests.browser.font_checks import face_problems
from tests.browser.page_checks import PROSE_JS, RAW_TEX, stored_labs, with_labs
from tools import build_site, offline_pages, reference_pages
from tools.browser.labs import walk_labs
from tools.browser.pages import CJK_FONT_LOADED_JS, FONTS_READY_JS, Watch, platform_fonts

ROOT = Path(__file__).resolve().parents[2]
bare_browser, bare_page = font_checks.bare_browser, font_checks.bare_page  # fixtures: no system CJK font

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
# The Chinese editions go into the site as well, in <site>/zh-Hans/ and <site>/zh-Hant/; one page of each is
# opened in the browser.
EDITION_NOTEBOOKS = sorted((ROOT / "notebooks").glob("zh-Han[st]/[0-9][0-9]_*.ipynb"))
EDITIONS = [ROOT / "notebooks" / lang / "01_inner_products.ipynb" for lang in ("zh-Hans", "zh-Hant")]

# Every image of the page, fetched now (figures load lazily, as the reader comes near them): [src, decoded].
IMAGES_JS = """async () => Promise.all(Array.from(document.images, async (img) => {
    img.loading = 'eager';
    try { await img.decode(); } catch (e) { /* reported below */ }
    return [img.getAttribute('src').slice(0, 40), img.complete && img.naturalWidth > 0];
}))"""


def has_math(path: Path) -> bool:
    nb = nbformat.read(path, as_version=4)
    return any(c.cell_type == "markdown" and "$" in c.source for c in nb.cells)


def test_every_notebook_has_a_page_and_the_index_lists_them(site):
    pages = sorted(p.stem for p in site.glob("[0-9][0-9]_*.html"))
    assert pages == [p.stem for p in NOTEBOOKS]
    index = (site / "index.html").read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        assert f'href="{path.stem}.html"' in index
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        remote = re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//[^"' >]+""", text)
        assert not remote, f"{page.name} loads from the network: {remote[:3]}"
        assert "require(" not in text and "mermaid" not in text and WIDGET_VIEW_SCRIPT not in text


WIDGET_VIEW_SCRIPT = 'type="application/vnd.jupyter.widget-view+json"'


@pytest.mark.parametrize("name", ["index", *(p.stem for p in NOTEBOOKS)])
def test_page_works_offline(page, site, name):
    watch = Watch(page)
    page.goto((site / f"{name}.html").as_uri())
    page.evaluate(FONTS_READY_JS)

    path = ROOT / "notebooks" / f"{name}.ipynb"
    assert page.evaluate("() => typeof window.MathJax") == "undefined", "the page runs MathJax"
    if name == "index" or has_math(path):
        assert page.locator("mjx-container").count() > 0, "no formula was typeset"
    assert page.locator("mjx-merror").count() == 0, "MathJax reports a TeX error"
    leftover = RAW_TEX.findall(page.evaluate(PROSE_JS))
    assert not leftover, f"raw TeX left in the prose: {leftover[:5]}"

    images = page.evaluate(IMAGES_JS)
    for src, loaded in images:
        assert loaded, f"image did not decode: {src}"

    # Every link to another page of the site leads to a file that is there.
    for href in page.evaluate("() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"):
        parts = urlsplit(href)
        if parts.scheme == "file":
            assert Path(unquote(parts.path)).is_file(), f"broken link: {href}"
    if name != "index":
        bar = page.locator("header.site-bar").first
        assert bar.locator('a[rel="index"]').get_attribute("href") == "index.html"
        i = [p.stem for p in NOTEBOOKS].index(name)
        for rel, j in (("prev", i - 1), ("next", i + 1)):
            link = bar.locator(f'a[rel="{rel}"]')
            if 0 <= j < len(NOTEBOOKS):
                assert link.get_attribute("href") == f"{NOTEBOOKS[j].stem}.html"
            else:
                assert link.count() == 0
        assert page.locator(".attn-lab").count() == stored_labs(path)
    watch.check()


# ---- every control of every lab ---------------------------------------------------------------------

@pytest.mark.parametrize("notebook", with_labs(), ids=lambda p: p.stem if p else "none")
def test_every_control_of_every_lab_moves_picture_and_readout(page, site, notebook):
    assert notebook is not None, "no notebook stores a lab"
    watch = Watch(page)
    page.goto((site / f"{notebook.stem}.html").as_uri())
    page.wait_for_function("() => document.querySelectorAll('.attn-lab').length > 0")
    assert page.locator(".attn-lab").count() == stored_labs(notebook)
    problems, steps = walk_labs(page, notebook.stem)
    assert steps > 0
    assert not problems, f"{len(problems)} problem(s) in {steps} control changes:\n" + "\n".join(problems)
    watch.check()


def test_lab_state_on_the_page_is_the_stored_state(page, site):
    """The page draws the lab from the spec and values the notebook stored, unchanged."""
    notebook = next((p for p in NOTEBOOKS if stored_labs(p)), None)
    assert notebook is not None, "no notebook stores a lab"
    nb = nbformat.read(notebook, as_version=4)
    state = nb.metadata["widgets"][offline_pages.WIDGET_STATE]["state"]
    stored = [lab for m in state.values() if (lab := offline_pages.lab_state(m))]
    page.goto((site / f"{notebook.stem}.html").as_uri())
    shown = page.evaluate("() => Array.from(document.querySelectorAll('.attn-lab')).map("
                          "r => ({spec: r.attnLab.spec, values: JSON.parse(r.dataset.values)}))")
    assert len(shown) == len(stored)
    assert all(lab in stored for lab in shown)  # == on numbers: JSON has no 2.0, only 2


# ---- the Chinese editions -----------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda p: p.parent.name)
def test_chinese_page_works_offline_and_switches_language(page, site, edition):
    assert edition.exists(), f"{edition.relative_to(ROOT)} is missing: run `python -m tools.translate build`"
    lang = edition.parent.name
    watch = Watch(page)
    page.goto((site / lang / f"{edition.stem}.html").as_uri())
    page.evaluate(FONTS_READY_JS)
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("mjx-container").count() > 0 and page.locator("mjx-merror").count() == 0
    assert page.locator(".attn-lab").count() == stored_labs(edition)
    assert "loaded" in page.evaluate(CJK_FONT_LOADED_JS), "the bundled CJK font did not load"
    switch = page.locator("header.site-bar .languages").first
    assert switch.locator("strong").inner_text() == offline_pages.LANGUAGE_NAMES[lang]
    targets = switch.locator("a").evaluate_all("links => links.map(a => a.href)")
    assert len(targets) == 2  # the two other languages
    for href in targets + page.evaluate("() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"):
        parts = urlsplit(href)
        if parts.scheme == "file":
            assert Path(unquote(parts.path)).is_file(), f"broken link: {href}"
    english = site / f"{edition.stem}.html"
    assert english.as_uri() in targets
    watch.check()


def assert_faces_of_the_script(page, site, edition, bundled_only: bool) -> None:
    """Open the edition's page once its fonts are in, and check the face of every Chinese text."""
    lang = edition.parent.name
    page.goto((site / lang / f"{edition.stem}.html").as_uri())
    page.evaluate(CJK_FONT_LOADED_JS)
    page.evaluate(FONTS_READY_JS)
    # Once both bundled weights are in, the page sets a font setting no text used yet, so every text picks
    # its fonts anew (tools/templates/cjk_head.html.j2); two animation frames later that layout is drawn.
    page.wait_for_function("() => document.documentElement.style.fontFeatureSettings !== ''")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    marked, problems = face_problems(page, lang, bundled_only=bundled_only)
    assert marked > 50
    assert not problems, f"{len(problems)} of {marked} Chinese texts:\n" + "\n".join(problems[:10])


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda p: p.parent.name)
def test_every_chinese_text_is_drawn_with_the_bundled_face_of_its_script(bare_page, site, edition):
    """With no CJK font on the machine, the page's bundled face draws every Chinese text: Noto Sans TC
    on a 繁體 page, Noto Sans SC on a 简体 one, bold text with its bold subset (no faked bold). Chromium
    can keep the fallback for text it laid out while the CJK font was loading; the page then shapes that
    text again."""
    assert_faces_of_the_script(bare_page, site, edition, bundled_only=True)
    weights = bare_page.evaluate("() => Array.from(document.fonts).filter((f) => f.family.replace(/\"/g, '') "
                                 "=== 'Attn CJK').map((f) => [f.weight, f.status])")
    assert ["700", "loaded"] in weights, f"the bold face was not used: {weights}"


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda p: p.parent.name)
def test_every_chinese_text_is_drawn_by_a_cjk_face_of_its_script(page, site, edition):
    """With the machine's own fonts (bundled face or installed CJK fonts, such as Debian's fonts-noto-cjk,
    which the page's sans-serif finds first): every Chinese text is drawn by a CJK face of its script
    (its lang), never boxes, and bold text by a bold face."""
    assert_faces_of_the_script(page, site, edition, bundled_only=False)


def test_the_pages_of_each_edition_declare_the_face_of_their_script(site):
    """繁體 pages declare Noto Sans TC (regular and bold), the others Noto Sans SC; the files are there."""
    for lang, script in (("", "sc"), ("zh-Hans", "sc"), ("zh-Hant", "tc")):
        page = (site / lang / "01_inner_products.html") if lang else site / "01_inner_products.html"
        text = page.read_text(encoding="utf-8")
        faces = re.findall(r'font-family: "Attn CJK";(?:\s*font-weight: (\d+);)?\s*src: url\("([^"]+)"\)', text)
        regular, bold = f"NotoSans{script.upper()}-Subset.ttf", f"NotoSans{script.upper()}-Bold-Subset.ttf"
        assert [(w, Path(u).name) for w, u in faces] == [("", regular), ("700", bold)], faces
        for _, url in faces:
            assert (page.parent / url).resolve().is_file(), url


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_chinese_in_a_formula_is_drawn_with_the_bundled_font(page, site, language):
    """MathJax draws the characters its own fonts lack (\\text{明月照高楼} in 09) with the bundled CJK font,
    not whatever serif font a machine has (none with Chinese, on many)."""
    page.goto((site if language == "en" else site / language).joinpath("09_a_tiny_gpt.html").as_uri())
    page.evaluate(FONTS_READY_JS)
    page.evaluate(CJK_FONT_LOADED_JS)
    marked = page.evaluate("""() => {
        let k = 0;
        for (const el of document.querySelectorAll('mjx-container mjx-utext')) {
            if (/[\\u4e00-\\u9fff]/.test(el.textContent)) el.setAttribute('data-cjk-math', String(k++));
        }
        return k;
    }""")
    assert marked >= 5, "page 09 should typeset 明月照高楼 in a formula"
    drawn = platform_fonts(page, "[data-cjk-math]")
    wrong = [f"{html} drawn with {[f['familyName'] for f in fonts]}" for html, fonts in drawn
             if not fonts or not all(f["isCustomFont"] and not f["familyName"].startswith("MathJax") for f in fonts)]
    assert not wrong, "\n".join(wrong[:5])  # MathJax_Zero has no Chinese: it draws an empty box


# ---- finding your way: contents, outline, search ------------------------------------------------------

LANGUAGE_NOTEBOOKS = {"en": NOTEBOOKS, **{lang: sorted((ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb"))
                                          for lang in ("zh-Hans", "zh-Hant")}}
# Words a reader looks for, as each edition writes them (the 繁體 pages say 遮罩 for a mask, not 掩碼).
SEARCHES = {
    "en": ["softmax", "causal", "padding", "d_k", "query"],
    "zh-Hans": ["掩码", "因果", "注意力", "填充", "缩放"],
    "zh-Hant": ["遮罩", "因果", "注意力", "填充", "縮放"],
}

# The text of the section a link lands on: from the heading with that id to the next h1-h3 of the page,
# prose and outputs but no code; a typeset formula counts as its TeX (d_k is written $d_k$), which it keeps.
SECTION_TEXT_JS = """(id) => {
    const tex = new Map();
    for (const formula of document.querySelectorAll('mjx-container[data-tex]')) tex.set(formula, formula.dataset.tex);
    const target = document.getElementById(id) || document.getElementById(decodeURIComponent(id));
    if (!target) return null;
    const main = document.querySelector('main');
    const headings = Array.from(main.querySelectorAll(':is(h1, h2, h3)[id]'));
    const next = headings[headings.indexOf(target) + 1];
    const section = document.createRange();
    section.setStartBefore(target);
    if (next) section.setEndBefore(next); else section.setEndAfter(main.lastChild);
    const parts = [];
    for (const [element, source] of tex) if (section.intersectsNode(element)) parts.push(source);
    const walk = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
        if (!section.intersectsNode(node)) continue;
        if (node.parentElement.closest('.jp-CodeCell .jp-InputArea, script, style, mjx-container')) continue;
        parts.push(node.data);
    }
    return parts.join(' ');
}"""


def edition_dir(site: Path, language: str) -> Path:
    return site if language == "en" else site / language


def test_every_page_has_the_contents_and_an_outline_of_every_h2_and_lab(site):
    for language, notebooks in LANGUAGE_NOTEBOOKS.items():
        names = [f"{p.stem}.html" for p in notebooks]
        assert [p.name for p in notebooks] == [p.name for p in NOTEBOOKS]  # every edition has every notebook
        references = [f"{r.name}.html" for r in reference_pages.REFERENCES]  # under their heading, after
        for path in notebooks:
            page = (edition_dir(site, language) / f"{path.stem}.html").read_text(encoding="utf-8")
            # (attributes in any order: nbconvert writes a page's elements with theirs sorted)
            contents = re.search(r'<nav [^>]*class="site-contents".*?</nav>', page, re.S).group(0)
            links = [(re.search(r'href="([^"]+)"', a).group(1), 'aria-current="page"' in a)
                     for a in re.findall(r"<a ([^>]*)>", contents)]
            assert [href for href, _ in links] == [*names, *references]
            assert [href for href, current in links if current] == [f"{path.stem}.html"]
            outline = re.search(r'<nav [^>]*class="site-outline".*?</nav>', page, re.S).group(0)
            targets = [unquote_attr(h) for h in re.findall(r'<a [^>]*href="#([^"]+)"', outline)]
            main = page[page.index("<main"):]
            h2 = [unquote_attr(h) for h in re.findall(r'<h2 id="([^"]+)"', main)]
            labs = re.findall(r'class="attn-lab-mount" id="(lab-\d+)"', main)
            assert h2 and set(h2) <= set(targets), f"{language}/{path.stem}: h2 missing from the outline"
            assert len(labs) == stored_labs(path) and set(labs) <= set(targets)
            assert page.index('class="skip-link"') < page.index('class="site-search"') < page.index("<main")


def unquote_attr(value: str) -> str:
    import html

    return html.unescape(value)


@pytest.mark.parametrize("language", list(SEARCHES))
def test_search_finds_each_word_and_lands_on_a_section_holding_it(page, site, language):
    words = build_site.WORDS[language]
    start = (edition_dir(site, language) / "01_inner_products.html").as_uri()
    watch = Watch(page)
    for term in SEARCHES[language]:
        page.goto(start)
        box = page.locator("#site-search-input")
        assert box.get_attribute("role") == "combobox"
        assert page.locator("label[for=site-search-input]").inner_text() == words["search"]
        box.click()
        box.fill(term)
        page.wait_for_function("(q) => document.querySelector('.site-search').dataset.query === q", arg=term)
        count = int(page.locator(".site-search").get_attribute("data-count"))
        assert count > 0, f"{language}: no result for {term}"
        status = page.locator(".site-search [role=status]")
        assert status.get_attribute("aria-live") == "polite"
        assert status.inner_text() == (words["one"] if count == 1 else words["many"].replace("{n}", str(count)))
        assert box.get_attribute("aria-expanded") == "true"
        box.press("ArrowDown")
        first = page.locator(".site-search [role=option]").first
        assert first.get_attribute("aria-selected") == "true"
        assert box.get_attribute("aria-activedescendant") == first.get_attribute("id")
        assert term.lower() in first.inner_text().lower(), "the snippet or heading shows the word"
        href = first.locator("a").evaluate("a => a.href")
        box.press("Enter")
        page.wait_for_function("(h) => location.href === h", arg=href)
        page.wait_for_load_state("load")
        page.evaluate(FONTS_READY_JS)
        anchor = urlsplit(href).fragment
        assert anchor, f"{term}: the first result is no section: {href}"
        text = page.evaluate(SECTION_TEXT_JS, anchor)
        assert text is not None, f"{term}: {href} has no such heading"
        assert term.lower() in text.lower(), f"{term}: the section {href} does not hold it: {text[:200]}"
    watch.check()


def test_the_outline_takes_the_keyboard_into_a_lab_in_one_step(page, site):
    watch = Watch(page)
    page.goto((site / "05_scaling_by_sqrt_dk.html").as_uri())
    page.wait_for_function("() => document.querySelectorAll('.attn-lab').length > 0")
    # Tab from the top of the page: the skip link comes first.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.className") == "skip-link"
    link = page.locator(".site-outline a[data-lab]").first
    target = link.get_attribute("href")[1:]
    link.focus()
    page.keyboard.press("Enter")
    inside = f"() => !!document.activeElement.closest('#{target}')"
    tabs = 0
    while not page.evaluate(inside) and tabs < 3:
        page.keyboard.press("Tab")
        tabs += 1
    assert page.evaluate(inside) and tabs <= 1, f"{tabs} Tab presses from the outline to the lab"
    assert page.evaluate("() => location.hash") == f"#{target}"
    # the control that has the keyboard is one of the lab's own: the arrow keys move it
    assert page.evaluate("() => document.activeElement.matches('input, select, button, [tabindex]')")
    watch.check()


# Every printed output and display formula on a page: its own width and the width of what it holds, how
# it wraps, whether it scrolls, and whether its box draws the scroll shadows.
WIDE_JS = """() => Array.from(document.querySelectorAll(
        'main .jp-RenderedText pre, main mjx-container[display="true"]'), (el) => {
    const cs = getComputedStyle(el);
    return {what: el.textContent.slice(0, 40), scroll: el.scrollWidth, width: el.clientWidth,
            wrap: cs.whiteSpace, overflow: cs.overflowX, cue: cs.backgroundImage.includes('gradient'),
            keyboard: el.getAttribute('tabindex') === '0'};
})"""
MEASURED_JS = "() => document.body.dataset.scrollers === 'measured'"  # site_nav.js: every box measured


@pytest.mark.parametrize("name", ["02_softmax", "07_the_whole_formula"])
def test_on_a_phone_wide_outputs_and_formulas_scroll_in_their_own_box(browser, site, name):
    """At 390 px nothing makes the page itself scroll sideways, a printed line is never wrapped mid-number
    (it scrolls in its box), and a box that scrolls shows the cue and takes the keyboard, however far down
    the page it is (the cells there are laid out only once measured)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto((site / f"{name}.html").as_uri())
    page.evaluate(FONTS_READY_JS)
    page.wait_for_function(MEASURED_JS)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    boxes = page.evaluate(WIDE_JS)
    assert any(b["scroll"] > b["width"] for b in boxes), "no output is wider than a phone: the test shows nothing"
    for box in boxes:
        assert box["overflow"] == "auto" and box["cue"], box
        assert box["keyboard"] == (box["scroll"] > box["width"]), f"a Tab stop only where a box scrolls: {box}"
        if "pre" in box["wrap"]:
            assert box["wrap"] == "pre", f"a printed line wraps: {box}"
    context.close()


def test_on_a_phone_the_contents_fold_behind_a_keyboard_operable_summary(browser, site):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    watch = Watch(page)
    page.goto((site / "zh-Hans" / "06_masking.html").as_uri())
    toc = page.locator("details.site-toc")
    assert toc.evaluate("d => d.open") is False
    assert not page.locator(".site-contents").is_visible()
    summary = toc.locator("summary")
    assert summary.inner_text() == build_site.WORDS["zh-Hans"]["toggle"]
    summary.focus()
    page.keyboard.press("Enter")
    assert toc.evaluate("d => d.open") is True and page.locator(".site-contents").is_visible()
    current = page.locator('.site-contents a[aria-current="page"]')
    assert current.get_attribute("href") == "06_masking.html"
    # choosing an outline entry folds the contents away again and lands on the section
    entry = page.locator(".site-outline a").nth(1)
    href = entry.get_attribute("href")
    entry.focus()
    page.keyboard.press("Enter")
    assert toc.evaluate("d => d.open") is False
    assert page.evaluate("() => location.hash") == href
    watch.check()
    context.close()


# Every control of every lab on the page: its box, the lab's box, and the value it shows.
CONTROLS_JS = """() => Array.from(document.querySelectorAll('.attn-lab')).flatMap((lab) => {
  const edge = lab.getBoundingClientRect();
  const targets = lab.querySelectorAll(
    'input[type=range], .toggle span, select, button, input[type=text]');
  return Array.from(targets).map((el) => {
    const r = el.getBoundingClientRect(), out = el.parentElement.querySelector('output');
    const o = out && out.getBoundingClientRect();
    return {lab: lab.dataset.lab, what: el.tagName + (el.dataset.act ? ':' + el.dataset.act : ''),
            height: r.height, width: r.width, right: r.right, labRight: edge.right,
            font: parseFloat(getComputedStyle(el).fontSize),
            value: o ? {right: o.right, width: o.width} : null};
  });
})"""


@pytest.mark.parametrize("name", [p.stem for p in NOTEBOOKS if stored_labs(p)])
def test_on_a_phone_every_lab_control_fits_a_thumb_and_shows_its_value(browser, site, name):
    """At 390 px a lab's controls stack one per line inside the lab: each is at least 44 px tall (a
    thumb), its text at least 12 px, and a slider's value stays in view beside it."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto((site / f"{name}.html").as_uri())
    page.wait_for_function("() => document.querySelectorAll('.attn-lab .bar .control').length > 0")
    controls = page.evaluate(CONTROLS_JS)
    assert controls
    for c in controls:
        assert c["height"] >= 44 and c["width"] >= 44, f"too small for a thumb: {c}"
        assert c["right"] <= c["labRight"] + 0.5 <= 390.5, f"sticks out of the lab: {c}"
        assert c["font"] >= 12, f"text too small: {c}"
        if c["value"]:
            assert c["value"]["width"] > 0 and c["value"]["right"] <= c["labRight"] + 0.5, f"value hidden: {c}"
    context.close()


def test_on_a_phone_the_bar_wraps_cleanly(browser, site):
    """At 390 px no line of the bar at the top ends with a separator, and none but the first starts with
    one (the language switch takes a line of its own)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto((site / "06_masking.html").as_uri())
    lines = page.evaluate("""() => {
      const seen = Array.from(document.querySelector('header.site-bar').querySelectorAll('.item > *'))
        .filter((el) => el.getClientRects().length && getComputedStyle(el).display !== 'none');
      const rows = new Map();
      for (const el of seen) {
        const top = Math.round(el.getBoundingClientRect().top);
        (rows.get(top) || rows.set(top, []).get(top)).push(el);
      }
      return [...rows.values()].map((els) => els
        .sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
        .map((el) => el.classList.contains('sep') ? '·' : el.textContent));
    }""")
    assert len(lines) == 2, lines  # index · previous · next, then the languages
    for words in lines:
        assert words[0] != "·" and words[-1] != "·", lines
    context.close()


def test_figures_are_drawn_at_twice_the_pixels_they_take(page, site):
    """Every stored figure of a page is a PNG with twice the pixels of its size on the page, so that a
    high-density screen draws it sharp."""
    page.goto((site / "05_scaling_by_sqrt_dk.html").as_uri())
    page.evaluate(IMAGES_JS)
    sizes = page.evaluate("""() => Array.from(document.querySelectorAll('.jp-OutputArea img'))
      .filter((img) => img.getAttribute('src').endsWith('.png'))
      .map((img) => ({natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
                      attribute: Number(img.getAttribute('width'))}))""")
    assert len(sizes) >= 3
    for s in sizes:
        assert s["natural"] in (2 * s["attribute"], 2 * s["attribute"] + 1), s  # the width is halved, rounded down
        assert s["shown"] <= s["attribute"] + 0.5, s
    context_width = page.evaluate("() => innerWidth")
    assert context_width >= 800 and any(s["shown"] == s["attribute"] for s in sizes), sizes


# ---- a part off the main line (cells tagged going-further) -------------------------------------------------

# The going-further block of a page, its label and the outline entries it marks, as drawn.
GOING_FURTHER_JS = """() => {
  const part = document.querySelector('main section.going-further');
  const label = part.querySelector('.going-further-label');
  const box = part.getBoundingClientRect(), style = getComputedStyle(part);
  const ids = new Set(Array.from(part.querySelectorAll('[id]'), (el) => el.id));
  const entries = Array.from(document.querySelectorAll('.site-outline li'), (li) => {
    const id = decodeURIComponent(li.querySelector('a').hash.slice(1));
    return {inside: ids.has(id) || ids.has(li.querySelector('a').hash.slice(1)),
            marked: li.classList.contains('going-further')};
  });
  return {count: document.querySelectorAll('section.going-further').length,
          label: label.textContent.replace(/\\s+/g, ' ').trim(),
          labelVisible: label.getBoundingClientRect().height > 0, first: part.querySelector('.jp-Cell') !== null,
          left: box.left, right: box.right, rule: style.borderLeftWidth, paper: style.backgroundColor,
          scrollWidth: document.documentElement.scrollWidth, entries};
}"""


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_a_going_further_part_is_one_labelled_block_on_a_desktop_and_a_phone(browser, site, language):
    """Each page with cells tagged going-further shows them as one tinted block with a rule on its left and
    the label in the page's language at its top; the outline marks exactly the entries that lead into it;
    on a phone the block stays within the screen."""
    folder = edition_dir(site, language)
    pages = [p for p in sorted(folder.glob("[0-9][0-9]_*.html"))
             if 'class="going-further"' in p.read_text(encoding="utf-8")]
    assert pages, "no page has a going-further part (cells tagged going-further)"
    words = build_site.WORDS[language]
    for path in pages:
        for width in (1280, 390):
            context = browser.new_context(viewport={"width": width, "height": 900})
            page = context.new_page()
            watch = Watch(page)
            page.goto(path.as_uri())
            page.evaluate(FONTS_READY_JS)
            part = page.evaluate(GOING_FURTHER_JS)
            where = f"{language}/{path.name} at {width} px"
            assert part["count"] == 1 and part["labelVisible"] and part["first"], where
            assert part["label"].startswith(words["further"]) and words["further_note"] in part["label"], where
            assert part["rule"] == "4px" and part["paper"] not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), where
            assert 0 <= part["left"] and part["right"] <= width and part["scrollWidth"] <= width, (where, part)
            assert any(e["marked"] for e in part["entries"]), where
            assert all(e["marked"] == e["inside"] for e in part["entries"]), (where, part["entries"])
            watch.check()
            context.close()
