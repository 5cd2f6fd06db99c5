"""The memory of public hands (``rl/memory.py``): what everyone saw a seat take and not yet spend,
never more than the seat holds, and worlds sampled with it that keep those cards."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from strategies import choose  # noqa: E402
from ttr_europe import (  # noqa: E402
    ClaimRoute,
    DrawFaceUp,
    PendingTunnel,
    Phase,
    WithdrawTunnel,
    apply,
    is_terminal,
    load_map,
    new_game,
)
from ttr_europe.cards import Cards  # noqa: E402
from ttr_europe.errors import BadArgumentError, MalformedActionError  # noqa: E402
from ttr_europe.rl import (  # noqa: E402
    PublicHands,
    determinize_with_memory,
)
from ttr_europe.testing import cards, scenario  # noqa: E402
from ttr_europe.views import observe  # noqa: E402


def _play(seed: int, players: int = 2, steps: int = 10_000, policy: str = "hoard"):
    """Random legal play; yields (state before, action, memory before) for every move."""
    rng = random.Random(seed)
    state = new_game("europe", "base", players, seed)
    memory = PublicHands.start(players)
    for _ in range(steps):
        if is_terminal(state):
            return
        action = choose(rng, state, policy)
        yield state, action, memory
        memory = memory.after(state, action)
        state = apply(state, action)


@pytest.mark.slow
@settings(max_examples=15)
@given(st.integers(0, 2**32), st.sampled_from((2, 3, 5)), st.sampled_from(("hoard", "build")))
def test_public_hands_never_exceed_the_hidden_truth(seed: int, players: int, policy: str) -> None:
    known_most = 0
    for state, _action, memory in _play(seed, players, 200, policy):
        for seat, known in enumerate(memory.cards):
            assert state.players[seat].hand.covers(known), (seat, known)
            known_most = max(known_most, known.total)
    assert known_most > 0  # every game takes some cards face up


def test_public_hands_follow_takes_spends_and_withdrawals() -> None:
    state = scenario(hands={0: "2red", 1: "1blue"}, row="red blue loco red green")
    memory = PublicHands.start(2)
    memory = memory.after(state, DrawFaceUp(0))
    state = apply(state, DrawFaceUp(0))
    assert memory.cards[0] == cards("1red")
    claim = ClaimRoute("Amsterdam-Bruxelles", cards("3red"))
    state = scenario(hands={0: "3red"}, row="red blue loco red green")
    assert memory.after(state, claim).cards[0] == Cards()  # spent, not seen any more
    tunnel = PendingTunnel(load_map("europe").route_index["Marseille-Zurich"],
                           cards("2green"), (3, 8, 0), 3, 2)  # fmt: skip
    waiting = scenario(phase=Phase.TUNNEL, hands={0: "1green"}, tunnel=tunnel, check=False)
    after = memory.after(waiting, WithdrawTunnel())
    assert after.cards[0] == cards("1red+2green")  # laid face up, then taken back
    assert after.cards[1] == memory.cards[1]


@settings(max_examples=15)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_worlds_sampled_with_memory_keep_the_known_cards(seed: int, world_seed: int) -> None:
    checked = 0
    for state, _action, memory in _play(seed, 3, 250):
        if any(c.total for c in memory.cards) and state.phase is not Phase.GAME_OVER:
            seat = state.current
            world = determinize_with_memory(state, seat, memory, random.Random(world_seed))
            assert observe(world, seat) == observe(state, seat)
            for other, known in enumerate(memory.cards):
                assert world.players[other].hand.covers(known)
            checked += 1
            if checked == 5:
                break
    assert checked > 0


def _forged(counts: tuple[int, ...]) -> Cards:
    return tuple.__new__(Cards, counts)


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (DrawFaceUp(-1), "no face-up slot -1"),  # would remember slot 4's card
        (DrawFaceUp(5), "no face-up slot 5"),
        (DrawFaceUp(True), "must be int"),  # would remember slot 1's card
        (ClaimRoute("Amsterdam-Bruxelles", _forged((-5,) * 9)), "negative"),  # would add 45 cards
        ("draw 1", "not an action"),
    ],
)
def test_memory_refuses_what_is_not_an_action(action: object, match: str) -> None:
    """A malformed action is refused by name, not remembered as cards a seat never took."""
    state = scenario(hands={0: "3red"}, row="red blue loco red green")
    memory = PublicHands.start(2)
    with pytest.raises(MalformedActionError, match=match):
        memory.after(state, action)  # type: ignore[arg-type]


def test_memory_refuses_a_position_it_does_not_fit() -> None:
    state = scenario(hands={0: "3red"}, row="red blue loco red green")
    with pytest.raises(BadArgumentError, match="GameState or a View, got None"):
        PublicHands.start(2).after(None, DrawFaceUp(0))  # type: ignore[arg-type]
    with pytest.raises(BadArgumentError, match="the memory has 3 seats, the position 2"):
        PublicHands.start(3).after(state, DrawFaceUp(0))
    with pytest.raises(BadArgumentError, match="the memory has 1 seats, the position 2"):
        determinize_with_memory(state, 0, PublicHands.start(1), random.Random(1))
    with pytest.raises(BadArgumentError, match="memory must be a PublicHands"):
        determinize_with_memory(state, 0, "memory", random.Random(1))  # type: ignore[arg-type]
