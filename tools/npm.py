"""The one way the tools get npm packages: ``npm ci`` from the lockfile at the repository's root.

``package.json`` pins every npm package the tools use to one exact version, and ``package-lock.json``
carries the integrity hash (sha512) of each tarball, which npm itself checks when it installs them into
``node_modules/`` (git-ignored). Two kinds:

- ``dependencies``: what the built pages and decks carry or are built with (MathJax, MiniSearch,
  reveal.js, and for Python in the page Pyodide, CodeMirror and esbuild: ``tools/page_python.py``);
  ``make site`` and ``make slides`` install only these (``npm ci --omit=dev``);
- ``devDependencies``: the sources of committed data (the Noto Sans SC and TC fonts that
  ``tools/make_cjk_font.py`` subsets, the poems of ``tools/build_tang_poems.py``); asking for one of them
  installs everything.

``package_dir`` hands out a package's folder, running ``npm ci`` first when ``node_modules/`` is missing
or stale: after a complete install the lockfile's SHA-256 is written to a stamp inside it, and a
lockfile that no longer matches the stamp (a package added or bumped) means install again.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOCKFILE = ROOT / "package-lock.json"
MODULES = ROOT / "node_modules"
STAMP_NAME = ".attn-installed"  # "<lockfile sha256> <all|pages>", written after `npm ci` succeeded


class NpmError(RuntimeError):
    """A pinned npm package cannot be had: npm is missing, or `npm ci` failed."""


def locked(name: str) -> dict[str, Any]:
    """The lockfile's entry of the package ``name``: its ``version``, ``integrity`` and ``dev`` (if one)."""
    packages = json.loads(LOCKFILE.read_text(encoding="utf-8"))["packages"]
    entry = packages.get(f"node_modules/{name}")
    if entry is None:
        raise NpmError(f"{name} is not in {LOCKFILE.name}: add it to package.json and run `npm install`")
    return entry


def version(name: str) -> str:
    return locked(name)["version"]


def stamp(dev: bool) -> str:
    return f"{hashlib.sha256(LOCKFILE.read_bytes()).hexdigest()} {'all' if dev else 'pages'}"


def is_current(dev: bool) -> bool:
    """Whether node_modules/ holds what ``npm ci`` installs from the lockfile (devDependencies if ``dev``)."""
    found = MODULES / STAMP_NAME
    if not found.is_file():
        return False
    wanted = stamp(dev).split()
    digest, kind = (found.read_text(encoding="utf-8").split() + ["", ""])[:2]
    return digest == wanted[0] and (kind == "all" or kind == wanted[1])


def install(command: str, dev: bool = False, log: Callable[[str], Any] = print) -> Path:
    """Run ``npm ci`` in the lockfile's folder unless node_modules/ is current; return node_modules/.

    ``command`` names what needs the packages in the error message ("make site", "make slides").
    """
    if is_current(dev):
        return MODULES
    npm = shutil.which("npm")
    if npm is None:
        raise NpmError(
            f"`{command}` needs npm once, to install the pinned packages of {LOCKFILE.name} into "
            f"{MODULES.name}/ (what it writes needs no network). "
            "Install Node.js and npm (Debian/Ubuntu: apt-get install npm) and run it again."
        )
    args = [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
    log(f"installing the pinned npm packages into {MODULES.name}/ with npm ci")
    args += [] if dev else ["--omit=dev"]
    done = subprocess.run(args, cwd=LOCKFILE.parent, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise NpmError(f"`npm ci` failed (for `{command}`):\n{done.stderr.strip()}")
    (MODULES / STAMP_NAME).write_text(stamp(dev) + "\n", encoding="utf-8")
    return MODULES


def package_dir(name: str, command: str, log: Callable[[str], Any] = print) -> Path:
    """The folder of the pinned npm package ``name`` in ``node_modules/``, installed first if need be."""
    return install(command, dev=bool(locked(name).get("dev")), log=log) / name
