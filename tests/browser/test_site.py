"""The website (`make site`) opens from disk and works with no network and no Python.

The site is built once per session into a temporary folder with tools/build_site.py, and every page is
opened as a file:// page in chromium. Each request is recorded: all must be file:// (or data:) URLs and
none may fail. MathJax must have typeset every formula (no raw TeX left in the prose), no script may
throw, and every link between pages must lead to a page of the site.

Then every control of every lab on every page is moved with the keyboard, as a learner would: a slider
through End, Home, ArrowRight and ArrowLeft, a set of toggles with the arrow keys through every option and
back, a menu through every option and with the arrow keys. After each change the picture must have changed and the readout must
be the page's own frame at that setting, filled in by Python's ``attnlib.labs.base.fill`` (that the
frames themselves agree with attnlib at every setting is tests/browser/test_lab_frames.py's job).

Building needs the pinned MathJax tarball in .cache/slides/ or npm to fetch it; without either the tests
are skipped with the reason (a learner's machine), and in CI they fail instead.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

from attnlib.labs.base import fill

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402
import offline_pages  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
RAW_TEX = re.compile(r"\$\$|\\(frac|sqrt|mathrm|top|infty|left|right)\b")

# Prose of a page (Markdown cells, text outputs of quizzes, the index) with code and typeset math removed.
PROSE_JS = """() => Array.from(document.querySelectorAll('.jp-RenderedMarkdown, .site-index main')).map(el => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll('code, pre, mjx-container, script, style').forEach(n => n.remove());
    return copy.textContent;
}).join('\\n')"""


def stored_labs(path: Path) -> int:
    """How many lab outputs the notebook stores (widget views whose stored model is a lab)."""
    nb = nbformat.read(path, as_version=4)
    state = nb.metadata.get("widgets", {}).get(offline_pages.WIDGET_STATE, {}).get("state", {})
    views = [o["data"][offline_pages.WIDGET_VIEW]["model_id"] for c in nb.cells if c.cell_type == "code"
             for o in c.get("outputs", []) if offline_pages.WIDGET_VIEW in o.get("data", {})]
    return sum(offline_pages.lab_state(state.get(m)) is not None for m in views)


def has_math(path: Path) -> bool:
    nb = nbformat.read(path, as_version=4)
    return any(c.cell_type == "markdown" and "$" in c.source for c in nb.cells)


def require_assets(what: str) -> None:
    if not offline_pages.cached(build_site.PACKAGES, offline_pages.CACHE) and shutil.which("npm") is None:
        reason = f"{what} needs MathJax: no copy in .cache/slides/ and no npm to fetch it"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must build it")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    require_assets("the site")
    out = tmp_path_factory.mktemp("site")
    build_site.build(NOTEBOOKS, out, log=lambda *_: None)
    return out


class Watch:
    """Every request, failed request, page error and console error of a page; refuses the network."""

    def __init__(self, page) -> None:
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("requestfailed", lambda r: self.failed.append(r.url))
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        # Anything not on disk is refused as well as recorded, so a leak cannot go unnoticed or hang.
        page.route(re.compile(r"^(?!file:|data:).*"), lambda route: route.abort())

    def check(self) -> None:
        assert self.requests, "no request was recorded at all"
        off_disk = [url for url in self.requests if not url.startswith(("file://", "data:"))]
        assert not off_disk, f"requests left the machine: {off_disk[:5]}"
        assert not self.failed, f"files missing next to the pages: {self.failed[:5]}"
        assert not self.errors, "\n".join(self.errors[:5])


def test_every_notebook_has_a_page_and_the_index_lists_them(site):
    pages = sorted(p.stem for p in site.glob("[0-9][0-9]_*.html"))
    assert pages == [p.stem for p in NOTEBOOKS]
    index = (site / "index.html").read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        assert f'href="{path.stem}.html"' in index
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        remote = re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//[^"' >]+""", text)
        assert not remote, f"{page.name} loads from the network: {remote[:3]}"
        assert "require(" not in text and "mermaid" not in text and WIDGET_VIEW_SCRIPT not in text


WIDGET_VIEW_SCRIPT = 'type="application/vnd.jupyter.widget-view+json"'


