"""The bridge that plays our bots against edwisdom's heuristics (``benchmarks/edwisdom_bridge.py``).

Their engine itself needs a checkout, cargo and Debian's crate sources, so it is run with the
benchmark (by hand, docs/bots.md). What is checked here needs none of them: the board matched
by names whatever its order, a board that differs refused naming what, positions and moves
carried both ways without loss, and whole matches through a stand-in referee process that
speaks the bridge's protocol (``edwisdom_fake_referee.py``, our engine underneath, written in
their numbering independently of the bridge's code), including one that lies about a score.
"""

from __future__ import annotations

import copy
import io
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

from repo_scripts import load_script
from ttr_europe import GameState, Phase, apply, legal_actions, new_game
from ttr_europe.actions import ClaimRoute, DrawBlind, DrawTickets, KeepTickets
from ttr_europe.cards import Cards
from ttr_europe.maps import load_map
from ttr_europe.sim import Sequential
from ttr_europe.state import NO_OWNER

FAKE = Path(__file__).with_name("edwisdom_fake_referee.py")
fake = load_script("edwisdom_fake_referee", "tests/bench")


def _bridge() -> ModuleType:
    return load_script("edwisdom_bridge", "benchmarks")


def _board() -> Any:
    return _bridge().match_board(fake.board_json(), load_map("usa"))


def _positions(players: int, seeds: range) -> list[GameState]:
    """Every position of random games (our engine), from the deal to the end."""
    out = []
    for seed in seeds:
        state = new_game("usa", players=players, seed=seed, first_player=0)
        rng = random.Random(seed)
        while True:
            out.append(state)
            if state.phase is Phase.GAME_OVER:
                break
            state = apply(state, rng.choice(legal_actions(state)))
    return out


def test_their_board_is_matched_by_names_whatever_its_order() -> None:
    board = _board()
    usa = load_map("usa")
    assert board.route == tuple(range(len(usa.routes)))  # their segment s is our route s
    assert [usa.tickets[t].id for t in board.ticket] == [t.id for t in fake.TICKETS]
    assert [board.kind[t] for t in range(9)] == [fake.KIND[t] for t in range(9)]
    assert board.pass_action == len(usa.routes) * 9 + 14


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda b: b["cities"].__setitem__(0, "Atlantis"), "their city 'Atlantis'"),
        (lambda b: b["segments"][3].__setitem__(2, 7), "their segment 3 .* has no partner"),
        (lambda b: b["tickets"].pop(), "1 of our tickets are not theirs"),
        (lambda b: b["tickets"][0].__setitem__(2, 99), r"\(99\) is not ours"),
        (lambda b: b.__setitem__("locomotive", 0), "locomotive is card type 0"),
        (lambda b: b["colors"].__setitem__(0, "teal"), "their colours: unknown card kind 'teal'"),
        (lambda b: b.__setitem__("actions", 10), "their actions number 10"),
    ],
)
def test_a_board_that_differs_is_refused_naming_what(edit: Any, message: str) -> None:
    peer = copy.deepcopy(fake.board_json())
    edit(peer)
    with pytest.raises(_bridge().BridgeError, match=message):
        _bridge().match_board(peer, load_map("usa"))


def _same_position(ours: GameState, back: GameState) -> None:
    assert (back.phase, back.current, back.owners) == (ours.phase, ours.current, ours.owners)
    assert (back.draw_pile, back.row, back.discard) == (ours.draw_pile, ours.row, ours.discard)
    assert (back.final_turns, back.passes) == (ours.final_turns, ours.passes)
    for p, q in zip(ours.players, back.players, strict=True):
        assert (p.hand, p.trains, p.score) == (q.hand, q.trains, q.score)
        assert sorted(p.tickets) == sorted(q.tickets)
    assert back.players[ours.current].offer == ours.players[ours.current].offer
    if ours.phase is not Phase.INITIAL_TICKETS:  # theirs deals the opening offers one by one
        assert back.ticket_deck == ours.ticket_deck


@pytest.mark.parametrize("players", [2, 4])
def test_positions_and_moves_survive_the_trip(players: int) -> None:
    bridge, board = _bridge(), _board()
    base = new_game("usa", players=players, seed=0, first_player=0)
    claims = 0
    for state in _positions(players, range(2)):
        peer = fake.as_peer(state)
        back = bridge.to_state(board, base, peer)
        _same_position(state, back)
        if state.phase is Phase.GAME_OVER:
            continue
        numbers = {}
        for action in legal_actions(state):
            n = bridge.to_peer(board, back, action, peer["offer"])
            assert n == fake.number(state, action)
            if bridge.canonical(back, action) != action:  # a payment their engine lacks
                assert not fake.pays_most_colour(state, action)
                continue
            assert n not in numbers, f"{action} and {numbers.get(n)} are one move of theirs"
            numbers[n] = action
            again = bridge.from_peer(board, back, n, peer["offer"])
            if isinstance(action, KeepTickets):
                assert sorted(again.tickets) == sorted(action.tickets)
            else:
                assert again == action
            claims += isinstance(action, ClaimRoute)
        assert sorted(numbers) == peer["legal"]
    assert claims > 100


