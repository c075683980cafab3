"""How much the checks of ``attnlib.attention`` cost beside the bare formula.

    .venv/bin/python -m benchmarks.attention_speed [--repeats 15] [--T 2048]

One head size of a real model, with a causal mask: batch 1, 8 heads, T = 2048, d_k = 64, float32.
Three ways to compute ``softmax(Q·Kᵀ/√d_k + M)·V`` on the same arrays, run in turn, round after round
(so a busy moment of the machine slows all of them alike):

* ``attnlib.attention``: validation (dtypes, shapes, finiteness, the mask, rows with no key) + the formula;
* the bare formula: five lines of numpy, no checks at all, as one would first write it;
* the bare formula in place: the same lines reusing one (T, T) array, the fastest numpy gets;
* PyTorch's ``scaled_dot_product_attention`` (CPU), when torch is installed.

Prints the median time of each and the ratio to the bare formula; asserts nothing (timings belong in
a report, not in unit tests). Target: attnlib within 1.2× of the bare formula. The machine's other
work shows in the absolute times; read the ratios of one run.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np

import attnlib

try:
    import torch
except ImportError:  # an optional comparison, not a requirement of the series
    torch = None


def bare_attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray, keep: np.ndarray):
    """softmax(Q·Kᵀ/√d_k + M)·V in five lines, with no checks: the floor attnlib is measured against."""
    scores = Q @ np.swapaxes(K, -1, -2) / math.sqrt(Q.shape[-1])  # (..., T_q, T_k)
    scores = np.where(keep, scores, -np.inf)  # + M
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ V, weights


def bare_attention_in_place(Q: np.ndarray, K: np.ndarray, V: np.ndarray, keep: np.ndarray):
    """The same formula with no temporaries beyond the scores: what attnlib's kernel does, unchecked."""
    w = Q @ np.swapaxes(K, -1, -2)  # (..., T_q, T_k)
    w /= math.sqrt(Q.shape[-1])
    np.copyto(w, -np.inf, where=~keep)
    w -= w.max(axis=-1, keepdims=True)
    np.exp(w, out=w)
    w /= w.sum(axis=-1, keepdims=True)
    return w @ V, w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="timed rounds (after one warm-up round)")
    parser.add_argument("--T", type=int, default=2048, help="tokens (queries = keys)")
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--d_k", type=int, default=64)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    shape = (1, args.heads, args.T, args.d_k)  # (B, H, T, d_k)
    Q, K, V = (rng.standard_normal(shape, dtype=np.float32) for _ in range(3))
    keep = attnlib.causal_mask(args.T)  # (T, T), shared by the batch and the heads

    out, weights = attnlib.attention(Q, K, V, keep)
    ref_out, ref_weights = bare_attention(Q, K, V, keep)
    assert out.dtype == np.float32 and weights.dtype == np.float32
    np.testing.assert_allclose(out, ref_out, rtol=1e-4, atol=1e-5)
    del out, weights, ref_out, ref_weights

    runs = {
        "attnlib.attention": lambda: attnlib.attention(Q, K, V, keep),
        "bare numpy formula": lambda: bare_attention(Q, K, V, keep),
        "bare numpy formula, in place": lambda: bare_attention_in_place(Q, K, V, keep),
    }
    if torch is not None:
        tq, tk, tv = (torch.from_numpy(a) for a in (Q, K, V))
        tkeep = torch.from_numpy(keep)

        def sdpa():
            with torch.no_grad():
                return torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, attn_mask=tkeep)

        runs["torch scaled_dot_product_attention"] = sdpa

    times: dict[str, list[float]] = {name: [] for name in runs}
    for round_ in range(args.repeats + 1):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            if round_:  # round 0 warms up
                times[name].append(time.perf_counter() - start)

    base = statistics.median(times["bare numpy formula"])
    floor = statistics.median(times["bare numpy formula, in place"])
    print(f"batch 1 · {args.heads} heads · T = {args.T} · d_k = {args.d_k} · float32 · causal mask "
          f"· median of {args.repeats} rounds, run in turn")
    print(f"{'':38} {'median':>10} {'× bare':>8} {'× in place':>11}")
    for name, ts in times.items():
        median = statistics.median(ts)
        print(f"{name:38} {median * 1e3:8.1f} ms {median / base:7.2f}× {median / floor:10.2f}×")
    if torch is None:
        print("torch scaled_dot_product_attention: not installed (pip install torch to compare)")


if __name__ == "__main__":
    main()
