"""The KV-cache lab of notebook 11: what a model's cache of keys and values costs in bytes, how many
sequences fit in a memory beside the weights, and what heads that share keys and values save.

Taught in: 11 §5. Every layer keeps, for every cached token, a key and a value of ``d_head`` numbers per
K/V head: ``2 · n_layers · n_kv_heads · d_head · bytes`` per token, times the positions kept per sequence.
A memory holds the weights (``params · bytes``) and then as many sequences' caches as fit. Multi-head
attention keeps K and V for every head (``n_kv_heads = n_heads``); GQA shares one K/V head among
``n_heads / n_kv_heads`` query heads and MQA among all of them, and the cache shrinks by that factor.

The presets are the published shapes of ``attnlib.core.MODEL_SHAPES``, sent to the page in the spec; the
K/V heads are chosen relative to the model's heads (as published, all, half, a quarter, one), which every
preset's heads allow. The page computes the few numbers of a setting itself with ``kv_cache_bytes`` and
``sequences_that_fit``, twins of ``attnlib.core``'s, and writes them with ``kv_heads_for``,
``human_bytes``, ``grouped``, ``lines`` and ``settle``, twins of this module's (tests/test_page_twins.py
runs both sides). Sizes are in decimal units: 1 GB = 10⁹ bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .. import plot
from ..checks import check_choice, refuse
from ..core import MODEL_SHAPES, kv_cache_bytes, sequences_that_fit
from ..i18n import N_, tr
from .base import Control, Lab

DTYPES = {"float32": 4, "float16": 2, "int8": 1}  # bytes per stored number
# The K/V heads, relative to the model's n_heads: its published number, then from multi-head to multi-query.
KV_CHOICES = {"published": N_("as published"), "all": N_("one per head (multi-head)"),
              "half": N_("heads ÷ 2"), "quarter": N_("heads ÷ 4"), "one": N_("one for all (multi-query)")}
KV_DIVISORS = {"all": 1, "half": 2, "quarter": 4}
MEMORY_GB = (16, 24, 40, 80, 160, 320, 640)  # one GPU's memory, then two, four and eight of 80 GB
GB = 10**9  # decimal units throughout: 1 kB = 10³ bytes, 1 GB = 10⁹ bytes
UNITS = ("B", "kB", "MB", "GB", "TB")
SHORTEST_CONTEXT = 16  # the context slider's first position
MAX_BLOCKS = 48  # up to this many sequences a bar draws each cache as its own block
WEIGHTS_COLOUR, CACHE_COLOUR, SHARED_COLOUR, OVER_COLOUR = "#9a9a9a", "#4c72b0", "#a6bddb", "#c44e52"

READOUT = N_("<b>{per_sequence}</b> per sequence ({per_token} per token) · {verdict}")
# What the picture writes; the page fills the same templates from the same numbers (``lines``).
TEXTS = {
    "shape": N_("{n_layers} layers · {n_heads} heads · d_head {d_head}"),
    "source": N_("shape: {source}"),
    "config": N_("its own configuration"),
    "query_heads": N_("query heads"),
    "kv_heads": N_("K/V heads"),
    "multi_head": N_("multi-head: one K/V head per head"),
    "grouped": N_("{n_kv} K/V heads: each serves {group} query heads"),
    "multi_query": N_("1 K/V head for all {n_heads} (multi-query)"),
    "factors_a": N_("2 (K and V) × {n_layers} layers × {n_kv} K/V heads"),
    "factors_a_one": N_("2 (K and V) × {n_layers} layers × 1 K/V head"),
    "factors_b": N_("× {d_head} (d_head) × {bytes} B = {per_token} per token"),
    "sequence": N_("× {positions} positions = {per_sequence} per sequence"),
    "window": N_("sliding window: {window} positions kept"),
    "memory": N_("in {memory} of memory (GB = 10⁹ bytes)"),
    "bar_kv": N_("{n_kv} K/V heads"),
    "bar_kv_one": N_("1 K/V head"),
    "bar_mha": N_("{n_heads} K/V heads (multi-head)"),
    "count_none": N_("no sequence"),
    "count_one": N_("1 sequence"),
    "count_many": N_("{n} sequences"),
    "count_over": N_("weights too big"),
    "weights": N_("weights ({weights})"),
    "cache": N_("one sequence's cache"),
    "free": N_("left over"),
    "saving": N_("shared K/V heads: the cache ÷ {group}"),
    "same": N_("no sharing: the two bars are the same"),
    "over": N_("the weights alone ({weights}) do not fit in {memory}"),
    "none": N_("no sequence fits beside {weights} of weights in {memory}"),
    "one": N_("1 sequence fits beside {weights} of weights in {memory}"),
    "many": N_("{n} sequences fit beside {weights} of weights in {memory}"),
}
N_("tiny GPT (09)")  # the one preset whose name is translated (the others are the models' own names)


def human_bytes(n: int) -> str:
    """``n`` bytes in decimal units with three significant digits: ``"328 kB"``, ``"1.34 GB"``
    (kv_cache.js ``human_bytes`` is its twin).

    Shapes: n () -> text
    """
    value, unit = float(n), 0
    while value >= 999.5 and unit < len(UNITS) - 1:
        value, unit = value / 1000, unit + 1
    digits = 0 if unit == 0 or value >= 99.95 else 1 if value >= 9.995 else 2
    return f"{plot.number(value, digits)} {UNITS[unit]}"


def grouped(n: int) -> str:
    """A whole number with a comma between groups of three digits, ``"9,765,621"`` (kv_cache.js
    ``grouped`` is its twin).

    Shapes: n () -> text
    """
    return f"{int(n):,}"


def kv_heads_for(model: Mapping[str, Any], choice: str) -> int:
    """The number of K/V heads a choice of :data:`KV_CHOICES` gives ``model`` (kv_cache.js ``kv_heads_for``
    is its twin): its published ``n_kv_heads``, ``n_heads`` / 1, 2 or 4, or 1.

    Shapes: model a shape of ``MODEL_SHAPES``, choice a name -> n_kv_heads ()
    """
    if choice == "published":
        return int(model["n_kv_heads"])
    return 1 if choice == "one" else int(model["n_heads"]) // KV_DIVISORS[choice]


def settle(values: Mapping[str, Any], changes: Mapping[str, Any],
           models: Mapping[str, Any]) -> dict[str, Any]:
    """The setting after ``changes`` (kv_cache.js ``settle`` is its twin, which the page kit calls on every
    change): a new model brings its own context, and a context beyond the model's is lowered to it.
    ``models`` maps each model to its ``context``. Values that are not options are left for the check.
    """
    out = {**values, **changes}
    model = models.get(out.get("model")) if isinstance(out.get("model"), str) else None
    if model is None:
        return out
    if "model" in changes and changes["model"] != values.get("model") and "context" not in changes:
        out["context"] = model["context"]
    context = out.get("context")
    if type(context) is int and context > model["context"]:
        out["context"] = model["context"]
    return out


def cache_numbers(model: Mapping[str, Any], kv_heads: int, context: int, bytes_per_value: int,
                  memory_gb: int) -> dict[str, Any]:
    """The lab's numbers at one setting, with ``attnlib.core.kv_cache_bytes`` and ``sequences_that_fit``
    (kv_cache.js ``numbers`` computes the same with their twins).

    A model with a sliding window keeps at most ``window`` positions (Mistral's rolling buffer); the
    weights take ``params · bytes_per_value`` (weights and cache in the same number format).

    Shapes: every number () -> dict of numbers ()
    """
    window = model.get("window")
    positions = min(context, window) if window else context
    n_layers, d_head, b = model["n_layers"], model["d_head"], bytes_per_value
    if model["n_heads"] % kv_heads:
        refuse(ValueError, N_("kv_heads={kv} must divide the model's {heads} heads"), kv=kv_heads,
               heads=model["n_heads"])
    per_token = kv_cache_bytes(n_layers, 1, kv_heads, d_head, bytes_per_value=b)
    per_sequence = kv_cache_bytes(n_layers, positions, kv_heads, d_head, bytes_per_value=b)
    mha = kv_cache_bytes(n_layers, positions, model["n_heads"], d_head, bytes_per_value=b)
    weights = int(model["params"]) * bytes_per_value
    memory = memory_gb * GB
    fit = weights <= memory
    return {
        "n_kv": kv_heads, "positions": positions, "per_token": per_token, "per_sequence": per_sequence,
        "mha_per_sequence": mha, "weights": weights, "weights_fit": fit,
        "group": model["n_heads"] // kv_heads,
        "fits": sequences_that_fit(memory, per_sequence, reserved_bytes=weights) if fit else 0,
        "fits_mha": sequences_that_fit(memory, mha, reserved_bytes=weights) if fit else 0,
    }


def _count(texts: Mapping[str, str], n: int, fit: bool) -> str:
    if not fit:
        return texts["count_over"]
    if n <= 1:
        return texts["count_one"] if n == 1 else texts["count_none"]
    return texts["count_many"].format(n=grouped(n))


def lines(f: Mapping[str, Any], values: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, str]:
    """The picture's sentences and the readout's verdict at one setting (kv_cache.js ``lines`` is its twin,
    filling the same templates from the same numbers).

    Shapes: f the numbers of :func:`cache_numbers` -> {name: text}
    """
    t, model = data["texts"], data["models"][values["model"]]
    n_kv, n_heads, group = f["n_kv"], model["n_heads"], f["group"]
    memory = f"{values['memory']} GB"
    weights = human_bytes(f["weights"])
    if not f["weights_fit"]:
        verdict = t["over"].format(weights=weights, memory=memory)
    else:
        n = f["fits"]
        key = "none" if n == 0 else "one" if n == 1 else "many"
        verdict = t[key].format(n=grouped(n), weights=weights, memory=memory)
    if group == 1:
        heads = t["multi_head"]
    elif n_kv == 1:
        heads = t["multi_query"].format(n_heads=n_heads)
    else:
        heads = t["grouped"].format(n_kv=n_kv, group=group)
    window = model["window"]
    return {
        "title": model["label"],
        "shape": t["shape"].format(n_layers=model["n_layers"], n_heads=n_heads, d_head=model["d_head"]),
        "source": t["source"].format(source=model["source"]),
        "heads": heads,
        "factors_a": t["factors_a_one" if n_kv == 1 else "factors_a"].format(n_layers=model["n_layers"],
                                                                             n_kv=n_kv),
        "factors_b": t["factors_b"].format(d_head=model["d_head"], bytes=data["bytes"][values["dtype"]],
                                           per_token=human_bytes(f["per_token"])),
        "sequence": t["sequence"].format(positions=grouped(f["positions"]),
                                         per_sequence=human_bytes(f["per_sequence"])),
        "window": t["window"].format(window=grouped(window)) if window and values["context"] > window else "",
        "memory": t["memory"].format(memory=memory),
        "bar_kv": t["bar_kv_one"] if n_kv == 1 else t["bar_kv"].format(n_kv=n_kv),
        "bar_mha": t["bar_mha"].format(n_heads=n_heads),
        "count_kv": _count(t, f["fits"], f["weights_fit"]),
        "count_mha": _count(t, f["fits_mha"], f["weights_fit"]),
        "saving": t["saving"].format(group=group) if group > 1 else t["same"],
        "weights": t["weights"].format(weights=weights),
        "verdict": verdict,
    }


def _short_source(source: str) -> str:
    """The table a shape comes from ("Brown et al. 2020, Table 2.1"), or "its own configuration"."""
    cited = source.split(" (")[0].split(";")[0]
    return cited if "et al." in cited else tr(TEXTS["config"])


def make_kv_cache_lab(model: str = "Mistral 7B", *, kv_heads: str = "published", context: int | None = None,
                      dtype: str = "float16", memory: int = 80) -> Lab:
    """Lab for notebook 11: the KV cache of a published model in bytes, and the sequences that fit.

    Parameters
    ----------
    model : str
        A key of ``attnlib.core.MODEL_SHAPES`` (Mistral 7B: 8 K/V heads for 32 query heads).
    kv_heads : {"published", "all", "half", "quarter", "one"}
        K/V heads per layer, relative to the model's heads: its published number, n_heads (multi-head
        attention), n_heads / 2 or n_heads / 4 (grouped-query attention, GQA), or 1 (multi-query, MQA).
        Every preset's heads are a multiple of 4, so each choice divides them.
    context : int, optional
        Tokens in a sequence, at most the model's context (by default its context).
    dtype : {"float32", "float16", "int8"}
        How the weights and the cache are stored: 4, 2 or 1 byte per number.
    memory : int
        The memory in GB (10⁹ bytes): one of 16, 24, 40, 80 (one GPU), 160, 320, 640 (several).

    Shapes
    ------
    every control a number or a name -> the frame's numbers, each ()

    Returns
    -------
    Lab
        ``lab.state`` holds ``n_kv`` (the K/V heads), ``per_token`` and ``per_sequence`` (bytes of the
        cache), ``mha_per_sequence``
        (the same with ``n_kv_heads = n_heads``), ``positions`` (cached per sequence: the context, or a
        sliding window), ``weights`` (bytes), ``weights_fit``, ``fits`` and ``fits_mha`` (sequences that
        fit beside the weights) and ``group`` (query heads per K/V head).

    Taught in: 11 §5
    """
    names = list(MODEL_SHAPES)
    check_choice(model, "model", names)
    check_choice(dtype, "dtype", list(DTYPES))
    check_choice(kv_heads, "kv_heads", list(KV_CHOICES))
    shapes = {name: dict(shape) for name, shape in MODEL_SHAPES.items()}
    limits = {name: {"context": s["context"]} for name, s in shapes.items()}
    for name, s in shapes.items():  # every choice of K/V heads must divide every preset's heads
        if s["n_heads"] % max(KV_DIVISORS.values()) or s["n_heads"] % s["n_kv_heads"]:
            refuse(ValueError, N_("{model} has {heads} heads and {kv} K/V heads: the lab needs a number of "
                                  "heads divisible by 4 and by its K/V heads"),
                   model=name, heads=s["n_heads"], kv=s["n_kv_heads"])
    chosen = shapes[model]
    context = chosen["context"] if context is None else context

    longest = max(s["context"] for s in shapes.values())
    contexts = sorted({SHORTEST_CONTEXT * 2**k for k in range(64) if SHORTEST_CONTEXT * 2**k <= longest}
                      | {s["context"] for s in shapes.values()})
    controls = [
        Control("model", "menu", tr("model"), names, [tr(n) for n in names]),
        Control("kv_heads", "menu", tr("K/V heads"), list(KV_CHOICES), [tr(w) for w in KV_CHOICES.values()]),
        Control("context", "slider", tr("context (tokens)"), contexts, [grouped(c) for c in contexts]),
        Control("dtype", "toggle", tr("numbers stored as"), list(DTYPES),
                [tr("{dtype} ({n} B)").format(dtype=d, n=n) for d, n in DTYPES.items()]),
        Control("memory", "slider", tr("memory"), list(MEMORY_GB), [f"{m} GB" for m in MEMORY_GB]),
    ]
    check_choice(memory, "memory", list(MEMORY_GB))
    check_choice(context, "context", [c for c in contexts if c <= chosen["context"]])

    texts = {name: tr(words) for name, words in TEXTS.items()}
    data = {
        "models": {name: {"label": tr(name), "n_layers": s["n_layers"], "n_heads": s["n_heads"],
                          "n_kv_heads": s["n_kv_heads"], "d_head": s["d_head"], "d_model": s["d_model"],
                          "context": s["context"], "params": int(s["params"]), "window": s.get("window"),
                          "source": _short_source(s["source"])} for name, s in shapes.items()},
        "limits": limits, "kv_divisors": KV_DIVISORS, "bytes": DTYPES, "gb": GB, "max_blocks": MAX_BLOCKS,
        "max_heads": max(s["n_heads"] for s in shapes.values()), "texts": texts,
        "colours": {"weights": WEIGHTS_COLOUR, "cache": CACHE_COLOUR, "shared": SHARED_COLOUR,
                    "over": OVER_COLOUR},
    }

    def frame(model: str, kv_heads: str, context: int, dtype: str, memory: int) -> dict:
        shape = shapes[model]
        f = cache_numbers(shape, kv_heads_for(shape, kv_heads), context, DTYPES[dtype], memory)
        values = {"model": model, "kv_heads": kv_heads, "context": context, "dtype": dtype, "memory": memory}
        said = lines(f, values, data)
        fields = {"per_sequence": human_bytes(f["per_sequence"]), "per_token": human_bytes(f["per_token"]),
                  "verdict": said["verdict"]}
        return {**f, "fields": fields}

    def snapshot(**values: Any) -> Figure:
        return _picture(frame(**values), values, data)

    return KVCacheLab("kv_cache", controls,
                      {"model": model, "kv_heads": kv_heads, "context": context, "dtype": dtype,
                       "memory": memory},
                      data, frame=frame, readout=tr(READOUT), snapshot=snapshot, page_parts={}, limits=limits)


def _choice(model: Mapping[str, Any] | None, n_kv: int) -> Any:
    """The first choice of :data:`KV_CHOICES` that gives ``model`` ``n_kv`` K/V heads (``n_kv`` itself when
    none does, for the check to refuse by name)."""
    if model is None:
        return n_kv
    found = [c for c in KV_CHOICES if kv_heads_for(model, c) == n_kv]
    if not found:
        options = sorted({kv_heads_for(model, c) for c in KV_CHOICES})
        refuse(ValueError, N_("kv_heads={kv}: this model's choices give {options} K/V heads"), kv=n_kv,
               options=", ".join(map(str, options)))
    return found[0]


class KVCacheLab(Lab):
    """The KV-cache lab: a :class:`Lab` whose context is at most the model's; a new model brings its own
    (``settle``).

    Serves: notebook 11's lab (``make_kv_cache_lab``), not called in the notebooks.
    """

    def __init__(self, *args: Any, limits: Mapping[str, Any], **kwargs: Any) -> None:
        self._limits = limits  # read by _checked, which Lab.__init__ calls
        super().__init__(*args, **kwargs)

    def _checked(self, values: dict[str, Any]) -> dict[str, Any]:
        values = super()._checked(values)
        model = self._limits[values["model"]]
        if values["context"] > model["context"]:
            refuse(ValueError, N_("context={context} is longer than the {longest} tokens of {model}"),
                   context=values["context"], longest=model["context"], model=values["model"])
        return values

    def set_values(self, **changes: Any) -> None:
        """Move one or more controls (the page follows); a new model brings its own context, and a context
        beyond the model's is lowered to it (``settle``). From Python the K/V heads may also be a number
        (``kv_heads=32``): the first choice that gives the model that many."""
        unknown = set(changes) - set(self.controls)
        if unknown:
            raise ValueError(tr("no control named {unknown}; controls are {names}").format(
                unknown=sorted(unknown), names=sorted(self.controls)))
        kv = changes.get("kv_heads")
        if isinstance(kv, int) and not isinstance(kv, bool):
            model = changes.get("model", self.values["model"])
            changes = {**changes, "kv_heads": _choice(self.spec["data"]["models"].get(model), kv)}
        self.values = self._checked(settle(self.values, changes, self._limits))

    def settings(self) -> list[dict[str, Any]]:
        """Every setting the controls allow: each model with the contexts up to its own."""
        return [s for s in super().settings() if s["context"] <= self._limits[s["model"]]["context"]]


# ---- the picture with matplotlib: the page's wide layout (kv_cache.js WIDE), in the same units ----------
WIDE = {
    "W": 760, "H": 382, "title": 20, "shape": 42, "source": 62, "strip": (130, 752), "query": 84, "kv": 104,
    "strip_h": 14, "heads": 140, "factors": 166, "sequence": 190, "window": 212, "memory": 240,
    "bars": ((256, 268), (292, 304)), "bar_x": (214, 596), "bar_h": 24, "label_x": 8, "count_x": 606,
    "legend": ((8, 340), (190, 340), (400, 340)), "saving": 366,
}


def _picture(f: Mapping[str, Any], values: Mapping[str, Any], data: Mapping[str, Any]) -> Figure:
    """The lab's picture: the model's shape, its heads in groups, the cache's factors, two memory bars."""
    G, said, model = WIDE, lines(f, values, data), data["models"][values["model"]]
    fig = plot.new_figure((10.0, 10.0 * G["H"] / G["W"]))
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, G["W"])
    ax.set_ylim(G["H"], 0)
    ax.axis("off")
    unit = fig.get_figwidth() * 72 / G["W"]  # points per unit of the page's picture
    sizes = {"title": 15 * unit, "text": 14 * unit, "tick": max(13 * unit, plot.text_size(fig))}

    def write(y: float, words: str, kind: str = "text", x: float = G["label_x"], **style: Any) -> None:
        ax.text(x, y, words, va="center", fontsize=sizes[kind], **style)

    write(G["title"], said["title"], "title")  # not bold: matplotlib has no bold face of the CJK subset
    write(G["shape"], said["shape"])
    write(G["source"], said["source"], "tick", color="#555555")
    # the heads: a strip of query heads over one of K/V heads, each group in one colour
    n_heads, n_kv, group = model["n_heads"], f["n_kv"], f["group"]
    (x0, x1), h = G["strip"], G["strip_h"]
    cell = (x1 - x0) / n_heads
    write(G["query"] + h / 2, data["texts"]["query_heads"], "tick")
    write(G["kv"] + h / 2, data["texts"]["kv_heads"], "tick")
    shades = (CACHE_COLOUR, SHARED_COLOUR)
    edge = 0.5 if cell >= 4 else 0.0
    for k in range(n_heads):
        ax.add_patch(Rectangle((x0 + k * cell, G["query"]), cell, h, facecolor=shades[(k // group) % 2],
                               edgecolor="white", lw=edge))
    for g in range(n_kv):
        ax.add_patch(Rectangle((x0 + g * group * cell, G["kv"]), group * cell, h, facecolor=shades[g % 2],
                               edgecolor="white", lw=0.8))
    write(G["heads"], said["heads"])
    write(G["factors"], said["factors_a"] + " " + said["factors_b"])
    write(G["sequence"], said["sequence"])
    write(G["window"], said["window"], "tick", color="#555555")
    write(G["memory"], said["memory"], "title")
    memory = values["memory"] * data["gb"]
    bars = ((f["per_sequence"], f["fits"], said["bar_kv"], said["count_kv"]),
            (f["mha_per_sequence"], f["fits_mha"], said["bar_mha"], said["count_mha"]))
    for (top, middle), (per, n, label, count) in zip(G["bars"], bars, strict=True):
        _bar(ax, top, memory, f["weights"], per, n, f["weights_fit"])
        write(middle, label, "tick")
        write(middle, count, "tick", x=G["count_x"])
    for (x, y), colour, key in zip(G["legend"], (WEIGHTS_COLOUR, CACHE_COLOUR, "white"),
                                   ("weights", "cache", "free"), strict=True):
        ax.add_patch(Rectangle((x, y - 6), 18, 12, facecolor=colour, edgecolor="#333333", lw=0.8))
        write(y, said["weights"] if key == "weights" else data["texts"][key], "tick", x=x + 24)
    write(G["saving"], said["saving"])
    return fig


def _bar(ax: Any, y: float, memory: int, weights: int, per: int, n: int, fit: bool) -> None:
    """One memory bar: the weights, then n caches of ``per`` bytes (a block each while few), what is left."""
    (x0, x1), h = WIDE["bar_x"], WIDE["bar_h"]
    span = x1 - x0
    w = span * weights / memory if fit else span
    ax.add_patch(Rectangle((x0, y), w, h, facecolor=WEIGHTS_COLOUR if fit else OVER_COLOUR, lw=0))
    if fit:
        ax.add_patch(Rectangle((x0 + w, y), span * n * per / memory, h, facecolor=CACHE_COLOUR, lw=0))
        if 1 < n <= MAX_BLOCKS:
            for k in range(1, n):
                x = x0 + w + span * k * per / memory
                ax.plot([x, x], [y, y + h], color="white", lw=0.8)
    ax.add_patch(Rectangle((x0, y), span, h, facecolor="none", edgecolor="#333333", lw=1))
