"""The generation lab of notebook 09: a tiny GPT writes, one character at a time; watch what it reads.

Taught in: 09 §10. Pick a prompt, a step and a layer: the page shows the text so far, each head's
attention from the last character over the context (the causal mask leaves nothing else to see), and
the most likely next characters with the one that was sampled. Generation ran once, in Python, with
the key/value cache (``generation_lab_data``, the lab's record of ``attnlib.gpt.generate_steps``); the
lab's frame recomputes every step without the cache, and the page shows that frame at every setting.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import gpt, plot
from ..checks import check_positive_int
from ..core import softmax
from ..gpt.config import GPTConfig, check_params
from ..gpt.text import drawn_text
from ..i18n import N_, language, tr
from ..page import colour_table
from .base import Control, Lab, slider

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
        characters so far, ``top_probs`` and ``top_tokens`` (top_k,), ``p`` (the sampled character's
        probability), ``rank`` (its place among all V candidates, 1 = the most likely) and ``sampled``
        (its bar: its place among the top_k, or top_k for the bar of its own below them).

    Taught in: 09 §10
    """
    records = generation_lab_data(params, config, tokenizer, prompts, n_new=n_new, temperature=temperature,
                                  seed=seed, top_k=top_k)
    # the model writes Simplified characters; the 繁體 edition shows them in Traditional
    traditional = language() == "zh-Hant"
    show = lambda text: drawn_text(text, traditional)  # noqa: E731
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
        chosen = record["tokens"][t]
        chosen_id = int(tokenizer.encode(chosen)[0])
        at = gpt.Step(logits[-1], softmax(logits[-1] / temperature), chosen_id, weights)  # recomputed
        top, probs, rank = at.top(top_k), at.probs, at.rank
        p = probs[chosen_id]
        # the bar of the sampled character: its place among the top_k, or top_k (a bar of its own below)
        sampled = int(np.flatnonzero(top == chosen_id)[0]) if chosen_id in top else top_k
        looks = ", ".join(looks_at.format(head=h, token=show(context[int(np.argmax(row))]),
                                          weight=plot.number(row.max(), 2)) for h, row in enumerate(w))
        fields = {"prompt": show(prompts[prompt]), "step": step, "n_new": n_new,
                  "context": show("".join(context)), "chosen": show(chosen), "p": float(p), "rank": rank,
                  "V": config.vocab_size, "temperature": temperature, "layer": layer, "looks": looks}
        return {"weights": w, "top_probs": probs[top], "top_tokens": [show(tokenizer.vocab[i]) for i in top],
                "p": fields["p"], "rank": rank, "t": t, "sampled": sampled, "fields": fields}

    def snapshot(prompt: int, step: int, layer: int) -> Figure:
        return plot.generation_attention(shown[prompt], layer=layer)

    data = {
        "records": [{k: r[k] for k in ("tokens", "n_prompt")} for r in shown],
        "n_new": n_new, "n_heads": config.n_heads, "top_k": top_k, "V": config.vocab_size,
        "cmap": colour_table("weights"),
        "text": {"title": tr(TITLE), "text": tr("text"),
                 "heads": [tr("head {head}").format(head=h) for h in range(config.n_heads)],
                 "next": tr("next character: the most likely ones, and the one sampled (outlined)"),
                 "beyond": tr("sampled, candidate {rank} of {V}: not among the {top_k} above")},
    }
    by_step = ("prompt", "step")
    same_length = len({r["n_prompt"] for r in records}) == 1  # then the query's position t is the step's
    page_parts = {"t": ("step",) if same_length else by_step, "top_probs": by_step, "top_tokens": by_step,
                  "p": by_step, "rank": by_step, "sampled": by_step, "weights": None, "fields": None}
    return Lab("generation", controls, {"prompt": 0, "step": n_new, "layer": config.n_layers - 1}, data,
               frame=frame, readout=tr(READOUT), snapshot=snapshot, texts=["⏎"], page_parts=page_parts)


