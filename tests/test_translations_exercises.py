"""The Chinese of the exercises: every message a learner reads has a 简体 entry with the same placeholders."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import attnlib
from attnlib import exercises
from attnlib.exercises import masking, pipeline, queries_keys_values
from attnlib.exercises.pipeline import OneOf
from tests.catalogues import marked, placeholders

PACKAGE = Path(attnlib.__file__).parent  # the installed copy, when the tests run against the wheel
SOURCES = sorted((PACKAGE / "exercises").glob("*.py"))
CATALOGUE = json.loads((PACKAGE / "locale" / "zh-Hans" / "exercises.json").read_text(encoding="utf-8"))
MARKED = set(marked(SOURCES))
EXERCISES = [e for module in exercises.NOTEBOOKS.values() for e in module.EXERCISES]


def shown_texts() -> set[str]:
    """Every template the exercises show, collected from the data itself (not from the source)."""
    texts = {*pipeline.GENERIC_MESSAGES.values(), *pipeline.DTYPE_WORDS.values()}
    texts |= {*queries_keys_values.PUZZLE_MESSAGES.values(), *masking.CONVENTIONS.values(), " and "}
    texts.add("no strong feature")
    for exercise in EXERCISES:
        texts |= {exercise.success, exercise.harder_context, *(m.message for m in exercise.mistakes)}
        for inputs in [*exercise.inputs, *exercise.harder_inputs]:
            texts.add(exercise.facts(*inputs)["label"])
            for mistake in (m for m in exercise.mistakes if "{which}" in m.message):
                try:
                    with np.errstate(all="ignore"):
                        wrong = mistake.wrong(*inputs) if mistake.wrong else None
                except ValueError:  # a wrong answer that needs other shapes (Qᵀ·K with T_q ≠ T_k)
                    continue
                texts |= {w for w in (wrong if isinstance(wrong, OneOf) else {}) if isinstance(w, str)}
    return texts - {"{detail}"}


def test_every_text_shown_is_marked_for_translation():
    assert shown_texts() <= MARKED, sorted(shown_texts() - MARKED)[:5]


@pytest.mark.parametrize("text", sorted(MARKED))
def test_every_marked_text_has_a_simplified_chinese_entry_with_the_same_placeholders(text):
    assert text in CATALOGUE, f"no zh-Hans entry for {text!r}"
    assert placeholders(CATALOGUE[text]) == placeholders(text)


def test_the_catalogue_has_no_entry_that_nothing_shows():
    assert set(CATALOGUE) <= MARKED, sorted(set(CATALOGUE) - MARKED)[:5]


def test_a_matrix_row_or_column_is_written_with_the_markup():
    # Bare 行/列 would read the wrong way round in 繁體; a plain 行 is a line of code, and 并列 (a tie),
    # 系列 (the series) and 运行 (to run) are other words.
    for english, chinese in CATALOGUE.items():
        bare = chinese
        for word in ("{行}", "{列}", "第 {line} 行", "这一行", "那一行", "并列", "系列", "运行"):
            bare = bare.replace(word, "")
        assert "行" not in bare and "列" not in bare, english


def test_every_message_fills_its_placeholders_in_both_languages(zh_hans):
    shown = {"which": "x", "got_shape": (2,), "got_dtype": "int64", "detail": "d"}
    for language in ("en", "zh-Hans"):
        attnlib.set_language(language)
        for exercise in EXERCISES:
            for inputs in [*exercise.inputs, *exercise.harder_inputs]:
                facts = exercise.facts_shown(inputs)
                for template in (exercise.success, exercise.harder_context, *(m.message for m in exercise.mistakes)):
                    message = pipeline.say(template, **facts, **shown)
                    assert "{" not in message and "}" not in message, message


def test_a_diagnosis_is_shown_in_chinese(zh_hans):
    verdict = exercises.check_gram_matrix(lambda X: X.T @ X)
    assert verdict.cause == "transposed"
    assert "你算的是 Xᵀ·X，形状 (d, d) = (4, 4)" in verdict.message and "{行}" not in verdict.message
    assert "词元是 X 的行" in verdict.message
    assert exercises.check_gram_matrix(lambda X: None).message == "你的函数返回了 None：是不是忘了写 `return` 那一行？"
