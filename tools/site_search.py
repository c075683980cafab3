"""What the website's navigation knows about its pages: the sections of a page and its labs, read from the
page nbconvert wrote, for the outline beside the page and for the search index of the series.

- `read_page(html)` walks a written page once: every heading h1–h3 of the prose (with the id nbconvert gave
  it), the text of its section (the prose and the quiz texts, no code, no outputs of code, formulas as plain
  text), and every lab's mount point (`lab-N`) with the labels of its controls.
- Each heading and lab knows whether it lies in a part off the main line (a
  ``<section class="going-further">`` of the site's page template), which the outline marks.
- `fold` and `terms` are how the search reads text, the twins of ``fold`` and ``terms`` in tools/site_nav.js
  (tests/test_site_search.py runs both on the same texts): notation written any way a reader types it is one
  term (``dk``, ``d k``, ``dₖ``, ``d_{k}`` → ``d_k``; ``QK^T`` → ``qkᵀ``; ``sqrt`` → ``√``), Latin text is cut
  into words and Chinese into characters and pairs of neighbours.
- `index_script` is `search-index.js` of a language: a classic script that sets `window.attnSiteIndex`
  (pages and sections), so the search works from file:// where a browser refuses to `fetch` a file.
  tools/site_nav.js builds the MiniSearch index from it in the reader's browser.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
BLOCK = {"p", "li", "div", "h1", "h2", "h3", "h4", "h5", "h6", "br", "td", "th", "tr", "blockquote", "ul",
         "ol",
         "table", "details", "summary", "hr"}
HEADINGS = {"h1": 1, "h2": 2, "h3": 3}
PROSE_CLASSES = {"jp-MarkdownCell", "jp-RenderedMarkdown"}
# TeX that reads well as plain text in an outline or a search result
TEX_SYMBOLS = {
    r"\top": "ᵀ", r"\cdot": "·", r"\times": "×", r"\in": "∈", r"\infty": "∞", r"\to": "→",
    r"\rightarrow": "→",
    r"\approx": "≈", r"\le": "≤", r"\leq": "≤", r"\ge": "≥", r"\geq": "≥", r"\neq": "≠", r"\sum": "Σ",
    r"\ldots": "…", r"\dots": "…", r"\cdots": "…", r"\sigma": "σ", r"\mathbb{R}": "ℝ", r"\,": " ", r"\;": " ",
    r"\quad": " ", r"\qquad": " ", r"\left": "", r"\right": "", r"\!": "",
    r"\leftarrow": "←", r"\mid": "|", r"\lvert": "|", r"\rvert": "|", r"\sim": "~",
    r"\ne": "≠", r"\beta": "β", r"\theta": "θ", r"\tau": "τ", r"\rho": "ρ", r"\delta": "δ", r"\ell": "ℓ",
    r"\varepsilon": "ε", r"\partial": "∂", r"\odot": "⊙", r"\ast": "∗", r"\vdots": "⋮", r"\mapsto": "↦",
    r"\Rightarrow": "⇒", r"\Longrightarrow": "⟹", r"\iff": "⇔", r"\big": "", r"\Big": "", r"\textstyle": "",
    r"\alpha": "α", r"\gamma": "γ", r"\lambda": "λ", r"\mu": "μ", r"\phi": "φ", r"\pi": "π", r"\omega": "ω",
    r"\Delta": "Δ", r"\Theta": "Θ", r"\bmod": " mod ",
    r"\lceil": "⌈", r"\rceil": "⌉", r"\lfloor": "⌊", r"\rfloor": "⌋",
}
# Commands a reader sees as their own name (an operator such as max), and those that only shape their
# argument; any other command in a formula is a symbol TEX_SYMBOLS must know (a test holds this).
TEX_NAMES = {"arg", "cos", "sin", "exp", "ln", "log", "max", "min", "softmax"}
TEX_SHAPES = {"sqrt", "frac", "tfrac", "text", "texttt", "mathrm", "mathbf", "mathit", "mathcal",
              "operatorname", "boldsymbol", "hat", "tilde", "overline", "xrightarrow", "begin", "end",
              "mathbb"}
TEX_SYMBOL = re.compile("|".join(re.escape(k) + (r"(?![A-Za-z])" if k[-1].isalpha() else "")
                                 for k in sorted(TEX_SYMBOLS, key=len, reverse=True)))
DATA_URI = re.compile(r"""\b(src|href)=["']data:[^"']*["']""")
PRE = re.compile(r"<pre\b[^>]*>.*?</pre>", re.S)
LAB_MODULE = re.compile(r'<script type="module"[^>]*>.*?</script>', re.S)
MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)


def plain_tex(tex: str) -> str:
    """A formula as plain text: ``\\sqrt{d_k}`` → ``√d_k``, ``QK^\\top`` → ``QK^ᵀ``... good enough to find
    and to show in a result, not to typeset."""
    text = TEX_SYMBOL.sub(lambda m: TEX_SYMBOLS[m.group(0)], tex)
    text = re.sub(r"\\sqrt\s*\{([^{}]*)\}", r"√\1", text)
    text = re.sub(r"\\t?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"(\1)/(\2)", text)
    text = re.sub(r"\\hat\s*\{([^{}]*)\}", "\\1\u0302", text)
    text = re.sub(r"\\overline\s*\{([^{}]*)\}", "\\1\u0304", text)
    text = re.sub(r"\\tilde\s*(?:\{([^{}]*)\}|(\w))", lambda m: (m[1] or m[2]) + "\u0303", text)
    text = re.sub(r"\\xrightarrow\s*\{([^{}]*)\}", r"→(\1)", text)
    shape = r"\\(?:text|texttt|mathrm|mathbf|mathit|mathcal|operatorname|boldsymbol)\s*\{([^{}]*)\}"
    text = re.sub(shape, r"\1", text)
    text = re.sub(r"\\(?:begin|end)\s*\{[^{}]*\}|&|\\\\", " ", text)  # the layout of cases and matrices
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)  # any other command: its name (softmax, max, exp...)
    text = text.replace("^ᵀ", "ᵀ").replace("{", "").replace("}", "").replace("\\", "")
    return unicodedata.normalize("NFC", re.sub(r"\s+", " ", text).strip())  # y + ◌̂ is ŷ


def plain_text(text: str) -> str:
    """Prose as the reader sees it once the formulas are set: TeX in ``$...$`` made plain, spaces folded."""
    text = MATH.sub(lambda m: " " + plain_tex(next(g for g in m.groups() if g is not None)) + " ", text)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r" (?=[,.;:!?，。；：、）)」])|(?<=[（(「，。；：、]) ", "", text).strip()


# ---- how the search reads text: the twins of fold() and terms() in tools/site_nav.js ----------------------
# Subscripts and the transpose as a reader may type them; the symbols of the series' notation that may be
# written without their underscore (d_k as dk or "d k"), each letter with the subscripts it takes.
SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ", "0123456789aeoxhklmnpstirvuj", strict=True))
TRANSPOSE = re.compile(r"\^\s*(?:\\top|t|⊤)(?![a-z0-9_])|⊤")
NOTATION = re.compile(r"(?<![a-z0-9_])(?:(d)[ _]?(model|ff|k|q|v)|(w)[ _]?(q|k|v|o)|(t)[ _]?(q|k))"
                      r"(?![a-z0-9_])")
# Chinese is written without spaces: a run of Han characters is one run, cut into characters and pairs.
HAN_RANGES = ((0x2E80, 0x2FDF), (0x3005, 0x3005), (0x3007, 0x3007), (0x3021, 0x3029), (0x3400, 0x4DBF),
              (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3134F))


def fold(text: str) -> str:
    """Text as the search reads it, for the index and the query alike: lower case, subscripts and
    transposes in one spelling, braces dropped, ``sqrt`` as ``√`` and the notation joined
    (``d k``, ``dk``, ``dₖ``, ``d_{k}`` → ``d_k``; ``QK^T``, ``QK^\\top`` → ``qkᵀ``)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    text = "".join("_" + SUBSCRIPTS[c] if c in SUBSCRIPTS else c for c in text.lower())
    text = re.sub(r"[{}]", "", text)
    text = re.sub(r"(?<![a-z0-9_])sqrt(?![a-z0-9_])", "√", text)
    text = TRANSPOSE.sub("ᵀ", text)
    return NOTATION.sub(lambda m: "_".join(g for g in m.groups() if g), text)


