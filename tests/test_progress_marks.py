"""What the site's pages need to keep the learner's work and mark it in the contents (the browser side:
tests/browser/test_progress.py).

- A quiz of the series carries its notebook's number in its spec ("02"), the key its answers are kept under;
  a quiz of one's own carries none; a number that is not one is refused, naming the argument.
- Each notebook's exercises get the ids the page keeps them under ("<stem>/<name>"), one per exercise cell
  as tools/exercise_pages.py recognises it (the learner's function, the puzzle's first matrix), and none
  for the cells that check the folded answer.
- The contents (a page's side, the index) carry each notebook's number and exercise ids, and the forget
  button with its words in the page's language; a reference page carries none.
- The page kit and the site's navigation script read one and the same localStorage key and event.
- The kit's store, run in Node with a stand-in localStorage: a write is kept and announced, a record of the
  wrong kind or unreadable reads as empty, forgetting removes its own entry only, and with storage refused
  nothing throws (the change is still announced, for the page to follow).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from attnlib.page import KIT
from attnlib.quiz import Quiz, quiz
from tools import build_site, offline_pages

pytestmark = pytest.mark.repo  # reads the notebooks or tools/ of the checkout

ROOT = Path(__file__).resolve().parents[1]
QUESTION = {"prompt": "1 + 1 is", "options": ["2", "3"], "answer": 0, "explain": "Count."}


def test_a_quiz_of_the_series_carries_its_notebook_number():
    assert quiz(2).spec["notebook"] == "02" and quiz(2).notebook == 2
    assert quiz([QUESTION]).spec["notebook"] is None
    assert Quiz([QUESTION], notebook=7).spec["notebook"] == "07"


@pytest.mark.parametrize("bad", [100, -1, 2.0, True, "02"])
def test_a_notebook_number_that_is_not_one_is_refused(bad):
    with pytest.raises(ValueError, match=r"notebook must be None or a notebook number 0\.\.99; got"):
        Quiz([QUESTION], notebook=bad)


def exercise_notebook():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("def my_softmax(x):\n    raise NotImplementedError\n\n"
                                  "exercises.check_softmax_rows(my_softmax)"),
        nbformat.v4.new_code_cell("def solution_softmax(x):\n    return x\n\n"
                                  "exercises.check_softmax_rows(solution_softmax)"),  # the folded answer
        nbformat.v4.new_code_cell("W_q_green = np.zeros((4, 2))\nW_k_green = np.zeros((4, 2))\n"
                                  'exercises.check_projection_puzzle(W_q_green, W_k_green, query="green", '
                                  'key="grass")'),
        nbformat.v4.new_markdown_cell("exercises.check_entropy(my_entropy) raise NotImplementedError"),
    ]
    return nb


def test_each_exercise_cell_gets_the_id_its_work_is_kept_under():
    assert build_site.exercise_ids(exercise_notebook(), Path("04_x.ipynb")) == ["04_x/my_softmax", "04_x/W_q_green"]


def test_every_notebook_with_exercises_gives_each_an_id_of_its_own():
    counted = {}
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        ids = build_site.exercise_ids(nbformat.read(path, as_version=4), path)
        assert len(set(ids)) == len(ids) and all(i.startswith(f"{path.stem}/") for i in ids), ids
        counted[path.stem[:2]] = len(ids)
    assert counted["00"] == 0 and all(2 <= counted[n] <= 4 for n in counted if n != "00"), counted


def chrome():
    from jinja2 import Environment, FileSystemLoader

    return Environment(loader=FileSystemLoader(offline_pages.TEMPLATES)).get_template("chrome.html.j2").module


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_the_contents_carry_what_the_marks_need_and_the_forget_button(language):
    pages = [build_site.Page(Path("02_softmax.ipynb"), "02 · Softmax", "", exercises=("02_softmax/my_softmax",
                                                                                         "02_softmax/my_entropy")),
             build_site.Page(Path("00_start_here.ipynb"), "00 · Start", "")]
    references = [build_site.Page(Path("glossary.ipynb"), "Glossary", "", stem="glossary")]
    side = str(chrome().side(build_site.site_resources(pages, 0, language, (language,), references), []))
    assert '<li data-notebook="02" data-exercises="02_softmax/my_softmax 02_softmax/my_entropy">' in side
    assert '<li data-notebook="00" data-exercises="">' in side
    assert side.count("data-notebook=") == 2  # not the reference page
    words = build_site.WORDS[language]
    button = re.search(r'<button type="button" class="site-forget-button"([^>]*)>([^<]*)</button>', side)
    assert button and button.group(2) == words["forget"], side
    for key, attribute in (("forget_again", "again"), ("forgotten", "done"), ("progress_exercises", "exercises"),
                           ("progress_quiz", "quiz")):
        assert f'data-{attribute}="{words[key]}"' in button.group(1)
    assert '<span class="site-forget-status" role="status"></span>' in side
    if language != "en":  # every word translated, its placeholders kept
        english = build_site.WORDS["en"]
        for key in ("progress_exercises", "progress_quiz", "progress_kept", "forget", "forget_again", "forgotten"):
            placeholders = [sorted(re.findall(r"\{\w+\}", text)) for text in (words[key], english[key])]
            assert words[key] != english[key] and placeholders[0] == placeholders[1], (key, words[key])


def test_the_kit_and_the_navigation_keep_the_work_under_one_key():
    kit = (ROOT / "attnlib" / "page" / "kit.js").read_text(encoding="utf-8")
    nav = (ROOT / "tools" / "site_nav.js").read_text(encoding="utf-8")
    for name in ("PROGRESS_KEY", "PROGRESS_EVENT"):
        found = [re.search(rf'const {name} = "([^"]+)";', source) for source in (kit, nav)]
        assert all(found) and found[0].group(1) == found[1].group(1), name


# ---- the kit's store, run in Node with a stand-in localStorage -------------------------------------------
STORE_RUNNER = r"""
import * as kit from "./kit.mjs";
const heard = [];
const kept = new Map([["other", "1"]]);
const storage = {
  getItem: (k) => (kept.has(k) ? kept.get(k) : null),
  setItem: (k, v) => { kept.set(k, String(v)); },
  removeItem: (k) => { kept.delete(k); },
};
let refused = false;
globalThis.window = new EventTarget();
Object.defineProperty(window, "localStorage", { get() {
  if (refused) throw new Error("SecurityError: storage is disabled");
  return storage;
} });
window.addEventListener(kit.PROGRESS_EVENT, (e) => heard.push(e.detail));
const out = {};
out.empty = kit.readProgress();
kit.updateProgress((p) => { p.passed["02_softmax/my_softmax"] = true; p.code["02_softmax/my_softmax"] = "x = 1"; });
out.written = JSON.parse(kept.get(kit.PROGRESS_KEY));
out.heard = heard.length;
out.detail = heard.at(-1);
kept.set(kit.PROGRESS_KEY, '{"code": [1], "passed": {"a/b": true}, "quiz": "no"}');
out.mended = kit.readProgress();
kept.set(kit.PROGRESS_KEY, "{not json");
out.unreadable = kit.readProgress();
kit.forgetProgress();
out.forgotten = [kept.has(kit.PROGRESS_KEY), kept.get("other"), heard.at(-1)];
refused = true;
out.refusedRead = kit.readProgress();
out.refusedUpdate = kit.updateProgress((p) => { p.quiz["02"] = { first: [0], n: 1 }; });
out.refusedHeard = heard.at(-1);
kit.forgetProgress();
out.key = kit.PROGRESS_KEY;
process.stdout.write(JSON.stringify(out));
"""


def test_the_kit_keeps_reads_mends_and_forgets_the_work_and_survives_refused_storage(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed to run kit.js (apt-get install nodejs)")
    shutil.copyfile(KIT, tmp_path / "kit.mjs")
    (tmp_path / "run.mjs").write_text(STORE_RUNNER, encoding="utf-8")
    done = subprocess.run([node, str(tmp_path / "run.mjs")], text=True, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    empty = {"code": {}, "passed": {}, "quiz": {}}
    assert out["key"] == "attn-progress-v1" and out["empty"] == empty
    written = {"code": {"02_softmax/my_softmax": "x = 1"}, "passed": {"02_softmax/my_softmax": True}, "quiz": {}}
    assert out["written"] == written and out["heard"] == 1 and out["detail"] == written
    assert out["mended"] == {"code": {}, "passed": {"a/b": True}, "quiz": {}}  # a section of the wrong kind: empty
    assert out["unreadable"] == empty
    assert out["forgotten"] == [False, "1", empty]  # only its own entry goes
    assert out["refusedRead"] == empty
    refused = {"code": {}, "passed": {}, "quiz": {"02": {"first": [0], "n": 1}}}
    assert out["refusedUpdate"] == refused and out["refusedHeard"] == refused  # announced all the same
