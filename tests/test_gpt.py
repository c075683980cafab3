"""The tiny GPT of notebook 09: shapes, gradients, the causal mask's guarantee, the KV cache, errors.

Synthetic cases use a config whose sizes all differ (V=11, T_max=6, d_model=8, 2 heads, d_ff=5,
batch 3), so a wrong axis changes a shape.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnlib import gpt
from attnlib.data import DATA_DIR
from attnlib.gpt.text import load_poems

CFG = gpt.GPTConfig(vocab_size=11, context=6, d_model=8, n_heads=2, n_layers=2, d_ff=5)
PEEK = dataclasses.replace(CFG, causal=False)


def random_params(config, seed=0):
    """init_params plus noise, so no bias is 0 and no gradient vanishes by symmetry."""
    rng = np.random.default_rng(seed)
    params = gpt.init_params(config, rng=rng)
    return {k: v + rng.normal(0.0, 0.2, v.shape) for k, v in params.items()}


@pytest.fixture
def batch(rng):
    return rng.integers(0, CFG.vocab_size, (3, CFG.context)), rng.integers(
        0, CFG.vocab_size, (3, CFG.context)
    )


def test_forward_shapes_and_weights_are_distributions(batch):
    ids, _ = batch
    logits, weights = gpt.forward(random_params(CFG), CFG, ids)
    assert logits.shape == (3, 6, 11) and weights.shape == (3, 2, 2, 6, 6)
    assert np.allclose(weights.sum(-1), 1.0)
    assert np.all(np.triu(weights, k=1) == 0.0)  # the causal mask: nothing above the diagonal
    _, peek = gpt.forward(random_params(PEEK), PEEK, ids)
    above = np.triu_indices(6, k=1)
    assert peek[..., above[0], above[1]].min() > 0.0  # without it, every query sees every key


@pytest.mark.parametrize("config", [CFG, PEEK], ids=["causal", "peeking"])
def test_every_gradient_matches_central_finite_differences(config, batch):
    ids, targets = batch
    params = random_params(config)
    _, grads = gpt.loss_and_grads(params, config, ids, targets)
    for name, value in params.items():
        numeric = np.array(
            [
                gpt.numerical_gradient(params, config, ids, targets, name, idx)
                for idx in np.ndindex(value.shape)
            ]
        ).reshape(value.shape)
        assert np.abs(numeric - grads[name]).max() < 1e-7 * max(1.0, np.abs(numeric).max()), name


def test_cross_entropy_of_a_uniform_prediction_is_log_v():
    loss, grad = gpt.cross_entropy(np.zeros((2, 4)), np.array([1, 3]))
    # softmax(0) = 1/4 everywhere: loss = log 4; grad = (1/4 - onehot) / 2 rows.
    assert loss == pytest.approx(np.log(4))
    assert np.allclose(grad, (np.full((2, 4), 0.25) - np.eye(4)[[1, 3]]) / 2)


@settings(max_examples=25, deadline=None)
@given(
    ids=st.lists(st.integers(0, 10), min_size=6, max_size=6),
    t=st.integers(0, 4),
    new=st.lists(st.integers(0, 10), min_size=5, max_size=5),
)
def test_with_the_mask_no_position_sees_its_future(ids, t, new):
    params = random_params(CFG)
    changed = np.array(ids[: t + 1] + new[: 5 - t])  # same past up to t, any future
    before, _ = gpt.forward(params, CFG, np.array(ids))
    after, _ = gpt.forward(params, CFG, changed)
    assert np.allclose(before[: t + 1], after[: t + 1], rtol=0, atol=1e-12)


def test_without_the_mask_the_future_changes_the_past(rng):
    params = random_params(PEEK)
    ids = rng.integers(0, 11, 6)
    changed = ids.copy()
    changed[-1] = (ids[-1] + 1) % 11
    assert (
        np.abs(gpt.forward(params, PEEK, ids)[0][0] - gpt.forward(params, PEEK, changed)[0][0]).max() > 1e-3
    )


def test_prefix_loss_equals_sequence_loss_only_for_the_causal_model(rng):
    ids = rng.integers(0, 11, 40)
    causal, peek = random_params(CFG), random_params(PEEK)
    assert gpt.prefix_loss(causal, CFG, ids) == pytest.approx(gpt.sequence_loss(causal, CFG, ids), abs=1e-12)
    assert abs(gpt.prefix_loss(peek, PEEK, ids) - gpt.sequence_loss(peek, PEEK, ids)) > 1e-3


def test_prefix_token_losses_differ_from_the_window_losses_except_at_the_last_position(rng):
    ids = rng.integers(0, 11, 40)
    windows = ids[np.arange(6)[:, None] * PEEK.context + np.arange(PEEK.context + 1)]  # (6, T_max + 1)
    causal, peek = random_params(CFG), random_params(PEEK)
    past = gpt.prefix_token_losses(causal, CFG, ids)
    assert past.shape == (6, CFG.context) and past.mean() == pytest.approx(gpt.prefix_loss(causal, CFG, ids))
    np.testing.assert_allclose(past, gpt.token_losses(causal, CFG, windows), rtol=0, atol=1e-12)
    past, whole = gpt.prefix_token_losses(peek, PEEK, ids), gpt.token_losses(peek, PEEK, windows)
    np.testing.assert_allclose(past[:, -1], whole[:, -1], rtol=0, atol=1e-12)  # nothing beyond the window
    assert np.abs(past[:, :-1] - whole[:, :-1]).max() > 1e-3


def test_the_kv_cache_gives_the_tokens_and_logits_of_full_recomputation():
    params = random_params(CFG)
    ids_c, logits_c = gpt.generate(params, CFG, [3, 1], 4, temperature=2.0, rng=np.random.default_rng(5))
    ids_r, logits_r = gpt.generate(
        params, CFG, [3, 1], 4, temperature=2.0, rng=np.random.default_rng(5), use_cache=False
    )
    assert ids_c.tolist() == ids_r.tolist() and ids_c[:2].tolist() == [3, 1] and logits_c.shape == (4, 11)
    assert np.abs(logits_c - logits_r).max() < 1e-12
    full, _ = gpt.forward(params, CFG, ids_c[:-1])
    assert np.abs(full[1:] - logits_c).max() < 1e-12  # and the one-shot forward over the result


def test_a_prompt_may_fill_the_context_when_the_last_new_token_is_read_by_no_step():
    """6 prompt tokens + 1 new one: the step reads 6 = T_max tokens; a second new one would need 7."""
    ids, logits = gpt.generate(random_params(CFG), CFG, [1, 2, 3, 4, 5, 6], 1, rng=np.random.default_rng(0))
    assert ids.shape == (7,) and logits.shape == (1, 11)
    assert gpt.check_prompt([1, 2, 3, 4, 5], CFG, 2)[1] == 2
    with pytest.raises(ValueError, match="read 7 tokens"):
        gpt.check_prompt([1, 2, 3, 4, 5, 6], CFG, 2)


@pytest.mark.parametrize("use_cache", [True, False])
def test_each_step_shows_the_weights_of_every_query_over_the_tokens_read(use_cache):
    """Step s reads t = n + s tokens: its weights are gpt.forward's over them, logits its last row, and its
    probabilities softmax(logits / temperature); generate gives the same tokens and logits."""
    params, prompt = random_params(CFG), [3, 1]
    steps = list(gpt.generate_steps(params, CFG, prompt, 4, temperature=2.0, rng=np.random.default_rng(5),
                                    use_cache=use_cache))
    ids = [*prompt, *(s.token for s in steps)]
    for s, step in enumerate(steps):
        logits, weights = gpt.forward(params, CFG, ids[: 2 + s])
        assert step.weights.shape == (2, 2, 2 + s, 2 + s)
        np.testing.assert_allclose(step.weights, weights, rtol=0, atol=1e-12)
        np.testing.assert_allclose(step.logits, logits[-1], rtol=0, atol=1e-12)
        z = np.exp((step.logits - step.logits.max()) / 2.0)
        np.testing.assert_allclose(step.probs, z / z.sum(), rtol=0, atol=1e-15)
    assert np.all(np.triu(steps[-1].weights, k=1) == 0)
    out, logits = gpt.generate(params, CFG, prompt, 4, temperature=2.0, rng=np.random.default_rng(5),
                               use_cache=use_cache)
    assert out.tolist() == ids and np.array_equal(logits, np.stack([s.logits for s in steps]))


def test_a_cached_step_keeps_the_rows_of_earlier_steps_unchanged():
    steps = list(gpt.generate_steps(random_params(CFG), CFG, [3], 5, rng=np.random.default_rng(1)))
    first = steps[0].weights.copy()
    assert np.array_equal(steps[-1].weights[:, :, :1, :1], first)  # the rows grew; the first one stayed
    with pytest.raises(ValueError, match="read-only"):
        steps[0].weights[0, 0, 0, 0] = 0.5


def test_greedy_takes_the_most_likely_token_and_draws_no_number():
    class Counting:
        draws = 0

        def random(self):
            Counting.draws += 1
            return 0.5

    params = random_params(CFG)
    steps = list(gpt.generate_steps(params, CFG, [2], 5, temperature=0.5, rng=Counting(), greedy=True))
    assert [s.token for s in steps] == [int(np.argmax(s.logits)) for s in steps] and Counting.draws == 0
    assert all(s.rank == 1 for s in steps)
    sampled = list(gpt.generate_steps(params, CFG, [2], 5, rng=Counting()))
    assert len(sampled) == 5 and Counting.draws == 5  # one number a sampled token


def test_a_step_ranks_the_candidates():
    """probs (0.1, 0.4, 0.1, 0.4): the stable order is 1, 3, 0, 2; token 0 has two more likely above it."""
    step = gpt.Step(np.zeros(4), np.array([0.1, 0.4, 0.1, 0.4]), 0, np.ones((1, 1, 1, 1)))
    assert step.top(3).tolist() == [1, 3, 0] and step.rank == 3
    assert dataclasses.replace(step, token=3).rank == 1


def test_a_low_temperature_is_greedy():
    params = random_params(CFG)
    ids, logits = gpt.generate(params, CFG, [2], 5, temperature=1e-3, rng=np.random.default_rng(0))
    assert ids[1:].tolist() == logits.argmax(-1).tolist()


def test_training_lowers_the_loss_on_a_repeating_text(rng):
    config = gpt.GPTConfig(vocab_size=5, context=8, d_model=16, n_heads=2, n_layers=1, d_ff=16)
    ids = np.tile([0, 1, 2, 3, 4, 2, 1], 20)
    params, losses = gpt.train(
        gpt.init_params(config, rng=rng), config, ids, steps=100, batch_size=8, lr=1e-2, rng=rng
    )
    assert losses.shape == (100,) and losses[-10:].mean() < 0.15 * losses[:5].mean()


@pytest.mark.parametrize(
    ("prompt", "n_new", "temperature", "match"),
    [
        ([], 2, 1.0, r"prompt must hold at least one entry, shape \(n,\); got shape \(0,\)"),
        ([[1, 2]], 1, 1.0, r"prompt must have shape \(n,\); got shape \(1, 2\)"),  # 2-D: not "empty"
        ([1, 2, 3, 4, 5, 6], 2, 1.0, r"6 tokens plus n_new=2 .* read 7 tokens .* more than the context T_max=6"),
        ([1] * 7, 1, 1.0, r"prompt has T=7 tokens, longer than the context T_max=6"),
        ([1], 1, 0.0, r"temperature must be > 0 .* got 0.0"),
        ([1], 1, -1.0, r"temperature must be > 0 .* got -1.0"),
        ([11], 1, 1.0, r"every entry of prompt must be between 0 and V-1=10; got 11"),
    ],
)
def test_bad_generation_input_names_the_value_and_the_limit(prompt, n_new, temperature, match):
    with pytest.raises(ValueError, match=match):
        gpt.generate(
            random_params(CFG), CFG, prompt, n_new, temperature=temperature, rng=np.random.default_rng(0)
        )


def test_a_cache_is_refused_for_a_model_without_the_mask():
    with pytest.raises(ValueError, match="use_cache=True needs a causal model"):
        gpt.generate(random_params(PEEK), PEEK, [1], 2, rng=np.random.default_rng(0))


def test_forward_refuses_more_tokens_than_positions():
    with pytest.raises(ValueError, match=r"T=7 tokens, longer than the context T_max=6"):
        gpt.forward(random_params(CFG), CFG, np.zeros(7, dtype=int))


def test_config_refuses_heads_that_do_not_divide_d_model():
    with pytest.raises(ValueError, match="d_model=8 is not divisible by n_heads=3"):
        gpt.GPTConfig(vocab_size=4, d_model=8, n_heads=3)


# ---- the stored weights ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["tiny_gpt_tang", "tiny_gpt_tang_peeking"])
def test_stored_weights_are_small_and_give_their_recorded_heldout_loss(name):
    path = DATA_DIR / f"{name}.npz"
    assert path.stat().st_size < 1_000_000
    with np.load(path, allow_pickle=False) as npz:
        arrays = dict(npz)
    config = gpt.config_from_arrays(arrays)
    assert config.causal == (name == "tiny_gpt_tang")
    params = gpt.params_from_arrays(arrays, config)
    poems = load_poems()
    assert config.vocab_size == len(poems.tokenizer)
    heldout = gpt.sequence_loss(params, config, poems.heldout_ids)
    assert heldout == pytest.approx(float(arrays["heldout_loss"]), abs=1e-9)


def test_token_losses_average_to_the_loss_and_need_two_tokens(rng):
    params, ids = random_params(CFG), rng.integers(0, 11, (2, 7))
    per_token = gpt.token_losses(params, CFG, ids)
    assert per_token.shape == (2, 6)
    loss, _ = gpt.loss_and_grads(params, CFG, ids[:, :-1], ids[:, 1:])
    assert per_token.mean() == pytest.approx(loss, abs=1e-12)
    with pytest.raises(ValueError, match="at least 2 tokens"):
        gpt.token_losses(params, CFG, [3])


def test_hidden_states_give_the_keys_the_cache_stores():
    params = random_params(CFG)
    states = gpt.hidden_states(params, CFG, [1, 2, 3])
    assert states.shape == (3, 3, 8)  # (n_layers + 1, T, d_model)
    longer = gpt.hidden_states(params, CFG, [1, 2, 3, 4])
    assert np.abs(longer[:, :3] - states).max() < 1e-12  # appending a token changes no earlier state
    peek_params = random_params(PEEK)
    a, b = gpt.hidden_states(peek_params, PEEK, [1, 2, 3]), gpt.hidden_states(peek_params, PEEK, [1, 2, 3, 4])
    assert np.abs(b[1:, :3] - a[1:]).max() > 1e-3  # without the mask it changes every layer after the first


def test_the_gpt_and_its_tokeniser_load_on_first_use_without_plotting():
    code = (
        "import sys, attnlib; attnlib.gpt.GPTConfig(vocab_size=3); attnlib.gpt.text.CharTokenizer('ab'); "
        "print(sorted(m for m in ('matplotlib', 'seaborn', 'ipywidgets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---- every other refusal names the argument and the limit -----------------------------------------
def _without(name):
    params = random_params(CFG)
    del params[name]
    return params


def _reshaped(name):
    params = random_params(CFG)
    params[name] = params[name][:-1]
    return params


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: dataclasses.replace(CFG, causal=1), TypeError, r"causal must be True or False; got 1"),
        (lambda: dataclasses.replace(CFG, d_ff=0), ValueError, r"d_ff must be >= 1; got 0"),
        (lambda: gpt.forward(random_params(CFG), "CFG", [1]), TypeError, r"config must be a GPTConfig; got str"),
        (lambda: gpt.forward([1], CFG, [1]), TypeError, r"params must be a dict \{name: array\} \(see init_params\); got list"),
        (lambda: gpt.forward(_without("l1.W_k"), CFG, [1]), ValueError, r"params has no 'l1.W_k'; expected shape \(8, 8\)"),
        (lambda: gpt.forward(_reshaped("b_out"), CFG, [1]), ValueError, r"params\['b_out'\] must have shape \(11,\) for this config; got \(10,\)"),
        (lambda: gpt.forward(random_params(CFG), CFG, [0.5]), TypeError, r"ids must be whole numbers \(token ids\) of shape \(\.\.\., T\)"),
        (lambda: gpt.forward(random_params(CFG), CFG, np.zeros((2, 0), dtype=int)), ValueError, r"ids must hold at least one entry"),
        (lambda: gpt.params_from_arrays({"tok_emb": np.zeros((11, 8))}, CFG), ValueError, r"the arrays lack the parameters \['b_out', 'l0.W_1'"),
        (lambda: gpt.init_params(CFG, rng=0), TypeError, r"rng must be a numpy Generator"),
        (lambda: gpt.init_params("CFG", rng=np.random.default_rng(0)), TypeError, r"config must be a GPTConfig"),
        (lambda: gpt.cross_entropy(np.zeros((2, 4)), [1, 2, 3]), ValueError, r"targets must have shape \(2,\) \(one per row of logits\); got \(3,\)"),
        (lambda: gpt.loss_and_grads(random_params(CFG), CFG, [1, 2], [1]), ValueError, r"targets must have the shape of ids, \(2,\); got \(1,\)"),
        (lambda: gpt.loss_and_grads(random_params(CFG), CFG, [1, 2], [1, 11]), ValueError, r"every entry of targets must be between 0 and V-1=10; got 11"),
        (lambda: gpt.numerical_gradient(random_params(CFG), CFG, [1], [2], "W_x", (0,)), ValueError, r"params has no 'W_x'; its parameters are \["),
        (lambda: gpt.sequence_loss(random_params(CFG), CFG, np.arange(6) % 11), ValueError, r"ids has 6 tokens; at least T_max\+1 = 7 are needed"),
        (lambda: gpt.sequence_loss(random_params(CFG), CFG, np.full(20, 11)), ValueError, r"every entry of ids must be between 0 and V-1=10; got 11"),
        (lambda: gpt.prefix_loss(random_params(CFG), CFG, np.zeros((2, 7), dtype=int)), ValueError, r"ids must have shape \(N,\); got shape \(2, 7\)"),
        (lambda: gpt.train(random_params(CFG), CFG, [1, 2], steps=1, rng=np.random.default_rng(0)), ValueError, r"ids has 2 tokens; at least T_max\+1 = 7 are needed"),
        (lambda: gpt.generate(random_params(CFG), CFG, [1], 1, temperature="hot", rng=np.random.default_rng(0)), TypeError, r"temperature must be a number > 0; got 'hot'"),
        (lambda: gpt.generate(random_params(CFG), CFG, [1], 0, rng=np.random.default_rng(0)), ValueError, r"n_new must be >= 1; got 0"),
        (lambda: gpt.generate(random_params(CFG), CFG, [[1]], 1, rng=np.random.default_rng(0)), ValueError, r"prompt must have shape \(n,\); got shape \(1, 1\)"),
    ],
)
def test_bad_model_input_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ---- what a new user tries: each bad argument of each public function, refused by name --------------
P = random_params(CFG)
LONG = np.arange(40) % 11
RNG = np.random.default_rng  # a fresh generator per call, so the table's order does not matter
NAN_PARAMS = {**P, "b_out": np.full(11, np.nan)}
LIST_PARAMS = {**P, "b_out": [0.0] * 11}


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        # parameters and ids
        (lambda: gpt.forward(NAN_PARAMS, CFG, [1]), ValueError, r"params\['b_out'\] contains NaN"),
        (lambda: gpt.forward(LIST_PARAMS, CFG, [1]), TypeError, r"params\['b_out'\] must be a numpy array of shape \(11,\); got list"),
        (lambda: gpt.forward(P, CFG, [[1, 2], [3]]), TypeError, r"ids must be whole numbers \(token ids\) .* got dtype object"),
        (lambda: gpt.hidden_states(P, CFG, [-1]), ValueError, r"every entry of ids must be between 0 and V-1=10; got -1"),
        (lambda: gpt.token_losses(P, CFG, [1]), ValueError, r"ids must hold at least 2 tokens"),
        (lambda: gpt.token_losses(P, CFG, 3), ValueError, r"ids must have shape \(\.\.\., T \+ 1\); got shape \(\)"),
        (lambda: gpt.token_losses(P, CFG, [1, 11]), ValueError, r"every entry of ids must be between 0 and V-1=10; got 11"),
        # the loss: targets outside the vocabulary no longer reach numpy's IndexError
        (lambda: gpt.cross_entropy(np.zeros((2, 4)), [4, 1]), ValueError, r"every entry of targets must be between 0 and V-1=3; got 4"),
        (lambda: gpt.cross_entropy(np.zeros((2, 4)), [-1, 1]), ValueError, r"every entry of targets must be between 0 and V-1=3; got -1"),
        (lambda: gpt.cross_entropy(np.zeros((2, 4)), [0.5, 1]), TypeError, r"targets must be whole numbers \(token ids\)"),
        (lambda: gpt.cross_entropy(np.zeros((2, 4)), [[1, 2]]), ValueError, r"targets must have shape \(\.\.\.\); got shape \(1, 2\)"),
        (lambda: gpt.cross_entropy("logits", [1]), TypeError, r"logits must be an array of real numbers of shape \(\.\.\., V\)"),
        (lambda: gpt.cross_entropy(3.0, 0), ValueError, r"logits must have shape \(\.\.\., V\): at least 1 axes"),
        (lambda: gpt.cross_entropy(np.zeros((0, 4)), np.zeros(0, int)), ValueError, r"logits must hold at least one row of V >= 1 logits"),
        (lambda: gpt.cross_entropy([[0.0, np.nan]], [0]), ValueError, r"logits contains NaN"),
        # the config and the arrays of a saved model
        (lambda: gpt.config_from_arrays([1]), TypeError, r"arrays must be a dict"),
        (lambda: gpt.config_from_arrays({}), ValueError, r"arrays has no 'config.vocab_size'"),
        (lambda: gpt.config_from_arrays({**CFG.to_arrays(), "config.d_model": np.zeros(2)}), ValueError, r"arrays\['config.d_model'\] must be a 0-d whole number .* shape \(2,\)"),
        (lambda: gpt.params_from_arrays(None, CFG), TypeError, r"arrays must be a dict \{name: array\} \(a loaded .npz\); got NoneType"),
        (lambda: gpt.params_from_arrays({**P, "b_out": np.array(["a"] * 11)}, CFG), TypeError, r"arrays\['b_out'\] must be an array of real numbers of shape \(11,\)"),
        # the gradient check
        (lambda: gpt.numerical_gradient(P, CFG, [1], [2], "b_out", (11,)), ValueError, r"index must be a tuple of 1 whole numbers, one entry of b_out of shape \(11,\); got \(11,\)"),
        (lambda: gpt.numerical_gradient(P, CFG, [1], [2], ["b_out"], (0,)), TypeError, r"params has no \['b_out'\]; its parameters are \["),
        (lambda: gpt.numerical_gradient(P, CFG, [1], [2], "b_out", 0), ValueError, r"index must be a tuple of 1 whole numbers.*; got 0$"),
        (lambda: gpt.numerical_gradient(P, CFG, [1], [2], "b_out", (0,), eps=0), ValueError, r"eps must be a finite number > 0; got 0"),
        (lambda: gpt.numerical_gradient(P, CFG, [1, 2], [2], "b_out", (0,)), ValueError, r"targets must have the shape of ids, \(2,\); got \(1,\)"),
        # losses over a long text: a batch below one
        (lambda: gpt.sequence_loss(P, CFG, LONG, batch=0), ValueError, r"batch must be >= 1; got 0"),
        (lambda: gpt.sequence_loss(P, CFG, LONG, batch=-3), ValueError, r"batch must be >= 1; got -3"),
        (lambda: gpt.sequence_loss(P, CFG, LONG, batch=2.0), TypeError, r"batch must be a whole number >= 1"),
        (lambda: gpt.prefix_token_losses(P, CFG, [[1, 2], [3]]), TypeError, r"ids must be whole numbers \(token ids\) of shape \(N,\)"),
        # Adam
        (lambda: gpt.adam_init([1]), TypeError, r"params must be a dict \{name: array\}; got list"),
        (lambda: gpt.adam_update(P, P, gpt.adam_init(P), lr=0), ValueError, r"lr must be a finite number > 0; got 0"),
        (lambda: gpt.adam_update(P, P, gpt.adam_init(P), lr="fast"), TypeError, r"lr must be a number > 0; got 'fast' \(str\)"),
        (lambda: gpt.adam_update(P, P, gpt.adam_init(P), 1e-3, betas=(1.0, 0.9)), ValueError, r"betas\[0\] must be a finite number >= 0 and < 1; got 1.0"),
        (lambda: gpt.adam_update(P, P, gpt.adam_init(P), 1e-3, betas=(0.9,)), ValueError, r"betas must be two numbers"),
        (lambda: gpt.adam_update(P, P, gpt.adam_init(P), 1e-3, eps=-1.0), ValueError, r"eps must be a finite number > 0; got -1.0"),
        (lambda: gpt.adam_update(P, P, {"step": 0}, 1e-3), ValueError, r"state must be the dict adam_init made"),
        (lambda: gpt.adam_update(P, {"b_out": np.zeros(3)}, gpt.adam_init(P), 1e-3), ValueError, r"grads\['b_out'\] has shape \(3,\), but params has no entry 'b_out' of that shape"),
        (lambda: gpt.adam_update(P, {"W_x": np.zeros(3)}, gpt.adam_init(P), 1e-3), ValueError, r"grads\['W_x'\] has shape \(3,\), but params has no entry"),
        # training: a batch below one, a clip below zero, ids outside the vocabulary
        (lambda: gpt.train(P, CFG, LONG, steps=1, batch_size=0, rng=RNG(0)), ValueError, r"batch_size must be >= 1; got 0"),
        (lambda: gpt.train(P, CFG, LONG, steps=1, clip=-1.0, rng=RNG(0)), ValueError, r"clip must be a finite number > 0; got -1.0"),
        (lambda: gpt.train(P, CFG, LONG, steps=1, clip=0, rng=RNG(0)), ValueError, r"clip must be a finite number > 0; got 0"),
        (lambda: gpt.train(P, CFG, LONG, steps=1, lr=-1e-3, rng=RNG(0)), ValueError, r"lr must be a finite number > 0; got -0.001"),
        (lambda: gpt.train(P, CFG, np.full(20, 11), steps=1, rng=RNG(0)), ValueError, r"every entry of ids must be between 0 and V-1=10; got 11"),
        (lambda: gpt.train(P, CFG, np.zeros((3, 7), int), steps=1, rng=RNG(0)), ValueError, r"ids must have shape \(N,\); got shape \(3, 7\)"),
        (lambda: gpt.train(NAN_PARAMS, CFG, LONG, steps=1, rng=RNG(0)), ValueError, r"params\['b_out'\] contains NaN"),
        # generation
        (lambda: gpt.generate(P, CFG, [1], 1, rng=RNG(0), use_cache=1), TypeError, r"use_cache must be True or False; got 1"),
        (lambda: gpt.generate(P, CFG, [1], 1, temperature=np.nan, rng=RNG(0)), ValueError, r"temperature must be > 0"),
        (lambda: gpt.generate(P, CFG, [1], 1.5, rng=RNG(0)), TypeError, r"n_new must be a whole number >= 1"),
        (lambda: gpt.generate(P, CFG, "ab", 1, rng=RNG(0)), TypeError, r"prompt must be whole numbers \(token ids\) of shape \(n,\)"),
        (lambda: gpt.generate(P, CFG, [1], 1, rng=0), TypeError, r"rng must be a numpy Generator"),
        (lambda: list(gpt.generate_steps(P, CFG, [1], 1, rng=0)), TypeError, r"rng must be a numpy.random.Generator, or anything whose random\(\)"),
        (lambda: gpt.generate_steps(P, CFG, [1], 1, rng=RNG(0), greedy="yes"), TypeError, r"greedy must be True or False; got 'yes'"),
        (lambda: gpt.generate_steps(P, PEEK, [1], 1, rng=RNG(0)), ValueError, r"use_cache=True needs a causal model"),
        (lambda: gpt.check_temperature(0), ValueError, r"temperature must be > 0 .* got 0"),
        (lambda: gpt.check_prompt([], CFG, 1), ValueError, r"prompt must hold at least one entry"),
    ],
)
def test_every_public_function_refuses_a_bad_argument_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_one_layer_function_serves_training_and_the_kv_cache():
    """The cached step is the layer run on one new row: its stream equals the full pass at that row."""
    params = random_params(CFG)
    ids = np.array([3, 1, 4, 1, 5])
    states = gpt.hidden_states(params, CFG, ids)  # (n_layers + 1, T, d_model)
    kv = [{"K": np.zeros((CFG.context, CFG.d_model)), "V": np.zeros((CFG.context, CFG.d_model))} for _ in range(2)]
    for pos, token in enumerate(ids):
        x = (params["tok_emb"][token] + params["pos_emb"][pos])[None, :]
        for i in range(CFG.n_layers):
            x, cache = gpt.model.layer(gpt.config.layer_params(params, i), x, CFG.n_heads, kv=kv[i], pos=pos)
            assert cache["weights"].shape == (CFG.n_heads, 1, pos + 1)
            np.testing.assert_allclose(x[0], states[i + 1, pos], rtol=0, atol=1e-12)
    assert gpt.config.param_name(1, "W_q") == "l1.W_q" and set(gpt.config.layer_params(params, 0)) == set(gpt.config.LAYER_PARAMS)
