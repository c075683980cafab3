"""Pages in Debian's chromium: the flags it is launched with, and for pages opened from disk (the site, the
decks) ``Watch``, which records every request and script error and refuses the network; a reveal.js deck's
slides; and the fonts a page drew its text with.
"""

from __future__ import annotations

import re
from pathlib import Path

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# ---- pages opened from disk ---------------------------------------------------------------------------
class Watch:
    """Every request, failed request, page error and console error of a page; refuses the network."""

    def __init__(self, page) -> None:
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("requestfailed", lambda r: self.failed.append(r.url) if not self._left_behind(r) else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        # Anything not on disk is refused as well as recorded, so a leak cannot go unnoticed or hang.
        page.route(re.compile(r"^(?!file:|data:).*"), lambda route: route.abort())

    @staticmethod
    def _left_behind(request) -> bool:
        """A file that is there, whose loading was cut short because the reader went to another page
        (a font or a figure the page had not finished fetching)."""
        from urllib.parse import unquote, urlsplit

        url = urlsplit(request.url)
        return (request.failure == "net::ERR_ABORTED" and url.scheme == "file"
                and Path(unquote(url.path)).is_file())

    def check(self) -> None:
        assert self.requests, "no request was recorded at all"
        off_disk = [url for url in self.requests if not url.startswith(("file://", "data:"))]
        assert not off_disk, f"requests left the machine: {off_disk[:5]}"
        assert not self.failed, f"files missing next to the pages: {self.failed[:5]}"
        assert not self.errors, "\n".join(self.errors[:5])


# ---- a reveal.js deck -------------------------------------------------------------------------------------
_SHOW_SLIDE_JS = """(root) => {
    Reveal.configure({transition: 'none', backgroundTransition: 'none'});
    const section = root.closest('section');
    const at = Reveal.getIndices(section);
    Reveal.slide(at.h, at.v);
    section.scrollTop = 0;
    return at;
}"""
_ON_SLIDE_JS = """(root) => {
    const r = root.getBoundingClientRect(), s = root.closest('section').getBoundingClientRect();
    return {box: [r.left, r.top, r.right, r.bottom], slide: [s.left, s.top, s.right, s.bottom],
            width: root.offsetWidth, height: root.offsetHeight};
}"""


def show_slide_of(page, root) -> dict:
    """Show the slide that holds ``root`` (a locator), with no transition; return its indices {h, v}."""
    at = root.evaluate(_SHOW_SLIDE_JS)
    page.wait_for_function("(at) => { const n = Reveal.getIndices(); return n.h === at.h && n.v === at.v; }",
                           arg=at)
    return at


def on_its_slide(root) -> tuple[bool, dict]:
    """Whether ``root`` lies within its slide as shown (to a pixel), and the boxes and size measured."""
    fit = root.evaluate(_ON_SLIDE_JS)
    (left, top, right, bottom), (s_left, s_top, s_right, s_bottom) = fit["box"], fit["slide"]
    return s_left - 1 <= left and right <= s_right + 1 and s_top - 1 <= top and bottom <= s_bottom + 1, fit


# ---- fonts: all in? Chinese drawn with the bundled CJK font? ----------------------------------------------------
# Every web font the page asked for has arrived (or failed): what is drawn and measured from then on is final.
FONTS_READY_JS = "() => document.fonts.ready.then(() => null)"

CJK_FONT_LOADED_JS = """async () => {
    await document.fonts.load('16px "Attn CJK"', '權');
    return Array.from(document.fonts).filter(f => f.family.replace(/"/g, '') === 'Attn CJK').map(f => f.status);
}"""

# Marks (data-cjk-check) every drawn element whose own text (not its children's) holds Chinese, outside
# the labs (their own fonts) and the formulas; returns how many.
MARK_CHINESE_JS = """() => {
    const chinese = /[\\u2e80-\\u9fff\\uf900-\\ufaff\\ufe30-\\uffef]/; let k = 0;
    for (const el of document.body.querySelectorAll('*')) {
        if (el.closest('.attn-lab, mjx-container, script, style')) continue;
        if (el.closest('details:not([open])') && !el.closest('summary')) continue;  // folded: not drawn
        const own = Array.from(el.childNodes).filter(n => n.nodeType === 3).map(n => n.data).join('');
        if (chinese.test(own) && el.getClientRects().length) el.setAttribute('data-cjk-check', String(k++));
    }
    return k;
}"""


def platform_fonts(page, selector: str) -> list[tuple[str, list[dict]]]:
    """(the start of its HTML, the fonts Chromium drew it with) for every element matching ``selector``.

    The site lays out a cell only when the reader comes near it (content-visibility), and text that is not
    laid out has no fonts: every cell is laid out first, as the reader scrolling down would have it.
    """
    page.add_style_tag(content="* { content-visibility: visible !important; }")
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    return [(cdp.send("DOM.getOuterHTML", {"nodeId": node})["outerHTML"][:80],
             cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"])
            for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]]
