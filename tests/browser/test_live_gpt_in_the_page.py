"""The live GPT lab's forward pass (live_gpt.js) is held to attnlib.gpt, in a real browser.

The page is a second implementation of the tiny GPT of notebook 09. On 24 openings (1 to 64
characters, the last ones the context's full length) and both models, the page's logits at every
position must equal ``attnlib.gpt.forward``'s on the same float16-rounded weights to float32
precision, its attention weights likewise, and its greedy (and seeded sampled) continuation must be
the same characters. The weights it unpacks are the float16 numbers themselves, bit for bit. The lab
page is built by ``mount_html`` from the lab's own state, as the site does, and opened from disk.

And a learner's bad input: an opening the model cannot read is refused beside the box, announced, and
changes nothing drawn; a pasted line break is the poems' own; more characters follow the end.
"""

from __future__ import annotations

import base64

import numpy as np
import pytest

from attnlib import gpt
from attnlib.gpt.text import load_poems
from attnlib.labs import make_live_gpt_lab
from attnlib.labs.live_gpt import SEED, Mulberry32, half, models, note, problem, settle
from attnlib.page import mount_html
from tests.browser.lab_checks import WRITE_JS

SELECTOR = '.attn-lab[data-lab="live_gpt"]'
N_PROMPTS = 24

# The page's numbers as base64 float64, so a 64 × 1998 logit matrix crosses over in one string.
FORWARD_JS = """async ([model, ids]) => {
  const root = document.querySelector('.attn-lab[data-lab="live_gpt"]');
  const c = root.attnLab.def.compute;
  const m = await c.loadModel(root.attnLab.spec.data.models[model]);
  const out = c.forwardAll(m, ids, true);
  const pack = (arrays) => {
    const n = arrays.reduce((a, r) => a + r.length, 0);
    const all = new Float64Array(n);
    let at = 0;
    for (const r of arrays) { all.set(r, at); at += r.length; }
    const bytes = new Uint8Array(all.buffer);
    let s = "";
    for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
    return btoa(s);
  };
  const rows = out.weights.flatMap((layer) => layer.flatMap((head) => head));
  return { logits: pack(out.logits), weights: pack(rows) };
}"""

FRAME_JS = """async (values) => {
  const root = document.querySelector('.attn-lab[data-lab="live_gpt"]');
  await root.attnLab.def.compute.loadModel(root.attnLab.spec.data.models[values.model]);
  const frame = root.attnLab.def.frame(root.attnLab.spec, values);
  return { fields: frame.fields, note: frame.note };
}"""

# The page's twins of live_gpt.py's problem, note and settle, on a list of arguments.
TWINS_JS = """async ([name, calls]) => {
  const root = document.querySelector('.attn-lab[data-lab="live_gpt"]');
  const c = root.attnLab.def.compute, d = root.attnLab.spec.data;
  await c.loadTables(d);
  return calls.map((args) => (name === "settle" ? c.settle(...args) : c[name](d, ...args)));
}"""

# Where the box and a sentence of the lab are (CSS pixels, the viewport's): the element that says `words`
# (the innermost), or by default the box's description; whether that is the box's description, and announced.
BOX_JS = """([sel, words]) => {
  const root = document.querySelector(sel);
  const box = root.querySelector('input[type=text]');
  const described = document.getElementById(box.getAttribute('aria-describedby'));
  const saying = words === null ? described
    : [...root.querySelectorAll('*')].filter((el) => el.textContent === words).pop();
  const rect = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return { box: rect(box), message: rect(saying), text: saying.textContent, kind: saying.dataset.kind || null,
           described: saying === described, live: saying.closest('[aria-live]')?.getAttribute('aria-live') || null,
           invalid: box.getAttribute('aria-invalid'), value: box.value, viewport: [innerWidth, innerHeight] };
}"""

