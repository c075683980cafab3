"""The six slider labs, Python side: their numbers, controls, limits, readouts, snapshots, and what
they send the page for every setting.

What the page draws is checked against these frames at every setting in tests/browser/test_lab_frames.py.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import attnlib
from attnlib import data, gpt, labs, page, plot
from attnlib.gpt.text import CharTokenizer
from attnlib.labs import base
from attnlib.labs.registry import X2
from tests.lab_cases import LABS, NAMES, build


@pytest.fixture(autouse=True)
def _style():
    attnlib.set_language("en")  # whatever a test elsewhere left set: these labs are built in English
    with plot.use_style(), warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*[Gg]lyph")  # a missing glyph (早 上 好) is a failure
        yield




@cache
def built(name: str, language: str = "en") -> tuple[labs.Lab, dict]:
    """Each lab built once per language (the d_k and generation labs take a second), with its defaults."""
    with attnlib.set_language(language), plot.use_style():
        lab = build(name)
    return lab, dict(lab.values)


@pytest.fixture(params=NAMES)
def lab(request):
    """A lab at its default setting; whatever a test moves is put back, so no test sees another's moves."""
    shared, defaults = built(request.param)
    shared.values = dict(defaults)
    yield shared
    shared.values = dict(defaults)


# ---- every lab -------------------------------------------------------------------------------------


def test_spec_is_plain_json_and_small(lab):
    text = json.dumps(lab.spec, allow_nan=False)  # NaN or inf would break the page
    assert len(text) < 1_000_000, f"{lab.name}: {len(text)} bytes"
    assert lab.spec["name"] == lab.name and lab.spec["fonts"][0]["role"] == "sans"


def test_the_bundle_is_one_module_with_the_kit_inside(lab):
    module = page.bundle(lab.name)
    assert lab._esm == module
    assert "import " not in re.sub(r"//.*", "", module)  # nothing left to fetch: works from file:// too
    assert "export function createLab" in module and "export default pageModule;" in module


def test_every_control_has_a_description_and_its_default_is_an_option(lab):
    for control in lab.controls.values():
        assert control.description
        assert control.value in control.options and len(control.labels) == len(control.options)


