"""The "check your understanding" quiz, Python side: validation, feedback, the score, answering from
Python, the spec the page module draws from (in each language), and the question bank (data: bank.json
and one catalogue per language).

What the page makes of the spec (clicks, keys, feedback and score against ``feedback()``) is
tests/browser/test_quizzes.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import traitlets

import attnlib
from attnlib.i18n import tr
from attnlib.page import bundle
from attnlib.quiz import (
    QUIZZES,
    RIGHT,
    WORDS,
    WRONG,
    Question,
    Quiz,
    as_html,
    feedback,
    for_notebook,
    quiz,
)
from tests.catalogues import marked, placeholders

PER_OPTION = {
    "prompt": "softmax([1, 2]) and softmax([11, 12]) are …",
    "options": ["equal", "different", "undefined"],
    "answer": 0,
    "explain": ["A shift cancels out.", "Only the gaps matter.", "Softmax is defined for any finite scores."],
}
ONE_EXPLANATION = {
    "prompt": "The diagonal of `X @ X.T` holds …",
    "options": ["squared lengths", "ones"],
    "answer": 0,
    "explain": "Entry (i, i) is the dot product of row i with itself.",
}


def test_answering_each_option_gives_its_feedback():
    widget = quiz([PER_OPTION, ONE_EXPLANATION])
    assert widget.choices == [None, None] and widget.note(0) is None
    for index, explanation in enumerate(PER_OPTION["explain"]):
        right = index == PER_OPTION["answer"]
        assert widget.answer(0, index) == (right, f"{RIGHT if right else WRONG} {explanation}")
        assert widget.note(0) == feedback(widget.questions[0], index)
        # the synced trait the page follows: the first try stays what it was
        assert widget.values == {"choices": [index, None], "first": [0, None]}
    assert widget.answer(0, None) is None and widget.choices == [None, None] and widget.first == [0, None]


def test_single_explanation_is_kept_for_the_right_answer():
    widget = quiz([ONE_EXPLANATION])
    right, text = widget.answer(0, 1)
    assert not right and text == f"{WRONG} “ones” is not it: try another option."
    assert "row i" not in text  # a wrong pick does not give the answer away
    assert widget.answer(0, 0) == (True, f"{RIGHT} Entry (i, i) is the dot product of row i with itself.")


def test_feedback_is_a_pure_function():
    q = Question.from_data(PER_OPTION)
    assert feedback(q, 0) == (True, f"{RIGHT} A shift cancels out.")
    assert feedback(q, 2) == (False, f"{WRONG} Softmax is defined for any finite scores.")


def test_the_score_counts_each_questions_first_try_and_the_learner_may_try_again():
    widget = quiz([PER_OPTION, ONE_EXPLANATION])
    assert widget.score == "0 of 2 right at the first try" and widget.n_right == 0
    widget.answer(0, 0)  # right at once
    assert widget.n_right == 1 and widget.score == "1 of 2 right at the first try"
    assert widget.answer(1, 1)[0] is False  # wrong first ...
    assert widget.answer(1, 0)[0] is True  # ... then right, with its explanation shown
    assert widget.choices == [0, 0] and widget.first == [0, 1]
    assert widget.n_right == 1 and widget.score == "1 of 2 right at the first try"  # not 2 of 2
    widget.answer(0, 2)
    assert widget.n_right == 1  # what was known at the first try stays counted


def test_clicking_wrong_then_right_scores_nothing():
    widget = quiz([PER_OPTION])
    widget.answer(0, 1)
    widget.answer(0, 0)
    assert widget.score == "0 of 1 right at the first try"


def test_a_click_in_the_page_reaches_python_through_the_model():
    widget = quiz([PER_OPTION, ONE_EXPLANATION])
    widget.values = {"choices": [1, 0], "first": [1, 1]}  # what the page's model.set("values", ...) sends
    assert widget.choices == [1, 0] and widget.n_right == 0 and widget.note(0)[1].endswith("Only the gaps matter.")
    widget.values = {"choices": [1, 0], "first": [None, None]}  # an answer with no first try: it is the first
    assert widget.first == [1, 0] and widget.n_right == 1
    for bad, message in [
            ({"choices": [3, None], "first": [None, None]},
             r"question 1: choice must be None or an option index 0..2; got 3"),
            ({"choices": [None], "first": [None, None]}, r"one choice per question \(2\)"),
            ({"choices": [True, None], "first": [None, None]}, r"choice must be None or an option index 0..2; got True"),
            ({"choices": [None, None], "first": [None, 2]},
             r"question 2: first choice must be None or an option index 0..1; got 2"),
            ({"choices": [None, None]}, r"values must have the keys \['choices', 'first'\]")]:
        with pytest.raises(traitlets.TraitError, match=message):
            widget.values = bad
    assert widget.choices == [1, 0]  # a refused value changes nothing


def test_answering_from_python_refuses_what_is_not_there():
    widget = quiz([PER_OPTION])
    with pytest.raises(ValueError, match=r"question must be a question index 0..0; got 1"):
        widget.answer(1, 0)
    with pytest.raises(ValueError, match=r"choice must be None or an option index 0..2; got 3"):
        widget.answer(0, 3)
    with pytest.raises(ValueError, match=r"choice must be None or an option index 0..2; got False"):
        widget.answer(0, False)


def test_the_spec_holds_every_text_the_page_shows():
    widget = quiz([PER_OPTION, ONE_EXPLANATION], "Warm-up")
    spec = widget.spec
    assert spec["name"] == "quiz" and spec["title"] == "Warm-up"
    assert spec["scores"] == [f"{k} of 2 right at the first try" for k in range(3)]
    first, second = spec["questions"]
    assert first["letters"] == ["a", "b", "c"] and first["options"] == ["equal", "different", "undefined"]
    assert second["prompt"] == "The diagonal of <code>X @ X.T</code> holds …"
    for q, shown_q in zip(widget.questions, spec["questions"], strict=True):
        assert shown_q["feedback"] == [
            {"right": right, "html": as_html(text)}
            for right, text in (feedback(q, i) for i in range(len(q.options)))
        ]
    assert [f["role"] for f in spec["fonts"]] == ["sans"]  # no Chinese: no CJK subset
    assert widget._esm == bundle("quiz") and not re.search(r"^import .*kit\.js", widget._esm, re.MULTILINE)


def test_texts_are_escaped_for_the_page():
    widget = quiz([{**PER_OPTION, "prompt": "Is 1 < 2 <b>really</b>?", "options": ["a<b", "`x & y`", "c"]}])
    q = widget.spec["questions"][0]
    assert q["prompt"] == "Is 1 &lt; 2 &lt;b&gt;really&lt;/b&gt;?"
    assert q["options"][:2] == ["a&lt;b", "<code>x &amp; y</code>"]


def test_text_version_lists_questions_without_answers():
    widget = quiz([PER_OPTION])
    data, _ = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    text = data["text/plain"]
    assert text == data["text/markdown"] == repr(widget)
    assert "1. softmax([1, 2]) and softmax([11, 12]) are …" in text and "    - c) undefined" in text
    assert "A shift cancels out" not in text


def test_page_state_is_what_a_page_without_kernel_mounts():
    widget = quiz([PER_OPTION])
    widget.answer(0, 1)
    assert widget.page_state() == {"spec": widget.spec, "values": {"choices": [1], "first": [1]}}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"answer": 3}, r"question 1: answer must be an option index 0..2; got 3"),
        ({"answer": True}, r"answer must be an option index"),
        ({"options": ["only one"]}, r"options must be a list of 2 to 8 different non-empty texts"),
        ({"options": list("abcdefghi")}, r"options must be a list of 2 to 8 different non-empty texts"),
        ({"options": ["a", "a", "b"]}, r"options must be a list of 2 to 8 different non-empty texts; got \['a', 'a'"),
        ({"options": "abc"}, r"options must be a list of 2 to 8"),  # a text is not a list of options
        ({"explain": ["one", "two"]}, r"explain must be one non-empty text, or one per option \(3\); got \['one'"),
        ({"explain": ""}, r"explain must be one non-empty text"),
        ({"prompt": " "}, r"prompt must be a non-empty text"),
        ({"hint": "x"}, r"unknown \['hint'\]"),
    ],
)
def test_bad_questions_are_refused_with_a_reason(change, message):
    with pytest.raises(ValueError, match=message):
        quiz([{**PER_OPTION, **change}])


def test_bad_question_lists_are_refused():
    with pytest.raises(ValueError, match="non-empty list"):
        quiz([])
    with pytest.raises(ValueError, match="non-empty list"):
        quiz(PER_OPTION)
    with pytest.raises(TypeError, match="question 2 must be a dict with the keys"):
        quiz([PER_OPTION, "what?"])
    with pytest.raises(ValueError, match=rf"number must be a notebook number 0..{len(QUIZZES) - 1}; got 42"):
        quiz(42)


def test_quiz_by_notebook_number_uses_the_bank():
    widget = quiz(5)
    assert isinstance(widget, Quiz)
    assert [q.prompt for q in widget.questions] == [q["prompt"] for q in QUIZZES[5]]
    assert widget.spec["title"] == "Check your understanding · 05"


def test_bank_covers_every_notebook_with_sound_questions():
    assert set(range(8)) <= set(QUIZZES)  # 00-07 at least; later notebooks may have one too
    assert list(QUIZZES) == list(range(len(QUIZZES)))  # numbered from 00 with no gap, as for_notebook says
    answers = []
    for number, questions in QUIZZES.items():
        assert 3 <= len(questions) <= 4, f"notebook {number} has {len(questions)} questions"
        for q in (Question.from_data(data, i) for i, data in enumerate(for_notebook(number), start=1)):
            assert len(q.explanations) == len(q.options), f"{number}: explain every option of {q.prompt!r}"
            answers.append(q.answer)
    # The right answer is not always in the same place, so position gives nothing away.
    assert len(set(answers)) == 4 and max(answers.count(i) for i in set(answers)) < 0.4 * len(answers)


def test_every_bank_question_round_trips_through_the_widget():
    for number in QUIZZES:
        widget = quiz(number)
        for n, q in enumerate(widget.questions):
            right, text = widget.answer(n, q.answer)
            assert right and text.count(RIGHT) == 1
            assert sum(f["right"] for f in widget.spec["questions"][n]["feedback"]) == 1
        assert widget.n_right == len(widget.questions)


def test_import_attnlib_does_not_load_the_widget_libraries():
    code = (
        "import sys, attnlib; "
        "assert 'ipywidgets' not in sys.modules and 'anywidget' not in sys.modules, 'widgets loaded'; "
        "attnlib.quiz; assert 'anywidget' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert attnlib.quiz.quiz is quiz


def test_the_quiz_is_a_page_module_not_an_ipywidgets_stack():
    package = Path(attnlib.quiz.__file__).parent
    for path in package.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "import ipywidgets" not in source and "RadioButtons" not in source
    module = (package / "quiz.js").read_text(encoding="utf-8")
    assert 'type="radio"' in module and 'aria-live="polite"' in module and "shareKeys()" in module
    assert '"../page/kit.js"' in module and not (Path(attnlib.__file__).parent / "labs" / "quiz.js").exists()


def test_review_quiz_from_the_bank_as_in_the_lecturers_guide():
    widget = quiz([QUIZZES[n][0] for n in range(1, 8)], "Review")
    assert len(widget.questions) == 7 and widget.spec["title"] == "Review"
    assert widget.spec["scores"][-1] == "7 of 7 right at the first try"


# ---- the Chinese edition ------------------------------------------------------------------------
LOCALE = Path(attnlib.__file__).with_name("locale") / "zh-Hans"
PACKAGE = Path(attnlib.quiz.__file__).parent


def bank_texts() -> set[str]:
    """Every prompt, option and explanation of the bank, walked from the data."""
    texts = set()
    for questions in QUIZZES.values():
        for q in questions:
            explain = [q["explain"]] if isinstance(q["explain"], str) else q["explain"]
            texts |= {q["prompt"], *q["options"], *explain}
    return texts


def test_the_bank_is_data_with_one_catalogue_per_language_holding_exactly_its_texts():
    # bank.json is the English; attnlib/locale/<language>/quiz_bank.json, keyed by it, the translations.
    for language in ("zh-Hans", "zh-Hant"):
        folder = LOCALE.with_name(language)
        assert not list(folder.glob("quiz_0*.json"))  # no longer split by notebook range
        catalogue = json.loads((folder / "quiz_bank.json").read_text(encoding="utf-8"))
        assert set(catalogue) == bank_texts(), f"{language}: stale or missing entries"


def test_the_widgets_own_words_have_simplified_chinese_entries_with_the_same_placeholders():
    catalogue = json.loads((LOCALE / "quiz_widget.json").read_text(encoding="utf-8"))
    words = set(marked(PACKAGE.glob("*.py")))
    assert {RIGHT, WRONG, *WORDS.values()} <= words == set(catalogue)
    for english in words:
        assert placeholders(catalogue[english]) == placeholders(english) and catalogue[english] != english


def test_every_bank_text_has_an_entry_in_some_simplified_chinese_catalogue():
    # The questions are translated into quiz_bank.json, keyed by their English text.
    catalogue = attnlib.i18n.catalogue("zh-Hans")
    missing = sorted(bank_texts() - set(catalogue))
    assert not missing, f"{len(missing)} of {len(bank_texts())} quiz texts have no zh-Hans entry, e.g. {missing[:3]}"


def test_the_widget_speaks_the_chosen_language(zh_hans):
    widget = quiz([ONE_EXPLANATION])
    assert widget.spec["title"] == "检验你的理解" and widget.score == "1 题中第一次就答对了 0 题"
    right, text = widget.answer(0, 1)
    assert not right and text.startswith("✘ 还不对。不是“ones”") and "再试试别的选项" in text
    assert widget.spec["questions"][0]["feedback"][1]["html"] == as_html(text)
    assert "（运行这个笔记本" not in widget.to_text()  # the old "run the notebook" line is gone


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_the_spec_of_a_bank_quiz_is_in_the_language_current_when_it_was_made(language):
    with attnlib.set_language(language):
        widget = quiz(2)
        expected = [[as_html(feedback(q, i)[1]) for i in range(len(q.options))] for q in widget.questions]
        prompts = [as_html(tr(q.prompt)) for q in widget.questions]
    spec = widget.spec
    assert [[f["html"] for f in q["feedback"]] for q in spec["questions"]] == expected
    assert [q["prompt"] for q in spec["questions"]] == prompts
    chinese = re.compile(r"[\u2e80-\u9fff]")
    title = {"en": "Check your understanding · 02", "zh-Hans": "检验你的理解 · 02", "zh-Hant": "檢驗你的理解 · 02"}
    assert spec["title"] == title[language]
    assert bool(chinese.search(spec["questions"][0]["prompt"])) == (language != "en")
    assert ("cjk" in [f["role"] for f in spec["fonts"]]) == (language != "en")  # Chinese gets its font
    score = {"en": "1 of {n} right at the first try", "zh-Hans": "{n} 题中第一次就答对了 1 题",
             "zh-Hant": "{n} 題中第一次就答對了 1 題"}
    assert spec["scores"][1] == score[language].format(n=len(widget.questions))


def test_row_and_column_markup_becomes_the_plain_word(zh_hans):
    # The 简体 files write a matrix row as {行}; the learner reads 行 in 简体 and 列 in 繁體 (Taiwan usage).
    raw = json.loads((LOCALE / "quiz_bank.json").read_text(encoding="utf-8"))
    english = next(en for en, zh in raw.items() if "{行}" in zh)
    assert "{行}" not in tr(english) and "行" in tr(english)
    attnlib.set_language("zh-Hant")
    assert "{行}" not in tr(english) and "列" in tr(english)


# ---- on the site and the slides: the stored quiz is mounted live ----------------------------------------
def stored_quiz_notebook():
    """A notebook as JupyterLab saves it with a quiz shown: a widget view and the model's stored state."""
    import nbformat

    widget = quiz([PER_OPTION, ONE_EXPLANATION])
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\nattnlib.quiz.quiz(1)")
    view = {"version_major": 2, "version_minor": 0, "model_id": "q1"}
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        "application/vnd.jupyter.widget-view+json": view, "text/plain": widget.to_text()})]
    nb.cells = [nbformat.v4.new_markdown_cell("## Check your understanding"), cell]
    model = {"model_module": "anywidget", "model_name": "AnyModel", "model_module_version": "~0.9.*",
             "state": {"_esm": widget._esm, **widget.page_state()}}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {"q1": model}}}
    return nb, widget