# What the picture shows: the characters of the line, whether the heads are on show, the readout, the setting
# and the step slider's position.
SHOWN_JS = """(sel) => {
  const root = document.querySelector(sel);
  return { line: [...root.querySelectorAll('svg.figure > text')].map((t) => t.textContent).join(''),
           heads: getComputedStyle(root.querySelector('.live-heads')).display,
           readout: root.querySelector('.readout').textContent, values: JSON.parse(root.dataset.values),
           step: root.querySelector('[data-control=step] input').value };
}"""


def gap(a: list[float], b: list[float]) -> float:
    """The distance between two rectangles [left, top, right, bottom] (0 when they touch or overlap)."""
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return float(np.hypot(dx, dy))

# Each model's weights as the page unpacked them (float32 arrays holding the float16 values), as base64.
WEIGHTS_JS = """async (model) => {
  const root = document.querySelector('.attn-lab[data-lab="live_gpt"]');
  const m = await root.attnLab.def.compute.loadModel(root.attnLab.spec.data.models[model]);
  const out = {};
  for (const [name, values] of Object.entries(m.p)) {
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    let s = "";
    for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
    out[name] = btoa(s);
  }
  return out;
}"""


def unpack(b64: str, shape: tuple[int, ...]) -> np.ndarray:
    return np.frombuffer(base64.b64decode(b64), dtype="<f8").reshape(shape)


def written(params, config, ids, n: int, temperature: float) -> list[int]:
    """What the lab writes in Python: attnlib.gpt.generate_steps, greedy at temperature 0, else sampled
    with one number of the generator the page shares with Python per step."""
    steps = gpt.generate_steps(params, config, ids, n, temperature=temperature or 1.0, rng=Mulberry32(SEED),
                               greedy=temperature == 0)
    return [s.token for s in steps]


@pytest.fixture(scope="module")
def poems():
    return load_poems()


@pytest.fixture(scope="module")
def lab(poems):
    return make_live_gpt_lab(poems.tokenizer)


@pytest.fixture
def lab_page(page, lab, tmp_path):
    html = "<!doctype html><meta charset=utf-8><body>" + mount_html("live_gpt", lab.page_state(), "live") + "</body>"
    path = tmp_path / "live_gpt.html"
    path.write_text(html, encoding="utf-8")
    page.goto(path.as_uri())
    # the first picture waits for the weights to be unpacked; the readout is written with it
    page.wait_for_function("(sel) => document.querySelector(sel + ' .readout')?.textContent", arg=SELECTOR)
    return page


def openings(poems, n: int = N_PROMPTS) -> list[np.ndarray]:
    """n held-out openings: lengths 1..60 spread out, then the context's full length (64) three times."""
    ids = poems.heldout_ids
    rng = np.random.default_rng(24)
    lengths = [1, 2, 3, 5, 7, 10, 12, 16, 20, 24, 30, 36, 40, 45, 50, 55, 58, 60, 62, 63, 64]
    lengths += [64] * (n - len(lengths))
    starts = rng.integers(0, ids.size - 64, size=n)
    return [ids[s : s + L] for s, L in zip(starts, lengths, strict=True)]


@pytest.mark.parametrize("model", [0, 1], ids=["causal", "peeking"])
def test_the_page_unpacks_exactly_the_float16_weights(lab_page, model):
    """The page computes with the float16 numbers Python rounded to, bit for bit: the packing
    (byte planes, deflate, base85) loses nothing."""
    config, params = models()[model]
    page = lab_page.evaluate(WEIGHTS_JS, model)
    rounded = half(params)
    assert sorted(page) == sorted(rounded)
    for name, b64 in page.items():
        values = np.frombuffer(base64.b64decode(b64), dtype="<f4").reshape(rounded[name].shape)
        np.testing.assert_array_equal(values.astype(np.float64), rounded[name], err_msg=name)


