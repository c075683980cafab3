"""What each lab's page shows is what attnlib computes, at every setting of its controls.

Each lab is built in Python, mounted on a page with no kernel (as the site and the slides mount it),
and then, for every setting: the page's own frame (the numbers it draws) is compared with the Python
frame computed with attnlib, and the readout the page paints is compared, as text, with the readout
Python fills from its frame. This is the check that the page carries no second copy of the math that
could drift: where the page computes (the softmax of the d_k and mask labs), it is checked here.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_labs import NAMES, build  # noqa: E402

from attnlib import labs, plot  # noqa: E402
from attnlib.labs.base import fill  # noqa: E402

# The numbers each lab's frame shares with Python, compared to float precision.
KEYS = {
    "dot_product": ["a", "b", "dot", "cos", "proj"],
    "softmax_scale": ["weights", "entropy"],
    "convex_hull": ["out"],
    "dk": ["weights", "sigma", "max_weight", "entropy", "gradient"],
    "mask": ["scores", "weights", "leak", "keep", "lengths"],
    "generation": ["weights", "top_probs", "p"],
}

_COMPARE = """
async ([settings, expected, keys]) => {
  const root = document.querySelector('.attn-lab');
  const { def, spec, model } = root.attnLab;
  const flat = (x) => (Array.isArray(x) ? x.flatMap(flat) : [typeof x === 'boolean' ? Number(x) : x]);
  let worst = 0; const problems = [];
  settings.forEach((values, i) => {
    const frame = def.frame(spec, values);
    for (const key of keys) {
      const got = flat(frame[key]), want = flat(expected[i].numbers[key]);
      if (got.length !== want.length) { problems.push(`${JSON.stringify(values)} ${key}: ${got.length} numbers, Python ${want.length}`); continue; }
      got.forEach((g, k) => { worst = Math.max(worst, Math.abs(g - want[k])); });
    }
    model.set('values', values);  // paint this setting as a learner would see it
    const shown = root.querySelector('.readout').textContent;
    if (shown !== expected[i].readout) problems.push(`${JSON.stringify(values)}: page "${shown}" Python "${expected[i].readout}"`);
    if (root.dataset.values !== JSON.stringify(values)) problems.push(`${JSON.stringify(values)}: page shows ${root.dataset.values}`);
  });
  return { worst, problems: problems.slice(0, 8), count: problems.length };
}
"""


def plain(value):
    if isinstance(value, np.ndarray):
        return value.astype(float).tolist() if value.dtype.kind == "b" else value.tolist()
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return value


def text_of(readout: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", readout))


@pytest.mark.parametrize("name", NAMES)
def test_page_frames_equal_attnlib_at_every_setting(name, page, tmp_path):
    with plot.use_style():
        lab = build(name)
    settings = lab.settings()
    expected = []
    for values in settings:
        frame = lab.frame(**values)
        expected.append({"numbers": {k: plain(frame[k]) for k in KEYS[name]},
                         "readout": text_of(fill(lab.spec["readout"], frame["fields"]))})
    path = tmp_path / f"{name}.html"
    path.write_text("<!doctype html><meta charset='utf-8'><body>"
                    + labs.mount_html(name, lab.page_state(), "lab"), encoding="utf-8")
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(path.as_uri())
    page.wait_for_selector(".attn-lab svg.figure")
    result = page.evaluate(_COMPARE, [settings, expected, KEYS[name]])
    assert not errors, errors
    assert result["count"] == 0, f"{name}: {result['count']} of {len(settings)} settings differ: {result['problems']}"
    assert result["worst"] < 1e-12, f"{name}: the page's numbers differ from attnlib's by {result['worst']:.2e}"

