"""The site's search, keys and outline as a reader uses them (tools/site_nav.js), on pages opened from disk:

- the search lists every result, says how many, and the keyboard reaches the last one;
- a term found only (or mostly) in another edition says so, with a link to the same page there, which
  opens with that search;
- notation typed any way (dk, d k, dₖ, √dk, dmodel, QK^T, sqrt(d_k)) finds what d_k, d_model, QKᵀ find;
- ``/`` goes to the search box, ``?`` opens the list of keys (Esc closes it), ← → [ ] turn the page,
  except in a field, a control or a lab;
- the outline marks the section being read (aria-current="location") as the page scrolls.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from tools import build_site
from tools.browser.pages import Watch

ROOT = Path(__file__).resolve().parents[2]
PAGES = [p.stem for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))]


def edition(site: Path, language: str) -> Path:
    return site if language == "en" else site / language


def search(page, term: str) -> dict:
    """Type ``term`` in the search box and wait until the list and the other editions' answer are in."""
    box = page.locator("#site-search-input")
    box.click()
    box.fill(term)
    page.wait_for_function("(q) => document.querySelector('.site-search').dataset.elsewhereFor === q", arg=term)
    return page.evaluate("() => ({...document.querySelector('.site-search').dataset})")


def selected(page) -> str | None:
    """The id of the option the search box points at (aria-activedescendant), checked against the list."""
    active = page.locator("#site-search-input").get_attribute("aria-activedescendant")
    chosen = page.locator(".site-search [role=option][aria-selected=true]").evaluate_all("o => o.map(x => x.id)")
    assert chosen == ([active] if active else []), f"{chosen} selected, the box points at {active}"
    return active


