"""The live GPT lab of notebook 09: type an opening, and the tiny GPT continues it in the page.

Taught in: 09 §10. Unlike the generation lab beside it, nothing here was generated in advance: the
page carries the weights of the two models of 09 (``data/tiny_gpt_tang.npz`` and the one trained
without the mask, ``data/tiny_gpt_tang_peeking.npz``), and ``live_gpt.js`` runs the forward pass
itself, one character at a time with the key/value cache of 09 §8 (the model without the mask
cannot use one: it reruns the whole text at every step). That makes the page a second
implementation of ``attnlib.gpt``, held to it by a browser test on many openings: the same logits,
the same attention weights, the same greedy continuation.

The weights travel as float16 (half the bytes of the stored float32). Python's own frame, which the
tests compare with the page's, writes the line with ``attnlib.gpt.generate_steps`` on the same
float16-rounded weights, the same way (the cache with the mask, the whole text again without it);
what the rounding itself costs against the stored weights is measured in ``tests/test_live_gpt.py``.
Those float16 numbers are packed losslessly for the trip (``pack``, undone by ``unpack`` and by the
page): the high bytes of all of them, then the low bytes, raw deflate, then base85 text. The page
unpacks them with the browser's own ``DecompressionStream`` and draws once that is done.
Sampling uses a small seeded generator (mulberry32) written twice, here and in the page, so a
sampled line is the same in both.

In the 繁體 edition what the model writes is shown in Traditional characters; in every edition a
Traditional opening is read as Simplified and a pasted line break as the model's own (``attnlib.gpt.text``:
``model_text``, ``drawn_text``), and the lab says so in a line beside the box. An opening the model cannot
read is refused there, in a sentence (``problem``), and changes nothing: the last line it wrote stays
drawn. Raising the number of characters moves the step along when it was at the end (``settle``).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import data, gpt, plot
from ..gpt.text import LINE_BREAK, drawn_text, hant_table, model_text, read_as_simplified
from ..i18n import N_, language, tr
from ..page import colour_table
from .base import Control, Lab

MODELS = ("tiny_gpt_tang", "tiny_gpt_tang_peeking")
TEMPERATURES = [0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.5]  # 0 stands for greedy
TOP_K = 5
SEED = 0
MAX_NEW = 40

READOUT = "{says}"
SAYS = N_("step {step} of {n}: after “{context}” the model writes “{chosen}”, probability {p} · {how}")
GREEDY = N_("greedy: always the most likely character, however small its probability (a small one means "
            "the model is unsure)")
SAMPLED = N_("sampled at temperature {temperature}: candidate {rank} of {V}, every character the model knows "
             "ranked by probability (sampling draws each with its probability, so not always candidate 1)")
EMPTY = N_("Type an opening of at least one character: the model continues a text, it cannot start "
           "from nothing.")
UNKNOWN = N_("The model cannot read {chars}: it knows only the {V} characters of its Tang poems. "
             "Try other characters.")
TOO_LONG = N_("The opening has {T} characters, more than the {T_max} positions the model has: shorten it.")
READ_AS = N_("Read as Simplified, the script of the model's poems: {pairs}.")
SHOWN_HANT = N_("The model writes Simplified characters, the script of its poems; this page shows them in "
                "Traditional.")
LOOKS = N_("looks most at “{token}” ({weight})")
NO_CONTROL = N_("no control named {unknown}; controls are {names}, and the opening is prompt")


# ---- what the page computes with ----------------------------------------------------------------------
@cache
def models() -> tuple[tuple[gpt.GPTConfig, dict[str, np.ndarray]], ...]:
    """The two models of notebook 09 as stored: (config, float32-valued float64 params) each."""
    out = []
    for name in MODELS:
        stored = data.load(name)
        config = gpt.config_from_arrays(stored)
        out.append((config, gpt.params_from_arrays(stored, config)))
    return tuple(out)


def half(params: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The parameters rounded to float16 (what the page computes with), back in float64.

    Taught in: 09 §10
    """
    return {k: np.asarray(v, dtype=np.float16).astype(np.float64) for k, v in params.items()}


