"""Write reveal.js slides of every notebook that work with no network at all.

    python tools/build_slides.py [--out build/slides] [NOTEBOOK ...]     (or: make slides)

nbconvert's slides load reveal.js, require.js, jQuery and MathJax from CDNs, so in a lecture hall
without internet they fall back to a flat page with raw LaTeX. Here the template is changed to load
only two libraries, both from files next to the HTML:

- reveal.js 4.0.2 (MIT; the version nbconvert's template is written for), with its white theme,
  its Source Sans Pro web font (SIL OFL 1.1) and the speaker-notes plugin (press S);
- MathJax 3.2.2 (Apache-2.0), the single-file TeX → CommonHTML build and its fonts;
- and, from attnlib itself, the Noto Sans SC subset (SIL OFL 1.1) for tokens such as 早 上 好.

require.js and jQuery are not needed: the template loads reveal.js with a plain script tag, and the
widget manager that would need them is replaced by a note (widgets run live in JupyterLab with RISE;
each notebook shows the static figure of a lab just before the lab itself).
No PyPI package ships either library in a usable form (jupyter-server-mathjax has MathJax 2 only,
jupyterlab-rise a webpack bundle), so the npm packages are fetched once, at build time, with
`npm pack` into `.cache/slides/`, checked against the pinned sha512, and only the files the slides use
are copied to `<out>/vendor/` with their licences (about 2.4 MB, plus the 2.3 MB font).
Presenting needs no network; only the first build needs npm (later builds reuse the cache).
Figures are embedded in the HTML as data: URIs (plots and Markdown images alike).
"""

from __future__ import annotations

import argparse
import base64
import copy
import hashlib
import html
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "slides"
CJK_FONT = ROOT / "attnlib" / "fonts" / "NotoSansSC-Subset.ttf"  # SIL OFL 1.1, OFL.txt beside it
NOTEBOOK_LINK = re.compile(r"\]\((\d\d_\w+)\.ipynb(#[^)]*)?\)")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@dataclass(frozen=True)
class Package:
    """An npm package pinned by version and by the sha512 of its tarball, and the files we use from it."""

    name: str
    version: str
    integrity: str  # dist.integrity as published in the npm registry
    files: tuple[str, ...]  # paths (globs) inside the tarball's package/ folder

    @property
    def folder(self) -> str:
        return f"{self.name}-{self.version}"

    @property
    def tarball(self) -> Path:
        return CACHE / f"{self.folder}.tgz"


REVEAL = Package(
    "reveal.js",
    "4.0.2",
    "sha512-LWZSUenufF1gpD7npxJ7KfoQQFKgc1D6XrLTFgKlwWNP1BQ74hT48KONFWMAw+8R/QUeaScCLCLrBVHDfFIEiw==",
    (
        "LICENSE",
        "dist/reveal.js",
        "dist/reveal.css",
        "dist/theme/white.css",
        "dist/theme/fonts/source-sans-pro/LICENSE",
        "dist/theme/fonts/source-sans-pro/source-sans-pro.css",
        "dist/theme/fonts/source-sans-pro/*.woff",  # the css lists eot, woff, ttf; browsers take woff
        "plugin/notes/notes.js",
    ),
)
MATHJAX = Package(
    "mathjax",
    "3.2.2",
    "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
    (
        "LICENSE",
        "es5/tex-chtml-full.js",  # every TeX extension built in: nothing is loaded on demand
        "es5/output/chtml/fonts/woff-v2/*.woff",
    ),
)
PACKAGES = (REVEAL, MATHJAX)

