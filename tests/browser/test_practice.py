"""Every exercise of the site, checked in the page's own Python (Chromium, the site served on 127.0.0.1).

- For every notebook page, English and 简体 (繁體: one page), every case of tests/practice_cases.py (the
  starting code, the worked answer, each known mistake of the checker's table) is put into its editor card
  and checked: the page's verdict (its text, its cause, what ``check`` resolves to) equals what the runner
  says in CPython for the same code and language (tests/test_practice_cases.py holds the runner to the
  expected causes). One visit per page, all its cases there.
- Typed with the keyboard (select all, type, Ctrl+Enter): right.
- A syntax error names its line; an exception its last line and the learner's line; an import of the page
  is refused; ``while True: pass`` is stopped after the time limit, the page's lab still follows its slider
  meanwhile, the code is kept, and the next check works.
- A reload keeps the code and the pass (the contents' mark too).
- No request of any of these leaves 127.0.0.1.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from attnlib.exercises.practice import run
from tests.browser.conftest import screenshot_if_failed
from tests.practice_cases import cases, exercise_cells

PYTHON_MS = 240_000  # Python's first start on a busy 2-core machine takes tens of seconds
STEMS = sorted({cell.exercise.split("/")[0] for cell in exercise_cells("en")})
PAGES = [(language, stem) for language in ("en", "zh-Hans") for stem in STEMS] + [("zh-Hant", "02_softmax")]
SOFTMAX = "02_softmax/my_softmax"  # a page with exercises, a lab and a quiz
SOFTMAX_CHECK = "exercises.check_softmax_rows(my_softmax)"

# Resolves once the page's Python is ready (or says why not), within `ms`.
READY_JS = """async (ms) => {
  for (let i = 0; i < 600 && !window.attnPractice; i += 1) await new Promise((r) => setTimeout(r, 100));
  if (!window.attnPractice) return 'no window.attnPractice';
  const late = new Promise((r) => setTimeout(() => r('not ready after ' + ms + ' ms'), ms));
  const ready = window.attnPractice.ready.then(() => true, (e) => 'failed: ' + e);
  const said = await Promise.race([ready, late]);
  const status = document.querySelector('.attn-python-status');
  return said === true ? true : said + ' (status: ' + (status && status.dataset.state) + ')';
}"""

# What the page shows for one card: its state, its verdict and error elements.
CARD_JS = """(id) => {
  const card = document.querySelector(`.attn-practice[data-exercise="${id}"]`);
  if (!card) return null;
  const verdict = card.querySelector('.attn-practice-verdict'), error = card.querySelector('.attn-practice-error');
  return {
    state: card.dataset.state,
    verdict: verdict && {text: verdict.textContent, cause: verdict.dataset.cause, ok: verdict.dataset.ok},
    error: error && {kind: error.dataset.kind, line: error.dataset.line ?? null, text: error.textContent},
  };
}"""

# Each case in turn: its code put in, checked; what `check` resolved to and what the card shows.
CHECK_ALL_JS = """async (cases) => {
  const card = CARD;
  const shown = [];
  for (const c of cases) {
    window.attnPractice.setCode(c.exercise, c.code);
    const result = await window.attnPractice.check(c.exercise);
    shown.push({result, card: card(c.exercise), code: window.attnPractice.code(c.exercise)});
  }
  return shown;
}""".replace("CARD", CARD_JS)

CARDS_JS = "() => Array.from(document.querySelectorAll('.attn-practice'), (card) => card.dataset.exercise)"


def page_url(base: str, language: str, stem: str) -> str:
    return base + ("" if language == "en" else f"{language}/") + f"{stem}.html"


@pytest.fixture(scope="module")
def context(browser):
    """One browser context for the module: pages after the first get the runtime from the HTTP cache."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.requests = []
    context.on("request", lambda request: context.requests.append(request.url))
    yield context
    context.close()


@pytest.fixture
def page(context, request):
    page = context.new_page()
    yield page
    screenshot_if_failed(request, page)
    page.close()


def open_with_python(page, url: str) -> None:
    page.goto(url)
    said = page.evaluate(READY_JS, PYTHON_MS)
    assert said is True, f"{url}: the page's Python is {said}"


