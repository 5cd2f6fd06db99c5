"""The ladder of opponents: every rung by name, each rung's idea, and the order of strength."""

from __future__ import annotations

import argparse
import random
import sys

import pytest

from repo_scripts import load_script
from ttr_europe import new_game
from ttr_europe.actions import ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets
from ttr_europe.maps import load_map
from ttr_europe.players import BUILTIN_BOTS, GreedyBot, RandomBot, make_bot, play
from ttr_europe.players.styles import LADDER, SAVE_FOR, AmbitiousBot, ClaimerBot, SaverBot
from ttr_europe.rules import legal_actions
from ttr_europe.scoring import returns
from ttr_europe.state import GameState, Phase
from ttr_europe.testing import check_bot
from ttr_europe.views import observe

BOARD = load_map("europe")


def _positions(games: int = 3) -> list[GameState]:
    """Every position of a few seeded games between GreedyBot and RandomBot."""
    states: list[GameState] = []
    for seed in range(games):
        states += play(new_game(BOARD, "base", 2, seed), [GreedyBot(), RandomBot()], seed=seed)
    return [s for s in states if s.phase is not Phase.GAME_OVER]


POSITIONS = _positions()


def test_every_rung_is_a_builtin_bot_by_its_own_name() -> None:
    assert set(LADDER) <= set(BUILTIN_BOTS)
    for name in LADDER:
        bot = make_bot(name)
        assert bot.name == name


@pytest.mark.parametrize("name", ["claimer", "saver", "ambitious"])
def test_the_new_rungs_play_legal_games(name: str) -> None:
    assert check_bot(make_bot(name), games=3) == []
    assert check_bot(make_bot(name), games=3, players=4, seed=7, opponents=[GreedyBot()]) == []


@pytest.mark.parametrize("bot", [ClaimerBot(), SaverBot()])
def test_ticket_blind_rungs_keep_as_few_tickets_as_allowed(bot) -> None:
    choices = [s for s in POSITIONS if s.phase in (Phase.INITIAL_TICKETS, Phase.CHOOSE_TICKETS)]
    assert choices
    for state in choices:
        legal = legal_actions(state)
        action = bot.choose(observe(state, state.current), legal, random.Random(0))
        fewest = min(len(a.tickets) for a in legal if isinstance(a, KeepTickets))
        assert isinstance(action, KeepTickets) and len(action.tickets) == fewest


def test_ambitious_keeps_the_fewest_tickets_worth_most_and_so_the_long_one() -> None:
    choices = [s for s in POSITIONS if s.phase in (Phase.INITIAL_TICKETS, Phase.CHOOSE_TICKETS)]
    initial = 0
    for state in choices:
        legal = legal_actions(state)
        action = AmbitiousBot().choose(observe(state, state.current), legal, random.Random(0))
        fewest = min(len(a.tickets) for a in legal if isinstance(a, KeepTickets))
        assert isinstance(action, KeepTickets) and len(action.tickets) == fewest
        offer = [BOARD.tickets[t] for t in state.players[state.current].offer]
        points = sorted((t.points for t in offer), reverse=True)[:fewest]
        assert sorted((BOARD.ticket(t).points for t in action.tickets), reverse=True) == points
        if state.phase is Phase.INITIAL_TICKETS:
            initial += 1
            assert any(BOARD.ticket(t).long for t in action.tickets)  # dealt one, kept it
            greedy = GreedyBot().choose(observe(state, state.current), legal, random.Random(0))
            assert isinstance(greedy, KeepTickets)
            assert not any(BOARD.ticket(t).long for t in greedy.tickets)  # greedy returns it
    assert initial >= 6 and len(choices) > initial


def _turn_starts() -> list[GameState]:
    return [s for s in POSITIONS if s.phase is Phase.TURN]


