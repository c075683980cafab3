"""The code cells of the Chinese editions: only their comments and shown strings are translated.

A Chinese edition's code cell is the English cell with fragments replaced from the code catalogue
``notebooks/translations/zh-Hans/code/NN_name.md``. The first group proves, on every code cell of both
editions as committed, that it is the English program: the same syntax tree once string constants are
blanked (and comments, which the tree does not hold, ignored), and every string that changed is one that is
only shown (printed, a title, an axis label, a legend), never a token, a file name, a dict key or a format
spec. The second group proves the checker refuses each kind of drift, and that ``tools.translate`` builds,
converts to 繁體 and reports stale or missing code translations.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from tests.translation_cases import build_and_mark_executed, check, edition
from tools.translate.code_catalogue import code_problems, read_code_catalogue
from tools.translate.code_check import DIRECTIVE, code_candidates, code_drift, names_used, python_source
from tools.translate.config import EDITIONS, REPO, Paths
from tools.translate.prose import english_hash, english_notebooks
from tools.translate.translator import code_skeleton, stamp

pytestmark = pytest.mark.repo  # checks the editions' code with tools/

ROOT = Path(__file__).resolve().parents[1]

ENGLISH_NOTEBOOKS = english_notebooks()
CHINESE = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")  # Han, or Chinese punctuation


def program(source: str) -> str:
    """The syntax tree of a cell with every string blanked: what no translation may change.

    Written apart from code_check.code_drift on purpose (a second, simpler opinion): string constants become
    "", and the literal parts of f-strings are dropped; the format specs of f-strings are kept.
    """
    tree = ast.parse(python_source(source))
    specs = {id(n.format_spec) for n in ast.walk(tree) if isinstance(n, ast.FormattedValue) and n.format_spec}
    inside_spec = set()
    for node in ast.walk(tree):
        if id(node) in specs:
            inside_spec |= {id(n) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in inside_spec:
            continue
        if isinstance(node, ast.JoinedStr):
            node.values = [v for v in node.values if not isinstance(v, ast.Constant)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree, include_attributes=False)


def without_language_line(source: str) -> str:
    return "".join(
        line for line in source.splitlines(keepends=True) if not line.startswith("attnlib.set_language(")
    )


# --- the committed editions ------------------------------------------------------------------------


@pytest.mark.parametrize("path", ENGLISH_NOTEBOOKS, ids=lambda p: p.stem)
@pytest.mark.parametrize("language", EDITIONS)
def test_every_code_cell_of_the_edition_is_the_english_program(path, language):
    english = {c.id: c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"}
    built = nbformat.read(ROOT / "notebooks" / language / path.name, as_version=4)
    translated, problems = 0, []
    for cell in (c for c in built.cells if c.cell_type == "code"):
        source = without_language_line(cell.source)
        original = english[cell.id].source
        if program(source) != program(original):
            problems.append(f"{cell.id}: not the English program")
        elif source != original:
            translated += 1
            seen = names_used(nbformat.read(path, as_version=4), but=cell.id)
            problems += [f"{cell.id}: {why}" for why in code_drift(original, source, seen)]
    assert not problems, "\n".join(problems)
    assert translated >= 3, f"{path.name}: only {translated} code cells translated"


@pytest.mark.parametrize("path", ENGLISH_NOTEBOOKS, ids=lambda p: p.stem)
def test_code_catalogue_is_complete_and_up_to_date(path):
    assert REPO.code_catalogue(path, "zh-Hans").exists(), "run `python -m tools.translate skeleton zh-Hans NN`"
    assert code_problems(path, "zh-Hans") == []


@pytest.mark.parametrize("path", ENGLISH_NOTEBOOKS, ids=lambda p: p.stem)
def test_every_translated_fragment_is_chinese_and_keeps_its_kind(path):
    """A comment stays a comment, a literal keeps its quotes, and what replaces English is Chinese."""
    for entry in read_code_catalogue(REPO.code_catalogue(path, "zh-Hans")).values():
        for english, hans in entry.pairs:
            assert hans != english and CHINESE.search(hans), (
                f"{entry.cell_id}: {english!r} is not translated: delete the pair to keep it"
            )
            if english.startswith("#"):
                assert hans.startswith("#") and "\n" not in hans, f"{entry.cell_id}: {hans!r}"
            else:
                quote = re.match(r"[a-zA-Z]*(\"\"\"|'''|\"|')", english)
                assert hans.startswith(quote.group(0)) and hans.endswith(quote.group(1)), (
                    f"{entry.cell_id}: {hans!r}"
                )


def test_nbval_directives_are_never_translated():
    for path in ENGLISH_NOTEBOOKS:
        for entry in read_code_catalogue(REPO.code_catalogue(path, "zh-Hans")).values():
            assert not any(DIRECTIVE.match(english) for english, _ in entry.pairs), entry.cell_id


def test_figures_and_printouts_of_the_first_notebook_are_chinese():
    """The issue's first example: 00's first figure title, in both scripts."""
    for language, title in (("zh-Hans", "权重 · 无掩码 · 未缩放"), ("zh-Hant", "權重 · 無遮罩 · 未縮放")):
        nb = nbformat.read(ROOT / "notebooks" / language / "00_start_here.ipynb", as_version=4)
        assert any(title in c.source for c in nb.cells if c.cell_type == "code"), language


# --- the checker -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("english", "translated"),
    [
        ('print("the weights", w)', 'print("权重", w)'),
        ('ax.set(title="loss", xlabel="step")', 'ax.set(title="损失", xlabel="步")'),
        ("x = 1  # the first row", "x = 1  # 第一行"),
        ('print(f"{n} keys: largest {w:.3f}")', 'print(f"{n} 个键：最大 {w:.3f}")'),
        ('print(f"largest {w:.3f} of {n}")', 'print(f"最大 {w:.3f}，共 {n}")'),
        (
            'for name, m in (("causal", a), ("no mask", b)):\n    plot(m, title=name)',
            'for name, m in (("因果", a), ("无掩码", b)):\n    plot(m, title=name)',
        ),
        (
            'def f(x):\n    """x (T,) -> the row sums."""\n    return x',
            'def f(x):\n    """x (T,) -> 各行之和。"""\n    return x',
        ),
        (
            'plot.loss_curves({"causal": h}, baselines={"guess": 3.0})',
            'plot.loss_curves({"因果": h}, baselines={"猜": 3.0})',
        ),
        (
            'labels = {"xlabel": "word"}\nplot.heatmap(w, **labels)',
            'labels = {"xlabel": "词"}\nplot.heatmap(w, **labels)',
        ),
        ('assert ok, "attnlib should refuse it"', 'assert ok, "attnlib 应当拒绝它"'),
    ],
)
def test_shown_strings_and_comments_may_change(english, translated):
    assert code_drift(english, translated) == []


@pytest.mark.parametrize(
    ("english", "translated", "why"),
    [
        ('tokens = ["the", "cat"]', 'tokens = ["这", "猫"]', "used for more than showing"),
        ('w = weights["no mask"]', 'w = weights["无掩码"]', "used for more than showing"),
        (
            'd = attnlib.data.load("green_grass")',
            'd = attnlib.data.load("绿草")',
            "used for more than showing",
        ),
        ('plot.heatmap(w, kind="scores")', 'plot.heatmap(w, kind="分数")', "used for more than showing"),
        (
            'if name == "causal":\n    print(name)',
            'if name == "因果":\n    print(name)',
            "used for more than showing",
        ),
        ('print(f"{w:.3f} weight")', 'print(f"{w:.2f} 权重")', "code differs"),
        ('print("%.3f weight" % w)', 'print("%.2f 权重" % w)', "format field"),
        ('print("a", w)', 'print("甲", w + 1)', "code differs"),
        ('print(f"{a} and {b}")', 'print(f"{b} 和 {a}")', "code differs"),
        ("x = 1  # one", "x = 2  # 一", "code differs"),
        ("x = 1  # keep x", "# x = 1  保留 x", "code differs"),
        ('name = "causal"\nprint(name)', 'name = "因果"\nprint(name)', "used for more than showing"),
        (
            'print(f"3 entries of each of {n} arrays")',
            'print(f"{n} 个数组各取 3 个元素")',
            "keep them, in that order",
        ),
        ('print("loss at steps 0, 10:", h)', 'print("第 10、0 步的损失：", h)', "keep them, in that order"),
    ],
)
def test_logic_and_computed_strings_may_not_change(english, translated, why):
    found = code_drift(english, translated, elsewhere=frozenset({"name"}))
    assert found and why in found[0], found


def test_candidates_are_comments_and_shown_strings_only():
    source = 'data = load("green_grass")  # the sentence\nprint(f"{T} tokens")\nplot.heatmap(w, kind="scores", title="weights")\n# NBVAL_IGNORE_OUTPUT'
    assert code_candidates(source) == ["# the sentence", 'f"{T} tokens"', '"weights"']


# --- building and checking, on the made-up series of test_translations ----------------------------

CODE = "print(np.round(rng.random(2), 3))"


def write_code_catalogue(repo: Paths, text: str) -> Path:
    path = repo.catalogues / "zh-Hans" / "code" / "01_demo.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def set_english_code(repo: Paths, source: str) -> None:
    path = repo.notebooks / "01_demo.ipynb"
    nb = nbformat.read(path, as_version=4)
    next(c for c in nb.cells if c.id == "work").source = source
    nbformat.write(nb, path)


SHOWN = 'print("random data:", np.round(rng.random(2), 3))  # two numbers'


def test_build_translates_code_into_both_scripts_and_check_passes(repo):  # noqa: F811 (the made-up series of test_translations)
    set_english_code(repo, SHOWN)
    h = english_hash(SHOWN)
    write_code_catalogue(
        repo,
        f'<!-- code work · en {h} -->\n- "random data:"\n+ "随机数据：“两个”"\n- # two numbers\n+ # 两个数\n',
    )
    build_and_mark_executed(repo)
    status, message = check(repo)
    assert status == 0, message
    hans = next(c for c in edition(repo, "zh-Hans").cells if c.id == "work").source
    hant = next(c for c in edition(repo, "zh-Hant").cells if c.id == "work").source
    assert hans == 'print("随机数据：“两个”", np.round(rng.random(2), 3))  # 两个数'
    assert "隨機數據：“兩個”" in hant and "# 兩個數" in hant  # s2twp + this series' overrides (數據)


def test_stale_missing_and_leftover_code_entries_are_reported(repo):  # noqa: F811 (the made-up series of test_translations)
    set_english_code(repo, SHOWN)
    build_and_mark_executed(repo)
    status, message = check(repo)
    assert status == 1 and "code cell work: no entry" in message and "skeleton zh-Hans 01" in message
    code_skeleton("zh-Hans", "01", repo)
    path = repo.catalogues / "zh-Hans" / "code" / "01_demo.md"
    assert '- "random data:"\n+ "random data:"' in path.read_text(encoding="utf-8")
    path.write_text(
        path.read_text(encoding="utf-8").replace('+ "random data:"', '+ "随机数据："'), encoding="utf-8"
    )
    build_and_mark_executed(repo)
    assert check(repo)[0] == 0
    set_english_code(repo, SHOWN.replace("2)", "3)"))  # the English code changed
    build_and_mark_executed(repo)
    status, message = check(repo)
    assert status == 1 and "code cell work: stale" in message and "stamp zh-Hans 01 work" in message
    stamp("zh-Hans", "01", ["work"], repo)
    build_and_mark_executed(repo)
    assert check(repo)[0] == 0
    path.write_text(
        path.read_text(encoding="utf-8") + "\n<!-- code gone · en 000000000000 -->\n", encoding="utf-8"
    )
    status, message = check(repo)
    assert status == 1 and "code cell gone: no such code cell" in message


def test_a_translation_that_changes_the_program_is_reported(repo):  # noqa: F811 (the made-up series of test_translations)
    set_english_code(repo, SHOWN)
    h = english_hash(SHOWN)
    write_code_catalogue(repo, f"<!-- code work · en {h} -->\n- rng.random(2)\n+ rng.random(4)\n")
    status, message = check(repo)
    assert status == 1 and "code cell work: the code differs" in message
    write_code_catalogue(repo, f"<!-- code work · en {h} -->\n- not in the cell\n+ 不在\n")
    status, message = check(repo)
    assert status == 1 and "the English cell has no 'not in the cell'" in message
    write_code_catalogue(repo, f"<!-- code work · en {h} -->\n- one line without its pair\n")
    status, message = check(repo)
    assert status == 1 and "expected pairs of lines" in message


def test_the_lab_placeholder_speaks_the_edition_language():
    """What a page without the widget shows in a lab's place (Lab.__repr__) comes from the catalogue."""
    import attnlib
    from attnlib import labs

    lab = labs.make_dot_product_lab()
    with attnlib.set_language("zh-Hans"):
        hans = repr(lab)
    with attnlib.set_language("zh-Hant"):
        hant = repr(lab)
    assert hans.startswith("<dot_product 实验台：") and "运行这个笔记本" in hans
    assert hant.startswith("<dot_product 實驗台：") and "'angle': 60" in hant
    assert repr(lab).startswith("<dot_product lab: {'angle': 60")
