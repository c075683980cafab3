"""The site opened from disk: how soon each page's first lab can be used, and key press -> next frame.

    make bench      (or: .venv/bin/python -m benchmarks.site_speed [--loads 3] [--presses 15])

The English site is built into a temporary folder (tools/build_site.py, formulas typeset at build time),
then every page is opened from disk:

1. **Chromium**, with the CPU at full speed and throttled 4× (Chrome DevTools'
   ``Emulation.setCPUThrottlingRate``: a mid-range phone), side by side in one run:
   - **usable**: from the start of navigation to the frame after the page's first lab has drawn its
     readout (a page with no lab: the frame after its text is parsed). Median of ``--loads`` loads.
   - **key press -> next frame**, for every lab of the page: its first slider pressed (ArrowRight and
     ArrowLeft in turn) and timed in the page, from the keydown's timestamp through the first change to
     the picture to the next animation frame (benchmarks/lab_latency.py's timer).
2. **Firefox ESR and WebKitGTK**, unthrottled, where installed (tests/browser/engines.py drives them;
   neither driver throttles the CPU or times a real key press from inside the page):
   - **usable**: the page's own navigation timing, up to the end of its load event, with the first
     lab's readout drawn by then (a lab draws when its module runs, before the load event);
   - **input -> next frame**: the slider's value changed and its ``input`` event sent from script, to the
     next animation frame after the picture changed.
Targets: usable <= 1.2 s on every page (at CPU ×4 too); median <= 16 ms and p95 <= 33 ms per lab.
Prints medians and marks what misses; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from benchmarks.lab_latency import MEDIAN_MS, P95_MS, stats, time_presses
from tools import build_site, reference_pages
from tools.browser import engines  # Firefox and WebKit driven as the engine tests drive them
from tools.browser.pages import CHROMIUM_FLAGS

ROOT = Path(__file__).resolve().parents[1]

USABLE_S = 1.2
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

# Set up before the page's own scripts: the time of the frame after the first lab's readout is written.
USABLE_INIT_JS = """
window.__usable = new Promise((resolve) => {
  const frame = () => requestAnimationFrame(() => resolve(performance.now()));
  const drawn = () => { const r = document.querySelector('.attn-lab .readout'); return r && r.textContent; };
  const seen = new MutationObserver(() => { if (drawn()) { seen.disconnect(); frame(); } });
  seen.observe(document, { subtree: true, childList: true, characterData: true });
  document.addEventListener('DOMContentLoaded', () => {
    if (!document.querySelector('.attn-lab-mount')) { seen.disconnect(); frame(); }
  });
});
"""

# Firefox, WebKit: the navigation timing, once the first lab (if any) has drawn.
LOADED_JS = """() => {
  const lab = document.querySelector('.attn-lab-mount');
  const readout = document.querySelector('.attn-lab .readout');
  const timing = performance.getEntriesByType('navigation')[0];
  return { lab: !!lab, drawn: !lab || !!(readout && readout.textContent), at: timing.loadEventEnd };
}"""

# Firefox, WebKit: the k-th lab's first slider moved one step from script, to the next frame after the
# picture changed. Returns the milliseconds of each of n moves.
INPUT_JS = """async ([k, n]) => {
  const root = document.querySelectorAll('.attn-lab')[k];
  const slider = root.querySelector('input[type=range]');
  const picture = root.querySelector('svg.figure') || root;
  root.scrollIntoView();
  const times = [];
  for (let i = 0; i < n + 2; i += 1) {
    const next = Number(slider.value) + (Number(slider.value) < Number(slider.max) ? 1 : -1);
    const done = new Promise((resolve) => {
      const seen = new MutationObserver(() => { seen.disconnect(); requestAnimationFrame(resolve); });
      seen.observe(picture, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const t0 = performance.now();
    slider.value = String(next);
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    await done;
    if (i >= 2) times.push(performance.now() - t0);  // two warm-up moves
    await new Promise((r) => setTimeout(r, 30));
  }
  return times;
}"""

SLIDERS_JS = """() => Array.from(document.querySelectorAll('.attn-lab'),
    (root) => [root.dataset.lab, !!root.querySelector('input[type=range]')])"""


def chromium(site: Path, loads: int, presses: int) -> dict:
    """{throttle: {page: (usable s, [(lab, median, p95)])}} for throttles 1 and 4, one browser."""
    from playwright.sync_api import sync_playwright

    found: dict = {1: {}, 4: {}}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS)
        for path in sorted(site.glob("*.html")):
            for throttle in (1, 4):  # side by side, page by page
                usable = []
                for load in range(loads):
                    context = browser.new_context(viewport={"width": 1280, "height": 900})
                    page = context.new_page()
                    cdp = page.context.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                    page.add_init_script(USABLE_INIT_JS)
                    page.goto(path.as_uri(), wait_until="commit")
                    usable.append(page.evaluate("() => window.__usable") / 1000)
                    if load == loads - 1:
                        presses_by_lab = []
                        for k, (name, slider) in enumerate(page.evaluate(SLIDERS_JS)):
                            if not slider:
                                continue
                            root = page.locator(".attn-lab").nth(k)
                            root.scroll_into_view_if_needed()
                            times = time_presses(page, root, root.locator("input[type=range]").first, presses)
                            presses_by_lab.append((name, *stats(times)))
                    context.close()
                found[throttle][path.stem] = (statistics.median(usable), presses_by_lab)
        browser.close()
    return found


def other_engine(kind: str, site: Path, loads: int, presses: int) -> dict | str:
    """{page: (usable s, [(lab, median, p95)])} in Firefox or WebKit, or why it could not run."""
    why = engines.missing(kind)
    if why:
        return why
    with tempfile.TemporaryDirectory() as folder:
        engine = engines.ENGINES[kind](Path(folder))
        try:
            engine.viewport(1280, 900)
            found = {}
            for path in sorted(site.glob("*.html")):
                usable = []
                for _ in range(loads):
                    engine.goto(path.as_uri())
                    shown = engine.call(LOADED_JS)
                    usable.append(shown["at"] / 1000 if shown["drawn"] else float("nan"))
                labs = engine.call(SLIDERS_JS)
                moves = [(name, *stats(engine.call(INPUT_JS, [k, presses])))
                         for k, (name, slider) in enumerate(labs) if slider]
                found[path.stem] = (statistics.median(usable), moves)
        finally:
            engine.close()
    return found


def report(title: str, found: dict) -> None:
    print(f"\n### {title}\n")
    print("| page | usable | lab | median | p95 |")
    print("|---|---|---|---|---|")
    for page, (usable, moves) in found.items():
        mark = "" if usable <= USABLE_S else " **missed**"
        if not moves:
            print(f"| {page} | {usable:.2f} s{mark} | | | |")
        for i, (lab, median, p95) in enumerate(moves):
            late = "" if median <= MEDIAN_MS and p95 <= P95_MS else " **missed**"
            first = f"{page} | {usable:.2f} s{mark}" if i == 0 else " | "
            print(f"| {first} | {lab} | {median:.1f} ms{late} | {p95:.1f} ms |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=3, help="loads of each page (median)")
    parser.add_argument("--presses", type=int, default=15, help="timed presses of each lab's slider")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        build_site.build(NOTEBOOKS, site, log=lambda *_: None, references=reference_pages.REFERENCES)
        print(f"Site opened from disk: targets usable <= {USABLE_S:g} s, "
              f"key press -> next frame median <= {MEDIAN_MS:g} ms, p95 <= {P95_MS:g} ms")
        found = chromium(site, args.loads, args.presses)
        report("Chromium, full speed", found[1])
        report("Chromium, CPU throttled 4×", found[4])
        for kind, name in (("firefox", "Firefox ESR"), ("webkit", "WebKitGTK")):
            result = other_engine(kind, site, args.loads, args.presses)
            if isinstance(result, str):
                print(f"\n### {name}: not run ({result})")
            else:
                report(f"{name}, full speed (usable: load event; input event -> next frame)", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