def tools():
    from tools import build_slides, offline_pages

    return offline_pages, build_slides


@pytest.mark.repo
def test_a_stored_quiz_is_mounted_live_where_no_kernel_runs():
    offline_pages, _ = tools()
    nb, widget = stored_quiz_notebook()
    model = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]["q1"]
    assert offline_pages.quiz_state(model) == widget.page_state()
    assert offline_pages.lab_state(model) is None  # what counts labs does not count the quiz
    assert offline_pages.static_outputs(nb) == 0
    (html_out,) = (o["data"]["text/html"] for o in nb.cells[1].outputs)
    assert html_out.startswith('<div class="live-quiz">') and 'id="quiz-1"' in html_out
    assert 'class="attn-quiz-mount"' in html_out and "attn-lab-mount" not in html_out
    assert "mountStatic(pageModule, " in html_out and "renderQuiz" in html_out
    assert json.dumps(widget.spec["title"], ensure_ascii=False) in html_out
    assert "widgets" not in nb.metadata


@pytest.mark.repo
def test_a_quiz_gets_a_slide_of_its_own_with_its_code_in_the_notes():
    _, build_slides = tools()
    nb, _ = stored_quiz_notebook()
    slides = build_slides.for_slides(nb)
    cell = next(c for c in slides.cells if c.cell_type == "code")
    assert cell.metadata["slideshow"]["slide_type"] == "subslide"
    assert build_slides.OUTPUT_ONLY in cell.metadata["tags"]
    notes = [c.source for c in slides.cells if c.metadata.get("slideshow", {}).get("slide_type") == "notes"]
    assert any("attnlib.quiz.quiz(1)" in n for n in notes)
    deck_css = build_slides.offline_pages.stylesheet("slides.css")
    assert ".reveal .attn-quiz .options { grid-template-columns: repeat(2, minmax(0, 1fr))" in deck_css


