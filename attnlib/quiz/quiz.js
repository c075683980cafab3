// The "check your understanding" quiz (attnlib.quiz): each question a native group of lettered radio
// buttons, its feedback line, and the score. Every word comes from Python in `spec` (the feedback for
// every option as attnlib.quiz.feedback words it, the score line for every count); the page only picks
// which one to show. The answers are the model's `values`, kept in step with Python both ways: `choices`,
// the option on show for each question, and `first`, the first one picked, which the score counts (the
// learner may try again until right, reading each explanation). Which keys a chosen answer keeps is the
// kit's rule for every control (shareKeys).
// On a page of the site (the kit's keepsProgress) a quiz of the series (spec.notebook, "02") keeps its
// answers in the browser (the kit's readProgress/updateProgress: quiz["02"] = {first, n: the number of
// questions, choices}): a reload, or the same notebook in another edition, shows them again, with their
// explanations and the score; when the work is forgotten (an empty record heard), the quiz is blank again.
import { escapeHtml, keepsProgress, newId, PROGRESS_EVENT, readProgress, shareKeys, updateProgress, useFonts } from "../page/kit.js";

const QUIZ_STYLE = `
.attn-quiz { color: #222; font-size: 15px; line-height: 1.4; max-width: 1100px; }
.attn-quiz .title { font-weight: 700; margin: 0 0 6px; }
.attn-quiz fieldset { border: 0; margin: 0 0 10px; padding: 0; min-width: 0; }
.attn-quiz legend { padding: 0; margin: 0 0 3px; font-weight: 600; }
.attn-quiz .options { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 2px 16px; }
.attn-quiz label.option { display: flex; align-items: baseline; gap: 6px; padding: 2px 6px; border-radius: 4px;
  cursor: pointer; border: 1px solid transparent; }
.attn-quiz label.option:hover { background: #f1f4f9; }
.attn-quiz label.option input { margin: 0; flex: none; accent-color: #4c72b0; }
.attn-quiz label.option .letter { font-weight: 600; flex: none; }
.attn-quiz label.option.picked { border-color: #9a9a9a; background: #f6f6f6; }
.attn-quiz label.option.picked.right { border-color: #1a7f37; background: #eaf6ec; }
.attn-quiz label.option.picked.wrong { border-color: #b42318; background: #fcefed; }
.attn-quiz label.option:has(input:focus-visible) { outline: 3px solid #f0a030; outline-offset: 1px; }
.attn-quiz .feedback { min-height: 0; margin: 3px 0 0; }
.attn-quiz .feedback:empty { display: none; }
.attn-quiz .feedback.right { color: #1a7f37; }
.attn-quiz .feedback.wrong { color: #b42318; }
.attn-quiz .score { font-style: italic; margin-top: 2px; }
/* A narrow quiz (a phone, or a narrow notebook column): one option per line, each a thumb's height. */
.attn-quiz { container-type: inline-size; }
@container (max-width: 640px) {
  .attn-quiz .options { grid-template-columns: minmax(0, 1fr); gap: 4px; }
  .attn-quiz label.option { box-sizing: border-box; min-height: 44px; align-items: center; padding: 6px 8px; }
}
.attn-quiz code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.92em;
  background: #f3f4f6; padding: 0 3px; border-radius: 3px; }
`;

