"""The site served from loopback (`make serve`, tools/serve.py) and offline after one visit (its service worker:
tools/service_worker.js, written into the site by tools/offline_site.py, registered by tools/site_view.js).

- the server: loopback only, the MIME types the page's Python needs, nothing built;
- the service worker's file: the runtime's version and every file of the runtime to keep;
- in Chromium, on the session's site: a page visited once, its Python ready, then the server stopped and the
  browser offline: the page reloads, Python loads again from the cache and a check gives a verdict, and the
  contents (index.html) open;
- a whole visit with Python ready and a check, then a reload through the service worker: every request goes
  to the served site on 127.0.0.1, and every cached address is of that origin;
- on a small site of its own (no Python): a rebuilt runtime (another version) replaces the old cache.
"""

from __future__ import annotations

import json
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tools import offline_site
from tools.serve import HOST, Server

ROOT = Path(__file__).resolve().parents[2]
PAGE = "02_softmax.html"  # exercises, a lab and a quiz
PYTHON_S = 240  # Python's first start on a busy 2-core machine takes tens of seconds

# The page is controlled by the service worker, which has kept the runtime and the page's own files.
KEPT_JS = ("() => navigator.serviceWorker.controller !== null"
           " && document.documentElement.dataset.offline === 'ready'")
# Every cache of the origin: {name: [url, ...]}.
CACHES_JS = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    found[name] = (await (await caches.open(name)).keys()).map((request) => request.url);
  }
  return found;
}"""
# The site's service worker is active, and no newer one is on its way.
ACTIVATED_JS = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  return !registration.installing && !registration.waiting && registration.active.state === 'activated';
}"""
# The first exercise card's id (one with a Check button, not the scratch cell).
EXERCISE_JS = """() => document.querySelector('.attn-practice[data-exercise]:has(.attn-practice-check)')
  .dataset.exercise"""


# True once window.attnPractice.ready has resolved, a message once it has failed (an evaluate would wait forever).
READY_JS = """() => {
  if (!window.attnPractice) return false;
  if (!window.__pythonReady) {
    window.__pythonReady = 'waiting';
    window.attnPractice.ready.then(() => { window.__pythonReady = true; },
                                   (e) => { window.__pythonReady = 'failed: ' + e; });
  }
  return window.__pythonReady !== 'waiting' && window.__pythonReady;
}"""


def python_ready(page) -> None:
    assert page.wait_for_function(READY_JS).json_value() is True, page.evaluate("() => window.__pythonReady")


def check_first_exercise(page) -> dict:
    exercise = page.evaluate(EXERCISE_JS)
    result = page.evaluate("(id) => window.attnPractice.check(id)", exercise)
    card = page.locator(f'.attn-practice[data-exercise="{exercise}"]')
    return result, card


# ---- the server and the service worker's file -------------------------------------------------------------
def tiny_site(folder: Path, version: str = "0123456789abcdef") -> dict:
    """A site with a page that registers the service worker and a runtime of three small files."""
    (folder / "assets").mkdir(parents=True, exist_ok=True)
    (folder / "py").mkdir(exist_ok=True)
    shutil.copy(ROOT / "tools" / "site_view.js", folder / "assets" / "site-view.js")
    (folder / "assets" / "editor.js").write_text("window.AttnEditor = {};\n", encoding="utf-8")
    (folder / "py" / "pyodide.asm.wasm").write_bytes(b"\0asm\1\0\0\0")
    (folder / "py" / "worker.js").write_text(f"// runtime {version}\n", encoding="utf-8")
    manifest = {"version": version, "bytes": 8 + 20,
                "files": [{"name": "pyodide.asm.wasm", "bytes": 8, "sha256": ""},
                          {"name": "worker.js", "bytes": 20, "sha256": ""}]}
    (folder / "py" / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "index.html").write_text(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A page</title>"
        "<script src='assets/site-view.js'></script></head><body><p>The lesson.</p></body></html>",
        encoding="utf-8")
    offline_site.write_service_worker(folder, manifest)
    return manifest


def test_the_server_answers_on_loopback_with_the_runtimes_types(tmp_path):
    tiny_site(tmp_path)
    with Server(tmp_path, quiet=True) as server:
        assert server.url.startswith(f"http://{HOST}:") and HOST == "127.0.0.1"
        assert server.httpd.server_address[0] == "127.0.0.1"
        for name, kind in (("py/pyodide.asm.wasm", "application/wasm"), ("py/worker.js", "text/javascript"),
                           ("py/manifest.json", "application/json"), ("index.html", "text/html")):
            with urllib.request.urlopen(server.url + name) as answer:
                assert answer.headers["Content-Type"].split(";")[0] == kind, name
                assert answer.headers["Cache-Control"] == "no-cache"
        # a file rewritten within the same second, of the same size (a rebuilt sw.js): never "not modified"
        with urllib.request.urlopen(server.url + "sw.js") as answer:
            etag = answer.headers["ETag"]
        again = urllib.request.Request(server.url + "sw.js", headers={"If-None-Match": etag})
        with pytest.raises(urllib.error.HTTPError, match="304"):
            urllib.request.urlopen(again)
        tiny_site(tmp_path, "fedcba9876543210")
        with urllib.request.urlopen(again) as answer:
            assert answer.status == 200 and "fedcba9876543210" in answer.read().decode()
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(server.url + "py/none.whl")
        assert [(path, status) for path, status, _ in server.sent][-1] == ("/py/none.whl", 404)
    with pytest.raises(ValueError, match="folder: expected a built site"):
        Server(tmp_path / "absent")


