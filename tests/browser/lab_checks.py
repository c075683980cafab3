"""Checks of a lab alone on a page, in any browser engine: what it shows against what Python computes
(the numbers it looks up or, with the kit's softmax, computes; its readout), and its text on a phone. The JavaScript functions take one JSON argument; Playwright's ``page.evaluate`` and the other
engines' ``call`` (engines.py) run them alike."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import numpy as np

from attnlib import labs, page
from attnlib.labs.base import _plain, fill
from attnlib.labs.registry import LABS

# The width of a lab on a 390 px phone (the site's column).
PHONE_COLUMN = 324

# What each lab's page frame holds besides its readout fields, compared with Python's frame to float
# precision (attnlib.labs.LABS[name].page_keys): looked up as Python sent it, or (the weights of the d_k
# and mask labs) computed by the kit's softmax from the numbers Python sent.
KEYS = {name: list(entry.page_keys) for name, entry in LABS.items() if entry.page_keys}

# At every setting: the page's frame against Python's (its numbers, its readout fields one by one), and
# the readout it paints against Python's words.
COMPARE_JS = """
async ([settings, expected, keys]) => {
  const root = document.querySelector('.attn-lab');
  const { def, spec, model } = root.attnLab;
  const flat = (x) => (Array.isArray(x) ? x.flatMap(flat) : [typeof x === 'boolean' ? Number(x) : x]);
  let worst = 0; const problems = [];
  const compare = (values, key, got, want) => {
    got = flat(got); want = flat(want);
    if (got.length !== want.length) { problems.push(`${JSON.stringify(values)} ${key}: ${got.length} numbers, Python ${want.length}`); return; }
    got.forEach((g, k) => {
      if (typeof want[k] === 'string' || typeof g === 'string') { if (g !== want[k]) problems.push(`${JSON.stringify(values)} ${key}: page ${g}, Python ${want[k]}`); }
      else worst = Math.max(worst, Math.abs(g - want[k]));
    });
  };
  settings.forEach((values, i) => {
    const frame = def.frame(spec, values);
    for (const key of keys) compare(values, key, frame[key], expected[i].numbers[key]);
    const fields = expected[i].fields;
    if (Object.keys(frame.fields).sort().join() !== Object.keys(fields).sort().join()) problems.push(`${JSON.stringify(values)}: fields ${Object.keys(frame.fields)}`);
    for (const name of Object.keys(fields)) compare(values, `fields.${name}`, frame.fields[name], fields[name]);
    model.set('values', values);  // paint this setting as a learner would see it
    const shown = root.querySelector('.readout').textContent;
    if (shown !== expected[i].readout) problems.push(`${JSON.stringify(values)}: page "${shown}" Python "${expected[i].readout}"`);
    if (root.dataset.values !== JSON.stringify(values)) problems.push(`${JSON.stringify(values)}: page shows ${root.dataset.values}`);
  });
  return { worst, problems: problems.slice(0, 8), count: problems.length };
}
"""


def plain(value: Any) -> Any:
    """A frame's value as JSON (booleans as 0 and 1, as the comparison reads them)."""
    if isinstance(value, np.ndarray) and value.dtype.kind == "b":
        return value.astype(float).tolist()
    return _plain(value)


def text_of(readout: str) -> str:
    """A readout as the page's textContent shows it."""
    return html.unescape(re.sub(r"<[^>]+>", "", readout))


def expected(lab: labs.Lab, name: str) -> list[dict]:
    """For every setting of ``lab``: the numbers and fields its frame shares with the page, and its
    readout as text."""
    out = []
    for values in lab.settings():
        frame = lab.frame(**values)
        out.append({"numbers": {k: plain(frame[k]) for k in KEYS[name]},
                    "fields": {k: plain(v) for k, v in frame["fields"].items()},
                    "readout": text_of(fill(lab.spec["readout"], frame["fields"]))})
    return out


def lab_page(lab: labs.Lab, name: str, folder: Path, width: int | None = None) -> Path:
    """A page with the lab alone, drawn as the site draws it (in a column ``width`` px wide, if given)."""
    column = f"<div style='width:{width}px'>" if width else "<div>"
    path = folder / f"{name}.html"
    path.write_text("<!doctype html><meta charset='utf-8'><body style='margin:0'>" + column
                    + page.mount_html(name, lab.page_state(), "lab") + "</div>", encoding="utf-8")
    return path


# At every setting of a lab in its narrow layout: the problems with its drawn text (too small to read,
# outside its picture, on top of another text), and whether the lab is wider than its column.
LEGIBLE_JS = """
([settings, smallest]) => {
  const root = document.querySelector('.attn-lab');
  const problems = [];
  if (root.dataset.layout !== 'narrow') problems.push(`layout ${root.dataset.layout} at ${root.clientWidth} px`);
  const seen = new Set();
  const report = (words) => { if (!seen.has(words)) { seen.add(words); problems.push(words); } };
  let texts = 0;
  for (const values of settings) {
    root.attnLab.model.set('values', values);
    if (root.scrollWidth > root.clientWidth + 1) report(`the lab is ${root.scrollWidth} px wide in ${root.clientWidth} px`);
    const boxes = [];
    for (const t of root.querySelectorAll('.picture svg text')) {
      if (!t.textContent.trim() || !t.getClientRects().length || getComputedStyle(t).visibility === 'hidden') continue;
      const m = t.getScreenCTM();  // a turned text (a y label) scales by the length of its x axis
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      // the text's box cut to one em across its line: engines pad the box differently (Firefox by the
      // fonts' full ascent and descent, large for the Chinese face), the glyphs stay inside the em
      const b = t.getBoundingClientRect(), turned = Math.abs(m.b) > Math.abs(m.a);
      const [cx, cy] = [(b.left + b.right) / 2, (b.top + b.bottom) / 2];
      const r = turned ? { left: cx - px / 2, right: cx + px / 2, top: b.top, bottom: b.bottom }
                       : { left: b.left, right: b.right, top: cy - px / 2, bottom: cy + px / 2 };
      texts += 1;
      if (px < smallest - 0.05) report(`"${t.textContent}" drawn at ${px.toFixed(1)} px`);
      const frame = t.ownerSVGElement.getBoundingClientRect();
      if (r.left < frame.left - 1 || r.right > frame.right + 1 || r.top < frame.top - 1 || r.bottom > frame.bottom + 1)
        report(`"${t.textContent}" reaches outside its picture`);
      for (const [other, o] of boxes) {
        const w = Math.min(r.right, o.right) - Math.max(r.left, o.left);
        const h = Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top);
        if (w > 1 && h > 2) report(`"${t.textContent}" overlaps "${other}"`);
      }
      boxes.push([t.textContent, r]);
    }
  }
  return { problems, texts };
}
"""


# The live GPT lab's own generation: n characters after ``ids`` (the model's ids) with ``model`` 0 (causal)
# or 1, at ``temperature`` (0: greedy) with the seeded generator the page shares with Python.
WRITE_JS = """async ([model, ids, n, temperature, seed]) => {
  const root = document.querySelector('.attn-lab[data-lab="live_gpt"]');
  const c = root.attnLab.def.compute;
  const run = c.newRun(await c.loadModel(root.attnLab.spec.data.models[model]), ids, temperature, seed);
  for (let s = 0; s < n; s += 1) c.advance(run);
  return run.steps.map((st) => st.token);
}"""
