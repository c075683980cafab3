"""The quizzes work where no kernel runs: on the website and on the offline slides, in all three languages.

The site is built once per session with tools/build_site.py from the notebooks under test (the repo's
``notebooks/`` with its two Chinese editions, or ``ATTNLIB_NOTEBOOKS``), and every page is opened as a
file:// page in chromium. On every page of every edition the questions of the quiz are answered by
clicking, every other one right at once and the others wrong first (each wrong option in turn) and then
right, and after each click the feedback on show and the score are compared with Python:
``attnlib.quiz.feedback`` in that language for that option, and the count of questions answered right at the
first try (a question answered right only after a wrong try does not count). Every request must stay on disk (file: or data:), and no
script may throw.

On one page the quiz is used with the keyboard alone: Tab reaches the first question's group, the arrow
keys choose (and the feedback follows), Tab goes on to the next question.

The offline decks of one notebook are built for each language: on the quiz's slide each question is
answered wrong then right with the same checks, the arrow keys used inside the quiz choose options and
never change the slide, and the quiz with every feedback line showing still fits its 1280×720 slide.

Building needs the pinned npm packages in node_modules/ or npm to install them (the ``page_packages``
fixture); without either the tests are skipped with the reason (a learner's machine), and in CI they fail.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import attnlib
from attnlib.quiz import as_html, feedback, quiz
from tools import build_slides, offline_pages
from tools.browser.jupyter import NOTEBOOKS
from tools.browser.pages import Watch, on_its_slide, show_slide_of

ROOT = Path(__file__).resolve().parents[2]

LANGUAGES = ("en", "zh-Hans", "zh-Hant")
QUIZ_CALL = re.compile(r"\bquiz\.quiz\((\d+)\)")


def edition(language: str) -> Path:
    return NOTEBOOKS if language == "en" else NOTEBOOKS / language


def quiz_number(path: Path) -> int | None:
    """The bank number of the quiz a notebook shows (``attnlib.quiz.quiz(N)``), or None."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = [int(m) for c in cells if c["cell_type"] == "code" for m in QUIZ_CALL.findall("".join(c["source"]))]
    assert len(found) <= 1, f"{path.name} shows {len(found)} quizzes; this test expects one per notebook"
    return found[0] if found else None


def with_quizzes() -> list[tuple[str, Path]]:
    return [(lang, p) for lang in LANGUAGES for p in sorted(edition(lang).glob("[0-9][0-9]_*.ipynb"))
            if quiz_number(p) is not None]


@pytest.fixture(scope="session")
def quiz_decks(tmp_path_factory, page_packages) -> dict[str, Path]:
    """The deck of the first notebook with a quiz, in each language."""
    first = next(p for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) if quiz_number(p) is not None)
    paths = [edition(lang) / first.name for lang in LANGUAGES]
    out = tmp_path_factory.mktemp("quiz-slides")
    decks = build_slides.build(paths, out, log=lambda *_: None)
    return {offline_pages.edition_of(path): deck for path, deck in zip(paths, decks, strict=True)}


# What the page shows for one question, and the score line (HTML as the page serialises it).
SHOWN_JS = """([root, n]) => {
    const group = root.querySelector(`fieldset[data-question="${n}"]`);
    const box = group.querySelector('.feedback');
    return {feedback: box.innerHTML, right: box.classList.contains('right'), wrong: box.classList.contains('wrong'),
            live: box.getAttribute('aria-live'), checked: [...group.querySelectorAll('input[type=radio]')]
                .findIndex(i => i.checked),
            score: root.querySelector('.score').textContent, choices: JSON.parse(root.dataset.choices),
            first: JSON.parse(root.dataset.first)};
}"""
AS_PAGE_HTML = "(html) => { const d = document.createElement('div'); d.innerHTML = html; return d.innerHTML; }"


class Expected:
    """Python's quiz for a notebook in a language: what the page must show for each option."""

    def __init__(self, number: int, language: str) -> None:
        with attnlib.set_language(language):
            self.quiz = quiz(number)
            self.notes = [[feedback(q, i) for i in range(len(q.options))] for q in self.quiz.questions]
        self.scores = self.quiz.spec["scores"]