def generation_lab_data(
    params: dict,
    config: GPTConfig,
    tokenizer: Any,
    prompts: Any,
    *,
    n_new: int = 10,
    temperature: float = 0.8,
    seed: int = 0,
    top_k: int = 5,
) -> list[dict]:
    """Everything the generation lab shows for a list of prompts, as plain JSON-able values.

    The generated tokens and, at every step, each head's attention over the context and the most
    likely candidates. Each prompt is generated with its own ``np.random.default_rng(seed)`` and a KV
    cache. At step s the query is the last token so far (position ``n_prompt + s − 1``); its weights
    cover the keys ``0 .. n_prompt + s − 1`` and are 0 beyond (keys that do not exist yet).

    Parameters
    ----------
    params : dict of ndarray
    config : GPTConfig
    tokenizer : CharTokenizer
        Anything with ``encode`` and ``vocab``.
    prompts : list of str
        Each of at least one character of the vocabulary.
    n_new, temperature
        As for :func:`generate`.
    seed : int
        The seed of every prompt's generator.
    top_k : int
        How many candidates to list at each step.

    Returns
    -------
    list of dict
        One record per prompt (see Shapes).

    Raises
    ------
    TypeError, ValueError
        An empty list of prompts, an empty prompt, an unknown character, a prompt plus n_new longer
        than T_max, a temperature <= 0, top_k outside 1..V.

    Shapes:
        for each prompt, a dict with
        ``prompt`` str, ``tokens`` [n_prompt + n_new] str, ``n_prompt`` int, ``generated`` str,
        ``weights`` [n_new][n_layers][n_heads][n_prompt + n_new − 1] float,
        ``top_tokens`` [n_new][top_k] str, ``top_probs`` [n_new][top_k] float,
        ``chosen_probs`` [n_new] float, ``chosen_ranks`` [n_new] int (1 = the most likely),
        ``temperature`` float, ``seed`` int

    Taught in: 09 §10
    """
    check_params(params, config)
    if isinstance(prompts, str) or not hasattr(prompts, "__len__") or len(prompts) == 0:
        raise ValueError(tr("prompts must be a non-empty list of strings; got "
                            "{prompts!r}").format(prompts=prompts))
    temperature = gpt.check_temperature(temperature)
    top_k = check_positive_int(top_k, "top_k")
    if top_k > config.vocab_size:
        raise ValueError(
            tr("top_k={top_k} is more than the V={V} tokens of the "
               "vocabulary").format(top_k=top_k, V=config.vocab_size)
        )
    result = []
    for prompt in prompts:
        if not isinstance(prompt, str) or not prompt:
            raise ValueError(tr("every prompt must be a non-empty string; got "
                                "{prompt!r}").format(prompt=prompt))
        ids, n_new = gpt.check_prompt(tokenizer.encode(prompt), config, n_new)
        steps = list(gpt.generate_steps(params, config, ids, n_new, temperature=temperature,
                                        rng=np.random.default_rng(seed)))
        width = ids.size + n_new - 1
        weights = np.zeros((n_new, config.n_layers, config.n_heads, width))
        for s, step in enumerate(steps):
            weights[s, :, :, : ids.size + s] = step.weights[:, :, -1]  # the last query's row
        top = [step.top(top_k).tolist() for step in steps]
        tokens = [tokenizer.vocab[i] for i in [*ids.tolist(), *(step.token for step in steps)]]
        result.append(
            {
                "prompt": prompt,
                "tokens": tokens,
                "n_prompt": int(ids.size),
                "generated": "".join(tokens[ids.size :]),
                "weights": weights.tolist(),  # full precision: the lab's check compares to 1e-12
                "top_tokens": [[tokenizer.vocab[i] for i in row] for row in top],
                "top_probs": [step.probs[row].tolist() for step, row in zip(steps, top, strict=True)],
                "chosen_probs": [float(step.probs[step.token]) for step in steps],
                # 1 for the most likely candidate: a sample beyond top_k is not among the bars shown
                "chosen_ranks": [step.rank for step in steps],
                "temperature": temperature,
                "seed": int(seed),
            }
        )
    return result
