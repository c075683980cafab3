"""The editor card of the site (attnlib/page/practice.js) in Chromium, on a small site served on loopback
(tools/serve.py) as `make serve` serves it, and from disk:

- typed code and Ctrl+Enter give the checker's verdict, the very text and cause CPython's runner gives for the
  same code (attnlib.exercises.practice.run); a wrong answer names its mistake; the code is kept across a
  reload; Reset brings the starting code back and forgets the kept one;
- a syntax error and an exception name the line, which the editor marks;
- `while True: pass` is stopped after the time limit, the page answers meanwhile, the code stays, and the
  next check works;
- a 繁體 page's card speaks 繁體, its verdict too;
- from file:// no Python starts: the status line and a check say, in one sentence, to run `make serve`, and
  the code stays editable (Tab indents; Esc then Tab leaves the editor);
- without its editor script the card keeps a plain text box, which checks the same way.

H6's tests (tests/browser/test_practice.py) run every exercise of every page; these test the card itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attnlib.exercises.practice import run
from tools.browser.jupyter import NOTEBOOKS

KEY = "attn-progress-v1"
ID = "02_softmax/my_softmax"
CHECK = "exercises.check_softmax_rows(my_softmax)"
RIGHT = f"""def my_softmax(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

{CHECK}
"""
WRONG = f"""def my_softmax(scores):
    return np.exp(scores) / np.exp(scores).sum()

{CHECK}
"""
CARD = f'.attn-practice[data-exercise="{ID}"]'


@pytest.fixture(scope="module")
def small_site(tmp_path_factory, page_packages) -> Path:
    """The pages of 02 in English and 繁體 (and the reference pages), built as `make site` builds them."""
    from tools import build_site

    out = tmp_path_factory.mktemp("practice-site")
    build_site.build([NOTEBOOKS / "02_softmax.ipynb", NOTEBOOKS / "zh-Hant" / "02_softmax.ipynb"], out,
                     log=lambda *_: None)
    return out


@pytest.fixture(scope="module")
def served(small_site):
    from tools.serve import Server

    with Server(small_site, quiet=True) as server:
        yield server.url


def open_card(page, address: str):
    page.goto(address)
    page.locator(CARD).scroll_into_view_if_needed()  # the editor is set up as its card comes near the view
    page.wait_for_selector(f"{CARD} .cm-editor")
    return page.locator(CARD)


def ready(page) -> None:
    page.evaluate("window.attnPractice.ready")
    assert page.locator(".attn-python-status").get_attribute("data-state") == "ready"


def verdict_of(card) -> dict:
    found = card.locator(".attn-practice-verdict")
    return {"text": found.text_content(), "ok": found.get_attribute("data-ok") == "true",
            "cause": found.get_attribute("data-cause")}


def test_typed_code_is_checked_as_cpython_checks_it_kept_and_reset(page, served):
    card = open_card(page, served + "02_softmax.html")
    assert page.locator(".attn-python-status").count() == 1
    starting = page.evaluate(f"window.attnPractice.code({ID!r})")
    assert "raise NotImplementedError" in starting and CHECK in starting
    ready(page)
    card.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(RIGHT)
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(f"{CARD}[data-state=done] .attn-practice-verdict")
    expected = run(RIGHT, CHECK, "en")["verdict"]
    assert verdict_of(card) == {"text": expected["text"], "ok": True, "cause": expected["cause"]}
    assert page.evaluate(f"(key) => JSON.parse(localStorage.getItem(key)).passed[{ID!r}]", KEY) is True

    page.evaluate(f"window.attnPractice.setCode({ID!r}, {WRONG!r})")
    card.locator("button.attn-practice-check").click()
    page.wait_for_function(f"document.querySelector('{CARD} .attn-practice-verdict')?.dataset.ok === 'false'")
    expected = run(WRONG, CHECK, "en")["verdict"]
    assert verdict_of(card) == {"text": expected["text"], "ok": False, "cause": expected["cause"]}

    page.reload()
    page.locator(CARD).scroll_into_view_if_needed()
    page.wait_for_selector(f"{CARD} .cm-editor")
    assert page.evaluate(f"window.attnPractice.code({ID!r})") == WRONG  # kept before it ran
    card.locator("button.attn-practice-reset").click()
    assert page.evaluate(f"window.attnPractice.code({ID!r})") == starting
    stored = page.evaluate("(key) => JSON.parse(localStorage.getItem(key))", KEY)
    assert ID not in stored["code"] and stored["passed"][ID] is True


def test_an_error_names_the_line_and_the_editor_marks_it(page, served):
    card = open_card(page, served + "02_softmax.html")
    ready(page)
    page.evaluate(f"window.attnPractice.setCode({ID!r}, 'x = 1\\ny = [1, 2\\n')")
    result = page.evaluate(f"window.attnPractice.check({ID!r})")
    error = card.locator(".attn-practice-error")
    assert (error.get_attribute("data-kind"), error.get_attribute("data-line")) == ("syntax", "2")
    assert error.text_content() == f"Syntax error on line 2: {result['error']['message']}"
    assert card.locator(".cm-line.attn-error-line").text_content() == "y = [1, 2"

    code = "def f(x):\n    return x / 0\n\nf(1)\n"
    page.evaluate(f"window.attnPractice.setCode({ID!r}, {code!r})")
    page.evaluate(f"window.attnPractice.check({ID!r})")
    assert (error.get_attribute("data-kind"), error.get_attribute("data-line")) == ("exception", "2")
    assert error.text_content() == "Error on line 2 of your code: ZeroDivisionError: division by zero"
    assert card.locator(".cm-line.attn-error-line").text_content() == "    return x / 0"
    page.evaluate(f"window.attnPractice.setCode({ID!r}, 'y = 2\\n')")  # an edit takes the mark away
    assert card.locator(".cm-line.attn-error-line").count() == 0


def test_an_endless_loop_is_stopped_the_code_kept_and_the_next_check_works(page, served):
    card = open_card(page, served + "02_softmax.html")
    ready(page)
    page.evaluate("window.attnPractice.setTimeLimit(1500)")
    page.evaluate(f"window.attnPractice.setCode({ID!r}, 'while True: pass\\n')")
    card.locator("button.attn-practice-check").click()
    page.wait_for_selector(f"{CARD}[data-state=running]")
    assert page.evaluate("1 + 1") == 2  # the page answers while the loop runs
    page.wait_for_selector(f"{CARD} .attn-practice-error[data-kind=timeout]", timeout=10_000)
    assert "1.5 s" in card.locator(".attn-practice-error").text_content()
    assert page.evaluate(f"window.attnPractice.code({ID!r})") == "while True: pass\n"
    page.evaluate("window.attnPractice.setTimeLimit(5000)")
    page.evaluate(f"window.attnPractice.setCode({ID!r}, {RIGHT!r})")
    result = page.evaluate(f"window.attnPractice.check({ID!r})")  # waits for the new worker
    assert result["verdict"]["ok"] and verdict_of(card)["ok"]
    assert page.locator(".attn-python-status").get_attribute("data-state") == "ready"


def test_a_traditional_chinese_card_speaks_traditional_chinese(page, served):
    card = open_card(page, served + "zh-Hant/02_softmax.html")
    assert card.locator("button.attn-practice-check").text_content() == "檢查"
    assert card.locator("button.attn-practice-reset").text_content() == "重置"
    ready(page)
    assert page.locator(".attn-python-status").text_content() == "Python：已就緒"
    page.evaluate(f"window.attnPractice.setCode({ID!r}, {WRONG!r})")
    page.evaluate(f"window.attnPractice.check({ID!r})")
    expected = run(WRONG, CHECK, "zh-Hant")["verdict"]
    assert verdict_of(card) == {"text": expected["text"], "ok": False, "cause": expected["cause"]}
    scratch = page.locator('.attn-practice[data-exercise="02_softmax/scratch"]')
    assert scratch.locator("button.attn-practice-run").text_content() == "執行"


def test_from_disk_the_card_says_how_to_serve_the_site_and_stays_editable(page, small_site):
    card = open_card(page, (small_site / "02_softmax.html").as_uri())
    status = page.locator(".attn-python-status")
    page.wait_for_function("document.querySelector('.attn-python-status').dataset.state === 'unavailable'")
    assert "make serve" in status.text_content()
    card.locator("button.attn-practice-check").click()
    page.wait_for_selector(f"{CARD}[data-state=done] .attn-practice-note")
    assert card.locator(".attn-practice-note").text_content() == status.text_content()
    card.locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# mine")
    assert page.evaluate(f"window.attnPractice.code({ID!r})").endswith("# mine")
    page.wait_for_function(f"JSON.parse(localStorage.getItem({KEY!r})).code[{ID!r}].endsWith('# mine')")  # kept
    page.keyboard.press("Tab")  # indents the line, in the editor
    assert page.evaluate(f"window.attnPractice.code({ID!r})").endswith("\n    # mine")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")  # leaves it, to the card's first button
    assert page.evaluate("document.activeElement.className") == "attn-practice-check"


def test_without_the_editor_script_a_plain_text_box_checks_the_code(browser, served):
    # No service worker: its own fetch of the editor would pass by the page's route that refuses it.
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, service_workers="block")
    page = context.new_page()
    try:
        page.route("**/assets/editor.js", lambda route: route.abort())
        page.goto(served + "02_softmax.html")
        box = page.locator(f"{CARD} textarea.attn-practice-text")
        box.wait_for()
        assert page.locator(f"{CARD} .cm-editor").count() == 0
        assert box.get_attribute("aria-label") == "Your code for my_softmax"
        ready(page)
        box.fill(RIGHT)
        box.press("Control+Enter")
        page.wait_for_selector(f"{CARD}[data-state=done] .attn-practice-verdict")
        assert verdict_of(page.locator(CARD))["text"] == run(RIGHT, CHECK, "en")["verdict"]["text"]
        assert page.locator(f"{CARD} .cm-editor").count() == 0  # it stayed a text box
    finally:
        context.close()
