"""The contract between Python and the page, and the functions kept twice (once in Python, once in kit.js).

- Every lab's spec, built as its notebook builds it, has the shape of ``attnlib.page.contract``; the JSDoc
  checked in beside kit.js (``spec.types.js``) is the one the contract writes.
- Each twin runs on the same inputs in Python and, in Node, in kit.js, and both give the same result:
  ``attnlib.plot.number`` and ``number``, ``fill`` and ``fill``, ``Control.max`` and ``upperIndex``, the
  clamp of ``Lab._checked`` and ``clamp``, ``_packed`` and ``entries``, ``Lab.page_frame`` and
  ``storedFrame`` (every lab, at many settings), and ``attnlib.softmax`` and the kit's ``softmax``; and the
  labs' own (``favoured`` and ``verdict`` of attnlib.labs.qkv and qkv.js; ``kv_cache_bytes`` and
  ``sequences_that_fit`` of attnlib.core and kv_cache.js, with that page's words and ``settle``).
- Each table of a lab's ``spec["frames"]`` is by exactly the controls its parts depend on: with fewer, the
  page would draw stale numbers; with more, the page would carry copies.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from functools import cache
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import attnlib
from attnlib import plot
from attnlib.labs import base, qkv
from attnlib.page import KIT, contract
from tests.lab_cases import LABS, NAMES, build

lab = cache(build)  # each lab built once for this file

# ---- running kit.js in Node ---------------------------------------------------------------------------------
RUNNER = r"""
import * as kit from "./kit.mjs";
import { readFileSync } from "node:fs";
const special = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && "$number" in v;
const calls = JSON.parse(readFileSync(0, "utf8"), (_, v) => (special(v) ? Number(v.$number) : v));
const results = calls.map(([name, args]) => {
  try { return { ok: kit[name](...args) }; } catch (e) { return { error: String(e.message) }; }
});
process.stdout.write(JSON.stringify(results, (_, v) => {
  if (ArrayBuffer.isView(v)) return Array.from(v);
  if (typeof v === "number" && (!Number.isFinite(v) || Object.is(v, -0))) return { $number: Object.is(v, -0) ? "-0" : String(v) };
  return v;
}));
"""


def _tagged(value: Any) -> Any:
    """JSON cannot write ±∞ or NaN: they travel as ``{"$number": "Infinity"}`` (and −0.0 as written)."""
    if isinstance(value, float) and not math.isfinite(value):
        return {"$number": str(value).replace("inf", "Infinity").replace("nan", "NaN")}
    if isinstance(value, (list, tuple)):
        return [_tagged(v) for v in value]
    if isinstance(value, dict):
        return {k: _tagged(v) for k, v in value.items()}
    return value


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    """``kit(calls)``: each ``(function, args)`` run by kit.js in Node, as ``{"ok": result}`` or ``{"error"}``."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed to run kit.js beside its Python twins")
        pytest.skip("node is not installed: the kit's twins run in Node")
    folder = tmp_path_factory.mktemp("kit")
    shutil.copy(KIT, folder / "kit.mjs")  # .mjs: Node loads it as an ES module, as the page does
    (folder / "run.mjs").write_text(RUNNER, encoding="utf-8")

    def run(calls: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
        done = subprocess.run([node, str(folder / "run.mjs")], input=json.dumps(_tagged(calls)), text=True,
                              capture_output=True, cwd=folder, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout, object_hook=lambda d: float(d["$number"]) if "$number" in d else d)

    return run


def same(a: Any, b: Any) -> bool:
    """Equal as the page would show them: numbers exactly (the sign of zero too), ints and floats alike."""
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and type(a) is not bool is not type(b):
        return (a == b and math.copysign(1, a) == math.copysign(1, b)) or (a != a and b != b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


# ---- the contract -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(LABS))
def test_every_labs_spec_has_the_contracts_shape(name):
    state = json.loads(json.dumps(lab(name).page_state()))  # as the notebook stores it
    contract.check(lab(name).spec, contract.LabSpec)
    contract.check(state, contract.PageState, "state")


def test_the_checker_says_where_a_spec_breaks_the_contract():
    spec = json.loads(json.dumps(lab("mask").spec))
    spec["controls"][1]["limit"] = 3
    with pytest.raises(TypeError, match=r"spec\.controls\[1\]\.limit: one of \(string\|null\), got int 3"):
        contract.check(spec)
    del spec["controls"][1]["limit"]
    with pytest.raises(TypeError, match=r"spec\.controls\[1\]: the keys of ControlSpec .*missing \['limit'\]"):
        contract.check(spec)
    spec = json.loads(json.dumps(lab("mask").spec))
    spec["data"]["vmax"] = math.inf
    with pytest.raises(TypeError, match=r"spec\.data\.vmax: a finite number, got inf"):
        contract.check(spec)
    spec["data"]["vmax"], spec["frames"][0]["columns"]["names"] = 1.0, {"f32": "AAAA"}
    with pytest.raises(TypeError, match=r"spec\.frames\[0\]\.columns\.names: one of"):
        contract.check(spec)
    with pytest.raises(TypeError, match="typed must be one of"):
        contract.check({}, dict)


@pytest.mark.repo
def test_the_checked_in_jsdoc_is_the_contracts():
    """kit.js's readers see the shape in spec.types.js; the contract writes it (regenerate: see its top)."""
    assert contract.TYPES_JS.read_text(encoding="utf-8") == contract.jsdoc()
    assert "spec.types.js" in KIT.read_text(encoding="utf-8")


# ---- the twins ----------------------------------------------------------------------------------------------
def test_number_writes_what_attnlib_plot_number_writes(kit):
    """Ties (0.125, 2.5, 2⁵²+½: Python rounds them to the even digit), negative zeros and numbers that
    round to zero, huge numbers (toFixed would write 1e+21) and tiny ones, ±∞ and NaN, at 0 to 20 digits."""
    rng = np.random.default_rng(7)
    values = [0.125, 0.375, 2.5, -2.5, 0.5, -0.5, 1.5, 1.005, 0.045, -0.0, 0.0, -0.001, -0.0004, 0.0005,
              -0.0005, 1e-17, 5e-324, 1e-300, -1e-300, 123.456, -7.25, 1 / 3, -2 / 3, 2.0**52 + 0.5,
              -(2.0**51) - 0.5, 1e15 + 0.5, 9.995, 1e16, 1e20, 999999999999999900000.0, 1e21, -1.5e21, 1e22,
              1e300, -1.7976931348623157e308, math.inf, -math.inf, math.nan,
              *rng.normal(scale=3, size=150).tolist(), *(np.round(rng.normal(size=100), 3) + 0.0005).tolist(),
              *(10.0 ** rng.uniform(-12, 25, size=100) * rng.choice([-1, 1], size=100)).tolist()]
    cases = [(v, d) for v in values for d in (0, 1, 2, 3, 4, 6, 20)]
    got = kit([("number", [v, d]) for v, d in cases])
    differ = [(v, d, g, plot.number(v, d)) for (v, d), g in zip(cases, got, strict=True)
              if g.get("ok") != plot.number(v, d)]
    assert not differ, f"{len(differ)} of {len(cases)} differ (value, digits, kit, Python): {differ[:6]}"


FILLS = [
    ("{a} · {b:.2f} · {n}", {"a": "<pad>", "b": 0.5, "n": 3}),
    ("{s}", {"s": "a & b < c > d \"q\" 'q' 早"}),  # every character html.escape changes
    ("{s} {s}", {"s": "{n}", "n": 1}),  # a field's text is not filled again
    ("{{x}} {x:.0f} {x:.3f} {x}", {"x": 2.5}),  # ties; a number without a format as a whole number
    ("{x} {y} {z}", {"x": -0.0, "y": -2.7, "z": 1e21}),  # towards zero; no exponent
    ("{t:.1f} {u:.2f}", {"t": -0.04, "u": 1e-300}),  # never "−0.0"
    ("{p:.f} {q:x} <b>{r:.1f}</b>", {"r": True}),  # not fields: left as written
    ("no fields", {}),
]


@pytest.mark.parametrize(("template", "fields"), FILLS)
def test_fill_writes_what_the_python_fill_writes(kit, template, fields):
    (got,) = kit([("fill", [template, fields])])
    assert got == {"ok": base.fill(template, fields)}


def test_fill_refuses_a_missing_field_as_the_python_fill_does(kit):
    (got,) = kit([("fill", ["{a} {gone:.2f}", {"a": 1}])])
    with pytest.raises(KeyError, match="template field 'gone' missing"):
        base.fill("{a} {gone:.2f}", {"a": 1})
    assert "gone" in got["error"]


LIMITED = [  # (name, options, limit): a chain c ≤ b ≤ a, declared in both orders, and one free control
    base.Control("a", "slider", "a", [2, 3, 4, 5, 6, 7, 8]),
    base.Control("c", "slider", "c", [1, 2, 3, 4, 5, 6, 7, 8], limit="b"),
    base.Control("b", "slider", "b", [1, 2, 3, 4, 5, 6, 7, 8], limit="a"),
    base.Control("s", "slider", "s", [0.1, 0.2, 0.5, 1.0], limit="a"),
    base.Control("m", "toggle", "m", ["none", "both"]),
]


def test_upper_index_and_control_max_allow_the_same_options(kit):
    """At every cap, below the first option, between options and above the last: the same largest option."""
    cases = [(c, {"a": cap, "b": cap}) for c in LIMITED for cap in (0, 0.3, 1, 2, 2.5, 5, 8, 9)]
    got = kit([("upperIndex", [c.spec(), values]) for c, values in cases])
    for (control, values), g in zip(cases, got, strict=True):
        control._lab = SimpleNamespace(values=values)  # Control.max reads the lab's values
        assert control.options[g["ok"]] == control.max, (control.name, values)
    control._lab = None


def test_clamp_lowers_limited_controls_as_lab_checked_does(kit):
    rng = np.random.default_rng(1)
    settings = [{c.name: c.options[rng.integers(len(c.options))] for c in LIMITED} for _ in range(200)]
    settings += [{"a": 2, "c": 8, "b": 8, "s": 1.0, "m": "none"}, {"a": 8, "c": 1, "b": 1, "s": 0.1, "m": "both"}]
    for order in (LIMITED, LIMITED[::-1]):  # the order of the controls decides a chain: both follow it
        got = kit([("clamp", [[c.spec() for c in order], values]) for values in settings])
        for values, g in zip(settings, got, strict=True):
            assert same(g["ok"], base._clamped(order, values)), values


def test_entries_read_every_column_as_packed_by_python(kit):
    """Long columns of floats travel packed (every bit kept: −0.0, the smallest subnormal, the largest
    double); short ones, and those holding an int, a bool or a null (a setting a limit forbids), as lists."""
    rng = np.random.default_rng(2)
    floats = [-0.0, 5e-324, 1.7976931348623157e308, -1e-300, 0.1, 1 / 3, *rng.normal(size=4090).tolist()]
    columns = [floats, floats[:4095], [*floats[:4095], 3], [*floats, None], [*floats[:-1], True],
               [0.5, None, -0.0], ["早", "上"], [[1.0, 2.0]] * 5000, []]
    packed = [base._packed(c) for c in columns]
    assert [isinstance(p, dict) for p in packed] == [True, False, False, False, False, False, False, False, False]
    assert same(base._unpacked(packed[0]), floats)
    got = kit([("entries", [p]) for p in packed])
    for column, g in zip(columns, got, strict=True):
        assert same(g["ok"], column)


@pytest.mark.parametrize("name", NAMES)
def test_stored_frame_reads_the_frames_as_page_frame_does(kit, name):
    """At the starting setting, the first and last, and a spread of others: the same parts, the same numbers."""
    built = lab(name)
    settings = built.settings()
    picked = [dict(built.values), *settings[:: max(1, len(settings) // 60)], settings[-1]]
    spec = {"controls": built.spec["controls"], "frames": built.spec["frames"]}
    got = kit([("storedFrame", [spec, values]) for values in picked])
    for values, g in zip(picked, got, strict=True):
        assert same(g["ok"], built.page_frame(**values)), f"{name} at {values}"


def test_the_kits_softmax_is_attnlibs(kit):
    """kit.js ``softmax`` (the one piece of math a page does) against ``attnlib.softmax``, with a mask
    as attnlib masks (blocked scores at −∞): rows of 1 to 64 entries, scales from 1e-3 to 1e3, ties,
    masks that keep one entry or all; a blocked entry gets exactly 0."""
    rng = np.random.default_rng(3)
    rows, keeps = [], []
    for n in [1, 2, 3, 5, 8, 13, 64, 64]:
        for scale in (1e-3, 1.0, 30.0, 1e3):
            row = rng.normal(scale=scale, size=n)
            keep = rng.random(n) < 0.6
            keep[rng.integers(n)] = True  # a query always sees a key
            rows += [row, np.round(row)]  # rounded rows have ties
            keeps += [keep, np.ones(n, dtype=bool)]
    got = kit([("softmax", [r.tolist(), k.tolist()]) for r, k in zip(rows, keeps, strict=True)]
              + [("softmax", [r.tolist()]) for r in rows])
    masked, whole = got[: len(rows)], got[len(rows):]
    for row, keep, m, w in zip(rows, keeps, masked, whole, strict=True):
        np.testing.assert_allclose(w["ok"], attnlib.softmax(row), rtol=0, atol=1e-15)
        expected = np.where(keep, attnlib.softmax(np.where(keep, row, -np.inf)), 0.0)
        np.testing.assert_allclose(m["ok"], expected, rtol=0, atol=1e-15)
        assert all(v == 0.0 for v, k in zip(m["ok"], keep, strict=True) if not k)


def test_the_qkv_pages_favoured_keys_and_verdict_are_attnlibs(kit, tmp_path):
    """qkv.js ``favoured`` and ``verdict`` against their twins in attnlib.labs.qkv: one key, ties, gaps
    just inside and outside 1e-12, a row all even, in English and in Chinese templates."""
    node = shutil.which("node")
    (tmp_path / "page").mkdir()
    (tmp_path / "labs").mkdir()
    shutil.copy(KIT, tmp_path / "page" / "kit.js")
    shutil.copy(LABS["qkv"].page_module.path, tmp_path / "labs" / "qkv.js")
    (tmp_path / "package.json").write_text('{"type": "module"}', encoding="utf-8")  # .js as ES modules
    (tmp_path / "run.mjs").write_text(RUNNER.replace("./kit.mjs", "./labs/qkv.js"), encoding="utf-8")
    tokens = ["kids", "<pad>", "the", "on", "早"]
    english = {"one": "“{query}” attends most to {keys} ({weight})", "tied": "{query}: {keys}, {weight} each",
               "even": "{query}: 1/{T} = {weight}", "quoted": "“{token}”", "comma": ", ", "last": " and "}
    chinese = {"one": "“{query}”最关注{keys}（{weight}）", "tied": "“{query}”同样关注{keys}（各 {weight}）",
               "even": "“{query}”没有偏好：每个键 1/{T} = {weight}", "quoted": "“{token}”", "comma": "、",
               "last": "和"}
    rows = [attnlib.softmax(np.array(s, dtype=float)) for s in
            ([9.0, 0, 7.2, 9, 1], [0, 0, 0, 0, 0], [1, 2, 3, 4, 5], [5, 5, 5, 5, 4.9], [-3, 2, 2, -3, 2])]
    rows += [np.array([0.4, 0.4 - 5e-13, 0.2, 0, 0]), np.array([0.4, 0.4 - 5e-12, 0.2, 0, 0])]
    cases = [(row, q, texts) for row in rows for q in (0, 4) for texts in (english, chinese)]
    calls = []
    for row, q, texts in cases:
        top = qkv.favoured(row).tolist()
        calls += [("favoured", [row.tolist()]), ("verdict", [row.tolist(), top, tokens, q, texts])]
    done = subprocess.run([node, str(tmp_path / "run.mjs")], input=json.dumps(calls), text=True,
                          capture_output=True, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    for i, (row, q, texts) in enumerate(cases):
        top = qkv.favoured(row)
        assert got[2 * i] == {"ok": top.tolist()}, row
        assert got[2 * i + 1] == {"ok": qkv.verdict(row, top, tokens, q, texts)}, (row, q)
    assert [qkv.favoured(r).sum() for r in rows[-2:]] == [2, 1]  # within 1e-12 a tie, beyond it not


@pytest.fixture(scope="module")
def kv_page(tmp_path_factory):
    """``kv_page(calls)``: each ``(function, args)`` run by kv_cache.js (on kit.js) in Node."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed to run kv_cache.js beside its Python twins")
        pytest.skip("node is not installed: the page's twins run in Node")
    folder = tmp_path_factory.mktemp("kv_cache")
    (folder / "page").mkdir()
    (folder / "labs").mkdir()
    shutil.copy(KIT, folder / "page" / "kit.js")
    shutil.copy(LABS["kv_cache"].page_module.path, folder / "labs" / "kv_cache.js")
    (folder / "package.json").write_text('{"type": "module"}', encoding="utf-8")  # .js as ES modules
    (folder / "run.mjs").write_text(RUNNER.replace("./kit.mjs", "./labs/kv_cache.js"), encoding="utf-8")

    def run(calls: list[tuple[str, list[Any]]]) -> list[dict[str, Any]]:
        done = subprocess.run([node, str(folder / "run.mjs")], input=json.dumps(calls), text=True,
                              capture_output=True, cwd=folder, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return run


def _python(function: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """A Python twin's answer in the runner's shape: ``{"ok": result}`` or ``{"error": message}``."""
    try:
        return {"ok": function(*args, **kwargs)}
    except (TypeError, ValueError) as error:
        return {"error": str(error)}


def test_the_kv_cache_pages_bytes_are_attnlibs(kv_page):
    """kv_cache.js ``kv_cache_bytes`` and ``sequences_that_fit`` against attnlib.core's: every published shape
    at every context and byte width, random shapes below 2⁵³ bytes, exact divisions, a reserve equal to the
    memory; both refuse a zero, a negative or a fractional size and a reserve larger than the memory."""
    rng = np.random.default_rng(11)
    shapes = [(s["n_layers"], t, kv, s["d_head"], b, 1) for s in attnlib.MODEL_SHAPES.values()
              for t in (1, 16, 512, s["context"]) for kv in (1, s["n_kv_heads"], s["n_heads"]) for b in (1, 2, 4)]
    shapes += [tuple(int(v) for v in rng.integers(1, [128, 65536, 128, 512, 8, 64])) for _ in range(200)]
    shapes += [(0, 1, 1, 1, 2, 1), (2, -3, 1, 1, 2, 1), (2, 3, 1.5, 1, 2, 1), (2, 3, 1, 1, 0, 1), (1, 1, 1, 1, 1, 0)]
    fits = [(int(m), int(p), int(r)) for m, p, r in zip(rng.integers(0, 10**12, 200), rng.integers(1, 10**10, 200),
                                                        rng.integers(0, 10**11, 200), strict=True)]
    fits += [(80 * 10**9, 536_870_912, 14_600_000_000), (10**9, 10**6, 0), (10**9, 10**9, 10**9), (5, 5, 0),
             (10, 3, 11), (10, 0, 0), (-1, 3, 0), (10, 3, -1), (10.5, 3, 0)]
    got = kv_page([("kv_cache_bytes", list(s)) for s in shapes] + [("sequences_that_fit", list(f)) for f in fits])
    wanted = [_python(attnlib.kv_cache_bytes, *s[:4], bytes_per_value=s[4], batch=s[5]) for s in shapes]
    wanted += [_python(attnlib.sequences_that_fit, m, p, reserved_bytes=r) for m, p, r in fits]
    for call, g, w in zip(shapes + fits, got, wanted, strict=True):
        assert ("ok" in g) == ("ok" in w), (call, g, w)  # refused by both, or by neither
        assert g.get("ok") == w.get("ok"), call
    refused = ["error" in w for w in wanted]
    assert all(refused[len(shapes) - 5: len(shapes)]) and all(refused[-5:])  # the bad shapes and memories
    assert not any(refused[: len(shapes) - 5]) and refused.count(False) > len(shapes)  # the rest counted


def test_the_kv_cache_pages_words_and_settle_are_the_labs(kv_page):
    """kv_cache.js ``human_bytes``, ``grouped``, ``kv_heads_for``, ``settle``, ``numbers`` and ``lines``
    against their twins in attnlib.labs.kv_cache: unit boundaries (999.5 kB is 1.00 MB), every choice of K/V
    heads for every model, every move of every control from the starting setting and from another model,
    and a spread of settings with their sentences, in English and in Chinese."""
    from attnlib.labs import kv_cache

    sizes = [0, 1, 999, 1000, 1005, 9994, 9995, 9996, 99949, 99950, 999_499, 999_500, 1_000_000, 131_072,
             536_870_912, 2_147_483_648, 14_600_000_000, 10**15 - 1, 10**15, 10**16, *(10 ** np.arange(16) * 7 + 3)]
    sizes = [int(n) for n in sizes]
    calls = [("human_bytes", [n]) for n in sizes] + [("grouped", [n]) for n in sizes]
    expected = [kv_cache.human_bytes(n) for n in sizes] + [kv_cache.grouped(n) for n in sizes]
    assert kv_cache.human_bytes(999_500) == "1.00 MB" and kv_cache.human_bytes(131_072) == "131 kB"
    for language in ("en", "zh-Hans"):
        with attnlib.set_language(language), plot.use_style():
            lab = build("kv_cache")
        data, limits = lab.spec["data"], lab.spec["data"]["limits"]
        for model in data["models"].values():
            for choice in lab.controls["kv_heads"].options:
                calls.append(("kv_heads_for", [model, choice, data["kv_divisors"]]))
                expected.append(kv_cache.kv_heads_for(model, choice))
        for start in (dict(lab.values), {**lab.values, "model": "GPT-3 175B", "context": 1024}):
            for control in lab.controls.values():
                for option in control.options:
                    calls.append(("settle", [start, {control.name: option}, limits]))
                    expected.append(kv_cache.settle(start, {control.name: option}, limits))
        for values in lab.settings()[::23]:
            model = data["models"][values["model"]]
            n_kv = kv_cache.kv_heads_for(model, values["kv_heads"])
            args = [model, n_kv, values["context"], data["bytes"][values["dtype"]], values["memory"]]
            f = kv_cache.cache_numbers(model, *args[1:])
            calls += [("numbers", [*args, data["gb"]]), ("lines", [f, values, data])]
            expected += [f, kv_cache.lines(f, values, data)]
    got = kv_page(calls)
    for call, g, w in zip(calls, got, expected, strict=True):
        assert g == {"ok": w}, call


# ---- what each part of a frame depends on -----------------------------------------------------------------
def _key(value: Any) -> Any:
    """A frame's value as something hashable and exactly comparable (arrays by their bytes)."""
    if isinstance(value, np.ndarray):
        return value.shape, value.dtype.str, value.tobytes()
    if isinstance(value, (list, tuple)):
        return tuple(_key(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _key(v)) for k, v in value.items())
    return value


def dependencies(built: base.Lab, paths: list[str]) -> dict[str, tuple[str, ...]]:
    """The controls each part ``path`` of the frame depends on, over every setting the controls allow: those
    whose moving alone changes it somewhere, with the limit of each (the page's table must hold it)."""
    names = list(built.controls)
    settings = built.settings()
    keys = [tuple(s[n] for n in names) for s in settings]
    frames = [built.frame(**s) for s in settings]
    out = {}
    for path in paths:
        values = [_key(base._at(frame, path)) for frame in frames]
        found = set()
        for i, name in enumerate(names):
            seen: dict[tuple, Any] = {}
            if any(seen.setdefault(k[:i] + k[i + 1:], v) != v for k, v in zip(keys, values, strict=True)):
                found.add(name)
        while limits := {built.controls[n].limit for n in found} - found - {None}:
            found |= limits
        # and the part is one value per setting of those controls (not only along single moves)
        kept = [i for i, n in enumerate(names) if n in found]
        first: dict[tuple, Any] = {}
        assert all(first.setdefault(tuple(k[i] for i in kept), v) == v for k, v in zip(keys, values, strict=True))
        out[path] = tuple(n for n in names if n in found)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_each_part_the_page_gets_is_stored_by_exactly_the_controls_it_depends_on(name):
    """Not fewer (the page would draw another setting's numbers) and not more (the page would carry the
    same value many times): each table's ``by`` is what moving each control, at every setting, shows."""
    built = lab(name)
    declared = {path: tuple(table["by"]) for table in built.spec["frames"] for path in table["columns"]}
    assert declared == dependencies(built, list(declared))
