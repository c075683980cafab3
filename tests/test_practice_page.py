"""The site's editor cards on the Python side (attnlib/page/practice.py, tools/exercise_pages.practice_cards):
their specs, ids and words in three languages, and where the site puts them (each exercise, a scratch cell
before the navigation); the decks keep their task cards."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from attnlib.exercises.practice import run
from attnlib.i18n import LANGUAGES, translated
from attnlib.page import MODULES, bundle, mount_html
from attnlib.page.practice import (
    AROUND,
    SCRATCH_CODE,
    TIME_LIMIT_MS,
    WORDS,
    exercise_name,
    exercise_spec,
    scratch_spec,
)
from tools import build_site, exercise_pages

pytestmark = pytest.mark.repo  # reads the notebooks or tools/ of the checkout

ROOT = Path(__file__).resolve().parents[1]
STUB = '''def my_softmax(scores):
    """scores (T_q, T_k) -> weights (T_q, T_k)."""
    raise NotImplementedError  # your code here


exercises.check_softmax_rows(my_softmax)'''
PUZZLE = '''W_q_green = np.zeros((d_model, 2))
W_k_green = np.zeros((d_model, 2))

exercises.check_projection_puzzle(W_q_green, W_k_green, query="green", key="grass")'''
HAN = re.compile(r"[\u4e00-\u9fff]")


def test_an_exercise_spec_holds_the_cell_its_checker_line_and_its_id():
    spec = exercise_spec(STUB, "02_softmax", "en", "")
    assert spec["id"] == "02_softmax/my_softmax"
    assert spec["code"] == STUB + "\n" and spec["check"] == "exercises.check_softmax_rows(my_softmax)"
    assert (spec["language"], spec["root"], spec["timeLimitMs"]) == ("en", "", TIME_LIMIT_MS)
    assert spec["words"]["label"] == "Your code for my_softmax"
    assert set(spec["words"]) == set(WORDS)
    json.dumps(spec)  # the page reads it as JSON


def test_the_puzzle_is_named_by_its_first_matrix():
    spec = exercise_spec(PUZZLE, "04_queries_keys_values", "zh-Hans", "../")
    assert spec["id"] == "04_queries_keys_values/W_q_green"
    assert spec["check"].startswith("exercises.check_projection_puzzle(W_q_green, W_k_green")
    assert exercise_name("x = 1\n") is None


def test_a_scratch_spec_has_no_checker_and_its_example_runs():
    spec = scratch_spec("02_softmax", "zh-Hant", "../")
    assert spec["id"] == "02_softmax/scratch" and spec["check"] is None and spec["code"] == SCRATCH_CODE
    assert spec["words"]["help"] == spec["words"]["scratch_help"] != spec["words"]["run"]
    result = run(spec["code"], None, "en")
    assert result["error"] is None and result["stdout"].startswith("[0.0900 0.2447 0.6652]")
    assert result["value"].startswith("array([0.1863")


def test_the_checker_line_of_a_spec_gives_the_notebook_verdict():
    spec = exercise_spec(STUB, "02_softmax", "en", "")
    result = run(spec["code"], spec["check"], "en")
    assert result["verdict"]["cause"] == "not_written" and not result["verdict"]["ok"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_word_of_a_card_is_in_the_page_language(language):
    words = scratch_spec("02_softmax", language)["words"]
    for key, text in words.items():
        assert bool(HAN.search(text)) == (language != "en"), f"{language}: {key} = {text!r}"
    assert "make serve" in words["unavailable"]
    assert "{loaded}" in words["loading"] and "{total}" in words["loading"]


def test_every_text_of_the_cards_has_one_simplified_chinese_entry():
    from tests.catalogues import check_catalogue

    check_catalogue(ROOT / "attnlib" / "page", "practice")


def test_traditional_words_are_the_conversion_of_the_simplified_ones():
    hans = json.loads((ROOT / "attnlib/locale/zh-Hans/practice.json").read_text(encoding="utf-8"))
    hant = json.loads((ROOT / "attnlib/locale/zh-Hant/practice.json").read_text(encoding="utf-8"))
    assert hans.keys() == hant.keys()
    assert hant["Run"] == "執行" and hant["Scratch cell"] == "草稿儲存格"


@pytest.mark.parametrize(("args", "error", "match"), [
    ((STUB, "02_softmax", "fr", ""), ValueError, "language must be one of en, zh-Hans, zh-Hant; got 'fr'"),
    ((STUB, "notebooks/02_softmax.ipynb", "en", ""), ValueError, "notebook_stem must be a notebook's name"),
    ((STUB, "02_softmax", "en", ".."), ValueError, r"root must be empty or end with /, such as \.\./; got '\.\.'"),
    (("x = 1", "02_softmax", "en", ""), ValueError, "cell_source must end with an exercise's checker line"),
    ((3, "02_softmax", "en", ""), TypeError, "cell_source must be the code of a notebook cell, a str; got int"),
    ((STUB, 2, "en", ""), TypeError, "notebook_stem must be a notebook's name without .ipynb, a str; got int"),
])
def test_a_wrong_argument_is_named(args, error, match):
    with pytest.raises(error, match=match):
        exercise_spec(*args)


def test_the_card_is_a_page_module_of_its_own_kind():
    assert MODULES["practice"].kind == "practice"
    html = mount_html("practice", {"spec": scratch_spec("02_softmax"), "values": {}}, "practice-1")
    assert html.startswith('<div class="attn-practice-mount" id="practice-1">')
    source = bundle("practice")
    for name in ("attn-practice-check", "attn-practice-run", "attn-practice-reset", "attn-practice-verdict",
                 "attn-practice-error", "attn-practice-stdout", "attn-practice-value", "attn-python-status",
                 "attnPractice", "assets/editor.js", "py/worker.js"):
        assert name in source, name


@pytest.mark.parametrize("path", [ROOT / "notebooks/02_softmax.ipynb",
                                  ROOT / "notebooks/zh-Hant/04_queries_keys_values.ipynb"],
                         ids=["en-02", "zh-Hant-04"])
def test_the_site_shows_each_exercise_as_a_card_with_its_task_folded_under_it(path):
    nb = build_site.for_site(nbformat.read(path, as_version=4), path)
    language = "en" if path.parent.name == "notebooks" else path.parent.name
    cards = [c for c in nb.cells if "attn-practice-mount" in str(c.get("outputs", ""))]
    ids = build_site.exercise_ids(nbformat.read(path, as_version=4), path)
    assert len(cards) == len(ids) + 1 >= 3  # and the scratch cell
    for number, (cell, exercise) in enumerate(zip(cards, [*ids, f"{path.stem}/scratch"], strict=True), start=1):
        html = cell.outputs[0]["data"]["text/html"]
        state = json.loads(re.search(r'<script type="application/json"[^>]*>(.*?)</script>', html, re.S).group(1))
        spec = state["spec"]
        assert f'id="practice-{number}"' in html and spec["id"] == exercise
        assert spec["language"] == language and spec["root"] == ("" if language == "en" else "../")
        assert cell.metadata["transient"] == {"remove_source": True}  # the card holds the code
        if spec["check"] is None:
            continue
        assert spec["code"].rstrip() == cell.source.rstrip()
        assert '<details class="attn-practice-task">' in html and "exercise-task" in html
        assert "make lab" in html  # JupyterLab still works, and the card says so
    at = next(i for i, c in enumerate(nb.cells) if "navigation" in c.metadata.get("tags", []))
    heading, scratch = nb.cells[at - 2:at]  # just before the navigation
    assert scratch is cards[-1]
    assert heading.source.startswith(f"## {translated(AROUND, language)['scratch_heading']}\n")


def test_the_site_says_check_runs_it_here_and_the_decks_keep_their_sentence():
    path = ROOT / "notebooks/02_softmax.ipynb"
    site = build_site.for_site(nbformat.read(path, as_version=4), path)
    page = "".join(str(c.get("outputs", "")) for c in site.cells)
    assert "Check runs your code in this page" in page and "this page does not run code" not in page
    deck = nbformat.read(path, as_version=4)
    exercise_pages.task_cards(deck, path, compact=True)
    slide = "".join(str(c.get("outputs", "")) for c in deck.cells)
    assert "this page does not run code" in slide and "attn-practice" not in slide


def test_a_reference_page_gets_no_scratch_cell(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Glossary")])
    assert exercise_pages.practice_cards(nb, tmp_path / "glossary.ipynb") == 0
    assert len(nb.cells) == 1
