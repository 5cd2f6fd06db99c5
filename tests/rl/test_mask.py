"""The legal-action mask as a numpy array (``rl/mask.py``): exactly the legal codes, for the
codec given or the map's own."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from hypothesis import given, settings  # noqa: E402

from strategies import played  # noqa: E402
from ttr_europe import (  # noqa: E402
    ClaimRoute,
    DrawFaceUp,
    legal_action_mask,
    legal_actions,
)
from ttr_europe.codec import codec_for  # noqa: E402
from ttr_europe.rl import (  # noqa: E402
    action_mask,
)
from ttr_europe.testing import finished, scenario  # noqa: E402


@pytest.mark.slow
@settings(max_examples=30)
@given(played(max_steps=300))
def test_numpy_mask_marks_exactly_the_legal_actions(game) -> None:
    state, _, _ = game
    mask = action_mask(state)
    assert mask.dtype == np.bool_
    assert mask.tolist() == legal_action_mask(state)
    codec = codec_for(state.map, state.rules.variant.id)
    legal = {codec.encode(a, state) for a in legal_actions(state)}
    assert set(np.flatnonzero(mask).tolist()) == legal


def test_a_worked_mask_and_the_game_over_mask() -> None:
    state = scenario(hands={0: "3red"}, row="red blue loco red green")
    codec = codec_for(state.map, "base")
    mask = action_mask(state)
    assert mask.shape == (codec.size,) and mask.dtype == np.bool_
    assert np.array_equal(action_mask(state, codec), mask)
    marked = {codec.decode(int(c), state) for c in np.flatnonzero(mask)}
    assert marked == set(legal_actions(state))
    assert any(type(a) is ClaimRoute for a in marked) and DrawFaceUp(2) in marked
    over = finished()
    assert not action_mask(over).any()
