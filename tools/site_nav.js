/* The website's navigation in the reader's browser: the contents beside a page (folded away on a narrow
   screen), the outline's jumps (a lab's link puts the keyboard into the lab) and its mark on the section
   being read, the search of the series, the keys (/ the search, ? the list of keys, ← → [ ] the
   previous and next page), and the marks of the learner's work in the contents, with the button that
   forgets it.

   A classic script (a page opened from disk cannot load ES modules), copied by tools/build_site.py to
   assets/site-nav.js. The words it shows and the addresses it loads come from the page (data-* attributes
   written by build_site.py); the index is the sections of every page of the language, written by
   tools/site_search.py into search-index.js, and searched with MiniSearch (vendored, pinned). Both scripts
   are loaded on the first use of the search box, not with the page; another edition's index only when a
   search finds little in this one. */
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

  // ---- how the search reads text: the twins of fold() and terms() in tools/site_search.py -------------
  // Notation written any way a reader types it is one term (dk, d k, dₖ, d_{k} → d_k; QK^T → qkᵀ;
  // sqrt → √). Latin text: words (letters, digits, underscore, so d_k and W_q stay whole). Chinese has no
  // spaces: each character and each pair of neighbours is indexed; a query of two or more characters is
  // looked up by its pairs (掩码 → 掩码; 注意力 → 注意, 意力), one character by itself.
  const SUBSCRIPTS = Object.fromEntries(Array.from("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ",
    (c, i) => [c, "0123456789aeoxhklmnpstirvuj"[i]]));
  const TRANSPOSE = /\^\s*(?:\\top|t|⊤)(?![a-z0-9_])|⊤/g;
  const NOTATION = /(?<![a-z0-9_])(?:(d)[ _]?(model|ff|k|q|v)|(w)[ _]?(q|k|v|o)|(t)[ _]?(q|k))(?![a-z0-9_])/g;
  const HAN = /[\u2E80-\u2FDF\u3005\u3007\u3021-\u3029\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\u{20000}-\u{3134F}]/u;
  const WORD = /[\p{L}\p{N}_]/u;

  function fold(text) {
    const lower = Array.from(String(text).toLowerCase(), (c) => (c in SUBSCRIPTS ? "_" + SUBSCRIPTS[c] : c));
    return lower.join("").replace(/[{}]/g, "").replace(/(?<![a-z0-9_])sqrt(?![a-z0-9_])/g, "√")
      .replace(TRANSPOSE, "ᵀ").replace(NOTATION, (...m) => m.slice(1, 7).filter(Boolean).join("_"));
  }

  const kind = (c) => (HAN.test(c) ? "h" : WORD.test(c) ? "w" : c === "√" ? "√" : " ");

  function terms(text, forQuery) {
    const chars = Array.from(fold(text));
    const found = [];
    for (const m of chars.map(kind).join("").matchAll(/h+|w+|√/g)) {
      const run = chars.slice(m.index, m.index + m[0].length);
      if (m[0][0] !== "h") { found.push(run.join("")); continue; }
      if (!forQuery || run.length === 1) found.push(...run);
      for (let i = 0; i + 1 < run.length; i++) found.push(run[i] + run[i + 1]);
    }
    return found;
  }
  window.attnSiteTerms = { fold, terms };  // for tests/test_site_search.py, which runs them beside Python's

  const isLatin = (term) => !HAN.test(term);
  const LEVEL_BOOST = { 0: 1.2, 1: 1.5, 2: 1.2, 3: 1 };

  // ---- the indexes: this edition's, and the others' when this one finds little ---------------------------
  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`could not load ${src}`));
      document.head.appendChild(script);
    });
  }

  // Every search-index.js sets window.attnSiteIndex: they are loaded one after the other, and each is taken
  // as soon as it has run.
  let loads = Promise.resolve();
  function loadIndex(src, own) {
    loads = loads.catch(() => null).then(() => {
      if (own && window.attnSiteIndex) return window.attnSiteIndex;
      window.attnSiteIndex = undefined;
      return loadScript(src).then(() => window.attnSiteIndex);
    });
    return loads.then(makeEngine);
  }

  function makeEngine(index) {
    const mini = new window.MiniSearch({
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
    mini.addAll(index.sections.map(([page, anchor, heading, text], id) => ({ id, page, anchor, heading, text })));
    const folded = index.sections.map(([, , heading, text]) => [fold(heading), fold(text)]);
    return {
      sections: index.sections,
      pages: index.pages,
      search(query) {  // every hit; a section that holds the query as written comes first (heading, then text)
        const q = fold(query.trim());
        const hits = q ? mini.search(query) : [];
        hits.forEach((hit) => {
          const [heading, text] = folded[hit.id];
          hit.exact = heading.includes(q) ? 2 : text.includes(q) ? 1 : 0;
        });
        return hits.sort((a, b) => b.exact - a.exact || b.score - a.score);
      },
    };
  }

  // ---- the search box ----------------------------------------------------------------------------------
  const FEW = 10;  // with fewer results than this, the other editions are asked too

  function setUpSearch(box) {
    const input = box.querySelector("input");
    const list = box.querySelector("[role=listbox]");
    const status = box.querySelector("[role=status]");
    const words = box.dataset;
    const editions = JSON.parse(words.editions || "[]");  // [[lang, name, index, page], ...]
    const others = {};  // lang → a promise of its engine
    let engine = null;
    let loading = null;
    let shown = [];  // the options of the list: {option, link}
    let active = -1;
    let timer = 0;
    let rendered = null;  // the query the list shows

    function ready() {
      if (!loading) {
        loading = loadScript(words.engine)
          .then(() => loadIndex(words.index, true))
          .then((made) => { engine = made; box.dataset.ready = "true"; });
      }
      return loading;
    }

    const results = (n) => (n === 1 ? words.one : words.many.replace("{n}", n));

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

    function addOption(link, className) {
      const option = document.createElement("li");
      option.id = `${list.id}-${shown.length}`;
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      if (className) option.className = className;
      link.tabIndex = -1;
      option.append(link);
      list.append(option);
      shown.push({ option, link });
    }

    function render(query) {
      rendered = query;
      const q = query.trim().toLowerCase();
      const hits = engine.search(query);
      list.replaceChildren();
      shown = [];
      active = -1;
      input.removeAttribute("aria-activedescendant");
      for (const hit of hits) {  // all of them: the list scrolls
        const [page, anchor, heading, text] = engine.sections[hit.id];
        const [name, title] = engine.pages[page];
        const link = document.createElement("a");
        link.href = name + (anchor ? "#" + anchor : "");
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
        addOption(link);
      }
      const n = hits.length;
      status.textContent = !q ? "" : n === 0 ? words.none : results(n);
      box.dataset.count = String(n);
      box.dataset.query = query;  // what the list shows results for
      delete box.dataset.others;
      open(Boolean(q));
      if (q && n < FEW && editions.length) elsewhere(query, n);
      else box.dataset.elsewhereFor = query;
    }

    // An edition that finds more than twice as many (掩码 on the English site, "mask" on a Chinese one):
    // a link to the same page there, which opens with this search.
    function elsewhere(query, n) {
      Promise.all(editions.map(([lang, , index]) => {
        others[lang] = others[lang] || loadIndex(index, false);
        return others[lang].then((other) => other.search(query).length, () => 0);
      })).then((counts) => {
        if (rendered !== query) return;
        const found = editions.map((edition, i) => [edition, counts[i]]).filter(([, m]) => m > 2 * n);
        if (found.length) {
          const label = document.createElement("li");
          label.setAttribute("role", "presentation");
          label.className = "elsewhere-label";
          label.textContent = words.elsewhere;
          list.append(label);
          for (const [[lang, name, , page], m] of found) {
            const link = document.createElement("a");
            link.href = `${page}?q=${encodeURIComponent(query.trim())}`;
            link.hreflang = lang;
            link.textContent = `${name} · ${results(m)}`;
            addOption(link, "elsewhere");
          }
          open(true);
        }
        box.dataset.others = found.map(([[lang], m]) => `${lang}:${m}`).join(" ");
        box.dataset.elsewhereFor = query;
      });
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
      window.location.href = item.link.href;  // another page, a section of this one, or another edition
    }

    function update() {
      clearTimeout(timer);
      const query = input.value;
      timer = setTimeout(() => ready().then(() => render(query)).catch((err) => {
        status.textContent = String(err.message || err);
      }), engine ? 80 : 0);
    }

    // ↓ ↑ one result, PageDown PageUp ten (wrapping at the ends: ↑ from the box is the last result).
    const STEPS = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 };
    input.addEventListener("focus", () => { ready().catch(() => {}); if (input.value.trim()) open(true); });
    input.addEventListener("input", update);
    input.addEventListener("keydown", (event) => {
      if (event.key in STEPS) {
        if (!shown.length) return;
        event.preventDefault();
        open(true);
        const step = STEPS[event.key];
        const last = shown.length - 1;
        if (active < 0) choose(step > 0 ? Math.min(step, shown.length) - 1 : last);
        else if (Math.abs(step) === 1) choose((active + step + shown.length) % shown.length);
        else choose(Math.max(0, Math.min(last, active + step)));
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

    // Arrived from another edition's search (?q=...): the same search here.
    const asked = new URLSearchParams(window.location.search).get("q");
    if (asked) {
      input.value = asked;
      input.focus({ preventScroll: true });
      update();
    }
  }

  // ---- keys: / the search, ? the list of keys, ← → [ ] the previous and next page -------------------------
  // Not while the focus is where a key means something else: a field, a control, a box that scrolls, a lab.
  const OWN_KEYS = "input, select, textarea, button, summary, [contenteditable]:not([contenteditable='false']), " +
    "[role=slider], [role=spinbutton], [role=listbox], [role=option], [role=radio], [role=tab], [role=menu], " +
    "[role=menuitem], [role=combobox], [role=dialog], dialog, [data-scrolls], .attn-lab, .attn-quiz, .live-lab, .attn-lab-mount";
  const TURNS = { ArrowLeft: "prev", "[": "prev", ArrowRight: "next", "]": "next" };

  function setUpKeys(box) {
    const words = JSON.parse(box.dataset.keys || "{}");
    let dialog = null;
    let before = null;  // what had the focus before the list opened

    function showKeys() {
      if (!dialog) {
        dialog = document.createElement("dialog");
        dialog.className = "site-keys";
        dialog.setAttribute("aria-labelledby", "site-keys-title");
        const title = document.createElement("h2");
        title.id = "site-keys-title";
        title.textContent = words.title;
        const table = document.createElement("dl");
        const turns = document.querySelector("a[rel=prev], a[rel=next]");
        for (const [keys, what] of [[["/"], words.search], [["?"], words.help], [["Esc"], words.close],
          ...(turns ? [[["←", "["], words.previous], [["→", "]"], words.next]] : [])]) {
          const dt = document.createElement("dt");
          keys.forEach((key, i) => {
            const kbd = document.createElement("kbd");
            kbd.textContent = key;
            dt.append(...(i ? [" ", kbd] : [kbd]));
          });
          const dd = document.createElement("dd");
          dd.textContent = what;
          table.append(dt, dd);
        }
        const note = document.createElement("p");
        note.textContent = turns ? words.where : "";
        const close = document.createElement("button");
        close.type = "button";
        close.textContent = words.button;
        close.addEventListener("click", () => dialog.close());
        dialog.append(title, table, ...(turns ? [note] : []), close);
        dialog.addEventListener("close", () => before?.focus({ preventScroll: true }));
        dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
        document.body.append(dialog);
      }
      before = document.activeElement;
      dialog.showModal();
    }

    document.addEventListener("keydown", (event) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(OWN_KEYS)) return;
      if (event.key === "/") {
        event.preventDefault();
        box.querySelector("input").focus();
      } else if (event.key === "?") {
        event.preventDefault();
        showKeys();
      } else if (event.key in TURNS && !event.shiftKey) {
        const link = document.querySelector(`header.site-bar a[rel=${TURNS[event.key]}]`);
        if (!link) return;
        event.preventDefault();
        window.location.href = link.href;
      }
    });
  }

  // ---- the outline: the section being read -------------------------------------------------------------
  // Every entry's target is watched against the band from far above the screen down to a third of its
  // height: the last target in the page's order inside that band is the one being read (its outline link
  // gets aria-current="location"). A jump past a heading crosses that band's edge, so it is seen too.
  function setUpOutline(outline) {
    const links = Array.from(outline.querySelectorAll("a[href^='#']"));
    const targets = links.map((link) => {
      const id = link.hash.slice(1);
      return document.getElementById(id) || document.getElementById(decodeURIComponent(id));
    });
    const above = new Set();
    let current = null;
    // A link just followed marks its own target while that heading is still in the top third of the screen,
    // even where a short section puts the next heading above the reading line too.
    let followed = -1;
    outline.addEventListener("click", (event) => { followed = links.indexOf(event.target.closest("a")); });
    const watch = new IntersectionObserver((entries) => {
      entries.forEach((e) => (e.isIntersecting ? above.add(e.target) : above.delete(e.target)));
      let last = -1;
      targets.forEach((target, i) => { if (above.has(target)) last = i; });
      if (followed >= 0) {
        const top = targets[followed] ? targets[followed].getBoundingClientRect().top : -Infinity;
        if (top > -2 && top < window.innerHeight / 3) last = followed;
        else followed = -1;
      }
      const link = last >= 0 ? links[last] : null;
      if (link === current) return;
      current?.removeAttribute("aria-current");
      link?.setAttribute("aria-current", "location");
      current = link;
      const toc = outline.closest(".site-toc");
      if (link && toc && toc.scrollHeight > toc.clientHeight) {  // keep it in view beside the page
        const top = link.offsetTop - toc.offsetTop;
        if (top < toc.scrollTop || top + link.offsetHeight > toc.scrollTop + toc.clientHeight) {
          toc.scrollTop = top - toc.clientHeight / 3;
        }
      }
    }, { rootMargin: "100000px 0px -67% 0px" });
    targets.forEach((target) => target && watch.observe(target));
  }

  // ---- the learner's work: marks in the contents, and forgetting it ---------------------------------------
  // attnlib/page/kit.js keeps the work in one localStorage entry (its PROGRESS_KEY): each exercise's code and
  // pass by id ("<notebook stem>/<name>"), each quiz's first answers by notebook ("02": {first, n}). This
  // classic script cannot import the kit: it reads the same entry, forgets it, and passes other tabs' changes
  // on as the kit's event. Each notebook's entry of the contents (li[data-notebook], its exercises' ids in
  // data-exercises) shows the exercises passed of its total and ✓ when every question of its quiz has a
  // first answer; nothing before any work. Where storage is refused, no marks: the page works as before.
  const PROGRESS_KEY = "attn-progress-v1";
  const PROGRESS_EVENT = "attn-progress";
  const EMPTY = () => ({ code: {}, passed: {}, quiz: {} });

  function readProgress() {
    try {
      const stored = JSON.parse(window.localStorage.getItem(PROGRESS_KEY));
      return stored && typeof stored === "object" ? { ...EMPTY(), ...stored } : EMPTY();
    } catch {
      return EMPTY();
    }
  }

  function quizDone(entry) {
    return Boolean(entry) && Array.isArray(entry.first) && entry.n > 0 && entry.first.length === entry.n
      && entry.first.every((c) => Number.isInteger(c));
  }

  // One part of a mark: in the side panel a short sign with its words as its name (and tooltip), on the
  // index the words themselves.
  function markPart(className, short, said, long) {
    const part = document.createElement("span");
    part.className = className;  // written whole: the page's stylesheet keeps the classes its scripts name
    if (long) {
      part.textContent = said;
    } else {
      part.textContent = short;
      part.setAttribute("role", "img");
      part.setAttribute("aria-label", said);
      part.title = said;
    }
    return part;
  }

  function markWork(progress) {
    const words = document.querySelector(".site-forget-button")?.dataset || {};
    const passed = progress.passed || {}, quizzes = progress.quiz || {};
    document.querySelectorAll("li[data-notebook]").forEach((item) => {
      const ids = (item.dataset.exercises || "").split(" ").filter(Boolean);
      const n = ids.filter((id) => passed[id] === true).length;
      const done = quizDone(quizzes[item.dataset.notebook]);
      if (item.dataset.passed === String(n) && item.dataset.quizDone === String(done)) return;  // as shown
      const long = !item.closest(".site-side");
      const parts = [];
      if (n > 0) {
        const said = String(words.exercises || "").replace("{n}", n).replace("{total}", ids.length);
        const className = n === ids.length ? "site-progress-exercises site-progress-all" : "site-progress-exercises";
        parts.push(markPart(className, `${n}/${ids.length}`, said, long));
      }
      if (done) parts.push(markPart("site-progress-quiz", "✓", words.quiz || "", long));
      item.dataset.passed = String(n);
      item.dataset.quizDone = String(done);
      let mark = item.querySelector(".site-progress");
      if (!parts.length) {
        mark?.remove();
        return;
      }
      if (!mark) {
        mark = document.createElement("span");
        mark.className = "site-progress";
        if (long) item.querySelector("a").after(mark);
        else item.querySelector("a").append(mark);
      }
      mark.replaceChildren(...parts);
    });
  }

  // A first press asks (its status says what a second press does), a second one forgets; a blur, or 8 s
  // without the second press, and the button is back as it was.
  function setUpForget(button) {
    const status = button.nextElementSibling;
    let armed = 0;
    const disarm = () => {
      clearTimeout(armed);
      armed = 0;
      button.classList.remove("armed");
      if (status.textContent === button.dataset.again) status.textContent = "";
    };
    button.addEventListener("click", () => {
      if (!armed) {
        armed = setTimeout(disarm, 8000);
        button.classList.add("armed");
        status.textContent = button.dataset.again;
        return;
      }
      disarm();
      try { window.localStorage.removeItem(PROGRESS_KEY); } catch { /* nothing was kept */ }
      window.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail: EMPTY() }));
      status.textContent = button.dataset.done;
    });
    button.addEventListener("blur", () => { if (armed) disarm(); });
    window.addEventListener(PROGRESS_EVENT, (event) => {  // new work since: "forgotten" no longer holds
      const record = event.detail || {};
      const any = Object.values(record).some((section) => section && Object.keys(section).length > 0);
      if (any && status.textContent === button.dataset.done) status.textContent = "";
    });
  }

  function setUpWork() {
    document.querySelectorAll(".site-forget-button").forEach(setUpForget);
    window.addEventListener(PROGRESS_EVENT, (event) => markWork(event.detail || readProgress()));
    window.addEventListener("storage", (event) => {  // another tab of the site wrote or forgot
      if (event.key === PROGRESS_KEY || event.key === null) {
        window.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail: readProgress() }));
      }
    });
    markWork(readProgress());
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
  document.querySelectorAll(".site-search").forEach(setUpKeys);
  setUpWork();
  document.addEventListener("DOMContentLoaded", () => {
    setUpScrollers();
    document.querySelectorAll(".site-outline").forEach(setUpOutline);
  });
})();