@pytest.mark.parametrize("name", ["index", *(p.stem for p in NOTEBOOKS)])
def test_page_works_offline(page, site, name):
    watch = Watch(page)
    page.goto((site / f"{name}.html").as_uri())
    page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.evaluate("() => MathJax.startup.promise")

    path = ROOT / "notebooks" / f"{name}.ipynb"
    if name == "index" or has_math(path):
        assert page.locator("mjx-container").count() > 0, "no formula was typeset"
    assert page.locator("mjx-merror").count() == 0, "MathJax reports a TeX error"
    leftover = RAW_TEX.findall(page.evaluate(PROSE_JS))
    assert not leftover, f"raw TeX left in the prose: {leftover[:5]}"

    images = page.evaluate("() => Array.from(document.images).map(i => [i.src.slice(0, 30), i.complete && i.naturalWidth > 0])")
    for src, loaded in images:
        assert loaded, f"image did not decode: {src}"

    # Every link to another page of the site leads to a file that is there.
    for href in page.evaluate("() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"):
        parts = urlsplit(href)
        if parts.scheme == "file":
            assert Path(unquote(parts.path)).is_file(), f"broken link: {href}"
    if name != "index":
        bar = page.locator("header.site-bar").first
        assert bar.locator('a[rel="index"]').get_attribute("href") == "index.html"
        i = [p.stem for p in NOTEBOOKS].index(name)
        for rel, j in (("prev", i - 1), ("next", i + 1)):
            link = bar.locator(f'a[rel="{rel}"]')
            if 0 <= j < len(NOTEBOOKS):
                assert link.get_attribute("href") == f"{NOTEBOOKS[j].stem}.html"
            else:
                assert link.count() == 0
        assert page.locator(".attn-lab").count() == stored_labs(path)
    watch.check()


# ---- every control of every lab ---------------------------------------------------------------------

LAB_JS = """(root) => ({
    readout: root.attnLab.spec.readout,
    controls: root.attnLab.spec.controls,
})"""

# What the page shows now: its setting, a fingerprint of the picture, the readout, and the page's own
# frame at that setting (whose fields Python fills in, to compare with the readout).
STATE_JS = """(root) => {
    const svg = root.querySelector('svg.figure');
    const s = svg ? svg.outerHTML : '';
    let h = 0;
    for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
    const values = JSON.parse(root.dataset.values);
    return {
        values, picture: `${s.length}:${h}`,
        readout: root.querySelector('.readout').innerHTML,
        fields: root.attnLab.def.frame(root.attnLab.spec, values).fields,
        focusInLab: root.contains(document.activeElement),
    };
}"""

# HTML as the page serialises it (entities, attribute quotes), to compare two readouts as the page holds them.
AS_PAGE_HTML = "(html) => { const d = document.createElement('div'); d.innerHTML = html; return d.innerHTML; }"


