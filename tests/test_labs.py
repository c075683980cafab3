"""The five slider labs, Python side: their numbers, controls, limits, readouts and snapshots.

What the page draws is checked against these frames at every setting in tests/browser/test_lab_frames.py.
"""

from __future__ import annotations

import json
import re
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import attnlib
from attnlib import labs, plot
from attnlib.labs import base
from tests.lab_cases import NAMES, X2, build, green_grass, toy


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
    module = base.bundle(lab.name)
    assert lab._esm == module
    assert "import " not in re.sub(r"//.*", "", module)  # nothing left to fetch: works from file:// too
    assert "export function createLab" in module and "export default lab;" in module


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
    page = labs.mount_html(lab.name, state, "lab-x")
    assert 'id="lab-x"' in page and "mountStatic(lab" in page
    state["spec"]["data"]["probe"] = "</script><b>"  # a string that would end the inline script early
    page = labs.mount_html(lab.name, state, "lab-x")
    payload = page.split('id="lab-x-state">')[1].split("</script>")[0]  # what the browser hands to JSON.parse
    assert json.loads(payload)["spec"]["data"]["probe"] == "</script><b>"


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

    faces = base.fonts_for(["早上好"])
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
    X, _ = toy()
    np.testing.assert_allclose(lab.frame(query=2, scale=2.5)["weights"], attnlib.softmax(2.5 * (X @ X.T)[2]))


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
    with pytest.raises(ValueError, match="n_keys must be one of the slider.s steps"):
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
    X, tokens = green_grass()
    with pytest.raises(ValueError, match="mask must be one of"):
        labs.make_mask_lab(X, tokens, mask="future")
    with pytest.raises(ValueError, match="lengths in 1..seq_len"):
        labs.make_mask_lab(X, tokens, lengths=[0, 4])
    with pytest.raises(ValueError, match=r"X must have shape \(B, T, d_model\)"):
        labs.make_mask_lab(np.zeros((4, 3)), tokens)


def test_generation_lab_recomputes_what_the_cache_gave():
    lab = build("generation")
    record = lab.spec["data"]["records"][1]
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


@pytest.mark.parametrize("name", NAMES)
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
                if state["_esm"] != base.bundle(state["spec"]["name"]):
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
    assert "春風" in hant.spec["data"]["prompts"] and "风" in plain_records[1]["tokens"]
    assert "风" not in records[1]["tokens"] and "風" in records[1]["tokens"]
    shown = "".join(t for r in records for row in [r["tokens"], *r["top_tokens"]] for t in row)
    assert not set(shown) & set("风远书离识们时东马长见说")
    assert all(r["top_probs"] == q["top_probs"] for r, q in zip(records, plain_records, strict=True))
    hant.set_values(prompt=1, step=1)
    assert "春風" in hant.readout and "风" not in hant.readout
