"""The table of contents in 00 and the previous/next links agree with the notebooks' titles.

The first test checks the real notebooks (run `python -m tools.make_navigation` when it fails).
The others run the generator on copies in a temporary folder, with a few small notebooks made up
for the purpose, so they do not depend on how many notebooks the series has today.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tools import make_navigation as nav

pytestmark = pytest.mark.repo  # reads and writes the navigation of notebooks/ with tools/

ROOT = Path(__file__).resolve().parents[1]

START = ROOT / "notebooks" / "00_start_here.ipynb"


def test_real_notebooks_are_up_to_date():
    messages: list[str] = []
    status = nav.run(ROOT / "notebooks", check=True, log=messages.append)
    assert status == 0, "\n".join(messages) + "\nfix: python -m tools.make_navigation"


def make_notebook(path: Path, title: str, first_paragraph: str, n_cells: int = 2) -> None:
    cells = [
        {
            "cell_type": "markdown",
            "id": f"c{i}",
            "metadata": {"slideshow": {"slide_type": "slide"}},
            "source": [f"# {title}\n", "\n", f"{first_paragraph}\n", "\n", "$$x = 1$$\n"]
            if i == 0
            else [f"## {i}. Section\n"],
        }
        for i in range(n_cells)
    ]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(nav.dump(nb), encoding="utf-8")


@pytest.fixture
def series(tmp_path) -> Path:
    """A copy of notebook 00 and three made-up notebooks after it."""
    shutil.copy(START, tmp_path / START.name)
    make_notebook(
        tmp_path / "01_inner_products.ipynb", "01 · Inner products", "Compare two tokens. Then more."
    )
    make_notebook(tmp_path / "02_softmax.ipynb", "02 · Softmax", "Scores become weights:")
    make_notebook(
        tmp_path / "03_weighted_sum.ipynb", "03 · The weighted sum", "Average the rows | all of them."
    )
    return tmp_path


def run(folder: Path, check: bool) -> tuple[int, str]:
    messages: list[str] = []
    return nav.run(folder, check=check, log=messages.append), "\n".join(messages)


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def test_generate_then_check_then_rename_a_title(series):
    assert run(series, check=True)[0] == 1  # fresh copies have no navigation yet
    assert run(series, check=False)[0] == 0
    status, message = run(series, check=True)
    assert status == 0, message

    path = series / "02_softmax.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["cells"][0]["source"][0] = "# 02 · Softmax, from scores to weights\n"
    path.write_text(nav.dump(nb), encoding="utf-8")
    status, message = run(series, check=True)
    assert status == 1
    assert "00_start_here.ipynb: the table of contents is out of date" in message
    assert "01_inner_products.ipynb: the navigation cell" in message  # its "next" link names 02
    assert "03_weighted_sum.ipynb: the navigation cell" in message  # its "previous" link names 02

    assert run(series, check=False)[0] == 0
    assert run(series, check=True)[0] == 0
    assert "[02 · Softmax, from scores to weights](02_softmax.ipynb)" in source(cells(series / START.name)[3])


def test_second_run_changes_no_byte(series):
    run(series, check=False)
    before = {p.name: p.read_bytes() for p in series.iterdir()}
    assert run(series, check=False)[0] == 0
    assert {p.name: p.read_bytes() for p in series.iterdir()} == before


def test_toc_lists_every_notebook_with_link_and_description(series):
    run(series, check=False)
    toc_cells = [c for c in cells(series / START.name) if nav.TOC_START in source(c)]
    assert len(toc_cells) == 1
    toc = source(toc_cells[0])
    assert toc.startswith("## 1. The path")  # the heading and the text around the marker are kept
    assert "toc" in toc_cells[0]["metadata"]["tags"]
    rows = [line for line in toc.splitlines() if line.startswith("| [")]
    assert rows == [
        "| [00 · Start here](00_start_here.ipynb) | This series builds one formula, the heart of every"
        " Transformer, one idea at a time. |",
        "| [01 · Inner products](01_inner_products.ipynb) | Compare two tokens. |",
        "| [02 · Softmax](02_softmax.ipynb) | Scores become weights. |",
        "| [03 · The weighted sum](03_weighted_sum.ipynb) | Average the rows \\| all of them. |",
    ]


def test_navigation_cell_is_last_skipped_and_never_duplicated(series):
    for _ in range(3):
        run(series, check=False)
    expected = {
        "00_start_here.ipynb": "next: [01 · Inner products](01_inner_products.ipynb) →",
        "01_inner_products.ipynb": "← previous: [00 · Start here](00_start_here.ipynb) · "
        "↑ [all notebooks](00_start_here.ipynb) · next: [02 · Softmax](02_softmax.ipynb) →",
        "03_weighted_sum.ipynb": "← previous: [02 · Softmax](02_softmax.ipynb) · "
        "↑ [all notebooks](00_start_here.ipynb)",
    }
    for name, links in expected.items():
        all_cells = cells(series / name)
        tagged = [c for c in all_cells if "navigation" in c["metadata"].get("tags", [])]
        assert len(tagged) == 1 and tagged[0] is all_cells[-1]
        assert tagged[0]["metadata"]["slideshow"] == {"slide_type": "skip"}
        assert source(tagged[0]).splitlines()[-1] == links


def test_navigation_moves_to_the_end_when_cells_are_added_after_it(series):
    run(series, check=False)
    path = series / "01_inner_products.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["cells"].append({"cell_type": "markdown", "id": "new", "metadata": {}, "source": ["## Exercises\n"]})
    path.write_text(nav.dump(nb), encoding="utf-8")
    assert run(series, check=True)[0] == 1
    run(series, check=False)
    assert [c["id"] for c in cells(path)][-2:] == ["new", "navigation"]


def test_rise_theme_is_enforced(series):
    run(series, check=False)
    path = series / "02_softmax.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert nb["metadata"]["rise"] == {"theme": "white", "scroll": True, "center": False}
    nb["metadata"]["rise"] = {"theme": "simple", "scroll": False, "transition": "fade"}
    path.write_text(nav.dump(nb), encoding="utf-8")
    status, message = run(series, check=True)
    assert status == 1 and 'metadata "rise" is not {"theme": "white", "scroll": true, "center": false}' in message
    run(series, check=False)
    assert json.loads(path.read_text(encoding="utf-8"))["metadata"]["rise"] == {
        "theme": "white",
        "scroll": True,
        "center": False,
        "transition": "fade",  # other settings are the lecturer's
    }


def test_markdown_only_outputs_untouched(series):
    """The generator must not disturb stored outputs or code (nbval compares them)."""
    before = [c for c in cells(series / START.name) if c["cell_type"] == "code"]
    run(series, check=False)
    assert [c for c in cells(series / START.name) if c["cell_type"] == "code"] == before


@pytest.mark.parametrize(
    ("title", "problem"),
    [
        ("# 05 · Wrong number", "the title says 05 but the file name says 02"),
        ("# Softmax", "the first heading should read '# NN · Title'"),
    ],
)
def test_bad_titles_are_reported(series, title, problem):
    make_notebook(series / "02_softmax.ipynb", "x", "y")
    path = series / "02_softmax.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["cells"][0]["source"][0] = title + "\n"
    path.write_text(nav.dump(nb), encoding="utf-8")
    status, message = run(series, check=True)
    assert status == 2 and problem in message


def test_missing_toc_marker_is_reported(series):
    path = series / START.name
    path.write_text(path.read_text(encoding="utf-8").replace(nav.TOC_START, "(contents)"), encoding="utf-8")
    status, message = run(series, check=False)
    assert status == 2 and "needs exactly one Markdown cell" in message


@pytest.mark.parametrize(
    ("lines", "sentence"),
    [
        (["One idea. Two ideas."], "One idea."),
        (
            ["A sentence that runs", "over two lines!", "", "Next paragraph."],
            "A sentence that runs over two lines!",
        ),
        (["Ends with a colon:", "", "$$x$$"], "Ends with a colon."),
        (["No full stop", "$$x$$"], "No full stop"),
        (["Uses √d_k and 3.5 units. More."], "Uses √d_k and 3.5 units."),
    ],
)
def test_first_sentence(lines, sentence):
    assert nav.first_sentence(lines) == sentence


@pytest.mark.parametrize(
    ("lines", "sentence"),
    [
        (["注意力从一个问题开始。然后更多。"], "注意力从一个问题开始。"),
        (["一句话跨了", "两行！", "", "下一段。"], "一句话跨了两行！"),
        (["以冒号结尾：", "", "$$x$$"], "以冒号结尾。"),
        (["先算 $XX^\\top$，", "再看 softmax。"], "先算 $XX^\\top$，再看 softmax。"),
    ],
)
def test_first_sentence_in_chinese(lines, sentence):
    assert nav.first_sentence(lines) == sentence


@pytest.fixture
def editions(series) -> Path:
    """The made-up series with a zh-Hans and a zh-Hant edition of notebooks 01 to 03 (and a copy of 00)."""
    titles = {"zh-Hans": ("内积", "权重", "加权和"), "zh-Hant": ("內積", "權重", "加權和")}
    for lang, (one, two, three) in titles.items():
        folder = series / lang
        folder.mkdir()
        shutil.copy(START, folder / START.name)
        make_notebook(folder / "01_inner_products.ipynb", f"01 · {one}", "比较两个词元。然后更多。")
        make_notebook(folder / "02_softmax.ipynb", f"02 · {two}", "分数变成权重：")
        make_notebook(folder / "03_weighted_sum.ipynb", f"03 · {three}", "对各{行}求平均。")
    return series


def test_each_edition_gets_its_own_toc_and_links_to_the_others(editions):
    assert run(editions, check=False)[0] == 0
    status, message = run(editions, check=True)
    assert status == 0 and "12 notebooks" in message, message
    toc = next(source(c) for c in cells(editions / "zh-Hans" / START.name) if nav.TOC_START in source(c))
    assert "| 笔记本 | 内容 |" in toc
    assert "| [02 · 权重](02_softmax.ipynb) | 分数变成权重。 |" in toc
    hant = source(cells(editions / "zh-Hant" / "02_softmax.ipynb")[-1]).splitlines()
    assert hant[-3] == "[English](../02_softmax.ipynb) · [简体中文](../zh-Hans/02_softmax.ipynb) · **繁體中文**"
    assert hant[-1] == (
        "← 上一篇：[01 · 內積](01_inner_products.ipynb) · ↑ [全部筆記本](00_start_here.ipynb) · "
        "下一篇：[03 · 加權和](03_weighted_sum.ipynb) →"
    )
    english = source(cells(editions / "02_softmax.ipynb")[-1]).splitlines()
    assert english[-3] == "**English** · [简体中文](zh-Hans/02_softmax.ipynb) · [繁體中文](zh-Hant/02_softmax.ipynb)"


def test_a_stale_edition_title_is_reported_with_its_folder(editions):
    run(editions, check=False)
    make_notebook(editions / "zh-Hans" / "02_softmax.ipynb", "02 · 新标题", "分数变成权重：")
    status, message = run(editions, check=True)
    assert status == 1 and "zh-Hans/00_start_here.ipynb: the table of contents is out of date" in message
