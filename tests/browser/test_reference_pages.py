"""The glossary, the lecturer's guide and the sources are pages of the site in each edition (make site).

A site of notebook 00 in its three editions and the repository's reference pages (tools/reference_pages.py)
is built once; in chromium a reader opens each edition's index, follows "Glossary" under the Reference
heading, and lands on that edition's glossary page, marked as the current page in the contents, with the
bar, a language switch that leads to the same page in the other editions, and, in a Chinese edition, the
English text marked as English under a line in the page's language.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import build_site, offline_pages, reference_pages

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "zh-Hans", "zh-Hant")


@pytest.fixture(scope="module")
def reference_site(tmp_path_factory, page_packages) -> Path:
    notebooks = [ROOT / "notebooks" / folder / "00_start_here.ipynb" for folder in ("", "zh-Hans", "zh-Hant")]
    out = tmp_path_factory.mktemp("reference-site")
    build_site.build(notebooks, out, log=lambda *_: None, references=reference_pages.REFERENCES)
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_glossary_opens_from_the_index_of_each_edition(reference_site, page, language):
    folder = offline_pages.edition_folder(reference_site, language)
    words = build_site.WORDS[language]
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto((folder / "index.html").as_uri())
    heading = page.locator("h2.reference")
    assert heading.inner_text() == words["reference"]
    page.locator("ol.reference a.title", has_text="Glossary").click()
    page.wait_for_url("**/glossary.html")
    assert page.url == (folder / "glossary.html").as_uri()
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("main h1").first.inner_text().startswith("Glossary")
    assert page.locator("main table").first.is_visible()
    current = page.locator(".site-contents a[aria-current='page']")
    assert current.count() == 1 and current.get_attribute("href") == "glossary.html"
    side = page.locator(".site-contents").text_content()
    assert side.index(words["reference"]) > side.index("00 ·")  # listed after the notebooks
    assert page.locator("header.site-bar a[rel=prev], header.site-bar a[rel=next]").count() == 0
    marked = page.locator("main [lang=en]")
    if language == "en":
        assert marked.count() == 0
    else:
        assert marked.count() == 2 and page.get_by_text(words["glossary_note"]).is_visible()
    other = next(lang for lang in LANGUAGES if lang != language)
    page.locator(f".site-bar .languages a[hreflang='{other}']").first.click()
    page.wait_for_url("**/glossary.html")
    assert page.url == (offline_pages.edition_folder(reference_site, other) / "glossary.html").as_uri()
    assert page.evaluate("document.documentElement.lang") == other
    assert not errors, errors


def test_a_mention_of_the_sources_in_00_leads_to_the_sources_page(reference_site, page):
    folder = offline_pages.edition_folder(reference_site, "zh-Hans")
    page.goto((folder / "00_start_here.html").as_uri())
    page.locator("main a", has_text="docs/sources.md").first.click()
    page.wait_for_url("**/sources.html")
    assert page.url == (folder / "sources.html").as_uri()
    assert page.locator("main h1").first.inner_text().startswith("两篇参考文章")
