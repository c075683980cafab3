"""attnlib.plot as a package: every public name where the notebooks call it, each pointing back to the
lesson that teaches it, and every text it draws translated with the same placeholders."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from attnlib import plot
from tests.catalogues import LOCALE, check_catalogue, placeholders

PACKAGE = Path(plot.__file__).parent  # the installed copy, when the tests run against the wheel
MODULES = ["style", "matrices", "vectors", "distributions", "models"]


def test_every_text_plot_draws_has_a_simplified_chinese_entry():
    check_catalogue(PACKAGE, "plot")


def test_placeholders_ignore_the_row_markup_only():
    assert placeholders("{行} {token}: {w:.2f}") == [("token", "", None), ("w", ".2f", None)]
    assert placeholders("{a}") != placeholders("{b}")


@pytest.mark.parametrize("module", MODULES)
def test_modules_stay_small_and_grouped_by_idea(module):
    source = (PACKAGE / f"{module}.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 600
    assert "__all__ +=" not in source and not re.search(r"# -+ Notebooks? \d", source)
    assert not re.search(r"raise \w+\(\s*f?[\"']", source)  # every message through attnlib.validation and tr


def test_every_public_name_is_on_the_package():
    names = set()
    for module in MODULES:
        mod = __import__(f"attnlib.plot.{module}", fromlist=["_"])
        names |= {n for n, v in vars(mod).items() if not n.startswith("_") and getattr(v, "__module__", None)
                  == mod.__name__}
    assert names <= set(plot.__all__), sorted(names - set(plot.__all__))
    assert all(hasattr(plot, name) for name in plot.__all__)


def test_every_translated_text_draws_with_the_bundled_fonts():
    """The 简体 catalogues of plot and labs, drawn by matplotlib with font warnings as errors."""
    import warnings

    import matplotlib.pyplot as plt

    from attnlib.i18n import resolve_markup

    texts = []
    for part in ("plot", "labs"):
        path = LOCALE / f"{part}.json"
        texts += [resolve_markup(t, "zh-Hans") for t in json.loads(path.read_text(encoding="utf-8")).values()]
    with plot.use_style(), warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = plot.new_figure((8, 0.3 * len(texts)))
        for k, text in enumerate(texts):
            fig.text(0.01, 1 - (k + 0.5) / len(texts), re.sub(r"</?b>", "", text), fontsize=6)
        fig.canvas.draw()
    plt.close("all")
    assert any("注意力权重" in t for t in texts)
