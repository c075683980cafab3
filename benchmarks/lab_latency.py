"""Key press -> the frame that shows the new picture, for every lab, in the page and in live JupyterLab.

    make bench      (or: .venv/bin/python -m benchmarks.lab_latency [--presses 25] [--cpu 4])

1. Static page (the site and the offline slides): each lab, built as its notebook builds it, is mounted
   with no kernel; its first slider is pressed (ArrowRight / ArrowLeft alternately) at the lab's
   starting setting and at its largest setting (every slider at its maximum).
2. Live JupyterLab (127.0.0.1, chromium): the same labs in a generated notebook, and beside them, under
   sliders of their own, two kernel renderers of the same picture: the naive redraw (a new matplotlib
   figure per change, PNG into an ``Image`` widget) and the floor of any kernel-PNG renderer (two PNGs
   made ahead, swapped by the kernel: comm + decode + paint, no drawing at all).
Each press is timed in the page: the keydown's timestamp, the first change to the picture (svg or img),
then the next animation frame (an img is decoded first); on the static pages, with the CPU throttled
``--cpu`` times, Chromium's own accounts of each press's layout, style and script time beside it (where
a slow lab's time goes). Prints medians, p95 and ratios from one run;
asserts nothing. Targets: median <= 16 ms (one frame at 60 Hz), p95 <= 33 ms.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from attnlib import plot
from attnlib.labs.registry import LABS, build  # the labs as the notebooks build them
from attnlib.page import mount_html
from tools.browser import jupyter  # the page helpers of the browser tests
from tools.browser.pages import CHROMIUM_FLAGS

MEDIAN_MS, P95_MS = 16.0, 33.0
# The slider labs (the live GPT lab, whose page runs the model, is timed by benchmarks/live_gpt.py).
NAMES = [name for name, entry in LABS.items() if entry.page_keys]

# Arm a timer on one picture: keydown timestamp -> first mutation of the picture -> next frame.
_ARM = """
(root) => { window.__pressTimer = new Promise((resolve) => {
  const picture = root.querySelector('svg.figure') || root.querySelector('img');
  let t0 = null;
  const onKey = (e) => { t0 = e.timeStamp; };
  // on the window: a lab stops the keys below it
  window.addEventListener('keydown', onKey, { capture: true, once: true });
  const seen = new MutationObserver(async () => {
    seen.disconnect();
    if (picture.decode) { try { await picture.decode(); } catch (e) {} }
    requestAnimationFrame(() => resolve(performance.now() - t0));
  });
  // Only the picture: a slider's own label changes at once, before any new picture exists.
  seen.observe(picture, { subtree: true, childList: true, attributes: true, characterData: true });
  setTimeout(() => { seen.disconnect(); resolve(null); }, 5000);  // nothing changed: reported, not hung
}); }
"""


# What a press moves: a lab's first slider, or its first menu where it has none (07's lab).
CONTROL = "input[type=range], select"


def time_presses(page, root, handle, presses: int) -> list[float]:
    times = []
    at_top = handle.evaluate("h => h.type === 'range' ? h.value === h.max"
                             " : h.tagName === 'SELECT' && h.selectedIndex === h.options.length - 1")
    forward, back = ("ArrowDown", "ArrowUp") if handle.evaluate("h => h.tagName") == "SELECT" else (
        "ArrowRight", "ArrowLeft")
    keys = (back, forward) if at_top else (forward, back)
    for k in range(presses + 2):
        handle.focus()
        root.evaluate(_ARM)
        handle.press(keys[k % 2])
        ms = page.evaluate("() => window.__pressTimer")
        if k >= 2 and ms is not None:  # two warm-up presses
            times.append(float(ms))
        time.sleep(0.05)
    return times


def stats(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def largest(lab) -> dict:
    values = {n: c.options[-1] for n, c in lab.controls.items()}
    values.update({n: c.options[-1] for n, c in lab.controls.items() if c.kind == "toggle"})
    return lab._checked(values)


# Chromium's own accounts (DevTools Performance.getMetrics, seconds so far) of where a press's time goes.
SPENT = {"layout": "LayoutDuration", "style": "RecalcStyleDuration", "script": "ScriptDuration"}


def spent(cdp) -> dict[str, float]:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {what: 1000 * metrics[name] for what, name in SPENT.items()}


def static_pages(browser, presses: int, folder: Path, cpu: float = 1) -> list[tuple]:
    """(lab, setting, median, p95, {layout, style, script: ms per press}) with the CPU throttled ``cpu``×."""
    rows = []
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    for name in NAMES:
        with plot.use_style():
            lab = build(name)
        for label, values in (("default", dict(lab.values)), ("largest", largest(lab))):
            lab.set_values(**values)
            path = folder / f"{name}-{label}.html"
            path.write_text("<!doctype html><meta charset='utf-8'><body>"
                            + mount_html(name, lab.page_state(), "lab"), encoding="utf-8")
            page.goto(path.as_uri())
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
            root = page.locator(".attn-lab")
            handle = root.locator(CONTROL).first
            before = spent(cdp)
            median, p95 = stats(time_presses(page, root, handle, presses))
            after = spent(cdp)  # warm-up presses included; script includes the timer's own
            per_press = {k: (after[k] - before[k]) / (presses + 2) for k in SPENT}
            rows.append((name, label, median, p95, per_press))
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    page.close()
    return rows


NOTEBOOK_CELLS = [
    "import ipywidgets as w\nfrom attnlib import plot\nfrom attnlib.labs.registry import build\n"
    "plot.use_style()",
    "def largest(lab):\n"
    "    lab.set_values(**{n: c.options[-1] for n, c in lab.controls.items()})\n"
    "    return lab",
    *[f"build({name!r})" for name in NAMES],
    *[f"largest(build({name!r}))" for name in NAMES],
    # The naive kernel redraw of the d_k lab: a new figure per change, its PNG into an Image widget.
    "lab = build('dk')\nnaive = w.Image(value=plot.figure_png(lab._snapshot(**lab.values)), format='png')\n"
    "slider = w.SelectionSlider(options=list(lab.controls['d_k'].options), value=64,\n"
    "                           description='naive d_k')\n"
    "redraw = lambda d_k: plot.figure_png(lab._snapshot(**{**lab.values, 'd_k': d_k}))\n"
    "slider.observe(lambda c: setattr(naive, 'value', redraw(c['new'])), 'value')\n"
    "w.VBox([slider, naive], _dom_classes=['bench-naive'])",
    # The floor of a kernel-PNG renderer: two PNGs made ahead, swapped (comm + decode + paint only).
    "ready = [plot.figure_png(lab._snapshot(**{**lab.values, 'd_k': d})) for d in (64, 96)]\n"
    "swap = w.Image(value=ready[0], format='png')\n"
    "flip = w.IntSlider(value=0, min=0, max=1, description='swap')\n"
    "flip.observe(lambda c: setattr(swap, 'value', ready[c['new']]), 'value')\n"
    "w.VBox([flip, swap], _dom_classes=['bench-swap'])",
]


def live_jupyterlab(browser, presses: int, folder: Path) -> list[tuple[str, float, float]]:
    import nbformat

    root = folder / "live"
    root.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in NOTEBOOK_CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, root / "bench.ipynb")
    rows = []
    with jupyter.running_jupyter_lab(root, folder / "jupyter.log") as server:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        jupyter.open_notebook(page, server, "bench.ipynb")
        jupyter.run_all(page, "bench.ipynb")
        shown = page.locator(".attn-lab")
        targets = [(f"{name} lab, {setting}", shown.nth(k * len(NAMES) + i))
                   for k, setting in enumerate(("default", "largest")) for i, name in enumerate(NAMES)]
        targets += [("d_k, naive kernel redraw", page.locator(".bench-naive")),
                   ("kernel PNG swap, no drawing", page.locator(".bench-swap"))]
        for label, target in targets:
            target.scroll_into_view_if_needed()
            handle = target.locator(f"{CONTROL}, .widget-slider .noUi-handle").first
            median, p95 = stats(time_presses(page, target, handle, presses))
            rows.append((label, median, p95))
        page.close()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=25)
    parser.add_argument("--cpu", type=float, default=1,
                        help="static pages: throttle the CPU this many times (4: a mid-range phone)")
    args = parser.parse_args()
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        start = time.perf_counter()
        build_s = {}
        for name in NAMES:
            t = time.perf_counter()
            with plot.use_style():
                lab = build(name)
            build_s[name] = (time.perf_counter() - t, len(json.dumps(lab.get_state())))
        page_rows = static_pages(browser, args.presses, Path(tmp), args.cpu)
        live_rows = live_jupyterlab(browser, args.presses, Path(tmp))
        browser.close()
    print("\n## Building each lab (every setting computed) and the size of its widget state\n")
    print("| lab | build | state |\n|---|---|---|")
    for name, (seconds, size) in build_s.items():
        print(f"| {name} | {seconds:.2f} s | {size / 1e3:.0f} kB |")
    print(f"\n## Static page: key press -> new frame ({args.presses} presses, CPU ×{args.cpu:g}; "
          f"targets: median <= {MEDIAN_MS:.0f} ms, p95 <= {P95_MS:.0f} ms)\n")
    print("Per press, Chromium's own accounts: layout, style recalculation, script (the timer's too).\n")
    print("| lab | setting | median | p95 | layout | style | script |\n|---|---|---|---|---|---|---|")
    for name, label, median, p95, cost in page_rows:
        miss = "" if median <= MEDIAN_MS and p95 <= P95_MS else " **missed**"
        print(f"| {name} | {label} | {median:.1f} ms | {p95:.1f} ms{miss} | "
              + " | ".join(f"{cost[k]:.1f} ms" for k in SPENT) + " |")
    print("\n## Live JupyterLab: the labs drawn in the page, beside two kernel renderers of d_k\n")
    print("| what | median | p95 | × the d_k lab at its default |\n|---|---|---|---|")
    base = next(median for label, median, _ in live_rows if label == "dk lab, default")
    for label, median, p95 in live_rows:
        print(f"| {label} | {median:.1f} ms | {p95:.1f} ms | {median / base:.1f}× |")
    print(f"\n(one run, {time.perf_counter() - start:.0f} s; "
          "compare ratios, not absolute times, on a shared machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
