"""Load the small files in the project's ``data/`` folder (described in ``data/README.md``).

Only JSON and ``.npz`` are read, the latter with ``allow_pickle=False``: a data file can never run
code. Nothing is downloaded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["DATA_DIR", "available", "load"]

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
_SUFFIXES = (".json", ".npz")


def available() -> list[str]:
    """Names of the data files that ``load`` can read (without suffix), sorted."""
    return sorted(p.stem for p in DATA_DIR.iterdir() if p.suffix in _SUFFIXES)


def load(name: str) -> Any:
    """Load ``data/<name>.json`` (as parsed JSON) or ``data/<name>.npz`` (as a dict of arrays).

    Lists of numbers under the JSON keys ``"X"``, ``"vectors"`` or ending in ``"_matrix"`` are
    returned as float64 arrays, so a notebook can compute with them straight away.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a string such as 'zao_shang_hao'; got {type(name).__name__}")
    for suffix in _SUFFIXES:
        path = DATA_DIR / f"{name}{suffix}"
        if path.exists():
            break
    else:
        known = ", ".join(available()) if DATA_DIR.is_dir() else f"(no folder {DATA_DIR})"
        raise FileNotFoundError(f"no data file named {name!r}; available: {known}")
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as npz:
            return {key: npz[key] for key in npz.files}
    content = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(content, dict):
        for key, value in content.items():
            if key in ("X", "vectors") or key.endswith("_matrix"):
                content[key] = np.asarray(value, dtype=np.float64)
    return content