def _kind(char: str) -> str:
    """"h" for a Han character, "w" for a letter, digit or underscore of any other script, "√", or ""."""
    code = ord(char)
    if any(low <= code <= high for low, high in HAN_RANGES):
        return "h"
    if char == "_" or unicodedata.category(char)[0] in "LN":
        return "w"
    return "√" if char == "√" else ""


def terms(text: str, for_query: bool = False) -> list[str]:
    """The terms of ``fold(text)``: each Latin word (letters, digits and underscores, so d_k stays whole),
    each √, and of a run of Chinese characters each character and each pair of neighbours; a query of two
    or more characters is looked up by its pairs only (注意力 → 注意, 意力)."""
    text = fold(text)
    kinds = "".join(_kind(c) or " " for c in text)  # one letter per character: h, w, √ or a space
    found: list[str] = []
    for match in re.finditer(r"h+|w+|√", kinds):
        run = text[match.start():match.end()]
        if match.group(0)[0] != "h":
            found.append(run)
            continue
        if not for_query or len(run) == 1:
            found.extend(run)
        found.extend(run[i:i + 2] for i in range(len(run) - 1))
    return found


@dataclass
class Section:
    """A heading of a page (level 1–3, its id) and the text up to the next one."""

    level: int
    anchor: str
    heading: str = ""
    parts: list[str] = field(default_factory=list)
    further: bool = False  # in a going-further part

    @property
    def text(self) -> str:
        return plain_text("".join(self.parts))