# ---- the page's bytes -----------------------------------------------------------------------------------
# Bytes reach the page inside JSON text (a notebook's widget state, a page's inline script). Base85 writes
# 4 bytes as 5 characters (base64: 5⅓), with 85 printable ASCII characters that neither JSON nor HTML
# escapes ("'&<>\` are left out); live_gpt.js builds the same list by the same rule.
DIGITS = "".join(ch for ch in map(chr, range(0x21, 0x7F)) if ch not in "\"'&<>\\`")[:85]


def to_text(blob: bytes, *, huffman_only: bool = False) -> dict[str, Any]:
    """``blob`` raw-deflated (zlib, ``wbits=-15``: what ``DecompressionStream("deflate-raw")`` reads) and
    written in base85: ``{"bytes": length of the deflated bytes, "base85": text}``.

    ``huffman_only`` skips the search for repeated strings: float16 bytes have none worth the bits.
    """
    strategy = zlib.Z_HUFFMAN_ONLY if huffman_only else zlib.Z_DEFAULT_STRATEGY
    z = zlib.compressobj(9, zlib.DEFLATED, -15, 9, strategy)
    deflated = z.compress(blob) + z.flush()
    padded = np.frombuffer(deflated + bytes(-len(deflated) % 4), dtype=">u4").astype(np.int64)
    digits = np.empty((padded.size, 5), dtype=np.uint8)
    for k in range(4, -1, -1):  # the most significant digit first
        padded, digits[:, k] = np.divmod(padded, 85)
    alphabet = np.frombuffer(DIGITS.encode("ascii"), dtype=np.uint8)
    return {"bytes": len(deflated), "base85": alphabet[digits].tobytes().decode("ascii")}


def from_text(packed: dict[str, Any]) -> bytes:
    """The bytes ``to_text`` packed (the page's ``inflate``, written in Python for the tests)."""
    value = {ch: i for i, ch in enumerate(DIGITS)}
    digits = np.array([value[ch] for ch in packed["base85"]], dtype=np.int64).reshape(-1, 5)
    words = np.zeros(len(digits), dtype=np.int64)
    for k in range(5):
        words = words * 85 + digits[:, k]
    deflated = words.astype(">u4").tobytes()[: packed["bytes"]]
    return zlib.decompress(deflated, -15)


def pack(params: dict[str, np.ndarray], config: gpt.GPTConfig) -> dict[str, Any]:
    """The parameters as little-endian float16, with their names and shapes, packed losslessly:
    the high byte of every number, then every low byte (the high bytes hold sign and exponent, which
    repeat; the low bytes are noise), raw deflate, base85 (``to_text``).

    Shapes:
        params {name: shape} -> {"names": [str], "shapes": [[int]], "bytes": int, "base85": str}

    Taught in: 09 §10
    """
    shapes = gpt.config.param_shapes(config)
    halves = np.concatenate([np.asarray(params[k], dtype="<f2").ravel() for k in shapes]).view(np.uint8)
    planes = halves[1::2].tobytes() + halves[0::2].tobytes()  # (high bytes, low bytes), little-endian pairs
    return {"names": list(shapes), "shapes": [list(s) for s in shapes.values()],
            **to_text(planes, huffman_only=True)}


def unpack(packed: dict[str, Any]) -> dict[str, np.ndarray]:
    """The float16 parameters ``pack`` packed, by name, in their shapes (float16 arrays).

    Taught in: 09 §10
    """
    planes = np.frombuffer(from_text(packed), dtype=np.uint8)
    n = planes.size // 2
    halves = ((planes[:n].astype(np.uint16) << 8) | planes[n:]).view(np.float16)
    out, at = {}, 0
    for name, shape in zip(packed["names"], packed["shapes"], strict=True):
        size = int(np.prod(shape))
        out[name] = halves[at : at + size].reshape(shape)
        at += size
    return out


def pack_tables(vocab: list[str], to_hans: dict[str, str], to_hant: dict[str, str]) -> dict[str, Any]:
    """The vocabulary and the two conversion tables as one packed list of little-endian uint16 code points:
    ``[V, V steps between the sorted code points..., n, n (Traditional, Simplified) pairs...,
    m, m (Simplified, Traditional) pairs...]`` (``to_text``). As JSON numbers they weighed three times
    as much; as a string they would have pulled all 1,998 characters into the lab's font.
    """
    points = [ord(ch) for ch in vocab]
    if points != sorted(set(points)):
        raise ValueError(tr("vocab must be sorted by code point, without repeats"))
    pairs = [[ord(a), ord(b)] for table in (to_hans, to_hant) for a, b in table.items()]
    if max(points + [p for pair in pairs for p in pair]) > 0xFFFF:
        raise ValueError(tr("the tables hold characters beyond U+FFFF; they travel as uint16"))
    listed = [len(points), *np.diff(points, prepend=0).tolist(),
              len(to_hans), *(p for a, b in to_hans.items() for p in (ord(a), ord(b))),
              len(to_hant), *(p for a, b in to_hant.items() for p in (ord(a), ord(b)))]
    return to_text(np.array(listed, dtype="<u2").tobytes())


