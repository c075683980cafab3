"""The labs as the notebooks build them, by name: for the lab tests, the browser tests of the labs and
the latency benchmark."""

from __future__ import annotations

import numpy as np

from attnlib import data, labs

X2 = np.array([[2.0, 0.5], [1.0, 2.0], [-1.0, 1.0]])  # the 2-D stand-in of notebook 03


def toy():
    d = data.load("zao_shang_hao")
    return np.asarray(d["X"]), d["tokens"]


def green_grass():
    d = data.load("green_grass")
    X = np.array([[d["vocabulary"][w] for w in s] for s in (d["tokens"], d["second_tokens"])])
    return X, [d["tokens"], d["second_tokens"]]


def build(name: str) -> labs.Lab:
    """The labs as the notebooks build them."""
    if name == "dot_product":
        return labs.make_dot_product_lab(angle=60, length_a=2.0, length_b=1.5)
    if name == "softmax_scale":
        X, tokens = toy()
        return labs.make_softmax_scale_lab(X @ X.T, tokens, scale=1.0, query=0)
    if name == "convex_hull":
        return labs.make_convex_hull_lab(X2, ["早", "上", "好"], scale=1.0)
    if name == "dk":
        return labs.make_dk_lab(rng=np.random.default_rng(0), d_k=64, scaled=False, n_keys=8)
    if name == "mask":
        X, tokens = green_grass()
        return labs.make_mask_lab(X, tokens, mask="both", lengths=[8, 5])
    from attnlib import gpt
    from attnlib.gpt.text import load_poems

    arrays = data.load("tiny_gpt_tang")
    config = gpt.config_from_arrays(arrays)
    return labs.make_generation_lab(gpt.params_from_arrays(arrays, config), config, load_poems().tokenizer,
                                    ["白日", "春风", "明月"], n_new=12, temperature=0.8, seed=0)


NAMES = ["dot_product", "softmax_scale", "convex_hull", "dk", "mask", "generation"]
