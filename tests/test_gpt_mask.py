"""``gpt.token_losses(..., mask=)``: the tiny GPT under another mask than the causal one (notebook 11 §7)."""

import numpy as np
import pytest

import attnlib
from attnlib import gpt


@pytest.fixture
def small():
    config = gpt.GPTConfig(vocab_size=11, context=8, d_model=8, n_heads=2, n_layers=2, d_ff=16)
    params = gpt.init_params(config, rng=np.random.default_rng(3))
    ids = np.random.default_rng(4).integers(0, 11, size=(3, 9))  # 3 sequences of 8 inputs + 1
    return config, params, ids


def test_the_causal_mask_given_explicitly_changes_nothing(small):
    config, params, ids = small
    plain = gpt.token_losses(params, config, ids)
    assert np.array_equal(gpt.token_losses(params, config, ids, mask=attnlib.causal_mask(8)), plain)


def test_a_window_changes_only_the_positions_that_lose_keys(small):
    """A window of 3 keys differs from the causal mask from query 3 on; queries 0-2 see the same keys."""
    config, params, ids = small
    plain = gpt.token_losses(params, config, ids)
    windowed = gpt.token_losses(params, config, ids, mask=attnlib.sliding_window_mask(8, 3))
    assert np.allclose(windowed[:, :3], plain[:, :3], rtol=0, atol=1e-12)
    assert np.abs(windowed[:, 3:] - plain[:, 3:]).min() > 0


def test_the_mask_is_the_one_the_attention_uses(small):
    """Query t under a window of 1 sees only itself: the loss at t does not depend on earlier tokens."""
    config, params, ids = small
    own = attnlib.sliding_window_mask(8, 1)
    changed = ids.copy()
    changed[:, 0] = (changed[:, 0] + 1) % 11  # another first token
    a = gpt.token_losses(params, config, ids, mask=own)
    b = gpt.token_losses(params, config, changed, mask=own)
    assert np.array_equal(a[:, 1:], b[:, 1:]) and not np.array_equal(a[:, 0], b[:, 0])


def test_a_mask_of_the_wrong_shape_or_with_an_empty_row_is_refused(small):
    config, params, ids = small
    with pytest.raises(ValueError, match="does not broadcast"):
        gpt.token_losses(params, config, ids, mask=attnlib.causal_mask(7))
    empty = attnlib.causal_mask(8)
    empty[4] = False
    with pytest.raises(ValueError):
        gpt.token_losses(params, config, ids, mask=empty)
    with pytest.raises(TypeError, match="boolean"):
        gpt.token_losses(params, config, ids, mask=attnlib.causal_mask(8).astype(int))
