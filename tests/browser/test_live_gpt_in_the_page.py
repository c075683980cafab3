"""The live GPT lab's forward pass (live_gpt.js) is held to attnlib.gpt, in a real browser.

The page is a second implementation of the tiny GPT of notebook 09. On 24 openings (1 to 64
characters, the last ones the context's full length) and both models, the page's logits at every
position must equal ``attnlib.gpt.forward``'s on the same float16-rounded weights to float32
precision, its attention weights likewise, and its greedy (and seeded sampled) continuation must be
the same characters. The weights it unpacks are the float16 numbers themselves, bit for bit. The lab
page is built by ``mount_html`` from the lab's own state, as the site does, and opened from disk.
"""

from __future__ import annotations

import base64

import numpy as np
import pytest

from attnlib import gpt
from attnlib.gpt.text import load_poems
from attnlib.labs import make_live_gpt_lab
from attnlib.labs.live_gpt import SEED, Mulberry32, half, models, problem
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
  return root.attnLab.def.frame(root.attnLab.spec, values).fields;
}"""

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


@pytest.mark.parametrize("prompt", ["明月", "樓", "", "abc明", "月" * 64, "月" * 65, "白日依山尽"])
def test_the_page_reads_out_what_python_does(lab_page, lab, prompt):
    for values in ({"temperature": 0, "n_new": 22, "model": 0, "step": 5},
                   {"temperature": 0.8, "n_new": 10, "model": 1, "step": 10}):
        values = {"prompt": prompt, **values}
        assert lab_page.evaluate(FRAME_JS, values) == lab.frame(**values)["fields"]


def test_unreadable_openings_get_a_sentence(lab, poems):
    vocab = poems.tokenizer.vocab
    assert "at least one character" in problem("", vocab, 64, False)
    assert "“a”, “b”" in problem("ab明", vocab, 64, False)
    assert "65 characters" in problem("月" * 65, vocab, 64, False)
    assert problem("樓", vocab, 64, False) is None  # Traditional, read as 楼


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
