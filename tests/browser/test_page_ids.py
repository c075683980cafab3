"""Page modules side by side on one page keep apart: each widget of a site page or a deck is mounted with
its own copy of its module (``attnlib.page.mount_html`` inlines one bundle per widget), so ids and radio
groups must come from the kit's one id maker, unique across those copies, not from a counter per copy.

The case that matters: two quizzes on one page (a review quiz after a notebook's own). If their radio
buttons shared a ``name``, answering the second would uncheck the first.
"""

from __future__ import annotations

from attnlib.labs.registry import build
from attnlib.page import mount_html
from attnlib.quiz import quiz

# Every radio button's group name, by the quiz it is in; and every id on the page that is used twice.
NAMES_JS = """() => ({
  groups: Array.from(document.querySelectorAll('.attn-quiz'),
                     (quiz) => Array.from(quiz.querySelectorAll('input[type=radio]'), (input) => input.name)),
  twice: Array.from(document.querySelectorAll('[id]'), (e) => e.id).filter((id, i, all) => all.indexOf(id) !== i),
})"""


def test_two_quizzes_and_two_labs_on_one_page_keep_their_own_groups_and_ids(page, tmp_path):
    mounts = [mount_html("quiz", quiz(8).page_state(), "quiz-1"), mount_html("quiz", quiz(7).page_state(), "quiz-2")]
    lab = build("dot_product")
    mounts += [mount_html("dot_product", lab.page_state(), f"lab-{n}") for n in (1, 2)]
    path = tmp_path / "two_quizzes.html"
    path.write_text("<!doctype html><meta charset='utf-8'><body>" + "".join(mounts) + "</body>", encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_function("() => document.querySelectorAll('.attn-quiz').length === 2"
                           " && document.querySelectorAll('.attn-lab').length === 2")

    found = page.evaluate(NAMES_JS)
    first, second = (set(group) for group in found["groups"])
    assert first and second and not first & second, f"radio groups shared by both quizzes: {sorted(first & second)}"
    assert not found["twice"], f"ids used twice: {found['twice']}"

    # Answer question 1 of the first quiz, then question 1 of the second: the first answer stays.
    options = [page.locator(f"#quiz-{n} fieldset.question").first.locator("label.option") for n in (1, 2)]
    options[0].nth(0).click()
    options[1].nth(1).click()
    checked = [[box.is_checked() for box in o.locator("input").all()] for o in options]
    assert checked[0][0] and checked[1][1], checked
    assert page.evaluate("() => Array.from(document.querySelectorAll('.attn-quiz'), (q) => q.attnQuiz.choices[0])") == [0, 1]