@pytest.mark.parametrize("model", [0, 1], ids=["causal", "peeking"])
def test_the_page_forward_pass_is_attnlibs(lab_page, poems, model):
    config, params = models()[model]
    rounded = half(params)
    prompts = openings(poems)
    assert len(prompts) >= 20 and max(len(p) for p in prompts) == config.context
    worst_logit = worst_weight = 0.0
    for ids in prompts:
        T = ids.size
        logits, weights = gpt.forward(rounded, config, ids)  # (T, V), (L, H, T, T)
        page = lab_page.evaluate(FORWARD_JS, [model, ids.tolist()])
        page_logits = unpack(page["logits"], (T, config.vocab_size))
        page_weights = unpack(page["weights"], (config.n_layers, config.n_heads, T, T))
        worst_logit = max(worst_logit, float(np.abs(page_logits - logits).max() / np.abs(logits).max()))
        worst_weight = max(worst_weight, float(np.abs(page_weights - weights).max()))
        if config.causal:
            assert np.all(np.triu(page_weights, k=1) == 0), "the page's mask leaks the future"
    # float32 precision is a relative 6e-8; the two float64 sums differ only in their order
    assert worst_logit < 1e-7, f"logits differ by {worst_logit:.1e} (relative)"
    assert worst_weight < 1e-9, f"weights differ by {worst_weight:.1e}"


def test_greedy_and_sampled_lines_are_attnlibs(lab_page, poems):
    tok = poems.tokenizer
    config, params = models()[0]
    rounded = half(params)
    prompts = [p[: 1 + i % 6] for i, p in enumerate(openings(poems))]  # 1-6 characters, 24 openings
    for ids in prompts:
        page = lab_page.evaluate(WRITE_JS, [0, ids.tolist(), 16, 0, SEED])
        assert page == written(rounded, config, ids, 16, 0), f"greedy after {tok.decode(ids)!r}"
        # and attnlib's own cached generation, near-greedy (a tiny temperature), agrees
        cached, _ = gpt.generate(rounded, config, ids, 16, temperature=1e-6, rng=np.random.default_rng(0))
        assert page == cached[ids.size :].tolist()
    for ids in prompts[:8]:  # sampled, with the seeded generator the page and Python share
        page = lab_page.evaluate(WRITE_JS, [0, ids.tolist(), 16, 0.8, SEED])
        assert page == written(rounded, config, ids, 16, 0.8)


@pytest.mark.parametrize("prompt", ["明月", "樓", "月" * 64, "白日依山尽", "明月几时有⏎把酒问青天", "春風\r\n明月\n"])
def test_the_page_reads_out_what_python_does(lab_page, lab, prompt):
    for values in ({"temperature": 0, "n_new": 22, "model": 0, "step": 5},
                   {"temperature": 0.8, "n_new": 10, "model": 1, "step": 10}):
        values = {"prompt": prompt, **values}
        frame = lab.frame(**values)
        assert lab_page.evaluate(FRAME_JS, values) == {"fields": frame["fields"], "note": frame["note"]}


def test_the_page_refuses_and_notes_what_python_does(lab_page, poems):
    """live_gpt.js's problem, note and settle give what their Python twins give."""
    vocab = poems.tokenizer.vocab
    openings = ["", "ab明", "hello world", "明\u3000月\t", "月" * 64, "月" * 65, "樓", "明月⏎樓台", "明月\r\n",
                "⏎", "春風明月樓風"]
    assert lab_page.evaluate(TWINS_JS, ["problem", [[o] for o in openings]]) == [
        problem(o, vocab, 64, False) for o in openings]
    assert lab_page.evaluate(TWINS_JS, ["note", [[o] for o in openings]]) == [
        note(o, vocab, False) for o in openings]
    cases = [({"n_new": a, "step": s}, changes) for a, s in ((22, 22), (22, 5), (40, 40), (3, 3))
             for changes in ({"n_new": 40}, {"n_new": 1}, {"step": 2}, {"n_new": 30, "step": 3}, {"model": 1})]
    assert lab_page.evaluate(TWINS_JS, ["settle", [list(c) for c in cases]]) == [settle(*c) for c in cases]


