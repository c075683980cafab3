"""tools/npm.py: every npm package the tools use pinned once (package.json, package-lock.json), installed by
`npm ci` only when node_modules/ is missing or stale, and a clear message without npm."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tools import build_site, build_slides, build_tang_poems, make_cjk_font, npm, page_python

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.repo

# what the built pages carry or are built with (the page's Python and its editor among them)
PAGES = {p.name for p in (*build_site.PACKAGES, *build_slides.PACKAGES)} | set(page_python.NPM_PACKAGES)
DATA = {make_cjk_font.NPM_PACKAGE, make_cjk_font.TC_PACKAGE, build_tang_poems.PACKAGE}  # sources of committed data


def test_package_json_pins_exactly_the_packages_the_tools_use():
    manifest = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    assert set(manifest["dependencies"]) == PAGES
    assert set(manifest["devDependencies"]) == DATA
    lock = json.loads(npm.LOCKFILE.read_text(encoding="utf-8"))["packages"]
    assert lock[""]["dependencies"] == manifest["dependencies"], "run `npm install` to update the lockfile"
    assert lock[""]["devDependencies"] == manifest["devDependencies"], "run `npm install` to update the lockfile"
    for name, version in {**manifest["dependencies"], **manifest["devDependencies"]}.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name}: pin one version, not a range ({version})"
        entry = npm.locked(name)
        assert entry["version"] == version and re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", entry["integrity"])
        assert bool(entry.get("dev")) == (name in DATA)


def test_node_modules_is_left_out_of_git_and_the_linter():
    assert "node_modules/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert '"node_modules"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


@pytest.fixture
def fake_npm(tmp_path, monkeypatch):
    """npm.py on a lockfile in a temporary folder, with an `npm ci` that records its arguments."""
    lockfile = tmp_path / "package-lock.json"
    lockfile.write_text('{"packages": {}}', encoding="utf-8")
    monkeypatch.setattr(npm, "LOCKFILE", lockfile)
    monkeypatch.setattr(npm, "MODULES", tmp_path / "node_modules")
    monkeypatch.setattr(npm.shutil, "which", lambda name: "/usr/bin/npm")
    calls, status = [], {"code": 0}

    def run(args, cwd, **kwargs):
        calls.append(args[1:])
        if status["code"] == 0:
            (Path(cwd) / "node_modules").mkdir(exist_ok=True)  # npm ci starts from an empty folder
        return subprocess.CompletedProcess(args, status["code"], "", "npm ERR! integrity checksum failed")

    monkeypatch.setattr(npm.subprocess, "run", run)
    return lockfile, calls, status


def test_npm_ci_runs_only_when_node_modules_is_missing_or_stale(fake_npm):
    lockfile, calls, _ = fake_npm
    quiet = {"log": lambda *_: None}
    npm.install("make site", **quiet)
    assert len(calls) == 1 and calls[0][0] == "ci" and "--omit=dev" in calls[0]
    npm.install("make slides", **quiet)
    assert len(calls) == 1  # current: nothing to do
    npm.install("make_cjk_font", dev=True, **quiet)  # the data sources too: install everything
    assert len(calls) == 2 and "--omit=dev" not in calls[1]
    npm.install("make site", **quiet)
    assert len(calls) == 2  # everything includes the pages' packages
    lockfile.write_text('{"packages": {"node_modules/x": {}}}', encoding="utf-8")  # a package added
    npm.install("make site", **quiet)
    assert len(calls) == 3


def test_a_failed_npm_ci_is_reported_and_not_trusted_later(fake_npm):
    _, calls, status = fake_npm
    status["code"] = 1
    with pytest.raises(npm.NpmError, match=r"(?s)npm ci` failed.*integrity checksum failed"):
        npm.install("make site", log=lambda *_: None)
    assert not npm.is_current(dev=False)
    status["code"] = 0
    npm.install("make site", log=lambda *_: None)
    assert len(calls) == 2 and npm.is_current(dev=False)


def test_without_npm_the_error_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(npm, "MODULES", tmp_path / "node_modules")
    monkeypatch.setattr(npm.shutil, "which", lambda name: None)
    with pytest.raises(npm.NpmError, match=r"`make slides` needs npm once.*apt-get install npm"):
        npm.install("make slides", log=lambda *_: None)
    with pytest.raises(npm.NpmError, match="not in package-lock.json"):
        npm.locked("left-pad")