class LabWalk:
    """Move every control of one lab (``root``: its ``.attn-lab`` element) and check every step."""

    def __init__(self, page, root, where: str) -> None:
        self.page, self.root, self.where = page, root, where
        info = root.evaluate(LAB_JS)
        self.template, self.controls = info["readout"], info["controls"]
        self.problems: list[str] = []
        self.steps = 0
        self.last = self.state()
        self.check_readout(self.last, "as first shown")

    def state(self) -> dict:
        return self.root.evaluate(STATE_JS)

    def check_readout(self, state: dict, what: str) -> None:
        try:
            expected = self.page.evaluate(AS_PAGE_HTML, fill(self.template, state["fields"]))
        except (KeyError, ValueError, TypeError) as err:
            self.problems.append(f"{self.where}: {what}: the frame's fields do not fill the readout: {err}")
            return
        if state["readout"] != expected:
            self.problems.append(f"{self.where}: {what}: readout {state['readout']!r}, Python fills {expected!r}")
        if "error" in state["readout"].lower():
            self.problems.append(f"{self.where}: {what}: the readout reports an error: {state['readout']!r}")

    def step(self, control: dict, action: str, do, expected_index: int | None = None) -> None:
        """Do one thing to a control; check where it went, that the picture moved and the readout."""
        before = self.last
        do()
        after = self.state()
        self.steps += 1
        name, what = control["name"], f"{control['name']!r} {action}"
        if not after["focusInLab"]:
            self.problems.append(f"{self.where}: {what}: the focus left the lab")
        if expected_index is not None:
            expected = control["options"][expected_index]
            if after["values"][name] != expected:
                self.problems.append(f"{self.where}: {what}: value {after['values'][name]!r}, expected {expected!r}")
        if after["values"] != before["values"] and after["picture"] == before["picture"]:
            self.problems.append(f"{self.where}: {what}: the setting moved to {after['values']} "
                                 "but the picture did not change")
        self.check_readout(after, what)
        self.last = after

    def index(self, control: dict) -> int:
        return control["options"].index(self.last["values"][control["name"]])

    def slider(self, control: dict, box) -> None:
        thumb = box.locator("input[type=range]")
        thumb.focus()
        start = self.index(control)

        def press(key: str):
            return lambda: self.page.keyboard.press(key)

        def top() -> int:
            return int(thumb.get_attribute("max"))

        self.step(control, "End", press("End"), top())
        self.step(control, "Home", press("Home"), 0)
        self.step(control, "ArrowRight", press("ArrowRight"), min(1, top()))
        self.step(control, "ArrowLeft", press("ArrowLeft"), 0)
        # back where it was, so the next control starts from the lab's own setting
        self.step(control, f"back to {control['labels'][start]}",
                  lambda: [self.page.keyboard.press("ArrowRight") for _ in range(min(start, top()))],
                  min(start, top()))

    def toggle(self, control: dict, box) -> None:
        radios = box.locator("input[type=radio]")
        n, start = radios.count(), self.index(control)
        radios.nth(start).focus()
        at = start
        for key, move in [("ArrowRight", 1)] * (n - 1) + [("ArrowLeft", -1)] * (n - 1):
            at = (at + move) % n  # arrow keys in a radio group wrap around
            self.step(control, key, lambda key=key: self.page.keyboard.press(key), at)
        if at != start:
            self.problems.append(f"{self.where}: {control['name']!r} did not come back to its start")

    def menu(self, control: dict, box) -> None:
        select = box.locator("select")
        select.focus()
        start = self.index(control)
        order = [i for i in range(len(control["options"])) if i != start] + [start]
        for i in order:
            self.step(control, f"select {control['labels'][i]!r}",
                      lambda i=i: select.select_option(value=str(i)), i)
        # and with the arrow keys, which a closed menu in focus takes for itself
        there = start + 1 if start + 1 < len(order) else start - 1
        first, back = ("ArrowDown", "ArrowUp") if there > start else ("ArrowUp", "ArrowDown")
        if there >= 0:
            self.step(control, first, lambda: self.page.keyboard.press(first), there)
            self.step(control, back, lambda: self.page.keyboard.press(back), start)

    def run(self) -> list[str]:
        if not self.controls:
            self.problems.append(f"{self.where}: no controls")
        for control in self.controls:
            box = self.root.locator(f'.control[data-control="{control["name"]}"]')
            if box.count() != 1:
                self.problems.append(f"{self.where}: control {control['name']!r} not found once in the page")
                continue
            getattr(self, {"slider": "slider", "toggle": "toggle", "menu": "menu"}[control["kind"]])(control, box)
        return self.problems


def walk_labs(page, where: str, roots=None) -> tuple[list[str], int]:
    """Walk every lab in the page (or the given ``.attn-lab`` locators); return problems and steps."""
    roots = roots if roots is not None else page.locator(".attn-lab").all()
    problems, steps = [], 0
    for i, root in enumerate(roots):
        root.scroll_into_view_if_needed()
        walk = LabWalk(page, root, f"{where} lab {i + 1}")
        problems += walk.run()
        steps += walk.steps
    return problems, steps


def with_labs() -> list:
    found = [p for p in NOTEBOOKS if stored_labs(p)]
    return found or [pytest.param(None, marks=pytest.mark.skip(reason="no notebook stores a lab"))]


@pytest.mark.parametrize("notebook", with_labs(), ids=lambda p: p.stem if p else "none")
def test_every_control_of_every_lab_moves_picture_and_readout(page, site, notebook):
    watch = Watch(page)
    page.goto((site / f"{notebook.stem}.html").as_uri())
    page.wait_for_function("() => document.querySelectorAll('.attn-lab').length > 0")
    assert page.locator(".attn-lab").count() == stored_labs(notebook)
    problems, steps = walk_labs(page, notebook.stem)
    assert steps > 0
    assert not problems, f"{len(problems)} problem(s) in {steps} control changes:\n" + "\n".join(problems)
    watch.check()


def test_lab_state_on_the_page_is_the_stored_state(page, site):
    """The page draws the lab from the spec and values the notebook stored, unchanged."""
    notebook = next((p for p in NOTEBOOKS if stored_labs(p)), None)
    if notebook is None:
        pytest.skip("no notebook stores a lab")
    nb = nbformat.read(notebook, as_version=4)
    state = nb.metadata["widgets"][offline_pages.WIDGET_STATE]["state"]
    stored = [lab for m in state.values() if (lab := offline_pages.lab_state(m))]
    page.goto((site / f"{notebook.stem}.html").as_uri())
    shown = page.evaluate("() => Array.from(document.querySelectorAll('.attn-lab')).map("
                          "r => ({spec: r.attnLab.spec, values: JSON.parse(r.dataset.values)}))")
    assert len(shown) == len(stored)
    assert all(lab in stored for lab in shown)  # == on numbers: JSON has no 2.0, only 2
