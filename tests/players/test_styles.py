"""The ladder of opponents: every rung by name, each rung's idea, and the order of strength."""

from __future__ import annotations

import argparse
import random

import networkx as nx
import pytest

from repo_scripts import load_script
from ttr_europe import new_game
from ttr_europe.actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from ttr_europe.maps import load_map
from ttr_europe.players import BUILTIN_BOTS, GreedyBot, RandomBot, make_bot, play
from ttr_europe.players.styles import LADDER, SAVE_FOR, AmbitiousBot, ClaimerBot, SaverBot
from ttr_europe.rules import legal_actions
from ttr_europe.scoring import returns
from ttr_europe.state import NO_OWNER, GameState, Phase
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


@pytest.mark.parametrize("name", ["claimer", "saver", "ambitious", "racer"])
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
    argv = ["--bots", "random,claimer,saver", "--anchor", "claimer", "--games", "2"]
    argv += ["--step", "2", "--budget", "16", "--out", str(tmp_path)]
    ladder.main(argv)
    first = capsys.readouterr().out
    ladder.main(argv)  # every game is in the files now: nothing is played again
    second = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "claimer-vs-saver.jsonl", "random-vs-claimer.jsonl", "random-vs-saver.jsonl"
    ]  # fmt: skip
    rows = [line for line in first.splitlines() if line.startswith("| ")]
    ranked = [row.split(" | ")[1] for row in rows[1:4]]
    assert ranked == ["saver", "claimer", "random"]  # strongest first
    assert "| claimer | 1500 | anchor |" in first
    assert "Contradictions: none" in first and "| claimer vs random | 4 | 4-0 (100.0 %" in first
    # 2-0 decides nothing: one round gives the open neighbours 2 more games, then 4-0 does
    assert "10 games, seeds from 0, 1 rounds after the first" in first
    assert "| saver vs random | 2 | 2-0 (100.0 %, 34.2-100.0) | no |" in first
    # the rerun reads the rounds' games from the files and finds the same table
    assert first.split("processor seconds")[0] == second.split("processor seconds")[0]
    assert "seconds a game (pairs that played new games in this run):\n" in second
    assert second.rstrip().endswith("in this run):")


def test_the_rating_script_rates_searches_at_a_stated_budget(tmp_path, capsys) -> None:
    ladder = load_script("ladder")
    argv = ["--bots", "greedy,mcts-core", "--search-games", "2", "--playouts", "3"]
    argv += ["--step", "2", "--budget", "4", "--out", str(tmp_path)]
    ladder.main(argv)
    out = capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["greedy-vs-mcts-core@3.jsonl"]
    assert "mcts-core at 3 playouts a move" in out and "| mcts-core@3 |" in out
    assert "4 games, seeds from 0, 1 rounds after the first" in out  # 2 games decide nothing
    timed = ladder.build("mcts", argparse.Namespace(seconds=0.5))
    assert (timed.name, timed.iterations, timed.seconds) == ("mcts@0.5s", None, 0.5)
    fixed = ladder.build("mcts-core", argparse.Namespace(seconds=None, playouts=7))
    assert (fixed.name, fixed.iterations, fixed.seconds) == ("mcts-core@7", 7, None)
    assert ladder.build("mcts-fast", argparse.Namespace(seconds=0.5)) == "mcts-fast"


def _trains_to_finish(state: GameState, ticket: int) -> int:
    """The trains a ticket still needs: networkx's cheapest path, the seat's routes free and
    the others' closed (a check independent of the bots' own path search)."""
    graph = nx.Graph()
    seat = state.current
    for route in BOARD.routes:
        owner = state.owners[route.index]
        if owner not in (NO_OWNER, seat):
            continue
        cost = 0 if owner == seat else route.length
        a, b = route.a, route.b
        if not graph.has_edge(a, b) or graph[a][b]["cost"] > cost:
            graph.add_edge(a, b, cost=cost)
    a, b = BOARD.tickets[ticket].a, BOARD.tickets[ticket].b
    try:
        return int(nx.shortest_path_length(graph, a, b, weight="cost"))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return 1 << 20


def test_the_racer_keeps_the_two_cheapest_tickets() -> None:
    bot = make_bot("racer")
    choices = [s for s in POSITIONS if s.phase in (Phase.INITIAL_TICKETS, Phase.CHOOSE_TICKETS)]
    assert choices
    for state in choices:
        legal = legal_actions(state)
        action = bot.choose(observe(state, state.current), legal, random.Random(0))
        assert isinstance(action, KeepTickets) and len(action.tickets) == 2
        offer = state.players[state.current].offer
        costs = sorted(_trains_to_finish(state, t) for t in offer)
        kept = [BOARD.ticket_index[t] for t in action.tickets]
        assert sorted(_trains_to_finish(state, t) for t in kept) == costs[:2]


class _Watched:
    """A bot that notes every move it makes."""

    def __init__(self, bot) -> None:
        self.bot, self.name, self.moves = bot, bot.name, []

    def choose(self, view, legal, rng):
        move = self.bot.choose(view, legal, rng)
        self.moves.append((view.phase, move, DrawTickets() in legal))
        return move


def test_the_racer_never_draws_tickets_and_claims_the_longest_route_it_can() -> None:
    assert check_bot(make_bot("racer"), games=2) == []
    could_draw = claims = 0
    for seed in range(4):
        racer = _Watched(make_bot("racer"))
        seats = [racer, GreedyBot()] if seed % 2 else [GreedyBot(), racer]
        play(new_game(BOARD, "base", 2, seed), seats, seed=seed)
        assert not any(isinstance(move, DrawTickets) for _, move, _ in racer.moves)
        could_draw += sum(allowed for _, _, allowed in racer.moves)
        claims += sum(isinstance(move, ClaimRoute) for _, move, _ in racer.moves)
    assert could_draw > 20 and claims > 20  # it had the choice, and it built
    for state in POSITIONS:
        if state.phase is not Phase.TURN:
            continue
        legal = legal_actions(state)
        routes = [BOARD.route(a.route).length for a in legal if isinstance(a, ClaimRoute)]
        action = make_bot("racer").choose(observe(state, state.current), legal, random.Random(0))
        if routes:
            assert isinstance(action, ClaimRoute)
            assert BOARD.route(action.route).length == max(routes)
