"""The batch stepper of the compiled core against the reference: after every step each game's
state, observation (``rl.encoding.encode`` with ``rl.memory.PublicHands``), mask
(``rl.mask.action_mask``), returns (``scoring.returns``) and the deal of the next game."""

from __future__ import annotations

import pytest

from ttr_europe import fast

np = pytest.importorskip("numpy")
pytestmark = pytest.mark.skipif(
    not fast.available(), reason="the compiled core is not built (python -m ttr_europe.fast.build)"
)

from ttr_europe.envs.batch import BatchGames  # noqa: E402
from ttr_europe.errors import MalformedActionError  # noqa: E402
from ttr_europe.rl.encoding import encode  # noqa: E402
from ttr_europe.rl.mask import action_mask  # noqa: E402
from ttr_europe.rl.memory import PublicHands  # noqa: E402
from ttr_europe.rules import apply, is_terminal, new_game  # noqa: E402
from ttr_europe.scoring import returns  # noqa: E402


@pytest.mark.parametrize(
    ("map_id", "variant", "players", "options"),
    [
        ("europe", "base", 2, {}),
        ("europe", "mega", 5, {"max_long_kept": 1}),
        ("usa", "base", 3, {"second_card_optional": True}),
        ("europe", "big_cities", 4, {"reset_cap": 0}),
    ],
)
def test_batch_agrees_with_the_reference_at_every_step(
    map_id: str, variant: str, players: int, options: dict[str, object]
) -> None:
    n = 3
    batch = BatchGames(n, map_id, variant, players, seed=10, **options)
    states = [new_game(map_id, variant, players, 10 + i, **options) for i in range(n)]
    memories = [PublicHands.start(players) for _ in range(n)]
    next_seed = 10 + n
    rng = np.random.default_rng(players)
    ended = 0
    for _ in range(600):
        for i, state in enumerate(states):
            assert batch.games[i].to_state() == state
            assert batch.seats[i] == state.current
            expected = encode(state, state.current, memories[i])
            assert np.array_equal(batch.observations[i], expected)
            assert np.array_equal(batch.masks[i], action_mask(state))
        codes = np.array([rng.choice(np.flatnonzero(mask)) for mask in batch.masks])
        batch.step(codes)
        for i in range(n):
            action = batch.codec.decode(int(codes[i]), states[i])
            memories[i] = memories[i].after(states[i], action)
            states[i] = apply(states[i], action)
            if is_terminal(states[i]):
                assert batch.done[i]
                assert list(batch.returns[i, :players]) == pytest.approx(returns(states[i]))
                states[i] = new_game(map_id, variant, players, next_seed, **options)
                memories[i] = PublicHands.start(players)
                next_seed += 1
                ended += 1
            else:
                assert not batch.done[i] and not batch.returns[i].any()
    assert batch.next_seed == next_seed
    assert ended > 0 or players > 2


def test_illegal_codes_are_refused_before_any_game_steps() -> None:
    batch = BatchGames(2, seed=3)
    before = [g.to_state() for g in batch.games]
    legal = int(np.flatnonzero(batch.masks[0])[0])
    illegal = int(np.flatnonzero(~batch.masks[1])[0])
    for codes in ([legal, illegal], [legal, -1], [legal, batch.codec.size], [legal]):
        with pytest.raises(MalformedActionError):
            batch.step(codes)
    assert [g.to_state() for g in batch.games] == before


def test_reset_deals_every_game_again() -> None:
    batch = BatchGames(2, "usa", players=2, seed=0)
    batch.step([int(np.flatnonzero(m)[0]) for m in batch.masks])
    batch.reset(40)
    for i, game in enumerate(batch.games):
        state = new_game("usa", players=2, seed=40 + i)
        assert game.to_state() == state
        assert np.array_equal(batch.observations[i], encode(state, state.current))


def test_a_loaded_game_larger_than_the_layout_writes_only_what_fits() -> None:
    """A game loaded with a 16-ticket offer (more than the layout's offer part holds): the
    observation keeps to its parts (nothing past the offer part is written)."""
    from ttr_europe.maps import load_map
    from ttr_europe.state import Phase
    from ttr_europe.testing import scenario

    batch = BatchGames(1, seed=0)
    offer = [t.id for t in load_map("europe").tickets[:16]]
    batch.games[0].load(scenario(phase=Phase.INITIAL_TICKETS, offers={0: offer}, check=False))
    batch._observe(0)
    lay = batch.layout
    kept = lay.part(batch.observations[0], "offer")
    assert kept.sum() == lay.max_offer  # the first places only
    for name in ("tunnel_route", "tunnel_colour"):
        assert not lay.part(batch.observations[0], name).any()


def test_codes_that_are_not_integers_are_refused() -> None:
    batch = BatchGames(2, seed=3)
    legal = np.array([int(np.flatnonzero(m)[0]) for m in batch.masks])
    before = [g.to_state() for g in batch.games]
    for codes in (legal.astype(np.float64), legal > 0, legal.astype(str)):
        with pytest.raises(MalformedActionError, match="integers"):
            batch.step(codes)
    assert [g.to_state() for g in batch.games] == before
    batch.step(legal.astype(np.uint16))
    assert [g.to_state() for g in batch.games] != before


def test_without_autoreset_an_ended_game_waits_to_be_dealt() -> None:
    from ttr_europe.state import Phase

    batch = BatchGames(2, "usa", players=2, seed=20, autoreset=False)
    states = [new_game("usa", players=2, seed=20 + i) for i in range(2)]
    rng = np.random.default_rng(4)
    while not batch.done.any():
        codes = np.array([rng.choice(np.flatnonzero(mask)) for mask in batch.masks])
        batch.step(codes)
        for i in range(2):
            states[i] = apply(states[i], batch.codec.decode(int(codes[i]), states[i]))
    ended = int(np.flatnonzero(batch.done)[0])
    assert batch.games[ended].to_state() == states[ended]  # left over, not dealt again
    assert batch.games[ended].phase is Phase.GAME_OVER and not batch.masks[ended].any()
    assert list(batch.returns[ended, :2]) == pytest.approx(returns(states[ended]))
    assert batch.next_seed == 22
    batch.deal(ended, 77)
    fresh = new_game("usa", players=2, seed=77)
    assert batch.games[ended].to_state() == fresh
    assert np.array_equal(batch.observations[ended], encode(fresh, fresh.current))
    assert np.array_equal(batch.masks[ended], action_mask(fresh))
