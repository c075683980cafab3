"""How the site's search reads text: ``tools.site_search.fold`` and ``terms`` (Python, which writes what the
other editions are asked for) and their twins in tools/site_nav.js (the reader's browser, which indexes the
sections and reads the query). Notation written any way a reader types it is one term; both twins give the
same terms for every text of the series."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from tests.harness import missing
from tools import build_site
from tools.site_search import fold, plain_text, terms

pytestmark = pytest.mark.repo  # imports tools/ and reads the notebooks

ROOT = Path(__file__).resolve().parents[1]

# (what a reader types, the terms it is looked up by)
SPELLINGS = [
    ("d_k", ["d_k"]), ("dk", ["d_k"]), ("d k", ["d_k"]), ("dₖ", ["d_k"]), ("d_{k}", ["d_k"]), ("D_K", ["d_k"]),
    ("√dk", ["√", "d_k"]), ("√d_k", ["√", "d_k"]), ("sqrt(d_k)", ["√", "d_k"]), ("sqrt dk", ["√", "d_k"]),
    ("d_model", ["d_model"]), ("dmodel", ["d_model"]), ("d model", ["d_model"]), ("d_{model}", ["d_model"]),
    ("QK^T", ["qkᵀ"]), ("QKᵀ", ["qkᵀ"]), ("QK^\\top", ["qkᵀ"]), ("QK^⊤", ["qkᵀ"]), ("K^T", ["kᵀ"]),
    ("W_Q", ["w_q"]), ("Wq", ["w_q"]), ("W o", ["w_o"]), ("T_q ≠ T_k", ["t_q", "t_k"]), ("tk", ["t_k"]),
]
# Words that look like notation but are not: left as they are.
WORDS = [("to", ["to"]), ("do", ["do"]), ("dot", ["dot"]), ("desk", ["desk"]), ("walk", ["walk"]),
         ("d_kv", ["d_kv"]), ("the sqrt2 box", ["the", "sqrt2", "box"]), ("t", ["t"])]


@pytest.mark.parametrize(("typed", "found"), SPELLINGS + WORDS, ids=[t for t, _ in SPELLINGS + WORDS])
def test_notation_is_one_term_however_it_is_typed(typed, found):
    assert terms(typed, for_query=True) == found
    assert terms(typed) == found


def test_chinese_is_cut_into_characters_and_pairs_and_a_query_into_pairs():
    assert terms("掩码注意力 mask") == ["掩", "码", "注", "意", "力", "掩码", "码注", "注意", "意力", "mask"]
    assert terms("注意力", for_query=True) == ["注意", "意力"]
    assert terms("掩", for_query=True) == ["掩"]
    assert terms("d_k 很大时，softmax 变尖") == ["d_k", "很", "大", "时", "很大", "大时", "softmax", "变", "尖", "变尖"]


def test_fold_keeps_what_it_does_not_know_and_refuses_what_is_not_text():
    assert fold("Softmax(QKᵀ/√d_k)V") == "softmax(qkᵀ/√d_k)v"
    assert fold("") == "" and terms("  ·  ") == []
    with pytest.raises(TypeError, match=r"text must be a str, got bytes"):
        fold(b"d_k")


# ---- the twins agree -----------------------------------------------------------------------------------------
# site_nav.js is a classic script for the page: run it in Node with the little of a page it touches when it
# starts, and call the functions it leaves on window.attnSiteTerms.
RUNNER = r"""
const vm = require("node:vm");
const fs = require("node:fs");
const quiet = { matches: true, addEventListener() {} };
const window = { matchMedia: () => quiet, location: { search: "" }, addEventListener() {} };
const context = vm.createContext({ window, document: { querySelectorAll: () => [], querySelector: () => null, addEventListener() {} } });
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), context);
const { fold, terms } = window.attnSiteTerms;
const texts = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(texts.map((t) => [fold(t), terms(t, false), terms(t, true)])));
"""


def series_texts() -> list[str]:
    """The prose of every Markdown cell of the three editions, as the index holds it, and its headings."""
    texts = []
    for path in sorted((ROOT / "notebooks").glob("**/[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                texts.append(plain_text(cell.source))
    return texts


def test_the_page_reads_every_text_of_the_series_as_python_does(tmp_path):
    node = shutil.which("node")
    if node is None:
        missing("node is not installed: the search's twins run in Node")
    texts = [typed for typed, _ in SPELLINGS + WORDS] + ["İstanbul ΣΑΣ", "x² ₀₉ ᵢⱼ", "𠀀𠀁 々", "ｄｋ"]
    texts += series_texts()
    assert len(texts) > 300
    runner = tmp_path / "run.cjs"
    runner.write_text(RUNNER, encoding="utf-8")
    done = subprocess.run([node, str(runner), str(build_site.NAV_JS)], input=json.dumps(texts), text=True,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    differ = [(text[:80], page, [fold(text), terms(text), terms(text, True)])
              for text, page in zip(texts, json.loads(done.stdout), strict=True)
              if page != [fold(text), terms(text), terms(text, True)]]
    assert not differ, f"{len(differ)} texts read differently by site_nav.js and Python; first: {differ[0]}"
