// The code editor of the site's exercise cards (attnlib/page/practice.js): CodeMirror 6 with what a
// notebook cell has — line numbers, Python highlighting, matching brackets, undo history, Tab to indent —
// and no more. tools/page_python.py bundles this file with esbuild into the classic script
// assets/editor.js, whose global `AttnEditor` the cards call: AttnEditor.create(parent, options).
//
// Keys: Tab indents (indentWithTab); CodeMirror's own escape hatch leaves the editor from the keyboard:
// Esc, then Tab within two seconds, moves the focus on. Ctrl+Enter (Cmd+Enter) calls `onRun`.
// Colours are CSS custom properties (--attn-code-*) set below for a light and a dark page (the reader's
// prefers-color-scheme, as the site's dark mode), so the editor follows the site's dark mode.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { HighlightStyle, bracketMatching, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, drawSelection, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";

const colour = (name) => `var(--attn-code-${name})`;
const PALETTES = `
.attn-code { --attn-code-text: #1f2328; --attn-code-background: #fff; --attn-code-gutter: #6e7781;
  --attn-code-focus: #2a5db0; --attn-code-selection: #cfe0fb; --attn-code-bracket: #d8e6c8;
  --attn-code-error-line: #fde2e4; --attn-code-keyword: #a626a4; --attn-code-string: #2a7a2a;
  --attn-code-number: #b35c00; --attn-code-comment: #6a737d; --attn-code-def: #2a5db0; --attn-code-builtin: #0b7285; }
@media screen and (prefers-color-scheme: dark) {
  .attn-code { --attn-code-text: #e3e6ea; --attn-code-background: #1a1e24; --attn-code-gutter: #8b949e;
    --attn-code-focus: #7fb0ff; --attn-code-selection: #2d4a77; --attn-code-bracket: #3b4a2e;
    --attn-code-error-line: #4a2328; --attn-code-keyword: #ff8f86; --attn-code-string: #a8d8ff;
    --attn-code-number: #86e09a; --attn-code-comment: #98a2ad; --attn-code-def: #d8b4ff; --attn-code-builtin: #ffb770; }
}`;

function addPalettes() {
  if (document.getElementById("attn-code-palettes")) return;
  const style = document.createElement("style");
  style.id = "attn-code-palettes";
  style.textContent = PALETTES;
  document.head.appendChild(style);
}

const highlighting = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.operatorKeyword], color: colour("keyword") },
  { tag: [tags.string, tags.special(tags.string)], color: colour("string") },
  { tag: [tags.number, tags.bool, tags.null], color: colour("number") },
  { tag: [tags.comment, tags.lineComment], color: colour("comment"), fontStyle: "italic" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.definition(tags.className)], color: colour("def") },
  { tag: [tags.standard(tags.variableName), tags.self], color: colour("builtin") },
]);

const theme = EditorView.theme({
  "&": { color: colour("text"), backgroundColor: colour("background"), fontSize: "14px", maxHeight: "32rem" },
  "&.cm-focused": { outline: `2px solid ${colour("focus")}`, outlineOffset: "1px" },
  ".cm-content": { fontFamily: "var(--jp-code-font-family, ui-monospace, monospace)", caretColor: colour("text") },
  ".cm-cursor": { borderLeftColor: colour("text") },
  ".cm-gutters": { color: colour("gutter"), backgroundColor: colour("background"), border: "none" },
  ".cm-activeLineGutter": { backgroundColor: "transparent", color: colour("text") },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground": { backgroundColor: colour("selection") },
  ".cm-matchingBracket": { backgroundColor: colour("bracket"), outline: "none" },
  ".cm-line.attn-error-line": { backgroundColor: colour("error-line") },
});

// The line an error names, marked until the code changes.
const markLineEffect = StateEffect.define();
const markedLine = StateField.define({
  create: () => Decoration.none,
  update(marks, tr) {
    let next = tr.docChanged ? Decoration.none : marks;
    for (const effect of tr.effects) {
      if (!effect.is(markLineEffect)) continue;
      const n = effect.value;
      next = n && n >= 1 && n <= tr.state.doc.lines
        ? Decoration.set([Decoration.line({ class: "attn-error-line" }).range(tr.state.doc.line(n).from)])
        : Decoration.none;
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

// An editor in `parent` holding `doc`, named `label` for a screen reader. onChange(text) after each edit,
// onRun() on Ctrl/Cmd+Enter. Returns {get(), set(text), focus(), markLine(n | null)}.
export function create(parent, { doc = "", label = "", onChange = () => {}, onRun = () => {} } = {}) {
  if (!(parent instanceof Element)) throw new TypeError(`parent must be an element, got ${parent}`);
  addPalettes();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), history(), drawSelection(), indentOnInput(), bracketMatching(),
        indentUnit.of("    "), EditorState.tabSize.of(4), python(), syntaxHighlighting(highlighting), theme, markedLine,
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onRun(); return true; } }])),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.editorAttributes.of({ class: "attn-code" }), EditorView.contentAttributes.of({ "aria-label": label }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(update.state.doc.toString()); }),
      ],
    }),
  });
  return {
    get: () => view.state.doc.toString(),
    set(text) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }); },
    focus: () => view.focus(),
    markLine(n) { view.dispatch({ effects: markLineEffect.of(n ?? null) }); },
  };
}