@dataclass
class Lab:
    """A lab's mount point on a page and the labels of its controls."""

    anchor: str
    controls: list[str] = field(default_factory=list)
    further: bool = False  # in a going-further part


@dataclass
class PageOutline:
    sections: list[Section]
    # the page in order: ("heading", Section) or ("lab", Lab)
    items: list[tuple[str, Section | Lab]]

    @property
    def labs(self) -> list[Lab]:
        return [item for kind, item in self.items if kind == "lab"]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        # per open element: (tag, prose, skip, heading, in a going-further part)
        self.stack: list[tuple[str, bool, bool, bool, bool]] = []
        self.sections: list[Section] = [Section(0, "")]  # text before the first heading belongs to the top
        self.items: list[tuple[str, Section | Lab]] = []
        self.json_for: Lab | None = None
        self.json: list[str] = []
        self.labs: dict[str, Lab] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        prose, skip, heading, further = self.stack[-1][1:] if self.stack else (False, False, False, False)
        further = further or (tag == "section" and "going-further" in classes)
        prose = prose or bool(classes & PROSE_CLASSES)
        skip = skip or tag in ("script", "style", "pre", "svg", "button") or "anchor-link" in classes
        if tag in BLOCK and not heading:
            self._text(" ")
        if tag in HEADINGS and prose and not skip and attrs.get("id"):
            section = Section(HEADINGS[tag], attrs["id"], further=further)
            self.sections.append(section)
            self.items.append(("heading", section))
            heading = True
        if tag == "div" and "attn-lab-mount" in classes and attrs.get("id"):
            lab = self.labs[attrs["id"]] = Lab(attrs["id"], further=further)
            self.items.append(("lab", lab))
        if tag == "script" and (attrs.get("id") or "").endswith("-state"):
            self.json_for = self.labs.get(attrs["id"][: -len("-state")])
            self.json = []
        if tag not in VOID:
            self.stack.append((tag, prose, skip, heading, further))

    def handle_endtag(self, tag):
        # close up to the matching element (HTML lets some end tags be left out)
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break
        if tag == "script" and self.json_for is not None:
            try:
                spec = json.loads("".join(self.json)).get("spec", {})
            except ValueError:
                spec = {}
            self.json_for.controls = [str(c.get("description", "")) for c in spec.get("controls", [])
                                      if isinstance(c, dict) and c.get("description")]
            self.json_for = None
        if tag in BLOCK:
            self._text(" ")

    def handle_data(self, data):
        if self.json_for is not None:
            self.json.append(data)
            return
        if not self.stack:
            return
        _, prose, skip, heading, _ = self.stack[-1]
        if skip or not prose:
            return
        if heading:  # a heading is a field of its own in the index, not part of the text
            self.sections[-1].heading += data
        else:
            self._text(data)

    def _text(self, data: str) -> None:
        self.sections[-1].parts.append(data)


def read_page(page_html: str) -> PageOutline:
    """The headings (h1–h3 of the prose, with their ids), sections and labs of a page nbconvert wrote."""
    reader = _Reader()
    # Embedded figures (data: URIs) and the labs' inlined modules are most of a page and say nothing here.
    page_html = DATA_URI.sub(r'\1=""', page_html)
    page_html = LAB_MODULE.sub("", page_html)
    page_html = PRE.sub("<pre></pre>", page_html)  # code and printed outputs are not indexed
    reader.feed(page_html)
    reader.close()
    sections = [s for s in reader.sections if s.level or s.text]
    for section in sections:
        section.heading = plain_text(section.heading)
    return PageOutline(sections, reader.items)


def lab_label(lab: Lab, template: str, join: str = ", ") -> str:
    """``Lab: d_k (width of q and k), scores``: `template` ("Lab: {what}") filled with what the lab's first
    two controls set."""
    what = join.join(dict.fromkeys(lab.controls[:2]))
    return template.format(what=what) if what else re.sub(r"\W*\{what\}", "", template)


def index_documents(pages: list[tuple[str, str, PageOutline]]) -> dict:
    """The search index of one language: ``pages`` [[file, title], ...] and ``sections``
    [[page number, anchor, heading, text, level], ...], one per heading h1–h3 (level 1–3; text before any
    heading: anchor "", level 0)."""
    sections = []
    for number, (_, title, outline) in enumerate(pages):
        for section in outline.sections:
            sections.append([number, section.anchor, section.heading or plain_text(title), section.text,
                             section.level])
    return {"pages": [[name, plain_text(title)] for name, title, _ in pages], "sections": sections}


def index_script(language: str, documents: dict) -> str:
    """``search-index.js``: a classic script that sets ``window.attnSiteIndex`` (a page opened from disk
    may load a script beside it, but may not fetch a data file)."""
    payload = json.dumps({"language": language, **documents}, ensure_ascii=False, separators=(",", ":"))
    payload = payload.replace("</", "<\\/")
    return f"/* The search index of the site ({language}), written by tools/build_site.py. */\n" \
           f"window.attnSiteIndex = {payload};\n"
