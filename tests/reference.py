"""An independent, deliberately plain implementation of attention, written with Python loops.

It shares no code with attnlib: the vectorised library is checked against it.
"""

from __future__ import annotations

import math


def loop_attention(Q, K, V, allowed=None, scale=True):
    """softmax(Q·Kᵀ/√d_k + M)·V for 2-D lists or arrays, one query at a time.

    ``allowed[i][j]`` is True where query i may see key j (None: everything allowed).
    """
    T_q, d_k, T_k, d_v = len(Q), len(Q[0]), len(K), len(V[0])
    out, weights = [], []
    for i in range(T_q):
        scores = []
        for j in range(T_k):
            if allowed is not None and not allowed[i][j]:
                scores.append(None)
                continue
            s = sum(float(Q[i][c]) * float(K[j][c]) for c in range(d_k))
            scores.append(s / math.sqrt(d_k) if scale else s)
        top = max(s for s in scores if s is not None)
        exps = [0.0 if s is None else math.exp(s - top) for s in scores]
        total = sum(exps)
        row = [e / total for e in exps]
        weights.append(row)
        out.append([sum(row[j] * float(V[j][c]) for j in range(T_k)) for c in range(d_v)])
    return out, weights