@pytest.mark.parametrize("width", [1400, 390])
def test_an_opening_it_cannot_read_is_refused_beside_the_box_and_the_line_stays(lab_page, poems, width):
    """`hello world` and Enter: the sentence appears within 80 px of the box (on a phone too, on screen with
    the box), announced (aria-live, the box's description, aria-invalid); the last line stays drawn, with its
    readout, its setting and the step slider where they were (before: a blank picture, the sentence 450 px
    below, the step slider back at 1)."""
    lab_page.set_viewport_size({"width": width, "height": 844})
    before = lab_page.evaluate(SHOWN_JS, SELECTOR)  # whatever line the tests before this one left drawn
    assert before["line"] and before["heads"] != "none"
    box = lab_page.locator(f"{SELECTOR} input[type=text]")
    box.fill("hello world")
    box.press("Enter")
    lab_page.wait_for_function("(sel) => document.querySelector(sel + ' input[type=text]')"
                               ".getAttribute('aria-invalid') === 'true'", arg=SELECTOR, timeout=5000)
    box.scroll_into_view_if_needed()
    sentence = problem("hello world", poems.tokenizer.vocab, 64, False)
    at = lab_page.evaluate(BOX_JS, [SELECTOR, sentence])
    assert gap(at["box"], at["message"]) <= 80, at
    assert at["described"] and at["kind"] == "refused" and at["live"] == "polite"
    assert "“␣”" in sentence  # the space it cannot read, visible
    width_, height = at["viewport"]
    assert 0 <= at["message"][1] and at["message"][3] <= height and at["message"][2] <= width_, at
    assert lab_page.evaluate(SHOWN_JS, SELECTOR) == before
    assert at["value"] == "hello world"  # kept for the learner to mend
    box.fill("明月夜")  # readable again: the refusal goes
    at = lab_page.evaluate(BOX_JS, [SELECTOR, None])
    assert at["invalid"] == "false" and at["text"] == ""


def test_a_pasted_line_break_is_read_as_the_poems_own(lab_page, lab):
    """A two-line poem pasted into the box (before: its line break became a space, refused as “ ”) shows ⏎
    and is written on."""
    lab_page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    lab_page.evaluate("() => navigator.clipboard.writeText('明月几时有\\n把酒问青天')")
    box = lab_page.locator(f"{SELECTOR} input[type=text]")
    box.fill("")
    box.focus()
    lab_page.keyboard.press("Control+V")
    assert box.input_value() == "明月几时有⏎把酒问青天"
    box.press("Enter")
    lab.set_values(prompt="明月几时有⏎把酒问青天", step=22)
    expected = lab_page.evaluate("(html) => { const d = document.createElement('div'); d.innerHTML = html; "
                                 "return d.textContent; }", lab.readout)
    lab_page.wait_for_function("([sel, want]) => document.querySelector(sel + ' .readout').textContent === want",
                               arg=[SELECTOR, expected], timeout=15000)
    at = lab_page.evaluate(BOX_JS, [SELECTOR, None])
    assert at["invalid"] == "false" and at["text"] == ""
    assert expected.startswith("step 22 of 22: after “明月几时有⏎把酒问青天")
    lab.set_values(prompt="明月")


def test_a_traditional_opening_is_read_as_simplified_and_the_page_says_so(lab_page, lab):
    box = lab_page.locator(f"{SELECTOR} input[type=text]")
    box.fill("明月照高樓")
    box.press("Enter")
    lab_page.wait_for_function("(sel) => document.querySelector(sel).dataset.values.includes('高樓')",
                               arg=SELECTOR, timeout=5000)
    at = lab_page.evaluate(BOX_JS, [SELECTOR, "Read as Simplified, the script of the model's poems: 樓 → 楼."])
    assert at["text"] == "Read as Simplified, the script of the model's poems: 樓 → 楼." and at["kind"] == "note"
    assert at["invalid"] == "false" and gap(at["box"], at["message"]) <= 80


