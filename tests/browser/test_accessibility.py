"""An automated accessibility audit (axe-core's WCAG rules, run in Chromium) of every page of the site, the
decks' title slides, every slide with a lab or a quiz, and the indexes: no violation of impact "serious" or
"critical" (contrast below AA, a picture with no text alternative, a box that scrolls but cannot take the
keyboard, a link told from the text by its colour alone, ...).

axe checks what is drawn: a page is audited at a desktop's width and, for the pages with labs, a phone's
(where outputs and formulas scroll in their boxes); a deck shows one slide at a time, so the slides with
something to operate are shown one by one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import build_slides
from tools.browser.pages import FONTS_READY_JS, show_slide_of

ROOT = Path(__file__).resolve().parents[2]

EDITIONS = ("", "zh-Hans/", "zh-Hant/")
NOTEBOOKS = [f"{folder}{p.stem}" for folder in EDITIONS
             for p in sorted((ROOT / "notebooks" / folder).glob("[0-9][0-9]_*.ipynb"))]
BAD = ("serious", "critical")


@pytest.fixture(scope="module")
def axe():
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


@pytest.fixture(scope="module")
def all_decks(tmp_path_factory, page_packages) -> Path:
    """The decks of the three editions (one shared vendor/)."""
    out = tmp_path_factory.mktemp("a11y-slides")
    notebooks = [ROOT / "notebooks" / f"{name}.ipynb" for name in NOTEBOOKS]
    build_slides.build(notebooks, out, log=lambda *_: None)
    return out


def problems(axe, page) -> list[str]:
    """Every serious or critical violation axe finds in what the page shows, one line per element."""
    found = axe.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {node['target']}: {node.get('failureSummary', '').splitlines()[-1]}"
            for v in found if v["impact"] in BAD for node in v["nodes"]]


def settled(page) -> None:
    """Wait until the fonts are in, the labs drawn and, on a page of the site, every box that scrolls made a
    Tab stop (what axe should see)."""
    page.evaluate(FONTS_READY_JS)
    page.wait_for_function("() => !document.querySelector('.site-page') || document.body.dataset.scrollers")
    page.wait_for_function("() => Array.from(document.querySelectorAll('.attn-lab')).every("
                           "(lab) => lab.querySelector('.readout').textContent)")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


@pytest.mark.parametrize("name", ["index", "zh-Hans/index", "zh-Hant/index", *NOTEBOOKS])
def test_every_page_of_the_site_passes_the_audit(browser, site, axe, name):
    widths = [1280] + ([390] if name.endswith(("05_scaling_by_sqrt_dk", "06_masking", "09_a_tiny_gpt")) else [])
    for width in widths:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto((site / f"{name}.html").as_uri())
        settled(page)
        found = problems(axe, page)
        context.close()
        assert not found, f"{name}.html at {width} px:\n" + "\n".join(found)


DECKS = ["index", "zh-Hans/index", "zh-Hant/index", *NOTEBOOKS]


@pytest.mark.parametrize("name", DECKS)
def test_every_deck_passes_the_audit_on_its_title_and_on_each_slide_with_a_lab_or_quiz(
        browser, all_decks, axe, name):
    """Every deck's title slide; in the English decks also every slide with a lab or a quiz (the Chinese
    ones are the same modules with other words)."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    path = all_decks / (f"{name}.html" if name.endswith("index") else f"{name}.slides.html")
    page.goto(path.as_uri())
    if not name.endswith("index"):
        page.wait_for_function("() => window.Reveal && Reveal.isReady()")
    settled(page)
    found = [f"title slide: {line}" for line in problems(axe, page)]
    roots = page.locator(".attn-lab, .attn-quiz")
    for k in range(roots.count() if "/" not in name else 0):
        at = show_slide_of(page, roots.nth(k))
        settled(page)
        found += [f"slide {at['h']}.{at['v']}: {line}" for line in problems(axe, page)]
    page.close()
    assert not found, f"{path.name}:\n" + "\n".join(found)
