"""Documents and arguments that meant one thing to one part of the project and another to the
next: a seat given as ``0.0``, a view listed in another order, a scenario the readers refused,
a state ``attrs.asdict`` could not walk."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from ttr_europe import apply, load_map, new_game, observe, score
from ttr_europe.actions import DrawBlind
from ttr_europe.errors import BadArgumentError, NotYourTurnError
from ttr_europe.state import Phase
from ttr_europe.testing import scenario

ROW = "red blue green yellow pink"


@pytest.mark.parametrize("player", [0.0, True, False, "0", 0j, [0]])
def test_apply_takes_an_int_seat_only(player: Any) -> None:
    state = scenario(row=ROW)
    with pytest.raises(BadArgumentError, match="apply: player must be an int") as info:
        apply(state, DrawBlind(), player=player)
    assert info.value.argument == "player"


def test_apply_with_a_seat() -> None:
    state = scenario(row=ROW)
    assert apply(state, DrawBlind(), player=0) == apply(state, DrawBlind())
    with pytest.raises(NotYourTurnError, match="R12"):
        apply(state, DrawBlind(), player=1)
    over = scenario(row=ROW, phase=Phase.GAME_OVER, final_turns=0)
    with pytest.raises(BadArgumentError):
        apply(over, DrawBlind(), player=1.0)  # type: ignore[arg-type]


def test_attrs_asdict_walks_a_state_a_view_and_a_scoreboard() -> None:
    """``Map.kind_groups`` held named tuples, which ``attrs.asdict`` cannot rebuild."""
    state = new_game(load_map("europe"), "base", 3, 5)
    doc = attrs.asdict(state)
    assert doc["players"][1]["trains"] == 45
    kind = doc["rules"]["map"]["kind_groups"][0][0]
    assert set(kind) == {"colour", "length", "ferry", "mask"}
    assert attrs.asdict(observe(state, 2))["observer"] == 2
    assert attrs.asdict(score(state))["winners"] == score(state).winners
