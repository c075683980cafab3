"""A model at work: training losses, and what each generated character attended to.
"""

from __future__ import annotations

from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes

from ..checks import check_positive_int, check_shape, refuse
from ..core import masked_scores
from ..i18n import N_, tr
from .matrices import heatmap
from .style import number, text_size, token_colour


def loss_curves(
    curves: dict[str, Any],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    window: int = 1,
    baselines: dict[str, float] | None = None,
) -> Axes:
    """Training losses, one line per run, smoothed by a moving mean over ``window`` steps.

    ``baselines`` draws labelled horizontal lines (e.g. the loss of guessing by character frequency).

    Shapes:
        curves {label: losses (n_steps,)} -> axes with one line per label

    Taught in: 09 §4
    """
    if not curves:
        refuse(ValueError, N_("curves must hold at least one {{label: losses}} entry"))
    window = check_positive_int(window, "window")
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 3.6))
    for i, (label, losses) in enumerate(curves.items()):
        y = np.asarray(losses, dtype=float)
        if y.ndim != 1 or y.size < window:
            check_shape(False, f"curves[{label!r}]", expected=f"(n_steps,), n_steps >= window={window}",
                        got=y.shape)
        smooth = np.convolve(y, np.ones(window) / window, mode="valid")
        ax.plot(np.arange(window, y.size + 1), smooth, label=label, color=token_colour(i))
    for label, value in (baselines or {}).items():
        ax.axhline(value, color="grey", linestyle="--", linewidth=1)
        ax.annotate(label, (1.0, value), xycoords=("axes fraction", "data"), ha="right", va="bottom",
                    fontsize=text_size(ax.figure), color="grey")
    ax.set_xlabel(tr("training step"))
    ax.set_ylabel(tr("loss (nats per character)"))
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper right" if not baselines else "lower left")
    if title:
        ax.set_title(title)
    return ax


def shown_token(token: str) -> str:
    """A character as a figure writes it: a line break is "⏎", and in 繁體中文 a character of the tiny
    GPT is drawn in its Traditional form (:func:`attnlib.gpt.text.in_script`).
    """
    from ..gpt.text import in_script  # here: attnlib.gpt is loaded only by the notebooks that use it

    return "⏎" if token == "\n" else in_script(token)


def generation_attention(
    record: dict, *, layer: int = -1, title: str | None = None, panel_width: float = 2.6
) -> mpl.figure.Figure:
    """What one generated continuation looked at: one panel per head of one layer.

    Row s of a panel is step s of the generation: the query is the last token so far, the keys are
    every token before the one being chosen (the prompt and the tokens generated before step s);
    keys that did not exist yet are grey. The row label is the token chosen at that step and its
    probability. ``record`` is one entry of ``attnlib.gpt.generation_lab_data``.

    Shapes:
        record["weights"] (n_new, n_layers, n_heads, n_prompt + n_new − 1) -> a figure of n_heads panels

    Taught in: 09 §10
    """
    w = np.asarray(record["weights"], dtype=float)
    if w.ndim != 4:
        check_shape(False, "record['weights']", expected="(n_new, n_layers, n_heads, T)", got=w.shape)
    n_new, n_layers, n_heads, width = w.shape
    if not -n_layers <= layer < n_layers:
        refuse(ValueError, N_("layer={layer} does not exist: the model has {n_layers} layers"), layer=layer,
               n_layers=n_layers)
    layer %= n_layers
    n_prompt = int(record["n_prompt"])
    keys = [shown_token(t) for t in record["tokens"][:width]]
    steps = np.arange(n_new)[:, None]
    future = np.arange(width)[None, :] >= n_prompt + steps  # keys that do not exist yet at step s
    chosen = zip(record["tokens"][n_prompt:], record["chosen_probs"], strict=True)
    rows = [f"{shown_token(t)} {number(p, 2)}" for t, p in chosen]
    fig, axes = plt.subplots(1, n_heads, figsize=(1.2 + panel_width * n_heads, 1.4 + 0.3 * n_new),
                             sharey=True, squeeze=False, layout="constrained")
    head_name = tr("head {head}")
    for head, ax in enumerate(axes[0]):
        data = masked_scores(w[:, layer, head], ~future)  # grey: keys not generated yet
        heatmap(data, rows, keys, ax=ax, annot=False, cbar=head == n_heads - 1,
                title=head_name.format(head=head), xlabel=tr("key (context so far)"),
                ylabel=tr("chosen token, probability") if head == 0 else "")
        ax.tick_params(axis="x", labelsize=text_size(fig))
    prompt = "".join(map(shown_token, record["prompt"]))
    fig.suptitle(title or tr("weights · layer {layer} · prompt {prompt} · temperature {temperature}").format(
        layer=layer, prompt=prompt, temperature=f"{record['temperature']:g}"))
    return fig