def _start(*flags: str) -> Any:
    return _bridge().Referee([sys.executable, str(FAKE), *flags])


def test_a_match_through_a_referee_process_pairs_the_deals_and_finds_no_difference() -> None:
    bridge = _bridge()
    referee = _start()
    try:
        board = bridge.match_board(referee.ask("board"), load_map("usa"))
        out = io.StringIO()
        row = bridge.play_match(referee, board, "greedy", "h0", 4, 2, 70, out, progress=False)
    finally:
        referee.close()
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(r["seed"], r["ours"]) for r in records] == [(70, [0]), (70, [1]), (71, [0]), (71, [1])]
    assert all(r["seats"][r["ours"][0]] == "greedy" for r in records)
    won = sum(1 / len(r["winners"]) for r in records if r["ours"][0] in r["winners"])
    assert row["wins"] == won and row["games"] == 4 and row["low"] <= row["rate"] <= row["high"]
    assert row["moves_checked"] > 4 * 100
    assert row["differences"] == {}, row["examples"]
    assert "no difference" in bridge.summary([row])
    for record in records:  # the referee's breakdown, named
        assert [list(b.values()) for b in record["breakdown"]] == [
            [b["routes"], b["tickets_made"], b["tickets_missed"], b["ticket_points"],
             b["longest_bonus"], b["longest_trail"], b["routes"] + b["ticket_points"]
             + b["longest_bonus"]] for b in record["breakdown"]]  # fmt: skip
        assert [b["total"] for b in record["breakdown"]] == record["totals"]
    for side, seat in (("ours", lambda r: r["ours"][0]), ("theirs", lambda r: 1 - r["ours"][0])):
        mean = sum(r["breakdown"][seat(r)]["ticket_points"] for r in records) / 4
        assert row["points"][side]["ticket_points"] == pytest.approx(mean)
    assert row["points"]["ours"]["total"] - row["points"]["theirs"]["total"] == pytest.approx(
        row["margin"]
    )


def test_a_sequential_test_stops_at_the_first_deal_s_end_where_it_decides() -> None:
    """The match stops after the first deal (played from both seats) at whose end the test
    decides, never inside a deal; a test that cannot decide stops at the cap, undecided."""
    bridge = _bridge()
    referee = _start()
    quick = Sequential(0.4, 0.6, alpha=0.1, beta=0.1)  # 6 games at the fewest
    try:
        board = bridge.match_board(referee.ask("board"), load_map("usa"))
        out = io.StringIO()
        row = bridge.play_match(referee, board, "greedy", "h0", 40, 2, 90, out, progress=False,
                                test=quick)  # fmt: skip
        capped = bridge.play_match(referee, board, "greedy", "h0", 4, 2, 90, progress=False,
                                   test=Sequential(0.4, 0.6))  # fmt: skip
    finally:
        referee.close()
    won = [1 / len(r["winners"]) if r["ours"][0] in r["winners"] else 0.0
           for r in map(json.loads, out.getvalue().splitlines())]  # fmt: skip
    assert 6 <= len(won) == row["games"] < 40 and row["games"] % 2 == 0
    verdicts = [quick.verdict(sum(won[:n]), n) for n in range(2, len(won) + 1, 2)]
    assert verdicts[:-1] == [None] * (len(verdicts) - 1) and verdicts[-1] is not None
    assert row["sequential"] == {"low": 0.4, "high": 0.6, "alpha": 0.1, "beta": 0.1,
                                 "cap": 40, "verdict": verdicts[-1]}  # fmt: skip
    assert capped["games"] == 4 and capped["sequential"]["verdict"] is None
    said = {"low": "at most 40 %", "high": "at least 60 %"}[verdicts[-1]]
    text = bridge.summary([row, capped])
    assert (f"greedy v h0: 40 % against 60 % (errors 10 % and 10 %, at most 40 games): {said} "
            f"after {row['games']} games") in text  # fmt: skip
    assert "40 % against 60 % (errors 5 % and 5 %, at most 4 games): undecided after 4" in text