class Mulberry32:
    """A tiny seeded generator of uniform numbers in [0, 1), the twin of ``mulberry32`` in live_gpt.js.

    The page cannot run numpy's generator, so both sides use this one (32-bit integer arithmetic,
    the same in Python and JavaScript).
    """

    def __init__(self, seed: int) -> None:
        self.state = int(seed) & 0xFFFFFFFF

    def random(self) -> float:
        m = 0xFFFFFFFF
        self.state = (self.state + 0x6D2B79F5) & m
        t = self.state
        t = ((t ^ (t >> 15)) * (t | 1)) & m
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & m)) & m) ^ t
        return ((t ^ (t >> 14)) & m) / 4294967296


# ---- the reference: what the page must show, computed with attnlib.gpt ------------------------------
SPACES = " \t\u00a0\u3000"  # named as VISIBLE_SPACE when the model cannot read them: "“ ”" hides a space
VISIBLE_SPACE = "␣"


def problem(prompt: str, vocab: Any, context: int, traditional: bool,
            words: dict[str, str] | None = None) -> str | None:
    """The sentence that refuses an opening the model cannot read, or None (``problem`` in live_gpt.js is
    its twin).

    Each character it cannot read is named once, quoted, a space as ␣ and a line break as ⏎. ``words``
    holds the templates ``empty``, ``unknown`` and ``too_long`` (translated when the lab was built); by
    default they are translated now.
    """
    words = words or {"empty": tr(EMPTY), "unknown": tr(UNKNOWN), "too_long": tr(TOO_LONG)}
    text = model_text(prompt, vocab)
    if not text:
        return words["empty"]
    unknown = dict.fromkeys(VISIBLE_SPACE if ch in SPACES else drawn_text(ch, False)
                            for ch in text if ch not in vocab)
    if unknown:
        left, right = ("「", "」") if traditional else ("“", "”")
        chars = ", ".join(f"{left}{ch}{right}" for ch in unknown)
        return words["unknown"].format(chars=chars, V=len(vocab))
    if len(text) > context:
        return words["too_long"].format(T=len(text), T_max=context)
    return None


def note(prompt: str, vocab: Any, traditional: bool, words: dict[str, str] | None = None) -> str | None:
    """The line beside the box on how an accepted opening was read, or None (``note`` in live_gpt.js is
    its twin): in English and 简体, the Traditional characters read as Simplified; in 繁體, always, that
    the model's Simplified characters are shown in Traditional.

    ``words`` holds the templates ``read_as`` and ``shown_hant``; by default they are translated now.
    """
    words = words or {"read_as": tr(READ_AS), "shown_hant": tr(SHOWN_HANT)}
    if traditional:
        return words["shown_hant"]
    pairs = read_as_simplified(prompt, vocab)
    return words["read_as"].format(pairs=", ".join(f"{t} → {s}" for t, s in pairs.items())) if pairs else None


