"""Labs (``attnlib.labs.Lab``, drawn in the page: ``.attn-lab`` with its controls, an ``svg.figure`` and a
readout): find the cells that show one, move every control with the keyboard as a learner would, and read
the setting, the readout and a fingerprint of the picture.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from attnlib.labs.base import fill

# A lab cell starts with `# NBVAL_IGNORE_OUTPUT` and shows a Lab built by a `make_..._lab` factory,
# either directly or through a name assigned from one (`lab = labs.make_dk_lab(...)`, later `lab`).
LAB_NAME = re.compile(r"^(\w+)\s*=\s*(?:attnlib\.)?(?:labs\.)?(make_\w+_lab|Lab)\(", re.M)


def code_sources(path: Path) -> list[str]:
    cells = json.loads(path.read_text())["cells"]
    return ["".join(c["source"]) if c["cell_type"] == "code" else "" for c in cells]


def lab_cells(path: Path) -> dict[int, str]:
    """The cells of a notebook that show a lab: cell index -> the factory that built it."""
    sources = code_sources(path)
    factories = {name: factory for s in sources for name, factory in LAB_NAME.findall(s)}
    found = {}
    for i, source in enumerate(sources):
        if not source.lstrip().startswith("# NBVAL_IGNORE_OUTPUT"):
            continue
        last = source.strip().splitlines()[-1].strip()
        direct = re.search(r"\b(make_\w+_lab|Lab)\(", last)
        shown = re.fullmatch(r"(?:display\()?(\w+)\)?;?", last)
        if direct:
            found[i] = direct.group(1)
        elif shown and shown.group(1) in factories:
            found[i] = factories[shown.group(1)]
    return found


# ---- controls, readout, figure ----------------------------------------------------------------------

LAB_SELECTOR = ".attn-lab"

LAB_JS = """(root) => ({
    readout: root.attnLab.spec.readout,
    controls: root.attnLab.spec.controls,
})"""

# What the page shows now: its setting, a fingerprint of the picture, the readout, and the page's own
# frame at that setting (whose fields Python fills in, to compare with the readout).
STATE_JS = """(root) => {
    const s = root.querySelector('.picture').innerHTML;  // every panel (a phone's layout has several)
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
    roots = roots if roots is not None else page.locator(LAB_SELECTOR).all()
    problems, steps = [], 0
    for i, root in enumerate(roots):
        root.scroll_into_view_if_needed()
        walk = LabWalk(page, root, f"{where} lab {i + 1}")
        problems += walk.run()
        steps += walk.steps
    return problems, steps
