"""Every lab of the series, named once: how its notebook makes it, and what its page frame holds.

``LABS[name]`` is one :class:`LabEntry`; ``name`` is also the lab's page module
(``attnlib.page.MODULES[name]``, ``attnlib/labs/<name>.js``). An entry rebuilds the inputs its notebook
computes (the toy embeddings, the tiny GPT) and passes the same literal arguments as the notebook's call,
so :func:`build` gives the lab the notebook shows. The lab tests, the browser tests, the site's builders
and the benchmarks read this table; a test holds each notebook's call to the arguments written here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import data
from ..checks import check_choice
from ..page import PageModule, page_module
from .base import Lab
from .convex_hull import make_convex_hull_lab
from .dk import make_dk_lab
from .dot_product import make_dot_product_lab
from .generation import make_generation_lab
from .kv_cache import make_kv_cache_lab
from .live_gpt import make_live_gpt_lab
from .mask import make_mask_lab
from .qkv import make_qkv_lab
from .rope import make_rope_lab
from .softmax_scale import make_softmax_scale_lab
from .tiling import make_tiling_lab
from .whole_formula import make_whole_formula_lab

X2 = np.array([[2.0, 0.5], [1.0, 2.0], [-1.0, 1.0]])  # notebook 03's 2-D stand-in for 早, 上, 好


@dataclass(frozen=True)
class LabEntry:
    """One lab as its notebook makes it.

    Attributes
    ----------
    name : str
        The lab's name and its page module's.
    make : callable
        Its ``make_<name>_lab``.
    inputs : callable
        ``inputs() -> dict``: the arguments the notebook passes as variables it computed, by parameter name.
    arguments : dict
        The arguments the notebook writes out (literals), by parameter name.
    page_keys : tuple of str
        What the page's frame holds besides the readout fields, equal to Python's frame at every setting
        (looked up in ``spec["frames"]``, or computed by the page: the kit's softmax, qkv.js's scores and
        favoured keys). Empty for the live GPT lab, whose page runs the model itself.

    Serves: the lab tests, the site's builders and the benchmarks, not called in the notebooks.
    """

    name: str
    make: Callable[..., Lab]
    inputs: Callable[[], dict[str, Any]]
    arguments: Mapping[str, Any] = field(default_factory=dict)
    page_keys: tuple[str, ...] = ()

    def build(self) -> Lab:
        """The lab as its notebook builds it."""
        return self.make(**self.inputs(), **self.arguments)

    @property
    def page_module(self) -> PageModule:
        """The page module that draws the lab."""
        return page_module(self.name)


def _nothing() -> dict[str, Any]:
    return {}


def _zao_shang_hao() -> dict[str, Any]:
    toy = data.load("zao_shang_hao")  # notebook 02: X (T, d) = (3, 4), scores X·Xᵀ
    X = np.asarray(toy["X"])
    return {"scores": X @ X.T, "tokens": toy["tokens"]}


def _hull() -> dict[str, Any]:
    return {"X": X2, "tokens": ["早", "上", "好"]}


def _rng() -> dict[str, Any]:
    return {"rng": np.random.default_rng(0)}  # the setup cell's generator, unused before the lab


def _sentence() -> dict[str, Any]:
    gg = data.load("green_grass")  # notebook 04: X (T, d_model) = (8, 6), its tokens and feature names
    return {"X": np.asarray(gg["X"]), "tokens": gg["tokens"], "features": gg["features"]}


def _green_grass() -> dict[str, Any]:
    gg = data.load("green_grass")  # notebook 06: two sentences of 8 and 5 real tokens
    sentences = (gg["tokens"], gg["second_tokens"])
    return {"X": np.array([[gg["vocabulary"][w] for w in s] for s in sentences]), "tokens": list(sentences)}


def _whole_formula() -> dict[str, Any]:
    gg = data.load("green_grass")  # notebook 07: the sentence of 04 with its W_Q, W_K, W_V; green's query
    return {"X": np.asarray(gg["X"]), "tokens": gg["tokens"], "features": gg["features"],
            "W_q": np.asarray(gg["W_q_matrix"]), "W_k": np.asarray(gg["W_k_matrix"]),
            "W_v": np.asarray(gg["W_v_matrix"]), "query": gg["tokens"].index("green")}


def _tiny_gpt() -> dict[str, Any]:
    from .. import gpt
    from ..gpt.text import load_poems

    stored = data.load("tiny_gpt_tang")  # notebook 09: the stored model and the poems' tokenizer
    config = gpt.config_from_arrays(stored)
    return {"params": gpt.params_from_arrays(stored, config), "config": config,
            "tokenizer": load_poems().tokenizer, "prompts": ["白日", "春风", "明月"]}


def _tokenizer() -> dict[str, Any]:
    from ..gpt.text import load_poems

    return {"tokenizer": load_poems().tokenizer}


LABS: dict[str, LabEntry] = {entry.name: entry for entry in (
    LabEntry("dot_product", make_dot_product_lab, _nothing, {"angle": 60, "length_a": 2.0, "length_b": 1.5},
             ("a", "b", "foot", "proj", "theta")),
    LabEntry("softmax_scale", make_softmax_scale_lab, _zao_shang_hao, {"scale": 1.0, "query": 0},
             ("weights", "outlined", "entropy")),
    LabEntry("convex_hull", make_convex_hull_lab, _hull, {"scale": 1.0}, ("out",)),
    LabEntry("qkv", make_qkv_lab, _sentence,
             {"query": 3, "query_feature": "action", "key_feature": "alive", "size": 3.0},
             ("W_q", "W_k", "Q", "K", "scores", "weights", "top")),
    LabEntry("dk", make_dk_lab, _rng, {"d_k": 64, "scaled": False, "n_keys": 8},
             ("weights", "top", "uniform", "hist", "edges", "hist_top", "curves")),
    LabEntry("mask", make_mask_lab, _green_grass, {"mask": "both", "lengths": [8, 5]},
             ("scores", "weights", "keep", "lengths")),
    LabEntry("whole_formula", make_whole_formula_lab, _whole_formula, {"scaled": True, "causal": False},
             ("scores", "scaled", "keep", "weights", "contributions", "out", "title")),
    LabEntry("generation", make_generation_lab, _tiny_gpt, {"n_new": 12, "temperature": 0.8, "seed": 0},
             ("weights", "top_probs", "p", "rank", "t", "sampled")),
    LabEntry("live_gpt", make_live_gpt_lab, _tokenizer, {"prompt": "明月", "n_new": 22}),
    LabEntry("rope", make_rope_lab, _nothing, {"d_k": 8, "base": 10000.0},
             ("q_pair", "k_pair", "q_rot", "k_rot", "phi_q", "phi_k", "omega", "dims", "theta_q", "turn_q",
              "theta_k", "turn_k", "k_dir", "pair_dot", "between", "contributions")),
    LabEntry("tiling", make_tiling_lab, _nothing,
             {"T": 16, "block": 4, "mask": "causal", "row": 9, "step": 10},
             ("kinds", "done", "tile", "m", "l", "out", "exact", "gap")),
    LabEntry("kv_cache", make_kv_cache_lab, _nothing,
             {"model": "Mistral 7B", "dtype": "float16", "memory": 80},
             ("n_kv", "positions", "per_token", "per_sequence", "mha_per_sequence", "weights", "weights_fit",
              "group", "fits", "fits_mha")),
)}


def build(name: str) -> Lab:
    """The lab ``name`` (a key of :data:`LABS`) as its notebook builds it.

    Serves: the lab tests, the site's builders and the benchmarks, not called in the notebooks.
    """
    return LABS[check_choice(name, "name", list(LABS))].build()
