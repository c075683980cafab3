/* How a page of the site is viewed, in the reader's browser (its look: tools/templates/site_view.css):

   - the lecturer's notes: a toggle beside each note's label hides or shows them all, and the choice is
     remembered (localStorage) for every page of the site; it is applied before the page is painted;
   - a figure opened full size: every figure of the page (a stored plot, a diagram in the text) is a button
     named by its alternative text; a click, Enter or Space opens it in a modal <dialog> (the page behind it
     inert), and Esc, a click or the close button closes it, the focus back on the figure;
   - print: figures not fetched yet (they load as the reader comes near them) are fetched first;
   - served over http(s) (not from disk), the site's service worker (sw.js at its root, tools/offline_site.py)
     is registered, so that after this visit the pages and Python work offline; once the page has loaded,
     its own files (fetched before the service worker ran) are handed to it to keep with the runtime, and
     once they are kept the page says so: <html data-offline="ready">.

   A classic script in the <head> (a page opened from disk cannot load ES modules), copied by
   tools/build_site.py to assets/site-view.js. Its words come from the page (data-* attributes). */
(function () {
  "use strict";

  const NOTES_KEY = "attn-site-lecture-notes";  // "hidden" when the reader folded them
  const FIGURES = "main .jp-RenderedImage img, main .jp-RenderedMarkdown img";

  function stored() {
    try { return window.localStorage.getItem(NOTES_KEY); } catch (err) { return null; }  // storage refused
  }

  function remember(hidden) {
    try { window.localStorage.setItem(NOTES_KEY, hidden ? "hidden" : "shown"); } catch (err) { /* kept for this page */ }
  }

  // before the body is parsed: folded notes never flash open
  document.documentElement.classList.toggle("notes-hidden", stored() === "hidden");

  // ---- the lecturer's notes ---------------------------------------------------------------------------
  function showNotes(hidden) {
    document.documentElement.classList.toggle("notes-hidden", hidden);
    document.querySelectorAll(".lecture-notes-toggle").forEach((button) => {
      button.textContent = hidden ? button.dataset.show : button.dataset.hide;
      button.setAttribute("aria-expanded", String(!hidden));
    });
  }

  function setUpNotes() {
    const buttons = document.querySelectorAll(".lecture-notes-toggle");
    buttons.forEach((button) => {
      button.hidden = false;
      button.addEventListener("click", () => {
        const hidden = !document.documentElement.classList.contains("notes-hidden");
        remember(hidden);
        showNotes(hidden);
        button.scrollIntoView({ block: "nearest" });  // the text above folded: keep the button in sight
      });
    });
    showNotes(document.documentElement.classList.contains("notes-hidden"));
  }

  // ---- figures full size ------------------------------------------------------------------------------
  let dialog = null;
  let opener = null;

  function makeDialog() {
    const words = document.body.dataset;
    dialog = document.createElement("dialog");
    dialog.className = "figure-dialog";
    dialog.innerHTML = '<div class="figure-dialog-bar"><p></p><button type="button"></button></div><img alt="">';
    const [bar, img] = dialog.children;
    const [caption, close] = bar.children;
    caption.id = "figure-dialog-caption";
    dialog.setAttribute("aria-labelledby", caption.id);
    close.textContent = words.close || "Close";
    // a click anywhere (the picture, the backdrop, the button) closes it; Esc is the dialog's own
    dialog.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      img.removeAttribute("src");
      if (opener) opener.focus();
      opener = null;
    });
    document.body.appendChild(dialog);
  }

  function openFigure(figure) {
    if (!dialog) makeDialog();
    opener = figure;
    const img = dialog.querySelector("img");
    img.src = figure.currentSrc || figure.src;
    dialog.querySelector("p").textContent = figure.alt;
    dialog.showModal();
    dialog.querySelector("button").focus();
  }

  function setUpFigures() {
    const hint = document.body.dataset.zoom || "";
    document.querySelectorAll(FIGURES).forEach((figure) => {
      figure.dataset.zoom = "";
      figure.tabIndex = 0;
      figure.setAttribute("role", "button");  // its name stays its alternative text
      figure.setAttribute("aria-haspopup", "dialog");
      if (hint) figure.title = hint;
    });
    document.addEventListener("click", (event) => {
      const figure = event.target instanceof Element && event.target.closest("img[data-zoom]");
      if (figure) openFigure(figure);
    });
    document.addEventListener("keydown", (event) => {
      const figure = event.target instanceof Element && event.target.matches("img[data-zoom]") ? event.target : null;
      if (figure && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();  // Space would scroll the page
        openFigure(figure);
      }
    });
  }

  // ---- print ----------------------------------------------------------------------------------------
  window.addEventListener("beforeprint", () => {
    document.querySelectorAll("img[loading=lazy]").forEach((img) => { img.loading = "eager"; });
  });

  // ---- offline after one visit ------------------------------------------------------------------------
  // Registered at once, so that it controls the page before the page starts its Python worker (whose runtime
  // then passes through it, downloaded once); once the page has loaded, it is told what to keep of it.
  const here = document.currentScript && document.currentScript.src;  // <root>assets/site-view.js
  if (here && /^https?:$/.test(window.location.protocol) && "serviceWorker" in navigator) {
    const loaded = new Promise((resolve) => window.addEventListener("load", resolve, { once: true }));
    navigator.serviceWorker.register(new URL("../sw.js", here))
      .then(() => Promise.all([navigator.serviceWorker.ready, loaded]))
      .then(([registration]) => {
        navigator.serviceWorker.addEventListener("message", (event) => {
          // <html data-offline="ready">: this page and the runtime are kept
          if (event.data && event.data.type === "kept") document.documentElement.dataset.offline = "ready";
        });
        const urls = [window.location.href, new URL("index.html", window.location.href).href,  // its edition's
          ...performance.getEntriesByType("resource").map((e) => e.name)];
        registration.active.postMessage({ type: "keep", urls });
      })
      .catch(() => { /* online only, as before */ });
  }

  document.addEventListener("DOMContentLoaded", () => {
    setUpNotes();
    setUpFigures();
  });
})();
