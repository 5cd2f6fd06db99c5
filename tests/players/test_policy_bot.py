"""``PolicyBot``: a trained policy plays like any bot, keeps the memory of public hands, and sees
in tournaments and as a Gymnasium opponent what it sees in play."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from ttr_europe import (  # noqa: E402
    Phase,
    new_game,
)
from ttr_europe.envs.gymnasium_env import TicketToRideGymEnv  # noqa: E402
from ttr_europe.errors import BotError  # noqa: E402
from ttr_europe.players import GreedyBot, decide, play  # noqa: E402
from ttr_europe.players.policy_bot import PolicyBot  # noqa: E402
from ttr_europe.rl import PublicHands, encode  # noqa: E402
from ttr_europe.rules import why_illegal  # noqa: E402


def _first_face_up(obs, mask):
    """A policy that likes face-up cards (so that the memory fills), then the last code."""
    codes = np.flatnonzero(mask)
    return int(codes[1] if len(codes) > 1 and codes[0] < 5 else codes[-1])


class _Spy:
    """A bot that records every move it is shown (``see``) and plays like GreedyBot."""

    name = "spy"

    def __init__(self) -> None:
        self.moves: list = []
        self.greedy = GreedyBot()

    def see(self, view, action) -> None:
        self.moves.append(action)

    def choose(self, view, legal, rng):
        return self.greedy.choose(view, legal, rng)


def test_a_policy_plays_a_whole_game_with_the_memory_and_no_secret_shown_r52() -> None:
    seen = []

    def policy(obs, mask):
        seen.append(obs)
        return _first_face_up(obs, mask)

    spy = _Spy()
    start = new_game("europe", "base", 2, seed=6)
    history = play(start, [PolicyBot(policy), spy], seed=1)
    assert history[-1].phase is Phase.GAME_OVER
    assert len(spy.moves) == len(history) - 1  # shown every move, once
    memory, expected, remembered = PublicHands.start(2), [], 0
    for state, move in zip(history, spy.moves, strict=False):
        if state.current == 0 and state.phase in (Phase.INITIAL_TICKETS, Phase.CHOOSE_TICKETS):
            assert move is None  # another seat's ticket choice stays secret
        else:
            assert move is not None and why_illegal(state, move) is None
        if state.current == 0:
            expected.append(encode(state, 0, memory))
            remembered += not np.array_equal(expected[-1], encode(state, 0))
        memory = memory if move is None else memory.after(state, move)
    assert remembered > 5  # the memory mattered at many of the policy's moves
    assert len(seen) == len(expected)
    for obs, want in zip(seen, expected, strict=True):
        assert np.array_equal(obs, want)


def test_policy_bot_observation_equals_the_gymnasium_environment_s() -> None:
    """Trained in the environment, played as its opponent: the same vector at every move."""
    compared = []
    e: TicketToRideGymEnv

    def policy(obs, mask):
        env_obs = e.game.observe(e.game.state.current)  # what the environment would give it
        compared.append(bool(np.array_equal(obs, env_obs)))
        return _first_face_up(obs, mask)

    e = TicketToRideGymEnv(opponents=[PolicyBot(policy)], seat=0)
    _, info = e.reset(seed=11)
    done = False
    while not done:
        codes = np.flatnonzero(info["action_mask"])
        code = codes[1] if len(codes) > 1 and codes[0] < 5 else codes[-1]  # face-up draws too
        _, _, done, _, info = e.step(int(code))
    assert len(compared) > 20 and all(compared)
    assert any(e.game.memory.cards[seat].total for seat in (0, 1))  # the memory was not empty


def test_policy_bot_sees_the_same_moves_in_tournaments_as_in_play() -> None:
    from ttr_europe.sim.games import GameSpec, play_game

    def run(driver) -> list:
        seen = []

        def policy(obs, mask):
            seen.append(obs.copy())
            return _first_face_up(obs, mask)

        driver([PolicyBot(policy), GreedyBot()])
        return seen

    via_play = run(lambda bots: play(new_game("europe", "base", 2, 4, 0), bots, seed=4))
    via_sim = run(lambda bots: play_game(GameSpec("europe", "base", 4, tuple(bots))))
    assert len(via_play) == len(via_sim) > 20
    assert all(np.array_equal(a, b) for a, b in zip(via_play, via_sim, strict=True))


def test_a_policy_answering_a_masked_out_code_is_named() -> None:
    bot = PolicyBot(lambda obs, mask: int(np.flatnonzero(~mask)[0]), name="sloppy")
    state = new_game("europe", "base", 2, seed=2)
    with pytest.raises(BotError, match="sloppy"):
        decide(bot, state, random.Random(0))


def test_a_learned_bot_on_a_map_it_was_not_trained_on_says_so_in_one_line() -> None:
    from ttr_europe.players import make_bot

    state = new_game("usa", "base", 2, seed=2)
    message = r"bc-ppo takes 1645 inputs and \d+ codes, and usa/base gives \d+ and \d+: a learned"
    with pytest.raises(BotError, match=message + " bot plays the map it was trained on"):
        decide(make_bot("bc-ppo"), state, random.Random(0))
    europe = new_game("europe", "base", 2, seed=2)
    assert why_illegal(europe, decide(make_bot("bc-ppo"), europe, random.Random(0))) is None