def test_every_setting_gives_finite_numbers_and_a_readout(lab):
    settings = lab.settings()
    step = max(1, len(settings) // 300)  # the browser test covers every setting; here a spread
    for values in settings[::step] + [settings[-1]]:
        frame = lab.frame(**values)
        for key, value in frame.items():
            if isinstance(value, np.ndarray) and value.dtype.kind == "f":
                assert np.isfinite(value).all(), f"{lab.name} {values}: {key} has NaN/inf"
        words = base.fill(lab.spec["readout"], frame["fields"])
        assert "nan" not in words.lower() and "{" not in words


def test_setting_a_control_from_python_moves_values_and_state(lab):
    name, control = next(iter(lab.controls.items()))
    start = control.value
    other = control.options[-1] if start != control.options[-1] else control.options[0]
    control.value = other
    assert lab.values[name] == other and control.value == other
    assert lab.state is lab.frame(**lab.values)
    control.value = start
    assert lab.values[name] == start


def test_a_value_off_the_slider_is_refused(lab):
    name, control = next(iter(lab.controls.items()))
    with pytest.raises(ValueError, match=f"{name} must be one of"):
        control.value = "nowhere"
    with pytest.raises(ValueError, match="no control named"):
        lab.set_values(nowhere=1)


def test_snapshot_is_a_png_of_the_current_setting(lab):
    image = lab.snapshot()
    assert image.data[:8] == b"\x89PNG\r\n\x1a\n"
    # twice the pixels of the size it is shown at (a high-density screen draws it sharp)
    _, shown = image._repr_png_()  # what Jupyter stores: the bytes and the size to show them at
    assert shown["width"] == int.from_bytes(image.data[16:20], "big") // 2 > 0


def test_page_state_round_trips_as_the_notebook_stores_it(lab):
    state = json.loads(json.dumps(lab.page_state()))
    assert state["values"] == lab.values and state["spec"]["controls"] == lab.spec["controls"]
    html = page.mount_html(lab.name, state, "lab-x")
    assert '<div class="attn-lab-mount" id="lab-x">' in html and "mountStatic(pageModule" in html
    state["spec"]["data"]["probe"] = "</script><b>"  # a string that would end the inline script early
    html = page.mount_html(lab.name, state, "lab-x")
    payload = html.split('id="lab-x-state">')[1].split("</script>")[0]  # what the browser hands to JSON.parse
    assert json.loads(payload)["spec"]["data"]["probe"] == "</script><b>"


def test_the_page_gets_the_frame_at_every_setting(lab):
    """What the page looks up for a setting (``spec["frames"]``, read as kit.js reads it) is the frame
    at that setting: each shown part depends on no control it was not declared to depend on."""
    settings = lab.settings()
    # fields the page writes itself (qkv.js `verdict`; kv_cache.js computes all of its own, with twins)
    written = {"qkv": {"verdict"}, "kv_cache": set(lab.state["fields"])}.get(lab.name, set())
    for values in settings[:: max(1, len(settings) // 400)] + [settings[-1]]:
        sent, frame = lab.page_frame(**values), lab.frame(**values)
        assert set(sent.get("fields", {})) | written == set(frame["fields"]), values  # the readout fills from them
        for key, value in sent.items():
            want = frame[key]
            for part in (value if key == "fields" else {key: value}):
                got, expected = (value[part], want[part]) if key == "fields" else (value, want)
                assert got == base._plain(expected), f"{lab.name} {values}: {key} {part}"


def test_the_labs_page_modules_draw_and_do_no_lesson_math():
    """No lab module but the live GPT's computes what the lesson teaches: no exponentials, logarithms,
    roots or norms (the kit's one softmax aside, in kit.js), and no control found by its position."""
    for path in sorted([entry.page_module.path for entry in LABS.values()] + [page.KIT]):
        source = re.sub(r"//.*", "", path.read_text(encoding="utf-8"))
        assert "spec.controls[" not in source, f"{path.name} finds a control by position"
        if path.name in ("live_gpt.js", "kit.js"):
            continue
        found = re.findall(r"Math\.(?:exp|log\w*|sqrt|hypot|pow)\b|\*\*", source)
        assert not found, f"{path.name} computes: {found}"
    kit = page.KIT.read_text(encoding="utf-8")
    assert len(re.findall(r"Math\.exp", kit)) == 1  # in softmax


def test_a_long_column_of_numbers_travels_packed_and_whole():
    lab = build("dot_product")
    (packed,) = [t for t in lab.spec["frames"] if len(t["by"]) == 3]
    assert set(packed["columns"]["fields.dot"]) == {"f64"}
    assert lab.page_frame(angle=60, length_a=0.5, length_b=0.5)["fields"]["dot"] == lab.frame(
        angle=60, length_a=0.5, length_b=0.5)["dot"]


# ---- numbers as the page prints them -----------------------------------------------------------------


def test_fill_escapes_tokens_and_formats_numbers():
    words = base.fill("{a} · {b:.2f} · {n}", {"a": "<pad>", "b": 0.5, "n": 3})
    assert words == "&lt;pad&gt; · 0.50 · 3"
    with pytest.raises(KeyError, match="template field 'c' missing"):
        base.fill("{c}", {})


def test_slider_values_are_round_numbers():
    control = base.slider("s", "scale s", 0.0, 10.0, 0.1)
    assert control.options[:4] == [0.0, 0.1, 0.2, 0.3] and control.options[-1] == 10.0 and len(control.options) == 101
    assert control.labels[3] == "0.3"


def test_fonts_cover_the_chinese_tokens():
    import base64
    import io

    from fontTools.ttLib import TTFont

    faces = page.fonts_for(["早上好"])
    cjk = next(f for f in faces if f["role"] == "cjk")
    font = TTFont(io.BytesIO(base64.b64decode(cjk["woff"])))
    cmap = font.getBestCmap()
    assert all(ord(c) in cmap for c in "早上好")


# ---- what each lab teaches --------------------------------------------------------------------------------


def test_dot_product_lab_right_angle_reads_exact_zero():
    lab = build("dot_product")
    lab.controls["angle"].value = 90
    assert "a·b = 0.000" in lab.readout and "cos θ = 0.000" in lab.readout
    frame = lab.frame(angle=180, length_a=3.0, length_b=0.5)
    assert frame["dot"] == pytest.approx(-1.5) and frame["cos"] == pytest.approx(-1.0)
    assert frame["proj"] == pytest.approx(-3.0)


def test_softmax_scale_lab_from_uniform_to_one_hot():
    lab = build("softmax_scale")
    uniform = lab.frame(query=0, scale=0.0)
    assert np.allclose(uniform["weights"], 1 / 3) and uniform["fields"]["temperature"] == "∞"
    assert uniform["entropy"] == pytest.approx(np.log(3))
    peaked = lab.frame(query=1, scale=10.0)
    assert peaked["largest"] > 0.99 and "on 上" in base.fill(lab.spec["readout"], peaked["fields"])
    scores = LABS["softmax_scale"].inputs()["scores"]
    np.testing.assert_allclose(lab.frame(query=2, scale=2.5)["weights"], attnlib.softmax(2.5 * scores[2]))


def test_convex_hull_lab_outputs_stay_inside_and_start_at_the_centroid():
    lab = build("convex_hull")
    assert np.allclose(lab.frame(scale=0.0)["out"], X2.mean(axis=0))
    for values in lab.settings():
        assert lab.frame(**values)["inside"]
    assert "早 0.333, 上 0.333, 好 0.333" in base.fill(lab.spec["readout"], lab.frame(scale=0.0)["fields"])


def test_dk_lab_tells_the_lesson():
    lab = build("dk")
    assert list(lab.controls["d_k"].options) == list(labs.DK_STEPS)
    wide = lab.frame(d_k=1024, scaled=False, n_keys=8)
    fixed = lab.frame(d_k=1024, scaled=True, n_keys=8)
    assert wide["max_weight"] > 0.9 and fixed["max_weight"] < 0.5
    assert wide["score_std"] == pytest.approx(32, rel=0.05) and fixed["score_std"] == pytest.approx(1, rel=0.05)
    assert wide["gradient"] < 0.1 < fixed["gradient"]
    assert lab.frame(d_k=8, scaled=True, n_keys=64)["weights"].shape == (64,)


def test_dk_lab_refuses_bad_settings():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="d_k must be one of"):
        labs.make_dk_lab(rng=rng, d_k=5)
    with pytest.raises(ValueError, match=r"n_keys must be one of 2, 3, 4, 6"):
        labs.make_dk_lab(rng=rng, n_keys=1)
    with pytest.raises(TypeError):
        labs.make_dk_lab(rng=0)


def test_mask_lab_masks_exactly_and_padding_leaks_without_a_mask():
    lab = build("mask")
    both = lab.state
    assert (both["weights"][~both["keep"]] == 0.0).all() and both["leak"][1] == 0.0
    np.testing.assert_allclose(both["weights"].sum(-1), 1.0)
    none = lab.frame(mask="none", seq_len=8, length_1=8, length_2=5)
    assert none["leak"][1] > 0.3 and none["leak"][0] == 0.0
    assert none["tokens"][1][5:] == [labs.PAD] * 3


def test_mask_lab_a_shorter_sequence_clamps_the_lengths():
    lab = build("mask")
    lab.set_values(seq_len=8, length_1=8, length_2=8)
    lab.controls["seq_len"].value = 6
    assert (lab.values["length_1"], lab.values["length_2"]) == (6, 6)
    assert lab.controls["length_1"].max == 6 and lab.state["lengths"] == [6, 6]
    settings = lab.settings()
    assert all(s["length_1"] <= s["seq_len"] and s["length_2"] <= s["seq_len"] for s in settings)
    assert len(settings) == 4 * sum(T * T for T in range(2, 9))


def test_mask_lab_refuses_bad_settings():
    X, tokens = LABS["mask"].inputs().values()
    with pytest.raises(ValueError, match="mask must be one of"):
        labs.make_mask_lab(X, tokens, mask="future")
    with pytest.raises(ValueError, match=r"lengths\[0\] must be one of 1, 2"):
        labs.make_mask_lab(X, tokens, lengths=[0, 4])
    with pytest.raises(ValueError, match=r"lengths must have shape \(B,\) = \(2,\); got \(3,\)"):
        labs.make_mask_lab(X, tokens, lengths=[1, 2, 3])
    with pytest.raises(ValueError, match=r"X must have shape \(B, T, d_model\)"):
        labs.make_mask_lab(np.zeros((4, 3)), tokens)


def test_generation_lab_recomputes_what_the_cache_gave():
    from attnlib.gpt.text import load_poems

    lab = build("generation")
    arrays = data.load("tiny_gpt_tang")
    config = gpt.config_from_arrays(arrays)
    record = labs.generation_lab_data(gpt.params_from_arrays(arrays, config), config, load_poems().tokenizer,
                                      ["白日", "春风", "明月"], n_new=12, temperature=0.8, seed=0)[1]
    for step in (1, 12):
        frame = lab.frame(prompt=1, step=step, layer=0)
        t = record["n_prompt"] + step - 1
        cached = np.array(record["weights"][step - 1][0])
        np.testing.assert_allclose(frame["weights"], cached[:, :t], rtol=0, atol=1e-12)
        assert frame["p"] == pytest.approx(record["chosen_probs"][step - 1], abs=1e-12)
    assert lab.values == {"prompt": 0, "step": 12, "layer": 1}
    assert "春风" in base.fill(lab.spec["readout"], lab.frame(prompt=1, step=3, layer=1)["fields"])


def test_scale_and_hull_labs_refuse_bad_shapes():
    with pytest.raises(ValueError, match=r"scores must have shape \(T, T\) for T=2"):
        labs.make_softmax_scale_lab(np.ones((2, 3)), ["a", "b"])
    with pytest.raises(ValueError, match=r"X must have shape \(T, 2\) for T=2 tokens; got \(2, 3\)"):
        labs.make_convex_hull_lab(np.ones((2, 3)), ["a", "b"])


@pytest.mark.repo  # reads notebooks/
@pytest.mark.parametrize("name", list(LABS))
def test_each_lab_names_the_section_that_shows_it(name):
    """'Taught in: NN §k' in the lab's module docstring: section k of notebook NN builds this lab."""
    import importlib

    module = importlib.import_module(f"attnlib.labs.{name}")
    found = re.search(r"Taught in: (\d\d) §(\d+)", module.__doc__)
    assert found, f"attnlib.labs.{name} does not say where it is taught"
    notebook = next((Path(__file__).parents[1] / "notebooks").glob(f"{found[1]}_*.ipynb"))
    section, where = None, []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"])
        heading = re.match(r"## (\d+)\.", source)
        if cell["cell_type"] == "markdown" and heading:
            section = heading[1]
        if cell["cell_type"] == "code" and f"make_{name}_lab(" in source:
            where.append(section)
    assert where == [found[2]], f"{notebook.name} builds make_{name}_lab in section(s) {where}, not §{found[2]}"


def _notebook_calls(function: str) -> list[tuple[str, ast.Call]]:
    """Every call of ``function`` in the English notebooks' code cells: (notebook, the call's syntax)."""
    calls = []
    for path in sorted((Path(__file__).parents[1] / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            lines = [line for line in "".join(cell["source"]).splitlines() if not line.lstrip().startswith(("%", "!"))]
            for node in ast.walk(ast.parse("\n".join(lines))):
                func = getattr(node, "func", None)
                if isinstance(node, ast.Call) and function in (getattr(func, "attr", None), getattr(func, "id", None)):
                    calls.append((path.name, node))
    return calls


@pytest.mark.repo  # reads notebooks/
@pytest.mark.parametrize("name", list(LABS))
def test_each_notebook_builds_its_lab_with_the_registrys_arguments(name):
    """The one call of ``make_<name>_lab`` in the notebooks passes what ``LABS[name]`` passes: its literal
    arguments equal to the entry's ``arguments``, and its variables for the parameters ``inputs()`` fills."""
    entry = LABS[name]
    assert entry.make.__name__ == f"make_{name}_lab" and entry.page_module.kind == "lab"
    (where, call), *more = _notebook_calls(entry.make.__name__)
    assert not more, f"{entry.make.__name__} is called in {[where] + [w for w, _ in more]}"

    def passed(node: ast.expr) -> tuple[str, object]:
        try:
            return "literal", ast.literal_eval(node)
        except ValueError:
            return "variable", ast.unparse(node)

    bound = inspect.signature(entry.make).bind(*map(passed, call.args),
                                               **{k.arg: passed(k.value) for k in call.keywords}).arguments
    literals = {param: value for param, (kind, value) in bound.items() if kind == "literal"}
    variables = {param for param, (kind, _) in bound.items() if kind == "variable"}
    assert literals == dict(entry.arguments), f"{where}: {ast.unparse(call)}"
    assert variables == set(entry.inputs()), f"{where}: {ast.unparse(call)}"


def test_the_registry_names_every_lab_page_module_and_nothing_else():
    """A lab's name is its page module's; every lab module of ``attnlib.page.MODULES`` is in the registry,
    and each module file is there."""
    assert set(LABS) == {name for name, module in page.MODULES.items() if module.kind == "lab"}
    assert all(module.kind in page.modules.KINDS and module.path.is_file() for module in page.MODULES.values())
    assert NAMES == [name for name in LABS if name != "live_gpt"]  # its page runs the model: no frames to look up
    with pytest.raises(ValueError, match="name must be one of dot_product, "):
        labs.registry.build("nowhere")


def test_the_page_package_stands_alone():
    """attnlib.page (kit, bundler, mount, widget base) imports neither the labs nor the quiz built on it."""
    import subprocess
    import sys

    code = "import sys, attnlib.page; print(sorted(m for m in ('attnlib.labs', 'attnlib.quiz') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_page_module_is_mounted_by_its_kind_and_only_a_listed_one():
    state = {"spec": {"name": "quiz"}, "values": {}}
    assert page.mount_html("quiz", state, "quiz-1").startswith('<div class="attn-quiz-mount" id="quiz-1">')
    with pytest.raises(ValueError, match="name must be one of .*quiz, practice; got 'kit'"):
        page.mount_html("kit", state, "x")
    with pytest.raises(ValueError, match="element_id must be an HTML id"):
        page.mount_html("quiz", state, 'x" onload="')


@pytest.mark.repo  # reads notebooks/
def test_notebooks_store_the_current_page_modules():
    """A notebook keeps the lab's ES module in its widget state (JupyterLab draws a saved lab from it):
    after a change to a lab's .js, the notebooks that show it must be executed again."""
    stale, found = [], 0
    for path in sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb")):
        widgets = json.loads(path.read_text(encoding="utf-8"))["metadata"].get("widgets", {})
        for model in widgets.get("application/vnd.jupyter.widget-state+json", {}).get("state", {}).values():
            state = model.get("state", {})
            if model.get("model_name") == "AnyModel" and "spec" in state:
                found += 1
                if state["_esm"] != page.bundle(state["spec"]["name"]):
                    stale.append(f"{path.name} ({state['spec']['name']})")
    assert found >= len(NAMES), f"only {found} labs stored in the notebooks"
    assert not stale, f"re-execute these notebooks, their lab modules are stale: {stale}"


# ---- the Chinese edition ------------------------------------------------------------------------------


def test_every_text_a_lab_writes_has_a_simplified_chinese_entry():
    from tests.catalogues import check_catalogue

    check_catalogue(Path(labs.__file__).parent, "labs")


def _numbers(text: str) -> list[str]:
    return re.findall(r"−?\d+(?:\.\d+)?", text)


@pytest.mark.parametrize("name", NAMES)
def test_a_lab_built_in_chinese_speaks_chinese_with_the_same_numbers(name):
    english, _ = built(name)
    chinese, _ = built(name, "zh-Hans")
    cjk = re.compile(r"[\u4e00-\u9fff]")
    assert cjk.search(chinese.spec["readout"]) and not cjk.search(english.spec["readout"])
    for control in english.controls:
        en, zh = english.controls[control].description, chinese.controls[control].description
        if re.search(r"[a-z]{4,}", en):  # words, not only a symbol such as "d_k"
            assert cjk.search(zh), f"{name}: control {control} reads {zh!r} in Chinese"
    assert chinese.spec["controls"][0]["options"] == english.spec["controls"][0]["options"]
    for values in english.settings()[:: max(1, len(english.settings()) // 40)]:
        a, b = english.frame(**values), chinese.frame(**values)
        for key, value in a.items():
            if isinstance(value, np.ndarray):
                np.testing.assert_array_equal(value, b[key], err_msg=f"{name} {values} {key}")
        shown_en = base.fill(english.spec["readout"], a["fields"])
        shown_zh = base.fill(chinese.spec["readout"], b["fields"])
        # Every number, written the same (a translation may put them in another order).
        assert shown_en != shown_zh and sorted(_numbers(shown_en)) == sorted(_numbers(shown_zh)), (shown_en, shown_zh)


@pytest.mark.parametrize("name", NAMES)
def test_a_chinese_lab_carries_a_font_for_every_character_it_writes(name):
    import base64
    import io

    from fontTools.ttLib import TTFont

    lab, _ = built(name, "zh-Hans")
    written = set(lab.spec["readout"]) | set("".join(base._strings(lab.spec["data"])))
    for control in lab.spec["controls"]:
        written |= set(control["description"] + "".join(control["labels"]))
    cjk = {c for c in written if ord(c) >= 0x2E80}
    assert cjk, f"{name}: no Chinese in the lab"
    face = next(f for f in lab.spec["fonts"] if f["role"] == "cjk")
    cmap = TTFont(io.BytesIO(base64.b64decode(face["woff"]))).getBestCmap()
    assert not sorted(c for c in cjk if ord(c) not in cmap), f"{name}: characters missing from the page font"


def test_the_generation_lab_writes_the_models_characters_in_traditional_in_the_hant_edition():
    """The model writes Simplified characters; in 繁體 the menu, the text, the candidates and the readout
    show them in Traditional, with the same numbers."""
    with attnlib.set_language("zh-Hant"), plot.use_style():
        hant = build("generation")
    plain = build("generation")
    records, plain_records = hant.spec["data"]["records"], plain.spec["data"]["records"]
    assert "春風" in hant.spec["controls"][0]["labels"] and "风" in plain_records[1]["tokens"]
    assert "风" not in records[1]["tokens"] and "風" in records[1]["tokens"]
    settings = hant.settings()
    tops = [hant.page_frame(**values)["top_tokens"] for values in settings]
    shown = "".join(t for r in records for t in r["tokens"]) + "".join(t for row in tops for t in row)
    assert not set(shown) & set("风远书离识们时东马长见说")
    assert all(hant.page_frame(**v)["top_probs"] == plain.page_frame(**v)["top_probs"] for v in settings)
    hant.set_values(prompt=1, step=1)
    assert "春風" in hant.readout and "风" not in hant.readout


# ---- the generation lab's record --------------------------------------------------------------------------------
CFG = gpt.GPTConfig(vocab_size=11, context=6, d_model=8, n_heads=2, n_layers=2, d_ff=5)
TOK = CharTokenizer(list("abcdefghijk"))


def random_params(config):
    return gpt.init_params(config, rng=np.random.default_rng(0))


def test_lab_data_has_one_json_able_record_per_prompt_with_the_documented_shapes():
    params = random_params(CFG)
    data = labs.generation_lab_data(params, CFG, TOK, ["ab", "k"], n_new=3, temperature=1.0, seed=4, top_k=2)
    assert json.loads(json.dumps(data)) == data and len(data) == 2
    first = data[0]
    assert first["n_prompt"] == 2 and len(first["tokens"]) == 5 and first["tokens"][:2] == ["a", "b"]
    assert first["generated"] == "".join(first["tokens"][2:])
    w = np.array(first["weights"])
    assert w.shape == (3, 2, 2, 4)  # (n_new, n_layers, n_heads, n_prompt + n_new - 1)
    for s in range(3):  # step s sees keys 0 .. n_prompt + s - 1 and nothing beyond
        assert np.allclose(w[s, ..., : 2 + s].sum(-1), 1.0, atol=1e-5) and np.all(w[s, ..., 2 + s :] == 0)
    probs = np.array(first["top_probs"])
    assert probs.shape == (3, 2) and np.all(np.diff(probs, axis=-1) <= 0)
    # The generated ids are those of generate() with the same seed.
    ids, _ = gpt.generate(params, CFG, TOK.encode("ab"), 3, rng=np.random.default_rng(4))
    assert first["tokens"] == [TOK.vocab[i] for i in ids]


@pytest.mark.parametrize(
    ("prompts", "kwargs", "match"),
    [
        (["az"], {}, r"character 2 of 'az', 'z', is not"),
        ([""], {}, r"non-empty string; got ''"),
        ([], {}, r"non-empty list of strings"),
        (["abcde"], {"n_new": 3}, r"more than the context T_max=6"),
        (["a"], {"temperature": 0}, r"temperature must be > 0"),
        (["a"], {"top_k": 12}, r"top_k=12 is more than the V=11"),
    ],
)
def test_lab_data_refuses_bad_input(prompts, kwargs, match):
    with pytest.raises(ValueError, match=match):
        labs.generation_lab_data(random_params(CFG), CFG, TOK, prompts, **kwargs)
