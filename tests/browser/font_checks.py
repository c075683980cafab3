"""Which faces draw the Chinese of a page, on a machine with CJK fonts and on one without.

What a reader needs: every Chinese text drawn by a CJK face of its script (Traditional shapes for 繁體
text, Simplified ones for 简体 text and the 简体 tokens of the English pages), bundled or installed, never
boxes, and bold text from a bold face, never a weight the browser fakes. Chromium reports the faces it
drew a node with (``CSS.getPlatformFontsForNode``: family, PostScript name, web font or not), so:

- ``bare_browser``: chromium with the system's fonts hidden (a fontconfig that knows only matplotlib's
  DejaVu faces), as on a machine with no CJK font: the page's bundled face must draw every Chinese
  text, its TC face on a 繁體 page and its SC face otherwise, bold text with the bold subset;
- the ordinary ``page`` fixture: the machine's own fonts (Debian's ``fonts-noto-cjk``, on many a Chinese
  reader's machine, is drawn in place of the bundled face where the page's ``sans-serif`` comes first):
  any CJK face of the right script, at a real bold weight where the text is bold.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import matplotlib as mpl
import pytest

from tools.browser.pages import CHROMIUM_FLAGS, platform_fonts

# Marks (data-cjk-face) every drawn element whose own text holds Chinese, outside the labs and quizzes
# (their own font subsets) and the formulas; returns [the language it is written in, its weight].
MARK_JS = """() => {
    const chinese = /[\\u2e80-\\u9fff\\uf900-\\ufaff\\ufe30-\\uffef]/; const found = [];
    for (const el of document.body.querySelectorAll('*')) {
        if (el.closest('.attn-lab, .attn-quiz, mjx-container, script, style')) continue;
        if (el.closest('details:not([open])') && !el.closest('summary')) continue;  // folded: not drawn
        const own = Array.from(el.childNodes).filter(n => n.nodeType === 3).map(n => n.data).join('');
        if (!chinese.test(own) || !el.getClientRects().length) continue;
        el.setAttribute('data-cjk-face', String(found.length));
        const lang = el.closest('[lang]');
        found.push([lang ? lang.getAttribute('lang') : '', getComputedStyle(el).fontWeight]);
    }
    return found;
}"""

BUNDLED = {"TC": "Noto Sans TC", "SC": "Noto Sans SC"}
# A CJK face of each script as installed faces name themselves (Noto Sans CJK TC, Source Han Sans HK, ...).
SCRIPT = {"TC": re.compile(r"\b(TC|HK|Traditional|TW)\b"), "SC": re.compile(r"\b(SC|CN|Simplified)\b")}
CJK = re.compile(r"CJK|Han Sans|Noto Sans (SC|TC)|Hei|Ming|Song|Kai")


def script_of(language: str) -> str:
    return "TC" if language == "zh-Hant" else "SC"


def bare_fontconfig(folder: Path) -> Path:
    """A fontconfig file that knows only matplotlib's DejaVu faces: a machine with no CJK font."""
    dejavu = Path(mpl.get_data_path()) / "fonts" / "ttf"
    path = folder / "fonts.conf"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        f"<fontconfig><dir>{dejavu}</dir><cachedir>{folder / 'cache'}</cachedir></fontconfig>\n",
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="session")
def bare_browser(browser, tmp_path_factory):
    """A second chromium, from the same Playwright, that sees no font of the machine but DejaVu."""
    from tests.browser.conftest import require_chromium

    env = {**os.environ, "FONTCONFIG_FILE": str(bare_fontconfig(tmp_path_factory.mktemp("fontconfig")))}
    bare = browser.browser_type.launch(executable_path=require_chromium(), args=CHROMIUM_FLAGS, headless=True,
                                       env=env)
    yield bare
    bare.close()


@pytest.fixture
def bare_page(bare_browser):
    context = bare_browser.new_context(viewport={"width": 1400, "height": 1000})
    yield context.new_page()
    context.close()


def face_problems(page, page_language: str, bundled_only: bool) -> tuple[int, list[str]]:
    """(how many Chinese texts, what is wrong with the faces that drew them).

    ``bundled_only``: the page's bundled face of its script must draw them (no system CJK font);
    otherwise a CJK face of the text's own script (its ``lang``), bundled or installed. Bold text
    (weight 600 or more) must come from a bold face in both cases.
    """
    marked = page.evaluate(MARK_JS)
    problems = []
    for (html, fonts), (lang, weight) in zip(platform_fonts(page, "[data-cjk-face]"), marked, strict=True):
        faces = [f for f in fonts if CJK.search(f["familyName"])]
        names = [f"{f['familyName']} ({f.get('postScriptName', '?')})" for f in fonts]
        if not faces:
            problems.append(f"{html}: no CJK face, drawn with {names}")
            continue
        if bundled_only:
            wanted = BUNDLED[script_of(page_language)]
            wrong = [f for f in faces if not (f["isCustomFont"] and f["familyName"] == wanted)]
        else:
            script = script_of(lang or page_language)
            wrong = [f for f in faces if not (f["isCustomFont"] and f["familyName"] == BUNDLED[script_of(page_language)])
                     and not SCRIPT[script].search(f["familyName"])]
        if wrong:
            problems.append(f"{html} ({lang}): a face of the wrong script: {names}")
        if int(weight) >= 600 and not all("Bold" in f.get("postScriptName", "") for f in faces):
            problems.append(f"{html}: bold at weight {weight}, but drawn with {names} (a faked bold)")
    return len(marked), problems
