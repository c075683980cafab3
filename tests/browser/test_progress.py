"""The learner's work is kept in the browser (localStorage ``attn-progress-v1``), on the built site.

- A quiz of a page of the site keeps each question's first answer (and the answer on show): after a reload,
  and on the same notebook's page in another edition, the answers, their explanations and the score line
  ("1 of 4 right at the first try") are back, as Python words them; the contents mark the quiz done as soon
  as every question has a first answer, without a reload.
- The contents of the index and of a page mark, from a stored record, each notebook's exercises passed of
  its total (the exercise cells as tools/exercise_pages.py recognises them) and its quiz done, with words
  for a screen reader, in each edition's language; nothing is marked before any work.
- "Forget my work" asks once (a first press says what the second does), then clears the record only:
  the marks go, the quiz is blank again, and other entries of localStorage stay.
- With localStorage refused (a private window whose storage throws), the quiz still answers and scores, the
  page throws nothing, and the button does no harm.
- Served on loopback (`make serve`), a reload keeps the answers too.

Every page is opened from disk (file://) unless served, and no request leaves the machine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

import attnlib
from attnlib.quiz import as_html, feedback, quiz
from tools import build_site, offline_pages
from tools.browser.jupyter import NOTEBOOKS
from tools.browser.pages import Watch

KEY = "attn-progress-v1"
NOTEBOOK = "02_softmax"  # exercises and a quiz
LANGUAGES = ("en", "zh-Hans", "zh-Hant")

STORED_JS = "(key) => JSON.parse(localStorage.getItem(key))"
SHOWN_JS = """(root) => ({
    choices: JSON.parse(root.dataset.choices), first: JSON.parse(root.dataset.first),
    feedback: [...root.querySelectorAll('fieldset.question .feedback')].map((box) => box.innerHTML),
    checked: [...root.querySelectorAll('fieldset.question')].map(
        (group) => [...group.querySelectorAll('input[type=radio]')].findIndex((input) => input.checked)),
    score: root.querySelector('.score').textContent})"""
# The marks of one entry of the contents: {passed, done, text, labels}
MARK_JS = """([scope, notebook]) => {
    const item = document.querySelector(`${scope} li[data-notebook="${notebook}"]`);
    const mark = item.querySelector('.site-progress');
    return {passed: item.dataset.passed, done: item.dataset.quizDone, text: mark ? mark.textContent : null,
            labels: mark ? [...mark.children].map((part) => part.getAttribute('aria-label')) : []};
}"""
AS_PAGE_HTML = "(html) => { const d = document.createElement('div'); d.innerHTML = html; return d.innerHTML; }"


def url(site: Path, language: str, name: str) -> str:
    return (offline_pages.edition_folder(site, language) / name).as_uri()


def exercise_ids(stem: str = NOTEBOOK) -> list[str]:
    """The ids of a notebook's exercises, as the site counts them."""
    path = NOTEBOOKS / f"{stem}.ipynb"
    return build_site.exercise_ids(nbformat.read(path, as_version=4), path)


def number_of(stem: str = NOTEBOOK) -> int:
    return int(stem[:2])


def open_quiz(page, address: str):
    page.goto(address)
    root = page.locator(".attn-quiz")
    root.locator("fieldset.question").first.wait_for()
    root.scroll_into_view_if_needed()
    return root


def pick(root, question: int, option: int) -> None:
    root.locator(f'fieldset[data-question="{question}"] label.option[data-option="{option}"]').click()


def expected_view(page, language: str, choices: list, first: list) -> dict:
    """What a quiz with these answers shows, as Python words it in ``language``."""
    with attnlib.set_language(language):
        widget = quiz(number_of())
        notes = [[feedback(q, i) for i in range(len(q.options))] for q in widget.questions]
    right = sum(f is not None and notes[n][f][0] for n, f in enumerate(first))
    html = [page.evaluate(AS_PAGE_HTML, as_html(notes[n][c][1])) if c is not None else ""
            for n, c in enumerate(choices)]
    return {"choices": choices, "first": first, "feedback": html,
            "checked": [-1 if c is None else c for c in choices], "score": widget.spec["scores"][right]}


def questions() -> list:
    return quiz(number_of()).questions