def settle(values: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``values`` with ``changes`` made, the step following the end: a new number of characters moves the
    step with it when the step was at the end (a learner who moved the step elsewhere keeps it there).
    ``settle`` in live_gpt.js is its twin, which the page kit calls on every change.
    """
    out = {**values, **changes}
    if "n_new" in changes and "step" not in changes and values["step"] == values["n_new"]:
        out["step"] = changes["n_new"]
    return out


def checked_opening(prompt: Any, refuse: Callable[[str], str | None]) -> str:
    """``prompt`` if it is an opening the model can read; else TypeError, or ValueError with the sentence
    ``refuse(prompt)`` gives (what the page shows beside the box)."""
    if not isinstance(prompt, str):
        raise TypeError(tr("prompt must be a string; got {type}").format(type=type(prompt).__name__))
    refused = refuse(prompt)
    if refused:
        raise ValueError(f"prompt={prompt!r}: {refused}")
    return prompt


def make_live_gpt_lab(tokenizer: Any, prompt: str = "明月", *, n_new: int = 22, temperature: float = 0,
                      peeking: bool = False) -> Lab:
    """Lab for notebook 09: the tiny GPT continues an opening in the page, one character at a time.

    Parameters
    ----------
    tokenizer
        The ``CharTokenizer`` of the Tang poems (``load_poems().tokenizer``); the models are loaded
        from ``data/`` as 09 loads them.
    prompt
        The opening on show first: characters of the poems (Traditional ones are read as Simplified,
        a line break as the poems' own), at most 64.
    n_new
        How many characters to write (1 to 40; fewer when the context of 64 is full first).
    temperature
        One of ``TEMPERATURES``; 0 is greedy.
    peeking
        Start with the model trained without the mask.

    Returns
    -------
    Lab
        Its values are ``prompt`` (free text) and the controls ``temperature``, ``n_new``, ``model``
        (0 with the mask, 1 without) and ``step``; ``lab.state`` holds the step's ``weights``
        (n_layers, n_heads, t, t), ``logits`` (V,), ``top`` ids, ``chosen``, the readout's fields and
        ``note``, the line on how the opening was read (or None).

    Raises
    ------
    TypeError, ValueError
        A tokenizer whose vocabulary is not the models', an opening the model cannot read (the sentence
        the page shows), or a setting outside the controls; setting them later (``set_values``) too.

    Taught in: 09 §10
    """
    loaded = models()
    vocab = list(getattr(tokenizer, "vocab", []))
    if len(vocab) != loaded[0][0].vocab_size:
        raise ValueError(tr("tokenizer must be the Tang poems' CharTokenizer of {V} characters; got "
                            "{n}").format(V=loaded[0][0].vocab_size, n=len(vocab)))
    traditional = language() == "zh-Hant"
    rounded = [half(p) for _, p in loaded]
    config = loaded[0][0]
    controls = [
        Control("temperature", "slider", tr("temperature"), TEMPERATURES,
                [tr("greedy") if t == 0 else f"{t:.1f}" for t in TEMPERATURES]),
        Control("n_new", "slider", tr("characters"), list(range(1, MAX_NEW + 1))),
        Control("model", "toggle", tr("model"), [0, 1], [tr("with the mask"), tr("without the mask")]),
        Control("step", "slider", tr("step"), list(range(1, MAX_NEW + 1)), limit="n_new"),
    ]
    words = {
        "opening": tr("opening"), "write": tr("write ▶"), "back": tr("◀ step back"),
        "forward": tr("step forward ▶"), "layer_head": tr("layer {layer} · head {head}"),
        "next": tr("next character: the most likely, and the one chosen (outlined)"),
        "beyond": tr("chosen: candidate {rank}, not among the {top_k} above"),
        "triangle": tr("attention of every head: row = query (the character read), column = key; "
                       "the outlined row is this step's"),
        "says": tr(SAYS), "greedy": tr(GREEDY), "sampled": tr(SAMPLED), "empty": tr(EMPTY),
        "unknown": tr(UNKNOWN), "too_long": tr(TOO_LONG), "looks": tr(LOOKS),
        # the note beside the box, one way or the other (only its words travel: each glyph costs the page)
        **({"shown_hant": tr(SHOWN_HANT)} if traditional else {"read_as": tr(READ_AS)}),
    }
    title = tr("weights · tiny GPT · {text}")
    runs: dict[tuple, list[dict]] = {}

    def refuse(prompt: str) -> str | None:
        return problem(prompt, vocab, config.context, traditional, words)

    def frame(prompt: str, temperature: float, n_new: int, model: int, step: int) -> dict:
        text = model_text(prompt, vocab)  # an opening it cannot read was refused by LiveLab._checked
        ids = tokenizer.encode(text)
        n = min(n_new, config.context + 1 - len(ids))  # the last position read is T_max - 1
        key = (text, temperature, n, model)
        if key not in runs:  # as the page writes: greedy at temperature 0, else one Mulberry32 number a step
            c = loaded[model][0]
            runs[key] = list(gpt.generate_steps(
                rounded[model], c, ids, n, temperature=temperature or 1.0, rng=Mulberry32(SEED),
                use_cache=c.causal, greedy=temperature == 0))
        steps = runs[key]
        s = min(step, n)
        at = steps[s - 1]
        context = [*ids.tolist(), *(st.token for st in steps[: s - 1])]
        top = at.top(TOP_K)
        show = lambda ids_: drawn_text("".join(vocab[i] for i in ids_), traditional)  # noqa: E731
        how = words["greedy"] if temperature == 0 else words["sampled"].format(
            temperature=f"{temperature:.1f}", rank=at.rank, V=config.vocab_size)
        fields = {"step": s, "n": n, "context": show(context), "chosen": show([at.token]),
                  "p": plot.number(float(at.probs[at.token]), 3), "how": how}
        last = at.weights[:, :, -1, :]  # (n_layers, n_heads, t): the query is the last character
        return {
            "note": note(prompt, vocab, traditional, words), "ids": context,
            "written": [st.token for st in steps], "chosen": at.token, "logits": at.logits,
            "weights": at.weights, "top": top.tolist(), "top_probs": at.probs[top],
            "rank": at.rank, "looks": [[int(np.argmax(row)) for row in layer] for layer in last],
            "fields": {"says": words["says"].format(**fields)},
        }

    def snapshot(prompt: str, temperature: float, n_new: int, model: int, step: int) -> Figure:
        f = frame(prompt, temperature, n_new, model, step)
        labels = list(drawn_text("".join(vocab[i] for i in f["ids"]), traditional))
        text = "".join(labels) if len(labels) <= 12 else "".join(labels[:12]) + "…"  # the title fits the grid
        return plot.head_grid(f["weights"], labels, title=title.format(text=text))

    table = hant_table()
    spec_data = {
        # characters as code points: the page's font subsets cover the words on show, not all 1,998
        # characters (a character outside them is drawn by the page's or the system's CJK font)
        "tables": pack_tables(vocab, table["to_hans"], table["to_hant"] if traditional else {}),
        "models": [{**pack(p, c), "config": {"V": c.vocab_size, "T_max": c.context, "d": c.d_model,
                                             "H": c.n_heads, "L": c.n_layers, "f": c.d_ff,
                                             "causal": c.causal}}
                   for c, p in loaded],
        "seed": SEED, "top_k": TOP_K, "traditional": traditional,
        "cmap": colour_table("weights"), "text": words,
    }
    checked_opening(prompt, refuse)
    first = frame(prompt, temperature, n_new, int(peeking), n_new)
    shown_first = "".join(first["fields"].values()) + LINE_BREAK + VISIBLE_SPACE + "“”「」…→"
    lab = LiveLab("live_gpt", controls, {"prompt": prompt, "temperature": temperature, "n_new": n_new,
                                         "model": int(peeking), "step": n_new},
                  spec_data, frame=frame, readout=READOUT, snapshot=snapshot,
                  texts=[shown_first, *words.values()], refuse=refuse)
    return lab


class LiveLab(Lab):
    """A Lab whose values also hold ``prompt``, free text typed in the page; a frame is cached under the
    opening and the controls.

    ``refuse(prompt)`` gives the sentence that refuses an opening the model cannot read (or None): such an
    opening is a ValueError here, as the page keeps it out of the setting and shows the sentence instead.
    """

    def __init__(self, *args: Any, refuse: Callable[[str], str | None], **kwargs: Any) -> None:
        self._refuse = refuse
        super().__init__(*args, **kwargs)

    def _checked(self, values: dict[str, Any]) -> dict[str, Any]:
        values = dict(values)
        prompt = values.pop("prompt", None)
        return {"prompt": checked_opening(prompt, self._refuse), **super()._checked(values)}

    def _key(self, values: dict[str, Any]) -> tuple[Any, ...]:
        return (values["prompt"], *super()._key(values))

    def set_values(self, **changes: Any) -> None:
        """Move controls or change the opening (``prompt=``); the page follows. An opening the model cannot
        read changes nothing (ValueError, with the sentence the page shows); a new ``n_new`` moves the step
        with it when the step was at the end (``settle``)."""
        unknown = set(changes) - {"prompt", *self.controls}
        if unknown:
            raise ValueError(tr(NO_CONTROL).format(unknown=sorted(unknown), names=sorted(self.controls)))
        self.values = self._checked(settle(self.values, changes))
