"""Firefox and WebKit, driven with no browser library of their own.

Firefox ESR speaks WebDriver BiDi on a websocket it opens itself; WebKitGTK's ``WebKitWebDriver`` speaks
classic W3C WebDriver over HTTP and starts the MiniBrowser (under Xvfb: it needs a display). Both give a
test the same three things: ``goto(url)``, ``call(js, arg)`` (``js`` an async function of one JSON value,
its JSON result returned) and ``close()``. Debian packages: ``firefox-esr``, ``webkit2gtk-driver``, ``xvfb``.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

from .jupyter import free_port

MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
START_TIMEOUT_S = 60
CALL_TIMEOUT_S = 120

# Debian's packages for each engine, and what each needs on the machine.
PACKAGES = {"firefox": "firefox-esr", "webkit": "webkit2gtk-driver xvfb"}


def missing(engine: str) -> str | None:
    """Why ``engine`` cannot run here, or None."""
    if engine == "firefox":
        return None if shutil.which("firefox-esr") else "no firefox-esr"
    needs = {"WebKitWebDriver": shutil.which("WebKitWebDriver"), "xvfb-run": shutil.which("xvfb-run"),
             str(MINIBROWSER): MINIBROWSER.exists()}
    absent = [name for name, found in needs.items() if not found]
    return f"no {', '.join(absent)}" if absent else None


def _wait(what: str, ready, deadline_s: float = START_TIMEOUT_S):
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        found = ready()
        if found:
            return found
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not start within {deadline_s} s")


class Firefox:
    """Firefox ESR, headless, in a fresh profile, over WebDriver BiDi."""

    def __init__(self, folder: Path) -> None:
        import websocket  # websocket-client: a JupyterLab dependency, named in the test extras

        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / "firefox.log"
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [shutil.which("firefox-esr"), "--headless", "--no-remote", "--profile", str(folder),
                 "--remote-debugging-port=0", "about:blank"], stdout=log, stderr=log)
        try:
            listening = re.compile(r"WebDriver BiDi listening on (ws://\S+)")
            url = _wait("Firefox", lambda: (m := listening.search(self.log.read_text())) and m.group(1))
            # it refuses a handshake that names an origin
            self.socket = websocket.create_connection(f"{url}/session", timeout=CALL_TIMEOUT_S, suppress_origin=True)
            self.ids = 0
            self._send("session.new", {"capabilities": {}})
            self.context = self._send("browsingContext.getTree", {})["contexts"][0]["context"]
        except BaseException:
            self.process.kill()
            raise

    def _send(self, method: str, params: dict) -> dict:
        self.ids += 1
        self.socket.send(json.dumps({"id": self.ids, "method": method, "params": params}))
        while True:  # events come in between: skip them
            message = json.loads(self.socket.recv())
            if message.get("id") == self.ids:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message["result"]

    def viewport(self, width: int, height: int) -> None:
        self._send("browsingContext.setViewport",
                   {"context": self.context, "viewport": {"width": width, "height": height}})

    def goto(self, url: str) -> None:
        self._send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def call(self, js: str, arg: Any = None) -> Any:
        result = self._send("script.callFunction", {
            "functionDeclaration": f"async (json) => JSON.stringify((await ({js})(JSON.parse(json))) ?? null)",
            "arguments": [{"type": "string", "value": json.dumps(arg)}],
            "target": {"context": self.context}, "awaitPromise": True, "resultOwnership": "none"})
        if result["type"] == "exception":
            raise RuntimeError(f"in the page: {result['exceptionDetails']['text']}")
        return json.loads(result["result"]["value"])

    def screenshot(self, path: Path) -> None:
        shot = self._send("browsingContext.captureScreenshot", {"context": self.context, "origin": "document"})
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        try:
            self._send("session.end", {})
            self.socket.close()
        finally:
            self.process.terminate()
            self.process.wait(timeout=30)


class WebKit:
    """WebKitGTK's MiniBrowser under Xvfb, over classic WebDriver."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        with (folder / "webkit.log").open("w") as log:
            self.process = subprocess.Popen(
                [shutil.which("xvfb-run"), "-a", shutil.which("WebKitWebDriver"), f"--port={port}"],
                stdout=log, stderr=log, start_new_session=True)  # its own group: Xvfb goes with it

        def up() -> bool:
            try:
                return self._http("GET", "/status")["ready"]
            except OSError:
                return False

        try:
            _wait("WebKitWebDriver", up)
            options = {"binary": str(MINIBROWSER), "args": ["--automation"]}  # without it the session hangs
            self.session = self._http("POST", "/session", {"capabilities": {"alwaysMatch": {
                "webkitgtk:browserOptions": options}}})["sessionId"]
            self._http("POST", f"/session/{self.session}/timeouts", {"script": CALL_TIMEOUT_S * 1000})
        except BaseException:
            os.killpg(self.process.pid, signal.SIGKILL)
            raise

    def _http(self, method: str, path: str, body: dict | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=CALL_TIMEOUT_S + 10) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as err:
            value = json.loads(err.read() or b"{}").get("value", {})
            raise RuntimeError(f"{method} {path}: {value.get('error')}: {value.get('message')}") from None

    def viewport(self, width: int, height: int) -> None:
        self._http("POST", f"/session/{self.session}/window/rect", {"width": width, "height": height})

    def goto(self, url: str) -> None:
        self._http("POST", f"/session/{self.session}/url", {"url": url})

    def call(self, js: str, arg: Any = None) -> Any:
        script = ("const done = arguments[1];"
                  f"Promise.resolve().then(() => ({js})(JSON.parse(arguments[0])))"
                  ".then((r) => done(JSON.stringify({ok: r})), (e) => done(JSON.stringify({thrown: String(e)})));")
        result = json.loads(self._http("POST", f"/session/{self.session}/execute/async",
                                       {"script": script, "args": [json.dumps(arg)]}))
        if "thrown" in result:
            raise RuntimeError(f"in the page: {result['thrown']}")
        return result.get("ok")

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self._http("GET", f"/session/{self.session}/screenshot")))

    def close(self) -> None:
        try:
            self._http("DELETE", f"/session/{self.session}")
        finally:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)


ENGINES = {"firefox": Firefox, "webkit": WebKit}