def answer_every_question(page, root, expected: Expected, where: str, after_click=None) -> list[str]:
    """Click the right option of every other question at once, and every wrong option of the others before
    the right one; compare every step with Python, the score counting the first tries only."""
    problems = []
    handle = root.element_handle()
    at_first = 0  # questions answered right at the first try so far
    for n, q in enumerate(expected.quiz.questions):
        wrong = [i for i in range(len(q.options)) if i != q.answer]
        order = [q.answer] if n % 2 == 0 else [*wrong, q.answer]
        at_first += n % 2 == 0
        for i in order:
            root.locator(f'fieldset[data-question="{n}"] label.option[data-option="{i}"]').click()
            if after_click:
                after_click(f"{where} q{n + 1} option {i}")
            shown = page.evaluate(SHOWN_JS, [handle, n])
            right, text = expected.notes[n][i]
            want = page.evaluate(AS_PAGE_HTML, as_html(text))
            at = f"{where} question {n + 1}, option {'abcdefgh'[i]}"
            if shown["feedback"] != want:
                problems.append(f"{at}: feedback {shown['feedback']!r}, Python says {want!r}")
            if (shown["right"], shown["wrong"]) != (right, not right):
                problems.append(f"{at}: marked right={shown['right']} wrong={shown['wrong']}, expected right={right}")
            score = expected.scores[at_first]
            if shown["score"] != score:
                problems.append(f"{at}: score {shown['score']!r}, expected {score!r}")
            if shown["checked"] != i or shown["choices"][n] != i or shown["first"][n] != order[0]:
                problems.append(f"{at}: option {shown['checked']} checked, choices {shown['choices']}, "
                                f"first tries {shown['first']}")
            if shown["live"] != "polite":
                problems.append(f"{at}: the feedback is not announced (aria-live {shown['live']!r})")
    return problems


def page_url(site: Path, language: str, path: Path) -> str:
    return (offline_pages.edition_folder(site, language) / f"{path.stem}.html").as_uri()


@pytest.mark.parametrize(("language", "notebook"), with_quizzes(),
                         ids=lambda v: v if isinstance(v, str) else v.stem)
