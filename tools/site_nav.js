/* The website's navigation in the reader's browser: the contents beside a page (folded away on a narrow
   screen), the outline's jumps (a lab's link puts the keyboard into the lab), and the search of the series.

   A classic script (a page opened from disk cannot load ES modules), copied by tools/build_site.py to
   assets/site-nav.js. The words it shows and the addresses it loads come from the page (data-* attributes
   written by build_site.py); the index is the sections of every page of the language, written by
   tools/site_search.py into search-index.js, and searched with MiniSearch (vendored, pinned). Both scripts
   are loaded on the first use of the search box, not with the page. */
(function () {
  "use strict";

  const WIDE = window.matchMedia("(min-width: 900px)");
  const FOCUSABLE = "input, select, textarea, button, a[href], [tabindex]:not([tabindex='-1'])";

  // ---- the contents and the outline --------------------------------------------------------------------
  function setUpContents(toc) {
    const fit = () => { toc.open = WIDE.matches; };
    fit();  // before the page is painted: a phone starts with the contents folded
    WIDE.addEventListener("change", fit);
    toc.addEventListener("click", (event) => {
      const link = event.target.closest("a[href^='#']");
      if (!link) return;
      const id = link.hash.slice(1);  // nbconvert's ids hold %-escapes themselves: try them as written first
      const target = document.getElementById(id) || document.getElementById(decodeURIComponent(id));
      if (!target) return;
      event.preventDefault();
      if (!WIDE.matches) toc.open = false;  // out of the way of what the reader asked for
      history.pushState(null, "", link.hash);
      target.scrollIntoView({ block: "start" });
      focusInto(target, link.hasAttribute("data-lab"));
    });
  }

  function focusInto(target, isLab) {
    // a lab: its first control, so the keyboard is where the eyes are; a heading: the heading itself
    const control = isLab ? target.querySelector(FOCUSABLE) : null;
    const element = control || target;
    if (!control && !element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
    element.focus({ preventScroll: true });
  }

  // ---- words: one tokenizer for the index and the query ------------------------------------------------
  // Latin text: words (letters, digits, underscore, so d_k and W_q stay whole). Chinese has no spaces:
  // each character and each pair of neighbours is indexed; a query of two or more characters is looked up
  // by its pairs (掩码 → 掩码; 注意力 → 注意, 意力), one character by itself.
  const HAN = /\p{Script=Han}/u;
  const RUNS = /[\p{Script=Han}\u3005\u3007]+|(?:(?![\p{Script=Han}])[\p{L}\p{N}_])+/gu;

  function terms(text, forQuery) {
    const found = [];
    for (const [run] of String(text).toLowerCase().matchAll(RUNS)) {
      if (!HAN.test(run)) { found.push(run); continue; }
      const chars = Array.from(run);
      if (!forQuery || chars.length === 1) found.push(...chars);
      for (let i = 0; i + 1 < chars.length; i++) found.push(chars[i] + chars[i + 1]);
    }
    return found;
  }

  const isLatin = (term) => !HAN.test(term);
  const LEVEL_BOOST = { 0: 1.2, 1: 1.5, 2: 1.2, 3: 1 };

  // ---- the search box ----------------------------------------------------------------------------------
  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`could not load ${src}`));
      document.head.appendChild(script);
    });
  }

  function setUpSearch(box) {
    const input = box.querySelector("input");
    const list = box.querySelector("[role=listbox]");
    const status = box.querySelector("[role=status]");
    const words = box.dataset;
    const limit = Number(words.limit) || 10;
    let engine = null;
    let loading = null;
    let shown = [];  // the results in the list: {href}
    let active = -1;
    let timer = 0;
    let rendered = null;  // the query the list shows

    function ready() {
      if (!loading) {
        loading = loadScript(words.engine)
          .then(() => (window.attnSiteIndex ? null : loadScript(words.index)))
          .then(() => {
            const index = window.attnSiteIndex;
            engine = new window.MiniSearch({
              fields: ["heading", "text"],
              tokenize: (text) => terms(text, false),
              processTerm: (term) => term,
              searchOptions: {
                tokenize: (text) => terms(text, true),
                processTerm: (term) => term,
                boost: { heading: 3 },
                // a page's opening and its numbered sections before the exercises' subsections
                boostDocument: (id) => LEVEL_BOOST[index.sections[id][4]] || 1,
                combineWith: "AND",
                prefix: (term) => isLatin(term) && term.length >= 3,
                fuzzy: (term) => (isLatin(term) && term.length >= 5 ? 0.2 : false),
              },
            });
            engine.addAll(index.sections.map(([page, anchor, heading, text], id) =>
              ({ id, page, anchor, heading, text })));
            engine.sections = index.sections;
            engine.pages = index.pages;
            box.dataset.ready = "true";
          });
      }
      return loading;
    }

    function search(query) {
      const sections = engine.sections;
      const q = query.trim().toLowerCase();
      const hits = q ? engine.search(q) : [];
      // a section that holds the query as written comes first (in its heading, then in its text)
      const exact = (id) => {
        const [, , heading, text] = sections[id];
        return heading.toLowerCase().includes(q) ? 2 : text.toLowerCase().includes(q) ? 1 : 0;
      };
      hits.forEach((hit) => { hit.exact = exact(hit.id); });
      hits.sort((a, b) => b.exact - a.exact || b.score - a.score);
      return hits;
    }

    function snippet(text, query, matched) {
      const lower = text.toLowerCase();
      let at = lower.indexOf(query);
      let length = query.length;
      if (at < 0) {
        for (const term of matched) {
          const i = lower.indexOf(term);
          if (i >= 0 && (at < 0 || i < at)) { at = i; length = term.length; }
        }
      }
      if (at < 0) return [text.slice(0, 140) + (text.length > 140 ? "…" : ""), "", ""];
      let start = Math.max(0, at - 50);
      const space = text.indexOf(" ", start);
      if (start > 0 && space >= 0 && space < at && space - start < 15) start = space + 1;
      const end = Math.min(text.length, at + length + 90);
      return [(start > 0 ? "…" : "") + text.slice(start, at), text.slice(at, at + length),
        text.slice(at + length, end) + (end < text.length ? "…" : "")];
    }

    function render(query) {
      rendered = query;
      const q = query.trim().toLowerCase();
      const hits = search(query);
      list.replaceChildren();
      shown = [];
      active = -1;
      input.removeAttribute("aria-activedescendant");
      hits.slice(0, limit).forEach((hit, i) => {
        const [page, anchor, heading, text] = engine.sections[hit.id];
        const [name, title] = engine.pages[page];
        const href = name + (anchor ? "#" + anchor : "");
        const option = document.createElement("li");
        option.id = `${list.id}-${i}`;
        option.setAttribute("role", "option");
        option.setAttribute("aria-selected", "false");
        const link = document.createElement("a");
        link.href = href;
        link.tabIndex = -1;
        const where = document.createElement("span");
        where.className = "where";
        where.textContent = heading && heading !== title ? `${title} › ${heading}` : title;
        const said = document.createElement("span");
        said.className = "snippet";
        const [before, hitText, after] = snippet(text, q, hit.terms || []);
        const mark = document.createElement("mark");
        mark.textContent = hitText;
        said.append(before, ...(hitText ? [mark] : []), after);
        link.append(where, said);
        option.append(link);
        list.append(option);
        shown.push({ href, option, link });
      });
      const n = hits.length;
      status.textContent = !q ? "" : n === 0 ? words.none : n === 1 ? words.one : words.many.replace("{n}", n);
      box.dataset.count = String(n);
      box.dataset.query = query;  // what the list shows results for
      open(Boolean(q));
    }

    function open(yes) {
      box.classList.toggle("open", yes);
      input.setAttribute("aria-expanded", String(yes && shown.length > 0));
    }

    function choose(i) {
      shown.forEach((item, j) => item.option.setAttribute("aria-selected", String(j === i)));
      active = i;
      if (i >= 0) {
        input.setAttribute("aria-activedescendant", shown[i].option.id);
        shown[i].option.scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function go(i) {
      const item = shown[i];
      if (!item) return;
      open(false);
      window.location.href = item.link.href;  // another page, or a section of this one
    }

    function update() {
      clearTimeout(timer);
      const query = input.value;
      timer = setTimeout(() => ready().then(() => render(query)).catch((err) => {
        status.textContent = String(err.message || err);
      }), engine ? 80 : 0);
    }

    input.addEventListener("focus", () => { ready().catch(() => {}); if (input.value.trim()) open(true); });
    input.addEventListener("input", update);
    input.addEventListener("keydown", (event) => {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (!shown.length) return;
        event.preventDefault();
        open(true);
        const step = event.key === "ArrowDown" ? 1 : -1;
        choose(active < 0 ? (step > 0 ? 0 : shown.length - 1) : (active + step + shown.length) % shown.length);
      } else if (event.key === "Enter") {
        event.preventDefault();
        clearTimeout(timer);
        const query = input.value;
        ready().then(() => {
          if (rendered !== query) render(query);
          go(active < 0 ? 0 : active);
        });
      } else if (event.key === "Escape") {
        if (box.classList.contains("open")) { open(false); choose(-1); } else { input.value = ""; render(""); }
      }
    });
    list.addEventListener("mousedown", (event) => event.preventDefault());  // keep the focus in the box
    list.addEventListener("click", (event) => {
      const option = event.target.closest("[role=option]");
      if (!option) return;
      event.preventDefault();
      go(shown.findIndex((item) => item.option === option));
    });
    document.addEventListener("click", (event) => { if (!box.contains(event.target)) open(false); });
    box.querySelector("form")?.addEventListener("submit", (event) => event.preventDefault());
  }

  // ---- boxes that scroll sideways -------------------------------------------------------------------------
  // A printed line, a formula, a table or a line of code wider than the column scrolls in its own box
  // (site.css). Where a box really does, it takes the keyboard (Tab to it, then the arrow keys); where it
  // fits again (a wider window), it is no longer a Tab stop. Only a box that is laid out can be measured, and
  // the cells of a page are laid out as the reader comes near them (content-visibility in site.css): the
  // boxes near the screen are measured at once, the others a few at a time while the page is idle, so no
  // long task holds up the page. When every box has been measured, <body data-scrollers="measured">.
  const SCROLLERS = ".jp-RenderedMarkdown, .jp-RenderedText pre, .jp-InputArea-editor, mjx-container[display='true']";
  const idle = window.requestIdleCallback || ((work) => setTimeout(() => work({ timeRemaining: () => 10 }), 30));
  function mark(boxes) {
    const scrolls = boxes.map((box) => box.scrollWidth > box.clientWidth);  // every read, then every write
    boxes.forEach((box, i) => {
      if (scrolls[i] && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.dataset.scrolls = "";
      } else if (!scrolls[i] && "scrolls" in box.dataset) {
        box.removeAttribute("tabindex");
        delete box.dataset.scrolls;
      }
    });
  }
  function setUpScrollers() {
    const boxes = Array.from(document.querySelectorAll(SCROLLERS));
    const near = new Set();
    const watch = new IntersectionObserver((entries) => {
      entries.forEach((e) => (e.isIntersecting ? near.add(e.target) : near.delete(e.target)));
      mark(Array.from(near));
    }, { rootMargin: "100% 0px" });
    boxes.forEach((box) => watch.observe(box));
    let next = boxes.length, running = false;
    function measureRest(deadline) {
      while (next < boxes.length && deadline.timeRemaining() > 2) mark([boxes[next++]]);
      if (next < boxes.length) idle(measureRest);
      else { running = false; document.body.dataset.scrollers = "measured"; }
    }
    function again() {  // fonts came in, or the window changed: every width may have changed
      mark(Array.from(near));
      next = 0;
      delete document.body.dataset.scrollers;
      if (!running) { running = true; idle(measureRest); }
    }
    window.addEventListener("load", () => document.fonts.ready.then(again));
    document.fonts.addEventListener("loadingdone", again);
    let frame = 0;
    window.addEventListener("resize", () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(again);
    });
  }

  // The script runs right after the contents and the search box (before the page's text), so a phone
  // never shows the contents unfolded.
  document.querySelectorAll("details.site-toc").forEach(setUpContents);
  document.querySelectorAll(".site-search").forEach(setUpSearch);
  document.addEventListener("DOMContentLoaded", setUpScrollers);
})();