def test_quiz_answers_are_kept_across_a_reload_and_the_editions(page, site):
    watch = Watch(page)
    root = open_quiz(page, url(site, "en", f"{NOTEBOOK}.html"))
    assert root.evaluate("(r) => r.attnQuiz.spec.notebook") == f"{number_of():02d}", (
        "the quiz stored in the notebook carries no notebook number: execute the notebooks again")
    qs = questions()
    wrong = (qs[1].answer + 1) % len(qs[1].options)
    pick(root, 0, qs[0].answer)
    pick(root, 1, wrong)
    pick(root, 1, qs[1].answer)  # the first try stays the wrong one
    blank = [None] * len(qs)
    choices, first = [qs[0].answer, qs[1].answer, *blank[2:]], [qs[0].answer, wrong, *blank[2:]]
    stored = page.evaluate(STORED_JS, KEY)
    assert stored["quiz"][f"{number_of():02d}"] == {"first": first, "n": len(qs), "choices": choices}, stored
    assert page.evaluate(MARK_JS, [".site-side", f"{number_of():02d}"])["done"] == "false"

    page.reload()
    root = open_quiz(page, page.url)
    assert page.evaluate(SHOWN_JS, root.element_handle()) == expected_view(page, "en", choices, first)

    for language in LANGUAGES[1:]:  # the same notebook in another edition: the same answers, in its words
        root = open_quiz(page, url(site, language, f"{NOTEBOOK}.html"))
        assert page.evaluate(SHOWN_JS, root.element_handle()) == expected_view(page, language, choices, first)

    for n in range(2, len(qs)):  # every question answered: the contents mark the quiz done, live
        pick(root, n, qs[n].answer)
    mark = page.evaluate(MARK_JS, [".site-side", f"{number_of():02d}"])
    done = build_site.WORDS["zh-Hant"]["progress_quiz"]
    assert mark["done"] == "true" and mark["text"] == "✓" and mark["labels"] == [done], mark
    watch.check()


def stored_progress(passed: int) -> dict:
    """A record: ``passed`` exercises of NOTEBOOK passed (and code for one more), the quiz of 01 done and
    that of 03 half answered."""
    ids = exercise_ids()
    return {"code": {ids[0]: "def my_softmax(x):\n    return x\n"},
            "passed": {i: True for i in ids[:passed]},
            "quiz": {"01": {"first": [0, 1, 2], "n": 3, "choices": [0, 1, 2]},
                     "03": {"first": [0, None, None], "n": 3, "choices": [0, None, None]}}}


def store(page, record: dict) -> None:
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, json.dumps(record)])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contents_mark_the_work_stored_in_each_language(page, site, language):
    watch = Watch(page)
    words = build_site.WORDS[language]
    ids = exercise_ids()
    assert len(ids) >= 2, ids
    page.goto(url(site, language, "index.html"))
    assert page.locator(".site-progress").count() == 0  # nothing stored: nothing marked
    assert page.locator(".site-kept p:first-child").inner_text() == words["progress_kept"]
    assert page.locator(".site-forget-button").inner_text() == words["forget"]
    record = stored_progress(len(ids) - 1)
    store(page, record)
    page.reload()
    said = words["progress_exercises"].format(n=len(ids) - 1, total=len(ids))
    mark = page.evaluate(MARK_JS, [".site-index", f"{number_of():02d}"])
    assert mark["passed"] == str(len(ids) - 1) and mark["text"] == said, mark  # the index says it in words
    first = page.evaluate(MARK_JS, [".site-index", "01"])
    assert first["done"] == "true" and first["text"] == words["progress_quiz"], first
    assert page.evaluate(MARK_JS, [".site-index", "03"])["text"] is None  # a quiz half answered: no mark
    # drawn in the regular face: the bundled bold CJK face holds only the characters of bold text
    weights = page.evaluate("() => [...document.querySelectorAll('.site-progress > *')].map("
                            "(part) => getComputedStyle(part).fontWeight)")
    assert weights and all(int(w) < 600 for w in weights), weights

    page.goto(url(site, language, "03_weighted_sum.html"))  # the contents beside a page: signs with their words
    mark = page.evaluate(MARK_JS, [".site-side", f"{number_of():02d}"])
    assert mark["text"] == f"{len(ids) - 1}/{len(ids)}" and mark["labels"] == [said], mark
    assert page.evaluate(MARK_JS, [".site-side", "01"])["labels"] == [words["progress_quiz"]]
    others = page.locator(".site-side li[data-notebook]:not([data-notebook='01']):not([data-notebook='02'])")
    assert others.count() >= 5 and others.locator(".site-progress").count() == 0

    store(page, {**record, "passed": {i: True for i in ids}})  # the last one passed, told as the kit tells it
    page.evaluate("(key) => window.dispatchEvent(new CustomEvent('attn-progress', "
                  "{detail: JSON.parse(localStorage.getItem(key))}))", KEY)
    mark = page.evaluate(MARK_JS, [".site-side", f"{number_of():02d}"])
    assert mark["text"] == f"{len(ids)}/{len(ids)}", mark
    assert page.locator(".site-side .site-progress-all").count() == 1
    watch.check()


