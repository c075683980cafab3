"""The "check your understanding" widget: every option gives the right feedback, and the question bank is sound."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from catalogues import marked, placeholders

import attnlib
from attnlib.quiz import RIGHT, WORDS, WRONG, Question, Quiz, feedback, quiz, shown
from attnlib.quiz_bank import QUIZZES, for_notebook

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
    "explain": "Entry (i, i) is $x_i \\cdot x_i$.",
}


def test_selecting_each_option_shows_its_feedback():
    widget = quiz([PER_OPTION, ONE_EXPLANATION])
    choice, note = widget.choices[0], widget.feedbacks[0]
    assert note.value == "" and choice.value is None
    for index, explanation in enumerate(PER_OPTION["explain"]):
        choice.value = index
        verdict = RIGHT if index == PER_OPTION["answer"] else WRONG
        assert f"{verdict} {explanation}" in note.value
    choice.index = 1  # selecting by position, as a click does
    assert "Only the gaps matter." in note.value and WRONG in note.value


def test_single_explanation_is_kept_for_the_right_answer():
    widget = quiz([ONE_EXPLANATION])
    choice, note = widget.choices[0], widget.feedbacks[0]
    choice.value = 1
    assert WRONG in note.value and "“ones” is not it: try another option." in note.value
    assert "x_i" not in note.value  # a wrong pick does not give the answer away
    choice.value = 0
    assert RIGHT in note.value and "Entry (i, i) is $x_i \\cdot x_i$." in note.value


def test_feedback_is_a_pure_function():
    q = Question.from_data(PER_OPTION)
    assert feedback(q, 0) == (True, f"{RIGHT} A shift cancels out.")
    assert feedback(q, 2) == (False, f"{WRONG} Softmax is defined for any finite scores.")


def test_score_counts_the_right_answers():
    widget = quiz([PER_OPTION, ONE_EXPLANATION])
    assert "0 of 2 answered right" in widget.score.value
    widget.choices[0].value = 0
    widget.choices[1].value = 1
    assert widget.n_right == 1 and "1 of 2 answered right" in widget.score.value
    widget.choices[1].value = 0
    assert "2 of 2 answered right" in widget.score.value


def test_prompts_are_escaped_and_code_is_marked_up():
    widget = quiz([ONE_EXPLANATION, {**PER_OPTION, "prompt": "Is 1 < 2 <b>really</b>?"}])
    prompts = [box.children[0].value for box in widget.children[1:3]]
    assert "<code>X @ X.T</code>" in prompts[0]
    assert "1 &lt; 2 &lt;b&gt;really&lt;/b&gt;?" in prompts[1]


def test_static_version_lists_questions_without_answers():
    bundle = quiz([PER_OPTION])._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    markdown = bundle["text/markdown"]
    assert "1. softmax([1, 2]) and softmax([11, 12]) are …" in markdown
    assert "    - c) undefined" in markdown
    assert "A shift cancels out" not in markdown


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"answer": 3}, r"question 1: answer must be an option index 0..2, got 3"),
        ({"answer": True}, r"answer must be an option index"),
        ({"options": ["only one"]}, r"options must be a list of 2 to 8 strings"),
        ({"options": list("abcdefghi")}, r"options must be a list of 2 to 8 strings"),
        ({"options": ["a", "a", "b"]}, r"options must differ"),
        ({"explain": ["one", "two"]}, r"explain must be one non-empty string or one per option \(3\), got 2"),
        ({"explain": ""}, r"explain must be one non-empty string"),
        ({"prompt": " "}, r"prompt must be a non-empty string"),
        ({"hint": "x"}, r"unknown \['hint'\]"),
    ],
)
def test_bad_questions_are_refused_with_a_reason(change, message):
    with pytest.raises(ValueError, match=message):
        quiz([{**PER_OPTION, **change}])


def test_bad_question_lists_are_refused():
    with pytest.raises(ValueError, match="non-empty list"):
        quiz([])
    with pytest.raises(TypeError, match="question 2: expected a dict"):
        quiz([PER_OPTION, "what?"])
    with pytest.raises(ValueError, match=r"no quiz for notebook 42; there are quizzes for \[0, 1"):
        quiz(42)


def test_quiz_by_notebook_number_uses_the_bank():
    widget = quiz(5)
    assert isinstance(widget, Quiz)
    assert [q.prompt for q in widget.questions] == [q["prompt"] for q in QUIZZES[5]]
    assert "05" in widget.children[0].value


def test_bank_covers_every_notebook_with_sound_questions():
    assert set(range(8)) <= set(QUIZZES)  # 00-07 at least; later notebooks may have one too
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
        for q, choice, note in zip(widget.questions, widget.choices, widget.feedbacks, strict=True):
            choice.value = q.answer
            assert note.value.count(RIGHT) == 1
        assert widget.n_right == len(widget.questions)


def test_import_attnlib_does_not_load_ipywidgets():
    code = (
        "import sys, attnlib, attnlib.quiz_bank; "
        "assert 'ipywidgets' not in sys.modules, 'ipywidgets loaded'; "
        "import attnlib; attnlib.quiz; assert 'ipywidgets' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert attnlib.quiz.quiz is quiz


def test_review_quiz_from_the_bank_as_in_the_lecturers_guide():
    widget = quiz([QUIZZES[n][0] for n in range(1, 8)], "Review")
    assert len(widget.questions) == 7 and "Review" in widget.children[0].value


# ---- the Chinese edition ------------------------------------------------------------------------
LOCALE = Path(attnlib.__file__).with_name("locale") / "zh-Hans"


def bank_texts() -> set[str]:
    """Every prompt, option and explanation of the bank, walked from the data."""
    texts = set()
    for questions in QUIZZES.values():
        for q in questions:
            explain = [q["explain"]] if isinstance(q["explain"], str) else q["explain"]
            texts |= {q["prompt"], *q["options"], *explain}
    return texts


def test_every_bank_text_is_marked_for_translation():
    assert bank_texts() == set(marked([Path(attnlib.quiz_bank.__file__)]))


def test_the_widgets_own_words_have_simplified_chinese_entries_with_the_same_placeholders():
    catalogue = json.loads((LOCALE / "quiz_widget.json").read_text(encoding="utf-8"))
    words = set(marked([Path(attnlib.quiz.__file__)]))
    assert words == {RIGHT, WRONG, *WORDS.values()} == set(catalogue)
    for english in words:
        assert placeholders(catalogue[english]) == placeholders(english) and catalogue[english] != english


def test_every_bank_text_has_an_entry_in_some_simplified_chinese_catalogue():
    # The questions are translated into quiz_*.json, keyed by their English text.
    catalogue = attnlib.i18n.catalogue("zh-Hans")
    missing = sorted(bank_texts() - set(catalogue))
    assert not missing, f"{len(missing)} of {len(bank_texts())} quiz texts have no zh-Hans entry, e.g. {missing[:3]}"


def test_the_widget_speaks_the_chosen_language(zh_hans):
    widget = quiz([ONE_EXPLANATION])
    assert "检验你的理解" in widget.children[0].value and "1 题中答对了 0 题" in widget.score.value
    widget.choices[0].value = 1
    assert "✘ 还不对。" in widget.feedbacks[0].value and "再试试别的选项" in widget.feedbacks[0].value
    assert "（运行这个笔记本，才能作答并得到反馈）" in widget.to_markdown()


def test_row_and_column_markup_becomes_the_plain_word(zh_hans):
    # The 简体 files write a matrix row as {行}; the learner reads 行 in 简体 and 列 in 繁體 (Taiwan usage).
    raw = json.loads((LOCALE / "quiz_00_03.json").read_text(encoding="utf-8"))
    english = next(en for en, zh in raw.items() if "{行}" in zh)
    assert "{行}" not in shown(english) and "行" in shown(english)
    attnlib.set_language("zh-Hant")
    assert "{行}" not in shown(english) and "列" in shown(english)