@pytest.mark.repo  # reads notebooks/
def test_each_notebook_stores_the_quiz_the_bank_makes_now():
    """Every edition of a notebook stores its quiz's spec (every text the page shows) in its widget state,
    which JupyterLab, the site and the decks draw: after a change to bank.json or to a quiz catalogue, the
    notebooks must be executed again. Only the texts are compared, not the page module the state bundles."""
    root = Path(__file__).parents[1] / "notebooks"
    stale, found = [], 0
    for folder, language in ((root, "en"), (root / "zh-Hans", "zh-Hans"), (root / "zh-Hant", "zh-Hant")):
        for path in sorted(folder.glob("[0-9][0-9]_*.ipynb")):
            nb = json.loads(path.read_text(encoding="utf-8"))
            calls = [int(n) for c in nb["cells"] if c["cell_type"] == "code"
                     for n in re.findall(r"\bquiz\.quiz\((\d+)\)", "".join(c["source"]))]
            models = nb["metadata"].get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
            specs = [m["state"]["spec"] for m in models.get("state", {}).values()
                     if m.get("model_name") == "AnyModel" and m["state"].get("spec", {}).get("name") == "quiz"]
            where = path.relative_to(root)
            assert len(specs) == len(calls), f"{where}: {len(calls)} quiz call(s) but {len(specs)} stored quiz(zes)"
            for number, stored in zip(calls, specs, strict=True):
                found += 1
                with attnlib.set_language(language):
                    now = quiz(number).spec
                for key in ("title", "questions", "scores", "notebook"):
                    if stored.get(key) != now[key]:
                        stale.append(f"{where} (quiz {number}): its stored {key} differ from what attnlib makes")
    assert found >= 30, f"only {found} quizzes stored in the three editions"
    assert not stale, "re-execute these notebooks, their quizzes are stale:\n" + "\n".join(stale)