def foreign(requests: list[str], base: str) -> list[str]:
    """The requests that went anywhere but the served site on 127.0.0.1."""
    host = urlsplit(base).netloc
    return [url for url in requests
            if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).netloc != host]


def expected(code: str, check: str | None, language: str) -> dict:
    return run(code, check, language)


@pytest.mark.parametrize(("language", "stem"), PAGES, ids=[f"{lang}-{stem}" for lang, stem in PAGES])
def test_every_case_of_every_exercise_gets_the_runners_verdict(page, served_site, language, stem):
    mine = [case for case in cases(language) if case.exercise.startswith(f"{stem}/")]
    open_with_python(page, page_url(served_site, language, stem))
    on_page = page.evaluate(CARDS_JS)
    assert {case.exercise for case in mine} | {f"{stem}/scratch"} == set(on_page), on_page
    shown = page.evaluate(CHECK_ALL_JS, [case._asdict() for case in mine])
    problems = []
    for case, seen in zip(mine, shown, strict=True):
        want = expected(case.code, case.check, language)["verdict"]
        got = seen["card"]["verdict"] or {}
        if seen["code"] != case.code:
            problems.append(f"{case.id}: the editor holds other code than was set")
        if seen["result"]["verdict"] != want or seen["result"]["error"] is not None:
            problems.append(f"{case.id}: check() gave {seen['result']['verdict']} / {seen['result']['error']}, "
                            f"CPython {want}")
        if (got.get("text"), got.get("cause"), got.get("ok")) != (want["text"], want["cause"],
                                                                  str(want["ok"]).lower()):
            problems.append(f"{case.id}: the card shows {got}, CPython says {want}")
        if seen["card"]["state"] != "done" or seen["card"]["error"] is not None:
            problems.append(f"{case.id}: the card is {seen['card']['state']} with error {seen['card']['error']}")
    assert not problems, f"{len(problems)} of {len(mine)} cases:\n" + "\n".join(problems)
    assert not foreign(page.context.requests, served_site)


# The worked answer as typed: CodeMirror indents after the `def` line itself, so no line is typed indented.
TYPED = [
    "def my_softmax(scores):",
    "e = np.exp(scores - scores.max(axis=-1, keepdims=True))",
    "return e / e.sum(axis=-1, keepdims=True)",
]


def test_typed_with_the_keyboard_the_worked_answer_is_right(page, served_site):
    open_with_python(page, page_url(served_site, "en", "02_softmax"))
    card = page.locator(f'.attn-practice[data-exercise="{SOFTMAX}"]')
    card.scroll_into_view_if_needed()  # the editor is set up as its card comes near the view
    card.locator(".cm-content").click()
    page.keyboard.press("ControlOrMeta+a")
    for i, line in enumerate(TYPED):
        if i:
            page.keyboard.press("Enter")
        page.keyboard.type(line)
    page.keyboard.press("ControlOrMeta+Enter")
    verdict = card.locator('.attn-practice-verdict[data-ok="true"]')
    verdict.wait_for(timeout=60_000)
    code = page.evaluate("(id) => window.attnPractice.code(id)", SOFTMAX)
    assert [line.strip() for line in code.strip().splitlines()] == TYPED, code
    want = expected(code, SOFTMAX_CHECK, "en")["verdict"]
    assert want["ok"] and verdict.text_content() == want["text"]
    assert not foreign(page.context.requests, served_site)


SYNTAX = "def my_softmax(scores):\n    e = np.exp(scores\n    return e / e.sum(axis=-1, keepdims=True)\n"
EXCEPTION = "weights = np.ones(3)\ntotal = weights.sum()\nweights[5]\n"
REFUSED = "import js\n"


@pytest.mark.parametrize(("code", "kind", "line"), [(SYNTAX, "syntax", 2), (EXCEPTION, "exception", 3),
                                                    (REFUSED, "refused", 1)],
                         ids=["syntax", "exception", "refused"])
