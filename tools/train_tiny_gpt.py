"""Train the two tiny GPTs of notebook 09 on Tang poems and store their weights in ``data/``.

The text is ``data/tang_poems.json``: 5,023 five-character poems from 全唐诗 (the quantangshi files of the
npm package ``chinese-poetry``), filtered to poems whose characters are all among the 2,000 most frequent
(``tools/build_tang_poems.py``; see ``data/README.md``).

The same code as the notebook's live run (``attnlib.gpt.train``), with more steps:

* ``data/tiny_gpt_tang.npz``: the causal model (attention under the causal mask);
* ``data/tiny_gpt_tang_peeking.npz``: the same model, same seed, trained without the mask.

Each file holds the parameters (float32, under their ``attnlib.gpt`` names), the config
(``config.*``), the training settings, the training loss of every step and the loss on the held-out
poems, computed in float64 from the stored float32 weights, which notebook 09 checks.

Run from the repository root with the project's environment (numpy only; about ten minutes, the two
models side by side on 2 cores)::

    OPENBLAS_NUM_THREADS=1 .venv/bin/python -m tools.train_tiny_gpt --only causal &
    OPENBLAS_NUM_THREADS=1 .venv/bin/python -m tools.train_tiny_gpt --only peeking

The run is seeded: on the same machine, with one BLAS thread, rerunning it writes the same numbers
(the order of a multi-threaded BLAS sum may change the last bits, and over 3,000 steps the weights).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from attnlib import gpt
from attnlib.gpt.text import load_poems

from .artifacts import write_npz

ROOT = Path(__file__).resolve().parent.parent
OUTPUTS = {True: ROOT / "data" / "tiny_gpt_tang.npz", False: ROOT / "data" / "tiny_gpt_tang_peeking.npz"}
SEED = 9
STEPS = 3000
BATCH_SIZE = 16
LR = 3e-3


def train_one(causal: bool, steps: int) -> dict:
    poems = load_poems()
    config = gpt.GPTConfig(vocab_size=len(poems.tokenizer), causal=causal)
    rng = np.random.default_rng(SEED)
    params = gpt.init_params(config, rng=rng)
    start = time.perf_counter()
    params, losses = gpt.train(
        params, config, poems.train_ids, steps=steps, batch_size=BATCH_SIZE, lr=LR, rng=rng
    )
    stored = {k: v.astype(np.float32) for k, v in params.items()}
    reloaded = gpt.params_from_arrays(stored, config)
    heldout = gpt.sequence_loss(reloaded, config, poems.heldout_ids)
    train_loss = gpt.sequence_loss(reloaded, config, poems.train_ids)
    print(
        f"causal={causal}: {steps} steps in {time.perf_counter() - start:.0f} s, "
        f"train {train_loss:.4f}, held-out {heldout:.4f}"
    )
    return {
        **stored,
        **config.to_arrays(),
        "train_losses": losses.astype(np.float32),
        "heldout_loss": np.array(heldout),
        "train_loss": np.array(train_loss),
        "seed": np.array(SEED),
        "steps": np.array(steps),
        "batch_size": np.array(BATCH_SIZE),
        "lr": np.array(LR),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--only", choices=["causal", "peeking"], help="train one of the two models")
    parser.add_argument("--out-dir", type=Path, help="write there instead of data/ (to compare a rerun)")
    args = parser.parse_args()
    for causal, path in OUTPUTS.items():
        if args.only and args.only != ("causal" if causal else "peeking"):
            continue
        if args.out_dir:
            args.out_dir.mkdir(parents=True, exist_ok=True)
            path = args.out_dir / path.name
        write_npz(path, train_one(causal, args.steps))
        print(f"wrote {path}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
