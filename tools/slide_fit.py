"""Which slides of the offline decks run past the edge of the screen.

    python -m tools.slide_fit [build/slides] [--size 1280x720 --size 1024x768]

Opens every `*.slides.html` of the folder (as written by `make slides`) in chromium, once per deck, and
walks its slides with `Reveal.slide(h, v)` at each screen size (transitions off). For every slide it measures
the box its content covers, in reveal.js's own coordinates (the deck is 1280×800 units, scaled to the
screen), against the slide's box: content below the bottom or right of the right edge is an overflow, and
so is content cut off inside an element that scrolls (a wide formula, a long code line). Fragments count
where they will appear; speaker notes do not. Prints one line per slide that does not fit and exits 1 if
any does. tests/browser/test_slides.py runs the same walk (FIT_JS) on every deck in `make test`.

Needs Playwright (the test extras, `make .venv/.installed-test`) and chromium (Debian's `chromium`).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

SIZES = ((1280, 720), (1024, 768))  # a 16:9 screen and a 4:3 projector
SLACK = 1  # px in slide units: rounding of scaled boxes, never a visible overflow

# Everything a deck draws after load (fonts, figures, the labs' pictures) is there.
READY_JS = """async () => {
  await document.fonts.ready;
  await Promise.all([...document.images].map(img => img.decode().catch(() => null)));
  const labs = () => document.querySelectorAll('.attn-lab-mount').length
                     === document.querySelectorAll('.attn-lab svg.figure').length;
  for (let i = 0; i < 100 && !labs(); i++) await new Promise(r => setTimeout(r, 50));
  return labs();
}"""

# Show every slide in turn and measure it. Lengths are in slide units (screen px / Reveal.getScale()).
FIT_JS = """(slack) => {
  const config = Reveal.getConfig();
  Reveal.configure({transition: 'none', backgroundTransition: 'none'});
  const here = Reveal.getIndices();
  const frame = Reveal.getSlidesElement();
  const found = [];
  for (const slide of Reveal.getSlides()) {
    const at = Reveal.getIndices(slide);
    Reveal.slide(at.h, at.v);
    slide.scrollTop = 0; slide.scrollLeft = 0;
    const scale = Reveal.getScale();
    const box = frame.getBoundingClientRect();
    // What is drawn: notes are not shown, nor what a closed <details> folds away; MathJax's assistive
    // copy is clipped to 1 px by design, and the parts of a formula clip inside it (the formula's own box
    // is what counts).
    const drawn = (root) => [...root.querySelectorAll('*')].filter(el =>
        !el.closest('aside.notes, script, style, mjx-assistive-mml, details:not([open]) > :not(summary)')
        && !(el.tagName.startsWith('MJX-') && el.tagName !== 'MJX-CONTAINER'));
    let bottom = 0, right = 0;
    const inside = [];
    for (const el of drawn(slide)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      bottom = Math.max(bottom, (r.bottom - box.top) / scale);
      right = Math.max(right, (r.right - box.left) / scale);
      const style = getComputedStyle(el);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      if (el.scrollWidth <= el.clientWidth + slack && el.scrollHeight <= el.clientHeight + slack) continue;
      // it clips: is any of its own content out of its box?
      let x = 0, y = 0;
      for (const child of drawn(el)) {
        const c = child.getBoundingClientRect();
        if (c.width === 0 && c.height === 0) continue;
        x = Math.max(x, (c.right - r.right) / scale);
        y = Math.max(y, (c.bottom - r.bottom) / scale);
      }
      if (x > slack || y > slack) {
        const name = [el.tagName.toLowerCase(), ...el.classList].join('.');
        inside.push(`${name} hides ${Math.round(x)}×${Math.round(y)} px`);
      }
    }
    const first = drawn(slide).find(el => el.matches('h1, h2, h3, h4, p, .attn-lab, pre'));
    const named = first ? (first.matches('.attn-lab') ? 'a lab' : first.textContent) : '';
    const text = named.replace(/¶/g, '').trim().replace(/\\s+/g, ' ');
    found.push({h: at.h, v: at.v, title: text.slice(0, 60),
                below: Math.round(bottom - config.height), beyond: Math.round(right - config.width),
                inside: [...new Set(inside)].slice(0, 3)});
  }
  Reveal.slide(here.h, here.v);
  return {width: config.width, height: config.height, slides: found};
}"""


@dataclass(frozen=True)
class Overflow:
    deck: str
    size: tuple[int, int]
    h: int
    v: int
    title: str
    below: int  # slide units past the bottom edge (<= 0: fits)
    beyond: int  # past the right edge
    inside: tuple[str, ...]  # elements that scroll their own content

    def __str__(self) -> str:
        what = []
        if self.below > SLACK:
            what.append(f"{self.below} px below the bottom")
        if self.beyond > SLACK:
            what.append(f"{self.beyond} px past the right edge")
        what += self.inside
        where = f"{self.deck} slide {self.h}.{self.v} ({self.title!r}) at {self.size[0]}×{self.size[1]}"
        return f"{where}: " + "; ".join(what)


def measure_deck(page, deck: str, sizes=SIZES) -> tuple[int, list[Overflow]]:
    """Walk the deck already open in ``page`` at each size: (number of slides, the slides that overflow)."""
    page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15_000)
    if not page.evaluate(READY_JS):
        raise RuntimeError(f"{deck}: a lab did not draw")
    problems, count = [], 0
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => Reveal.layout()")
        walked = page.evaluate(FIT_JS, SLACK)
        count = len(walked["slides"])
        for s in walked["slides"]:
            if s["below"] > SLACK or s["beyond"] > SLACK or s["inside"]:
                problems.append(Overflow(deck, (width, height), s["h"], s["v"], s["title"], s["below"],
                                         s["beyond"], tuple(s["inside"])))
    return count, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = Path(__file__).resolve().parent.parent / "build" / "slides"
    parser.add_argument("folder", nargs="?", type=Path, default=default, help="default: build/slides")
    parser.add_argument("--size", action="append", help="WIDTHxHEIGHT (default: 1280x720 and 1024x768)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    sizes = [tuple(int(n) for n in s.lower().split("x")) for s in args.size] if args.size else SIZES
    decks = sorted(args.folder.resolve().glob("*.slides.html"))
    if not decks:
        print(f"no decks in {args.folder}: run make slides", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from .browser.pages import CHROMIUM_FLAGS

    total, problems = 0, []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_FLAGS, headless=True)
        page = browser.new_page(viewport={"width": sizes[0][0], "height": sizes[0][1]})
        for deck in decks:
            page.goto(deck.as_uri())
            count, found = measure_deck(page, deck.name.removesuffix(".slides.html"), sizes)
            total += count
            problems += found
        browser.close()
    for problem in problems:
        print(problem)
    for size in sizes:
        n = sum(1 for p in problems if p.size == size)
        worst = max((max(p.below, p.beyond) for p in problems if p.size == size), default=0)
        worst = f", worst by {worst} px" if n else ""
        print(f"{size[0]}×{size[1]}: {n} of {total} slides overflow{worst}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
