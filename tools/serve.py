"""Serve the built site on this machine only, so that its pages can run Python (a worker and a service
worker need http; a page opened from disk gets neither).

    python -m tools.serve [--port 8000] [FOLDER]     (or: make serve; FOLDER defaults to build/site)

Builds nothing. Listens on 127.0.0.1 alone (nothing on the network can reach it), with the MIME types the
page's Python needs (``application/wasm`` for WebAssembly.instantiateStreaming), every response marked
``Cache-Control: no-cache`` and an ETag (a rebuilt site is seen at once; an unchanged file costs a 304),
and one quiet line per failed request only.

``Server(folder, port=0)`` is the same server in a thread, for the tests and the benchmarks: port 0 takes
a free port; ``url`` is its address; ``sent`` lists ``(path, status, bytes)`` of every response.
"""

from __future__ import annotations

import argparse
import functools
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"  # loopback only, never 0.0.0.0
TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".zip": "application/zip",
    ".whl": "application/zip",  # a wheel is a zip archive
    ".woff2": "font/woff2",
    ".svg": "image/svg+xml",
}


class Handler(SimpleHTTPRequestHandler):
    """Files of one folder, with the site's MIME types, no-cache, and a tally of what was sent."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}
    _status, _length, _etag = 0, 0, ""

    def send_head(self):
        """A file's ETag is its modification time in nanoseconds and its size, so that a file rewritten in the
        same second (a rebuilt sw.js) is never taken for the old one, as If-Modified-Since would."""
        path = Path(self.translate_path(self.path))
        self._etag = ""
        if path.is_file():
            stat = path.stat()
            self._etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
            if self._etag in self.headers.get("If-None-Match", ""):
                self.send_response(HTTPStatus.NOT_MODIFIED)
                self.end_headers()
                return None
            del self.headers["If-Modified-Since"]  # whole seconds: the ETag alone decides
        return super().send_head()

    def send_response(self, code, message=None) -> None:
        self._status, self._length = int(code), 0
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length":
            self._length = int(value)
        super().send_header(keyword, value)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        if self._etag:
            self.send_header("ETag", self._etag)
        self.server.sent.append((self.path, self._status, self._length if self.command != "HEAD" else 0))
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class's name)
        """Quiet: only what went wrong (a missing file, a refused request), one line each."""
        if self._status >= HTTPStatus.BAD_REQUEST and not self.server.quiet:
            sys.stderr.write(f"{self.command} {self.path}: {self._status}\n")


class Server:
    """The folder served on 127.0.0.1 in a background thread; a context manager (``with Server(f) as s``)."""

    def __init__(self, folder: Path, port: int = 0, quiet: bool = False) -> None:
        folder = Path(folder)
        if not folder.is_dir():
            raise ValueError(f"folder: expected a built site (a folder with index.html), got {folder}, "
                             "which is not a folder; run `make site` first")
        if not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(f"port: expected an integer 0..65535 (0: any free port), got {port!r}")
        self.folder = folder
        self.httpd = ThreadingHTTPServer((HOST, port), functools.partial(Handler, directory=str(folder)))
        self.httpd.daemon_threads = True
        self.httpd.sent = []  # (path, status, bytes) of each response
        self.httpd.quiet = quiet
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        """The site's address, ending in /."""
        return f"http://{HOST}:{self.port}/"

    @property
    def sent(self) -> list[tuple[str, int, int]]:
        return self.httpd.sent

    def start(self) -> Server:
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="tools.serve", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop answering and free the port (a page then finds the network gone)."""
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
            self._thread = None
        self.httpd.server_close()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "build" / "site",
                        help="the built site (default: build/site)")
    parser.add_argument("--port", type=int, default=8000, help="the port on 127.0.0.1 (default 8000)")
    args = parser.parse_args(argv)
    if not (args.folder / "index.html").is_file():
        parser.error(f"no site in {args.folder}: run `make site` first")
    try:
        server = Server(args.folder, args.port)
    except OSError as err:
        parser.error(f"cannot listen on {HOST}:{args.port} ({err.strerror}); try --port with another number")
    print(f"Serving {args.folder} at {server.url} (this machine only). Open it in a browser; Ctrl+C stops.",
          flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