def test_claimer_claims_the_longest_route_it_can_pay_for_else_draws_blind() -> None:
    claimed = drew = 0
    for state in _turn_starts():
        legal = legal_actions(state)
        action = ClaimerBot().choose(observe(state, state.current), legal, random.Random(0))
        claims = [a for a in legal if isinstance(a, ClaimRoute)]
        if claims:
            longest = max(BOARD.route(a.route).length for a in claims)
            assert isinstance(action, ClaimRoute) and action in legal
            assert BOARD.route(action.route).length == longest
            claimed += 1
        else:
            assert action == DrawBlind()
            drew += 1
    assert claimed > 10 and drew > 10


def test_saver_claims_only_long_routes_while_trains_last_and_draws_its_colours() -> None:
    claimed = drew = 0
    for state in _turn_starts():
        legal = legal_actions(state)
        view = observe(state, state.current)
        action = SaverBot().choose(view, legal, random.Random(0))
        me = state.players[state.current]
        lengths = [BOARD.route(a.route).length for a in legal if isinstance(a, ClaimRoute)]
        if isinstance(action, ClaimRoute):
            claimed += 1
            assert BOARD.route(action.route).length == max(lengths)
            assert me.trains <= 2 * SAVE_FOR or max(lengths) >= SAVE_FOR
        else:
            drew += 1
            assert not lengths or (max(lengths) < SAVE_FOR and me.trains > 2 * SAVE_FOR)
            top = sorted(range(8), key=lambda c: -me.hand[c])[:2]  # colours, most held first
            if isinstance(action, DrawFaceUp):
                assert state.row[action.slot] in top
            else:
                assert action == DrawBlind() and not set(top) & set(state.row)
    assert claimed > 5 and drew > 10


def test_each_rung_beats_the_one_below_on_seeded_games() -> None:
    """A coarse check of the order (the rating table in docs/bots.md has the real figures)."""
    for weaker, stronger in [("random", "claimer"), ("claimer", "saver"), ("saver", "greedy")]:
        won = 0.0
        for seed in range(8):
            seats = [make_bot(stronger), make_bot(weaker)]
            if seed % 2:
                seats.reverse()
            final = play(new_game(BOARD, "base", 2, seed), seats, seed=seed)[-1]
            won += returns(final)[seed % 2]
        assert won >= 6, (stronger, weaker, won)


def test_the_rating_script_plays_every_pair_rates_and_resumes(tmp_path, capsys) -> None:
    ladder = load_script("ladder")
    argv = ["ladder.py", "--bots", "random,claimer,saver", "--games", "4", "--boot", "5"]
    argv += ["--out", str(tmp_path)]
    old, sys.argv = sys.argv, argv
    try:
        ladder.main()
        first = capsys.readouterr().out
        ladder.main()  # every game is in the files now: nothing is played again
        second = capsys.readouterr().out
    finally:
        sys.argv = old
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "claimer-vs-saver.jsonl", "random-vs-claimer.jsonl", "random-vs-saver.jsonl"
    ]  # fmt: skip
    rows = [line for line in first.splitlines() if line.startswith("| ")]
    ranked = [row.split(" | ")[0][2:] for row in rows[1:4]]
    assert ranked == ["random", "claimer", "saver"]  # lowest rating first
    assert "12 games, 3 pairs" in first
    assert first.split("processor seconds")[0] == second.split("processor seconds")[0]
    quick = argparse.Namespace(games=5, search_games=3, mcts_games=2)
    assert [ladder.games_for("mcts", b, quick) for b in ("random", "greedy", "mcts-fast")] == [
        0,
        2,
        2,
    ]
    # the searches meet the strongest rungs and each other, whichever side of the pair they are
    strongest = ("saver", "greedy", "bc-ppo", "mcts-fast", "mcts")
    assert [ladder.games_for(b, "mcts-core", quick) for b in strongest] == [0, 2, 2, 2, 2]
    assert "mcts-core" in ladder.DEFAULT_BOTS
    assert (ladder.games_for("mcts-fast", "saver", quick), ladder.games_for("a", "b", quick)) == (
        3,
        5,
    )
