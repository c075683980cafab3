"""A handful of exercises checked in the page's Python in Firefox ESR and WebKitGTK (the site served on
127.0.0.1): a right and a wrong answer each, in English and 简体, and each verdict is the one the runner
gives in CPython for the same code (tests/browser/test_practice.py does every exercise, in Chromium).

Where an engine is not installed these are skipped with the reason (a learner's machine); in CI (``CI``
set) that is a failure, as in test_engines.py.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from attnlib.exercises.practice import run
from tests.practice_cases import cases

# (language, exercise, the causes tried): a right answer and a known mistake of each.
CHOSEN = [
    ("en", "02_softmax/my_softmax", ("correct", "columns")),
    ("en", "04_queries_keys_values/W_q_green", ("correct", "tie")),
    ("zh-Hans", "06_masking/my_causal_mask", ("correct", "big_negative")),
    ("zh-Hans", "09_a_tiny_gpt/my_cached_attention", ("correct", "caches")),
]
READY_TRIES = 3  # each wait within one call of the engine's driver (two minutes at most)

# True once the page's Python is ready, or why not yet, within `ms`.
READY_JS = """async (ms) => {
  for (let i = 0; i < 300 && !window.attnPractice; i += 1) await new Promise((r) => setTimeout(r, 100));
  if (!window.attnPractice) return 'no window.attnPractice';
  const late = new Promise((r) => setTimeout(() => r('not ready after ' + ms + ' ms'), ms));
  const said = await Promise.race([window.attnPractice.ready.then(() => true, (e) => 'failed: ' + e), late]);
  const status = document.querySelector('.attn-python-status');
  return said === true ? true : said + ' (status: ' + (status && status.dataset.state) + ')';
}"""
# Each case checked; what `check` resolved to and what its card shows; the page's resources' origins.
CHECK_JS = """async (cases) => {
  const shown = [];
  for (const c of cases) {
    window.attnPractice.setCode(c.exercise, c.code);
    const result = await window.attnPractice.check(c.exercise);
    const verdict = document.querySelector(`.attn-practice[data-exercise="${c.exercise}"] .attn-practice-verdict`);
    shown.push({result, text: verdict && verdict.textContent, cause: verdict && verdict.dataset.cause});
  }
  const origins = performance.getEntriesByType('resource').map((e) => new URL(e.name).origin);
  return {shown, origins: Array.from(new Set(origins))};
}"""


@pytest.mark.parametrize(("language", "exercise", "causes"), CHOSEN, ids=[e for _, e, _ in CHOSEN])
def test_a_right_and_a_wrong_answer_get_the_runners_verdicts(engine, served_site, language, exercise, causes):
    stem = exercise.split("/")[0]
    engine.goto(served_site + ("" if language == "en" else f"{language}/") + f"{stem}.html")
    said = "not asked"
    for _ in range(READY_TRIES):
        said = engine.call(READY_JS, 100_000)
        if said is True or not str(said).startswith("not ready"):
            break
    assert said is True, f"{exercise}: the page's Python is {said}"
    chosen = [c for cause in causes for c in cases(language) if c.exercise == exercise and c.cause == cause]
    assert [c.cause for c in chosen] == list(causes)
    seen = engine.call(CHECK_JS, [c._asdict() for c in chosen])
    for case, shown in zip(chosen, seen["shown"], strict=True):
        want = run(case.code, case.check, language)["verdict"]
        assert want["cause"] == case.cause
        assert shown["result"]["verdict"] == want, case.id
        assert (shown["text"], shown["cause"]) == (want["text"], want["cause"]), case.id
    assert seen["origins"] == [f"http://{urlsplit(served_site).netloc}"], seen["origins"]