def test_the_service_worker_keeps_every_file_of_the_runtime(tmp_path):
    manifest = tiny_site(tmp_path)
    text = (tmp_path / "sw.js").read_text(encoding="utf-8")
    site = json.loads(next(line for line in text.splitlines() if line.startswith("const SITE = "))
                      .removeprefix("const SITE = ").removesuffix(";"))
    assert site == {"version": manifest["version"], "keep": [
        "assets/editor.js", "py/manifest.json", "py/pyodide.asm.wasm", "py/worker.js"]}
    with pytest.raises(ValueError, match="manifest: names files the site at .* lacks: \\['py/gone.zip'\\]"):
        offline_site.write_service_worker(tmp_path, {**manifest, "files": [{"name": "gone.zip"}]})
    with pytest.raises(ValueError, match="expected a 'version' of 8 to 64 hex digits, got None"):
        offline_site.write_service_worker(tmp_path, {"files": []})


def test_the_built_site_has_its_service_worker(site):
    manifest = json.loads((site / "py" / "manifest.json").read_text(encoding="utf-8"))
    text = (site / "sw.js").read_text(encoding="utf-8")
    assert f'"version": "{manifest["version"]}"' in text
    for entry in manifest["files"]:
        assert f'"py/{entry["name"]}"' in text


# ---- in the browser ----------------------------------------------------------------------------------------
def test_a_new_runtime_replaces_the_old_cache(page, tmp_path):
    tiny_site(tmp_path, "aaaaaaaaaaaaaaaa")
    with Server(tmp_path, quiet=True) as server:
        page.goto(server.url)
        assert page.evaluate("() => window.isSecureContext"), "127.0.0.1 is a secure context"
        page.wait_for_function(KEPT_JS)
        first = page.evaluate(CACHES_JS)
        assert sorted(first) == ["attn-pages-aaaaaaaaaaaaaaaa", "attn-runtime-aaaaaaaaaaaaaaaa"]
        assert sorted(first["attn-runtime-aaaaaaaaaaaaaaaa"]) == [
            server.url + name for name in ("assets/editor.js", "py/manifest.json", "py/pyodide.asm.wasm",
                                           "py/worker.js")]
        assert sorted(first["attn-pages-aaaaaaaaaaaaaaaa"]) == [
            server.url, server.url + "assets/site-view.js", server.url + "index.html"]
        page.evaluate("() => caches.open('other-app').then((cache) => cache.put('x', new Response('y')))")

        tiny_site(tmp_path, "bbbbbbbbbbbbbbbb")  # the site rebuilt with another runtime
        page.reload()  # the browser looks for a new sw.js after a navigation; update() asks at once
        page.evaluate("async () => { await (await navigator.serviceWorker.getRegistration()).update(); }")
        expected = ["attn-pages-bbbbbbbbbbbbbbbb", "attn-runtime-bbbbbbbbbbbbbbbb", "other-app"]
        for _ in range(200):  # the new worker installs, then activates; the next page keeps the new runtime
            if page.evaluate(ACTIVATED_JS):
                page.reload()
                page.wait_for_function(KEPT_JS)
                if sorted(page.evaluate(CACHES_JS)) == expected:
                    break
            time.sleep(0.1)
        assert sorted(page.evaluate(CACHES_JS)) == expected
        assert page.evaluate("async () => (await fetch('py/worker.js')).text()") == "// runtime bbbbbbbbbbbbbbbb\n"


def test_after_one_visit_the_page_and_its_python_work_offline(page, site):
    page.context.set_default_timeout(PYTHON_S * 1000)
    with Server(site, quiet=True) as server:  # a server of its own: stopping it takes the network away
        page.goto(server.url + PAGE)
        page.wait_for_function(KEPT_JS)
        python_ready(page)
        kept = page.evaluate(CACHES_JS)
        manifest = json.loads((site / "py" / "manifest.json").read_text(encoding="utf-8"))
        runtime = next(urls for name, urls in kept.items() if name.startswith("attn-runtime-"))
        for entry in manifest["files"]:
            assert f"{server.url}py/{entry['name']}" in runtime
        assert any(url.startswith(server.url + PAGE) for urls in kept.values() for url in urls)
    page.context.set_offline(True)  # and the server is gone: nothing can come from the network

    page.reload()
    assert page.evaluate("async () => (await fetch('py/manifest.json')).json()") == manifest
    python_ready(page)
    result, card = check_first_exercise(page)
    assert result["verdict"] and result["verdict"]["text"], result
    assert card.locator(".attn-practice-verdict").text_content() == result["verdict"]["text"]
    page.goto(server.url + "index.html")  # the edition's contents are kept too
    assert page.locator(f'a[href="{PAGE}"]').count() >= 1


def test_no_request_leaves_the_served_site(page, served_site):
    page.context.set_default_timeout(PYTHON_S * 1000)
    asked: list[str] = []

    def only_the_site(route):
        asked.append(route.request.url)
        if route.request.url.startswith(served_site):
            route.continue_()
        else:
            route.abort()

    page.context.route("**/*", only_the_site)
    page.context.on("request", lambda r: asked.append(r.url))
    for visit in range(2):  # the first visit from the server, the second through the service worker
        page.goto(served_site + PAGE) if visit == 0 else page.reload()
        page.wait_for_function(KEPT_JS)
        python_ready(page)
        result, _ = check_first_exercise(page)
        assert result["verdict"], result
    page.goto(served_site + "zh-Hans/" + PAGE)
    python_ready(page)
    assert any("/py/" in url for url in asked) and any(url.endswith(".html") for url in asked)
    away = sorted({url for url in asked if not url.startswith(served_site)})
    assert not away, f"requests left the site: {away[:5]}"
    cached = [url for urls in page.evaluate(CACHES_JS).values() for url in urls]
    assert cached and all(url.startswith(served_site) for url in cached), cached[:5]
