/* Python in the page: the classic Web Worker (served as py/worker.js) that runs a learner's code.

   It serves the site's editor cards (page module "practice"), one worker per page. Messages:
     page -> worker  {type: "init", base}            base: the absolute URL of the folder py/
     worker -> page  {type: "progress", loaded, total}   bytes of py/manifest.json's files so far
                     {type: "ready", ms} | {type: "failed", message}
     page -> worker  {type: "run", id, code, check, language}
     worker -> page  {type: "result", id, result} | {type: "crashed", id, message}
   `result` is what attnlib.exercises.practice.run returns (stdout, value, verdict, error). Runs are
   answered one at a time, in order. The time limit lives in the page: it terminates a worker that does
   not answer in time and starts another.

   Starting: every file of the manifest is downloaded once, counted as it arrives (the page's progress
   line). While Pyodide loads, its own fetches of those files are answered from the bytes already here
   (a requested integrity checked as the browser would: numpy's SHA-256 from pyodide-lock.json), so no
   byte crosses the network twice whatever the host's caching; pyodide.js and pyodide.asm.js, run by
   importScripts, come from the browser's cache. attnlib_page.zip is unpacked into site-packages.
   Before the first run the worker takes the network, and its own postMessage, out of its global scope,
   so the learner's code reaches neither the network nor the page. (JavaScript's dynamic import() is
   syntax, not a name that can be removed; only a Content-Security-Policy header on this script closes it.) */
"use strict";

// Every way out of this worker that the learner's code could take (postMessage too: only the worker
// answers the page, through `post`, taken before it is removed).
const OUTWARD = ["fetch", "XMLHttpRequest", "WebSocket", "WebTransport", "EventSource", "BroadcastChannel",
  "importScripts", "indexedDB", "caches", "Worker", "SharedWorker", "postMessage"];
const PAGE_ZIP = "attnlib_page.zip";
const WORKER = "worker.js";
const TYPES = { wasm: "application/wasm", json: "application/json", js: "text/javascript" };
const PROGRESS_EVERY_MS = 100;
// The runner, answering in JSON so that Python's None arrives as null.
const ANSWER = `
import json
from attnlib.exercises.practice import run

def answer(code, check, language):
    return json.dumps(run(code, check, language))

answer("pass", None, "en")  # imports numpy, attnlib and its exercises now, not at the first check
`;

const post = self.postMessage.bind(self);
let ready = null; // a Promise of the runner, set by "init"
let queue = Promise.resolve();

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.type === "init" && ready === null) {
    ready = start(message.base);
    ready.catch(() => {}); // said as "failed"; a run waiting for it answers "crashed"
  } else if (message.type === "run") {
    queue = queue.then(() => answer(message));
  }
};

async function start(base) {
  const began = performance.now();
  const networkFetch = self.fetch;
  try {
    if (typeof base !== "string" || !base.endsWith("/")) {
      throw new TypeError(`base must be the absolute URL of the folder py/, ending with "/"; got ${base}`);
    }
    const manifest = await (await fetched(base + "manifest.json")).json();
    const kept = await download(base, manifest);
    self.fetch = keptFetch(kept, networkFetch);
    self.importScripts(base + "pyodide.js");
    const pyodide = await self.loadPyodide({ indexURL: base, stdout: () => {} });
    const problems = [];
    await pyodide.loadPackage("numpy", { messageCallback: () => {}, errorCallback: (m) => problems.push(m) });
    if (problems.length) throw new Error(problems.join(" ")); // e.g. numpy not the wheel the lock names
    const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
    pyodide.unpackArchive(kept.get(base + PAGE_ZIP), "zip", { extractDir: sitePackages });
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
    const namespace = pyodide.toPy({});
    pyodide.runPython(ANSWER, { globals: namespace });
    const runner = namespace.get("answer");
    closeWaysOut();
    post({ type: "ready", ms: Math.round(performance.now() - began) });
    return runner;
  } catch (err) {
    self.fetch = networkFetch;
    post({ type: "failed", message: said(err) });
    throw err;
  }
}