@pytest.mark.parametrize("given", ["0.9,0.8", "0.8", "x,0.9", "0,0.5"])
def test_a_sequential_test_it_cannot_run_is_one_usage_line(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        _bridge().main(["/nowhere", "--sequential", given])
    assert stop.value.code == 2
    (line,) = [x for x in capsys.readouterr().err.splitlines() if "error" in x]
    assert "--sequential takes LOW,HIGH with 0 < LOW < HIGH < 1" in line


def test_a_referee_that_scores_differently_is_caught_move_by_move_and_at_the_end() -> None:
    bridge = _bridge()
    referee = _start("--lie")
    try:
        board = bridge.match_board(referee.ask("board"), load_map("usa"))
        row = bridge.play_match(referee, board, "greedy", "h1", 2, 2, 5, progress=False)
    finally:
        referee.close()
    assert row["differences"]["mover's score"] > 10
    assert row["differences"]["final score"] == 2  # our scorer disputes the running score
    assert "mover's score: " in bridge.summary([row])


def test_a_move_the_referee_refuses_is_one_clear_error() -> None:
    bridge = _bridge()
    referee = _start()
    try:
        referee.ask("new 3 2 -,h0")
        with pytest.raises(bridge.BridgeError, match="the referee refused 'step 0': illegal 0"):
            referee.ask("step 0")
    finally:
        referee.close()


@pytest.mark.parametrize(("spec", "playouts"), [("mcts-core@40", 40), ("mcts@12", 12)])
def test_a_search_is_named_with_its_fixed_budget(spec: str, playouts: int) -> None:
    bot = _bridge().make_ours(spec)
    assert bot.iterations == playouts
    assert _bridge().make_ours("greedy").name == "greedy"


def _late_position() -> GameState:
    """A position of a random 2-player game after 60 moves, a turn starting."""
    state = new_game("usa", players=2, seed=11, first_player=0)
    rng = random.Random(11)
    for _ in range(60):
        state = apply(state, rng.choice(legal_actions(state)))
    while state.phase is not Phase.TURN:
        state = apply(state, legal_actions(state)[0])
    return state


def test_a_choice_of_one_that_their_engine_makes_itself_is_no_difference() -> None:
    bridge, board = _bridge(), _board()
    base = new_game("usa", players=2, seed=0, first_player=0)
    state = attrs.evolve(_late_position(), ticket_deck=(3,))  # one ticket left to draw
    drawn = apply(state, DrawTickets())
    assert drawn.phase is Phase.CHOOSE_TICKETS and len(legal_actions(drawn)) == 1
    theirs = apply(drawn, legal_actions(drawn)[0])  # kept at once, the turn over
    checks = bridge.Checks()
    bridge._check_move(checks, board, base, state, DrawTickets(), fake.as_peer(theirs))
    assert checks.moves == 1 and not checks.differences, checks.examples


def test_after_a_reshuffle_the_cards_are_compared_by_number() -> None:
    bridge, board = _bridge(), _board()
    base = new_game("usa", players=2, seed=0, first_player=0)
    late = _late_position()
    state = attrs.evolve(late, pile=(), pile_top=0, discard=Cards(n + 3 for n in late.discard))
    ours = apply(state, DrawBlind())
    theirs = apply(attrs.evolve(state, rng=state.rng + 1), DrawBlind())  # their own shuffle
    assert theirs.players[state.current].hand != ours.players[state.current].hand
    checks = bridge.Checks()
    bridge._check_move(checks, board, base, state, DrawBlind(), fake.as_peer(theirs))
    reset = attrs.evolve(theirs, discard=Cards.of(red=5))  # their new row reset, ours not
    bridge._check_move(checks, board, base, state, DrawBlind(), fake.as_peer(reset))
    assert not checks.differences, checks.examples
    free = theirs.owners.index(NO_OWNER)
    owners = (*theirs.owners[:free], state.current, *theirs.owners[free + 1 :])
    wrong = attrs.evolve(theirs, owners=owners)
    bridge._check_move(checks, board, base, state, DrawBlind(), fake.as_peer(wrong))
    assert set(checks.differences) == {"owners"}


class _Broken:
    name = "broken"

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        raise ValueError("operands could not be broadcast")


def test_a_bot_that_raises_is_one_line_naming_it_its_seat_and_the_deal() -> None:
    bridge = _bridge()
    referee = _start()
    try:
        board = bridge.match_board(referee.ask("board"), load_map("usa"))
        base = new_game("usa", players=2, seed=0, first_player=0)
        message = r"broken \(seat 1, seed 9\) raised ValueError: operands could not be broadcast"
        with pytest.raises(bridge.BridgeError, match=message):
            bridge.play_game(referee, board, base, 9, ["h1", _Broken()], bridge.Checks())
    finally:
        referee.close()