def test_more_characters_follow_the_end_unless_the_step_was_moved(lab_page):
    """Raising "characters" from 22 to 40 at step 22 of 22 shows step 40 of 40 (before: 22 of 40); once the
    learner has moved the step back, it stays where they put it."""
    shown = lambda: lab_page.evaluate(SHOWN_JS, SELECTOR)  # noqa: E731
    characters = lab_page.locator(f'{SELECTOR} [data-control="n_new"] input')
    step = lab_page.locator(f'{SELECTOR} [data-control="step"] input')
    characters.focus()
    lab_page.keyboard.press("End")
    now = shown()
    assert (now["values"]["n_new"], now["values"]["step"], now["step"]) == (40, 40, "39")
    assert now["readout"].startswith("step 40 of 40:")
    step.focus()
    for _ in range(3):
        lab_page.keyboard.press("ArrowLeft")
    characters.focus()
    lab_page.keyboard.press("ArrowLeft")
    lab_page.keyboard.press("ArrowRight")
    now = shown()
    assert (now["values"]["n_new"], now["values"]["step"]) == (40, 37)
    assert now["readout"].startswith("step 37 of 40:")


def test_typing_an_opening_writes_a_line(lab_page, lab):
    box = lab_page.locator(f"{SELECTOR} input[type=text]")
    box.fill("")
    box.type("白日")
    seen = lab_page.evaluate("""() => { window.__seen = []; document.addEventListener('keydown',
        (e) => window.__seen.push(e.key), true); }""")
    assert seen is None
    box.press("ArrowLeft")  # stays in the text box: the notebook or the slides never see it
    box.press("Enter")
    # the line is written one character at a time from step 1
    lab_page.wait_for_function("(sel) => JSON.parse(document.querySelector(sel).dataset.values).step < 5",
                               arg=SELECTOR, timeout=5000)
    readout = lab_page.locator(f"{SELECTOR} .readout")
    lab.set_values(prompt="白日", step=22)
    expected = lab_page.evaluate("(html) => { const d = document.createElement('div'); d.innerHTML = html; "
                                 "return d.innerHTML; }", lab.readout)
    lab_page.wait_for_function("([sel, want]) => document.querySelector(sel).innerHTML === want",
                               arg=[f"{SELECTOR} .readout", expected], timeout=15000)
    assert readout.inner_html() == expected
    assert lab_page.evaluate("() => window.__seen") == []
    # step back and forward with the buttons, from the keyboard
    back = lab_page.locator(f'{SELECTOR} button[data-act="back"]')
    back.focus()
    lab_page.keyboard.press("Enter")
    assert '"step":21' in lab_page.locator(SELECTOR).get_attribute("data-values")
    lab_page.locator(f'{SELECTOR} button[data-act="forward"]').focus()
    lab_page.keyboard.press(" ")
    assert '"step":22' in lab_page.locator(SELECTOR).get_attribute("data-values")
    assert lab_page.evaluate("() => window.__seen") == []  # no key left the lab


def test_the_model_without_the_mask_fills_the_square(lab_page):
    """Switched to the peeking model, every query reads every key: the triangle becomes a square."""
    lab_page.locator(f'{SELECTOR} .control[data-control="model"] input[type=radio]').nth(1).check()
    # the page draws the new model by itself once its weights are unpacked
    lab_page.wait_for_function("(sel) => document.querySelector(sel + ' .readout').textContent", arg=SELECTOR)
    weights = lab_page.evaluate("""async (sel) => { const root = document.querySelector(sel);
        await root.attnLab.def.compute.loadModel(root.attnLab.spec.data.models[1]);
        return root.attnLab.def.frame(root.attnLab.spec, root.attnLab.values).weights; }""", SELECTOR)
    w = np.array(weights)
    assert w.shape[:2] == (2, 4) and np.triu(w, k=1).max() > 0.5