async function answer({ id, code, check, language }) {
  try {
    const runner = await ready;
    if (!runner) throw new Error("Python was not started: the page sends init first");
    const result = JSON.parse(runner(code, check ?? null, language || "en"));
    post({ type: "result", id, result });
  } catch (err) { // Python could not run it at all (a fatal error of Pyodide, or no Python)
    post({ type: "crashed", id, message: said(err) });
  }
}

/* Every file of the manifest but this script, counted as it arrives: URL -> its bytes. */
async function download(base, manifest) {
  const total = manifest.bytes;
  let loaded = 0;
  let told = -Infinity; // the first chunk is told at once
  const tell = (force) => {
    const now = performance.now();
    if (force || now - told >= PROGRESS_EVERY_MS) {
      told = now;
      post({ type: "progress", loaded, total });
    }
  };
  const kept = new Map();
  await Promise.all(manifest.files.map(async (file) => {
    if (file.name === WORKER) { // already here: it is running
      loaded += file.bytes;
      return;
    }
    const reader = (await fetched(base + file.name)).body.getReader();
    const chunks = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      tell(false);
    }
    const bytes = joined(chunks);
    const digest = await sha256(bytes);
    if (digest !== null && hex(digest) !== file.sha256) {
      throw new Error(`${file.name}: not the file the manifest names (a stale copy?)`);
    }
    kept.set(base + file.name, bytes);
  }));
  tell(true);
  if (!kept.has(base + PAGE_ZIP)) throw new Error(`${PAGE_ZIP} is not in the manifest`);
  return kept;
}

/* fetch for Pyodide while it loads: a file already downloaded is answered from its bytes; a requested
   integrity ("sha256-<base64>") is checked as the browser checks it, or left to the network. */
function keptFetch(kept, networkFetch) {
  return async (input, init = {}) => {
    const url = String((input && input.url) || input);
    const bytes = kept.get(url);
    if (bytes === undefined) return networkFetch.call(self, input, init);
    if (init.integrity) {
      const digest = await sha256(bytes);
      if (digest === null) return networkFetch.call(self, input, init);
      if (`sha256-${base64(digest)}` !== init.integrity) throw new TypeError(`${url}: integrity check failed`);
    }
    const type = TYPES[url.split(".").pop()] || "application/octet-stream";
    return new Response(bytes, { status: 200, headers: { "Content-Type": type } });
  };
}

/* url, revalidated with the server (a 304 when unchanged): never a stale copy beside a new manifest. */
async function fetched(url) {
  const response = await self.fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response;
}

function joined(chunks) {
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/* The SHA-256 of bytes, or null where crypto.subtle is missing (it exists on https and localhost only). */
async function sha256(bytes) {
  const subtle = self.crypto && self.crypto.subtle;
  return subtle ? new Uint8Array(await subtle.digest("SHA-256", bytes)) : null;
}

function hex(digest) {
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function base64(digest) {
  return btoa(String.fromCharCode(...digest));
}

/* Take every way out (OUTWARD) from this worker's global scope, and from its prototypes. */
function closeWaysOut() {
  for (const name of OUTWARD) {
    for (let target = self; target; target = Object.getPrototypeOf(target)) {
      if (!Object.prototype.hasOwnProperty.call(target, name)) continue;
      try {
        delete target[name];
      } catch (err) { /* not configurable: overwritten below */ }
      if (Object.prototype.hasOwnProperty.call(target, name)) {
        try {
          Object.defineProperty(target, name, { value: undefined, writable: false, configurable: false });
        } catch (err) { /* neither deletable nor redefinable */ }
      }
    }
  }
}

/* An error in one line: a Python error's last line (its type and message), not its traceback. */
function said(err) {
  const text = String((err && err.message) || err).trim();
  return err && err.type ? text.split("\n").pop() : text;
}