function renderQuiz({ model, el }) {
  const spec = model.get("spec");
  const read = (values) => [[...values.choices], [...(values.first || values.choices)]];
  let [choices, first] = read(model.get("values"));
  const root = document.createElement("div");
  root.className = "attn-quiz";
  useFonts(root, spec.fonts);
  const id = newId("quiz");  // the radio groups' names: unique on the page, whatever else it shows
  const questions = spec.questions.map((q, n) => {
    const options = q.options.map((words, i) => `
      <label class="option" data-option="${i}"><input type="radio" name="${id}-${n}" value="${i}">` +
      `<span class="letter">${escapeHtml(q.letters[i])})</span><span class="text">${words}</span></label>`);
    return `<fieldset class="question" data-question="${n}">
      <legend><span class="number">${n + 1}.</span> <span class="prompt">${q.prompt}</span></legend>
      <div class="options">${options.join("")}</div>
      <div class="feedback" aria-live="polite"></div></fieldset>`;
  });
  root.innerHTML = `<style>${QUIZ_STYLE}</style><div class="title" role="heading" aria-level="3"></div>` +
    `${questions.join("")}<div class="score" aria-live="polite"></div>`;
  root.querySelector(".title").textContent = spec.title;
  el.appendChild(root);
  shareKeys();
  const groups = [...root.querySelectorAll("fieldset.question")];
  const score = root.querySelector(".score");

  // The answers kept for this quiz in `progress`, if they fit it (one per question, options it has), else null.
  const keeps = Boolean(spec.notebook) && keepsProgress(el);
  const total = spec.questions.length;
  const fits = (list) => Array.isArray(list) && list.length === total && list.every(
    (c, n) => c === null || (Number.isInteger(c) && c >= 0 && c < spec.questions[n].options.length));
  const kept = (progress) => {
    const entry = (progress.quiz || {})[spec.notebook];
    if (!entry || entry.n !== total || !fits(entry.first)) return null;
    return [[...(fits(entry.choices) ? entry.choices : entry.first)], [...entry.first]];
  };

  const paint = () => {
    let right = 0;
    groups.forEach((group, n) => {
      const choice = choices[n];
      const note = choice === null ? null : spec.questions[n].feedback[choice];
      if (first[n] !== null && spec.questions[n].feedback[first[n]].right) right += 1;
      group.querySelectorAll("label.option").forEach((label, i) => {
        const input = label.firstElementChild;
        if (input.checked !== (i === choice)) input.checked = i === choice;
        label.classList.toggle("picked", i === choice);
        label.classList.toggle("right", i === choice && !!note && note.right);
        label.classList.toggle("wrong", i === choice && !!note && !note.right);
      });
      const box = group.querySelector(".feedback");
      const html = note ? note.html : "";
      if (box.innerHTML !== html) box.innerHTML = html;
      box.classList.toggle("right", !!note && note.right);
      box.classList.toggle("wrong", !!note && !note.right);
    });
    const words = spec.scores[right];
    if (score.textContent !== words) score.textContent = words;
    root.dataset.choices = JSON.stringify(choices);
    root.dataset.first = JSON.stringify(first);
  };

  groups.forEach((group, n) => {
    group.addEventListener("change", (event) => {
      const i = Number(event.target.value);
      choices = choices.map((c, k) => (k === n ? i : c));
      first = first.map((f, k) => (k === n && f === null ? i : f));
      paint();  // the feedback first: the kernel hears of it afterwards
      model.set("values", { choices, first });
      model.save_changes();
      if (keeps) updateProgress((progress) => { progress.quiz[spec.notebook] = { first, n: total, choices }; });
    });
  });
  // What the page kept, or forgot (an empty record: every section empty), shown and told to the model.
  const adopt = (progress) => {
    const emptied = Object.values(progress).every((section) => !section || Object.keys(section).length === 0);
    const next = kept(progress) || (emptied ? [choices.map(() => null), first.map(() => null)] : null);
    if (!next || JSON.stringify(next) === JSON.stringify([choices, first])) return;
    [choices, first] = next;
    paint();
    model.set("values", { choices, first });
    model.save_changes();
  };
  const onProgress = (event) => adopt(event.detail || readProgress());
  if (keeps) {
    const progress = readProgress();
    if (kept(progress)) adopt(progress);
    window.addEventListener(PROGRESS_EVENT, onProgress);
  }
  const onModel = () => {
    const next = read(model.get("values"));
    if (JSON.stringify(next) === JSON.stringify([choices, first])) return;  // our own change, painted already
    [choices, first] = next;
    paint();
  };
  model.on("change:values", onModel);
  paint();
  // For tests: the spec and the answers on show.
  root.attnQuiz = { spec, model, get choices() { return choices; }, get first() { return first; } };
  return () => {
    model.off("change:values", onModel);
    window.removeEventListener(PROGRESS_EVENT, onProgress);
  };
}

const pageModule = { render: renderQuiz };
export default pageModule;