# The reveal template of nbconvert with every remote <script> replaced by a local one.
TEMPLATE = r"""
{%- extends 'index.html.j2' -%}

{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}

{%- block html_head_js_mathjax -%}
<script>
window.MathJax = {
  tex: {
    inlineMath: [['$', '$'], ['\\(', '\\)']],
    displayMath: [['$$', '$$'], ['\\[', '\\]']],
    processEscapes: true,
    processEnvironments: true
  },
  options: { enableMenu: false }
};
</script>
<script src="{{ resources.offline.mathjax }}"></script>
<style>
@font-face {
  /* the CJK subset that attnlib bundles for matplotlib; used only for glyphs the others lack */
  font-family: "Attn CJK";
  src: url("{{ resources.offline.cjk_font }}") format("truetype");
}
:root {
  --jp-content-font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif, "Attn CJK";
  --jp-ui-font-family: var(--jp-content-font-family);
}
/* (the reveal theme is loaded after this block, hence the longer selectors) */
.reveal, .reveal .slides h1, .reveal .slides h2, .reveal .slides h3, .reveal .slides h4 {
  font-family: "Source Sans Pro", Helvetica, sans-serif, "Attn CJK";
  text-transform: none;
}
.reveal .slides pre, .reveal .slides code, .reveal .slides pre span {
  font-family: Menlo, Consolas, "DejaVu Sans Mono", monospace, "Attn CJK";
}
.reveal .slides { text-align: left; }
/* a slide taller than the screen scrolls (mouse wheel) instead of being cut off */
.reveal .slides > section:not(.stack), .reveal .slides > section.stack > section {
  height: 100%; overflow-y: auto;
}
.reveal mjx-container[display="true"] { margin: 0.4em 0; }
.jp-OutputArea-output img { max-height: 480px; width: auto; }
.offline-lab {
  border-left: 4px solid #2a76dd; background: #eef4fd; padding: 0.3em 0.8em;
  font-size: 0.8em; margin: 0.3em 0;
}
</style>
{%- endblock html_head_js_mathjax -%}

{% block footer_js %}
<script src="{{ resources.offline.reveal }}/dist/reveal.js"></script>
<script src="{{ resources.offline.reveal }}/plugin/notes/notes.js"></script>
<script>
Reveal.initialize({
  controls: true,
  progress: true,
  history: true,
  center: false,
  transition: "{{ reveal_transition }}",
  slideNumber: "c/t",
  width: {{ reveal_width }},
  height: {{ reveal_height }},
  plugins: [RevealNotes]
});
</script>
{% endblock footer_js %}
"""

LAB_NOTE = (
    '<div class="offline-lab">Live lab: open this notebook in JupyterLab (<code>make lab</code>) '
    "to move its controls. The figure above shows it at its default values.</div>"
)


class AssetError(RuntimeError):
    """The JavaScript libraries are neither in the cache nor obtainable with npm."""