def test_every_question_answered_wrong_then_right_on_the_site(page, site, language, notebook):
    watch = Watch(page)
    page.goto(page_url(site, language, notebook))
    page.wait_for_selector(".live-quiz .attn-quiz fieldset.question")
    roots = page.locator(".attn-quiz")
    assert roots.count() == 1, f"{roots.count()} quizzes on the page"
    assert page.locator(".offline-widget").count() == 0
    expected = Expected(quiz_number(notebook), language)
    root = roots.first
    # as a reader comes to it: the site lays out a cell only near the screen, from the next frame on
    root.scroll_into_view_if_needed()
    page.wait_for_function("(r) => r.querySelector('.title').innerText !== ''", arg=root.element_handle())
    assert root.locator(".title").inner_text() == expected.quiz.spec["title"]
    assert root.locator(".score").inner_text() == expected.scores[0]
    letters = root.locator("fieldset .letter").all_inner_texts()
    assert letters == [f"{c})" for q in expected.quiz.questions for c in "abcdefgh"[: len(q.options)]]
    problems = answer_every_question(page, root, expected, f"{language}/{notebook.stem}")
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems[:10])
    assert root.locator(".score").inner_text() == expected.scores[(len(expected.quiz.questions) + 1) // 2]
    if language != "en":  # the quiz's own Chinese face, not a fallback
        families = root.evaluate("r => getComputedStyle(r).fontFamily")
        assert "Attn Lab CJK" in families, families
    watch.check()


KEYS_JS = """(root) => {
    const a = document.activeElement;
    return {inQuiz: root.contains(a), name: a && a.name, group: a && a.closest('fieldset')
            ? Number(a.closest('fieldset').dataset.question) : null, value: a && a.value};
}"""


def test_the_quiz_works_from_the_keyboard(page, site):
    language, notebook = with_quizzes()[0]
    watch = Watch(page)
    page.goto(page_url(site, language, notebook))
    root = page.locator(".attn-quiz").first
    root.locator("fieldset.question").first.wait_for()
    expected = Expected(quiz_number(notebook), language)
    root.locator(".title").click()  # the starting point of sequential focus: Tab goes on from here
    page.keyboard.press("Tab")
    focus = root.evaluate(KEYS_JS)
    assert focus["inQuiz"] and focus["group"] == 0 and focus["value"] == "0", focus
    handle = root.element_handle()
    n_options = len(expected.quiz.questions[0].options)
    for key, option in [("ArrowDown", 1), ("ArrowDown", 2), ("ArrowUp", 1), ("ArrowRight", 2), ("ArrowLeft", 1)]:
        page.keyboard.press(key)
        shown = page.evaluate(SHOWN_JS, [handle, 0])
        assert shown["checked"] == option % n_options, (key, shown)
        want = page.evaluate(AS_PAGE_HTML, as_html(expected.notes[0][option][1]))
        assert shown["feedback"] == want, (key, shown["feedback"], want)
    page.keyboard.press("Tab")  # one stop per group: on to the next question
    focus = root.evaluate(KEYS_JS)
    assert focus["group"] == 1 and focus["value"] == "0", focus
    outline = root.evaluate("r => getComputedStyle(document.activeElement.closest('label')).outlineStyle")
    assert outline == "solid", "the option in focus has no visible focus ring"
    page.keyboard.press("Space")  # the first option of question 2 picked with the keyboard
    shown = page.evaluate(SHOWN_JS, [handle, 1])
    assert shown["checked"] == 0 and shown["feedback"] == page.evaluate(
        AS_PAGE_HTML, as_html(expected.notes[1][0][1]))
    watch.check()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_quiz_on_an_offline_slide_answers_and_keeps_the_arrow_keys(browser, quiz_decks, language):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        watch = Watch(page)
        deck = quiz_decks[language]
        page.goto(deck.as_uri())
        page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
        root = page.locator(".reveal .attn-quiz")
        assert root.count() == 1, "the quiz is not drawn on the deck"
        assert page.locator(".offline-widget").count() == 0
        at = show_slide_of(page, root)
        stem = deck.name.removesuffix(".slides.html")
        expected = Expected(quiz_number(edition(language) / f"{stem}.ipynb"), language)

        def same_slide(where: str) -> None:
            now = page.evaluate("() => Reveal.getIndices()")
            assert (now["h"], now["v"]) == (at["h"], at["v"]), f"{where}: the slide moved to {now}"

        problems = answer_every_question(page, root, expected, f"{language} deck", after_click=same_slide)
        assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems[:10])
        assert root.locator(".score").inner_text() == expected.scores[(len(expected.quiz.questions) + 1) // 2]
        # every feedback line showing: the worst case still fits the slide at 1280×720
        inside, fit = on_its_slide(root)
        assert inside, fit

        # The arrow keys choose inside the quiz and never turn the slide.
        handle = root.element_handle()
        root.locator('fieldset[data-question="0"] input[type=radio]').first.focus()
        n_options = len(expected.quiz.questions[0].options)
        start = page.evaluate(SHOWN_JS, [handle, 0])["checked"]
        for key, move in [("ArrowRight", 1), ("ArrowDown", 1), ("ArrowLeft", -1), ("ArrowUp", -1)]:
            before = page.evaluate(SHOWN_JS, [handle, 0])["checked"]
            page.keyboard.press(key)
            page.wait_for_function(f"(args) => ({SHOWN_JS})(args).checked === args[2]",
                                   arg=[handle, 0, (before + move) % n_options])
            # The slide must NOT move: give reveal.js two animation frames after the quiz took the key (a
            # slide change starts within them), then look.
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            same_slide(f"{language} deck, {key} in the quiz")
            shown = page.evaluate(SHOWN_JS, [handle, 0])
            assert shown["checked"] == (before + move) % n_options, (key, shown)
            assert shown["feedback"] == page.evaluate(
                AS_PAGE_HTML, as_html(expected.notes[0][shown["checked"]][1]))
        assert page.evaluate(SHOWN_JS, [handle, 0])["checked"] == start
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("ArrowLeft")  # out of the quiz, the keys move the slides again (back: it may be the last)
        page.wait_for_function("(at) => { const n = Reveal.getIndices(); return n.h !== at.h || n.v !== at.v; }",
                               arg=at)
        watch.check()
    finally:
        context.close()


# ---- live JupyterLab --------------------------------------------------------------------------------

ACTIVE_CELL_JS = "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex"


def test_the_quiz_in_jupyterlab_follows_python_both_ways(browser, jupyter_lab):
    """A click reaches the kernel (``q.choices``, ``q.note``), ``q.answer`` from Python moves the page, and
    the arrow keys in the quiz choose an option without moving the notebook's active cell."""
    import nbformat

    from tools.browser.jupyter import in_kernel, kernel_prints, open_notebook, run_all, shut_down

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import attnlib\nq = attnlib.quiz.quiz(1)\nq"),
                nbformat.v4.new_code_cell("q.n_right")]
    name = "_quiz_check.ipynb"
    nbformat.write(nb, jupyter_lab.root / name)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        open_notebook(page, jupyter_lab, name)
        run = run_all(page, name)
        assert not run.problems, run.problems
        root = page.locator(".jp-OutputArea-output .attn-quiz")
        root.locator("fieldset.question").first.wait_for()
        expected = Expected(1, "en")
        handle = root.element_handle()

        def kernel(code: str) -> str:
            return in_kernel(page, code).strip()

        # Page -> Python
        root.locator('fieldset[data-question="0"] label.option[data-option="1"]').click()
        page.wait_for_function("(r) => JSON.parse(r.dataset.choices)[0] === 1", arg=handle)
        assert kernel_prints(page, "print(q.choices)", "[1, None, None, None]"), kernel("print(q.choices)")
        shown = page.evaluate(SHOWN_JS, [handle, 0])
        assert shown["feedback"] == page.evaluate(AS_PAGE_HTML, as_html(kernel("print(q.note(0)[1])")))
        assert kernel("print(q.note(0)[1])") == expected.notes[0][1][1]

        # Python -> page
        kernel(f"q.answer(1, {expected.quiz.questions[1].answer})")
        page.wait_for_function("(r) => JSON.parse(r.dataset.choices)[1] !== null", arg=handle)
        shown = page.evaluate(SHOWN_JS, [handle, 1])
        right, text = expected.notes[1][expected.quiz.questions[1].answer]
        assert right and shown["right"] and shown["feedback"] == page.evaluate(AS_PAGE_HTML, as_html(text))
        assert shown["score"] == expected.scores[1] == kernel("print(q.score)")

        # The arrow keys choose in the quiz and leave the notebook alone.
        page.evaluate("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex = 0")
        root.locator('fieldset[data-question="0"] input[type=radio]').nth(1).focus()
        for key, option in [("ArrowDown", 2), ("ArrowUp", 1), ("ArrowDown", 2)]:
            page.keyboard.press(key)
            assert page.evaluate(SHOWN_JS, [handle, 0])["checked"] == option, key
            assert page.evaluate(ACTIVE_CELL_JS) == 0, f"{key} in the quiz moved the notebook's active cell"
        assert kernel_prints(page, "print(q.choices[0])", "2"), kernel("print(q.choices[0])")
        shut_down(page, name)
    finally:
        context.close()


def test_on_a_phone_every_option_is_a_line_a_thumb_can_hit(browser, site):
    """At 390 px the options stand one per line, each at least 44 px tall and as wide as the quiz."""
    language, notebook = with_quizzes()[0]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(page_url(site, language, notebook))
    page.wait_for_selector(".attn-quiz fieldset.question")
    rows = page.evaluate("""() => {
        const quiz = document.querySelector('.attn-quiz').getBoundingClientRect();
        return Array.from(document.querySelectorAll('.attn-quiz label.option')).map((o) => {
            const r = o.getBoundingClientRect();
            return {text: o.textContent.slice(0, 30), height: r.height, width: r.width / quiz.width};
        });
    }""")
    context.close()
    assert rows
    small = [r for r in rows if r["height"] < 44 or r["width"] < 0.95]
    assert not small, small[:5]