@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_an_error_names_its_line_and_says_its_last_line(page, served_site, code, kind, line, language):
    open_with_python(page, page_url(served_site, language, "02_softmax"))
    result = page.evaluate("async ([id, code]) => { window.attnPractice.setCode(id, code);"
                           " return await window.attnPractice.check(id); }", [SOFTMAX, code])
    want = expected(code, SOFTMAX_CHECK, language)["error"]
    assert want["kind"] == kind and want["line"] == line
    assert result["error"] == want and result["verdict"] is None
    shown = page.evaluate(CARD_JS, SOFTMAX)
    assert shown["verdict"] is None, shown
    assert shown["error"]["kind"] == kind and shown["error"]["line"] == str(line), shown
    assert want["message"] in shown["error"]["text"], shown
    assert page.evaluate("(id) => window.attnPractice.code(id)", SOFTMAX) == code
    assert not foreign(page.context.requests, served_site)


# `while True: pass` checked with a short limit; while it runs, the lab's first slider moved to its end
# (as a drag ends) and two animation frames awaited; after it is stopped, the code kept and the worked
# answer checked (the limit generous again: the new worker loads Python first).
LOOP = "def my_softmax(scores):\n    return scores\n\nwhile True: pass\n"
LOOP_JS = """async ([id, loop, right, limit]) => {
  const P = window.attnPractice, card = () => document.querySelector(`.attn-practice[data-exercise="${id}"]`);
  const lab = document.querySelector('.attn-lab'), readout = () => lab.querySelector('.readout').textContent;
  P.setTimeLimit(limit);
  P.setCode(id, loop);
  const started = performance.now();
  const pending = P.check(id);
  await new Promise((r) => setTimeout(r, 300));
  const during = card().dataset.state, before = readout();
  const slider = lab.querySelector('input[type=range]');
  slider.value = slider.value === slider.max ? slider.min : slider.max;
  slider.dispatchEvent(new Event('input', {bubbles: true}));
  const frame = performance.now();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const frames = performance.now() - frame, moved = readout() !== before;
  const result = await pending;
  const stoppedAfter = performance.now() - started;
  const error = card().querySelector('.attn-practice-error');
  const stopped = {kind: error && error.dataset.kind, text: error && error.textContent, state: card().dataset.state};
  const kept = P.code(id);
  P.setTimeLimit(120000);
  P.setCode(id, right);
  const next = await P.check(id);
  return {during, moved, frames, result, stoppedAfter, stopped, kept, next};
}"""


def test_an_endless_loop_is_stopped_the_page_stays_responsive_and_the_next_check_works(page, served_site):
    open_with_python(page, page_url(served_site, "en", "02_softmax"))
    right = next(c for c in cases("en") if c.exercise == SOFTMAX and c.cause == "correct")
    seen = page.evaluate(LOOP_JS, [SOFTMAX, LOOP, right.code, 1500])
    assert seen["during"] == "running", seen
    assert seen["moved"] and seen["frames"] < 1000, f"the lab did not follow its slider while Python ran: {seen}"
    assert seen["stoppedAfter"] >= 1500, seen
    assert seen["stopped"]["kind"] == "timeout" and seen["stopped"]["text"], seen
    assert seen["stopped"]["state"] == "done", seen
    assert seen["kept"] == LOOP
    assert seen["next"]["verdict"] == expected(right.code, right.check, "en")["verdict"], seen["next"]
    assert seen["next"]["verdict"]["ok"]
    assert not foreign(page.context.requests, served_site)


def test_a_reload_keeps_the_code_and_the_pass(browser, served_site, request):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    try:
        open_with_python(page, page_url(served_site, "en", "02_softmax"))
        right = next(c for c in cases("en") if c.exercise == SOFTMAX and c.cause == "correct")
        code = right.code.replace("# the row maximum", "# mine: the row maximum")
        result = page.evaluate("async ([id, code]) => { window.attnPractice.setCode(id, code);"
                               " return await window.attnPractice.check(id); }", [SOFTMAX, code])
        assert result["verdict"]["ok"], result
        page.reload()
        open_with_python(page, page.url)
        assert page.evaluate("(id) => window.attnPractice.code(id)", SOFTMAX) == code
        stored = page.evaluate("() => JSON.parse(localStorage.getItem('attn-progress-v1'))")
        assert stored["passed"].get(SOFTMAX) is True and stored["code"][SOFTMAX] == code
        mark = page.locator('li[data-notebook="02"]').first
        assert int(mark.get_attribute("data-passed")) >= 1
        assert any(url.endswith("/py/pyodide.asm.wasm") for url in requests), "the worker's requests unseen"
        assert not foreign(requests, served_site)
    finally:
        screenshot_if_failed(request, page)
        context.close()