def _sha512(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def assets_cached() -> bool:
    return all(p.tarball.exists() and _sha512(p.tarball) == p.integrity for p in PACKAGES)


def fetch_assets(log=print) -> None:
    """Put the pinned npm tarballs into .cache/slides/ (a no-op once they are there and intact)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    for package in PACKAGES:
        if package.tarball.exists() and _sha512(package.tarball) == package.integrity:
            continue
        npm = shutil.which("npm")
        if npm is None:
            raise AssetError(
                f"`make slides` needs npm once, to fetch {package.name}@{package.version} into "
                f"{CACHE.relative_to(ROOT) if CACHE.is_relative_to(ROOT) else CACHE}/ "
                "(presenting the slides needs no network). "
                "Install Node.js and npm (Debian/Ubuntu: apt-get install npm) and run it again."
            )
        spec = f"{package.name}@{package.version}"
        log(f"fetching {spec} with npm pack")
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run(
                [npm, "pack", "--silent", spec], cwd=tmp, capture_output=True, text=True, check=False
            )
            packed = list(Path(tmp).glob("*.tgz"))
            if done.returncode != 0 or len(packed) != 1:
                raise AssetError(f"npm pack {spec} failed:\n{done.stderr.strip()}")
            got = _sha512(packed[0])
            if got != package.integrity:
                raise AssetError(f"{spec}: tarball hash {got} differs from the pinned {package.integrity}")
            shutil.move(str(packed[0]), package.tarball)


def copy_assets(out: Path) -> dict[str, str]:
    """Extract only the files the slides use into out/vendor/; return their URLs relative to out."""
    vendor = out / "vendor"
    for package in PACKAGES:
        target = vendor / package.folder
        shutil.rmtree(target, ignore_errors=True)
        with tarfile.open(package.tarball) as tar:
            members = [m for m in tar.getmembers() if m.isfile()]
            for pattern in package.files:
                chosen = [m for m in members if Path(m.name).match(f"package/{pattern}")]
                if not chosen:
                    raise AssetError(f"{package.folder}: no file matches {pattern}")
                for member in chosen:
                    dest = target / Path(member.name).relative_to("package")
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.write_bytes(tar.extractfile(member).read())
    fonts = vendor / "noto-sans-sc"
    fonts.mkdir(exist_ok=True)
    for name in (CJK_FONT.name, "OFL.txt"):
        shutil.copyfile(CJK_FONT.parent / name, fonts / name)
    return {
        "cjk_font": f"vendor/noto-sans-sc/{CJK_FONT.name}",
        "reveal": f"vendor/{REVEAL.folder}",
        "mathjax": f"vendor/{MATHJAX.folder}/es5/tex-chtml-full.js",
    }


def notebook_title(nb) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return ""


def for_slides(nb):
    """A copy of the notebook as it should look on a slide: no harness comments, no live widgets."""
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)  # the saved widget state needs a widget manager from a CDN
    nb.metadata["title"] = notebook_title(nb) or nb.metadata.get("title", "")
    for cell in nb.cells:
        if cell.cell_type == "markdown":  # links between notebooks become links between decks
            cell.source = NOTEBOOK_LINK.sub(r"](\1.slides.html\2)", cell.source)
            continue
        if cell.cell_type != "code":
            continue
        lines = cell.source.splitlines()
        cell.source = "\n".join(line for line in lines if not line.startswith("# NBVAL_"))
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data:  # keep a static version if the widget offers one (quizzes do)
                static = {k: v for k, v in data.items() if k in ("text/html", "text/markdown")}
                output["data"] = static or {"text/html": LAB_NOTE}
    return nb


def make_exporter(urls: dict[str, str]):
    from jinja2 import DictLoader
    from nbconvert import SlidesExporter

    exporter = SlidesExporter(
        extra_loaders=[DictLoader({"offline_slides.html.j2": TEMPLATE})],
        template_file="offline_slides.html.j2",
        reveal_theme="white",
        reveal_url_prefix=urls["reveal"],
        reveal_width="1280",
        reveal_height="800",
        embed_images=True,  # Markdown images (notebooks/figures/*.svg) become data: URIs
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )
    return exporter


def build(notebooks: list[Path], out: Path, log=print, prune: bool = False) -> list[Path]:
    """Write one `<name>.slides.html` per notebook and `index.html` into out; return the decks.

    With prune, decks in out whose notebook is not in the list are deleted (a renamed notebook).
    """
    import nbformat

    fetch_assets(log)
    out.mkdir(parents=True, exist_ok=True)
    urls = copy_assets(out)
    exporter = make_exporter(urls)
    decks = []
    for path in notebooks:
        nb = for_slides(nbformat.read(path, as_version=4))
        resources = {
            "metadata": {"name": path.stem, "path": str(path.parent)},
            "offline": urls,
        }
        body, _ = exporter.from_notebook_node(nb, resources=resources)
        deck = out / f"{path.stem}.slides.html"
        deck.write_text(body, encoding="utf-8")
        decks.append(deck)
        log(f"wrote {deck}")
    if prune:
        for stale in set(out.glob("*.slides.html")) - set(decks):
            stale.unlink()
            log(f"removed {stale}")
    write_index(out)
    return decks


def write_index(out: Path) -> None:
    """An index of every deck in out, titled as in each deck's <title>."""
    items = []
    for deck in sorted(out.glob("*.slides.html")):
        found = re.search(r"<title>(.*?) slides</title>", deck.read_text(encoding="utf-8"))
        title = found.group(1) if found else deck.name
        items.append(f'<li><a href="{html.escape(deck.name)}">{title}</a></li>')  # already escaped
    (out / "index.html").write_text(
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>Slides</title>"
        "<style>body{font-family:sans-serif;max-width:40em;margin:3em auto;line-height:1.6}"
        "ul{list-style:none;padding:0}</style>"
        "</head><body><h1>Slides</h1>\n<ul>\n" + "\n".join(items) + "\n</ul>\n"
        "<p>Arrow keys move, S opens the speaker notes, F is full screen, Esc shows an overview.</p>"
        "</body></html>\n",
        encoding="utf-8",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every notebook in notebooks/")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "slides")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not notebooks:
        print("no notebooks found", file=sys.stderr)
        return 1
    start = time.perf_counter()
    try:
        decks = build(notebooks, args.out.resolve(), prune=not args.notebooks)
    except AssetError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    size = sum(f.stat().st_size for f in (args.out / "vendor").rglob("*") if f.is_file())
    print(
        f"{len(decks)} slide decks in {time.perf_counter() - start:.1f} s; "
        f"vendored libraries {size / 1e6:.1f} MB. Open {args.out / 'index.html'} in a browser."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
