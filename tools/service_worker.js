/* The site's service worker (sw.js at the site's root): after one visit, the pages and their Python work with
   no network.

   - The runtime of the page's Python (py/: Pyodide, numpy, attnlib's pure-Python parts, the worker; and
     assets/editor.js) is served cache-first from a cache named after the runtime's version. A page's Python
     worker started once this service worker controls the page fetches it through here, so each file is
     downloaded once and kept as it arrives. A new build with another runtime installs a new service worker,
     whose activation deletes the older caches of this site.
   - Everything else of the site (pages, their scripts, fonts, figures, search indexes): network first, so a
     rebuilt site is seen at once; each answer is kept, and served from the cache when the network fails.
   - The page of the first visit was loaded before this worker ran: once loaded, it sends a "keep" message
     with the addresses it used (tools/site_view.js); they are kept, with every file of the runtime not kept
     yet (the browser's HTTP cache's copy where the server says it is current), and the page is told "kept".
   - Only this site's own GET requests are handled; a request to another origin is left alone and never kept
     (the site makes none).

   tools/offline_site.py copies this file and writes the line below: the runtime's version (its manifest's)
   and the files to keep, relative to this script. Runs on http(s) and on 127.0.0.1, never from file://. */
const SITE = {"version": "dev", "keep": []};

const PREFIX = "attn-";  // this site's caches; a cache of anything else on the same origin is left alone
const RUNTIME = `${PREFIX}runtime-${SITE.version}`;
const PAGES = `${PREFIX}pages-${SITE.version}`;
const KEEP = SITE.keep.map((name) => new URL(name, self.location).href);
const PY = new URL("py/", self.location).href;
const arriving = new Map();  // address -> the promise of its answer being put into a cache

self.addEventListener("install", (event) => {
  event.waitUntil(self.skipWaiting());  // nothing to migrate: a page asks the runtime for nothing a new one lacks
});

// This site's caches of other versions (a worker being replaced may still have written to one).
async function dropOld() {
  const current = new Set([RUNTIME, PAGES]);
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && !current.has(name)) await caches.delete(name);
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    await dropOld();
    await self.clients.claim();  // the page that registered it, and the Python worker it starts next
  })());
});

const isRuntime = (url) => KEEP.includes(url.href) || url.href.startsWith(PY);

// Worth keeping: this origin's answer, whole (never another origin's, never a 206), while this worker is the
// site's (one replaced by a newer version keeps nothing: its caches are gone).
function keepable(answer) {
  const replaced = self.serviceWorker && self.serviceWorker.state === "redundant";
  return answer.ok && answer.type === "basic" && !replaced;
}

// Fetch and keep: the answer goes to the asker while its copy goes into the cache; until it is there, a second
// ask for the same address waits for it (`arriving`) rather than fetch it again.
async function fetchAndKeep(request, cacheName, waitUntil) {
  const url = new URL(request.url).href;
  let settle;
  const kept = new Promise((resolve) => { settle = resolve; }).finally(() => arriving.delete(url));
  arriving.set(url, kept);
  waitUntil(kept);
  let answer;
  try {
    answer = await fetch(request);
  } catch (failure) {
    settle();
    throw failure;
  }
  if (!keepable(answer)) {
    settle();
    return answer;
  }
  caches.open(cacheName).then((cache) => cache.put(url, answer.clone()))
    .catch(() => { /* storage full: served, not kept */ })
    .finally(settle);
  return answer;
}

async function cacheFirst(event) {
  const cache = await caches.open(RUNTIME);
  const url = new URL(event.request.url);
  url.search = "";
  let kept = await cache.match(url.href);
  if (!kept && arriving.has(url.href)) {  // being fetched already ("keep"): wait, rather than fetch it twice
    await arriving.get(url.href);
    kept = await cache.match(url.href);
  }
  // asked of the server, never taken unasked from the HTTP cache: an older runtime may lie there
  return kept || fetchAndKeep(new Request(event.request, { cache: "no-cache" }), RUNTIME,
    (p) => event.waitUntil(p));
}

async function networkFirst(event) {
  try {
    return await fetchAndKeep(event.request, PAGES, (p) => event.waitUntil(p));
  } catch (failure) {  // offline, or the server gone: the copy kept at the last visit
    const request = event.request;
    const kept = await (await caches.open(PAGES)).match(request, { ignoreSearch: request.mode === "navigate" })
      || await caches.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw failure;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;  // not ours: untouched
  if (event.request.headers.has("range")) return;  // a partial answer cannot be kept; none is asked for
  event.respondWith(isRuntime(url) ? cacheFirst(event) : networkFirst(event));
});

// Keep each address not kept yet (this origin's only); the server is asked whether the HTTP cache's copy is
// current (a 304 costs no download), so that a cache of one version never holds a file of another.
async function keepAll(urls, cacheName) {
  const cache = await caches.open(cacheName);
  await Promise.all(urls.map(async (url) => {
    if (url.origin !== self.location.origin || await cache.match(url.href)) return;
    if (!arriving.has(url.href)) {
      arriving.set(url.href, (async () => {
        const answer = await fetch(new Request(url.href, { cache: "no-cache" }));
        if (keepable(answer)) await cache.put(url.href, answer);
      })().catch(() => { /* offline already: kept at the next visit */ })
        .finally(() => arriving.delete(url.href)));
    }
    await arriving.get(url.href);
  }));
}

function address(text) {
  try {
    const url = new URL(String(text), self.location);
    url.hash = "";
    return url;
  } catch (failure) {
    return null;
  }
}

self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "keep" || !Array.isArray(event.data.urls)) return;
  event.waitUntil((async () => {
    const page = event.data.urls.map(address).filter((url) => url && !isRuntime(url));
    await Promise.all([dropOld(), keepAll(KEEP.map(address), RUNTIME), keepAll(page, PAGES)]);
    if (event.source) event.source.postMessage({ type: "kept" });
  })());
});