def test_forget_asks_once_then_clears_the_work_and_only_it(page, site):
    watch = Watch(page)
    root = open_quiz(page, url(site, "en", f"{NOTEBOOK}.html"))
    record = stored_progress(2)
    store(page, record)
    page.evaluate("() => localStorage.setItem('attn-notes-hidden', '1')")  # another entry, not ours
    page.reload()
    root = open_quiz(page, page.url)
    pick(root, 0, questions()[0].answer)
    button = page.locator(".site-side .site-forget-button")
    status = page.locator(".site-side .site-forget-status")
    words = build_site.WORDS["en"]
    assert page.locator(".site-side .site-progress").count() >= 1

    button.click()  # asks
    assert status.inner_text() == words["forget_again"]
    assert page.evaluate(STORED_JS, KEY)["passed"] == record["passed"]
    page.locator("main h1").first.click()  # focus elsewhere: the question is withdrawn
    assert status.inner_text() == "" and page.evaluate(STORED_JS, KEY) is not None

    button.click()
    button.click()  # asked, then confirmed
    assert status.inner_text() == words["forgotten"]
    assert page.evaluate(STORED_JS, KEY) is None
    assert page.evaluate("() => localStorage.getItem('attn-notes-hidden')") == "1"
    assert page.locator(".site-progress").count() == 0
    shown = page.evaluate(SHOWN_JS, root.element_handle())
    assert shown["choices"] == [None] * len(questions()) and shown["checked"] == [-1] * len(questions())
    pick(root, 0, questions()[0].answer)  # new work: "forgotten" is no longer said
    assert status.inner_text() == "" and page.evaluate(STORED_JS, KEY)["quiz"]
    page.evaluate("(key) => localStorage.removeItem(key)", KEY)
    page.reload()
    assert page.locator(".site-progress").count() == 0
    watch.check()


REFUSED_JS = """() => {
    Object.defineProperty(window, 'localStorage', {configurable: true, get() {
        throw new DOMException('The user denied access to storage', 'SecurityError');
    }});
}"""


def test_without_storage_the_page_still_works(page, site):
    page.add_init_script(f"({REFUSED_JS})()")
    watch = Watch(page)
    root = open_quiz(page, url(site, "en", f"{NOTEBOOK}.html"))
    assert page.evaluate("() => { try { localStorage; return false; } catch { return true; } }")
    qs = questions()
    pick(root, 0, qs[0].answer)
    pick(root, 1, (qs[1].answer + 1) % len(qs[1].options))
    blank = [None] * len(qs)
    first = [qs[0].answer, (qs[1].answer + 1) % len(qs[1].options), *blank[2:]]
    assert page.evaluate(SHOWN_JS, root.element_handle()) == expected_view(page, "en", first, first)
    button = page.locator(".site-side .site-forget-button")
    button.click()
    button.click()
    assert page.locator(".site-side .site-forget-status").inner_text() == build_site.WORDS["en"]["forgotten"]
    assert page.locator(".site-progress").count() == 0
    watch.check()  # nothing thrown


def test_served_from_loopback_a_reload_keeps_the_answers(page, served_site):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    outside: list[str] = []
    page.route(re.compile(r"^(?!http://127\.0\.0\.1[:/]|data:|blob:).*"),
               lambda route: (outside.append(route.request.url), route.abort()))
    root = open_quiz(page, f"{served_site}{NOTEBOOK}.html")
    qs = questions()
    pick(root, 0, qs[0].answer)
    page.reload()
    root = open_quiz(page, page.url)
    blank = [None] * len(qs)
    chosen = [qs[0].answer, *blank[1:]]
    assert page.evaluate(SHOWN_JS, root.element_handle()) == expected_view(page, "en", chosen, chosen)
    assert not errors and not outside, (errors, outside)


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "dark")])
def test_the_marks_and_the_button_pass_the_audit(browser, site, width, scheme):
    """axe-core's WCAG rules on the marks (index and a page's contents) and the forget button, asked once."""
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    try:
        found = []
        for name in ("index.html", "03_weighted_sum.html"):
            page.goto(url(site, "zh-Hans", name))
            store(page, stored_progress(2))
            page.reload()
            page.evaluate("() => document.querySelectorAll('details.site-toc').forEach((t) => { t.open = true; })")
            page.locator(".site-forget-button").first.click()
            assert page.locator(".site-progress").count() >= 2
            violations = Axe().run(page, context={"include": [[".site-progress"], [".site-forget"]]}).response
            found += [f"{name}: {v['id']} ({v['impact']}): {n['target']}" for v in violations["violations"]
                      if v["impact"] in ("serious", "critical") for n in v["nodes"]]
        assert not found, "\n".join(found)
    finally:
        context.close()


def test_another_tab_s_work_reaches_the_contents_at_once(page, site):
    """A pass written in one tab of the site is marked in another tab's contents, with no reload."""
    watch = Watch(page)
    page.goto(url(site, "en", "index.html"))
    other = page.context.new_page()
    try:
        other.goto(url(site, "en", "03_weighted_sum.html"))
        store(other, stored_progress(1))
        page.wait_for_function("() => document.querySelector('li[data-notebook=\"02\"] .site-progress')")
        assert page.evaluate(MARK_JS, [".site-index", f"{number_of():02d}"])["passed"] == "1"
        other.evaluate("(key) => localStorage.removeItem(key)", KEY)
        page.wait_for_function("() => !document.querySelector('.site-progress')")
    finally:
        other.close()
    watch.check()
