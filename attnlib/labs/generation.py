"""The generation lab of notebook 09: a tiny GPT writes, one character at a time; watch what it reads.

Taught in: 09 §10. Pick a prompt, a step and a layer: the page shows the text so far, each head's
attention from the last character over the context (the causal mask leaves nothing else to see), and
the most likely next characters with the one that was sampled. Generation ran once, in Python, with
the key/value cache; the lab's Python frame recomputes every step without the cache, and the browser
tests compare the two at every setting.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import gpt, plot
from ..core import softmax
from ..i18n import N_, language, tr
from .base import Control, Lab, colour_table, slider
from .live_gpt import shown_text

READOUT = N_("prompt <b>{prompt}</b> · step {step} of {n_new}: after “{context}” the model picks "
             "<b>{chosen}</b>, candidate {rank} of {V}, with probability <b>{p:.3f}</b> "
             "(temperature {temperature:.1f}) · "
             "layer {layer}, where each head looks most: {looks}")
TITLE = N_("layer {layer} · step {step}: after “{context}” comes “{chosen}”")
LOOKS = N_("head {head} → {token} {weight}")


def make_generation_lab(
    params: dict, config: Any, tokenizer: Any, prompts: list[str], *, n_new: int = 12,
    temperature: float = 0.8, seed: int = 0, top_k: int = 5,
) -> Lab:
    """Lab for notebook 09: a prompt menu, the generation step (1 to ``n_new``) and the layer.

    Parameters
    ----------
    params, config
        A trained causal model (``attnlib.gpt``).
    tokenizer
        Its ``CharTokenizer``.
    prompts
        The prompts on the menu; each is continued by ``n_new`` sampled characters.

    Returns
    -------
    Lab
        ``lab.state`` holds ``weights`` (n_heads, t): each head's attention from the last of the t
        characters so far, ``top_probs`` (top_k,), ``p`` (the sampled character's probability) and
        ``rank`` (its place among all V candidates, 1 = the most likely; beyond ``top_k`` the picture
        adds a bar for it below the others).

    Taught in: 09 §10
    """
    records = gpt.generation_lab_data(params, config, tokenizer, prompts, n_new=n_new,
                                      temperature=temperature, seed=seed, top_k=top_k)
    # the model writes Simplified characters; the 繁體 edition shows them in Traditional
    traditional = language() == "zh-Hant"
    show = lambda text: shown_text(text, traditional)  # noqa: E731
    shown = [{**r, "tokens": [show(t) for t in r["tokens"]],
              "top_tokens": [[show(t) for t in row] for row in r["top_tokens"]]} for r in records]
    layer_name, looks_at = tr("layer {layer}"), tr(LOOKS)
    controls = [
        Control("prompt", "menu", tr("prompt"), list(range(len(prompts))), [show(p) for p in prompts]),
        slider("step", tr("step"), 1, n_new, 1),
        Control("layer", "toggle", tr("layer"), list(range(config.n_layers)),
                [layer_name.format(layer=i) for i in range(config.n_layers)]),
    ]

    def frame(prompt: int, step: int, layer: int) -> dict:
        record = records[prompt]
        t = record["n_prompt"] + step - 1  # characters so far; the last one is the query
        context = record["tokens"][:t]
        logits, weights = gpt.forward(params, config, tokenizer.encode("".join(context)))  # no cache
        w = weights[layer, :, -1, :]  # (n_heads, t)
        probs = softmax(logits[-1] / temperature)
        top = np.argsort(-probs, kind="stable")[:top_k]
        chosen = record["tokens"][t]
        p = probs[tokenizer.encode(chosen)[0]]
        rank = int(1 + (probs > p).sum())
        looks = ", ".join(looks_at.format(head=h, token=show(context[int(np.argmax(row))]),
                                          weight=plot.number(row.max(), 2)) for h, row in enumerate(w))
        fields = {"prompt": show(prompts[prompt]), "step": step, "n_new": n_new,
                  "context": show("".join(context)), "chosen": show(chosen), "p": float(p), "rank": rank,
                  "V": config.vocab_size, "temperature": temperature, "layer": layer, "looks": looks}
        return {"weights": w, "top_probs": probs[top], "p": fields["p"], "rank": rank, "fields": fields}

    def snapshot(prompt: int, step: int, layer: int) -> Figure:
        return plot.generation_attention(shown[prompt], layer=layer)

    data = {
        "records": [{k: r[k] for k in ("tokens", "n_prompt", "weights", "top_tokens", "top_probs",
                                        "chosen_probs", "chosen_ranks")} for r in shown],
        "prompts": [show(p) for p in prompts], "n_new": n_new, "n_heads": config.n_heads,
        "temperature": temperature,
        "top_k": top_k, "V": config.vocab_size,
        "cmap": colour_table("weights"),
        "text": {"title": tr(TITLE), "looks": looks_at, "text": tr("text"),
                 "heads": [tr("head {head}").format(head=h) for h in range(config.n_heads)],
                 "next": tr("next character: the most likely ones, and the one sampled (outlined)"),
                 "beyond": tr("sampled, candidate {rank} of {V}: not among the {top_k} above")},
    }
    return Lab("generation", controls, {"prompt": 0, "step": n_new, "layer": config.n_layers - 1}, data,
               frame=frame, readout=tr(READOUT), snapshot=snapshot, texts=["⏎"])