# ---- all results -------------------------------------------------------------------------------------------
def test_search_lists_every_result_and_the_keyboard_reaches_the_last(page, site):
    watch = Watch(page)
    page.goto((site / "02_softmax.html").as_uri())
    found = search(page, "softmax")
    n = int(found["count"])
    assert n >= 60, f"softmax is in most sections of the series, found in {n}"
    options = page.locator(".site-search [role=option]")
    assert options.count() == n
    assert page.locator(".site-search [role=status]").inner_text() == build_site.WORDS["en"]["many"].format(n=n)
    box = page.locator("#site-search-input")
    box.press("ArrowDown")
    for _ in range(n // 10 + 1):  # PageDown: ten at a time, and it stops at the last
        box.press("PageDown")
    last = options.nth(n - 1)
    assert selected(page) == last.get_attribute("id")
    panel = page.locator(".site-search-panel")
    inside = panel.evaluate("(p, o) => { const a = p.getBoundingClientRect(), b = o.getBoundingClientRect();"
                            " return b.top >= a.top - 1 && b.bottom <= a.bottom + 1; }", last.element_handle())
    assert inside, "the chosen result is scrolled into the list's view"
    box.press("ArrowDown")  # past the last: back to the first
    assert selected(page) == options.nth(0).get_attribute("id")
    box.press("ArrowUp")
    assert selected(page) == last.get_attribute("id")
    href = last.locator("a").evaluate("a => a.href")
    box.press("Enter")
    page.wait_for_function("(h) => location.href === h", arg=href)
    watch.check()


# ---- another edition ---------------------------------------------------------------------------------------
ELSEWHERE = [("en", "掩码", "zh-Hans"), ("zh-Hans", "遮罩", "zh-Hant"), ("zh-Hans", "mask", "en"),
             ("zh-Hant", "掩码", "zh-Hans")]


@pytest.mark.parametrize(("language", "term", "other"), ELSEWHERE, ids=[f"{t}-on-{lang}" for lang, t, _ in ELSEWHERE])
def test_a_term_of_another_edition_links_to_that_editions_search(page, site, language, term, other):
    words = build_site.WORDS[language]
    watch = Watch(page)
    page.goto((edition(site, language) / "03_weighted_sum.html").as_uri())
    found = search(page, term)
    here = int(found["count"])
    counts = dict(part.split(":") for part in found.get("others", "").split())
    assert other in counts, f"{term} on the {language} site: no hint of the {other} edition ({found})"
    m = int(counts[other])
    assert m > 2 * here
    label = page.locator(".site-search .elsewhere-label")
    assert label.is_visible() and label.inner_text() == words["elsewhere"]
    link = page.locator(f".site-search .elsewhere a[hreflang='{other}']")
    results = words["one"] if m == 1 else words["many"].format(n=m)
    assert link.inner_text() == f"{build_site.offline_pages.LANGUAGE_NAMES[other]} · {results}"
    # the keyboard reaches it: ↑ from the box is the last option, the link of the last edition
    box = page.locator("#site-search-input")
    while selected(page) != link.locator("xpath=..").get_attribute("id"):
        box.press("ArrowUp")
    href = link.evaluate("a => a.href")
    assert unquote(urlsplit(href).path).endswith(f"{'' if other == 'en' else other + '/'}03_weighted_sum.html")
    assert parse_qs(urlsplit(href).query) == {"q": [term]}
    box.press("Enter")
    page.wait_for_function("(h) => location.href === h", arg=href)
    assert page.locator("html").get_attribute("lang") == other
    page.wait_for_function("(q) => document.querySelector('.site-search').dataset.query === q", arg=term)
    assert page.evaluate("() => document.activeElement.id") == "site-search-input"
    assert page.locator("#site-search-input").input_value() == term
    assert int(page.locator(".site-search").get_attribute("data-count")) == m  # what the link promised
    watch.check()


def test_a_term_every_edition_shares_shows_no_hint(page, site):
    page.goto((site / "03_weighted_sum.html").as_uri())
    found = search(page, "d_k")
    assert int(found["count"]) > 10 and not found.get("others")
    assert page.locator(".site-search .elsewhere").count() == 0


# ---- notation ------------------------------------------------------------------------------------------------
NOTATION = {"d_k": ["dk", "d k", "dₖ", "D_K", "d_{k}"], "√d_k": ["√dk", "sqrt(d_k)", "sqrt dk"],
            "d_model": ["dmodel", "d model"], "QKᵀ": ["QK^T", "qk^t", "QK^\\top"]}


@pytest.mark.parametrize("written", list(NOTATION))
def test_notation_typed_any_way_finds_what_its_written_form_finds(page, site, written):
    page.goto((site / "05_scaling_by_sqrt_dk.html").as_uri())
    expected = search(page, written)
    assert int(expected["count"]) > 0
    first = page.locator(".site-search [role=option] a").evaluate_all("links => links.map(a => a.href)")
    for typed in NOTATION[written]:
        found = search(page, typed)
        assert found["count"] == expected["count"], f"{typed}: {found['count']} results, {written}: {expected['count']}"
        links = page.locator(".site-search [role=option] a").evaluate_all("links => links.map(a => a.href)")
        assert sorted(links) == sorted(first)


# ---- keys ------------------------------------------------------------------------------------------------------
def href_of(page, rel: str) -> str:
    return page.locator(f"header.site-bar a[rel={rel}]").first.evaluate("a => a.href")


def test_slash_goes_to_the_search_and_question_mark_lists_the_keys(page, site):
    watch = Watch(page)
    page.goto((site / "zh-Hans" / "04_queries_keys_values.html").as_uri())
    words = build_site.WORDS["zh-Hans"]
    page.locator("main h1").first.click()  # the reader's focus: the page itself
    page.keyboard.press("/")
    assert page.evaluate("() => document.activeElement.id") == "site-search-input"
    assert page.locator("#site-search-input").input_value() == "", "the / is not typed into the box"
    page.keyboard.type("/[")  # in the box, the keys are text
    assert page.locator("#site-search-input").input_value() == "/["
    page.locator("#site-search-input").fill("")
    page.locator("main h1").first.click()
    page.keyboard.press("?")
    dialog = page.locator("dialog.site-keys")
    assert dialog.is_visible() and dialog.get_attribute("aria-labelledby") == "site-keys-title"
    assert dialog.locator("h2").inner_text() == words["keys_title"]
    listed = dialog.locator("dt").all_inner_texts()
    assert listed == ["/", "?", "Esc", "← [", "→ ]"]
    assert dialog.locator("dd").all_inner_texts() == [words[k] for k in
                                                      ("key_search", "key_help", "key_close", "key_previous", "key_next")]
    page.keyboard.press("Escape")
    assert not dialog.is_visible()
    page.keyboard.press("?")
    dialog.locator("button").click()
    assert not dialog.is_visible()
    watch.check()


@pytest.mark.parametrize(("key", "rel"), [("ArrowRight", "next"), ("]", "next"), ("ArrowLeft", "prev"), ("[", "prev")])
def test_arrows_and_brackets_turn_the_page(page, site, key, rel):
    page.goto((site / "03_weighted_sum.html").as_uri())
    target = href_of(page, rel)
    page.locator("main h1").first.click()
    page.keyboard.press(key)
    page.wait_for_function("(h) => location.href === h", arg=target)


def test_keys_stay_with_a_field_a_control_or_a_lab(page, site):
    start = (site / "05_scaling_by_sqrt_dk.html").as_uri()
    page.goto(start)
    page.wait_for_function("() => document.querySelectorAll('.attn-lab').length > 0")
    where = {
        "the search box": "#site-search-input",
        "a lab's control": ".attn-lab input, .attn-lab select, .attn-lab button, .attn-lab [tabindex]",
        "a folded solution": "details.solution > summary",
    }
    for what, selector in where.items():
        control = page.locator(selector).first
        control.focus()
        for key in ("ArrowRight", "ArrowLeft", "]", "?"):
            page.keyboard.press(key)
            page.wait_for_timeout(50)  # a page turn would have begun by now
            assert page.url == start, f"{key} in {what} turned the page"
            assert not page.locator("dialog.site-keys[open]").count(), f"{key} in {what} opened the keys"
        page.locator("#site-search-input").fill("")


def test_the_index_has_no_page_to_turn_to_and_its_keys_list_says_so(page, site):
    start = (site / "index.html").as_uri()
    page.goto(start)
    page.locator("h1").click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("?")
    assert page.url == start
    assert page.locator("dialog.site-keys dt").all_inner_texts() == ["/", "?", "Esc"]


def test_the_list_of_keys_fits_a_phone(browser, site):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto((site / "zh-Hant" / "02_softmax.html").as_uri())
    page.locator("main h1").first.click()
    page.keyboard.press("?")
    box = page.locator("dialog.site-keys").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["height"] < 844
    context.close()


# ---- the outline -------------------------------------------------------------------------------------------------
OUTLINE_JS = """() => Array.from(document.querySelectorAll('.site-outline a[aria-current]'),
                                  a => [a.getAttribute('href'), a.getAttribute('aria-current')])"""


# Scroll the target of an outline link (nbconvert's ids hold %-escapes: as written first) to the top.
TO_TOP_JS = """(hash) => {
    const id = hash.slice(1);
    const target = document.getElementById(id) || document.getElementById(decodeURIComponent(id));
    window.scrollTo(0, target.getBoundingClientRect().top + window.scrollY - 40);
}"""


def test_the_outline_marks_the_section_being_read(page, site):
    watch = Watch(page)
    page.goto((site / "06_masking.html").as_uri())
    assert page.evaluate(OUTLINE_JS) == [], "at the top of the page no section is being read yet"
    anchors = page.locator(".site-outline li.level-2 a").evaluate_all("links => links.map(a => a.hash)")
    assert len(anchors) >= 4
    # scroll as a reader does: each h2 brought to the top of the screen marks its entry, and only it
    for anchor in [anchors[1], anchors[3], anchors[2], anchors[-3]]:
        page.evaluate(TO_TOP_JS, anchor)
        page.wait_for_function("(h) => { const a = document.querySelector('.site-outline a[aria-current]');"
                               " return a && a.hash === h; }", arg=anchor, timeout=3000)
        assert page.evaluate(OUTLINE_JS) == [[anchor, "location"]]
    # the middle of a long section keeps its heading marked
    page.evaluate(TO_TOP_JS, anchors[1])
    page.mouse.wheel(0, 200)
    page.wait_for_timeout(200)
    assert page.evaluate(OUTLINE_JS) == [[anchors[1], "location"]]
    # the link beside the page that is marked is in view in the side column
    link = page.locator(".site-outline a[aria-current]")
    assert link.is_visible()
    watch.check()


@pytest.mark.parametrize("name", [PAGES[2]])
def test_a_jump_from_the_outline_marks_its_target(page, site, name):
    page.goto((site / f"{name}.html").as_uri())
    links = page.locator(".site-outline li.level-2 a")
    link = links.nth(links.count() - 2)
    link.click()
    hash_ = link.evaluate("a => a.hash")
    page.wait_for_function("(h) => document.querySelector('.site-outline a[aria-current]')?.hash === h", arg=hash_)
    assert link.get_attribute("aria-current") == "location"

